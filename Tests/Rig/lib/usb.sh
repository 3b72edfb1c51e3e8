# Helpers for the usb-* scenarios (sourced after rig.sh): the real booth exporting to a hot-plugged FAT stick.
# shellcheck shell=bash
# There is no udevd in the guest: a scenario mounts the stick itself below the booth's media root, with the udev
# rule's options, exactly like a stick mounted by hand (deploy/udev/99-heylook-usb.rules).
USB_MEDIA=$RIG_STATE/media
USB_CHECK=$RIG_DIR/lib/usbcheck.py

# usb_seed DIR COUNT KIB DATE FIRST_SEQ: puts COUNT JPEG-shaped photos of about KIB KiB into the store DIR (in the work
# share). A fixture needs no guest: the host makes it (lib/host.sh rig_job_usb_seed), at native speed: usb-pull spent
# about 70 s making its hundred photos of 768 KiB on the emulated CPU, beside the other VMs.
usb_seed() { rig_host_job 300 usb_seed "$@" >&2 || rig_fail "seeding $1 failed"; }

# usb_digest DIR: prints each photo's name and SHA-256 in the store DIR (in the work share), from the host (as usb_seed).
usb_digest() { rig_host_job 300 usb_digest "$1" || rig_fail "the digest of $1 failed"; }

# usb_booth_start [KEY=VALUE...]: writes $RIG_OUT/booth.toml (with the extra settings) and starts `booth run`
# (gpio-sim chip "booth", simulated camera and sound, photos in $RIG_OUT/photos, events in
# $RIG_OUT/events.jsonl); waits for its "ready" event.
usb_booth_start() {
    local booth chip
    booth=$(rig_need_booth)
    chip=$(rig_gpio_sim_add booth button button-led knob-a knob-b knob-switch led0 led1 led2 led3)
    mkdir -p "$USB_MEDIA" "$RIG_OUT/photos" "$RIG_OUT/sounds"
    rig_booth_config "$RIG_OUT/booth.toml" booth.review_window=0.0 booth.free_space_reserve_mb=1 \
        countdown.default_delay=0.5 export.media_root="\"$USB_MEDIA\"" gpio.chip="\"$chip\"" \
        gpio.leds='["led0", "led1", "led2", "led3"]' "$@"
    USB_EVENTS=$RIG_OUT/events.jsonl
    : >"$USB_EVENTS"
    "$booth" run --config "$RIG_OUT/booth.toml" --events-json "$USB_EVENTS" --photos "$RIG_OUT/photos" \
        --simulated-camera --simulated-sound >"$RIG_OUT/booth.log" 2>&1 &
    USB_BOOTH_PID=$!
    rig_wait_for 60 "the booth's ready event" usb_has_event ready 1
    rig_log "booth $USB_BOOTH_PID ready"
}

# usb_booth_stop: stops the booth (SIGTERM) and checks it exits 0.
usb_booth_stop() {
    kill -TERM "$USB_BOOTH_PID"
    local rc=0
    wait "$USB_BOOTH_PID" || rc=$?
    ((rc == 0)) || { cat "$RIG_OUT/booth.log" >&2; rig_fail "booth exited with $rc"; }
}

# usb_count TYPE: prints how many TYPE events the booth wrote so far.
usb_count() { rig_count_in "$USB_EVENTS" "\"type\":\"$1\"" && echo "$RIG_COUNT"; }

# usb_has_event TYPE N: succeeds when there are at least N TYPE events (for rig_wait_for).
usb_has_event() { rig_count_in "$USB_EVENTS" "\"type\":\"$1\"" && ((RIG_COUNT >= $2)); }

# usb_last TYPE: prints the last TYPE event line.
usb_last() { grep "\"type\":\"$1\"" "$USB_EVENTS" | tail -1; }

# usb_mount DEV POINT [EXTRA_OPTIONS]: mounts the stick's FAT file system like the udev rule does: systemd-mount
# (--fsck=yes) has systemd-fsck run `fsck -a` on the device first, which frees clusters a pull left allocated to no
# file and clears the dirty bit; what it changed is logged.
usb_mount() {
    local out rc=0
    out=$(fsck.fat -a "$1" 2>&1) || rc=$?
    ((rc <= 1)) || { printf '%s\n' "$out" >&2; rig_fail "fsck.fat -a $1 failed ($rc)"; }
    ((rc == 0)) || rig_log "fsck.fat -a $1 before mounting repaired: $(grep -vE '^fsck\.fat |^$' <<<"$out" | tr '\n' ' ')"
    mkdir -p "$2"
    mount -t vfat -o "nosuid,nodev,noexec,noatime,fmask=0137,dmask=0027${3:+,$3}" "$1" "$2" ||
        rig_fail "mount $1 on $2 failed"
}

# usb_mounted POINT: succeeds while POINT is a mount point (mountinfo field 5).
usb_mounted() { awk -v p="$1" '$5 == p { found = 1 } END { exit !found }' /proc/self/mountinfo; }

# usb_unmounted POINT: succeeds once POINT is no mount point (for rig_assert).
usb_unmounted() { ! usb_mounted "$1"; }

# usb_image_check IMG STORE [--complete]: loop-mounts the (pulled) stick image read-only and compares its export
# folder with the store (lib/usbcheck.py compare); prints the counts line.
usb_image_check() {
    local img=$1 store=$2 mnt=$RIG_STATE/check
    shift 2
    rig_modprobe loop
    mkdir -p "$mnt"
    mount -t vfat -o ro,loop "$img" "$mnt" || rig_fail "loop mount of $img failed"
    local rc=0
    if [[ -d $mnt/HeyLook ]]; then
        "$RIG_PY" "$USB_CHECK" compare "$store" "$mnt/HeyLook" "$@" || rc=$?
        [[ -f $mnt/HeyLook/manifest.txt ]] && cp "$mnt/HeyLook/manifest.txt" "$RIG_OUT/manifest.txt"
    else
        echo "final=0 partial=0 empty=0 missing=-"
        [[ " $* " != *" --complete "* ]] || rc=1
    fi
    umount "$mnt"
    return "$rc"
}

# usb_fsck_pulled IMG: fsck.fat -n finds no damaged file on a pulled stick (lib/usbcheck.py fsck-pulled): no
# complaint about a file other than a temp file, no two files on the same clusters; the rest (dirty bit, unused
# clusters, torn long names, a lagging second FAT) is logged.
usb_fsck_pulled() { "$RIG_PY" "$USB_CHECK" fsck-pulled "$1"; }

# usb_fsck_consistent IMG: fsck.fat -n finds nothing but, at most, the dirty bit. A stick that was pulled keeps it:
# Linux leaves a volume that was dirty at mount dirty at unmount (fs/fat/inode.c fat_set_state), only fsck clears it.
usb_fsck_consistent() {
    local out rc=0
    out=$(fsck.fat -n "$1" 2>&1) || rc=$?
    printf '%s\n' "$out" >&2
    ((rc == 0)) && return 0
    ! grep -vE "^fsck\.fat |^Dirty bit is set|^ Automatically removing dirty bit|^Leaving filesystem unchanged|^$|: [0-9]+ files, " \
        <<<"$out" | grep -q .
}
