# camera-idle: benchmark on vimc: the booth idle for CAM_IDLE_SECONDS (60) with the camera streaming, at full rate
# (camera.idle_fps = 0, every frame given back and handled) and paced (idle_fps = 2, the default), one after the
# other in one run: CPU time and wake-ups (context switches of all threads) per second. Prints the table and writes
# it to RIG_OUT/idle.txt; reports, never fails on a figure.
# shellcheck shell=bash
# rig-timeout: 400
# rig-needs: booth
# rig-default: no (benchmark: idle CPU use and wake-ups, full rate vs paced)
# The size its figures were always measured at (docs/dev/benchmarks.md).
CAM_WIDTH=648 CAM_HEIGHT=486
# shellcheck source=/dev/null # lib/camera.sh (checked on its own)
source "$RIG_DIR/lib/camera.sh"
rig_camera_up
seconds=${CAM_IDLE_SECONDS:-60}
{
    echo "| booth idle, vimc streaming, $seconds s | CPU % of one core | wake-ups per second |"
    echo "|---|---|---|"
} >"$RIG_OUT/idle.txt"
for fps in 0 2; do
    CAM_IDLE_FPS=$fps cam_start "idle-$fps"
    sleep 2
    read -r cpu wake _ < <(cam_idle_cost "$seconds")
    cam_stop
    label=$([[ $fps == 0 ]] && echo "full rate (idle_fps = 0)" || echo "paced (idle_fps = $fps)")
    printf '| %s | %d.%d | %d |\n' "$label" $((cpu / seconds / 10)) $((cpu / seconds % 10)) $((wake / seconds)) \
        >>"$RIG_OUT/idle.txt"
done
cat "$RIG_OUT/idle.txt" >&2
