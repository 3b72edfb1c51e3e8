# sound-mixer: the booth watches its card's mixer from the event loop (snd-dummy's "Master", changed with amixer as
# alsamixer or a volume key would): turned to 0 it warns "silent" (volumeMuted) at once and turned back up it clears,
# below half warns "quiet" (volumeLow) and back above clears, each with the warning pattern on the real LED line; a
# press still plays and saves a photo. (snd-dummy's Master has no playback switch; a switch that is off counts the
# same as 0, see MixerCheckTests.)
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 300
# shellcheck source=SCRIPTDIR/../lib/booth-sound.sh
source "$RIG_DIR/lib/booth-sound.sh"
booth=$(rig_need_booth)
rig_modprobe snd-dummy
rig_wait_for 10 "snd-dummy's card" test -e /proc/asound/Dummy
chip=$(rig_gpio_sim_add booth "${SB_LINES[@]}")
events=$RIG_OUT/events.jsonl
mkdir -p "$RIG_OUT/photos"
mixer() { amixer -q -c Dummy sset Master "$@" || rig_fail "amixer sset Master $* failed"; }
warning() { sb_has "\"name\":\"warning.$1\",\"value\":\"$2\"" "${3:-1}"; }

mixer 80%
sb_config "$RIG_OUT/booth.toml" "plughw:CARD=Dummy,DEV=0" Cow '["Duck", "Cow", "Dog", "Boing", "Whistle"]' 0.5
sb_start "$RIG_OUT/booth.toml"
rig_assert "no volume warning at 80 %" bash -c "! grep -qF '\"name\":\"warning.volume' '$events'"
rig_assert "the booth plays on the dummy card" bash -c "! grep -qF 'soundDeviceUnavailable\",\"value\":\"true' '$events'"

mixer 0%
rig_wait_for 10 "warning.volumeMuted true" warning volumeMuted true
rig_gpio_wait_value booth led0 1 5
rig_gpio_wait_value booth led0 0 5
rig_assert "only the first LED blinks for the warning" test "$(rig_gpio_value booth led1)" = 0
mixer 80%
rig_wait_for 10 "warning.volumeMuted false" warning volumeMuted false

mixer 30%
rig_wait_for 10 "warning.volumeLow true" warning volumeLow true
mixer 80%
rig_wait_for 10 "warning.volumeLow false" warning volumeLow false
rig_assert "the log names the control and the level" grep -qF "control 'Master' is at 30 %" "$RIG_OUT/booth.log"
rig_assert "the log names the silent control" grep -qF "control 'Master' is at volume 0" "$RIG_OUT/booth.log"

rig_booth_press "$events"
sb_wait '"from":"processing","to":"idle"' 1 60
sb_stop
rig_assert "the attention sound played" sb_has '"type":"soundFinished","purpose":"attention"'
rig_assert "the photo was saved" sb_has '"type":"photoSaved"'
rig_assert "each warning set and cleared once" test "$(grep -c '"name":"warning.volume' "$events")" -eq 4
