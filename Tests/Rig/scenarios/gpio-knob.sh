# gpio-knob: quadrature turns on the gpio-sim encoder lines select the next/previous sound, both directions.
# shellcheck shell=bash
# rig-needs: booth
# rig-backends: gpiod2
# rig-timeout: 120
rig_booth_chip >/dev/null
rig_booth_config "$RIG_OUT/booth.toml"
rig_booth_start "$RIG_OUT/booth.toml" --simulated-camera --simulated-sound
rig_assert "starts on Duck" grep -qF '"type":"ready","sound":"Duck"' "$RIG_BOOTH_EVENTS"
# Favourites: Duck Cow Dog Boing Whistle (wrapping).
setting='"type":"setting","name":"sound","value"'
rig_gpio_knob booth knob-a knob-b 1
rig_booth_wait 10 1 "$setting:\"Cow\""
rig_gpio_knob booth knob-a knob-b 1
rig_booth_wait 10 1 "$setting:\"Dog\""
rig_gpio_knob booth knob-a knob-b -1
rig_booth_wait 10 2 "$setting:\"Cow\""
rig_gpio_knob booth knob-a knob-b -2
rig_booth_wait 10 1 "$setting:\"Whistle\""
rig_gpio_knob booth knob-a knob-b 1
rig_booth_wait 10 2 "$setting:\"Duck\""
rig_booth_stop
grep -F "$setting" "$RIG_BOOTH_EVENTS" | sed 's/.*"value":"\([^"]*\)".*/\1/' >"$RIG_OUT/sounds"
cat "$RIG_OUT/sounds"
rig_assert "sounds in order Cow Dog Cow Duck Whistle Duck" \
    test "$(tr '\n' ' ' <"$RIG_OUT/sounds")" = "Cow Dog Cow Duck Whistle Duck "
rig_assert "each detent is one step" \
    test "$(rig_events "$RIG_BOOTH_EVENTS" field input steps | tr '\n' ' ')" = "1 1 -1 -1 -1 1 "
