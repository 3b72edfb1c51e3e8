# gpio-smoke: gpio-sim edges driven by the rig are seen by gpiomon; an output driven by gpioset reads back in sysfs.
# shellcheck shell=bash
# rig-timeout: 60
chip=$(rig_gpio_sim_add smoke button knob-a knob-b led)
rig_log "chip $chip"
rig_assert "gpioinfo lists the named lines" bash -c "gpioinfo $chip | grep -q '\"button\"'"

gpiomon --num-events=14 --format='%o %e' "$chip" 0 1 2 >"$RIG_OUT/edges" &
mon=$!
rig_gpio_wait_requested smoke knob-b
rig_gpio_click smoke button 50
rig_gpio_knob smoke knob-a knob-b 2
rig_gpio_knob smoke knob-a knob-b -1
rig_wait_for 10 "gpiomon to report 14 edges" bash -c "! kill -0 $mon 2>/dev/null"
cat "$RIG_OUT/edges"
# "offset edge", edge 1 rising, 0 falling. Click = fall+rise on 0; a CW detent = A fall, B fall, A rise, B rise
# (A = offset 1, B = 2); a CCW detent = B fall, A fall, B rise, A rise.
cw='1 0\n2 0\n1 1\n2 1\n' ccw='2 0\n1 0\n2 1\n1 1\n'
# shellcheck disable=SC2059 # the patterns are printf formats on purpose
rig_assert "edge order" diff <(printf "0 0\n0 1\n$cw$cw$ccw") "$RIG_OUT/edges"

gpioset --mode=signal "$chip" 3=1 &
setter=$!
rig_gpio_wait_value smoke led 1 5
rig_assert "rig_gpio_value reads the output" test "$(rig_gpio_value smoke led)" = 1
kill "$setter"
wait "$setter" || true
rig_gpio_sample "$RIG_OUT/samples" 1000 10 smoke button led
rig_assert "sampling works" test "$(wc -l <"$RIG_OUT/samples")" -ge 3
