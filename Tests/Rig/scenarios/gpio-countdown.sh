# gpio-countdown: the countdown LED lines flash every 0.5 s (250 ms on, fewer lit as time runs out, all on at the
# capture); every edge, sampled from sysfs with CLOCK_MONOTONIC times, is where the configured schedule puts it on the
# sampler's own clock: k x 250 ms after the read that first saw the row lit, the median edge within 20 ms, none
# still unwritten 40 ms after it was due beyond the time the sampler lost (lib/timing.py). Three sequences of a 2.0 s
# delay on 4 LEDs: 60 judged edges (the capture's frame is reported, not judged: the camera scenarios time the
# capture). The booth and the sampler share vCPU 0, the sampler SCHED_FIFO 99 above the booth's loop: the sampler
# loses time only when that vCPU stands still (a guest the host starves), which holds the booth too, so that time is
# excused and nothing else. The sampler takes at most a fifth of the vCPU (each pause lasts four times its read).
# Then a held countdown proves the check sees a stalled booth on real lines: the sampler itself stops the booth
# (SIGSTOP) from 150 ms after the row lit until the sampler has run 280 ms, over the edge due at +250 ms (written
# about 180 ms late beyond the time the guest stood still, which the check excuses and the hold adds; under the whole
# step of 250 ms the check before failed on; a booth let go too late for it writes the next frame instead, and that
# edge is missing), and the check must fail on that edge; a hold that the guest's own standstill excused, that missed
# the edge, or whose countdown failed on other edges only, is tried again, three times at most.
# That a 50 ms stall fails is test_timing.py's (on a host that loses time the rig would excuse part of a 50 ms hold).
# shellcheck shell=bash
# rig-needs: booth
# rig-backends: gpiod2
# rig-timeout: 200
rig_booth_chip >/dev/null
# No review window: a click that the loaded host stretches past 1 s must not become a retake.
rig_booth_config "$RIG_OUT/booth.toml" countdown.default_delay=2.0 booth.review_window=0
rig_booth_start "$RIG_OUT/booth.toml" --simulated-camera --simulated-sound
taskset -apc 0 "$RIG_BOOTH_PID" >/dev/null || rig_fail "taskset: the booth not pinned to vCPU 0"
timing=$(rig_gpio_timing)
files=()
for l in led1 led2 led3 led4; do files+=("$(rig_gpio_line_dir booth "$l")/value"); done
# countdown_sampler OUT SECONDS [HOLD_ARGS...]: the sampler, writing OUT, on the booth's vCPU above its loop (HOLD_ARGS:
# gpio-timing's --hold PID AFTER_MS FOR_MS).
countdown_sampler() {
    local out=$1 seconds=$2
    shift 2
    taskset -c 0 chrt -f 99 "$timing" sample "$out" "$((seconds * 1000))" 500 "$@" "${files[@]}" >"$out.out" &
    sampler=$!
    rig_sleep_ms 300
}
countdown_sampler_stop() {
    kill "$sampler" 2>/dev/null || true
    wait "$sampler" 2>/dev/null || true
}
# leds_lateness EVENTS: "count mean_ms max_ms" of how late the booth says it wrote its LED frames after they were due
# (reported beside the check, never judged).
leds_lateness() {
    grep -F '"type":"leds"' "$1" | sed 's/.*"t_us":\([0-9]*\).*"scheduled_us":\([0-9]*\).*/\1 \2/' |
        awk '{ d = $1 - $2; n++; s += d; if (d > m) m = d }
            END { printf "%d %.2f %.2f\n", n, n ? s / n / 1e3 : 0, m / 1e3 }'
}
countdown_sampler "$RIG_OUT/samples" 120
# Major page faults of the booth's loop thread (a code page read from the disk while the loop waits for it).
loop_faults() { awk '{ print $12 }' "/proc/$RIG_BOOTH_PID/task/$RIG_BOOTH_PID/stat"; }
faults=$(loop_faults)
for n in 1 2 3; do
    rig_booth_click "$n" '"to":"playingSound"'
    rig_booth_wait 30 "$n" '"type":"photoSaved"'
    rig_booth_wait 10 "$n" '"type":"state","from":"processing","to":"idle"'
done
faults=$(($(loop_faults) - faults))
countdown_sampler_stop
cat "$RIG_OUT/samples.out"
cp "$RIG_BOOTH_EVENTS" "$RIG_OUT/steady.jsonl"
steady=ok
"$RIG_PY" "$RIG_DIR/lib/timing.py" countdown "$RIG_OUT/steady.jsonl" "$RIG_OUT/samples" 4 2.0 20 >"$RIG_OUT/countdown.txt" ||
    steady=failed
# The held countdowns, each with its own sampler (which holds the booth) and its own events. The check is told when the
# sampler held the booth and marks a problem with an edge due then "(in the hold)": that is the held edge, whatever its
# offset (a countdown whose first frames a guest standstill excused is judged from a later frame). A hold the guest's
# own standstill excused, or a held countdown failed on other edges only (a busy host), proves nothing: tried again.
held="all three holds of the booth were excused or missed the edge due in the hold"
for try in 1 2 3; do
    n=$((3 + try))
    seen=$(wc -l <"$RIG_BOOTH_EVENTS")
    countdown_sampler "$RIG_OUT/held-$try" 30 --hold "$RIG_BOOTH_PID" 150 280
    rig_booth_click "$n" '"to":"playingSound"'
    rig_booth_wait 30 "$n" '"type":"photoSaved"'
    rig_booth_wait 10 "$n" '"type":"state","from":"processing","to":"idle"'
    countdown_sampler_stop
    cat "$RIG_OUT/held-$try.out"
    tail -n +"$((seen + 1))" "$RIG_BOOTH_EVENTS" >"$RIG_OUT/held-$try.jsonl"
    window=$(sed -n 's/^held .* (monotonic \([0-9]*\) to \([0-9]*\) us)$/\1 \2/p' "$RIG_OUT/held-$try.out")
    from=${window% *} to=${window#* }
    if [[ -z $to ]]; then
        held="the sampler never held the booth (held-$try.out: $(tr '\n' ' ' <"$RIG_OUT/held-$try.out"))"
        rig_log "held countdown $try: $held; again"
        continue
    fi
    if "$RIG_PY" "$RIG_DIR/lib/timing.py" countdown "$RIG_OUT/held-$try.jsonl" "$RIG_OUT/held-$try" 4 2.0 20 \
        --held "$from" "$to" >"$RIG_OUT/held-$try.txt"; then
        rig_log "held countdown $try: $(grep -m1 '^held' "$RIG_OUT/held-$try.out"); the check" \
            "excused it or the hold missed the edge: $(grep -m1 'LED1->0' "$RIG_OUT/held-$try.txt"); again"
        continue
    fi
    if ! grep -q '^PROBLEM: .*(in the hold)$' "$RIG_OUT/held-$try.txt"; then
        held="the check failed held countdown $try, but never on an edge due in the hold:"
        held+=" $(grep PROBLEM "$RIG_OUT/held-$try.txt" | head -n 4 | tr '\n' ' ')"
        rig_log "$held; again"
        continue
    fi
    rig_log "the countdown the booth was held in ($try, $(grep -m1 '^held' "$RIG_OUT/held-$try.out")):" \
        "$(grep PROBLEM "$RIG_OUT/held-$try.txt" | tr '\n' ' ')"
    held=caught
    break
done
rig_booth_stop
cat "$RIG_OUT/countdown.txt"
# Last, so a failure's tail shows them: the guest's load, and the booth's own view of the three countdowns (how late
# it wrote each LED change after it was due; major page faults of its loop thread, a code page read while it waited).
rig_log "load in the guest: $(cat /proc/loadavg); the loop thread's major page faults in the three countdowns: $faults"
read -r count mean latest < <(leds_lateness "$RIG_OUT/steady.jsonl")
echo "booth leds events: $count, written late: mean $mean ms, max $latest ms"
[[ $steady == ok ]] || rig_fail "countdown LED edges off schedule (see above)"
[[ $held == caught ]] || rig_fail "$held"
