# gpio-latency: kernel edge timestamp -> the event in a program's hands, over 120 clicks (240 edges) on the gpio-sim
# button each, for these readers of the same line: the booth (its loop SCHED_FIFO 10, the default; then with
# booth.realtime_priority = 0), both again while two busy loops (one per vCPU) compete for the CPUs, and a bare C
# reader blocking in read() on the kernel's GPIO uAPI v2 (gpio-timing listen: the floor any program has in this VM;
# normal, then SCHED_FIFO 10). Prints the table and writes it to RIG_OUT/latency.txt.
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 300
# rig-default: no (benchmark: kernel edge -> loop, median/p99)
clicks=120
pull=

# click_all: 120 clicks, 30 ms down, 40 ms up.
click_all() {
    for ((i = 1; i <= clicks; i++)); do
        echo pull-down >"$pull"
        rig_sleep_ms 30
        echo pull-up >"$pull"
        rig_sleep_ms 40
    done
}

# booth_run NAME PRIORITY: the booth with booth.realtime_priority = PRIORITY; its events end up in RIG_OUT/NAME.jsonl.
booth_run() {
    rig_booth_config "$RIG_OUT/booth.toml" booth.review_window=0 booth.realtime_priority="$2"
    rig_booth_start "$RIG_OUT/booth.toml" --simulated-camera --simulated-sound
    click_all
    rig_wait_for 60 "the last sequence to end" rig_booth_idle
    rig_sleep_ms 500
    rig_booth_stop
    cp "$RIG_BOOTH_EVENTS" "$RIG_OUT/$1.jsonl"
    local presses
    presses=$(grep -cF '"input":"buttonPressed"' "$RIG_OUT/$1.jsonl" || true)
    rig_log "$1: $presses of $clicks clicks seen as presses"
    rig_assert "$1: every click a press" test "$presses" = "$clicks"
    rig_assert "$1: as many releases as presses" \
        test "$(grep -cF '"input":"buttonReleased"' "$RIG_OUT/$1.jsonl")" = "$presses"
}

# bare_run NAME PRIORITY: gpio-timing listen on the button line; its lines end up in RIG_OUT/NAME.txt.
bare_run() {
    local tool line chip
    tool=$(rig_gpio_timing)
    line=$(rig_gpio_offset booth button)
    chip=$(rig_gpio_chip booth)
    "$tool" listen "/dev/$chip" "$line" "$RIG_OUT/$1.txt" "$2" >"$RIG_OUT/$1.out" 2>&1 &
    local pid=$!
    rig_wait_for 10 "gpio-timing listening" grep -q listening "$RIG_OUT/$1.out"
    click_all
    rig_sleep_ms 500
    kill -TERM "$pid"
    wait "$pid" || { cat "$RIG_OUT/$1.out" >&2; rig_fail "gpio-timing listen failed"; }
    rig_log "$1: $(wc -l <"$RIG_OUT/$1.txt") edges read"
    rig_assert "$1: every edge read" test "$(wc -l <"$RIG_OUT/$1.txt")" = $((clicks * 2))
}

rig_booth_chip >/dev/null
pull=$(rig_gpio_line_dir booth button)/pull
booth_run booth-fifo10 10
booth_run booth-normal 0
rig_cpu_hogs_start
booth_run booth-fifo10-hogs 10
booth_run booth-normal-hogs 0
rig_cpu_hogs_stop
bare_run bare-normal 0
bare_run bare-fifo10 10
rig_log "load in the guest: $(cat /proc/loadavg)"
"$RIG_PY" "$RIG_DIR/lib/timing.py" latency "$RIG_OUT/latency.txt" "booth, loop SCHED_FIFO 10=$RIG_OUT/booth-fifo10.jsonl" \
    "booth, normal scheduler=$RIG_OUT/booth-normal.jsonl" \
    "booth, loop SCHED_FIFO 10, 2 busy loops=$RIG_OUT/booth-fifo10-hogs.jsonl" \
    "booth, normal scheduler, 2 busy loops=$RIG_OUT/booth-normal-hogs.jsonl" "bare C reader, normal=$RIG_OUT/bare-normal.txt" \
    "bare C reader, SCHED_FIFO 10=$RIG_OUT/bare-fifo10.txt"
