# camera-webcam: a USB webcam (lib/webcam.py's UVC camera over USB/IP, imported by vhci-hcd and driven by uvcvideo)
# is found by libcamera's uvcvideo pipeline at its largest size; a button press saves a JPEG of the frame it streams
# (its four colour bars, in order), with EXIF, exposed after the trigger, for a YUYV and for an MJPEG webcam alike;
# `booth doctor` says which mode it streams.
# shellcheck shell=bash
# rig-timeout: 400
# rig-needs: booth
# 0 x 0: the camera's largest size, the webcam's only one (160x120: USB/IP and the device are Python in the guest).
CAM_WIDTH=0 CAM_HEIGHT=0
WEBCAM_WIDTH=160 WEBCAM_HEIGHT=120
# shellcheck source=/dev/null # lib/camera.sh (checked on its own)
source "$RIG_DIR/lib/camera.sh"
for fmt in yuyv mjpeg; do
    rig_webcam_plug "$fmt" "$WEBCAM_WIDTH" "$WEBCAM_HEIGHT"
    cam -l >"$RIG_OUT/cam-$fmt.txt" 2>&1 || rig_fail "cam -l failed: $(tail -3 "$RIG_OUT/cam-$fmt.txt")"
    rig_assert "libcamera lists the webcam ($fmt)" grep -q '1209:0c4d' "$RIG_OUT/cam-$fmt.txt"
    cam_config "$RIG_OUT/doctor-$fmt.toml"
    "$RIG_BOOTH" doctor --config "$RIG_OUT/doctor-$fmt.toml" >"$RIG_OUT/doctor-$fmt.txt" 2>&1 || true
    rig_assert "doctor says the booth streams the webcam's ${fmt^^}" \
        grep -q "the booth streams ${WEBCAM_WIDTH}x$WEBCAM_HEIGHT ${fmt^^}" "$RIG_OUT/doctor-$fmt.txt"
    cam_start "webcam-$fmt"
    cam_shoot 60
    cam_stop
    rig_assert "the booth used the webcam through libcamera" grep -q '"camera":"libcamera:[^"]*1209:0c4d' "$CAM_EVENTS"
    cam_check photos "$CAM_EVENTS" "$RIG_BOOTH" "$WEBCAM_WIDTH" "$WEBCAM_HEIGHT" 1 || rig_fail "photo check ($fmt)"
    "$RIG_PY" "$RIG_DIR/lib/webcam.py" bars "$CAM_EVENTS" || rig_fail "the $fmt photo is not the webcam's frame"
    rig_webcam_unplug
    rig_log "ok: a $fmt webcam's photo is ${WEBCAM_WIDTH}x$WEBCAM_HEIGHT, its frame, with EXIF, exposed after the trigger"
done
