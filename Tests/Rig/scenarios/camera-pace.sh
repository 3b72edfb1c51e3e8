# camera-pace: on vimc, the booth idles the camera (camera.idle_fps = 2: a frame every half second, the rest of the
# buffers parked) and wakes at most PACED_WAKE_BUDGET times a second (idle_fps = 0, full rate, measured beside it for
# the log: about 6 times as often on a quiet host); from a press the camera runs at full rate again: the photo is a
# frame exposed after the countdown's end, and the next idle is paced.
#
# A wake-up is a voluntary context switch of one of the booth's threads (it blocked, and something woke it); a
# preemption is logged, not counted: a busy host adds those. The budget is absolute, not a ratio to the full rate:
# beside a busy host vimc itself streams fewer frames, and the full rate fell to twice the paced count.
# shellcheck shell=bash
# rig-timeout: 240
# rig-needs: booth
# shellcheck source=/dev/null # lib/camera.sh (checked on its own)
source "$RIG_DIR/lib/camera.sh"
rig_camera_up
CAM_IDLE_FPS=0 cam_start full
sleep 2
read -r full_cpu full_wake full_inv < <(cam_idle_cost 10)
cam_stop
CAM_IDLE_FPS=2 cam_start paced
sleep 2
read -r paced_cpu paced_wake paced_inv < <(cam_idle_cost 10)
rig_log "idle 10 s: full rate $full_cpu ms CPU, $full_wake wake-ups ($full_inv preempted); paced (2 fps) $paced_cpu ms CPU, $paced_wake wake-ups ($paced_inv preempted)"
# Quiet: 14 a second paced, 83 at full rate.
PACED_WAKE_BUDGET=30
rig_assert "paced idle wakes at most $PACED_WAKE_BUDGET times a second ($paced_wake in 10 s)" \
    test "$paced_wake" -le $((PACED_WAKE_BUDGET * 10))
cam_shoot 30
cam_check photos "$CAM_EVENTS" "$RIG_BOOTH" "$CAM_WIDTH" "$CAM_HEIGHT" 1 || rig_fail "photo check (paced camera)"
sleep 2
read -r again_cpu again_wake again_inv < <(cam_idle_cost 10)
rig_log "idle again after the photo: $again_cpu ms CPU, $again_wake wake-ups ($again_inv preempted)"
rig_assert "paced again after the photo ($again_wake wake-ups in 10 s)" test "$again_wake" -le $((PACED_WAKE_BUDGET * 10))
cam_stop
