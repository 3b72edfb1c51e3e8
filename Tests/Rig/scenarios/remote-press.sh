# remote-press: remotes made through uinput (the kernel's real input subsystem and evdev) work the booth as its
# button: a remote there at start takes a photo (real ALSA sound first) and its retake key discards it in the review
# window; its keys reach no other reader (EVIOCGRAB); a keyboard the config does not name is never taken; a second
# remote, plugged in later and named by its ids, is taken as it appears; one unplugged with its key held mid-sequence
# lets the button go (no stuck state) and is taken again when it returns; key repeat and chatter start one sequence,
# as two remotes pressed together do;
# a selfie remote made through uhid (the kernel's HID layer maps its volume-up, as a real remote's) is taken by its name
# in the input device the kernel names after it and its part, and takes a photo; the GPIO button still works beside them.
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 150
up=115 down=114 enter=28 a=30
rig_sound_up
rig_booth_chip >/dev/null
rig_remote_make kbd "Some Keyboard" 0001 0001 $up $down $enter $a
rig_remote_make shutter "HeyLook Test Shutter" 248a 8266 $up $down $enter
rig_booth_config "$RIG_OUT/booth.toml" remote.devices='["heylook test shutter", "1234:5678", "AB Shutter3"]'
# booth remote list: every input device by name and ids, the config's remote marked, the keyboard not; booth remote
# keys: each key a device sends, by the kernel's name, with what it does at the booth.
booth=$(rig_need_booth)
"$booth" remote list --config "$RIG_OUT/booth.toml" >"$RIG_OUT/list.out" 2>&1 || rig_fail "remote list: $(cat "$RIG_OUT/list.out")"
rig_assert "list takes the shutter" \
    grep -q '^"HeyLook Test Shutter"  248a:8266  .*/dev/input/event[0-9]*  remote (remote.devices)$' "$RIG_OUT/list.out"
rig_assert "list shows the keyboard, not taken" grep -q '^"Some Keyboard"  0001:0001  [^(]*/dev/input/event[0-9]*$' \
    "$RIG_OUT/list.out"
rig_assert "list names the ids not connected" grep -qF 'remote.devices names 1234:5678, which is not connected' \
    "$RIG_OUT/list.out"
"$booth" remote keys --config "$RIG_OUT/booth.toml" --seconds 60 >"$RIG_OUT/keys.out" 2>&1 &
keys=$!
rig_wait_for 30 "remote keys listening" grep -q '^Press the remote' "$RIG_OUT/keys.out"
rig_remote shutter click $down
rig_remote kbd click $a
# Each line is written as the key comes (a pipe or a file is not left waiting for the command's end).
rig_wait_for 10 "remote keys to show both keys" test "$(grep -c ' → ' "$RIG_OUT/keys.out")" -ge 2
kill "$keys" && wait "$keys" || true
rig_assert "keys: the shutter's volume-down is the retake" grep -qF \
    '"HeyLook Test Shutter": KEY_VOLUMEDOWN → the booth'"'"'s button, held (a retake) (remote.retake_keys)' \
    "$RIG_OUT/keys.out"
rig_assert "keys: the keyboard's A does nothing" grep -qF '"Some Keyboard": KEY_A → nothing at the booth' \
    "$RIG_OUT/keys.out"

rig_booth_start "$RIG_OUT/booth.toml" --simulated-camera
rig_wait_for 10 "the shutter taken" grep -q 'remote: HeyLook Test Shutter (248a:8266) at .* taken' "$RIG_OUT/booth.err"
rig_assert "the keyboard was not taken" sh -c "! grep -q 'Some Keyboard' '$RIG_OUT/booth.err'"

# The keyboard's keys do nothing; the shutter's reach no other reader while the booth has it (mutation: a shim whose
# grab does nothing gives the reader both key events of the click, "keys 2").
tool=$(rig_c_tool remote-keys)
"$tool" listen "${RIG_REMOTE_NODE[shutter]}" 1500 >"$RIG_OUT/listen.out" &
listener=$!
rig_wait_for 5 "the listener" grep -q listening "$RIG_OUT/listen.out"
rig_remote kbd click $up
rig_remote kbd click $enter
rig_sleep_ms 300
rig_assert "no input from the keyboard" test "$(rig_booth_count '"type":"input"')" = 0

rig_remote shutter click $up
rig_booth_wait 30 1 '"type":"photoSaved"'
wait "$listener"
rig_assert "another reader got none of the shutter's keys ($(cat "$RIG_OUT/listen.out" | tail -1))" \
    grep -qx 'keys 0' "$RIG_OUT/listen.out"
rig_assert "its input names the shutter" grep -qF '"from":"HeyLook Test Shutter"' "$RIG_BOOTH_EVENTS"
rig_assert "the attention sound played on ALSA" \
    grep -qF '"type":"soundFinished","purpose":"attention"' "$RIG_BOOTH_EVENTS"
# Within the review window: the retake key discards the photo and takes the next.
rig_booth_wait 10 1 '"type":"state","from":"processing","to":"idle"'
rig_remote shutter click $down
rig_booth_wait 30 2 '"type":"photoSaved"'
rig_booth_wait 5 1 '"type":"photoDiscarded"'
rig_booth_wait 10 2 '"type":"state","from":"processing","to":"idle"'

# A second remote, plugged in now and named by its ids, is taken as it appears.
rig_remote_make pedal "Foot Pedal" 1234 5678 $enter
rig_wait_for 10 "the pedal taken" grep -q 'remote: Foot Pedal (1234:5678) at .* taken' "$RIG_OUT/booth.err"
# Held down, then unplugged mid-sequence: the button is let go, the sequence ends, nothing is stuck.
rig_remote pedal down $enter
rig_booth_wait 10 3 '"type":"state","from":"idle","to":"playingSound"'
rig_remote_gone pedal
rig_wait_for 10 "the pedal gone" grep -q 'remote: Foot Pedal (1234:5678) went away' "$RIG_OUT/booth.err"
rig_booth_wait 30 3 '"type":"photoSaved"'
rig_booth_wait 10 3 '"type":"state","from":"processing","to":"idle"'
rig_assert "the pedal's press was let go when it went" \
    test "$(grep -F '"from":"Foot Pedal"' "$RIG_BOOTH_EVENTS" | grep -cF '"input":"buttonReleased"')" = 1
rig_sleep_ms 5500 # past the review window: the next press keeps the photo
# Back again: taken again, and a held key's repeats and a chattering click start one sequence each.
rig_remote_make pedal "Foot Pedal" 1234 5678 $enter
rig_wait_for 10 "the pedal taken again" \
    test "$(grep -c 'remote: Foot Pedal (1234:5678) at .* taken' "$RIG_OUT/booth.err")" = 2
rig_remote pedal down $enter
for _ in 1 2 3 4 5; do rig_remote pedal repeat $enter; done
rig_remote pedal up $enter
rig_booth_wait 30 4 '"type":"photoSaved"'
rig_booth_wait 10 4 '"type":"state","from":"processing","to":"idle"'
rig_sleep_ms 5500
rig_remote shutter burst $up 4 3000
rig_booth_wait 30 5 '"type":"photoSaved"'
rig_booth_wait 10 5 '"type":"state","from":"processing","to":"idle"'
rig_sleep_ms 5500
# Two remotes at once (two parents press together; the same key code on both): both presses are read, each named by
# its remote, and they start one sequence.
presses() { grep -F "\"from\":\"$1\"" "$RIG_BOOTH_EVENTS" | grep -cF '"input":"buttonPressed"' || true; }
shutter_before=$(presses "HeyLook Test Shutter") pedal_before=$(presses "Foot Pedal")
rig_remotes_together shutter pedal click $enter
rig_booth_wait 30 6 '"type":"photoSaved"'
rig_booth_wait 10 6 '"type":"state","from":"processing","to":"idle"'
rig_assert "the shutter's press was read" test "$(presses "HeyLook Test Shutter")" = $((shutter_before + 1))
rig_assert "the pedal's press was read" test "$(presses "Foot Pedal")" = $((pedal_before + 1))
rig_sleep_ms 5500
# A selfie remote through the HID layer: its volume-up is hid-generic's KEY_VOLUMEUP. The kernel names the input
# device after the remote and the part ("AB Shutter3 Keyboard"; newer kernels make a "Consumer Control" apart).
rig_remote_hid selfie "AB Shutter3" 248a 8267
rig_wait_for 10 "the selfie remote taken" \
    grep -q 'remote: AB Shutter3 [A-Za-z ]* (248a:8267) at .* taken; keys .*KEY_VOLUMEUP → press' "$RIG_OUT/booth.err"
rig_remote selfie click $up
rig_booth_wait 30 7 '"type":"photoSaved"'
rig_booth_wait 10 7 '"type":"state","from":"processing","to":"idle"'
rig_assert "the selfie remote's volume-up pressed the button" \
    grep -qF '"input":"buttonPressed","handled_us"' <(grep -F '"from":"AB Shutter3 ' "$RIG_BOOTH_EVENTS")
rig_sleep_ms 5500
# The GPIO button beside them.
rig_booth_click 8 '"type":"state","from":"idle","to":"playingSound"'
rig_booth_wait 30 8 '"type":"photoSaved"'
rig_booth_wait 10 8 '"type":"state","from":"processing","to":"idle"'
rig_booth_stop

events=$RIG_BOOTH_EVENTS
rig_assert "eight sequences, one for each press, chatter, repeats and two remotes together included" \
    test "$(rig_booth_count '"type":"state","from":"idle","to":"playingSound"')" = 8
rig_assert "the keyboard sent nothing the booth took" sh -c "! grep -qF 'Some Keyboard' '$events'"
rig_assert "one photo discarded" test "$(rig_booth_count '"type":"photoDiscarded"')" = 1
rig_remote_gone shutter
rig_remote_gone kbd
rig_remote_gone selfie
