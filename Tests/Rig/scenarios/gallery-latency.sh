# gallery-latency: the booth on real drivers (gpio-sim, snd-aloop) without and with the gallery under load beside it
# in the same guest: button edge -> first samples handed to ALSA, and each countdown LED change against its schedule
# (the booth's own events), in blocks of presses alternating without and with the load. The load is
# Benchmarks/gallery-load --photos --load-only on the booth's own store: `booth gallery` at nice 10 (its unit's
# Nice=), 20 browsing phones and 2 ZIP downloaders at nice 19, each from its own loopback address; the booth's loop
# runs SCHED_FIFO 10 (the default). Medians, p99 and their ratios (with ÷ without) into the log and
# RIG_OUT/latency.txt, the load's own figures after them.
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 2400
# shellcheck source=SCRIPTDIR/../lib/booth-sound.sh
# rig-default: no (benchmark: press -> ALSA hand-off and LED error, without and with the gallery's load)
source "$RIG_DIR/lib/booth-sound.sh"
# RIG_GALLERY_PRESSES a block (default 30), RIG_GALLERY_ROUNDS of a block without and one with (default 2).
presses=${RIG_GALLERY_PRESSES:-30}
rounds=${RIG_GALLERY_ROUNDS:-2}
[[ $presses =~ ^[1-9][0-9]*$ && $rounds =~ ^[1-9][0-9]*$ ]] ||
    rig_fail "RIG_GALLERY_PRESSES ($presses) and RIG_GALLERY_ROUNDS ($rounds) must be whole numbers from 1"
load_tool=$(cd "$RIG_DIR/../.." && pwd)/Benchmarks/gallery-load
[[ -x $load_tool ]] || rig_fail "no $load_tool"
# The clients connect from 127.0.0.2, 127.0.0.3, ...: the guest's loopback is down until now.
ip link set lo up || rig_fail "could not bring up the guest's loopback"
sb_setup
# The store on the guest's tmpfs (a Pi's card is local): not on the 9p share, whose reads QEMU serves on its own loop.
photos=/tmp/rig-gallery-photos
rm -rf "$photos"
mkdir -p "$photos"
sb_config "$RIG_OUT/booth.toml" "hw:Loopback,0,0" Pop '["Pop", "Duck"]' 1.0
sb_start "$RIG_OUT/booth.toml" "$photos"

sequences=0 taken=0
# press_block FILE: $presses full sequences (Pop 0.3 s, a 1.0 s countdown, no retake window), the next once the booth
# is idle again; then the events they caused appended to FILE.
press_block() {
    local i lines
    for ((i = 1; i <= presses; i++)); do
        sequences=$((sequences + 1))
        rig_gpio_click booth button 30
        sb_wait '"from":"processing","to":"idle"' "$sequences" 60
    done
    lines=$(wc -l <"$events")
    sed -n "$((taken + 1)),${lines}p" "$events" >>"$1"
    taken=$lines
}

# load_runs LOG: succeeds once gallery-load says its load runs; fails the scenario if it exited first.
load_runs() {
    grep -q 'the load runs' "$1" && return 0
    kill -0 "$load_pid" 2>/dev/null || rig_fail "gallery-load exited before its load ran: $(tail -5 "$1")"
    return 1
}

: >"$RIG_OUT/without.jsonl"
: >"$RIG_OUT/with.jsonl"
for ((round = 1; round <= rounds; round++)); do
    press_block "$RIG_OUT/without.jsonl"
    rig_log "round $round: $presses presses without the gallery; starting the gallery and its load"
    # At most as long as the block may take (60 s a press): a load left behind by a killed scenario ends by itself.
    "$RIG_PY" "$load_tool" --booth "$booth" --photos "$photos" --load-only --seconds $((presses * 60 + 60)) \
        >"$RIG_OUT/load-$round.txt" 2>"$RIG_OUT/load-$round.log" &
    load_pid=$!
    rig_wait_for 600 "the gallery's load to run" load_runs "$RIG_OUT/load-$round.log"
    press_block "$RIG_OUT/with.jsonl"
    kill -USR1 "$load_pid"
    rc=0
    wait "$load_pid" || rc=$?
    ((rc == 0)) || rig_fail "gallery-load exited with $rc: $(tail -5 "$RIG_OUT/load-$round.log")"
    rig_log "round $round: $presses presses beside the load; the load stopped"
done
sb_stop
rm -rf "$photos"
for side in without with; do
    started=$(grep -cE '"type":"soundStarted",.*"purpose":"attention"' "$RIG_OUT/$side.jsonl" || true)
    rig_assert "$((rounds * presses)) attention sounds started $side the load ($started)" \
        test "$started" -eq $((rounds * presses))
done

{
    echo "The booth (loop SCHED_FIFO 10) on gpio-sim and hw:Loopback,0,0 in QEMU TCG (2 vCPU), $((rounds * presses))" \
        "presses without and $((rounds * presses)) with the gallery's load, in blocks of $presses alternating; ms"
    echo "guest load at the end: $(cat /proc/loadavg); playback: $sb_playback_params"
    echo
    echo "| Path | n without / with | median without / with (ratio) | p99 without / with (ratio) |"
    echo "|---|---|---|---|"
    "$RIG_PY" "$RIG_DIR/lib/beside.py" attention "$RIG_OUT/without.jsonl" "$RIG_OUT/with.jsonl" "button press"
    for ((round = 1; round <= rounds; round++)); do
        echo
        echo "The load, round $round (Benchmarks/gallery-load --load-only):"
        cat "$RIG_OUT/load-$round.txt"
    done
} >"$RIG_OUT/latency.txt"
cat "$RIG_OUT/latency.txt" >&2
for ((round = 1; round <= rounds; round++)); do
    requests=$(sed -n 's/^| requests \/ s (all, completed) *| [0-9]* (\([0-9]*\) requests) |$/\1/p' \
        "$RIG_OUT/load-$round.txt")
    rig_assert "round $round: the gallery answered under load (${requests:-no} requests)" test "${requests:-0}" -gt 0
    rig_assert "round $round: no request of the load failed" grep -qE '^\| errors \(must be 0\) +\| 0 \|$' \
        "$RIG_OUT/load-$round.txt"
done
