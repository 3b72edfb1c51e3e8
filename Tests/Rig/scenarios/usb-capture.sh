# usb-capture: a button press during an export takes and saves a photo while the export runs; the next insert
# copies just that photo.
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 300
# shellcheck source=SCRIPTDIR/../lib/usb.sh disable=SC1091
source "$RIG_DIR/lib/usb.sh"
store=$RIG_OUT/photos
# A slow stick (768 KiB/s written, QEMU's throttling) keeps the export running for 40 s and more, whatever the host's
# load, with few photos: the press comes after the first one is copied, the photo is saved a few seconds later.
usb_seed "$store" "${USB_CAPTURE_PHOTOS:-40}" 768 2026-11-22 1
usb_booth_start
img=$RIG_OUT/stick.img
rig_usb_image "$img" 64
mnt=$USB_MEDIA/stick
dev=$(rig_usb_plug "$img" bps_wr=786432)
usb_mount "$dev" "$mnt"
rig_wait_for 30 "exportStarted" usb_has_event exportStarted 1
rig_wait_for 60 "the first photo copied" usb_has_event exportProgress 2
rig_booth_press "$USB_EVENTS"
rig_wait_for 60 "photoSaved" usb_has_event photoSaved 1
rig_assert "the export is still running when the photo is saved" test "$(usb_count exportFinished)" -eq 0
rig_wait_for 180 "exportFinished" usb_has_event exportFinished 1
saved=$(grep -n '"type":"photoSaved"' "$USB_EVENTS" | cut -d: -f1)
done_at=$(grep -n '"type":"exportFinished"' "$USB_EVENTS" | cut -d: -f1)
rig_assert "photoSaved (line $saved) before exportFinished (line $done_at)" test "$saved" -lt "$done_at"
rig_log "$(usb_last exportFinished)"
rig_usb_pull
dev=$(rig_usb_plug "$img")
usb_mount "$dev" "$mnt"
rig_wait_for 60 "the second exportFinished" usb_has_event exportFinished 2
rig_assert "the second insert copies the new photo only" grep -q '"copied":1,' <(usb_last exportFinished)
rig_usb_pull
rig_assert "fsck.fat -n is clean" fsck.fat -n "$img"
rig_assert "every photo on the stick, byte for byte" usb_image_check "$img" "$store" --complete
usb_booth_stop
