# system-upgrade: installing a newer version of the package restarts the service on the new binary (new PID, later
# start), keeps the user's config edit and the photos; then `dpkg -r` stops and removes the service and the gallery,
# masks the unit and keeps the photos, and `dpkg -P` removes the config, the gallery's settings, the knob's choices,
# the events and the mask and still keeps the photos, the custom sounds and the user booth. Run it last: the package
# is gone after it.
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

# prerm (remove) stops the gallery too; postrm (remove) masks the unit, so nothing starts a booth whose program is
# gone. The gallery's socket is on for this: prerm must stop what runs.
systemctl enable --now heylook-gallery.socket 2>&1
rig_assert "the gallery's socket listens before the removal" systemctl is-active -q heylook-gallery.socket
dpkg -r heylook-booth >"$RIG_OUT/remove.log" 2>&1 || { cat "$RIG_OUT/remove.log" >&2; rig_fail "dpkg -r failed"; }
rig_assert "the service is stopped" bash -c "! systemctl is-active -q $SYS_UNIT"
rig_assert "no booth process is left" bash -c "! pgrep -x booth"
# Mutation: prerm without its gallery stop leaves the socket listening on a removed program.
rig_assert "the gallery's socket is stopped" bash -c "! systemctl is-active -q heylook-gallery.socket"
rig_assert "the unit file is gone" test ! -e "/lib/systemd/system/$SYS_UNIT"
# Mutation: postrm remove without deb-systemd-helper mask leaves no mask.
rig_assert "the unit is masked while the package is removed" test "$(readlink "/etc/systemd/system/$SYS_UNIT")" = /dev/null
rig_assert "the config stays after remove" test -e "$SYS_CONFIG"
rig_assert "the photos stay after remove" test "$(sys_photos)" = "$photos"
# What purge removes (postrm purge): the config, the gallery's settings, the knob's choices and the events; what it
# keeps: the photos, the custom sounds and the user booth who owns them. Each is there before it.
state=/var/lib/heylook
[[ -e $state/state.toml ]] || install -o booth -g booth -m 0644 /dev/null "$state/state.toml"
[[ -e $state/events.jsonl ]] || install -o booth -g booth -m 0644 /dev/null "$state/events.jsonl"
install -o booth -g booth -m 0644 /dev/null "$state/events.jsonl.1"
install -o booth -g booth -m 0644 /dev/null "$state/sounds/Custom.wav"
rig_assert "the gallery's settings are there before the purge" test -e /etc/heylook/gallery.toml
dpkg -P heylook-booth >"$RIG_OUT/purge.log" 2>&1 || { cat "$RIG_OUT/purge.log" >&2; rig_fail "dpkg -P failed"; }
cat "$RIG_OUT/purge.log" >&2
rig_assert "the config is gone after purge" test ! -e "$SYS_CONFIG"
# Mutation: postrm purge without its rm of gallery.toml, state.toml and the events leaves them (each assertion).
rig_assert "the gallery's settings are gone after purge" test ! -e /etc/heylook/gallery.toml
rig_assert "the knob's choices are gone after purge" test ! -e "$state/state.toml"
rig_assert "the events are gone after purge" test ! -e "$state/events.jsonl" -a ! -e "$state/events.jsonl.1"
# Mutation: postrm purge without deb-systemd-helper unmask leaves the mask of a purged package behind.
rig_assert "the mask is gone after purge" test ! -L "/etc/systemd/system/$SYS_UNIT"
rig_assert "the photos stay after purge" test "$(sys_photos)" = "$photos"
rig_assert "the custom sounds stay after purge" test -e "$state/sounds/Custom.wav"
rig_assert "the user booth stays after purge" getent passwd booth
rig_assert "purge says where the photos are" grep -q '/var/lib/heylook/photos' "$RIG_OUT/purge.log"
