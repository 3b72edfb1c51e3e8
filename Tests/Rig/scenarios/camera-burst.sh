# camera-burst: with booth.burst = 3 one press saves three photos of three distinct frames, each exposed after its
# trigger.
# shellcheck shell=bash
# rig-timeout: 120
# rig-needs: booth
# shellcheck source=/dev/null # lib/camera.sh (checked on its own)
source "$RIG_DIR/lib/camera.sh"
rig_camera_up
export CAM_BURST=3
cam_start burst
rig_wait_for 20 "the button LED" cam_idle_ready
rig_gpio_click booth button 100
rig_wait_for 60 "three photos" cam_has photoSaved 3
rig_wait_for 20 "the booth to be idle again" cam_idle_ready
cam_stop
cam_check photos "$CAM_EVENTS" "$RIG_BOOTH" 648 486 3 || rig_fail "burst photo check"
rig_assert "one sequence" test "$(cam_count captureRequested)" -eq 3
