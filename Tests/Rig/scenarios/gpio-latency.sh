# gpio-latency: kernel edge timestamp -> input event handled in the booth's loop, over 120 clicks (240 edges) on the
# gpio-sim button; prints the table and writes it to RIG_OUT/latency.txt.
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 200
# rig-default: no (benchmark: kernel edge -> loop, median/p99)
rig_booth_chip >/dev/null
rig_booth_config "$RIG_OUT/booth.toml" booth.review_window=0
rig_booth_start "$RIG_OUT/booth.toml" --simulated-camera --simulated-sound
pull=$(rig_gpio_line_dir booth button)/pull
clicks=120
for ((i = 1; i <= clicks; i++)); do
    echo pull-down >"$pull"
    rig_sleep_ms 30
    echo pull-up >"$pull"
    rig_sleep_ms 40
done
rig_wait_for 60 "the last sequence to end" rig_booth_idle
rig_sleep_ms 500
rig_booth_stop
rig_log "load in the guest: $(cat /proc/loadavg)"
presses=$(rig_booth_count '"input":"buttonPressed"')
rig_log "$presses of $clicks clicks seen as presses (a click whose two kernel timestamps land within the 10 ms" \
    "debounce, which a starved VM can do, is rightly no press)"
rig_assert "at least 100 presses" test "$presses" -ge 100
rig_assert "as many releases as presses" test "$(rig_booth_count '"input":"buttonReleased"')" = "$presses"
"$RIG_PY" "$RIG_DIR/lib/timing.py" latency "$RIG_BOOTH_EVENTS" "$RIG_OUT/latency.txt"
