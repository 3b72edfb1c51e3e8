# sound-custom: a WAV file in the sounds folder becomes a knob choice and plays sample for sample on snd-aloop; a
# bad WAV file is refused with a message naming it, and the booth runs on.
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 300
# shellcheck source=SCRIPTDIR/../lib/booth-sound.sh
source "$RIG_DIR/lib/booth-sound.sh"
sb_setup
rig_tone "$RIG_OUT/sounds/Kazoo.wav" 660 0.4 48000 2
printf 'RIFF\x10\x00\x00\x00WAVEjunk' >"$RIG_OUT/sounds/Broken.wav"
sb_config "$RIG_OUT/booth.toml" "hw:Loopback,0,0" Duck '["Duck", "Kazoo"]' 0.5
sb_start "$RIG_OUT/booth.toml"
rig_log "booth.log: $(grep -F 'Broken' "$RIG_OUT/booth.log" | head -3)"
rig_assert "the bad file is refused by name" grep -qF 'Broken.wav' "$RIG_OUT/booth.log"
rig_assert "the good file is not refused" bash -c "! grep -qF 'Kazoo.wav' '$RIG_OUT/booth.log'"
# kazoo_preview STEPS N: the knob turned to Kazoo (1) or back to Duck (-1) while the loopback is recorded, until the
# Nth preview has finished.
kazoo_preview() {
    sb_record "$RIG_OUT/rec.wav"
    rig_gpio_knob booth knob-a knob-b "$1"
    sb_wait '"type":"soundFinished","purpose":"preview"' "$2" 20
    sb_record_stop
}
kazoo_preview 1 1
rig_assert "the knob chose Kazoo" sb_has '"type":"setting","name":"sound","value":"Kazoo"'
rig_assert "Kazoo's preview started" sb_has '"type":"soundStarted","sound":"Kazoo","purpose":"preview"'
read -r lag ncc matched frames < <(sb_check find "$RIG_OUT/rec.wav" "$RIG_OUT/sounds/Kazoo.wav")
rig_log "Kazoo at frame $lag (ncc $ncc), exact for $matched of $frames frames; $(sb_playback_note Kazoo)"
if [[ $matched != "$frames" ]] && sb_held_past_buffer Kazoo; then
    rig_log "the guest was held past the playback buffer during Kazoo's preview: back to Duck and Kazoo once more"
    mv "$RIG_OUT/rec.wav" "$RIG_OUT/rec-held.wav"
    kazoo_preview -1 2
    kazoo_preview 1 3
    read -r lag ncc matched frames < <(sb_check find "$RIG_OUT/rec.wav" "$RIG_OUT/sounds/Kazoo.wav")
    rig_log "Kazoo at frame $lag (ncc $ncc), exact for $matched of $frames frames; $(sb_playback_note Kazoo)"
fi
sb_stop
rig_assert "Kazoo is in the recording (ncc $ncc >= 0.99)" awk -v v="$ncc" 'BEGIN { exit !(v >= 0.99) }'
rig_assert "Kazoo played whole, sample for sample" test "$matched" -eq "$frames"
rig_assert "the choice was persisted" grep -qF 'Kazoo' "$RIG_OUT/state.toml"
