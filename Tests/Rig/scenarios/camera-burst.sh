# camera-burst: with booth.burst = 3 one press saves three photos of three distinct frames, each exposed after its
# trigger. With flash auto, the light level is read from real libcamera as the countdown starts (vimc's IPA
# estimates none, so it is "unknown" and the flash would be used; no flash line is wired here).
# shellcheck shell=bash
# rig-timeout: 120
# rig-needs: booth
# shellcheck source=/dev/null # lib/camera.sh (checked on its own)
source "$RIG_DIR/lib/camera.sh"
rig_camera_up
export CAM_BURST=3 CAM_FLASH=auto
cam_start burst
rig_wait_for 20 "the button LED" cam_idle_ready
rig_booth_press "$CAM_EVENTS"
rig_wait_for 60 "three photos" cam_has photoSaved 3
rig_wait_for 20 "the booth to be idle again" cam_idle_ready
cam_stop
cam_check photos "$CAM_EVENTS" "$RIG_BOOTH" "$CAM_WIDTH" "$CAM_HEIGHT" 3 || rig_fail "burst photo check"
rig_assert "one sequence" test "$(cam_count captureRequested)" -eq 3
rig_assert "one light reading, as the countdown started" test "$(cam_count light)" -eq 1
rig_log "light: $(grep -F '"type":"light"' "$CAM_EVENTS")"
