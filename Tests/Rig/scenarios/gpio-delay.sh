# gpio-delay: a knob press shows the delay on the LED lines (one lit per 0.5 s, the last blinking); turning changes it; a second press
# shows the volume as a bar (100 %: the row), turning changes it (each level heard: the sound's preview); a third
# press goes back to the sound with a readout (the selected sound's preview, its place, the visual countdown's
# state), then the LEDs go dark. Both modes end a while after the last knob action (5 s by default): here 30 s
# (`delay_mode_timeout`), so a slow guest's checks between two steps never outlast a mode and turn the next press into
# another mode's (a run saw the volume mode end by itself 5.0 s after its last detent, before the press meant to end it).
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 120
rig_booth_chip >/dev/null
rig_booth_config "$RIG_OUT/booth.toml"
sed -i '/^\[countdown\]$/a delay_mode_timeout = 30' "$RIG_OUT/booth.toml"
rig_booth_start "$RIG_OUT/booth.toml" --simulated-camera --simulated-sound
leds=(led1 led2 led3 led4)
rig_assert "the LEDs are dark in idle" rig_gpio_row_is booth 0000 "${leds[@]}"
rig_booth_knob_click
rig_booth_wait 10 1 '"name":"knobMode","value":"delay"'
rig_wait_for 5 "LED1+LED2 for the default 1.0 s" rig_gpio_row_is booth 1100 "${leds[@]}"
rig_gpio_knob booth knob-a knob-b 1
rig_booth_wait 10 1 '"name":"delay","value":"1.5"'
rig_wait_for 5 "LED1-3 for 1.5 s" rig_gpio_row_is booth 1110 "${leds[@]}"
rig_gpio_knob booth knob-a knob-b -2
rig_booth_wait 10 1 '"name":"delay","value":"0.5"'
rig_wait_for 5 "LED1 for 0.5 s" rig_gpio_row_is booth 1000 "${leds[@]}"
rig_booth_knob_click
rig_booth_wait 10 1 '"name":"knobMode","value":"volume"'
rig_wait_for 5 "the whole row for 100 %" rig_gpio_row_is booth 1111 "${leds[@]}"
preview='"type":"soundStarted","sound":"Duck","purpose":"preview"'
rig_assert "no preview before the volume changes" test "$(rig_booth_count "$preview")" = 0
rig_gpio_knob booth knob-a knob-b -5
rig_booth_wait 10 1 '"name":"volume","value":"50"'
rig_wait_for 5 "LED1+LED2 for 50 %" rig_gpio_row_is booth 1100 "${leds[@]}"
heard=$(rig_booth_count "$preview")
rig_assert "each new level heard ($heard previews for 5 detents)" test "$heard" -ge 1
rig_booth_knob_click
rig_booth_wait 10 1 '"name":"knobMode","value":"sound"'
rig_booth_wait 10 $((heard + 1)) "$preview"
rig_wait_for 5 "the LEDs dark again" rig_gpio_row_is booth 0000 "${leds[@]}"
rig_booth_stop
rig_assert "no sound changed while choosing the delay and the volume" test "$(rig_booth_count '"name":"sound"')" = 0
rig_assert "the delay is persisted" grep -q '^delay = 0.5' "$RIG_OUT/state.toml"
rig_assert "the volume is persisted" grep -q '^volume = 50' "$RIG_OUT/state.toml"
