# knob-latency: knob detent (kernel timestamp) to the preview's first samples handed to ALSA and to the detent handled
# in the booth's loop: sound-latency's knob part alone, without the recording, so two binaries can be compared side by
# side in one rig in minutes (BOOTH_BIN=before, then after, then after, then before).
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 1200
# shellcheck source=SCRIPTDIR/../lib/booth-sound.sh
# rig-default: no (benchmark: knob edge -> preview hand-off, median/p99)
source "$RIG_DIR/lib/booth-sound.sh"
detents=160
sb_setup
sb_config "$RIG_OUT/booth.toml" "hw:Loopback,0,0" Pop '["Pop", "Duck"]' 0.5
sb_start "$RIG_OUT/booth.toml"
sb_knob_paths
sb_knob_detents "$detents"
seen=$sb_seen
sb_stop
"$RIG_PY" "$RIG_DIR/lib/timing.py" latency "$RIG_OUT/handled.txt" "booth=$events" >/dev/null
{
    echo "knob detent (gpio-sim, kernel timestamp) -> preview; booth run in QEMU TCG (2 vCPU); $("$booth" --version)"
    echo "knob detents sent: $detents, reported by the booth: $seen"
    echo
    echo "| Path | n | min | median | p99 | max |"
    echo "|---|---|---|---|---|---|"
    sb_check latency "$events" preview "knob detent"
    echo
    cat "$RIG_OUT/handled.txt"
} >"$RIG_OUT/latency.txt"
cat "$RIG_OUT/latency.txt" >&2
rm -rf "$RIG_OUT/photos"
rig_assert "at most 1% of the knob detents lost ($((detents - seen)) of $detents)" \
    test $(((detents - seen) * 100)) -le "$detents"
