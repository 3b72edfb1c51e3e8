# Host side of the rig: packages, kernel, modules, initramfs, booth binary. Sourced by Tests/Rig/run.
# shellcheck shell=bash

# Prints a timestamped progress line on stderr.
rig_note() { printf '[rig %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# Stops the run with a message.
rig_die() { rig_note "error: $*"; exit 2; }

# Installs the host packages the rig and the guest tools need, running apt-get update first.
rig_install_host_packages() {
    local need=() pair cmd pkg
    for pair in qemu-system-x86_64:qemu-system-x86 /usr/share/qemu/qboot.rom:qemu-system-data \
        /bin/busybox:busybox-static cpio:cpio modprobe:kmod gcc:gcc make:make \
        gpiomon:gpiod cam:libcamera-tools aplay:alsa-utils mkfs.fat:dosfstools mcopy:mtools \
        /usr/bin/python3:python3 /usr/lib/python3/dist-packages/numpy/__init__.py:python3-numpy \
        xz:xz-utils zstd:zstd timeout:coreutils dmsetup:dmsetup e2fsck:e2fsprogs losetup:mount \
        /usr/lib/x86_64-linux-gnu/libcamera/ipa_vimc.so:libcamera-ipa mmdebstrap:mmdebstrap qemu-img:qemu-utils \
        usbip:usbip cjpeg:libjpeg-turbo-progs; do
        cmd=${pair%%:*} pkg=${pair#*:}
        if [[ $cmd == /* ]]; then [[ -e $cmd ]] && continue
        else command -v "$cmd" >/dev/null && continue; fi
        need+=("$pkg")
    done
    ((${#need[@]})) || return 0
    rig_note "installing host packages: ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    local log
    log=$(mktemp)
    { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}"; } >"$log" 2>&1 \
        || { tail -30 "$log" >&2; rm -f "$log"; rig_die "apt-get install ${need[*]} failed"; }
    rm -f "$log"
}

# Sets KABI (e.g. 6.1.0-56-amd64), KVERSION (Debian version) and KDIR (the cache dir for them).
rig_pick_kernel() {
    local image
    image=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: linux-image-\([0-9].*-amd64\)$/\1/p' | head -1)
    if [[ -z $image ]]; then
        apt-get update -qq >&2
        image=$(apt-cache depends linux-image-amd64 | sed -n 's/^ *Depends: linux-image-\([0-9].*-amd64\)$/\1/p' | head -1)
    fi
    [[ -n $image ]] || rig_die "cannot find the kernel behind linux-image-amd64"
    KABI=$image
    KVERSION=$(apt-cache policy "linux-image-$KABI" | sed -n 's/^ *Candidate: //p')
    KSERIES=${KABI%%.0-*}                       # 6.1
    KDIR=$RIG_CACHE/kernel-$KABI-$KVERSION
    KROOT=$KDIR/root
}

# Downloads and unpacks the Debian kernel packages into $KROOT (once per kernel version).
rig_fetch_kernel() {
    [[ -e $KDIR/.unpacked ]] && return 0
    local flavour=${KABI##*-} common=${KABI%-*}-common
    rig_note "downloading kernel $KABI ($KVERSION)"
    rm -rf "$KDIR" && mkdir -p "$KDIR/debs" "$KROOT"
    (cd "$KDIR/debs" && apt-get download -qq -o APT::Sandbox::User=root "linux-image-$KABI" "linux-headers-$KABI" \
        "linux-headers-$common" "linux-kbuild-$KSERIES" "linux-source-$KSERIES") >&2 \
        || { apt-get update -qq >&2 && (cd "$KDIR/debs" && apt-get download -qq -o APT::Sandbox::User=root "linux-image-$KABI" \
            "linux-headers-$KABI" "linux-headers-$common" "linux-kbuild-$KSERIES" "linux-source-$KSERIES") >&2; } \
        || rig_die "apt-get download of the kernel packages failed"
    local deb
    for deb in "$KDIR"/debs/*.deb; do dpkg -x "$deb" "$KROOT" || rig_die "dpkg -x $deb failed"; done
    [[ $flavour == amd64 ]] || rig_die "only amd64 is supported"
    rm -rf "$KDIR/debs"
    touch "$KDIR/.unpacked"
}

# Extracts the few source files the rig needs from Debian's linux-source tarball into $KDIR/src.
rig_extract_source() {
    [[ -e $KDIR/src/.extracted ]] && return 0
    local tarball
    tarball=$(echo "$KROOT"/usr/src/linux-source-"$KSERIES".tar.*)
    [[ -f $tarball ]] || rig_die "no linux-source tarball in $KROOT/usr/src"
    rig_note "extracting sources from $(basename "$tarball")"
    rm -rf "$KDIR/src" && mkdir -p "$KDIR/src"
    local top=linux-source-$KSERIES
    tar -xf "$tarball" -C "$KDIR/src" --strip-components=1 \
        "$top/drivers/gpio/gpio-sim.c" "$top/drivers/gpio/gpiolib.h" "$top/kernel/irq/irq_sim.c" \
        "$top/drivers/media/test-drivers/vimc" "$top/scripts/extract-vmlinux" \
        || rig_die "tar -xf $tarball failed"
    touch "$KDIR/src/.extracted"
}

# Builds gpio-sim (with irq_sim inside) and vimc against the unpacked headers into $KROOT/lib/modules/$KABI/extra.
rig_build_modules() {
    local extra=$KROOT/lib/modules/$KABI/extra stamp
    stamp=.built-$(declare -f rig_build_modules | md5sum | cut -c1-12) # a changed recipe rebuilds
    [[ -e $extra/$stamp ]] && return 0
    rig_note "building gpio-sim and vimc modules"
    local hdr=$KROOT/usr/src/linux-headers-$KABI common=$KROOT/usr/src/linux-headers-${KABI%-*}-common
    # The headers' Makefile includes the -common tree by absolute path: point it at our copy.
    grep -qx "include /usr/src/linux-headers-${KABI%-*}-common/Makefile" "$hdr/Makefile" \
        || grep -qx "include $common/Makefile" "$hdr/Makefile" || rig_die "unexpected $hdr/Makefile"
    echo "include $common/Makefile" >"$hdr/Makefile"
    local b=$KDIR/build
    rm -rf "$b" && mkdir -p "$b/gpio-sim" "$b/vimc"
    cp "$KDIR/src/drivers/gpio/gpio-sim.c" "$b/gpio-sim/gpio-sim-main.c"
    cp "$KDIR/src/drivers/gpio/gpiolib.h" "$b/gpio-sim/"
    # irq_to_desc is not exported in 6.1; generic_handle_irq does the same for a simple irq.
    sed 's/handle_simple_irq(irq_to_desc(\([^)]*\)))/generic_handle_irq(\1)/' \
        "$KDIR/src/kernel/irq/irq_sim.c" >"$b/gpio-sim/irq_sim.c"
    grep -q 'generic_handle_irq' "$b/gpio-sim/irq_sim.c" || rig_die "irq_sim.c patch did not apply"
    printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-main.o irq_sim.o\n' >"$b/gpio-sim/Kbuild"
    cp "$KDIR"/src/drivers/media/test-drivers/vimc/*.[ch] "$b/vimc/"
    # shellcheck disable=SC2016 # a literal make variable
    sed 's/\$(CONFIG_VIDEO_VIMC)/m/' "$KDIR/src/drivers/media/test-drivers/vimc/Makefile" >"$b/vimc/Kbuild"
    local m
    for m in gpio-sim vimc; do
        make -s -C "$hdr" M="$b/$m" -j"$(nproc)" modules >"$b/$m.log" 2>&1 \
            || { cat "$b/$m.log" >&2; rig_die "building $m failed"; }
    done
    rm -rf "$extra" && mkdir -p "$extra"
    cp "$b/gpio-sim/gpio-sim.ko" "$b/vimc/vimc.ko" "$extra/"
    depmod -b "$KROOT" "$KABI" || rig_die "depmod failed"
    touch "$extra/$stamp"
}

# Extracts an uncompressed vmlinux from Debian's vmlinuz (boots faster, no decompressor).
rig_extract_vmlinux() {
    [[ -s $KDIR/vmlinux ]] && return 0
    rig_note "extracting vmlinux"
    sh "$KDIR/src/scripts/extract-vmlinux" "$KROOT/boot/vmlinuz-$KABI" >"$KDIR/vmlinux.tmp" \
        || rig_die "extract-vmlinux failed"
    mv "$KDIR/vmlinux.tmp" "$KDIR/vmlinux"
}

# rig_build_initramfs NAME INIT MODULE...: builds $KDIR/NAME.cpio, a busybox initramfs holding MODULE... (with
# their dependencies, loaded in order by INIT from /modules/order) and the script INIT as /init. Cached by recipe.
rig_build_initramfs() {
    local name=$1 init=$2 stamp
    shift 2
    local out=$KDIR/$name.cpio
    stamp=$({ declare -f rig_build_initramfs; cat "$init" /bin/busybox; echo "$*"; } | md5sum | cut -c1-12)
    [[ -s $out && -e $KDIR/$name.$stamp ]] && return 0
    rig_note "building initramfs $name"
    local d=$KDIR/$name
    rm -rf "$d" "$KDIR/$name".* && mkdir -p "$d"/{bin,dev,proc,sys,mnt,modules,host}
    cp /bin/busybox "$d/bin/busybox"
    ln -s busybox "$d/bin/sh"
    local mod path order=()
    while read -r _ path _; do
        path=${path#"$KROOT"}
        mod=$(basename "$path")
        case $path in
            *.ko.xz) xz -dc "$KROOT$path" >"$d/modules/${mod%.xz}"; mod=${mod%.xz} ;;
            *.ko.zst) zstd -qdc "$KROOT$path" >"$d/modules/${mod%.zst}"; mod=${mod%.zst} ;;
            *) cp "$KROOT$path" "$d/modules/$mod" ;;
        esac
        [[ " ${order[*]} " == *" $mod "* ]] || order+=("$mod")
    done < <(modprobe -d "$KROOT" -S "$KABI" --show-depends -a "$@" 2>/dev/null | grep '^insmod')
    printf '%s\n' "${order[@]}" >"$d/modules/order"
    cp "$init" "$d/init" && chmod +x "$d/init"
    (cd "$d" && find . | cpio -o -H newc --quiet) >"$out.tmp" || rig_die "cpio failed"
    mv "$out.tmp" "$out" && touch "$KDIR/$name.$stamp"
}

# rig_prepare_kernel: the host packages, then the kernel, its modules and the busybox VMs' initramfs, each made
# once into the cache (sets KABI, KDIR, KROOT).
rig_prepare_kernel() {
    rig_install_host_packages
    rig_pick_kernel
    rig_fetch_kernel
    rig_extract_source
    rig_build_modules
    rig_extract_vmlinux
    rig_build_initramfs initramfs "$RIG_DIR/lib/init.sh" virtio_pci 9pnet_virtio 9p
    rig_fetch_usbip
}

RIG_USBIP_PY_VERSION=0.7.0

# rig_fetch_usbip: unpacks PyPI's pure-Python usbip wheel (the rig's webcam, lib/webcam.py) into
# $RIG_CACHE/usbip-<version>, once. Sets RIG_USBIP (that folder, for the guest's PYTHONPATH).
rig_fetch_usbip() {
    local dir=$RIG_CACHE/usbip-$RIG_USBIP_PY_VERSION
    RIG_USBIP=$dir/lib
    [[ -e $dir/.unpacked ]] && return 0
    rig_note "fetching PyPI's usbip $RIG_USBIP_PY_VERSION (the rig's webcam)"
    rm -rf "$dir" && mkdir -p "$RIG_USBIP"
    python3 -m pip download --only-binary :all: --no-deps "usbip==$RIG_USBIP_PY_VERSION" -d "$dir" >"$dir/pip.log" 2>&1 \
        || { tail -5 "$dir/pip.log" >&2; rig_die "pip download usbip==$RIG_USBIP_PY_VERSION failed (PyPI unreachable?)"; }
    python3 -m zipfile -e "$dir/usbip-$RIG_USBIP_PY_VERSION-py3-none-any.whl" "$RIG_USBIP" \
        || rig_die "unpacking the usbip wheel failed"
    touch "$dir/.unpacked"
}

# rig_prepare_cache: Tests/Rig/run --prepare (there): the kernel, libgpiod 2 and the system image's base,
# RIG_PREPARED, then the oldest package. Fails when one of them cannot be made.
rig_prepare_cache() {
    local t0=$SECONDS why
    rig_prepare_kernel
    sys_build_initramfs
    rig_build_libgpiod2
    sys_build_base
    rig_note "kernel $KABI, libgpiod $RIG_GPIOD2_VERSION and the system image's base ready after $((SECONDS - t0)) s"
    if [[ -n ${RIG_PREPARED:-} ]]; then : >"$RIG_PREPARED"; fi
    why=$(sys_oldest_build) || rig_die "$why"
    rig_note "heylook-booth $SYS_OLDEST_VERSION ready after $((SECONDS - t0)) s"
}

# Puts the booth binary into the work share, or records why the booth scenarios must skip or fail.
# Sets lines in $RIG_WORK/env. Uses $BOOTH_BIN when set, else `swift build -c release --product booth` at the root.
rig_prepare_booth() {
    local env=$RIG_WORK/env bin
    if [[ -n ${BOOTH_BIN:-} ]]; then
        [[ -x $BOOTH_BIN ]] || { echo "RIG_BOOTH_ERROR='BOOTH_BIN=$BOOTH_BIN is not an executable'" >>"$env"; return 0; }
        bin=$BOOTH_BIN
    elif [[ ! -e $RIG_ROOT/Package.swift ]]; then
        echo "RIG_BOOTH_SKIP='no Package.swift at the repository root and BOOTH_BIN is not set'" >>"$env"
        return 0
    else
        local swift
        swift=$(command -v swift || echo /opt/swift/usr/bin/swift)
        rig_note "building booth (swift build -c release --product booth)"
        if ! (cd "$RIG_ROOT" && "$swift" build -c release --product booth) >"$RIG_WORK/booth-build.log" 2>&1; then
            tail -30 "$RIG_WORK/booth-build.log" >&2
            echo "RIG_BOOTH_ERROR='swift build failed, see $RIG_WORK/booth-build.log'" >>"$env"
            return 0
        fi
        bin=$RIG_ROOT/.build/release/booth
    fi
    mkdir -p "$RIG_WORK/bin"
    cp "$bin" "$RIG_WORK/bin/booth"
    echo "RIG_BOOTH=$RIG_WORK/bin/booth" >>"$env"
    # Its version, asked once here (lib/guest.sh logs it for every scenario: a start of the booth under emulation
    # each time, otherwise).
    printf 'RIG_BOOTH_VERSION=%q\n' "$("$RIG_WORK/bin/booth" --version 2>&1)" >>"$env"
}

# The libgpiod 2 the rig builds the booth against (Raspberry Pi OS on Debian 13 ships libgpiod 2.2; Debian 12 has only
# 1.6): PyPI's gpiod sdist bundles libgpiod's C sources.
RIG_GPIOD_PY_VERSION=2.5.0

# rig_build_libgpiod2: downloads the gpiod sdist with pip and builds its bundled libgpiod into a static library,
# $RIG_CACHE/libgpiod2-<version>/{include/gpiod.h,lib/libgpiod.a}, once per recipe. Sets RIG_GPIOD2 (that prefix) and
# RIG_GPIOD2_VERSION.
rig_build_libgpiod2() {
    local stamp dir src log
    stamp=$(declare -f rig_build_libgpiod2 | md5sum | cut -c1-12)
    dir=$RIG_CACHE/libgpiod2-$RIG_GPIOD_PY_VERSION
    RIG_GPIOD2=$dir/prefix
    if [[ ! -e $dir/.built-$stamp ]]; then
        rig_note "building libgpiod 2 from PyPI's gpiod $RIG_GPIOD_PY_VERSION sdist"
        rm -rf "$dir" && mkdir -p "$dir/src" "$dir/obj" "$RIG_GPIOD2/include" "$RIG_GPIOD2/lib"
        log=$dir/build.log
        python3 -m pip download --no-binary :all: --no-deps "gpiod==$RIG_GPIOD_PY_VERSION" -d "$dir" >"$log" 2>&1 \
            || { tail -5 "$log" >&2; rig_die "pip download gpiod==$RIG_GPIOD_PY_VERSION failed (PyPI unreachable?)"; }
        tar -xzf "$dir/gpiod-$RIG_GPIOD_PY_VERSION.tar.gz" -C "$dir/src" --strip-components=1 \
            || rig_die "unpacking the gpiod sdist failed"
        src=$dir/src
        [[ -s $src/libgpiod-version.txt && -f $src/include/gpiod.h ]] || rig_die "the gpiod sdist holds no libgpiod sources"
        local version c
        version=$(cat "$src/libgpiod-version.txt")
        for c in "$src"/lib/*.c; do
            gcc -O2 -fPIC -D_GNU_SOURCE -DGPIOD_API_VERSION_STR="\"$version\"" -I"$src/include" -I"$src/lib" \
                -c "$c" -o "$dir/obj/$(basename "$c" .c).o" >>"$log" 2>&1 || { tail -20 "$log" >&2; rig_die "compiling $c failed"; }
        done
        ar rcs "$RIG_GPIOD2/lib/libgpiod.a" "$dir"/obj/*.o || rig_die "ar failed"
        cp "$src/include/gpiod.h" "$RIG_GPIOD2/include/"
        echo "$version" >"$dir/version"
        touch "$dir/.built-$stamp"
    fi
    RIG_GPIOD2_VERSION=$(cat "$dir/version")
}

# rig_prepare_booth_gpiod2: builds the booth against libgpiod 2 (scripts/package --binary-only with
# HEYLOOK_LIBGPIOD_PREFIX: the same flags as the package, so only the GPIO shim recompiles and the booth relinks) into
# the work share; records RIG_BOOTH_GPIOD2 or why the @gpiod2 scenarios must fail.
rig_prepare_booth_gpiod2() {
    local env=$RIG_WORK/env bin
    rig_build_libgpiod2
    [[ -x $RIG_ROOT/scripts/package ]] || { echo "RIG_BOOTH_GPIOD2_ERROR='no scripts/package to build the booth with'" >>"$env"; return 0; }
    rig_note "building booth against libgpiod $RIG_GPIOD2_VERSION"
    if ! bin=$(HEYLOOK_LIBGPIOD_PREFIX=$RIG_GPIOD2 "$RIG_ROOT/scripts/package" --binary-only 2>"$RIG_WORK/booth-gpiod2-build.log"); then
        tail -30 "$RIG_WORK/booth-gpiod2-build.log" >&2
        echo "RIG_BOOTH_GPIOD2_ERROR='the libgpiod 2 build failed, see $RIG_WORK/booth-gpiod2-build.log'" >>"$env"
        return 0
    fi
    mkdir -p "$RIG_WORK/bin"
    cp "$bin" "$RIG_WORK/bin/booth-gpiod2"
    echo "RIG_BOOTH_GPIOD2=$RIG_WORK/bin/booth-gpiod2" >>"$env"
    printf 'RIG_BOOTH_GPIOD2_VERSION=%q\n' "$("$RIG_WORK/bin/booth-gpiod2" --version 2>&1)" >>"$env"
}

# rig_serve_requests DIR: sends a guest's monitor requests (DIR/N.req) to its QEMU's monitor (the pipes in
# RIG_HOSTTMP) and answers them (N.done), and starts its host jobs (DIR/N.job, rig_start_job). See lib/rig.sh.
rig_serve_requests() {
    local req n size
    for req in "$1"/*.job; do
        [[ -e $req ]] && rig_start_job "$req"
    done
    for req in "$1"/*.req; do
        [[ -e $req ]] || continue
        n=${req%.req}
        size=$(stat -c %s "$RIG_HOSTTMP/monitor.log")
        rig_note "monitor: $(cat "$req")"
        cat "$req" >"$RIG_HOSTTMP/mon.in"
        sleep 0.3
        tail -c +$((size + 1)) "$RIG_HOSTTMP/monitor.log" | tr -d '\r' | grep -av -e $'\e' -e '^(qemu)' >"$n.tmp" || true
        mv "$n.tmp" "$n.done"
        rm -f "$req"
    done
}

# rig_start_job DIR/N.job: starts a guest's host job (lib/rig.sh rig_host_job; the file holds one argument per line:
# the job's name, then its arguments) in the background, beside the VMs: its output goes to N.out, then its exit
# status to N.rc. The host runs only its own jobs (rig_job_NAME), never a command line from the guest. Every job runs
# its programs under `timeout` (RIG_JOB_LIMIT seconds, powercut_check its own); one that ran out says so in N.out.
RIG_JOB_LIMIT=300
rig_start_job() {
    local n=${1%.job} args
    mapfile -t args <"$1"
    rm -f "$1"
    rig_note "host job: ${args[0]}"
    if ! declare -F "rig_job_${args[0]}" >/dev/null; then
        echo "the host has no job '${args[0]}'" >"$n.out"
        echo 2 >"$n.rc"
        return 0
    fi
    (
        rc=0
        "rig_job_${args[0]}" "${args[@]:1}" >"$n.out" 2>&1 </dev/null || rc=$?
        if ((rc == 124 || rc == 137)); then echo "the host job ${args[0]} ran out of time and was stopped" >>"$n.out"; fi
        echo "$rc" >"$n.rc.tmp" && mv "$n.rc.tmp" "$n.rc"
    ) &
}

# rig_job_powercut_check KIND LOG BASE REFERENCE [ARG...]: the power-cut scenarios' replay (lib/logwrites.py check),
# on the host: it reads every crash state with userspace tools (e2fsck, debugfs, fsck.fat, mtools) and starts the
# booth (the binary the guest runs) on a sample, so it needs no guest, and natively it takes a fraction of the
# emulated CPU's time. Its states are rebuilt in a folder of its own on /dev/shm (a tmpfs, as in the guest),
# removed afterwards.
rig_job_powercut_check() {
    local work rc=0
    work=$(mktemp -d /dev/shm/heylook-replay.XXXXXX)
    LD_LIBRARY_PATH=/opt/swift/usr/lib/swift/linux timeout -k 5 900 python3 "$RIG_DIR/lib/logwrites.py" check \
        "$1" "$2" "$3" "$4" "$work" "${@:5}" || rc=$?
    rm -rf "$work"
    return "$rc"
}

# rig_job_usb_seed DIR COUNT KIB DATE FIRST_SEQ and rig_job_usb_digest DIR: the USB scenarios' fixtures (lib/usb.sh
# usb_seed, usb_digest), made and read on the host.
rig_job_usb_seed() { timeout -k 5 "$RIG_JOB_LIMIT" python3 "$RIG_DIR/lib/usbcheck.py" seed "$@"; }
rig_job_usb_digest() { timeout -k 5 "$RIG_JOB_LIMIT" python3 "$RIG_DIR/lib/usbcheck.py" digest "$1"; }

# rig_job_soundcheck ARGS...: lib/soundcheck.py ARGS (lib/booth-sound.sh sb_check) on recordings in the work share.
rig_job_soundcheck() { timeout -k 5 "$RIG_JOB_LIMIT" python3 "$RIG_DIR/lib/soundcheck.py" "$@"; }

# rig_timeout_of SCENARIO: the seconds its header's `# rig-timeout` gives it (default 120), before RIG_TIME_SCALE.
rig_timeout_of() {
    local t
    t=$(sed -n 's/^# rig-timeout: *\([0-9]*\).*/\1/p' "$RIG_DIR/scenarios/${1%@*}.sh" | head -1)
    echo "${t:-120}"
}

# rig_watch VM READY SECONDS BOOT_LIMIT CONSOLE: the host's watch over a VM that no longer answers for itself, every 5
# s. It sets vm_stopped (and the VM is stopped) when the VM has run SECONDS without its runner starting (READY empty)
# beyond BOOT_LIMIT, or when the scenario it runs (rig_running) has outlived its own timeout by 120 s: the guest's
# `timeout` did not end it (a process stuck in the kernel, a guest that stopped scheduling), and only the VM's
# hard limit, hours away, would. That scenario FAILs with the VM console's last lines in its log; the caller boots the
# VM again for the rest of its plan.
rig_watch() {
    local vm=$1 ready=$2 secs=$3 boot_limit=$4 console=$5 running name since limit now
    if [[ -z $ready ]]; then
        ((secs > boot_limit)) || return 0
        vm_stopped="its runner had not started ${secs} s after it booted (limit ${boot_limit} s)"
        rig_note "stopping VM${vm:- (busybox)}: $vm_stopped"
        [[ -z $console ]] || tail -n 20 "$console" 2>&1 | sed 's/^/  console: /' >&2
        return 0
    fi
    running=$(rig_running "$vm") || return 0
    read -r name since <<<"$running"
    limit=$(($(rig_timeout_of "$name") * RIG_TIME_SCALE + 120))
    printf -v now '%(%s)T' -1
    ((now - since > limit)) || return 0
    vm_stopped="$name still running $((now - since)) s after it started (its timeout $((limit - 120)) s)"
    rig_note "stopping VM${vm:- (busybox)}: $vm_stopped"
    {
        echo "rig: the host stopped the VM: $vm_stopped; the guest did not end it"
        if [[ -n $console ]]; then echo "---- VM console, last 30 lines ----"; tail -n 30 "$console" 2>&1; fi
    } >>"$RIG_WORK/results/$name.log" || true
    printf 'FAIL %s -\n' "$((now - since))" >"$RIG_WORK/results/$name.status.tmp"
    mv "$RIG_WORK/results/$name.status.tmp" "$RIG_WORK/results/$name.status"
}

# rig_running VM: the scenario the VM ("", -2 or -system) runs now and when it started it, as "NAME SECONDS" (since the
# epoch): of the VM's claims without a result, the one it wrote last (lib/guest.sh writes claims/NAME/vm each time it
# starts NAME, so after a reboot too). Fails when it runs none.
rig_running() {
    local claim name owner t best='' best_t=0
    for claim in "$RIG_WORK"/claims/*/vm; do
        name=${claim%/vm} name=${name##*/}
        [[ -e $claim && ! -e $RIG_WORK/results/$name.status ]] || continue
        read -r owner <"$claim" 2>/dev/null || continue
        [[ $owner == "vm$1" ]] || continue
        t=$(stat -c %Y "$claim" 2>/dev/null) || continue
        if ((t > best_t)); then best=$name best_t=$t; fi
    done
    [[ -n $best ]] && echo "$best $best_t"
}
