# sound-knob: a knob detent plays the new sound's preview on snd-aloop at once; the next detent cuts it and plays
# the next preview, which plays whole.
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 360
# shellcheck source=SCRIPTDIR/../lib/booth-sound.sh
source "$RIG_DIR/lib/booth-sound.sh"
sb_setup
sb_config "$RIG_OUT/booth.toml" "hw:Loopback,0,0" Duck '["Duck", "Cow", "Dog", "Boing", "Whistle"]' 1.0
sb_start "$RIG_OUT/booth.toml"
sb_record "$RIG_OUT/rec.wav"
sb_knob_paths
# Every detent must count here: 150 ms a transition (sb_detent), so Cow (1.3 s) plays about 450 ms, the second
# detent's length, before that detent cuts it (no forks in between: they are slow under TCG).
sb_detent 1 150
sb_detent 1 150
sb_wait '"type":"soundFinished","purpose":"preview"' 1 20
sb_record_stop
sb_stop

rate=48000
rig_assert "the sound setting went Cow, then Dog" test "$(sb_field setting value '"name":"sound"' | tr '\n' ' ')" = "Cow Dog "
# Cow: its first 0.2 s locate it; it is then exact up to where it was cut.
read -r clag cncc cmatched cframes < <(sb_check find "$RIG_OUT/rec.wav" "$RIG_OUT/ref/Cow.wav" 0 60 0.01)
read -r dlag dncc dmatched dframes < <(sb_check find "$RIG_OUT/rec.wav" "$RIG_OUT/ref/Dog.wav")
rig_log "Cow at frame $clag (ncc of its first 10 ms $cncc), exact for $cmatched of $cframes frames"
rig_log "Dog at frame $dlag (ncc $dncc), exact for $dmatched of $dframes frames; $(sb_playback_note Dog)"
rig_assert "Cow's preview is in the recording (ncc $cncc >= 0.99)" awk -v v="$cncc" 'BEGIN { exit !(v >= 0.99) }'
rig_assert "Cow's preview was cut ($cmatched < $cframes frames)" test "$cmatched" -lt "$cframes"
rig_assert "Dog's preview comes after Cow's" test "$dlag" -gt "$clag"
rig_assert "Dog's preview is in the recording (ncc $dncc >= 0.99)" awk -v v="$dncc" 'BEGIN { exit !(v >= 0.99) }'
rig_assert "Dog's preview played whole" test "$dmatched" -eq "$dframes"
sb_check rank "$RIG_OUT/rec.wav" "$RIG_OUT/ref" Dog "$dlag" 0.1 >"$RIG_OUT/rank.txt" || rank_rc=$?
cat "$RIG_OUT/rank.txt" >&2
rig_assert "Dog is the clear best match among the built-ins" test "${rank_rc:-0}" -eq 0
# The cut: Cow played exactly until Dog took over (nothing of Cow after Dog's start, no long hole before it).
gap=$(((dlag - clag - cmatched) * 1000000 / rate))
rig_log "Cow played $((cmatched * 1000 / rate)) ms; gap between Cow's last exact sample and Dog's first: $gap us"
rig_assert "Cow stops where Dog starts (gap $gap us within 0..$((SB_DEVICE_SLACK_US / 1000)) ms)" test "$gap" -ge 0 -a \
    "$gap" -le "$SB_DEVICE_SLACK_US"
c_start=$(sb_field soundStarted device_start_us '"sound":"Cow"' | head -1)
d_start=$(sb_field soundStarted device_start_us '"sound":"Dog"' | head -1)
rec_gap=$(((dlag - clag) * 1000000 / rate)) dev_gap=$((d_start - c_start))
rig_log "Cow -> Dog: $rec_gap us in the recording, $dev_gap us between ALSA's trigger timestamps"
# Each start may land in the recording SB_DEVICE_SLACK_US off its trigger timestamp, so their distance twice that.
sb_assert_start_distance "$rec_gap" "$dev_gap"
