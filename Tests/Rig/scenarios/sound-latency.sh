# sound-latency: GPIO edge (kernel timestamp) to sound on snd-aloop, over many knob detents (preview) and button
# presses (attention sound), the presses once on an idle guest and once with a busy loop per vCPU (the booth's loop
# runs SCHED_FIFO 10, the default): median and p99 into the log and RIG_OUT/latency.txt.
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 2400
# shellcheck source=SCRIPTDIR/../lib/booth-sound.sh
# rig-default: no (benchmark: edge -> ALSA hand-off and onset, median/p99)
source "$RIG_DIR/lib/booth-sound.sh"
detents=220
presses=200
sb_setup
sb_config "$RIG_OUT/booth.toml" "hw:Loopback,0,0" Pop '["Pop", "Duck"]' 0.5
sb_start "$RIG_OUT/booth.toml"

# Knob: one detent at a time (Pop <-> Duck), the next once the preview has played, into a recording so each
# preview's first sample can be found after silence.
sb_record "$RIG_OUT/rec.wav" 300
sb_knob_paths
sb_knob_detents "$detents"
seen=$sb_seen lost=$((detents - sb_seen))
SB_TOLERATE_OVERRUN=1 sb_record_stop
rig_log "knob: $detents detents sent, $seen reported, $lost lost"

# Button: a full sequence per press (Pop 0.3 s, delay 0.5 s, no retake window), the next once it is idle again;
# then as many with the CPUs busy.
for ((i = 1; i <= presses; i++)); do
    rig_gpio_click booth button 30
    sb_wait '"from":"processing","to":"idle"' "$i" 60
done
idle_lines=$(wc -l <"$events")
rig_cpu_hogs_start
for ((i = presses + 1; i <= 2 * presses; i++)); do
    rig_gpio_click booth button 30
    sb_wait '"from":"processing","to":"idle"' "$i" 60
done
rig_cpu_hogs_stop
sb_stop
head -n "$idle_lines" "$events" >"$RIG_OUT/idle.jsonl"
tail -n +$((idle_lines + 1)) "$events" >"$RIG_OUT/busy.jsonl"
rig_assert "$((2 * presses)) attention sounds" \
    test "$(grep -cF '"purpose":"attention"' "$events" | head -1)" -ge $((2 * presses))

{
    echo "GPIO edge (gpio-sim, kernel timestamp) -> sound on hw:Loopback,0,0; ms; booth run in QEMU TCG (2 vCPU)"
    echo "knob detents sent: $detents, reported by the booth: $seen, lost: $lost"
    echo "guest load: $(cat /proc/loadavg); playback: $sb_playback_params; capture frame 0 by trigger_time" \
        "$rec_frame0_us us, by tstamp - hw_ptr $rec_frame0_alt_us us"
    echo
    echo "| Path | n | min | median | p99 | max |"
    echo "|---|---|---|---|---|---|"
    sb_check latency "$events" preview "knob detent"
    if ((rec_overran)); then
        echo "| knob detent -> first sample in the loopback recording | (arecord overran: not measured) |"
    else
        sb_check onsets "$RIG_OUT/rec.wav" "$events" preview "$rec_frame0_us" "knob detent"
    fi
    sb_check latency "$RIG_OUT/idle.jsonl" attention "button press"
    sb_check latency "$RIG_OUT/busy.jsonl" attention "button press, a busy loop per vCPU"
} >"$RIG_OUT/latency.txt"
cat "$RIG_OUT/latency.txt" >&2
rm -rf "$RIG_OUT/photos"
rig_assert "at most 1% of the knob detents lost ($lost of $detents)" test $((lost * 100)) -le "$detents"
