#!/bin/sh
# PID 1 of the rig VM (busybox): mount the host root and work share over 9p, chroot, run lib/guest.sh, power off.
export PATH=/bin
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
while read -r m; do insmod "/modules/$m" || echo "rig-init: insmod $m failed"; done </modules/order

arg() { sed -n "s/.*\\<$1=\\([^ ]*\\).*/\\1/p" /proc/cmdline; }
WORK=$(arg rig.work)
RIG_DIR=$(arg rig.dir)
VM=$(arg rig.vm) # "-2" for the second busybox VM (lib/guest.sh)

mount_9p() { # tag dir options: virtio devices may still be probing, so retry for a few seconds
    i=0
    until mount -t 9p -o "trans=virtio,version=9p2000.L,msize=262144,$3" "$1" "$2" 2>/dev/null; do
        i=$((i + 1)); [ $i -gt 50 ] && { echo "rig-init: cannot mount $1"; return 1; }
        sleep 0.1
    done
}
fail() { echo "rig-init: $*"; echo "RIG-INIT-FAILED: $*"; poweroff -f; }

mount_9p hostroot /host ro,cache=loose || fail "no host root"
mount_9p work "/host$WORK" cache=none || fail "no work share"
mount -t tmpfs tmpfs /host/tmp
mount -t tmpfs tmpfs /host/run
mount -t tmpfs tmpfs /host/var/tmp 2>/dev/null
mount -t devtmpfs devtmpfs /host/dev
mkdir -p /host/dev/pts /host/dev/shm
ln -s /proc/self/fd /host/dev/fd
ln -s /proc/self/fd/0 /host/dev/stdin
ln -s /proc/self/fd/1 /host/dev/stdout
ln -s /proc/self/fd/2 /host/dev/stderr
mount -t devpts devpts /host/dev/pts
mount -t tmpfs tmpfs /host/dev/shm
mount -t proc proc /host/proc
mount -t sysfs sysfs /host/sys
echo "rig-init: userland up after $(cut -d' ' -f1 /proc/uptime) s"
chroot /host /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp \
    TERM=dumb /bin/bash "$RIG_DIR/lib/guest.sh" "$WORK" plan "$VM" </dev/console >/dev/console 2>&1
echo "rig-init: guest runner exited with $?"
sync
poweroff -f
