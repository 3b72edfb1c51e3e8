# system-upgrade-oldest: an upgrade from the oldest version the package supports (0.6.0, the first numbered release,
# built by the host from its commit with that release's own scripts/package) to the package under test. On a system
# that had the package before (purged: the photos and the user booth kept), 0.6.0 is installed: its service takes a
# photo after the user's config edit, and its gallery (a DynamicUser then, with no user of its own) is enabled and
# serves a thumbnail. Then `dpkg -i` of the package under test, keeping the user's edited config as apt does when
# asked (--force-confold): 0.6.0's prerm and postrm (upgrade) and the new postinst (configure 0.6.0) run without an
# error; the service restarts on the new binary and is READY on 0.6.0's config file (keys added since are defaulted);
# every photo is kept and the one 0.6.0 took is in the index; a new photo is taken; the gallery runs as its own user
# now, lists the photos and makes thumbnails in its cache, as the system user heylook-gallery the new postinst made.
# Mutation: that user made on a first installation only (`[ -z "$2" ]`) leaves the upgraded gallery unable to start,
# and fails here. It runs among the last (`rig-order: last`; by name, just before system-upgrade): it purges the
# package the other scenarios used, and leaves the package under test installed again.
# shellcheck shell=bash
# rig-vm: system
# rig-order: last
# rig-timeout: 1500
# The oldest package: the host builds it in the background when it is not cached (a release build of 0.6.0).
rig_wait_for 1200 "the host's build of heylook-booth $SYS_OLDEST_VERSION" \
    test -e "$RIG_WORK/debs/oldest.deb" -o -e "$RIG_WORK/debs/oldest.failed"
[[ ! -e $RIG_WORK/debs/oldest.failed ]] || rig_fail "$(cat "$RIG_WORK/debs/oldest.failed")"
if dpkg-query -W -f '${Status}' heylook-booth 2>/dev/null | grep -q 'ok installed'; then
    dpkg -P heylook-booth >"$RIG_OUT/purge.log" 2>&1 || { cat "$RIG_OUT/purge.log" >&2; rig_fail "dpkg -P failed"; }
fi
# 0.6.0 made no user for the gallery: one a later version made (purge keeps system users) goes, as on a system that
# only ever had 0.6.0.
if getent passwd heylook-gallery >/dev/null; then deluser --system --quiet heylook-gallery; fi
if getent group heylook-gallery >/dev/null; then delgroup --system --quiet heylook-gallery; fi

rig_log "installing $SYS_OLDEST_VERSION"
dpkg -i "$RIG_WORK/debs/oldest.deb" >"$RIG_OUT/oldest.log" 2>&1 || { cat "$RIG_OUT/oldest.log" >&2; rig_fail "dpkg -i of $SYS_OLDEST_VERSION failed"; }
rig_assert "$SYS_OLDEST_VERSION is installed" test "$(dpkg-query -W -f '${Version}' heylook-booth)" = "$SYS_OLDEST_VERSION"
sys_config width "$RIG_CAMERA_WIDTH"
sys_config height "$RIG_CAMERA_HEIGHT"
edit=$(grep '^width' "$SYS_CONFIG")
systemctl restart "$SYS_UNIT"
sys_wait_ready 60
old=$(sys_photo | sed 's|^\./||')
rig_log "ok: photo $old on $SYS_OLDEST_VERSION"
photos=$(sys_photos)
systemctl enable --now heylook-gallery.socket >"$RIG_OUT/enable.log" 2>&1 || { cat "$RIG_OUT/enable.log" >&2; rig_fail "enabling $SYS_OLDEST_VERSION's gallery failed"; }
code=$(sed -n 's/^code = "\(.*\)"$/\1/p' /etc/heylook/gallery.toml)
gallery_quiet() { sys_gallery_check "$code" "$@" >/dev/null 2>&1; }
if ! rig_wait_for_quiet 30 gallery_quiet "$old"; then
    sys_gallery_check "$code" "$old" >&2 || true
    journalctl -b -u heylook-gallery.service -u heylook-gallery.socket -o cat --no-pager | tail -30 >&2
    rig_fail "$SYS_OLDEST_VERSION's gallery did not serve $old (its journal above)"
fi
rig_log "$SYS_OLDEST_VERSION's gallery: $(sys_gallery_check "$code" "$old" 2>&1)"
rig_assert "$SYS_OLDEST_VERSION's gallery is a DynamicUser" \
    test "$(systemctl show -p DynamicUser --value heylook-gallery.service)" = yes
pid=$(sys_pid)

rig_log "upgrading to $SYS_VERSION"
dpkg -i --force-confdef --force-confold "$RIG_WORK/debs/current.deb" >"$RIG_OUT/upgrade.log" 2>&1 ||
    { cat "$RIG_OUT/upgrade.log" >&2; rig_fail "dpkg -i of $SYS_VERSION over $SYS_OLDEST_VERSION failed"; }
cat "$RIG_OUT/upgrade.log"
rig_assert "$SYS_VERSION is installed" test "$(dpkg-query -W -f '${Version}' heylook-booth)" = "$SYS_VERSION"
rig_assert "the upgrade printed no error or warning" bash -c "! grep -iE 'error|warning|heylook-booth: ' '$RIG_OUT/upgrade.log'"
sys_wait_ready 60
rig_assert "the service restarted (PID $pid -> $(sys_pid))" test "$(sys_pid)" != "$pid"
rig_assert "it runs the new binary" test "$(readlink "/proc/$(sys_pid)/exe")" = /usr/bin/booth
rig_assert "the config edit is kept ($edit)" grep -qx "$edit" "$SYS_CONFIG"
rig_assert "every photo is kept" test "$(sys_photos)" = "$photos"
rig_assert "the photo $SYS_OLDEST_VERSION took is in the index" grep -qF "$(basename "$old")" "$SYS_PHOTOS/index.txt"
new=$(sys_photo | sed 's|^\./||')
rig_log "ok: photo $new on $SYS_VERSION"
rig_assert "the gallery's socket is still enabled" systemctl is-enabled -q heylook-gallery.socket
rig_wait_for 30 "the upgraded gallery to list $old and $new" gallery_quiet "$old" "$new"
rig_log "$SYS_VERSION's gallery: $(sys_gallery_check "$code" "$old" "$new" 2>&1)"
# 0.6.0's gallery was a DynamicUser of the same name (a UID systemd picks at each start); now it is the package's
# system user, and systemd has moved and handed over the cache folder 0.6.0's left in /var/cache/private.
uid=$(id -u heylook-gallery)
gpid=$(systemctl show -p MainPID --value heylook-gallery.service)
rig_assert "the gallery is no DynamicUser now" test "$(systemctl show -p DynamicUser --value heylook-gallery.service)" = no
rig_assert "the gallery runs as the system user heylook-gallery (UID $uid)" test "$(stat -c %u "/proc/$gpid")" = "$uid"
rig_assert "its cache folder is that user's ($(stat -L -c %u /var/cache/heylook-gallery))" \
    test "$(stat -L -c %u /var/cache/heylook-gallery)" = "$uid"
sys_journal >"$RIG_OUT/journal.txt"
