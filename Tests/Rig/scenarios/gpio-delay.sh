# gpio-delay: a knob press shows the delay on the LED lines (one lit per 0.5 s); turning changes it; a second press
# leaves the delay mode with a readout (the selected sound's preview, its place, the visual countdown's state), then
# the LEDs go dark. The delay mode ends 5 s after the last knob action, so each step follows the last at once.
# shellcheck shell=bash
# rig-needs: booth
# rig-backends: gpiod2
# rig-timeout: 120
rig_booth_chip >/dev/null
rig_booth_config "$RIG_OUT/booth.toml"
rig_booth_start "$RIG_OUT/booth.toml" --simulated-camera --simulated-sound
leds=(led1 led2 led3 led4)
rig_assert "the LEDs are dark in idle" rig_gpio_row_is booth 0000 "${leds[@]}"
rig_gpio_click booth knob-switch 100
rig_booth_wait 10 1 '"name":"knobMode","value":"delay"'
rig_wait_for 5 "LED1+LED2 for the default 1.0 s" rig_gpio_row_is booth 1100 "${leds[@]}"
rig_gpio_knob booth knob-a knob-b 1
rig_booth_wait 10 1 '"name":"delay","value":"1.5"'
rig_wait_for 5 "LED1-3 for 1.5 s" rig_gpio_row_is booth 1110 "${leds[@]}"
rig_gpio_knob booth knob-a knob-b -2
rig_booth_wait 10 1 '"name":"delay","value":"0.5"'
rig_wait_for 5 "LED1 for 0.5 s" rig_gpio_row_is booth 1000 "${leds[@]}"
rig_gpio_click booth knob-switch 100
rig_booth_wait 10 1 '"name":"knobMode","value":"sound"'
rig_booth_wait 10 1 '"type":"soundStarted","sound":"Duck","purpose":"preview"'
rig_wait_for 5 "the LEDs dark again" rig_gpio_row_is booth 0000 "${leds[@]}"
rig_booth_stop
rig_assert "no sound changed while choosing the delay" test "$(rig_booth_count '"name":"sound"')" = 0
rig_assert "the choice is persisted" grep -q 0.5 "$RIG_OUT/state.toml"
