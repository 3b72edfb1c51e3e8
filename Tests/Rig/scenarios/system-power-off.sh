# system-power-off: the whole VM loses power (sysrq o: off at once, nothing flushed, nothing unmounted) a moment
# after the booth acknowledged its photos (their photoSaved events). After the next boot every photo is there with
# its size, and index.txt holds each photo's line as it was before the cut (the CRC-32 it was saved with), read
# as it is on the card, not through `booth photos` (which would rebuild a lost line); the booth's journal does not
# say the index was rebuilt or corrected; the events file holds no zero byte. Mutation: the index written only at
# start and at exports (as it was before) fails here: the index on the card does not list the photos just taken
# (and after the cut the booth would re-add them without their CRC-32, "corrected").
# The files and the index after the cut are read before the booth starts again: the unit is disabled (and that made
# durable) before the photos, so the boot after the cut does not start it; the scenario enables it after the reads.
# Mutation: the booth rewriting index.txt from the photos on its disk at start passed the old check, which read the
# index after the booth's start; here the lines lost by the cut are missing.
# shellcheck shell=bash
# rig-vm: system
# rig-reboots: 1
# rig-timeout: 150
events=$SYS_STATE/events.jsonl
index_lines() { grep '^photo ' "$SYS_PHOTOS/index.txt" | sort; }
acknowledged() { grep -q "\"type\":\"photoSaved\".*$1" "$events" 2>/dev/null; }
# Whatever happens here, the next scenarios find the booth enabled and running.
trap 'systemctl enable --now "$SYS_UNIT" >/dev/null 2>&1; rig_teardown' EXIT
if ! sys_booted_again; then
    sys_wait_ready 60
    systemctl disable "$SYS_UNIT" 2>&1
    sync
    sys_photo >/dev/null
    sys_photo >/dev/null
    last=$(sys_photo)
    last=${last#./}
    rig_wait_for 10 "the booth's photoSaved event for $last" acknowledged "$last"
    (cd "$SYS_PHOTOS" && find . -type f -name '*.jpg' -printf '%p %s\n' | sort) >"$RIG_OUT/files-before.txt"
    index_lines >"$RIG_OUT/index-before.txt"
    rig_assert "the index lists the last photo, with its CRC-32, before the cut" \
        grep -q "^photo $last kept [0-9]* [0-9a-f]\{8\} " "$RIG_OUT/index-before.txt"
    rig_log "before the cut: $(wc -l <"$RIG_OUT/files-before.txt") photo(s), the last $last"
    date +%s >"$RIG_OUT/.rebooted"
    touch "$RIG_REBOOT_FLAG"
    sync "$RIG_OUT/.rebooted" "$RIG_OUT/files-before.txt" "$RIG_OUT/index-before.txt" "$RIG_REBOOT_FLAG"
    rig_log "power off now (sysrq o)"
    sync "$RIG_WORK/results/system-power-off.log" 2>/dev/null || true
    echo o >/proc/sysrq-trigger
    sleep 60
    rig_fail "still running 60 s after sysrq o"
fi
rig_assert "the booth did not start at the boot after the cut (the unit was disabled)" \
    test "$(sys_prop ActiveState)" = inactive
(cd "$SYS_PHOTOS" && find . -type f -name '*.jpg' -printf '%p %s\n' | sort) >"$RIG_OUT/files-after.txt"
index_lines >"$RIG_OUT/index-after.txt"
systemctl enable --now "$SYS_UNIT" 2>&1
sys_wait_ready 60
rig_assert "every photo is there with its size" diff "$RIG_OUT/files-before.txt" "$RIG_OUT/files-after.txt"
rig_assert "index.txt holds every photo's line as before the cut" \
    diff "$RIG_OUT/index-before.txt" "$RIG_OUT/index-after.txt"
# The events file is text again: the zero bytes a cut can leave at its end are cut off at the booth's start.
rig_assert "the events file holds no zero byte" bash -c "! grep -qaP '\\x00' '$events'"
if sys_journal | grep -F 'photo index'; then
    rig_fail "the booth's journal says it rebuilt or corrected the photo index (above)"
fi
rig_log "ok: $(wc -l <"$RIG_OUT/index-after.txt") index line(s) as before the cut, no index repair in the journal"
sys_photo >/dev/null
rig_log "ok: a photo after the cut"
