# system-stop-export: `systemctl stop` in the middle of an export on the installed service: the booth lets the photo
# being copied finish, writes the stick's manifest and flushes it (no second read-back of the run: that waits for the
# next insert, so the stop fits the timeout however much was copied), has systemd unmount it (the export reported as
# stopped for the shutdown, "unmounted: safe to remove" in the journal) and exits 0 within the unit's stop timeout
# (no SIGKILL), its last journal line "stopped (exit status 0)"; every file on the stick is its photo byte for byte,
# fsck.fat finds nothing; after a restart the next insert copies the rest. The stick is slow to write at the first
# insert (QEMU writes it at 128 kB/s, about two photos a second), so the export is still running when the stop comes
# with some 60 photos to copy. Then the same stick, holding them all, on a device slow to read (100 kB/s): an insert
# reads every claim of its manifest back from the device before it copies anything, and a stop during that ends
# before the next claim (the read-back of all of them, over 40 s there, outlasts the stop timeout). Each stop's
# threads are sampled into out/ (sys_stop_traced), with the journal around the slow stick's: what a slow stop waited
# on.
# shellcheck shell=bash
# rig-vm: system
# rig-timeout: 900
events=$SYS_STATE/events.jsonl
check=$RIG_DIR/lib/usbcheck.py
count() { local n; n=$(grep -c "\"type\":\"$1\"" "$events" 2>/dev/null) || n=0; echo "$n"; }
has() { (($(count "$1") >= $2)); }
# booth_said_stopped: the booth's own last line in the journal says its shutdown ended (the process then exits at once).
booth_said_stopped() {
    [[ $(journalctl -b "_SYSTEMD_UNIT=$SYS_UNIT" -o cat --no-pager | tail -1) == 'stopped (exit status 0)' ]]
}

# Photos of about 64 KiB, numbered after the store's own (seeded while the service is stopped; the booth indexes them
# at start): with the stick's slow writes, enough that the export is still running when the stop comes.
seeded=60
sys_wait_ready 60
systemctl stop "$SYS_UNIT"
last=$(find "$SYS_PHOTOS" -path "$SYS_PHOTOS/layouts" -prune -o -name 'HeyLook_*.jpg' -printf '%f\n' | sed 's/.*_0*\([0-9]*\)\.jpg$/\1/' | sort -n | tail -1)
first=$((${last:-0} + 1))
# Made on the host (as lib/usb.sh usb_seed does), copied in.
rm -rf "$RIG_OUT/seed"
rig_host_job 300 usb_seed "$RIG_OUT/seed" "$seeded" 64 2026-11-20 "$first" >&2 || rig_fail "seeding the store failed"
cp "$RIG_OUT/seed"/HeyLook_*.jpg "$SYS_PHOTOS/" || rig_fail "seeding the store failed"
rm -rf "$RIG_OUT/seed"
chown -R booth: "$SYS_PHOTOS"
systemctl start "$SYS_UNIT"
sys_wait_ready 60
photos=$(sys_photo_count)
rig_log "store: $photos photos"

rig_usb_image "$RIG_OUT/stick.img" 256
unknown=$(count stickUnknown)
dev=$(rig_usb_plug "$RIG_OUT/stick.img" bps_wr=131072)
rig_wait_for 30 "udev and systemd-mount to mount $dev" findmnt -n "$dev"
point=$(findmnt -n -o TARGET "$dev")
# A new stick: made the owner's once (export.sticks = "owner", as shipped); its next inserts need no hold.
sys_claim_stick $((unknown + 1))
exported=$(count exportFinished)
stopped=$(count exportFailed)
progress=$(count exportProgress)
rig_wait_for 120 "three photos copied" has exportProgress $((progress + 3))
rig_now_ms t0
sys_stop_traced "$RIG_OUT/stop-threads.txt"
rig_now_ms t1
stop_ms=$((t1 - t0))
rig_log "systemctl stop took $stop_ms ms; $(grep '"type":"exportFailed"' "$events" | tail -1)"
sys_journal | grep -F "$point" | tail -5 >&2
rig_assert "the booth exited 0 ($(sys_prop Result), status $(sys_prop ExecMainStatus))" \
    test "$(sys_prop Result)/$(sys_prop ExecMainStatus)" = success/0
rig_assert "stopped within the unit's stop timeout ($stop_ms ms < 15 s)" test "$stop_ms" -lt 15000
rig_assert "the export ended, stopped for the shutdown, before the exit" test "$(count exportFailed)" -eq $((stopped + 1))
last=$(grep '"type":"exportFailed"' "$events" | tail -1)
rig_assert "reported as stopped for the shutdown, unmounted" \
    bash -c "grep -qF 'shutting down' <<<'$last' && grep -qF '\"unmounted\":true' <<<'$last'"
rig_assert "the journal says safe to remove" bash -c "journalctl -b -u '$SYS_UNIT' -o cat | grep -qF '$point unmounted: safe to remove'"
rig_wait_for 10 "the booth's last journal line: stopped" booth_said_stopped
rig_assert "the stick is unmounted" bash -c "! findmnt -n '$dev' >/dev/null"
copied=$(sed 's/.* \([0-9]*\) of [0-9]* photos copied.*/\1/' <<<"$last")
rig_usb_pull
rig_assert "fsck.fat -n is clean" fsck.fat -n "$RIG_OUT/stick.img"
mkdir -p "$RIG_STATE/check"
mount -t vfat -o ro,loop "$RIG_OUT/stick.img" "$RIG_STATE/check"
result=$("$RIG_PY" "$check" compare "$SYS_PHOTOS" "$RIG_STATE/check/HeyLook") || rig_fail "the stick: $result"
umount "$RIG_STATE/check"
rig_log "after the stop: $result ($copied copied of $photos)"
rig_assert "the stop cut the export short ($copied of $photos)" test "$copied" -lt "$photos"

systemctl start "$SYS_UNIT"
sys_wait_ready 60
dev=$(rig_usb_plug "$RIG_OUT/stick.img")
rig_wait_for 30 "the stick mounted again" findmnt -n "$dev"
point=$(findmnt -n -o TARGET "$dev")
rig_wait_for 300 "the second export" has exportFinished $((exported + 1))
rig_wait_for 30 "the stick unmounted" bash -c "! findmnt -n '$dev' >/dev/null"
rig_usb_pull
mount -t vfat -o ro,loop "$RIG_OUT/stick.img" "$RIG_STATE/check"
result=$("$RIG_PY" "$check" compare "$SYS_PHOTOS" "$RIG_STATE/check/HeyLook" --complete) || rig_fail "the stick: $result"
manifest=$(sha256sum <"$RIG_STATE/check/HeyLook/manifest.txt")
umount "$RIG_STATE/check"
rig_log "after the second insert: $result"

# The slow stick: stopped while the booth reads its claims back (after exportStarted, before the first
# exportProgress, which comes once the plan is made).
progress=$(count exportProgress)
started=$(count exportStarted)
stopped=$(count exportFailed)
dev=$(rig_usb_plug "$RIG_OUT/stick.img" bps_rd=102400)
rig_wait_for 30 "the slow stick mounted" findmnt -n "$dev"
point=$(findmnt -n -o TARGET "$dev")
rig_wait_for 30 "the export started" has exportStarted $((started + 1))
sleep 3
rig_assert "the claims are still being read back (no plan yet)" test "$(count exportProgress)" -eq "$progress"
rig_now_ms t0
sys_stop_traced "$RIG_OUT/slow-stop-threads.txt"
rig_now_ms t1
stop_ms=$((t1 - t0))
journalctl -b -o short-precise --no-pager -S "@$((t0 / 1000 - 10))" >"$RIG_OUT/slow-stop-journal.txt"
last=$(grep '"type":"exportFailed"' "$events" | tail -1)
rig_log "slow stick: systemctl stop took $stop_ms ms; $last"
rig_assert "the booth exited 0 ($(sys_prop Result), status $(sys_prop ExecMainStatus))" \
    test "$(sys_prop Result)/$(sys_prop ExecMainStatus)" = success/0
rig_assert "stopped within the unit's stop timeout ($stop_ms ms < 15 s)" test "$stop_ms" -lt 15000
rig_assert "the export ended, stopped for the shutdown" test "$(count exportFailed)" -eq $((stopped + 1))
rig_assert "reported as stopped for the shutdown, unmounted" \
    bash -c "grep -qF 'shutting down' <<<'$last' && grep -qF '\"unmounted\":true' <<<'$last'"
rig_wait_for 10 "the booth's last journal line: stopped" booth_said_stopped
rig_assert "the slow stick is unmounted" bash -c "! findmnt -n '$dev' >/dev/null"
rig_usb_pull
mount -t vfat -o ro,loop "$RIG_OUT/stick.img" "$RIG_STATE/check"
rig_assert "the manifest is as the last export left it" \
    test "$(sha256sum <"$RIG_STATE/check/HeyLook/manifest.txt")" = "$manifest"
umount "$RIG_STATE/check"
systemctl start "$SYS_UNIT"
sys_wait_ready 60

# Leave the store as it was found: the seeded photos go (the index drops what is gone at start), in one rm.
systemctl stop "$SYS_UNIT"
seeds=()
for ((n = first; n < first + seeded; n++)); do
    printf -v number %06d "$n"
    seeds+=("$SYS_PHOTOS"/HeyLook_2026-11-20_*_"$number".jpg)
done
rm -f -- "${seeds[@]}"
systemctl start "$SYS_UNIT"
sys_wait_ready 60
