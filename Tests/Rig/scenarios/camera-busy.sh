# camera-busy: while `cam --capture` holds the camera the booth starts with a clear "in use" error and refuses
# presses (button LED off); when cam exits the booth opens the camera within a few seconds and a press works.
# shellcheck shell=bash
# rig-timeout: 120
# rig-needs: booth
# shellcheck source=/dev/null # lib/camera.sh (checked on its own)
source "$RIG_DIR/lib/camera.sh"
rig_camera_up
cam -c 1 --capture -s "width=$CAM_WIDTH,height=$CAM_HEIGHT" >"$RIG_OUT/cam.out" 2>&1 &
holder=$!
rig_wait_for 30 "cam to stream" grep -q 'seq:' "$RIG_OUT/cam.out"
cam_start busy
rig_wait_for 10 "the camera warning" cam_has_text '"name":"warning.cameraUnavailable","value":"true"'
rig_wait_for 10 "the busy error in the booth's log" grep -q 'in use by another program (EBUSY)' "$RIG_OUT/busy.log"
grep 'camera' "$RIG_OUT/busy.log" | head -3 >&2
rig_sleep_ms 500
rig_assert "the button LED is off (presses refused)" test "$(rig_gpio_value booth button_led)" = 0
kill -INT "$holder"
wait "$holder" || true
t0=0 t1=0
rig_now_ms t0
rig_wait_for 15 "the booth to reopen the camera" cam_has_text '"name":"warning.cameraUnavailable","value":"false"'
rig_now_ms t1
rig_log "camera reopened $((t1 - t0)) ms after cam exited"
cam_shoot 30
cam_stop
cam_check photos "$CAM_EVENTS" "$RIG_BOOTH" "$CAM_WIDTH" "$CAM_HEIGHT" 1 || rig_fail "photo check after the camera was freed"
