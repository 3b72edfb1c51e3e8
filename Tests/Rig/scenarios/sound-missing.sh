# sound-missing: a sound device that does not exist is reported by name, the booth shows the warning pattern, runs
# silent and a press still completes the sequence with the sound's timing.
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 240
# shellcheck source=SCRIPTDIR/../lib/booth-sound.sh
source "$RIG_DIR/lib/booth-sound.sh"
sb_setup
device=hw:NoSuchCard,0,0
sb_config "$RIG_OUT/booth.toml" "$device" Cow '["Duck", "Cow", "Dog", "Boing", "Whistle"]' 0.5
sb_start "$RIG_OUT/booth.toml"
sb_wait '"name":"warning.soundDeviceUnavailable","value":"true"' 1 10
rig_log "booth.log: $(grep -F 'sound:' "$RIG_OUT/booth.log" | head -3)"
rig_assert "the log names the device and says it runs silent" \
    grep -qF -e "$device" "$RIG_OUT/booth.log"
rig_assert "the log says the booth runs silent" grep -qF 'running silent' "$RIG_OUT/booth.log"
# The warning pattern (the first LED blinking twice for the sound device, then a pause) on the real LED line.
rig_gpio_wait_value booth led0 1 5
rig_gpio_wait_value booth led0 0 5
rig_assert "only the first LED blinks for the warning" test "$(rig_gpio_value booth led1)" = 0
rig_booth_press "$events"
sb_wait '"from":"processing","to":"idle"' 1 60
sb_stop
rig_events "$events" states | tee "$RIG_OUT/states" >&2
rig_assert "no sound failed" bash -c "! grep -qF '\"type\":\"soundFailed\"' '$RIG_OUT/events.jsonl'"
rig_assert "the silent attention sound still finished" sb_has '"type":"soundFinished","purpose":"attention"'
rig_assert "the photo was saved" sb_has '"type":"photoSaved"'
# From the silent sound's start (the booth handles the press some ms after the edge under emulation) to its end.
t_play=$(sb_field soundStarted t_us | head -1)
t_count=$(sb_field state t_us '"to":"countingDown"' | head -1) t_cap=$(sb_field state t_us '"to":"capturing"' | head -1)
played=$((t_count - t_play)) counted=$((t_cap - t_count))
rig_log "silent Cow took $played us (1.3 s), countdown $counted us (0.5 s)"
rig_assert "the silent sound is timed as if played (1.3 s -5/+30 ms)" test "$played" -ge 1295000 -a "$played" -le 1330000
rig_assert "the countdown keeps its delay (0.5 s +- 30 ms)" test "$counted" -ge 500000 -a "$counted" -le 530000
rig_assert "no device start is claimed for a silent sound" bash -c "! grep -qF device_start_us '$events'"
