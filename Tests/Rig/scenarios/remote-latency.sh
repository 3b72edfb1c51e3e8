# remote-latency: input → first samples handed to ALSA for the GPIO button, a uinput remote and the knob, side by side
# in one booth run (the button and the remote in turn, each press a whole sequence; then the knob's detents, each its
# preview sound), with the floors of the remote and the button: bare readers of the remote's events and of the button's
# line (gpio-timing listen: the kernel's timestamp to read() returning, SCHED_FIFO 10 as the booth's loop), each alone
# before the booth starts. Each path is also split at the loop's handling of the input (its read path, then its
# actions), and the table's title names the guest's clocksource and what a clock read costs there. Median and p99 into
# the log and RIG_OUT/latency.txt; knob-latency measures the knob alone (160 detents), for comparing two binaries.
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 1500
# shellcheck source=SCRIPTDIR/../lib/booth-sound.sh
# rig-default: no (benchmark: button and remote -> ALSA hand-off, median/p99)
source "$RIG_DIR/lib/booth-sound.sh"
presses=100
up=115
sb_setup
rig_remote_make shutter "HeyLook Test Shutter" 248a 8266 $up
tool=$(rig_c_tool remote-keys)

# The floor: a bare reader of the remote, alone.
# It listens until stopped (SIGINT, once every click is sent), at most a second a click.
"$tool" listen "${RIG_REMOTE_NODE[shutter]}" $((presses * 1000 + 3000)) "$RIG_OUT/bare.txt" >"$RIG_OUT/bare.out" &
bare=$!
rig_wait_for 10 "the bare reader" grep -q listening "$RIG_OUT/bare.out"
for ((i = 1; i <= presses; i++)); do
    rig_remote shutter click $up
    rig_sleep_ms 30
done
rig_sleep_ms 200
kill -INT "$bare" 2>/dev/null || true
wait "$bare" 2>/dev/null || true
rig_assert "the bare reader saw every click ($(wc -l <"$RIG_OUT/bare.txt") of $presses)" \
    test "$(wc -l <"$RIG_OUT/bare.txt")" = "$presses"

# The button's floor: a bare reader of its line, alone (both edges of each click).
"$(rig_gpio_timing)" listen "/dev/$chip" "$(rig_gpio_offset booth button)" "$RIG_OUT/bare-gpio.txt" 10 \
    >"$RIG_OUT/bare-gpio.out" 2>&1 &
bare=$!
rig_wait_for 10 "the bare GPIO reader" grep -q listening "$RIG_OUT/bare-gpio.out"
for ((i = 1; i <= presses; i++)); do
    rig_gpio_click booth button 30
    rig_sleep_ms 30
done
rig_sleep_ms 200
kill -TERM "$bare" 2>/dev/null || true
wait "$bare" || { cat "$RIG_OUT/bare-gpio.out" >&2; rig_fail "gpio-timing listen failed"; }
rig_assert "the bare GPIO reader saw every edge ($(wc -l <"$RIG_OUT/bare-gpio.txt") of $((2 * presses)))" \
    test "$(wc -l <"$RIG_OUT/bare-gpio.txt")" = $((2 * presses))

# The booth: the button and the remote in turn, the next press once the booth is idle again.
sb_config "$RIG_OUT/booth.toml" "hw:Loopback,0,0" Pop '["Pop", "Duck"]' 0.5
echo 'devices = ["HeyLook Test Shutter"]' >>"$RIG_OUT/booth.toml" # [remote] is the config's last table
sb_start "$RIG_OUT/booth.toml"
for ((i = 1; i <= presses; i++)); do
    rig_gpio_click booth button 30
    sb_wait '"from":"processing","to":"idle"' $((2 * i - 1)) 60
    rig_remote shutter click $up
    sb_wait '"from":"processing","to":"idle"' $((2 * i)) 60
done
# The knob, in the same booth run: a detent each time the last one's preview has finished.
sb_knob_paths
sb_knob_detents "$presses"
knob_seen=$sb_seen
sb_stop
rig_remote_gone shutter

"$RIG_PY" - "$events" "$RIG_OUT/bare.txt" "$RIG_OUT/bare-gpio.txt" >"$RIG_OUT/latency.txt" <<'PY'
import json, sys, time
events = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
inputs = {e["t_us"]: e for e in events if e.get("type") == "input" and e.get("input") == "buttonPressed"}
detents = {e["t_us"]: e for e in events if e.get("type") == "input" and e.get("input") == "knobTurned"}
found = {"button": [], "remote": [], "knob": []}
# Where the time goes: the input's time to the loop handling it (the booth's read path), then to ALSA (its actions).
read = {"button": [], "remote": [], "knob": []}
acts = {"button": [], "remote": [], "knob": []}
def measured(source, sound, handled):
    found[source].append(sound["t_us"] - sound["event_us"])
    read[source].append(handled["handled_us"] - sound["event_us"])
    acts[source].append(sound["t_us"] - handled["handled_us"])
for e in events:
    if e.get("type") == "soundStarted" and e.get("purpose") == "attention" and e.get("event_us") in inputs:
        measured("remote" if "from" in inputs[e["event_us"]] else "button", e, inputs[e["event_us"]])
    elif e.get("type") == "soundStarted" and e.get("purpose") == "preview" and e.get("event_us") in detents:
        measured("knob", e, detents[e["event_us"]])
bare = [int(b) - int(a) for a, b in (line.split() for line in open(sys.argv[2]) if line.strip())]
bare_gpio = [int(b) - int(a) for a, b, *_ in (line.split() for line in open(sys.argv[3]) if line.strip())]
def row(name, values):
    values = sorted(values)
    if not values:
        return f"| {name} | 0 | | | |"
    p99 = values[max(1, (99 * len(values) + 99) // 100) - 1]
    return f"| {name} | {len(values)} | {values[0] / 1000:.2f} | {values[len(values) // 2] / 1000:.2f} | {p99 / 1000:.2f} |"
clock = open("/sys/devices/system/clocksource/clocksource0/current_clocksource").read().strip()
# What one read of the monotonic clock costs here (the booth reads it several times an input).
began = time.perf_counter_ns()
for _ in range(2000):
    time.monotonic_ns()
read_us = (time.perf_counter_ns() - began) / 2000 / 1000
print(f"input -> first samples handed to ALSA (booth run, QEMU TCG 2 vCPU; clocksource {clock}, "
      f"{read_us:.1f} us a clock read), ms")
print()
print("| Path | n | min | median | p99 |")
print("|---|---|---|---|---|")
print(row("Button edge (gpio-sim) -> first samples handed to ALSA", found["button"]))
print(row("Remote key (uinput) -> first samples handed to ALSA", found["remote"]))
print(row("Knob detent (gpio-sim) -> its preview's first samples handed to ALSA", found["knob"]))
print(row("Button edge -> the booth's loop handling it", read["button"]))
print(row("Remote key -> the booth's loop handling it", read["remote"]))
print(row("Knob detent -> the booth's loop handling it", read["knob"]))
print(row("Button: the loop's handling -> first samples handed to ALSA", acts["button"]))
print(row("Remote: the loop's handling -> first samples handed to ALSA", acts["remote"]))
print(row("Knob: the loop's handling -> first samples handed to ALSA", acts["knob"]))
print(row("Remote key -> a bare reader's read() (the floor)", bare))
print(row("Button edge -> a bare reader's read() (the floor, both edges)", bare_gpio))
PY
cat "$RIG_OUT/latency.txt" >&2
rm -rf "$RIG_OUT/photos"
rig_assert "every press of each answered ($(grep -c '^| ' "$RIG_OUT/latency.txt") rows)" \
    grep -q "| Remote key (uinput) -> first samples handed to ALSA | $presses |" "$RIG_OUT/latency.txt"
rig_assert "at most 1% of the knob's detents lost ($((presses - knob_seen)) of $presses)" \
    test $(((presses - knob_seen) * 100)) -le "$presses"
rig_assert "each detent the booth reported has its preview's row" \
    grep -q "| Knob detent (gpio-sim) -> its preview's first samples handed to ALSA | $knob_seen |" "$RIG_OUT/latency.txt"
