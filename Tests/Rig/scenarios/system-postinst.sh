# system-postinst: the maintainer script never acts as root through a link the booth's user controls, and never
# adopts a person's login named booth. A link planted by the booth's user in its own folder (the sounds folder
# pointing at a root-only canary folder) survives a reinstall (`dpkg -i` of the installed version: postinst
# configure with the old version) with the canaries still root's, untouched; the postinst run where `booth` is a
# login user (uid 1000, a copy of /etc/passwd in a private mount namespace) refuses with a message that says what to
# do, and changes nothing (users, groups, the store's and config's folders; the gallery's settings, moved away, are
# not made again). (The postinst before this scenario chowned the sounds canary through the link: `install -d -o
# booth` follows it.) The first installation's ownership fix (postinst configure with no old version, as over an
# older deploy/install.sh) runs with the booth's user's links at every step of the paths it fixes: photos a link to a
# folder of root's holding the same names, state.toml a link to a file of root's; nothing behind them changes owner or
# mode, and a file root left in the real store is the booth's again after it. Mutation: the postinst's old check of
# the last path component only (`[ ! -L "$path" ]`) chowned the canaries behind the photos link, and fails here.
# shellcheck shell=bash
# rig-vm: system
# rig-timeout: 240
sys_wait_ready 60
canary=/root/canary
rm -rf "$canary" && mkdir -m 0700 "$canary" && echo secret >"$canary/file" && chmod 0600 "$canary/file"
state=/var/lib/heylook
mv "$state/sounds" "$state/sounds.real"
# As the booth's user would: its own folder, its own links.
setpriv --reuid=booth --regid=booth --clear-groups ln -s "$canary" "$state/sounds"
before=$(stat -c '%U:%G %a' "$canary" "$canary/file" | tr '\n' ' ')
dpkg -i "$RIG_WORK/debs/current.deb" >"$RIG_OUT/reinstall.log" 2>&1 || { cat "$RIG_OUT/reinstall.log" >&2; rig_fail "dpkg -i (reinstall) failed"; }
after=$(stat -c '%U:%G %a' "$canary" "$canary/file" | tr '\n' ' ')
rig_assert "the canaries behind the links are still root's ($before -> $after)" test "$before" = "$after"
rig_assert "the canary folder is root's" test "$(stat -c %U "$canary")" = root
rig_assert "the planted link is still a link" test -L "$state/sounds"
rm "$state/sounds"
mv "$state/sounds.real" "$state/sounds"
systemctl restart "$SYS_UNIT"
sys_wait_ready 60
rig_assert "the store's folders are the booth's" test "$(stat -c %U:%G "$state/photos" "$state/sounds" | sort -u)" = booth:booth

# A login user named booth: the postinst refuses, says why and what to do, and changes nothing: the users, groups and
# the store's and config's folders as they were, and the gallery's settings, moved away first, not made again (a first installation's configure
# would make them). Mutation: the gallery's settings made before the user is checked (the refusal still exits 1 with
# its message) passed the old checks of the exit status and the message; here they are made again, and it fails.
script=/var/lib/dpkg/info/heylook-booth.postinst
system_state() {
    getent passwd booth heylook-gallery
    getent group booth heylook-gallery gpio audio video plugdev
    stat -c '%U:%G %a %n' /var/lib/heylook /var/lib/heylook/photos /var/lib/heylook/sounds /etc/heylook /etc/heylook/*
}
mv /etc/heylook/gallery.toml /root/gallery.toml.kept
before=$(system_state)
rc=0
unshare --mount --propagation private sh -c '
    sed "s/^booth:\([^:]*\):[0-9]*:\([0-9]*\):\([^:]*\):[^:]*:/booth:\1:1000:\2:\3:\/home\/booth:/" /etc/passwd >/run/passwd.login
    mount --bind /run/passwd.login /etc/passwd
    getent passwd booth >&2
    exec "$0" configure ""' "$script" >"$RIG_OUT/login.log" 2>&1 || rc=$?
cat "$RIG_OUT/login.log" >&2
rig_assert "the postinst refuses a login user named booth (exit $rc)" test "$rc" -ne 0
rig_assert "it says what to do" grep -q "usermod -l NEWNAME booth" "$RIG_OUT/login.log"
after=$(system_state)
rig_assert "the gallery's settings were not made again" test ! -e /etc/heylook/gallery.toml
rig_assert "the users, groups, store and config as they were" test "$before" = "$after"
mv /root/gallery.toml.kept /etc/heylook/gallery.toml
rig_assert "the service still runs" sys_ready

# The first installation's ownership fix, with links at every step (the service masked for the while: the postinst
# starts it, and it must not run on a store whose photos folder is a canary of root's).
systemctl mask --runtime --now "$SYS_UNIT" 2>&1
behind=/root/canary-store
rm -rf "$behind" && mkdir -m 0700 "$behind" "$behind/photos" "$behind/photos/discarded"
for f in photos/booth-id photos/index.txt photos/.index.lock state.toml; do
    echo secret >"$behind/$f" && chmod 0600 "$behind/$f"
done
mv "$state/photos" "$state/photos.real"
[[ ! -e $state/state.toml ]] || mv "$state/state.toml" "$state/state.toml.real"
setpriv --reuid=booth --regid=booth --clear-groups ln -s "$behind/photos" "$state/photos"
setpriv --reuid=booth --regid=booth --clear-groups ln -s "$behind/state.toml" "$state/state.toml"
before=$(find "$behind" -printf '%u:%g %m %p\n' | sort)
"$script" configure "" >"$RIG_OUT/first-install.log" 2>&1 || { cat "$RIG_OUT/first-install.log" >&2; rig_fail "postinst configure (a first installation) failed"; }
after=$(find "$behind" -printf '%u:%g %m %p\n' | sort)
printf '%s\n' "$after" >"$RIG_OUT/behind-the-links.txt"
rm "$state/photos" "$state/state.toml"
mv "$state/photos.real" "$state/photos"
[[ ! -e $state/state.toml.real ]] || mv "$state/state.toml.real" "$state/state.toml"
rig_assert "nothing behind the links to photos and state.toml changed owner or mode" test "$before" = "$after"
# ... and without links it does its job: a store file root left is the booth's again.
[[ -e $state/photos/index.txt ]] || : >"$state/photos/index.txt"
chown root:root "$state/photos/index.txt"
"$script" configure "" >>"$RIG_OUT/first-install.log" 2>&1 || { cat "$RIG_OUT/first-install.log" >&2; rig_fail "postinst configure (a first installation) failed"; }
rig_assert "a store file root left is the booth's again" test "$(stat -c %U:%G "$state/photos/index.txt")" = booth:booth
systemctl unmask --runtime "$SYS_UNIT" 2>&1
systemctl start "$SYS_UNIT"
sys_wait_ready 60
rm -rf "$canary" "$behind" /run/passwd.login
