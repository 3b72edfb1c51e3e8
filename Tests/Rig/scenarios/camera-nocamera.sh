# camera-nocamera: the booth starts with no camera (vimc not loaded): a clear error, presses refused (button LED
# off); vimc loaded later: the booth opens it within a few seconds and a press saves a photo.
# shellcheck shell=bash
# rig-timeout: 120
# rig-needs: booth
# shellcheck source=/dev/null # lib/camera.sh (checked on its own)
source "$RIG_DIR/lib/camera.sh"
if grep -q '^vimc ' /proc/modules; then modprobe -d "$RIG_KROOT" -r vimc || rig_fail "cannot unload vimc"; fi
cam_start nocamera
rig_wait_for 10 "the camera warning" cam_has_text '"name":"warning.cameraUnavailable","value":"true"'
rig_assert "a clear error in the log" grep -q 'libcamera sees no cameras' "$RIG_OUT/nocamera.log"
grep camera "$RIG_OUT/nocamera.log" | head -2 >&2
rig_assert "button LED off" test "$(rig_gpio_value booth button_led)" = 0
rig_booth_press "$CAM_EVENTS"
rig_wait_for 10 "the press to be refused" cam_has_text 'no camera: photo refused'
rig_assert "no capture" test "$(cam_count captureRequested)" -eq 0
rig_camera_up
t0=0 t1=0
rig_now_ms t0
rig_wait_for 20 "the booth to open the camera" cam_has_text '"name":"warning.cameraUnavailable","value":"false"'
rig_now_ms t1
rig_log "camera opened $((t1 - t0)) ms after vimc was up"
cam_shoot 30
cam_stop
cam_check photos "$CAM_EVENTS" "$RIG_BOOTH" "$CAM_WIDTH" "$CAM_HEIGHT" 1 || rig_fail "photo check"
