# usb-readonly: a stick mounted read-only gets a clear exportFailed message and nothing is written to it.
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 150
# shellcheck source=SCRIPTDIR/../lib/usb.sh disable=SC1091
source "$RIG_DIR/lib/usb.sh"
usb_seed "$RIG_OUT/photos" 3 256 2026-11-22 1
usb_booth_start
img=$RIG_OUT/stick.img
rig_usb_image "$img" 16
sha256sum <"$img" >"$RIG_OUT/image.before"
mnt=$USB_MEDIA/stick
dev=$(rig_usb_plug "$img")
usb_mount "$dev" "$mnt" ro
rig_wait_for 60 "exportFailed" usb_has_event exportFailed 1
line=$(usb_last exportFailed)
rig_log "$line"
rig_assert "the message says read-only" grep -q 'The stick is read-only' <<<"$line"
rig_assert "not reported as removed" grep -q '"stickRemoved":false' <<<"$line"
rig_assert "no exportFinished" test "$(usb_count exportFinished)" -eq 0
rig_wait_for 10 "the read-only stick to be unmounted" bash -c "! grep -q ' $mnt ' /proc/self/mountinfo"
rig_usb_pull
sha256sum <"$img" >"$RIG_OUT/image.after"
rig_assert "the image is unchanged, byte for byte" cmp -s "$RIG_OUT/image.before" "$RIG_OUT/image.after"
rig_assert "fsck.fat -n is clean" fsck.fat -n "$img"
usb_booth_stop
