# system-upgrade: installing a newer version of the package restarts the service on the new binary (new PID, later
# start), keeps the user's config edit and the photos; then `dpkg -r` stops and removes the service and keeps the
# photos, and `dpkg -P` removes the config and still keeps the photos. Run it last: the package is gone after it.
# shellcheck shell=bash
# rig-vm: system
# rig-order: last
# rig-timeout: 240
sys_wait_ready 60
(($(sys_photo_count) > 0)) || sys_photo >/dev/null
photos=$(sys_photos)
pid=$(sys_pid) started=$(sys_prop ExecMainStartTimestampMonotonic)
edit=$(grep '^width' "$SYS_CONFIG")
rig_log "running $(dpkg-query -W -f '${Version}' heylook-booth) as PID $pid; config: $edit"

dpkg -i "$RIG_WORK/debs/upgrade.deb" >"$RIG_OUT/upgrade.log" 2>&1 || { cat "$RIG_OUT/upgrade.log" >&2; rig_fail "dpkg -i of the upgrade failed"; }
rig_assert "the new version is installed" test "$(dpkg-query -W -f '${Version}' heylook-booth)" = "$SYS_UPGRADE_VERSION"
sys_wait_ready 60
rig_assert "the service restarted (PID $pid -> $(sys_pid))" test "$(sys_pid)" != "$pid"
rig_assert "it started after the upgrade" test "$(sys_prop ExecMainStartTimestampMonotonic)" -gt "$started"
rig_assert "it runs the installed binary, not a deleted one" test "$(readlink "/proc/$(sys_pid)/exe")" = /usr/bin/booth
rig_assert "the config edit is kept ($edit)" grep -qx "$edit" "$SYS_CONFIG"
rig_assert "the photos are kept" test "$(sys_photos)" = "$photos"
sys_photo >/dev/null
rig_log "ok: a photo on the upgraded service"
photos=$(sys_photos)

dpkg -r heylook-booth >"$RIG_OUT/remove.log" 2>&1 || { cat "$RIG_OUT/remove.log" >&2; rig_fail "dpkg -r failed"; }
rig_assert "the service is stopped" bash -c "! systemctl is-active -q $SYS_UNIT"
rig_assert "no booth process is left" bash -c "! pgrep -x booth"
rig_assert "the unit file is gone" test ! -e "/lib/systemd/system/$SYS_UNIT"
rig_assert "the config stays after remove" test -e "$SYS_CONFIG"
rig_assert "the photos stay after remove" test "$(sys_photos)" = "$photos"
dpkg -P heylook-booth >"$RIG_OUT/purge.log" 2>&1 || { cat "$RIG_OUT/purge.log" >&2; rig_fail "dpkg -P failed"; }
cat "$RIG_OUT/purge.log" >&2
rig_assert "the config is gone after purge" test ! -e "$SYS_CONFIG"
rig_assert "the photos stay after purge" test "$(sys_photos)" = "$photos"
rig_assert "purge says where the photos are" grep -q '/var/lib/heylook/photos' "$RIG_OUT/purge.log"
