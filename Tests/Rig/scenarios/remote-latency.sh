# remote-latency: input → first samples handed to ALSA for the GPIO button and a uinput remote, side by side in one
# booth run (presses in turn, each a whole sequence), with the floor of each: a bare reader of the remote's events (its
# kernel timestamp to read() returning, SCHED_FIFO 10 as the booth's loop). Median and p99 into the log and
# RIG_OUT/latency.txt; knob-latency measures the knob.
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
sb_stop
rig_remote_gone shutter

"$RIG_PY" - "$events" "$RIG_OUT/bare.txt" >"$RIG_OUT/latency.txt" <<'PY'
import json, sys
events = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
inputs = {e["t_us"]: e for e in events if e.get("type") == "input" and e.get("input") == "buttonPressed"}
found = {"button": [], "remote": []}
for e in events:
    if e.get("type") == "soundStarted" and e.get("purpose") == "attention" and e.get("event_us") in inputs:
        source = "remote" if "from" in inputs[e["event_us"]] else "button"
        found[source].append(e["t_us"] - e["event_us"])
bare = [int(b) - int(a) for a, b in (line.split() for line in open(sys.argv[2]) if line.strip())]
def row(name, values):
    values = sorted(values)
    if not values:
        return f"| {name} | 0 | | | |"
    p99 = values[max(1, (99 * len(values) + 99) // 100) - 1]
    return f"| {name} | {len(values)} | {values[0] / 1000:.2f} | {values[len(values) // 2] / 1000:.2f} | {p99 / 1000:.2f} |"
print("input -> first samples handed to ALSA (booth run, QEMU TCG 2 vCPU), ms")
print()
print("| Path | n | min | median | p99 |")
print("|---|---|---|---|---|")
print(row("Button edge (gpio-sim) -> first samples handed to ALSA", found["button"]))
print(row("Remote key (uinput) -> first samples handed to ALSA", found["remote"]))
print(row("Remote key -> a bare reader's read() (the floor)", bare))
PY
cat "$RIG_OUT/latency.txt" >&2
rm -rf "$RIG_OUT/photos"
rig_assert "every press of each answered ($(grep -c '^| ' "$RIG_OUT/latency.txt") rows)" \
    grep -q "| Remote key (uinput) -> first samples handed to ALSA | $presses |" "$RIG_OUT/latency.txt"
