# system-gallery: the gallery as the package installs it: its socket off until enabled; enabled, port 80 answers
# with the code page (socket activation: the gallery needs no capability); the code from /etc/heylook/gallery.toml
# (made at install, root:booth 0640) lets a client in; every photo is listed and its original's bytes are the
# store's; a new photo is listed without a restart (inotify); the service runs as a user of its own with no
# capability, its live exposure printed (at most 2.5); the booth's own score is unchanged; it is announced for
# avahi exactly while the socket listens.
# shellcheck shell=bash
# rig-vm: system
# rig-timeout: 180
sys_wait_ready 60
(($(sys_photo_count) > 0)) || sys_photo >/dev/null
rig_assert "the gallery's socket is off after install" bash -c "! systemctl is-enabled -q heylook-gallery.socket"
rig_assert "gallery.toml holds a code" grep -qE '^code = "[A-Z2-9]{6}"$' /etc/heylook/gallery.toml
rig_assert "gallery.toml is root:booth 0640 ($(stat -c %U:%G:%a /etc/heylook/gallery.toml))" \
    test "$(stat -c %U:%G:%a /etc/heylook/gallery.toml)" = root:booth:640
code=$(booth gallery code | sed -n 's/^code: //p')
rig_assert "booth gallery code prints the file's code ($code)" grep -q "^code = \"$code\"$" /etc/heylook/gallery.toml

# avahi-daemon's services folder (the image has no avahi): the socket links the gallery's announcement into it
# while it listens.
mkdir -p /etc/avahi/services
systemctl enable --now heylook-gallery.socket >"$RIG_OUT/enable.log" 2>&1 || { cat "$RIG_OUT/enable.log" >&2; rig_fail "enabling the socket failed"; }
rig_assert "the socket listens on port 80" bash -c "systemctl is-active -q heylook-gallery.socket"
rig_assert "the gallery is announced (avahi service file linked)" \
    grep -q "<type>_http._tcp</type>" /etc/avahi/services/heylook-gallery.service

gallery_quiet() { sys_gallery_check "$code" "$@" >/dev/null 2>&1; }
names=$(sys_photos | sed 's|^\./||')
# shellcheck disable=SC2086 # one argument per photo name
rig_wait_for 30 "the gallery on port 80 to list every photo" gallery_quiet $names
# shellcheck disable=SC2086
rig_log "$(sys_gallery_check "$code" $names 2>&1)"
new=$(sys_photo | sed 's|^\./||')
rig_log "a new photo: $new"
# shellcheck disable=SC2086
rig_wait_for 20 "the new photo in the gallery" gallery_quiet $names "$new"
# shellcheck disable=SC2086
rig_log "$(sys_gallery_check "$code" $names "$new" 2>&1)"

gpid=$(systemctl show -p MainPID --value heylook-gallery.service)
rig_assert "the gallery runs (PID $gpid)" test "$gpid" -gt 0
user=$(stat -c %U "/proc/$gpid")
rig_assert "it runs as a user of its own ($user), not booth or root" bash -c "[[ $user != booth && $user != root ]]"
for set in CapInh CapPrm CapEff CapBnd CapAmb; do
    v=$(sed -n "s/^$set:\t//p" "/proc/$gpid/status")
    rig_assert "gallery $set is empty ($v)" test "$v" = 0000000000000000
done
systemd-analyze security --no-pager heylook-gallery.service >"$RIG_OUT/gallery-security.txt" 2>&1 || true
score=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' "$RIG_OUT/gallery-security.txt")
rig_log "systemd-analyze security heylook-gallery.service: exposure $score"
rig_assert "the gallery's exposure $score <= 2.5" awk -v s="$score" 'BEGIN { exit !(s != "" && s <= 2.5) }'
systemd-analyze security --no-pager "$SYS_UNIT" >"$RIG_OUT/security.txt" 2>&1 || true
score=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' "$RIG_OUT/security.txt")
rig_log "systemd-analyze security $SYS_UNIT: exposure $score"
rig_assert "the booth's exposure $score <= 2.0" awk -v s="$score" 'BEGIN { exit !(s != "" && s <= 2.0) }'
journalctl -b -u heylook-gallery.service -o cat --no-pager >"$RIG_OUT/gallery-journal.txt" 2>&1 || true
systemctl disable --now heylook-gallery.socket heylook-gallery.service >/dev/null 2>&1 || true
rig_assert "stopped, the gallery is no longer announced" test ! -e /etc/avahi/services/heylook-gallery.service
rmdir /etc/avahi/services /etc/avahi 2>/dev/null || true
