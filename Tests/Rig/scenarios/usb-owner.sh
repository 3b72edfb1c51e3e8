# usb-owner: with export.sticks = "owner" (the shipped default) a stick the booth does not know gets nothing: a
# stickUnknown event, its files exactly as they were (a guest's file, no HeyLook folder), the first and the last LED
# lit in turn. Holding the knob's switch while it is in makes it the owner's (stickClaimed, its id in
# owner-sticks.txt and in its manifest) and exports every photo to it; at its next insert it gets the new photo
# with no hold. A second, new stick is refused again. Fails with the owner check removed (the guest's stick gets
# the photos at once) and with the claim removed (the hold only toggles the visual countdown).
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 240
# shellcheck source=SCRIPTDIR/../lib/usb.sh disable=SC1091
source "$RIG_DIR/lib/usb.sh"
store=$RIG_OUT/photos
usb_seed "$store" 3 256 2026-11-22 1
usb_booth_start export.sticks='"owner"'
mnt=$USB_MEDIA/stick

# usb_guest_stick IMG: a new stick image holding one file of its owner's, GUEST.TXT (written outside the media
# root, where the booth does not look).
usb_guest_stick() {
    local dev guest=$RIG_STATE/guest
    rig_usb_image "$1" 32
    dev=$(rig_usb_plug "$1")
    usb_mount "$dev" "$guest"
    echo "a guest's own file" >"$guest/GUEST.TXT"
    umount "$guest"
    rig_usb_pull
}

# usb_tree: the files below the mounted stick, with their sizes.
usb_tree() { (cd "$mnt" && find . -printf '%p %s\n' | sort); }

# usb_insert_unknown IMG N NAME: a new guest's stick IMG plugged in and mounted below the media root, its files listed
# in RIG_OUT/NAME.before; waits for the booth's Nth stickUnknown event.
usb_insert_unknown() {
    local dev
    usb_guest_stick "$1"
    dev=$(rig_usb_plug "$1")
    usb_mount "$dev" "$mnt"
    usb_tree >"$RIG_OUT/$3.before"
    rig_wait_for 30 "stickUnknown #$2" usb_has_event stickUnknown "$2"
}

img=$RIG_OUT/stick.img
usb_insert_unknown "$img" 1 tree
rig_gpio_sample "$RIG_OUT/leds-unknown" 2000 20 booth led0 led1 led2 led3
rig_gpio_changes "$RIG_OUT/leds-unknown" >&2
rig_assert "the first LED alone is lit" grep -q ' 1 0 0 0$' "$RIG_OUT/leds-unknown"
rig_assert "the last LED alone is lit" grep -q ' 0 0 0 1$' "$RIG_OUT/leds-unknown"
rig_assert "no other frame" bash -c "! grep -vE ' (1 0 0 0|0 0 0 1)$' '$RIG_OUT/leds-unknown'"
rig_assert "no export started" test "$(usb_count exportStarted)" -eq 0
usb_tree >"$RIG_OUT/tree.after"
rig_assert "the unknown stick's files are as they were" cmp -s "$RIG_OUT/tree.before" "$RIG_OUT/tree.after"
rig_assert "the unknown stick is still mounted" usb_mounted "$mnt"
rig_assert "the journal line says how to make it the owner's" grep -q "hold the knob's switch" "$RIG_OUT/booth.log"

# The hold: the stick becomes the owner's and gets every photo.
rig_gpio_click booth knob-switch 1500
rig_wait_for 10 "stickClaimed" usb_has_event stickClaimed 1
rig_wait_for 60 "exportFinished" usb_has_event exportFinished 1
rig_assert "every photo copied" grep -q '"copied":3,' <(usb_last exportFinished)
rig_wait_for 10 "the stick to be unmounted" usb_unmounted "$mnt"
rig_usb_pull
rig_assert "every photo on the stick, byte for byte" usb_image_check "$img" "$store" --complete
id=$(sed -n 's/^stick //p' "$RIG_OUT/manifest.txt")
rig_log "the stick's id: $id; owner-sticks.txt: $(tr '\n' ' ' <"$RIG_OUT/owner-sticks.txt")"
rig_assert "owner-sticks.txt holds the stick's id" grep -qx "$id" "$RIG_OUT/owner-sticks.txt"

# A new photo; the owner's stick gets it at its next insert, with no hold.
rig_booth_press "$USB_EVENTS"
rig_wait_for 60 "photoSaved" usb_has_event photoSaved 1
dev=$(rig_usb_plug "$img")
usb_mount "$dev" "$mnt"
rig_wait_for 60 "the second exportFinished" usb_has_event exportFinished 2
rig_assert "the second insert copies the new photo" grep -q '"copied":1,' <(usb_last exportFinished)
rig_assert "no second stickUnknown" test "$(usb_count stickUnknown)" -eq 1
rig_wait_for 10 "the stick to be unmounted" usb_unmounted "$mnt"
rig_usb_pull

# Another new stick: refused like the first.
other=$RIG_OUT/other.img
usb_insert_unknown "$other" 2 other
usb_tree >"$RIG_OUT/other.after"
rig_assert "the other stick's files are as they were" cmp -s "$RIG_OUT/other.before" "$RIG_OUT/other.after"
umount "$mnt"
rig_usb_pull
rig_assert "still two exports" test "$(usb_count exportFinished)" -eq 2
rig_assert "fsck.fat -n is clean" fsck.fat -n "$other"
usb_booth_stop
