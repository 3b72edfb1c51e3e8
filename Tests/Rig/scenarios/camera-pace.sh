# camera-pace: on vimc, the booth idles the camera (camera.idle_fps = 2: a frame every half second, the rest of the
# buffers parked) and wakes far less than at full rate (idle_fps = 0), side by side over 10 s each; from a press the
# camera runs at full rate again: the photo is a frame exposed after the countdown's end, and the next idle is paced.
# shellcheck shell=bash
# rig-timeout: 240
# rig-needs: booth
# shellcheck source=/dev/null # lib/camera.sh (checked on its own)
source "$RIG_DIR/lib/camera.sh"
rig_camera_up
CAM_IDLE_FPS=0 cam_start full
sleep 2
read -r full_cpu full_wake < <(cam_idle_cost 10)
cam_stop
CAM_IDLE_FPS=2 cam_start paced
sleep 2
read -r paced_cpu paced_wake < <(cam_idle_cost 10)
rig_log "idle 10 s: full rate $full_cpu ms CPU, $full_wake wake-ups; paced (2 fps) $paced_cpu ms CPU, $paced_wake wake-ups"
rig_assert "paced idle wakes less than half as often ($paced_wake vs $full_wake)" test $((paced_wake * 2)) -lt "$full_wake"
cam_shoot 30
cam_check photos "$CAM_EVENTS" "$RIG_BOOTH" 648 486 1 || rig_fail "photo check (paced camera)"
sleep 2
read -r again_cpu again_wake < <(cam_idle_cost 10)
rig_log "idle again after the photo: $again_cpu ms CPU, $again_wake wake-ups"
rig_assert "paced again after the photo ($again_wake vs $full_wake at full rate)" test $((again_wake * 2)) -lt "$full_wake"
cam_stop
