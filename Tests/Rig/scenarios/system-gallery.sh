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

# A client on the VM's loopback: the code page, the code, the listing, an original's bytes.
gallery_check() {
    python3 - "$code" "$SYS_PHOTOS" "$@" <<'PY'
import http.client, sys, urllib.parse
code, photos, wanted = sys.argv[1], sys.argv[2], sys.argv[3:]
def request(method, path, body=None, headers={}):
    c = http.client.HTTPConnection("127.0.0.1", 80, timeout=20)
    c.request(method, path, body=body, headers=headers)
    r = c.getresponse()
    return r.status, dict(r.getheaders()), r.read()
status, _, page = request("GET", "/")
assert status == 200 and b'id="code"' in page, f"code page: {status}"
status, _, _ = request("GET", "/original/" + wanted[0])
assert status == 401, f"original without the code: {status}"
status, headers, _ = request("POST", "/code", urllib.parse.urlencode({"code": code}),
                             {"Content-Type": "application/x-www-form-urlencoded"})
assert status == 303, f"code: {status}"
cookie = headers["Set-Cookie"].split(";")[0]
status, _, page = request("GET", "/", headers={"Cookie": cookie})
assert status == 200, f"gallery: {status}"
for name in wanted:
    assert f"/thumb/{name}".encode() in page, f"{name} is not in the gallery"
status, _, body = request("GET", "/original/" + wanted[-1], headers={"Cookie": cookie})
assert status == 200 and body == open(f"{photos}/{wanted[-1]}", "rb").read(), f"original {wanted[-1]}: {status}"
status, headers, thumb = request("GET", "/thumb/" + wanted[-1], headers={"Cookie": cookie})
assert status == 200 and thumb[:2] == b"\xff\xd8", f"thumbnail: {status}"
print(f"ok: {len(wanted)} photos listed, original and thumbnail of {wanted[-1]} served")
PY
}
gallery_quiet() { gallery_check "$@" >/dev/null 2>&1; }
names=$(sys_photos | sed 's|^\./||')
# shellcheck disable=SC2086 # one argument per photo name
rig_wait_for 30 "the gallery on port 80 to list every photo" gallery_quiet $names
# shellcheck disable=SC2086
rig_log "$(gallery_check $names 2>&1)"
new=$(sys_photo | sed 's|^\./||')
rig_log "a new photo: $new"
# shellcheck disable=SC2086
rig_wait_for 20 "the new photo in the gallery" gallery_quiet $names "$new"
# shellcheck disable=SC2086
rig_log "$(gallery_check $names "$new" 2>&1)"

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
