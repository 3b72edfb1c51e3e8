# camera-lag: benchmark on vimc: shutter lag in frame intervals ((sensor_us - trigger_us) / frame interval) and
# capture -> durable photo time over CAM_LAG_PRESSES (22) presses; the frame interval is measured with cam.
# shellcheck shell=bash
# rig-timeout: 600
# rig-needs: booth
# The size its figures were always measured at (docs/dev/benchmarks.md).
CAM_WIDTH=648 CAM_HEIGHT=486
# shellcheck source=/dev/null # lib/camera.sh (checked on its own)
# rig-default: no (benchmark: shutter lag in frame intervals, capture -> durable)
source "$RIG_DIR/lib/camera.sh"
rig_camera_up
presses=${CAM_LAG_PRESSES:-22}
cam_start lag
for ((i = 1; i <= presses; i++)); do cam_shoot 30; done
rig_wait_for 20 "the booth to be idle" cam_idle_ready
cam_stop
cam_check photos "$CAM_EVENTS" "$RIG_BOOTH" "$CAM_WIDTH" "$CAM_HEIGHT" "$presses" >"$RIG_OUT/photos.txt" || rig_fail "photo check"
(cd "$RIG_OUT" && timeout 60 cam -c 1 --capture=40 -s "width=$CAM_WIDTH,height=$CAM_HEIGHT") >"$RIG_OUT/cam.out" 2>&1 \
    || rig_fail "cam capture for the frame interval"
interval=$(cam_check interval "$RIG_OUT/cam.out") || rig_fail "no frame interval"
cam_check stats "$CAM_EVENTS" "$interval" | tee "$RIG_OUT/stats.txt" >&2
echo "load: $(cat /proc/loadavg)" >>"$RIG_OUT/stats.txt"
