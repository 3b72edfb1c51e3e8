# usb-fake: a fake-capacity stick. A 16 MiB device-mapper disk whose upper half maps onto its lower half (dm-linear
# over an 8 MiB loop device), formatted FAT like a fake stick from the factory: writes past 8 MiB wrap around onto
# what was stored first, and every copy still reads back right just after it was written. The booth exports 12 MB of
# photos to it: the read-back after the final flush finds the damage, the export fails with "verification failed",
# the booth unmounts the stick and its LEDs show the error pattern (all four blinking fast) until the stick is pulled,
# no photo counts as exported (so cleanup_exported can delete none), the store is untouched.
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 200
# shellcheck source=SCRIPTDIR/../lib/usb.sh disable=SC1091
source "$RIG_DIR/lib/usb.sh"
store=$RIG_OUT/photos
usb_seed "$store" 12 1024 2026-11-20 100
usb_digest "$store" >"$RIG_OUT/store.before"

rig_modprobe loop dm-mod vfat nls_cp437 nls_ascii
mkdir -p "$RIG_STATE/fake"
truncate -s 8M "$RIG_STATE/fake/real.img"
loop=$(losetup -f --show "$RIG_STATE/fake/real.img") || rig_fail "losetup failed"
half=$((8 * 1024 * 1024 / 512))
printf '0 %d linear %s 0\n%d %d linear %s 0\n' "$half" "$loop" "$half" "$half" "$loop" |
    DM_DISABLE_UDEV=1 dmsetup create rig-fake --noudevsync || rig_fail "dmsetup create rig-fake failed"
dev=/dev/mapper/rig-fake
rig_wait_for 5 "$dev" test -b "$dev"
rig_log "fake stick: $(blockdev --getsize64 "$dev") bytes claimed, $(stat -c %s "$RIG_STATE/fake/real.img") real"
mkfs.fat -n FAKESTICK "$dev" >/dev/null || rig_fail "mkfs.fat $dev failed"

usb_booth_start
usb_mount "$dev" "$USB_MEDIA/fake"
rig_wait_for 150 "the export's end" bash -c "grep -q '\"type\":\"export\\(Finished\\|Failed\\)\"' '$USB_EVENTS'"
rig_assert "no exportFinished" test "$(usb_count exportFinished)" -eq 0
failed=$(usb_last exportFailed)
rig_log "$failed"
rig_assert "the export failed with 'verification failed'" grep -q 'verification failed' <<<"$failed"
rig_assert "not taken for a pulled stick" grep -q '"stickRemoved":false' <<<"$failed"
rig_assert "reported unmounted" grep -q '"unmounted":true' <<<"$failed"
rig_assert "the stick is unmounted" usb_unmounted "$USB_MEDIA/fake"
# The error pattern holds while the failed stick is still plugged in, and ends when it is pulled (its block device
# goes away; the booth polls for that once it has unmounted a stick).
rig_gpio_sample "$RIG_OUT/leds-error" 1500 20 booth led0 led1 led2 led3
rig_assert "the LEDs blink the error pattern (all four, on and off)" \
    bash -c "grep -q ' 1 1 1 1\$' '$RIG_OUT/leds-error' && grep -q ' 0 0 0 0\$' '$RIG_OUT/leds-error'"
DM_DISABLE_UDEV=1 dmsetup remove --noudevsync rig-fake || rig_fail "dmsetup remove rig-fake (the pull) failed"
rig_wait_for 10 "the booth to see the stick pulled" usb_has_event stickRemoved 1
rig_gpio_sample "$RIG_OUT/leds-pulled" 1500 20 booth led0 led1 led2 led3
rig_assert "the error pattern ended with the pull" bash -c "! grep -q ' 1 1 1 1\$' '$RIG_OUT/leds-pulled'"
usb_booth_stop
booth=$(rig_need_booth)
"$booth" photos --photos "$store" | tee "$RIG_OUT/photos.txt" >&2
rig_assert "no photo counts as exported" grep -q '^12 kept (12 not exported yet)' <(tail -1 "$RIG_OUT/photos.txt")
usb_digest "$store" >"$RIG_OUT/store.after"
rig_assert "the store's photos are untouched" cmp -s "$RIG_OUT/store.before" "$RIG_OUT/store.after"
