# system-remote: the installed booth takes a photo from a uinput remote the config names, through the package's udev
# rule (its node given to group booth, read-only) and the service's sandbox (DeviceAllow=char-input r); a keyboard the
# config does not name stays closed to the booth's user, and its keys do nothing.
# shellcheck shell=bash
# rig-vm: system
# rig-timeout: 180
sys_wait_ready 60
up=115 enter=28
rig_remote_make kbd "Some Keyboard" 0001 0001 $up $enter
sys_config devices '["HeyLook Test Shutter"]'
udevadm control --reload-rules
rig_remote_make shutter "HeyLook Test Shutter" 248a 8266 $up $enter
udevadm settle -t 30 || true
shutter=${RIG_REMOTE_NODE[shutter]} kbd=${RIG_REMOTE_NODE[kbd]}
rig_log "shutter $(stat -c '%U:%G %a' "$shutter"), keyboard $(stat -c '%U:%G %a' "$kbd")"
rig_assert "the udev rule gave the shutter to group booth, read-only" test "$(stat -c '%G %a' "$shutter")" = "booth 640"
rig_assert "the keyboard is not the booth's group's" test "$(stat -c '%G' "$kbd")" != booth
# shellcheck disable=SC2016 # $1 is the inner shell's
rig_assert "the booth's user cannot open the keyboard" sh -c '! runuser -u booth -- sh -c "exec 3<\"\$1\"" sh "$0" 2>/dev/null' "$kbd"
# shellcheck disable=SC2016
rig_assert "the booth's user can open the shutter" runuser -u booth -- sh -c 'exec 3<"$1"' sh "$shutter"

systemctl restart "$SYS_UNIT"
sys_wait_ready 60
rig_wait_for 20 "the booth to take the shutter" \
    bash -c "journalctl -b -u '$SYS_UNIT' -o cat --no-pager | grep -q 'remote: HeyLook Test Shutter (248a:8266) at .* taken'"
rig_assert "the booth did not take the keyboard" bash -c "! journalctl -b -u '$SYS_UNIT' -o cat | grep -q 'Some Keyboard'"

inputs=$(sys_event_count input)
rig_remote kbd click $up
list=$(sys_photos)
rig_remote shutter click $up
rig_wait_for_quiet 30 sys_new_photo "$list" || {
    sys_journal | tail -20 >&2
    tail -8 "$SYS_STATE/events.jsonl" >&2
    rig_fail "the shutter's click gave no photo within $RIG_DEADLINE_S s"
}
rig_assert "the press came from the shutter" \
    grep -qF '"input":"buttonPressed","handled_us"' <(tail -n +1 "$SYS_STATE/events.jsonl" | grep -F '"from":"HeyLook Test Shutter"')
rig_assert "nothing came from the keyboard" sh -c "! grep -qF 'Some Keyboard' '$SYS_STATE/events.jsonl'"
rig_log "ok: inputs $inputs -> $(sys_event_count input), photo $(sys_photos | tail -1)"

# As it was: no remote named, the booth restarted without one.
rig_remote_gone shutter
rig_remote_gone kbd
sys_config devices '[]'
systemctl restart "$SYS_UNIT"
sys_wait_ready 60
