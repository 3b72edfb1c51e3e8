# camera-photo: on vimc, a button press saves a JPEG that decodes, is cropped to the ratio (4:3, 16:9, 1:1), has
# EXIF model and date-time, and is a frame exposed after the countdown's end (sensor_us >= trigger_us).
# shellcheck shell=bash
# rig-timeout: 200
# rig-needs: booth
# The size the crops below were worked out at.
CAM_WIDTH=648 CAM_HEIGHT=486
# shellcheck source=/dev/null # lib/camera.sh (checked on its own)
source "$RIG_DIR/lib/camera.sh"
rig_camera_up
for spec in 4:3=648x486 16:9=648x364 1:1=486x486; do
    CAM_RATIO=${spec%%=*} want=${spec#*=}
    name=photo-${CAM_RATIO/:/x}
    cam_start "$name"
    cam_shoot 30
    cam_stop
    rig_assert "the booth used libcamera's vimc camera" grep -q '"camera":"libcamera:platform/vimc' "$CAM_EVENTS"
    cam_check photos "$CAM_EVENTS" "$RIG_BOOTH" "${want%x*}" "${want#*x}" 1 || rig_fail "photo check ($CAM_RATIO)"
    rig_log "ok: $CAM_RATIO photo is $want with EXIF, exposed after the trigger"
done
