# usb-pull: the stick is pulled at four points of an export; only complete, verified photos ever carry final names
# (or, at most, one empty file: a rename cut between its two flushes), no file is damaged, the store is untouched,
# and a re-plug (fsck -a first, like systemd-mount) finishes the export (temp and empty files removed, fsck clean).
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 540
# shellcheck source=SCRIPTDIR/../lib/usb.sh disable=SC1091
source "$RIG_DIR/lib/usb.sh"
store=$RIG_OUT/photos
# A slow stick (768 KiB/s written, QEMU's throttling): a photo takes a second to write whatever the host's load, so
# every pull lands inside the export with few photos.
total=${USB_PULL_PHOTOS:-40}
usb_seed "$store" "$total" 768 2026-11-22 1
usb_digest "$store" >"$RIG_OUT/store.before"
usb_booth_start
img=$RIG_OUT/stick.img
rig_usb_image "$img" 64
mnt=$USB_MEDIA/stick

# usb_stopped FAILED FINISHED: succeeds once an exportFailed or exportFinished beyond those counts arrived.
usb_stopped() { usb_has_event exportFailed $(($1 + 1)) || usb_has_event exportFinished $(($2 + 1)); }

# When to pull: "start" = as soon as the export started (planning, folders); "photo MS" = MS ms after the first
# photo of this insert is done (inside the next photo's write, fsync, read-back, rename or the manifest).
# The last two are random, new each run (USB_PULL_SEED repeats a run; it is logged).
seed=${USB_PULL_SEED:-$(date +%s)}
RANDOM=$seed
pulls=("start 0" "photo 0" "photo $((RANDOM % 1000))" "photo $((RANDOM % 1000))")
rig_log "pull points: ${pulls[*]} (USB_PULL_SEED=$seed)"
run=0 landed=0
for pull in "${pulls[@]}"; do
    run=$((run + 1))
    read -r when ms <<<"$pull"
    started=$(usb_count exportStarted) progressed=$(usb_count exportProgress)
    failed=$(usb_count exportFailed) finished=$(usb_count exportFinished)
    dev=$(rig_usb_plug "$img" bps_wr=786432)
    usb_mount "$dev" "$mnt"
    rig_wait_for 30 "exportStarted #$((started + 1))" usb_has_event exportStarted $((started + 1))
    if [[ $when == photo ]]; then
        rig_wait_for 60 "a photo copied in run $run" usb_has_event exportProgress $((progressed + 2))
    fi
    rig_sleep_ms "$ms"
    rig_log "run $run: pulling ($pull)"
    rig_usb_pull
    rig_wait_for 60 "the export to stop after pull $run" usb_stopped "$failed" "$finished"
    if usb_has_event exportFinished $((finished + 1)); then
        # The monitor round trip is slow under emulation: the export ended (and unmounted) first.
        # Nothing is left to copy: the remaining pull points cannot be reached.
        rig_log "run $run: the export finished before the pull landed: $(usb_last exportFinished)"
        break
    fi
    line=$(usb_last exportFailed)
    rig_log "run $run: $line"
    # What systemd-mount's device binding does when a stick goes away: the dead mount is taken down.
    umount -l "$mnt"
    # What the pull left on the stick (a FAT file system has no journal): logged, fsck is asserted at the end.
    fsck.fat -n "$img" >"$RIG_OUT/run$run.fsck" 2>&1 || true
    rig_log "run $run: fsck.fat -n says: $(grep -v '^fsck.fat' "$RIG_OUT/run$run.fsck" | tr '\n' ' ')"
    dmesg | grep 'FAT-fs' | tail -3 >&2 || true
    rig_assert "run $run: reported as removed" grep -q '"stickRemoved":true' <<<"$line"
    rig_assert "run $run: no file damaged on the stick (fsck.fat -n)" \
        usb_fsck_pulled "$img"
    rig_assert "run $run: final names hold only complete photos equal to the store's" \
        usb_image_check "$img" "$store" >"$RIG_OUT/run$run.check"
    rig_log "run $run: on the stick $(cat "$RIG_OUT/run$run.check")"
    landed=$((landed + 1))
done
rig_assert "at least 3 pulls landed mid-export ($landed)" test "$landed" -ge 3

finished=$(usb_count exportFinished)
dev=$(rig_usb_plug "$img" bps_wr=786432)
usb_mount "$dev" "$mnt"
rig_wait_for 180 "the resumed export to finish" usb_has_event exportFinished $((finished + 1))
line=$(usb_last exportFinished)
rig_log "resumed: $line"
rig_assert "resumed export unmounted the stick" grep -q '"unmounted":true' <<<"$line"
rig_usb_pull
rig_assert "fsck.fat -n finds nothing but the dirty bit a pull leaves" usb_fsck_consistent "$img"
rig_assert "every photo on the stick, byte for byte, no temp files left" usb_image_check "$img" "$store" --complete
rig_assert "the manifest lists every photo once" \
    test "$(grep -c '\.jpg' "$RIG_OUT/manifest.txt")" -eq "$total"
usb_digest "$store" >"$RIG_OUT/store.now"
rig_assert "the store's photos are untouched (after the pulls and the resumed export)" cmp -s "$RIG_OUT/store.before" "$RIG_OUT/store.now"
usb_booth_stop
