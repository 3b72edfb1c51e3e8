# power-cut-stick: a FAT stick behind dm-log-writes while the real booth exports to it twice (12 photos to a new
# stick, then, after one more photo, to the same stick again: new file, manifest replaced); every write and flush
# the stick saw is logged, with a mark when the booth reported an export finished (unmounted, "safe to remove").
# lib/logwrites.py rebuilds the stick at every flush point and at random cuts between and checks each: fsck.fat
# finds no damaged file and no shared clusters, every file the manifest lists verifies, every final name holds a
# whole photo (or is the one empty placeholder a FAT rename can leave), and an acknowledged export is all there.
# The replay runs on the host (lib/powercut.sh pc_check), its reading checked against the kernel's view.
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 900
# shellcheck source=SCRIPTDIR/../lib/powercut.sh disable=SC1091
source "$RIG_DIR/lib/powercut.sh"
# shellcheck source=SCRIPTDIR/../lib/usb.sh disable=SC1091
source "$RIG_DIR/lib/usb.sh"
rig_modprobe loop vfat nls_cp437 nls_ascii
store=$RIG_OUT/photos
usb_seed "$store" 12 160 2026-11-21 100
# The crash state this scenario found on 2026-11-23 (Tests/Rig/cases/torn-export-folder.img.xz: the new export
# folder's own cluster not yet written at a flush, before the booth fsynced the folder's parent) is still caught.
mkdir -p "$PC_DIR/case"
xz -dc "$RIG_DIR/cases/torn-export-folder.img.xz" >"$PC_DIR/case/torn.img"
if "$RIG_PY" "$PC_TOOL" case stick "$PC_DIR/case/torn.img" flush "$PC_DIR/case" >"$RIG_OUT/case.txt" 2>&1; then
    rig_fail "the kept crash state torn-export-folder passed the check: $(cat "$RIG_OUT/case.txt")"
fi
rig_assert "the kept crash state torn-export-folder is a violation at a flush point" \
    grep -q '/HeyLook: a folder fsck must rebuild, at a flush point' "$RIG_OUT/case.txt"
usb_booth_start
mkdir -p "$PC_DIR"
stick=$PC_DIR/stick.img
rig_usb_image "$stick" 16
dev=$(pc_logged_disk stick "$stick" 128)
pc_marker_start "$USB_EVENTS" stick "$store"

usb_mount "$dev" "$USB_MEDIA/stick"
rig_wait_for 180 "the first exportFinished" usb_has_event exportFinished 1
rig_assert "the first export copied 12 and unmounted" grep -q '"copied":12,"unmounted":true' <(usb_last exportFinished)
rig_booth_press "$USB_EVENTS"
rig_wait_for 60 "a photo saved" usb_has_event photoSaved 1
usb_mount "$dev" "$USB_MEDIA/stick"
rig_wait_for 120 "the second exportFinished" usb_has_event exportFinished 2
rig_assert "the second export copied 1 and unmounted" grep -q '"copied":1,"unmounted":true' <(usb_last exportFinished)
usb_booth_stop
pc_marker_stop
pc_close_disk stick
# The stick as the kernel shows it, for the replay's reading of the last state to equal.
mkdir -p "$PC_DIR/view" "$RIG_OUT/kernel-view"
mount -t vfat -o ro,loop "$stick" "$PC_DIR/view" || rig_fail "mount of the stick failed"
cp -r "$PC_DIR/view/HeyLook" "$RIG_OUT/kernel-view/"
umount "$PC_DIR/view"
pc_check stick "$stick" "$store" "$RIG_OUT/kernel-view" --events "$USB_EVENTS" --events-store "$store"
