# usb-smoke: a FAT stick image is hot-plugged, mounted, written, pulled; the file is on the image and fsck is clean.
# shellcheck shell=bash
# rig-timeout: 90
img=$RIG_OUT/stick.img
rig_usb_image "$img" 16
dev=$(rig_usb_plug "$img")
rig_log "stick is $dev"
mnt=/run/rig/stick
mkdir -p "$mnt"
mount -t vfat "$dev" "$mnt" || rig_fail "mount $dev failed"
echo "hello from the rig" >"$mnt/HELLO.TXT"
umount "$mnt"
rig_usb_pull
rig_assert "the stick's block device is gone" bash -c '! compgen -G "/sys/block/sd*"'
rig_assert "fsck.fat -n is clean" fsck.fat -n "$img"
rig_assert "fsck.fat lists the file" bash -c "fsck.fat -n -l '$img' | grep -q '/HELLO.TXT'"
# Plug again (a new drive id each time) and read the file back.
dev=$(rig_usb_plug "$img")
mount -t vfat -o ro "$dev" "$mnt" || rig_fail "second mount of $dev failed"
rig_assert "the file reads back" grep -qx "hello from the rig" "$mnt/HELLO.TXT"
umount "$mnt"
rig_usb_pull
