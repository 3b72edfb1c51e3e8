# sound-latency: GPIO edge (kernel timestamp) to sound on snd-aloop, over many knob detents (preview) and button
# presses (attention sound): median and p99 into the log and RIG_OUT/latency.txt.
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 1500
# shellcheck source=SCRIPTDIR/../lib/booth-sound.sh
source "$RIG_DIR/lib/booth-sound.sh"
detents=220
presses=200
sb_setup
sb_config "$RIG_OUT/booth.toml" "hw:Loopback,0,0" Pop '["Pop", "Dog", "Duck", "Boing", "Whistle"]' 0.5
sb_start "$RIG_OUT/booth.toml"
rig_log "period: $(grep -E '^period_size' /proc/asound/Loopback/pcm0p/sub0/hw_params) frames," \
    "buffer: $(grep -E '^buffer_size' /proc/asound/Loopback/pcm0p/sub0/hw_params)"

# Knob: one detent at a time, the next once the booth has started the previous preview.
for ((i = 1; i <= detents; i++)); do
    rig_gpio_knob booth knob-a knob-b $((i % 2 ? 1 : -1)) 2
    sb_wait '"purpose":"preview","event_us"' "$i" 10
done
rig_assert "$detents knob inputs logged" test "$(grep -cF '"input":"knobTurned"' "$events")" -eq "$detents"

# Button: a full sequence per press (Pop 0.3 s, delay 0.5 s, no retake window), the next once it is idle again.
sb_wait '"type":"soundFinished","purpose":"preview"' 1 10
for ((i = 1; i <= presses; i++)); do
    rig_gpio_click booth button 30
    sb_wait '"from":"processing","to":"idle"' "$i" 60
done
sb_stop
rig_assert "$presses attention sounds" test "$(grep -cF '"purpose":"attention"' "$events" | head -1)" -ge "$presses"

{
    echo "GPIO edge (gpio-sim, kernel timestamp) -> sound on hw:Loopback,0,0; ms; booth run in QEMU TCG (2 vCPU)"
    echo "guest load: $(cat /proc/loadavg)"
    echo
    echo "| Path | n | median | p99 | max |"
    echo "|---|---|---|---|---|"
    sb_check latency "$events" preview "knob detent"
    sb_check latency "$events" attention "button press"
} >"$RIG_OUT/latency.txt"
cat "$RIG_OUT/latency.txt" >&2
rm -rf "$RIG_OUT/photos"
