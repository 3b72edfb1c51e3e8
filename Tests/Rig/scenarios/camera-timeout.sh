# camera-timeout: vimc unbound from its driver mid-stream (frames stop, the nodes vanish, and with no udevd libcamera
# is not told): the next press's capture times out, the booth reports it, goes aborted -> idle and refuses presses,
# without crashing. libcamera 0.0.3 cannot let go of a camera that vanished unseen, so the booth says so and exits
# with status 75; after vimc is bound again the restarted booth (systemd's Restart=always) saves a photo.
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
rig_booth_press "$CAM_EVENTS"
rig_wait_for 30 "the capture to be given up" cam_has_text '"to":"aborted"'
rig_wait_for 10 "the booth to go idle after the abort" cam_has_text '"from":"aborted","to":"idle"'
grep -E '"type":"(error|setting|state)"' "$CAM_EVENTS" | tail -8 >&2
rig_assert "the error is reported" cam_has_text '"message":"camera: no frame within 3000 ms'
rig_assert "the camera is reported unavailable" cam_has_text '"name":"warning.cameraUnavailable","value":"true"'
rig_assert "no photo of the aborted sequence" test "$(cam_count photoSaved)" -eq 1
# The booth's next reopen meets a camera libcamera cannot let go of: it says so and exits with status 75
# (EX_TEMPFAIL) for systemd's Restart=always to start it afresh; it does not crash and never hangs.
rig_wait_for 15 "the booth to ask for a restart" grep -q 'restart the booth' "$RIG_OUT/timeout.log"
rc=0
timeout 15 tail --pid="$CAM_PID" -f /dev/null || rig_fail "the booth did not exit after asking for a restart"
wait "$CAM_PID" || rc=$?
CAM_PID=
rig_assert "the booth exited with status 75 (restart me), not a crash ($rc)" test "$rc" -eq 75
# Its last errors (standard error is not the journal here, so the lines carry no priority prefix).
grep -E '^(error|warning): ' "$RIG_OUT/timeout.log" | tail -2 >&2 || true
rig_log "binding $dev again"
echo "$dev" >"$drv/bind"
rig_camera_up
t0=0 t1=0
rig_now_ms t0
cam_start timeout-restarted
rig_now_ms t1
rig_log "restarted booth ready in $((t1 - t0)) ms"
cam_shoot 30
cam_stop
cam_check photos "$CAM_EVENTS" "$RIG_BOOTH" "$CAM_WIDTH" "$CAM_HEIGHT" 1 || rig_fail "photo check after the restart"
