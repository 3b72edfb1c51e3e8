#!/bin/sh
# /init of the system VM's initramfs (busybox): load the disk, ext4 and 9p transport modules, mount the Debian image's
# root file system read-write and hand over to its systemd (switch_root). The image has its own module tree for the rest.
export PATH=/bin
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
# crc32c-intel needs SSE4.2, which the emulated CPU lacks: ext4 then uses crc32c-generic.
while read -r m; do insmod "/modules/$m" 2>/dev/null || echo "rig-init: insmod $m failed"; done </modules/order

fail() { echo "RIG-INIT-FAILED: $*"; poweroff -f; }
i=0
until [ -b /dev/vda ]; do # virtio devices may still be probing
    i=$((i + 1)); [ $i -gt 100 ] && fail "no /dev/vda"
    sleep 0.05
done
# The rig's work share (the image's rig.mount) has its transport's driver bound before systemd mounts it. Left to udev,
# the driver's load raced the mount: 9pnet_virtio registers the transport before its device, so a mount in between
# found "no channels available", the share and the scenario runner failed, and the host waited 360 s to boot again.
i=0
until grep -qs work /sys/bus/virtio/drivers/9pnet_virtio/virtio*/mount_tag; do
    i=$((i + 1)); [ $i -gt 100 ] && fail "no 9p channel for the work share"
    sleep 0.05
done
mount -t ext4 -o rw,noatime /dev/vda /mnt || fail "cannot mount /dev/vda"
[ -L /mnt/sbin/init ] || [ -x /mnt/sbin/init ] || fail "no /sbin/init on /dev/vda"
echo "rig-init: switching to the image's systemd after $(cut -d' ' -f1 /proc/uptime) s"
umount /proc /sys
mount --move /dev /mnt/dev
exec switch_root /mnt /sbin/init
