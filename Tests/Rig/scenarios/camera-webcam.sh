# camera-webcam: USB webcams (lib/webcam.py's UVC cameras over USB/IP, imported by vhci-hcd and driven by uvcvideo),
# one streaming YUYV and one MJPEG, are found by libcamera's uvcvideo pipeline at their largest size, and `booth
# doctor` says which mode it streams of each; with each as the booth's camera, a button press saves a JPEG of the
# frame it streams (its four colour bars, in order), with EXIF, exposed after the trigger.
# shellcheck shell=bash
# rig-timeout: 400
# rig-needs: booth
# 0 x 0: the camera's largest size, the webcam's only one (160x120: USB/IP and the device are Python in the guest).
CAM_WIDTH=0 CAM_HEIGHT=0
WEBCAM_WIDTH=160 WEBCAM_HEIGHT=120
# shellcheck source=/dev/null # lib/camera.sh (checked on its own)
source "$RIG_DIR/lib/camera.sh"
rig_webcam_plug "$WEBCAM_WIDTH" "$WEBCAM_HEIGHT" yuyv mjpeg
cam -l >"$RIG_OUT/cam.txt" 2>&1 || rig_fail "cam -l failed: $(tail -3 "$RIG_OUT/cam.txt")"
cam_config "$RIG_OUT/doctor.toml"
"$RIG_BOOTH" doctor --config "$RIG_OUT/doctor.toml" >"$RIG_OUT/doctor.txt" 2>&1 || true
for product in yuyv:1209:0c4d mjpeg:1209:0c4e; do
    fmt=${product%%:*} usb=${product#*:}
    CAM_ID=$(sed -n "s/^[0-9]*: 'Rig Webcam' (\(.*-$usb\))$/\1/p" "$RIG_OUT/cam.txt")
    [[ -n $CAM_ID ]] || rig_fail "libcamera does not list the $fmt webcam ($usb): $(cat "$RIG_OUT/cam.txt")"
    rig_log "ok: libcamera lists the $fmt webcam as $CAM_ID"
    streams="the booth streams ${WEBCAM_WIDTH}x$WEBCAM_HEIGHT ${fmt^^} unless camera.width and camera.height say"
    rig_assert "doctor says the booth streams the $fmt webcam's ${fmt^^}" \
        grep -qxF "    $streams otherwise" "$RIG_OUT/doctor.txt"
    cam_start "webcam-$fmt"
    cam_shoot 60
    cam_stop
    rig_assert "the booth used the $fmt webcam" grep -qF "\"camera\":\"libcamera:$CAM_ID\"" "$CAM_EVENTS"
    cam_check photos "$CAM_EVENTS" "$RIG_BOOTH" "$WEBCAM_WIDTH" "$WEBCAM_HEIGHT" 1 || rig_fail "photo check ($fmt)"
    "$RIG_PY" "$RIG_DIR/lib/webcam.py" bars "$CAM_EVENTS" || rig_fail "the $fmt photo is not the webcam's frame"
    rig_log "ok: the $fmt webcam's photo is ${WEBCAM_WIDTH}x$WEBCAM_HEIGHT, its frame, with EXIF, after the trigger"
done
rig_webcam_unplug
