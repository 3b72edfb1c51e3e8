# gpio-retake: holding the button (long press) within the review window after a photo starts a new sequence and
# discards the previous photo (photoDiscarded; the file moves to discarded/).
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 150
rig_booth_chip >/dev/null
rig_booth_config "$RIG_OUT/booth.toml" booth.review_window=20.0
rig_booth_start "$RIG_OUT/booth.toml" --simulated-camera --simulated-sound
rig_booth_click 1 '"to":"playingSound"'
rig_booth_wait 30 1 '"type":"photoSaved"'
rig_booth_wait 10 1 '"type":"state","from":"processing","to":"idle"'
first=$(rig_events "$RIG_BOOTH_EVENTS" field photoSaved path | head -1)
rig_assert "the first photo $first exists" test -s "$first"
rig_gpio_press booth button
rig_booth_wait 10 1 '"input":"buttonLongPressed"'
rig_booth_wait 10 1 '"type":"photoDiscarded"'
rig_gpio_release booth button
rig_booth_wait 30 2 '"type":"photoSaved"'
rig_booth_wait 10 2 '"type":"state","from":"processing","to":"idle"'
rig_booth_stop
grep -F -e '"type":"input"' -e photo "$RIG_BOOTH_EVENTS"
rig_assert "the discarded photo is the first one" \
    test "$(rig_events "$RIG_BOOTH_EVENTS" field photoDiscarded path)" = "$first"
rig_assert "exactly one photoDiscarded" test "$(rig_booth_count '"type":"photoDiscarded"')" = 1
rig_assert "the first photo left the photos folder" test ! -e "$first"
rig_assert "it is in discarded/" test -s "$RIG_OUT/photos/discarded/$(basename "$first")"
second=$(rig_events "$RIG_BOOTH_EVENTS" field photoSaved path | tail -1)
rig_assert "the retake $second is kept" test -s "$second"
