# sound-press: a button press plays the selected sound to its last sample on snd-aloop, then the countdown, then
# the shutter sound at capture; the recording matches the booth's own rendering sample for sample.
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 360
# shellcheck source=SCRIPTDIR/../lib/booth-sound.sh
source "$RIG_DIR/lib/booth-sound.sh"
sb_setup
want=Dog
sb_config "$RIG_OUT/booth.toml" "hw:Loopback,0,0" "$want" '["Duck", "Cow", "Dog", "Boing", "Whistle"]' 0.5
sb_start "$RIG_OUT/booth.toml"
rig_assert "ready names the ALSA device" sb_has '"soundDevice":"alsa:hw:Loopback,0,0"'
rig_assert "no sound device warning" bash -c "! grep -q 'soundDeviceUnavailable' '$events'"
sb_record "$RIG_OUT/rec.wav"
rig_booth_press "$events"
sb_wait '"from":"processing","to":"idle"' 1 60
sb_record_stop
sb_stop

rate=48000
# The attention sound: where it is, and that every sample of it is in the recording.
read -r lag ncc matched frames < <(sb_check find "$RIG_OUT/rec.wav" "$RIG_OUT/ref/$want.wav")
rig_log "$want found at frame $lag (ncc $ncc), $matched of $frames frames sample for sample"
rig_assert "$want correlates (ncc $ncc >= 0.99)" awk -v v="$ncc" 'BEGIN { exit !(v >= 0.99) }'
rig_assert "$want played to its last sample ($matched/$frames frames exact)" test "$matched" -eq "$frames"
# Right sound: the selected one correlates clearly better than every other built-in at that place.
sb_check rank "$RIG_OUT/rec.wav" "$RIG_OUT/ref" "$want" "$lag" 0.1 Shutter >"$RIG_OUT/rank.txt" || rank_rc=$?
cat "$RIG_OUT/rank.txt" >&2
rig_assert "$want is the clear best match among the built-ins" test "${rank_rc:-0}" -eq 0
# The shutter sound after it.
read -r slag sncc smatched sframes < <(sb_check find "$RIG_OUT/rec.wav" "$RIG_OUT/ref/Shutter.wav" \
    "$(awk -v l="$lag" -v f="$frames" -v r="$rate" 'BEGIN { print (l + f) / r }')")
rig_log "Shutter found at frame $slag (ncc $sncc), $smatched of $sframes frames"
rig_assert "Shutter correlates (ncc $sncc >= 0.99)" awk -v v="$sncc" 'BEGIN { exit !(v >= 0.99) }'
rig_assert "Shutter played whole" test "$smatched" -eq "$sframes"

# Events: attention sound started on the device, finished, then countdown; shutter started at capture.
rig_events "$events" states | tee "$RIG_OUT/states" >&2
a_start=$(sb_field soundStarted device_start_us '"purpose":"attention"' | head -1)
s_start=$(sb_field soundStarted device_start_us '"purpose":"shutter"' | head -1)
s_event=$(sb_field soundStarted event_us '"purpose":"shutter"' | head -1)
a_sound=$(sb_field soundStarted sound '"purpose":"attention"' | head -1)
a_wait=$(sb_field soundFinished longest_wait_us '"purpose":"attention"' | head -1)
t_count=$(sb_field state t_us '"to":"countingDown"' | head -1)
t_fin=$(sb_field soundFinished t_us '"purpose":"attention"' | head -1)
t_trigger=$(sb_field captureRequested trigger_us | head -1)
t_capture=$(sb_field capture t_us | head -1)
rig_assert "the attention sound was $want" test "$a_sound" = "$want"
rig_assert "soundStarted carries ALSA's start (attention $a_start, shutter $s_start)" test -n "$a_start" -a -n "$s_start"
# The recording's timeline and ALSA's trigger timestamps agree (the two sounds' distance), each start to
# SB_DEVICE_SLACK_US.
rec_gap=$(((slag - lag) * 1000000 / rate)) dev_gap=$((s_start - a_start))
rig_log "attention -> shutter: ${rec_gap} us in the recording, ${dev_gap} us between ALSA's trigger timestamps"
sb_assert_start_distance "$rec_gap" "$dev_gap"
# Full length: the countdown starts with the sound's end, after its last sample was played (ALSA start + length).
# That time is known to SB_DEVICE_SLACK_US: a loaded run's device reported the last period played 4.6 ms before it,
# and the recording put that start as far off its timestamp. That every sample played is the recording check above.
# The booth sees the end at its next period wake-up, so the end comes late by at most the slack plus the longest
# the loop left the device alone during the sound (the booth's own `longest_wait_us`); a booth that waited for the
# 170 ms of silence behind the sound to drain would be late by that on a quiet host (longest waits there 11–13 ms).
last=$((a_start + frames * 1000000 / rate))
rig_log "last sample played at ${last} us; soundFinished at ${t_fin} (+$((t_fin - last)) us);" \
    "countingDown at ${t_count}; the loop's longest wait during the sound ${a_wait} us"
rig_assert "the countdown starts as the sound finishes" test "$t_count" = "$t_fin"
rig_assert "soundFinished comes after the last sample (to $((SB_DEVICE_SLACK_US / 1000)) ms)" \
    test "$t_fin" -ge $((last - SB_DEVICE_SLACK_US))
rig_assert "soundFinished comes within $((SB_DEVICE_SLACK_US / 1000)) ms + the loop's longest wait of the last sample" \
    test $((t_fin - last)) -le $((SB_DEVICE_SLACK_US + a_wait))
# The shutter starts with the capture, not with the frame: the capture request's own pass started it (its event is
# the request's trigger), and the device started before the frame came back.
rig_log "shutter: started by the pass at ${s_event} us (capture trigger ${t_trigger}), device start" \
    "$((s_start - t_trigger)) us after the trigger, frame back $((t_capture - t_trigger)) us after it"
rig_assert "the capture request started the shutter sound" test "$s_event" = "$t_trigger"
rig_assert "the shutter sound started before the frame came back" test "$s_start" -lt "$t_capture"
rig_assert "a photo was saved" sb_has '"type":"photoSaved"'
