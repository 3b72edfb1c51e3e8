# booth-simulate: the real booth binary runs a scripted press; its events show a full capture cycle and a JPEG.
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 120
booth=$(rig_need_booth)
script=$RIG_OUT/script
events=$RIG_OUT/events.jsonl
photos=$RIG_OUT/photos
mkdir -p "$photos"
printf 'press\nwait 4\nquit\n' >"$script"
rig_log "running $booth simulate"
timeout 90 "$booth" simulate --script "$script" --events-json "$events" --photos "$photos" \
    >"$RIG_OUT/stdout" 2>"$RIG_OUT/stderr" || {
    rc=$?
    cat "$RIG_OUT/stdout" "$RIG_OUT/stderr"
    rig_fail "booth simulate exited with $rc"
}
rig_assert "events file written" test -s "$events"
rig_events "$events" states >"$RIG_OUT/states" || rig_fail "events file is not JSON lines"
cat "$RIG_OUT/states"
# The states idle -> playingSound -> countingDown -> capturing -> processing -> idle appear in this order.
want=(playingSound countingDown capturing processing idle)
got=$(cut -d' ' -f2 "$RIG_OUT/states" | tr '\n' ' ')
pattern=${want[*]}
rig_assert "first transition leaves idle" test "$(head -1 "$RIG_OUT/states" | cut -d' ' -f1)" = idle
# shellcheck disable=SC2016 # awk program
rig_assert "states in order: idle $pattern (got: $got)" \
    awk -v want="$pattern" 'BEGIN { n = split(want, w, " "); i = 1 } $2 == w[i] { i++ } END { exit !(i > n) }' \
    "$RIG_OUT/states"
photo=$(rig_events "$events" field photoSaved path | head -1)
rig_assert "a photoSaved event has a path" test -n "$photo"
rig_assert "the photo $photo exists" test -s "$photo"
rig_assert "the photo starts with JPEG bytes FF D8" test "$(head -c 2 "$photo" | od -An -tx1 | tr -d ' \n')" = ffd8
