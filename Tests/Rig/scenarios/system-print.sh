# system-print: the installed, sandboxed booth prints through the VM's own CUPS. Each photo kept goes to an IPP
# Everywhere printer (ippeveprinter on the VM's loopback, with avahi for its DNS-SD) through cupsd's local socket while
# the service keeps its sandbox (PrivateNetwork: no network of its own), byte for byte; then a burst of two prints as
# one strip page, drawn by cairo inside the sandbox and kept beside its photos; then a guest's Print button in the
# gallery (its own user and sandbox) asks the booth through print.sock and the photo prints again. The print count
# (prints.txt) is the booth user's. The config and the services are put back for the scenarios after it.
# shellcheck shell=bash
# rig-vm: system
# rig-timeout: 600
cp "$SYS_CONFIG" "$RIG_OUT/booth.toml.before"
spool=$RIG_OUT/spool
mkdir -p "$spool"
systemctl start avahi-daemon cups || rig_fail "cups and avahi-daemon did not start"
ippeveprinter -p 8631 -n localhost -f image/jpeg -d "$spool" -k "HeyLook Rig Printer" >"$RIG_OUT/ippeveprinter.log" 2>&1 &
printer=$!
put_back() {
    kill "$printer" 2>/dev/null || true
    cp "$RIG_OUT/booth.toml.before" "$SYS_CONFIG"
    systemctl restart "$SYS_UNIT"
    systemctl stop heylook-gallery.socket heylook-gallery.service 2>/dev/null || true
    systemctl stop cups cups.socket avahi-daemon avahi-daemon.socket 2>/dev/null || true
}
# This trap replaces the runner's (rig_teardown), so it runs that too.
trap 'put_back; rig_teardown' EXIT
rig_wait_for 60 "ippeveprinter to listen on 8631" bash -c 'exec 3<>/dev/tcp/127.0.0.1/8631'
rig_wait_for 60 "cupsd to answer" lpstat -r
lpadmin -p booth -E -v ipp://localhost:8631/ipp/print -m everywhere >"$RIG_OUT/lpadmin.log" 2>&1 \
    || { cat "$RIG_OUT/lpadmin.log" "$RIG_OUT/ippeveprinter.log" >&2; rig_fail "lpadmin could not add the printer"; }
lpadmin -d booth

# spool_documents: the documents ippeveprinter kept (JOB-NAME.EXT), oldest job first.
spool_documents() { (cd "$spool" && ls | grep -E '^[0-9]+-' | grep -v '\.prn$' | sort -n); }
has_documents() { (($(spool_documents | wc -l) >= $1)); }

sys_config mode '"each"'
sys_config review_window 1.0
systemctl restart "$SYS_UNIT"
sys_wait_ready 60
rig_assert "the service has no network of its own" test "$(sys_prop PrivateNetwork)" = yes
rig_assert "the booth reaches CUPS: no printer warning at start" \
    bash -c "! journalctl -b -u '$SYS_UNIT' -o cat | grep -q 'printer needs attention'"
photo=$(sys_photo)
rig_wait_for 120 "the printer to receive the photo" has_documents 1
rig_wait_for 60 "the booth's printSent event" sys_has_event printSent 1
document=$spool/$(spool_documents | head -1)
rig_assert "the printer received $photo byte for byte" cmp "$document" "$SYS_PHOTOS/$photo"
rig_wait_for 120 "CUPS to say the job completed (printed)" sys_has_event printed 1
# A line a print: the file's name, CUPS's job id and its path, tab-separated.
rig_assert "prints.txt counts the print" grep -q "^${photo##*/}"$'\t'"[0-9]*"$'\t' "$SYS_STATE/prints.txt"
rig_assert "prints.txt is the booth user's" test "$(stat -c %U "$SYS_STATE/prints.txt")" = booth

# A burst of two as a strip with a title: one page, drawn in the sandbox (cairo, fontconfig) and kept in layouts/.
sys_config layout '"strip"'
sys_config burst 2
sys_config title '"Rig party"'
systemctl restart "$SYS_UNIT"
sys_wait_ready 60
before=$(sys_photo_count)
sys_click
rig_wait_for 60 "the burst's two photos" sys_has_photos $((before + 2))
rig_wait_for 180 "the printer to receive the strip" has_documents 2
strip=$spool/$(spool_documents | tail -1)
kept=$(ls "$SYS_PHOTOS"/layouts/*-strip.jpg 2>/dev/null | head -1)
rig_assert "the strip is kept in the store's layouts/ folder" test -n "$kept"
rig_assert "the printer received the kept strip byte for byte" cmp "$strip" "$kept"
size=$("$RIG_PY" - "$kept" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
i = 2
while i < len(data):
    marker, length = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
    if marker in (0xC0, 0xC1, 0xC2):
        height, width = struct.unpack(">HH", data[i + 5:i + 9])
        print(f"{width}x{height}")
        break
    i += 2 + length
PY
)
rig_assert "the strip is a 4x6 page at 300 dpi ($size)" test "$size" = 1200x1800
rig_assert "the layout is no photo of the index" bash -c "! grep -q strip '$SYS_PHOTOS/index.txt'"

# A guest's Print button: the gallery, its own user in its own sandbox, asks the sandboxed booth through the socket in
# the state folder; the photo prints again, as the booth's print button would.
sys_config layout '"photo"'
sys_config burst 1
sys_config title '""'
sys_config from_gallery true
systemctl restart "$SYS_UNIT"
sys_wait_ready 60
socket_mode=$(stat -c '%G %a' "$SYS_STATE/print.sock" 2>&1)
rig_assert "the booth's print socket is its group's to use ($socket_mode)" test "$socket_mode" = "booth 660"
mkdir -p /etc/avahi/services
systemctl start heylook-gallery.socket || rig_fail "the gallery's socket did not start"
code=$(booth gallery code | sed -n 's/^code: //p')
name=${photo##*/}
documents=$(spool_documents | wc -l)
answer=$(python3 - "$code" "$name" <<'PY'
import http.client, sys, urllib.parse
code, name = sys.argv[1], sys.argv[2]
def request(method, path, body=None, headers={}):
    c = http.client.HTTPConnection("127.0.0.1", 80, timeout=60)
    c.request(method, path, body=body, headers=headers)
    r = c.getresponse()
    return r.status, dict(r.getheaders()), r.read()
status, headers, _ = request("POST", "/code", urllib.parse.urlencode({"code": code}),
                             {"Content-Type": "application/x-www-form-urlencoded"})
assert status == 303, f"code: {status}"
cookie = headers["Set-Cookie"].split(";")[0]
status, _, page = request("GET", "/photo/" + name, headers={"Cookie": cookie})
assert status == 200 and b'id="print"' in page, f"the photo's page has no Print button: {status}"
status, _, page = request("POST", "/print/" + name, headers={"Cookie": cookie})
print(status, page.decode(errors="replace").split('<h1 id="answer">', 1)[-1].split("</h1>", 1)[0])
PY
)
rig_log "the gallery's answer: $answer"
rig_assert "the gallery says the booth is printing ($answer)" test "$answer" = "200 Printing"
rig_wait_for 120 "the printer to receive the guest's print" has_documents $((documents + 1))
rig_assert "the printer received $name byte for byte" cmp "$spool/$(spool_documents | tail -1)" "$SYS_PHOTOS/$photo"
rig_wait_for 30 "the booth's printAsked event" sys_has_event printAsked 1
