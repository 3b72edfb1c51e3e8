# gpio-bounce: a press that bounces (19 edges ~0.5 ms apart going down, 19 coming up) is one press, one release and
# one capture.
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 120
rig_booth_chip >/dev/null
rig_booth_config "$RIG_OUT/booth.toml" gpio.debounce_ms=20
rig_booth_start "$RIG_OUT/booth.toml" --simulated-camera --simulated-sound
timing=$(rig_gpio_timing)
pull=$(rig_gpio_line_dir booth button)/pull
# An odd number of toggles ends on the other level: down (pressed), then up (released).
down_us=$("$timing" bounce "$pull" 19 500)
rig_sleep_ms 300
up_us=$("$timing" bounce "$pull" 19 500)
rig_log "bounce spans: press ${down_us} us, release ${up_us} us (debounce 20 ms)"
((down_us < 20000 && up_us < 20000)) || rig_fail "the rig could not bounce within the 20 ms debounce (load?)"
rig_booth_wait 30 1 '"type":"photoSaved"'
rig_booth_wait 10 1 '"type":"state","from":"processing","to":"idle"'
rig_sleep_ms 500
rig_booth_stop
grep -F '"type":"input"' "$RIG_BOOTH_EVENTS"
rig_assert "exactly one buttonPressed" test "$(rig_booth_count '"input":"buttonPressed"')" = 1
rig_assert "exactly one buttonReleased" test "$(rig_booth_count '"input":"buttonReleased"')" = 1
rig_assert "no long press" test "$(rig_booth_count '"input":"buttonLongPressed"')" = 0
rig_assert "exactly one capture requested" test "$(rig_booth_count '"type":"captureRequested"')" = 1
rig_assert "exactly one photo saved" test "$(rig_booth_count '"type":"photoSaved"')" = 1
rig_assert "exactly one sequence" test "$(rig_booth_count '"to":"playingSound"')" = 1
