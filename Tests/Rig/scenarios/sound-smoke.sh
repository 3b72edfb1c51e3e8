# sound-smoke: a 440 Hz tone played into the loopback card is recorded back with the right pitch and level.
# shellcheck shell=bash
# rig-timeout: 60
rig_sound_up
rig_tone "$RIG_OUT/tone.wav" 440 1
rig_sound_record "$RIG_OUT/recorded.wav" 3 &
rec=$!
sleep 0.5
aplay -q -D hw:Loopback,0,0 "$RIG_OUT/tone.wav" || rig_fail "aplay failed"
wait "$rec" || rig_fail "arecord failed"
rig_tone_check "$RIG_OUT/recorded.wav" 440 3 -12
