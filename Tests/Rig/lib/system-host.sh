# Host side of the system VM: a whole Debian 12 system (systemd as PID 1, udev, D-Bus, polkit) on an ext4 disk image,
# booted with the rig's kernel, for the system-* scenarios (the booth installed from its .deb). Sourced by
# Tests/Rig/run after lib/host.sh.
# shellcheck shell=bash

# The image's packages besides the .deb's Depends: what a minimal Raspberry Pi OS Lite has that the scenarios use
# (kmod for the modules, procps, alsa-utils to record the loopback, e2fsprogs for an ext4 disk, python3 to check a
# recording, NetworkManager with its shared mode's dnsmasq, nftables and wpa_supplicant for the hotspot), the hotspot's
# "phone" (iw, iproute2, busybox's udhcpc, zbarimg to read the card), and CUPS with a printer (below).
SYS_PACKAGES=systemd,systemd-sysv,udev,dbus,polkitd,kmod,procps,alsa-utils,e2fsprogs,python3,network-manager
SYS_PACKAGES+=,dnsmasq-base,nftables,wpasupplicant,wireless-regdb,iw,iproute2,busybox,zbar-tools
# CUPS (the booth's package recommends it) and a printer for system-print: ippeveprinter, with avahi for its DNS-SD.
SYS_PACKAGES+=,cups-daemon,cups-client,cups-ipp-utils,avahi-daemon

# sys_build_base: the system image's base, which needs nothing of the package under test (so `Tests/Rig/run
# --prepare` makes it while the package is built): mmdebstrap minbase + SYS_PACKAGES, a directory in the cache (once
# per recipe; nice, beside the package's build). Sets SYS_BASE.
sys_build_base() {
    local stamp dir log t0=$SECONDS
    stamp=$({ declare -f sys_build_base; echo "$SYS_PACKAGES"; } | md5sum | cut -c1-12)
    dir=$RIG_CACHE/sysbase-$stamp
    SYS_BASE=$dir/root
    [[ -d $SYS_BASE && -e $dir/.built ]] && return 0
    command -v mmdebstrap >/dev/null || rig_die "mmdebstrap is missing (rig_install_host_packages installs it)"
    rm -rf "$RIG_CACHE"/sysbase-* && mkdir -p "$dir"
    log=$dir/mmdebstrap.log
    rig_note "building the system image's base (mmdebstrap bookworm minbase + systemd, udev, dbus, polkitd, ...)"
    nice mmdebstrap --variant=minbase --mode=root --format=directory --include="$SYS_PACKAGES" bookworm "$SYS_BASE" \
        >"$log" 2>&1 || { tail -30 "$log" >&2; rig_die "mmdebstrap failed, see $log"; }
    sys_unmount_under "$SYS_BASE"
    touch "$dir/.built"
    rig_note "system image's base built in $((SECONDS - t0)) s"
}

# sys_unmount_under ROOT: unmounts whatever is mounted under ROOT (what mmdebstrap or a chroot left: mkfs.ext4 -d
# fails on a mount, and a copy would take it along).
sys_unmount_under() {
    local mount
    awk -v r="$1/" 'index($2, r) == 1 { print $2 }' /proc/mounts | sort -r | while read -r mount; do
        umount -l "$mount" || rig_die "cannot unmount $mount, left mounted in $1"
    done
}

# sys_build_image DEB: builds (once per base, recipe, kernel and Depends of DEB) the system image $SYS_IMAGE: a copy
# of the base (sys_build_base) with everything DEB depends on installed in it (apt-get satisfy in a chroot, with the
# host's mirror: the Depends field, alternatives and all; the guest has no network, so `dpkg -i` of the package must
# find its dependencies installed, and nothing more than those is added), the rig kernel's module tree (gpio-sim and
# vimc in extra/), the rig's units, then `mkfs.ext4 -d` into a sparse 3 GB raw image. Sets SYS_IMAGE.
sys_build_image() {
    local deb=$1 depends stamp dir
    sys_build_base
    depends=$(dpkg-deb -f "$deb" Depends) || rig_die "cannot read the Depends of $deb"
    stamp=$({
        declare -f sys_build_image sys_image_depends sys_image_customize
        echo "$SYS_BASE|$depends|$KABI|$KVERSION"
        ls -a "$KROOT/lib/modules/$KABI/extra"
    } 2>/dev/null | md5sum | cut -c1-12)
    dir=$RIG_CACHE/system-$stamp
    SYS_IMAGE=$dir/disk.img
    [[ -s $SYS_IMAGE && -e $dir/.built ]] && return 0
    rm -rf "$RIG_CACHE"/system-* && mkdir -p "$dir"
    local root=$dir/root t0=$SECONDS
    rig_note "building the system image (the base and the package's Depends)"
    cp -a "$SYS_BASE" "$root" || rig_die "cannot copy the system image's base"
    sys_image_depends "$root" "$depends" "$dir/apt.log"
    sys_image_customize "$root"
    sys_unmount_under "$root"
    truncate -s 3G "$dir/disk.tmp"
    mkfs.ext4 -q -F -L booth-root -d "$root" "$dir/disk.tmp" || rig_die "mkfs.ext4 -d of the system image failed"
    rm -rf "$root"
    mv "$dir/disk.tmp" "$SYS_IMAGE"
    touch "$dir/.built"
    rig_note "system image built in $((SECONDS - t0)) s ($(du -h "$SYS_IMAGE" | cut -f1) used)"
}

# sys_image_depends ROOT DEPENDS LOG: installs DEPENDS (a Depends field) into the Debian system at ROOT from the host's
# mirror, as mmdebstrap's own hooks do: /dev, /proc and /sys mounted, the host's resolv.conf, no service started
# (policy-rc.d), the package lists fetched and removed again.
sys_image_depends() {
    local root=$1 depends=$2 log=$3 ok=1
    mount --bind /dev "$root/dev" && mount -t proc proc "$root/proc" && mount -t sysfs sysfs "$root/sys" \
        || { sys_unmount_under "$root"; rig_die "cannot mount /dev, /proc and /sys in the system image's root"; }
    mv "$root/etc/resolv.conf" "$root/etc/resolv.conf.rig" 2>/dev/null || true
    cp -L /etc/resolv.conf "$root/etc/resolv.conf"
    printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d" && chmod +x "$root/usr/sbin/policy-rc.d"
    { chroot "$root" apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get satisfy -y -qq --no-install-recommends "$depends" &&
        chroot "$root" apt-get clean; } >"$log" 2>&1 || ok=0
    rm -f "$root/usr/sbin/policy-rc.d" "$root/etc/resolv.conf" "$root"/var/lib/apt/lists/*_*
    mv "$root/etc/resolv.conf.rig" "$root/etc/resolv.conf" 2>/dev/null || true
    sys_unmount_under "$root"
    ((ok)) || { tail -30 "$log" >&2; rig_die "installing the package's Depends in the system image failed, see $log"; }
}

# sys_image_customize ROOT: the image's own setup: the rig kernel's modules, fstab with the rig's work share on /rig, the units that create the simulated devices at boot and
# run the scenarios, and timers a test VM has no use for masked.
sys_image_customize() {
    local root=$1
    mkdir -p "$root/lib/modules" "$root/rig"
    cp -a "$KROOT/lib/modules/$KABI" "$root/lib/modules/"
    echo booth >"$root/etc/hostname"
    printf '/dev/vda / ext4 rw,noatime 0 1\n' >"$root/etc/fstab"
    cat >"$root/etc/systemd/system/rig.mount" <<'UNIT'
# The rig's work share (host Tests/Rig/work): scenarios, the .deb, results.
[Unit]
DefaultDependencies=no
Before=local-fs.target
[Mount]
What=work
Where=/rig
Type=9p
Options=trans=virtio,version=9p2000.L,msize=262144,cache=none
[Install]
WantedBy=local-fs.target
UNIT
    cat >"$root/etc/systemd/system/rig-devices.service" <<'UNIT'
# The Pi's devices, simulated by real drivers, before the booth starts: gpio-sim as a Raspberry Pi GPIO header,
# vimc as the camera, snd-aloop as the sound card.
[Unit]
DefaultDependencies=no
RequiresMountsFor=/rig
After=systemd-udevd.service systemd-modules-load.service
Before=heylook-booth.service multi-user.target
[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/bin/bash /rig/rig/lib/system-devices.sh
[Install]
WantedBy=multi-user.target
UNIT
    cat >"$root/etc/systemd/system/rig-runner.service" <<'UNIT'
# Runs the planned system-* scenarios (lib/guest.sh), then powers off (or reboots when a scenario asks).
[Unit]
RequiresMountsFor=/rig
After=multi-user.target rig-devices.service
[Service]
Type=simple
ExecStart=/bin/bash /rig/rig/lib/system-guest.sh
StandardOutput=journal+console
StandardError=journal+console
[Install]
WantedBy=rig.target
UNIT
    cat >"$root/etc/systemd/system/rig.target" <<'UNIT'
[Unit]
Description=The rig: the system plus the scenario runner
Requires=multi-user.target
After=multi-user.target
AllowIsolate=yes
UNIT
    mkdir -p "$root/etc/systemd/system/local-fs.target.wants" "$root/etc/systemd/system/multi-user.target.wants" \
        "$root/etc/systemd/system/rig.target.wants"
    ln -sf ../rig.mount "$root/etc/systemd/system/local-fs.target.wants/rig.mount"
    ln -sf ../rig-devices.service "$root/etc/systemd/system/multi-user.target.wants/rig-devices.service"
    ln -sf ../rig-runner.service "$root/etc/systemd/system/rig.target.wants/rig-runner.service"
    ln -sf rig.target "$root/etc/systemd/system/default.target"
    local unit
    for unit in apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer e2scrub_reap.service fstrim.timer \
        serial-getty@ttyS0.service getty@tty1.service; do
        ln -sf /dev/null "$root/etc/systemd/system/$unit"
    done
    # The journal survives reboots (the reboot scenario reads the previous boot's).
    mkdir -p "$root/var/log/journal"
}

# sys_packages DEB: writes the two packages the system scenarios install into $RIG_WORK/debs: DEB as current.deb and
# the same package with its version raised (+rig2) as upgrade.deb (an upgrade must restart the service).
sys_packages() {
    local deb=$1 d=$RIG_WORK/debs tmp version
    mkdir -p "$d"
    cp "$deb" "$d/current.deb"
    tmp=$(mktemp -d)
    dpkg-deb -R "$deb" "$tmp/pkg" || rig_die "dpkg-deb -R $deb failed"
    version=$(dpkg-deb -f "$deb" Version)
    sed -i "s/^Version: .*/Version: $version+rig2/" "$tmp/pkg/DEBIAN/control"
    dpkg-deb --root-owner-group -Zxz -z1 -b "$tmp/pkg" "$d/upgrade.deb" >/dev/null || rig_die "dpkg-deb -b failed"
    rm -rf "$tmp"
    printf 'SYS_VERSION=%q\nSYS_UPGRADE_VERSION=%q\nSYS_OLDEST_VERSION=%q\n' "$version" "$version+rig2" \
        "$SYS_OLDEST_VERSION" >>"$RIG_WORK/env"
}

# The oldest version the package upgrades from (docs/install.md): 0.6.0, the first numbered release, and the commit it
# was released from. system-upgrade-oldest installs it and upgrades to the package under test.
SYS_OLDEST_VERSION=0.6.0
SYS_OLDEST_COMMIT=424fefc4c7985e926c8394d512de1d98b42d145e

# sys_oldest_build: makes the oldest supported package in the cache ($SYS_OLDEST_CACHED), built once with that
# release's own scripts/package from the repository's history (git archive of SYS_OLDEST_COMMIT) and named by its
# commit, so it is never stale. Built in debug mode (the copy's scripts/package has its build flags' `-c release`
# changed): the same code and package, for about 200 CPU seconds instead of 520 here. One build at a time (a lock in the
# cache): `Tests/Rig/run --prepare` starts it while the package under test is built, and a run that needs it then
# waits for that build and uses its result. Its log is the cache's oldest-package.log. Fails with why on stdout.
SYS_OLDEST_CACHED=$RIG_CACHE/heylook-booth_${SYS_OLDEST_VERSION}_${SYS_OLDEST_COMMIT:0:12}.deb
sys_oldest_build() (
    local log=$RIG_CACHE/oldest-package.log tmp lock
    mkdir -p "$RIG_CACHE"
    # A subshell: the lock goes with it, however it returns.
    exec {lock}>"$RIG_CACHE/.oldest-package.lock"
    flock "$lock"
    [[ ! -s $SYS_OLDEST_CACHED ]] || return 0
    if ! git -C "$RIG_ROOT" cat-file -e "$SYS_OLDEST_COMMIT^{commit}" 2>/dev/null; then
        echo "the repository at $RIG_ROOT lacks commit $SYS_OLDEST_COMMIT ($SYS_OLDEST_VERSION): clone it with its" \
            "history (git fetch --unshallow)"
        return 1
    fi
    tmp=$(mktemp -d)
    mkdir -p "$tmp/src"
    if ! { git -C "$RIG_ROOT" archive "$SYS_OLDEST_COMMIT" | tar -x -C "$tmp/src" &&
        sed -i 's/^flags=(-c release /flags=(-c debug /' "$tmp/src/scripts/package" &&
        grep -q '^flags=(-c debug ' "$tmp/src/scripts/package" &&
        (cd "$tmp/src" && HEYLOOK_VERSION=$SYS_OLDEST_VERSION nice scripts/package --output "$tmp/out") &&
        cp "$tmp/out"/heylook-booth_"${SYS_OLDEST_VERSION}"_*.deb "$SYS_OLDEST_CACHED.tmp" &&
        mv "$SYS_OLDEST_CACHED.tmp" "$SYS_OLDEST_CACHED"; } >"$log" 2>&1; then
        echo "building heylook-booth $SYS_OLDEST_VERSION failed: $(tail -3 "$log" | tr '\n' ' ') (all of it: $log)"
        rm -rf "$tmp"
        return 1
    fi
    rm -rf "$tmp"
)

# sys_oldest_package: puts the oldest supported package at $RIG_WORK/debs/oldest.deb (sys_oldest_build), or writes why
# it cannot to $RIG_WORK/debs/oldest.failed. Run in the background: a build takes minutes, the scenario needing it runs
# last and waits for the file.
sys_oldest_package() {
    local d=$RIG_WORK/debs why
    rm -f "$d/oldest.deb" "$d/oldest.failed"
    if ! why=$(sys_oldest_build); then
        echo "$why" >"$d/oldest.failed"
        return 0
    fi
    cp "$SYS_OLDEST_CACHED" "$d/oldest.deb.tmp" && mv "$d/oldest.deb.tmp" "$d/oldest.deb"
}

# sys_build_initramfs: the system VM's initramfs (lib/system-init.sh mounts the disk and starts its systemd).
sys_build_initramfs() {
    rig_build_initramfs initramfs-system "$RIG_DIR/lib/system-init.sh" virtio_pci virtio_blk ext4 9pnet_virtio
}

# sys_prepare SCENARIO...: everything the system VM needs in the work share and the cache for SCENARIOs: the packages
# (BOOTH_DEB, else scripts/package at the repository root; the oldest supported one, built in the background, when
# system-upgrade-oldest is among them), the image, a copy-on-write overlay of it for this run (the cached image
# stays pristine; a reboot boots the overlay again) and a copy of the rig's lib/ and scenarios/ for the guest.
sys_prepare() {
    local deb=${BOOTH_DEB:-}
    if [[ -z $deb ]]; then
        [[ -x $RIG_ROOT/scripts/package ]] || rig_die "the system scenarios need BOOTH_DEB or scripts/package"
        rig_note "building the package (scripts/package)"
        deb=$("$RIG_ROOT/scripts/package" 2>"$RIG_WORK/package.log") \
            || { tail -30 "$RIG_WORK/package.log" >&2; rig_die "scripts/package failed"; }
    fi
    [[ -f $deb ]] || rig_die "BOOTH_DEB=$deb is not a file"
    sys_packages "$deb"
    if [[ " $* " == *" system-upgrade-oldest "* ]]; then sys_oldest_package & fi
    sys_build_image "$deb"
    qemu-img create -q -f qcow2 -F raw -b "$SYS_IMAGE" "$RIG_WORK/system.qcow2" || rig_die "qemu-img create failed"
    mkdir -p "$RIG_WORK/rig"
    cp -a "$RIG_DIR/lib" "$RIG_DIR/scenarios" "$RIG_WORK/rig/"
    # The uinput remote (rig_remote_make): the system image has no compiler, so it is built here for the guest.
    mkdir -p "$RIG_WORK/bin"
    gcc -O2 -o "$RIG_WORK/bin/remote-keys.tmp" "$RIG_DIR/lib/remote-keys.c" \
        && mv "$RIG_WORK/bin/remote-keys.tmp" "$RIG_WORK/bin/remote-keys" || rig_die "cannot compile lib/remote-keys.c"
}
