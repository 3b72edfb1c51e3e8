# sound-press: a button press plays the selected sound to its last sample on snd-aloop, then the countdown, then
# the shutter sound at capture; the recording matches the booth's own rendering sample for sample.
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 150
# shellcheck source=SCRIPTDIR/../lib/booth-sound.sh
source "$RIG_DIR/lib/booth-sound.sh"
sb_setup
want=Dog
sb_config "$RIG_OUT/booth.toml" "hw:Loopback,0,0" "$want" '["Duck", "Cow", "Dog", "Boing", "Whistle"]' 0.5
sb_start "$RIG_OUT/booth.toml"
rig_assert "ready names the ALSA device" sb_has '"soundDevice":"alsa:hw:Loopback,0,0"'
rig_assert "no sound device warning" bash -c "! grep -q 'soundDeviceUnavailable' '$events'"
sb_record "$RIG_OUT/rec.wav"
rig_gpio_click booth button
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
a_sound=$(sb_field soundStarted sound '"purpose":"attention"' | head -1)
t_count=$(grep -F '"to":"countingDown"' "$events" | head -1 | sed 's/.*"t_us":\([0-9]*\).*/\1/')
t_fin=$(grep -F '"type":"soundFinished","purpose":"attention"' "$events" | head -1 | sed 's/.*"t_us":\([0-9]*\).*/\1/')
t_capreq=$(grep -F '"type":"captureRequested"' "$events" | head -1 | sed 's/.*"t_us":\([0-9]*\).*/\1/')
t_shutter=$(grep -F '"purpose":"shutter"' "$events" | grep -F soundStarted | head -1 | sed 's/.*"t_us":\([0-9]*\).*/\1/')
rig_assert "the attention sound was $want" test "$a_sound" = "$want"
rig_assert "soundStarted carries ALSA's start (attention $a_start, shutter $s_start)" test -n "$a_start" -a -n "$s_start"
# The recording's timeline and ALSA's trigger timestamps agree (the two sounds' distance).
rec_gap=$(((slag - lag) * 1000000 / rate)) dev_gap=$((s_start - a_start))
rig_log "attention -> shutter: ${rec_gap} us in the recording, ${dev_gap} us between ALSA's trigger timestamps"
# snd-aloop moves audio on the jiffies timer (Debian: HZ=250, 4 ms), so a start lands in the recording up to a
# jiffy off its trigger timestamp: two starts' distance may differ by up to two jiffies plus scheduling.
rig_assert "recording and ALSA timestamps agree within 12 ms" test $((rec_gap - dev_gap)) -le 12000 -a \
    $((dev_gap - rec_gap)) -le 12000
# Full length: the countdown starts after the last sample was played (ALSA start + length). That time is only
# known to within a jiffy (4 ms): snd-aloop moves audio on the jiffies timer, so the device can report its last
# period played up to one jiffy before the trigger timestamp + length (seen: 0.48 ms before, on a busy host). That
# every sample played is the recording check above.
last=$((a_start + frames * 1000000 / rate)) jiffy=4000
rig_log "last sample played at ${last} us; soundFinished at ${t_fin} (+$((t_fin - last)) us);" \
    "countingDown at ${t_count} (+$((t_count - last)) us)"
rig_assert "soundFinished comes after the last sample (to a jiffy)" test "$t_fin" -ge $((last - jiffy))
rig_assert "the countdown starts after the last sample (to a jiffy)" test "$t_count" -ge $((last - jiffy))
rig_assert "the countdown starts within 30 ms of the last sample" test $((t_count - last)) -le 30000
rig_log "shutter soundStarted $((t_shutter - t_capreq)) us after captureRequested"
rig_assert "the shutter sound starts with the capture (within 20 ms)" test $((t_shutter - t_capreq)) -le 20000 -a \
    $((t_capreq - t_shutter)) -le 20000
rig_assert "a photo was saved" sb_has '"type":"photoSaved"'
