# usb-export: the booth exports to a plugged FAT stick (verified, manifest, unmounted); the image matches the store
# byte for byte and fsck is clean; a second insert copies nothing new.
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 240
# shellcheck source=SCRIPTDIR/../lib/usb.sh disable=SC1091
source "$RIG_DIR/lib/usb.sh"
store=$RIG_OUT/photos
# Two real JPEGs from the simulator's encoder, then JPEG-shaped photos of two other days.
booth=$(rig_need_booth)
printf 'press\nwait 6\npress\nwait 6\nquit\n' >"$RIG_OUT/script"
timeout 120 "$booth" simulate --fast --script "$RIG_OUT/script" --photos "$store" >"$RIG_OUT/simulate.log" 2>&1 ||
    rig_fail "booth simulate failed: $(tail -5 "$RIG_OUT/simulate.log")"
usb_seed "$store" 6 768 2026-11-20 100
usb_seed "$store" 4 768 2026-11-21 200
usb_digest "$store" >"$RIG_OUT/store.before"
count=$(wc -l <"$RIG_OUT/store.before")
bytes=$(du -cb "$store"/HeyLook_*.jpg | tail -1 | cut -f1)
rig_assert "the store holds 12 photos (got $count)" test "$count" -eq 12
usb_booth_start

img=$RIG_OUT/stick.img
rig_usb_image "$img" 64
dev=$(rig_usb_plug "$img")
mnt=$USB_MEDIA/stick
t0=0 t1=0
rig_now_ms t0
usb_mount "$dev" "$mnt"
rig_wait_for 120 "exportFinished" usb_has_event exportFinished 1
rig_now_ms t1
finished=$(usb_last exportFinished)
rig_log "$finished"
rig_log "export of $bytes bytes took $((t1 - t0)) ms from mount: $((bytes * 1000 / (t1 - t0) / 1024)) KiB/s (VM, TCG)"
rig_assert "exportFinished copied 12" grep -q '"copied":12,' <<<"$finished"
rig_assert "exportFinished unmounted=true" grep -q '"unmounted":true' <<<"$finished"
rig_assert "no exportFailed" test "$(usb_count exportFailed)" -eq 0
rig_assert "the mount is gone" bash -c "! grep -q ' $mnt ' /proc/self/mountinfo"
rig_assert "progress reached 12/12" grep -q '"done":12,"total":12' <(usb_last exportProgress)
rig_usb_pull
rig_assert "fsck.fat -n is clean" fsck.fat -n "$img"
rig_assert "the image holds every photo, byte for byte, no temp files" usb_image_check "$img" "$store" --complete
rig_assert "the manifest lists 12 photos" test "$(grep -c '\.jpg' "$RIG_OUT/manifest.txt")" -eq 12
rig_assert "folders by date" bash -c "fsck.fat -n -l '$img' | grep -q '/HEYLOOK/2026-11-20/\|/HeyLook/2026-11-20/'"
usb_digest "$store" >"$RIG_OUT/store.after"
rig_assert "the store's photos are untouched" cmp -s "$RIG_OUT/store.before" "$RIG_OUT/store.after"

# Scenario 3: the same stick again copies nothing new.
dev=$(rig_usb_plug "$img")
usb_mount "$dev" "$mnt"
rig_wait_for 60 "the second exportFinished" usb_has_event exportFinished 2
finished=$(usb_last exportFinished)
rig_log "$finished"
rig_assert "second insert: copied 0" grep -q '"copied":0,' <<<"$finished"
rig_assert "second insert: unmounted" grep -q '"unmounted":true' <<<"$finished"
rig_usb_pull
rig_assert "fsck.fat -n still clean" fsck.fat -n "$img"
rig_assert "the image still matches" usb_image_check "$img" "$store" --complete
usb_booth_stop

# For scale: cp + sync + umount of the same photos to a fresh stick, by hand (the booth is stopped).
img2=$RIG_OUT/stick-cp.img
rig_usb_image "$img2" 64
dev=$(rig_usb_plug "$img2")
usb_mount "$dev" "$RIG_STATE/cp"
rig_now_ms t0
mkdir "$RIG_STATE/cp/copy"
cp "$store"/HeyLook_*.jpg "$RIG_STATE/cp/copy/"
sync
umount "$RIG_STATE/cp"
rig_now_ms t1
rig_log "cp + sync + umount of $bytes bytes took $((t1 - t0)) ms: $((bytes * 1000 / (t1 - t0) / 1024)) KiB/s (VM, TCG)"
rig_usb_pull
