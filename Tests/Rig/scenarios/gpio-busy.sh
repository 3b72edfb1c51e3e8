# gpio-busy: a button line held by another program (gpiomon) and a chip that does not exist each give a clear error
# (chip, line, holder, fix) on stderr; the booth stays up (the knob still works) and exits 0 on SIGTERM.
# shellcheck shell=bash
# rig-needs: booth
# rig-backends: gpiod2
# rig-timeout: 150
chip=$(rig_booth_chip)
gpiomon "$chip" 0 >"$RIG_OUT/gpiomon.out" 2>&1 &
rig_gpio_wait_requested booth button
rig_booth_config "$RIG_OUT/booth.toml"
rig_booth_start "$RIG_OUT/booth.toml" --simulated-camera --simulated-sound
cat "$RIG_OUT/booth.err"
err=$RIG_OUT/booth.err
rig_assert "stderr names the chip $chip" grep -q "request GPIO lines on $chip.*failed: Device or resource busy (EBUSY)" "$err"
rig_assert "stderr names the line" grep -qF "line 'button' (name 'button', offset 0)" "$err"
rig_assert "stderr names the holder" grep -qF "held by consumer 'gpiomon'" "$err"
rig_assert "stderr gives the fix" grep -qF "Fix: stop the other program that holds it (see \`gpioinfo $chip\`)" "$err"
rig_assert "stderr says no photo can be taken" grep -qF "without the big button no photo can be taken" "$err"
rig_gpio_knob booth knob-a knob-b 1
rig_booth_wait 10 1 '"type":"setting","name":"sound","value":"Cow"'
# The LEDs' value files are looked up now (about 20 forks): the delay shows for only 5 s from the knob's press (then
# the knob goes back to the sound), and beside busy loops the wait below, looking them up itself, once never read
# the row though the booth showed it three-quarters of that time.
rig_gpio_read_row booth led1 led2 led3 led4
rig_booth_knob_click
rig_booth_wait 10 1 '"name":"knobMode","value":"delay"'
rig_wait_for 5 "the delay on the LEDs" rig_gpio_row_is booth 1100 led1 led2 led3 led4
rig_booth_stop
cp "$err" "$RIG_OUT/busy.err"

rig_booth_config "$RIG_OUT/nochip.toml" gpio.chip='"no-such-chip"'
rig_booth_start "$RIG_OUT/nochip.toml" --simulated-camera --simulated-sound
cat "$err"
rig_assert "stderr names the missing chip" grep -qF "open GPIO chip by label 'no-such-chip' failed: no such chip" "$err"
rig_assert "stderr lists the chips there are" grep -qF "Chips on this machine: $chip" "$err"
rig_assert "stderr gives the fix" grep -qF "Fix: set gpio.chip in the booth configuration" "$err"
rig_assert "the gpioUnavailable warning is reported" grep -qF '"name":"warning.gpioUnavailable","value":"true"' \
    "$RIG_BOOTH_EVENTS"
rig_sleep_ms 1000
rig_booth_stop
