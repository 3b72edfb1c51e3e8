# gpio-press: a press on the gpio-sim button runs a whole sequence (real ALSA sound on the loopback); the button's
# LED line is high in idle, low during the sequence, high again after; the photographer's haptic line (gpio.haptic)
# pulses once, about 150 ms, as the countdown starts.
# shellcheck shell=bash
# rig-needs: booth
# rig-backends: gpiod2
# rig-timeout: 120
rig_sound_up
rig_booth_chip >/dev/null
rig_booth_config "$RIG_OUT/booth.toml" gpio.haptic='"haptic"'
rig_booth_start "$RIG_OUT/booth.toml" --simulated-camera
rig_gpio_wait_value booth button-led 1 5
timing=$(rig_gpio_timing)
led=$(rig_gpio_line_dir booth button-led)/value
haptic=$(rig_gpio_line_dir booth haptic)/value
"$timing" sample "$RIG_OUT/button-led" 15000 1000 "$led" "$haptic" >"$RIG_OUT/sampler.out" &
sampler=$!
rig_sleep_ms 200
rig_booth_click 1 '"type":"state","from":"idle","to":"playingSound"'
# The LED's low phase is judged from the sampler's record below, not waited for here: the whole sequence takes
# about 2.3 s, and a guest short of CPU saw the state change in the events file after the LED was high again.
rig_booth_wait 30 1 '"type":"photoSaved"'
rig_booth_wait 10 1 '"type":"state","from":"processing","to":"idle"'
rig_gpio_wait_value booth button-led 1 5
kill "$sampler"
wait "$sampler" 2>/dev/null || true
rig_booth_stop

events=$RIG_BOOTH_EVENTS
rig_events "$events" states >"$RIG_OUT/states"
cat "$RIG_OUT/states"
rig_assert "states idle -> playingSound -> countingDown -> capturing -> processing -> idle" \
    diff <(printf '%s\n' 'idle playingSound' 'playingSound countingDown' 'countingDown capturing' \
        'capturing processing' 'processing idle') <(head -5 "$RIG_OUT/states")
rig_assert "the attention sound played on ALSA" \
    grep -qF '"type":"soundFinished","purpose":"attention"' "$events"
rig_assert "one buttonPressed input" test "$(rig_booth_count '"input":"buttonPressed"')" = 1
photo=$(rig_events "$events" field photoSaved path | head -1)
rig_assert "the photo $photo starts with FF D8" test "$(head -c 2 "$photo" | od -An -tx1 | tr -d ' \n')" = ffd8
cat "$RIG_OUT/sampler.out" "$RIG_OUT/button-led"
rig_assert "the button LED went 1 -> 0 -> 1 exactly once" \
    test "$(cut -d' ' -f3 "$RIG_OUT/button-led" | uniq | tr -d '\n')" = 101
rig_assert "the haptic line went 0 -> 1 -> 0 exactly once" \
    test "$(cut -d' ' -f4 "$RIG_OUT/button-led" | uniq | tr -d '\n')" = 010
on=$(awk '$4 == 1 { print $1; exit }' "$RIG_OUT/button-led")
off=$(awk -v on="$on" '$1 > on && $4 == 0 { print $1; exit }' "$RIG_OUT/button-led")
rig_log "haptic pulse $(((off - on) / 1000)) ms"
rig_assert "the pulse lasts about 150 ms ($(((off - on) / 1000)) ms; 100 to 600)" test $((off - on)) -ge 100000 -a $((off - on)) -le 600000
counting=$(grep -F '"to":"countingDown"' "$events" | head -1 | sed 's/.*"t_us":\([0-9]*\).*/\1/')
rig_assert "the pulse starts as the countdown does ($(((on - counting) / 1000)) ms after; 0 to 500)" \
    test $((on - counting)) -ge 0 -a $((on - counting)) -le 500000
