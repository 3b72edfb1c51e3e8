# camera-timeout: vimc unbound from its driver mid-stream (frames stop, as with a pulled cable): the next press's
# capture times out, the booth reports it, goes aborted -> idle and refuses presses; when vimc is bound again it
# reopens the camera within a few seconds and the next press saves a photo.
# shellcheck shell=bash
# rig-timeout: 150
# rig-needs: booth
# shellcheck source=/dev/null # lib/camera.sh (checked on its own)
source "$RIG_DIR/lib/camera.sh"
rig_camera_up
export CAM_TIMEOUT=3.0
cam_start timeout
cam_shoot 30
drv=/sys/bus/platform/drivers/vimc
dev=$(basename "$(find "$drv"/ -maxdepth 1 -name 'vimc*' -type l | head -1)")
[[ -n $dev ]] || rig_fail "no device bound to $drv"
rig_log "unbinding $dev from vimc"
echo "$dev" >"$drv/unbind"
rig_wait_for 10 "the video nodes to go" bash -c '! compgen -G "/sys/class/video4linux/video*" >/dev/null'
rig_wait_for 10 "the button LED" cam_idle_ready
rig_gpio_click booth button 100
rig_wait_for 30 "the capture to be given up" cam_has_text '"to":"aborted"'
rig_wait_for 10 "the booth to go idle after the abort" cam_has_text '"from":"aborted","to":"idle"'
grep -E '"type":"(error|setting|state)"' "$CAM_EVENTS" | tail -8 >&2
rig_assert "the error is reported" cam_has_text '"message":"camera: camera platform/vimc'
rig_assert "the camera is reported unavailable" cam_has_text '"name":"warning.cameraUnavailable","value":"true"'
rig_assert "no photo of the aborted sequence" test "$(cam_count photoSaved)" -eq 1
rig_sleep_ms 500
rig_assert "presses refused while the camera is away (button LED off)" test "$(rig_gpio_value booth button_led)" = 0
rig_log "binding $dev again"
echo "$dev" >"$drv/bind"
rig_camera_up
t0=0 t1=0
rig_now_ms t0
rig_wait_for 20 "the booth to reopen the camera" \
    cam_has_text '"name":"warning.cameraUnavailable","value":"false"'
rig_now_ms t1
rig_log "camera back in the booth $((t1 - t0)) ms after its nodes were ready"
cam_shoot 30
cam_stop
grep -i camera "$RIG_OUT/timeout.log" >&2 || true
python3 - "$CAM_EVENTS" <<'PY' || rig_fail "the photo after recovery"
import json, sys
evs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
caps = [e for e in evs if e["type"] == "capture"]
assert len(caps) == 2 and all(c["sensor_us"] >= c["trigger_us"] for c in caps), caps
print("captures after recovery ok:", [c["capture"] for c in caps])
PY
