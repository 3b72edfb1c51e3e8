# gpio-countdown: the countdown LED lines flash every 0.5 s (250 ms on, fewer lit as time runs out, all on at the
# capture); every edge, sampled from sysfs with CLOCK_MONOTONIC times, is where the countingDown event's time + k x
# 250 ms puts it: the median edge within 20 ms, none off by a whole step (250 ms: a step lost) beyond the sampler's
# own gap; how many are within 20 ms and how many 100 ms or more late is reported; a frame replaced within 5 ms (the
# capture's, after a stalled loop) is checked in the booth's own leds events instead. Three sequences of a 2.0 s delay
# on 4 LEDs: 72 edges. The booth and the sampler share vCPU 0, the sampler SCHED_FIFO 99 above the booth's loop: a
# guest the host starves holds both (a gap between the sampler's reads that an edge's error may fill), while a booth
# that holds its own loop leaves the sampler reading on time. Single edges later than 100 ms beyond that gap are
# measured, not failed: the emulated guest on a busy host delays them in ways the sampler does not see (133 ms seen in
# CI between reads 42 ms apart), and the sampler's pace cannot tell them apart either (beside a busy loop per host
# core its reads fall behind for up to 100 ms of a 150 ms window while the booth writes every frame within 25 ms). The
# sampler takes at most a fifth of the vCPU (each pause lasts four times its read): with a fixed 0.5 ms pause, a vCPU
# the host slows leaves the booth's loop little more than the pauses. Then a held countdown proves the check sees a
# stalled booth: the booth is stopped (SIGSTOP) for 600 ms in it, so a frame is written at least 350 ms late, and the
# check must fail on that lost step; a stop that a slow host delays past the countdown's steps is tried again, three
# times at most.
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
# countdown_sampler OUT SECONDS: the sampler, writing OUT, on the booth's vCPU above its loop.
countdown_sampler() {
    taskset -c 0 chrt -f 99 "$timing" sample "$1" "$(($2 * 1000))" 500 "${files[@]}" >"$1.out" &
    sampler=$!
    rig_sleep_ms 300
}
countdown_sampler_stop() {
    kill "$sampler" 2>/dev/null || true
    wait "$sampler" 2>/dev/null || true
}
# leds_lateness EVENTS [DUE_BY]: "count mean_ms max_ms" of how late the booth wrote its LED frames after they were due
# (only those due by DUE_BY, a t_us, when given).
leds_lateness() {
    grep -F '"type":"leds"' "$1" | sed 's/.*"t_us":\([0-9]*\).*"scheduled_us":\([0-9]*\).*/\1 \2/' |
        awk -v due_by="${2:-}" 'due_by == "" || $2 <= due_by + 0 { d = $1 - $2; n++; s += d; if (d > m) m = d }
            END { printf "%d %.2f %.2f\n", n, n ? s / n / 1e3 : 0, m / 1e3 }'
}
# countdown_lateness EVENTS: how late, in ms, the booth wrote the latest of the countdown's LED frames: those due by the
# end of its countdown (the processing animation's frames after it are no countdown step).
countdown_lateness() {
    local end
    end=$(sed -n 's/.*"t_us":\([0-9]*\),"type":"state","from":"countingDown".*/\1/p' "$1" | tail -1)
    [[ -n $end ]] || rig_fail "no countdown ended in $1"
    leds_lateness "$1" "$end" | cut -d' ' -f3
}
# stop_in_countdown FD: stops the booth (SIGSTOP) for 600 ms as soon as the events read on FD, from where it stands,
# show a countdown starting. Builtins only (no fork from the event to the stop), so a guest the host starves still
# stops the booth early in its 2 s countdown: polling with grep once stopped it only after the countdown had ended.
stop_in_countdown() {
    local line part="" deadline now
    rig_now_ms deadline
    deadline=$((deadline + 10000))
    while :; do
        while IFS= read -r -u "$1" line; do
            if [[ $part$line == *'"to":"countingDown"'* ]]; then
                kill -STOP "$RIG_BOOTH_PID"
                rig_sleep_ms 600
                kill -CONT "$RIG_BOOTH_PID"
                return 0
            fi
            part=""
        done
        part+=$line # A line the booth has not finished writing yet.
        rig_now_ms now
        ((now < deadline)) || rig_fail "no countdown within 10 s of the press"
        rig_sleep_ms 10
    done
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
"$RIG_PY" "$RIG_DIR/lib/timing.py" countdown "$RIG_OUT/steady.jsonl" "$RIG_OUT/samples" 4 20 >"$RIG_OUT/countdown.txt" ||
    steady=failed
# The held countdowns, each with its own sampler and events (the ready event, which gives the delay, then its own).
# The booth's own events tell whether the stop held a step (a countdown frame written 300 ms or more after it was
# due); only a stop that missed the steps is tried again.
held="all three stops of the booth missed the countdown's steps"
for try in 1 2 3; do
    n=$((3 + try))
    seen=$(wc -l <"$RIG_BOOTH_EVENTS")
    countdown_sampler "$RIG_OUT/held-$try" 30
    exec {events}<"$RIG_BOOTH_EVENTS"
    while IFS= read -r -u "$events" _; do :; done # Past the events so far (the booth is idle: whole lines).
    rig_booth_press "$RIG_BOOTH_EVENTS"
    stop_in_countdown "$events"
    exec {events}<&-
    rig_booth_wait 10 "$n" '"to":"countingDown"'
    rig_booth_wait 30 "$n" '"type":"photoSaved"'
    rig_booth_wait 10 "$n" '"type":"state","from":"processing","to":"idle"'
    countdown_sampler_stop
    cat "$RIG_OUT/held-$try.out"
    { grep -m1 '"type":"ready"' "$RIG_BOOTH_EVENTS" && tail -n +"$((seen + 1))" "$RIG_BOOTH_EVENTS"; } >"$RIG_OUT/held-$try.jsonl"
    latest=$(countdown_lateness "$RIG_OUT/held-$try.jsonl")
    if ((${latest%.*} < 300)); then
        rig_log "held countdown $try: the stop missed its steps" \
            "(the latest countdown frame written $latest ms late); again"
        continue
    fi
    if "$RIG_PY" "$RIG_DIR/lib/timing.py" countdown "$RIG_OUT/held-$try.jsonl" "$RIG_OUT/held-$try" 4 20 \
        >"$RIG_OUT/held-$try.txt"; then
        held="the check passed the countdown the booth was stopped in (a frame written $latest ms late)"
    elif ! grep -q 'a whole step (a step lost)' "$RIG_OUT/held-$try.txt"; then
        held="the check failed the countdown the booth was stopped in, but not on its lost step"
    else
        rig_log "the countdown the booth was stopped in ($try, a frame written $latest ms late):" \
            "$(grep PROBLEM "$RIG_OUT/held-$try.txt" | tr '\n' ' ')"
        held=caught
        break
    fi
    cat "$RIG_OUT/held-$try.txt"
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
