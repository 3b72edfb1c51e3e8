# gpio-countdown: the countdown LED lines flash every 0.5 s (250 ms on, fewer lit as time runs out, all on at the
# capture); every edge, sampled from sysfs with CLOCK_MONOTONIC times, is where the countingDown event's time +
# k x 250 ms puts it: the median edge within 20 ms, none off by 100 ms or more (a missed or shifted step) beyond the
# sampler's own gap; how many are within 20 ms is reported; a frame replaced within 5 ms (the capture's, after a
# stalled loop) is checked in the booth's own leds events instead. Three sequences of a 2.0 s delay on 4 LEDs: 72
# edges. The booth and the sampler share vCPU 0, the sampler SCHED_FIFO 99 above the booth's loop: a guest the host
# starves holds both (a gap between the sampler's reads that an edge's error may fill), while a booth that holds
# its own loop leaves the sampler reading on time. The sampler takes at most a fifth of the vCPU (each pause lasts
# four times its read): with a fixed 0.5 ms pause, a vCPU the host slows leaves the booth's loop little more than
# the pauses. A fourth countdown proves the check sees a stalled booth: the booth is stopped (SIGSTOP) for 400 ms in
# it, and the check must fail on that countdown.
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
taskset -c 0 chrt -f 99 "$timing" sample "$RIG_OUT/samples" 120000 500 "${files[@]}" >"$RIG_OUT/sampler.out" &
sampler=$!
rig_sleep_ms 300
# Major page faults of the booth's loop thread (a code page read from the disk while the loop waits for it).
loop_faults() { awk '{ print $12 }' "/proc/$RIG_BOOTH_PID/task/$RIG_BOOTH_PID/stat"; }
faults=$(loop_faults)
for n in 1 2 3 4; do
    ((n < 4)) || faults=$(($(loop_faults) - faults))
    rig_booth_click "$n" '"to":"playingSound"'
    if ((n == 4)); then
        rig_booth_wait 10 4 '"to":"countingDown"'
        kill -STOP "$RIG_BOOTH_PID"
        rig_sleep_ms 400
        kill -CONT "$RIG_BOOTH_PID"
    fi
    rig_booth_wait 30 "$n" '"type":"photoSaved"'
    rig_booth_wait 10 "$n" '"type":"state","from":"processing","to":"idle"'
done
kill "$sampler"
wait "$sampler" 2>/dev/null || true
rig_booth_stop
cat "$RIG_OUT/sampler.out"
# The three countdowns as they ran, and the fourth (with the ready event, which gives the delay) the booth was held in.
fourth=$(grep -n '"to":"playingSound"' "$RIG_BOOTH_EVENTS" | sed -n 4p | cut -d: -f1)
head -n $((fourth - 1)) "$RIG_BOOTH_EVENTS" >"$RIG_OUT/steady.jsonl"
{ grep -m1 '"type":"ready"' "$RIG_BOOTH_EVENTS" && tail -n +"$fourth" "$RIG_BOOTH_EVENTS"; } >"$RIG_OUT/held.jsonl"
steady=ok
"$RIG_PY" "$RIG_DIR/lib/timing.py" countdown "$RIG_OUT/steady.jsonl" "$RIG_OUT/samples" 4 20 >"$RIG_OUT/countdown.txt" ||
    steady=failed
cat "$RIG_OUT/countdown.txt"
# Last, so a failure's tail shows them: the guest's load, and the booth's own view of the three countdowns (how late
# it wrote each LED change after it was due; major page faults of its loop thread, a code page read while it waited).
rig_log "load in the guest: $(cat /proc/loadavg); the loop thread's major page faults in the three countdowns: $faults"
grep -F '"type":"leds"' "$RIG_OUT/steady.jsonl" | sed 's/.*"t_us":\([0-9]*\).*"scheduled_us":\([0-9]*\).*/\1 \2/' |
    awk '{ d = $1 - $2; s += d; if (d > m) m = d }
        END { printf "booth leds events: %d, written late: mean %.2f ms, max %.2f ms\n", NR, s / NR / 1e3, m / 1e3 }'
[[ $steady == ok ]] || rig_fail "countdown LED edges off schedule (see above)"
if "$RIG_PY" "$RIG_DIR/lib/timing.py" countdown "$RIG_OUT/held.jsonl" "$RIG_OUT/samples" 4 20 >"$RIG_OUT/held.txt"; then
    cat "$RIG_OUT/held.txt"
    rig_fail "the check passed the countdown the booth was stopped in for 400 ms"
fi
rig_log "the countdown the booth was stopped in: $(grep PROBLEM "$RIG_OUT/held.txt" | tr '\n' ' ')"
