# gpio-countdown: the countdown LED lines flash every 0.5 s (250 ms on, fewer lit as time runs out, all on at the
# capture); every edge, sampled from sysfs with CLOCK_MONOTONIC times, is where the countingDown event's time +
# k x 250 ms puts it: the median edge within 20 ms, none off by 100 ms or more (a missed or shifted step) unless the
# booth's own leds event shows that frame on its exact schedule, written by a loop that woke late (a starved guest,
# under a second) and followed by the line; how many are within 20 ms is reported; a frame replaced within 5 ms (the
# capture's, after a stalled loop) is checked in the booth's own leds events instead. Three sequences of a 2.0 s
# delay on 4 LEDs: 72 edges.
# shellcheck shell=bash
# rig-needs: booth
# rig-backends: gpiod2
# rig-timeout: 150
rig_booth_chip >/dev/null
# No review window: a click that the loaded host stretches past 1 s must not become a retake.
rig_booth_config "$RIG_OUT/booth.toml" countdown.default_delay=2.0 booth.review_window=0
rig_booth_start "$RIG_OUT/booth.toml" --simulated-camera --simulated-sound
timing=$(rig_gpio_timing)
files=()
for l in led1 led2 led3 led4; do files+=("$(rig_gpio_line_dir booth "$l")/value"); done
"$timing" sample "$RIG_OUT/samples" 90000 500 "${files[@]}" >"$RIG_OUT/sampler.out" &
sampler=$!
rig_sleep_ms 300
for n in 1 2 3; do
    rig_booth_click "$n" '"to":"playingSound"'
    rig_booth_wait 30 "$n" '"type":"photoSaved"'
    rig_booth_wait 10 "$n" '"type":"state","from":"processing","to":"idle"'
done
kill "$sampler"
wait "$sampler" 2>/dev/null || true
rig_booth_stop
cat "$RIG_OUT/sampler.out"
rig_log "load in the guest: $(cat /proc/loadavg)"
# The booth's own view: how late each LED change was written after it was due.
grep -F '"type":"leds"' "$RIG_BOOTH_EVENTS" | sed 's/.*"t_us":\([0-9]*\).*"scheduled_us":\([0-9]*\).*/\1 \2/' |
    awk '{ d = $1 - $2; s += d; if (d > m) m = d }
        END { printf "booth leds events: %d, late: mean %.2f ms, max %.2f ms\n", NR, s / NR / 1e3, m / 1e3 }'
"$RIG_PY" "$RIG_DIR/lib/timing.py" countdown "$RIG_BOOTH_EVENTS" "$RIG_OUT/samples" 4 20 |
    tee "$RIG_OUT/countdown.txt" || rig_fail "countdown LED edges off schedule (see above)"
