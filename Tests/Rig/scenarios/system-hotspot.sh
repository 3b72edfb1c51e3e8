# system-hotspot: the booth's own Wi-Fi at a party with none, on real drivers and NetworkManager, no traffic leaving
# the VM. Without NetworkManager, then without a Wi-Fi device, `booth hotspot on` says so and makes nothing. Then
# mac80211_hwsim makes two radios. Where NetworkManager's dnsmasq does not answer names, `on` says phones would not
# reach the gallery and puts back what was there. NetworkManager runs the access point on one radio (`booth hotspot
# on`); a "phone" in a network namespace of its own holds the other. The phone joins with wpa_supplicant using the
# name and passphrase zbarimg reads off the card (`booth card`), gets an address from the shared mode's DHCP, finds
# every name resolving to the booth, its connectivity checks land on the gallery's code page, and the card's link
# signs it in and serves a photo. WPA2 is offered alone; with `security = "wpa3"` the phone joins again with WPA3
# (SAE) and still reaches the gallery. The booth's clock is unsynchronised: the gallery asks the signed-in phone for
# its time and sets the clock from it (timedated, polkit), once and forwards only; the photo taken before is dated in
# the gallery, then in the booth's index, and an export puts a dated copy of it (name and EXIF) on the stick; the
# next photo is dated. The booth's LEDs confirm `on`. After a reboot NetworkManager starts the hotspot by itself;
# `booth hotspot off` removes the profile and the DNS rule and puts back the connection the Wi-Fi was on. The name
# and passphrase hold characters the WIFI: format escapes.
# shellcheck shell=bash
# rig-vm: system
# rig-reboots: 1
# rig-shares-reboot: yes
# rig-timeout: 540

PROFILE=/etc/NetworkManager/system-connections/heylook-hotspot.nmconnection
DNS_RULE=/etc/NetworkManager/dnsmasq-shared.d/heylook-hotspot.conf
SLOW_SUPPLICANT=/etc/NetworkManager/conf.d/rig-slow-supplicant.conf
PHONE=$RIG_OUT/phone
mkdir -p "$PHONE"

rebooting='' clock_before='' ntp=''
# clock_forward: prints how many seconds the clock moved forward since clock_before (the wall clock's change less
# the monotonic clock's).
clock_forward() {
    local mono
    mono=$(cut -d' ' -f1 /proc/uptime)
    echo $(($(date +%s) - clock_before - (${mono%.*} - ${mono_before%.*})))
}
# clock_back: the clock back where it was before the phone set it, for the scenarios after this one (the kernel's
# and the machine's clock: timedated's SetTime wrote both); nothing when it did not move.
clock_back() {
    [[ -n $clock_before ]] || return 0
    local forward
    forward=$(clock_forward)
    clock_before=''
    ((forward > 60)) || return 0
    if [[ $ntp == yes ]]; then timedatectl set-ntp false; fi
    timedatectl set-time "$(date -d "@$(($(date +%s) - forward))" '+%Y-%m-%d %H:%M:%S')" ||
        date -s "@$(($(date +%s) - forward))" >/dev/null
    if [[ $ntp == yes ]]; then timedatectl set-ntp true; fi
}
eval "scenario_$(declare -f rig_teardown)"
rig_teardown() {
    set +e
    clock_back
    [[ -e $PHONE/wpa.pid ]] && kill "$(cat "$PHONE/wpa.pid")"
    ip netns pids phone 2>/dev/null | xargs -r kill
    [[ -n $rebooting ]] && { scenario_rig_teardown; return 0; }  # The hotspot must come back after the boot.
    rm -f /etc/modules-load.d/rig-hwsim.conf /etc/modprobe.d/rig-hwsim.conf "$SLOW_SUPPLICANT"
    if [[ -e $RIG_OUT/nm-dbus.service ]]; then
        mv "$RIG_OUT/nm-dbus.service" /usr/share/dbus-1/system-services/org.freedesktop.NetworkManager.service
        systemctl reload dbus.service
    fi
    systemctl start NetworkManager.service
    booth hotspot off >/dev/null 2>&1
    nmcli connection delete Home >/dev/null 2>&1
    ip netns del phone 2>/dev/null
    rm -rf /etc/netns/phone /etc/heylook/hotspot.toml "$SYS_STATE/join-card.pdf"
    systemctl disable --now heylook-gallery.socket heylook-gallery.service >/dev/null 2>&1
    rm -f /run/heylook-gallery/clock  # The booth trusts its clock while the mark is there.
    modprobe -r mac80211_hwsim 2>/dev/null
    scenario_rig_teardown
}

# After the reboot: NetworkManager started the hotspot by itself; `off` puts Home back.
after_the_reboot() {
    sys_wait_ready 60
    # NetworkManager tries the profile for as long as it fails (autoconnect-retries 0): by default it gives up after 4
    # tries for 5 minutes, and a slow boot's supplicant can time out that often. Its journal is shown if it never does.
    rig_assert "the profile is tried until it starts" bash -c \
        "nmcli -g connection.autoconnect-retries connection show 'HeyLook hotspot' | grep -qx 0"
    if ! rig_wait_for_quiet 90 bash -c \
        "nmcli -t -f GENERAL.CONNECTION device show wlan0 2>/dev/null | grep -qx 'GENERAL.CONNECTION:HeyLook hotspot'"; then
        journalctl -b -u NetworkManager -n 60 --no-pager >&2 || true
        rig_fail "NetworkManager did not start the hotspot by itself within $RIG_DEADLINE_S s after the reboot"
    fi
    rig_assert "wlan0 is an access point again" bash -c "iw dev wlan0 info | grep -q 'type AP'"
    # Up once NetworkManager has its address and DHCP running (the radio is an access point a little before; beside
    # one busy loop per host core that took over 30 s once). What status said last is shown if it never says on.
    if ! rig_wait_for_quiet 90 bash -c "booth hotspot status | grep -q '^hotspot: on (wlan0)'"; then
        rig_log "status: $(booth hotspot status 2>&1 | tr '\n' ' '); NetworkManager: $(nmcli -t -f GENERAL.STATE \
            device show wlan0 2>&1 | tr '\n' ' ')"
        rig_fail "booth hotspot status did not say on within $RIG_DEADLINE_S s after the reboot"
    fi
    rig_log "after the reboot: $(booth hotspot status 2>&1 | tr '\n' ' ')"

    booth hotspot off >"$RIG_OUT/hotspot-off.log" 2>&1 || { cat "$RIG_OUT/hotspot-off.log" >&2; rig_fail "booth hotspot off failed"; }
    rig_log "$(cat "$RIG_OUT/hotspot-off.log")"
    rig_assert "the profile is gone" test ! -e "$PROFILE"
    rig_assert "the DNS rule is gone" test ! -e "$DNS_RULE"
    rig_assert "NetworkManager has no hotspot connection" bash -c "! nmcli -t -f NAME connection show | grep -q 'HeyLook hotspot'"
    rig_assert "it says it put Home back" grep -q "back on Home" "$RIG_OUT/hotspot-off.log"
    rig_wait_for 30 "wlan0 back on Home" bash -c "nmcli -t -f GENERAL.CONNECTION device show wlan0 | grep -qx GENERAL.CONNECTION:Home"
    rig_assert "booth hotspot status says off" bash -c "booth hotspot status | grep -q '^hotspot: off (wlan0)'"
}
if sys_booted_again; then
    after_the_reboot
    exit 0
fi

sys_wait_ready 60
(($(sys_photo_count) > 0)) || sys_photo >/dev/null
# No network time here: the clock unsynchronised from the start, whatever an earlier scenario left (the gallery
# remembers a synchronised clock for good, so one that saw it set would never ask the phone).
rig_log "$(sys_clock_status unsync)"
systemctl enable --now heylook-gallery.socket >"$RIG_OUT/enable.log" 2>&1 || { cat "$RIG_OUT/enable.log" >&2; rig_fail "enabling the gallery failed"; }
rig_assert "NetworkManager runs" systemctl is-active -q NetworkManager.service

# Without NetworkManager (stopped, and its D-Bus activation file away, as where it is not installed) the hotspot says
# so, and changes nothing.
nm_service=/usr/share/dbus-1/system-services/org.freedesktop.NetworkManager.service
systemctl stop NetworkManager.service
if [[ -e $nm_service ]]; then mv "$nm_service" "$RIG_OUT/nm-dbus.service" && systemctl reload dbus.service; fi
if booth hotspot on >"$RIG_OUT/no-nm.log" 2>&1; then rig_fail "booth hotspot on succeeded without NetworkManager"; fi
if [[ -e $RIG_OUT/nm-dbus.service ]]; then mv "$RIG_OUT/nm-dbus.service" "$nm_service" && systemctl reload dbus.service; fi
systemctl start NetworkManager.service
rig_log "without NetworkManager: $(cat "$RIG_OUT/no-nm.log")"
rig_assert "it names NetworkManager and how to get it" grep -q "NetworkManager is not running.*apt install network-manager" \
    "$RIG_OUT/no-nm.log"
rig_assert "and makes no settings" test ! -e /etc/heylook/hotspot.toml

# Without a Wi-Fi device the hotspot says so, and changes nothing. Asked straight away, while NetworkManager is still
# starting (its objects answer a moment after its unit is up, and its devices a moment later): `booth hotspot` waits
# until NetworkManager has finished starting, so what it says of the devices is true.
if booth hotspot on >"$RIG_OUT/no-wifi.log" 2>&1; then rig_fail "booth hotspot on succeeded without a Wi-Fi device"; fi
rig_log "without Wi-Fi: $(cat "$RIG_OUT/no-wifi.log")"

rig_assert "it names the missing Wi-Fi device" grep -q "no Wi-Fi device" "$RIG_OUT/no-wifi.log"
rig_assert "and writes no profile" test ! -e "$PROFILE"
rig_assert "nor settings" test ! -e /etc/heylook/hotspot.toml

# The settings, with every character the card's WIFI: text escapes.
cat >/etc/heylook/hotspot.toml <<'TOML'
[hotspot]
name = "Party;Wi,Fi:\\\"Q\""
passphrase = "p;a,s:s\\w\"ord-42"
TOML
chmod 600 /etc/heylook/hotspot.toml

modprobe mac80211_hwsim radios=2 || rig_fail "modprobe mac80211_hwsim failed"
rig_wait_for 20 "two simulated radios" bash -c '[[ -e /sys/class/net/wlan0 && -e /sys/class/net/wlan1 ]]'
ip netns add phone
phone_phy=$(basename "$(readlink /sys/class/net/wlan1/phy80211)")
iw phy "$phone_phy" set netns name phone || rig_fail "cannot move $phone_phy into the phone's namespace"
rig_wait_for 30 "NetworkManager to manage wlan0" bash -c 'nmcli -t -f DEVICE,STATE device | grep -q "^wlan0:disconnected"'

# What the Wi-Fi was on before (a connection of the owner's; an access point here, as there is no other network in the
# VM): `off` puts it back.
# Under emulation on a busy host wpa_supplicant has taken longer than the 25 s NetworkManager waits for it to bring up
# an access point (twice in a row beside one busy loop per core): here NetworkManager waits 60 s (its connection
# default 802-1x.auth-timeout, which bounds every Wi-Fi connection's supplicant, with or without 802.1X), and the
# connection is started a second time if the first start still times out.
printf '[connection]\n802-1x.auth-timeout=60\n' >"$SLOW_SUPPLICANT"
nmcli general reload conf || rig_fail "NetworkManager did not reload its configuration"
nmcli connection add type wifi ifname wlan0 con-name Home ssid Home mode ap wifi-sec.key-mgmt wpa-psk \
    wifi-sec.psk home-password ipv4.method disabled ipv6.method disabled autoconnect no >"$RIG_OUT/home.log" 2>&1 \
    && { nmcli connection up Home >>"$RIG_OUT/home.log" 2>&1 || nmcli connection up Home >>"$RIG_OUT/home.log" 2>&1; } \
    || { cat "$RIG_OUT/home.log" >&2; rig_fail "cannot start the Home connection"; }
rig_assert "wlan0 is on Home" bash -c "nmcli -t -f GENERAL.CONNECTION device show wlan0 | grep -qx GENERAL.CONNECTION:Home"

# Phones would not reach the gallery where the hotspot's dnsmasq does not answer names (here a rule that turns its
# DNS off; where it cannot start at all, NetworkManager may call the connection up all the same). `on` asks the name
# server before it says "on": it finds it silent, says so, and puts back what was there.
broken_rule=/etc/NetworkManager/dnsmasq-shared.d/rig-no-dns.conf
mkdir -p "$(dirname "$broken_rule")"
echo "port=0" >"$broken_rule"
if booth hotspot on >"$RIG_OUT/silent-dns.log" 2>&1; then
    rm -f "$broken_rule"
    rig_fail "booth hotspot on said on while its name server was silent: $(cat "$RIG_OUT/silent-dns.log")"
fi
rm -f "$broken_rule"
rig_log "with the hotspot's DNS off: $(cat "$RIG_OUT/silent-dns.log")"
rig_assert "it says phones would not reach the gallery" grep -q "does not answer, so phones would not reach the gallery" \
    "$RIG_OUT/silent-dns.log"
rig_assert "and leaves no profile" test ! -e "$PROFILE"
rig_assert "nor DNS rule" test ! -e "$DNS_RULE"
rig_wait_for 20 "wlan0 back on Home" bash -c "nmcli -t -f GENERAL.CONNECTION device show wlan0 | grep -qx GENERAL.CONNECTION:Home"

booth hotspot on >"$RIG_OUT/hotspot-on.log" 2>&1 || { cat "$RIG_OUT/hotspot-on.log" >&2; rig_fail "booth hotspot on failed"; }
rig_log "$(cat "$RIG_OUT/hotspot-on.log")"
rig_assert "the profile is root's, 0600 ($(stat -c %U:%a "$PROFILE"))" test "$(stat -c %U:%a "$PROFILE")" = root:600
rig_assert "the DNS rule answers every name with the booth" grep -qx 'address=/#/10.42.0.1' "$DNS_RULE"
nmcli -t -f GENERAL.STATE,GENERAL.CONNECTION device show wlan0 >"$RIG_OUT/wlan0.txt"
rig_log "wlan0: $(tr '\n' ' ' <"$RIG_OUT/wlan0.txt")"
rig_assert "wlan0 runs the booth's profile" grep -q "GENERAL.CONNECTION:HeyLook hotspot" "$RIG_OUT/wlan0.txt"
rig_assert "as an access point" bash -c "iw dev wlan0 info | grep -q 'type AP'"
booth hotspot status >"$RIG_OUT/status.log" 2>&1
rig_assert "booth hotspot status says on" grep -q '^hotspot: on (wlan0)' "$RIG_OUT/status.log"
rig_assert "and finds its name server answering with the booth" bash -c "! grep -q '^but ' '$RIG_OUT/status.log'"
# The LEDs confirm it: `on` signals the running booth (SIGUSR1 through systemd), whose row fills up three times.
rig_assert "booth hotspot on says the LEDs confirm it" grep -q "LEDs confirm it" "$RIG_OUT/hotspot-on.log"
leds_confirm() {
    python3 - "$SYS_STATE/events.jsonl" <<'PY'
import json, sys
records = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
signals = [i for i, r in enumerate(records) if r.get("type") == "signal" and r.get("signal") == 10]
assert signals, "no SIGUSR1 in the booth's events"
leds = [r for r in records[signals[-1]:] if r.get("type") == "leds"]
assert leds, "no LED change after the signal"
n = len(leds[0]["leds"])
want = ([(1 << k) - 1 for k in range(1, n + 1)] + [0]) * 3
got = [r["bits"] for r in leds][:len(want)]
assert got == want, f"the LEDs after the signal: {got}, expected {want}"
print(f"the booth's {n} LEDs filled up three times: {got}")
PY
}
leds_confirmed() { leds_confirm >/dev/null 2>&1; }
if ! rig_wait_for_quiet 15 leds_confirmed; then
    leds_confirm >&2 || true  # says what the LEDs did after the signal instead
    tail -n 30 "$SYS_STATE/events.jsonl" >&2 || true
    rig_fail "the booth's LEDs did not confirm the hotspot within $RIG_DEADLINE_S s (its last events are above)"
fi
rig_log "$(leds_confirm)"

# The card, read by an independent reader.
booth card --output "$PHONE" >"$RIG_OUT/card.log" 2>&1 || { cat "$RIG_OUT/card.log" >&2; rig_fail "booth card failed"; }
zbarimg --quiet --raw "$PHONE/join-card.png" >"$PHONE/card.txt" 2>/dev/null || rig_fail "zbarimg read no QR code on the card"
rig_assert "the card is kept for the sticks, readable by the booth's user" \
    runuser -u booth -- cmp -s "$SYS_STATE/join-card.pdf" "$PHONE/join-card.pdf"
rig_log "the card reads: $(tr '\n' ' ' <"$PHONE/card.txt")"
# The phone's side: the WIFI: text unescaped as a phone does, the network written for wpa_supplicant (the SSID in
# hex, the passphrase's key computed by wpa_passphrase), the gallery link.
python3 - "$PHONE" <<'PY' || rig_fail "the card's texts are not what the phone needs"
import subprocess, sys
folder = sys.argv[1]
texts = open(f"{folder}/card.txt").read().split("\n")
wifi = next(t for t in texts if t.startswith("WIFI:"))
link = next(t for t in texts if t.startswith("http://"))
fields, key, value, escaped = {}, None, "", False
body = wifi[len("WIFI:"):]
i = 0
while i < len(body):
    c = body[i]
    if escaped:
        value += c; escaped = False
    elif c == "\\":
        escaped = True
    elif c == ";":
        if ":" in value:
            k, v = value.split(":", 1)
            fields[k] = v
        value = ""
    else:
        value += c
    i += 1
ssid, psk = fields["S"], fields["P"]
assert ssid == 'Party;Wi,Fi:\\"Q"', ssid
assert psk == 'p;a,s:s\\w"ord-42', psk
key = subprocess.run(["wpa_passphrase", ssid, psk], capture_output=True, text=True, check=True).stdout
hexkey = next(l.strip()[4:] for l in key.splitlines() if l.strip().startswith("psk=") and '"' not in l)
open(f"{folder}/wpa.conf", "w").write(
    "ctrl_interface=/run/wpa-phone\n"
    f"network={{\n ssid={ssid.encode().hex()}\n psk={hexkey}\n key_mgmt=WPA-PSK\n proto=RSN\n}}\n")
# A phone that knows WPA3 joins with SAE, which takes the passphrase itself (wpa_supplicant reads a quoted value up to
# its last quote, so the quote inside needs no escape).
open(f"{folder}/wpa3.conf", "w").write(
    "ctrl_interface=/run/wpa-phone\n"
    f"network={{\n ssid={ssid.encode().hex()}\n sae_password=\"{psk}\"\n key_mgmt=SAE\n ieee80211w=2\n proto=RSN\n}}\n")
open(f"{folder}/link", "w").write(link)
print(f"ssid {ssid!r}, passphrase {psk!r}, link {link}")
PY

ip netns exec phone ip link set lo up
ip netns exec phone ip link set wlan1 up
ip netns exec phone wpa_supplicant -B -i wlan1 -c "$PHONE/wpa.conf" -P "$PHONE/wpa.pid" -f "$PHONE/wpa.log" \
    || rig_fail "wpa_supplicant did not start"
rig_wait_for 60 "the phone to join the booth's Wi-Fi" bash -c "ip netns exec phone iw dev wlan1 link | grep -q '^Connected'"
rig_log "phone: $(ip netns exec phone iw dev wlan1 link | head -2 | tr '\n' ' ')"

# DHCP from the shared mode (busybox's udhcpc, with a script of its own), and the name server it hands out.
mkdir -p /etc/netns/phone
[[ -e /etc/resolv.conf ]] || touch /etc/resolv.conf  # ip netns exec binds the phone's over it.
cat >"$PHONE/dhcp.sh" <<'SH'
#!/bin/sh
[ "$1" = bound ] || exit 0
ip addr add "$ip/${mask:-24}" dev "$interface"
echo "nameserver ${dns%% *}" >/etc/netns/phone/resolv.conf
echo "$ip ${dns%% *}" >"$(dirname "$0")/lease"
SH
chmod +x "$PHONE/dhcp.sh"
ip netns exec phone busybox udhcpc -i wlan1 -n -q -t 20 -T 2 -s "$PHONE/dhcp.sh" >"$PHONE/udhcpc.log" 2>&1 \
    || { cat "$PHONE/udhcpc.log" >&2; rig_fail "the phone got no address"; }
read -r address dns <"$PHONE/lease"
rig_log "phone's lease: $address, name server $dns"
rig_assert "the phone's address is on the booth's network ($address)" bash -c "[[ $address == 10.42.0.* ]]"
rig_assert "its name server is the booth ($dns)" test "$dns" = 10.42.0.1

# As the phone: any name is the booth; the checks of iOS, Android and Windows land on the code page; the card's
# link signs in and a photo downloads with the store's bytes.
photo=$(sys_photos | tail -1 | sed 's|^\./||')
ip netns exec phone python3 - "$(cat "$PHONE/link")" "$SYS_PHOTOS/$photo" <<'PY' >"$PHONE/browse.log" 2>&1 || { cat "$PHONE/browse.log" >&2; rig_fail "the phone's view of the booth is wrong"; }
import http.client, os, socket, sys, urllib.parse
link, photo = sys.argv[1], sys.argv[2]
for name in ("captive.apple.com", "connectivitycheck.gstatic.com", "www.msftconnecttest.com", "example.com"):
    address = socket.gethostbyname(name)
    assert address == "10.42.0.1", f"{name} resolves to {address}"
def get(host, path, headers={}):
    c = http.client.HTTPConnection(socket.gethostbyname(host), 80, timeout=20)
    c.request("GET", path, headers={"Host": host, **headers})
    r = c.getresponse()
    return r.status, dict(r.getheaders()), r.read()
for host, path in (("captive.apple.com", "/hotspot-detect.html"), ("connectivitycheck.gstatic.com", "/generate_204"),
                   ("www.msftconnecttest.com", "/connecttest.txt")):
    status, headers, _ = get(host, path)
    assert status == 302 and headers.get("Location") == "http://10.42.0.1/", f"{host}{path}: {status} {headers}"
    status, _, page = get("10.42.0.1", "/")
    assert status == 200 and b'id="code"' in page, f"the check's redirect: {status}"
    print(f"{host}{path}: 302 to the code page")
url = urllib.parse.urlsplit(link)
status, headers, _ = get(url.hostname, f"{url.path}?{url.query}")
assert status == 303 and "heylook=" in headers.get("Set-Cookie", ""), f"the card's link: {status} {headers}"
cookie = headers["Set-Cookie"].split(";")[0]
status, _, page = get(url.hostname, "/", {"Cookie": cookie})
name = os.path.basename(photo)
assert status == 200 and f"/thumb/{name}".encode() in page, f"the gallery: {status}"
status, _, body = get(url.hostname, f"/original/{name}", {"Cookie": cookie})
assert status == 200 and body == open(photo, "rb").read(), f"the original of {name}: {status}"
print(f"the card's link signed in; {name} downloaded ({len(body)} bytes, equal to the store's)")
PY
rig_log "$(cat "$PHONE/browse.log")"

# WPA2 is offered alone (no WPA3 it could not protect). With `security = "wpa3"` and `on` again, the hotspot is WPA3
# alone: the phone joins again with SAE (protected management frames required) and still reaches the gallery. (Before
# the clock moves: mac80211_hwsim's radios keep time by the wall clock.)
ip netns exec phone iw dev wlan1 scan dump >"$PHONE/wpa2-scan.txt" 2>&1
rig_log "WPA2: $(grep -m1 'Authentication suites' "$PHONE/wpa2-scan.txt" | tr -s ' \t*' ' ')"
rig_assert "the hotspot offers WPA2 alone (PSK, no SAE)" \
    bash -c "grep 'Authentication suites' '$PHONE/wpa2-scan.txt' | grep -q PSK && ! grep -q SAE '$PHONE/wpa2-scan.txt'"
sed -i '/^security = /d' /etc/heylook/hotspot.toml
echo 'security = "wpa3"' >>/etc/heylook/hotspot.toml
booth hotspot on >"$RIG_OUT/hotspot-wpa3.log" 2>&1 \
    || {
        cat "$RIG_OUT/hotspot-wpa3.log" >&2
        journalctl -u NetworkManager -n 40 --no-pager >&2 || true
        rig_fail "booth hotspot on failed with WPA3"
    }
kill "$(cat "$PHONE/wpa.pid")"
rig_wait_for 20 "the phone to leave" bash -c "! ip netns exec phone iw dev wlan1 link | grep -q '^Connected'"
ip netns exec phone wpa_supplicant -B -d -i wlan1 -c "$PHONE/wpa3.conf" -P "$PHONE/wpa.pid" -f "$PHONE/wpa3.log" \
    || rig_fail "wpa_supplicant did not start with WPA3"
wpa3_joined() { ip netns exec phone wpa_cli -p /run/wpa-phone -i wlan1 status 2>/dev/null | grep -qx wpa_state=COMPLETED; }
if ! (rig_wait_for 60 "the phone to join with WPA3" wpa3_joined); then
    ip netns exec phone iw dev wlan1 scan dump 2>&1 | grep -A14 'RSN:' >&2
    grep -iE 'skip|pmf|sae|mfp|key_mgmt|reject|fail' "$PHONE/wpa3.log" | tail -n 40 >&2
    rig_fail "the phone did not join with WPA3"
fi
ip netns exec phone wpa_cli -p /run/wpa-phone -i wlan1 status >"$PHONE/wpa3-status.txt" 2>&1
rig_log "WPA3: $(grep -E '^(key_mgmt|pmf|wpa_state)=' "$PHONE/wpa3-status.txt" | tr '\n' ' ')"
rig_assert "the phone joined with WPA3 (SAE)" grep -qx key_mgmt=SAE "$PHONE/wpa3-status.txt"
rig_assert "and reaches the gallery" ip netns exec phone python3 -c \
    'import http.client as h; c = h.HTTPConnection("10.42.0.1", 80, timeout=10); c.request("GET", "/"); assert c.getresponse().status in (200, 302, 303)'

# The phone's clock: the booth's is unsynchronised (no network time here), so the gallery asks the first signed-in
# phone for its time and sets the clock through timedated (polkit lets the gallery's user): forwards only, once.
# The phone is an hour ahead of the booth.
rig_log "$(sys_clock_status unsync)"
undated=$(sys_photo)
rig_assert "before the phone, photos are undated ($undated)" grep -qE '^\./HeyLook_undated_[0-9]{6,}\.jpg$' <<<"$undated"
clock_failed() {
    cat "$PHONE/clock.log" >&2
    journalctl -b -u heylook-gallery.service -o cat --no-pager | tail -20 >&2
    rig_fail "the phone's time did not set the booth's clock"
}
ntp=$(timedatectl show -p NTP --value 2>/dev/null)
clock_before=$(date +%s) mono_before=$(cut -d' ' -f1 /proc/uptime)
ip netns exec phone python3 - "$(cat "$PHONE/link")" "${undated#./}" <<'PY' >"$PHONE/clock.log" 2>&1 || clock_failed
import http.client, io, sys, time, urllib.parse, zipfile
host = urllib.parse.urlsplit(sys.argv[1]).hostname
def ask(method, path, headers={}, body=None):
    c = http.client.HTTPConnection(host, 80, timeout=20)
    c.request(method, path, body=body, headers={"Host": host, **headers})
    r = c.getresponse()
    return r.status, dict(r.getheaders()), r.read()
status, headers, _ = ask("GET", urllib.parse.urlsplit(sys.argv[1]).path + "?" + urllib.parse.urlsplit(sys.argv[1]).query)
cookie = {"Cookie": headers["Set-Cookie"].split(";")[0]}
form = {"Content-Type": "application/x-www-form-urlencoded"}
status, _, page = ask("GET", "/", cookie)
assert status == 200 and b'data-clock="ask"' in page, "the gallery does not ask for the phone's time"
phone = int(time.time() * 1000) + 3_600_000
status, _, answer = ask("POST", "/clock", form, f"t={phone}")
assert status == 401, f"without the code: {status} {answer}"
status, _, answer = ask("POST", "/clock", {**cookie, **form}, "t=soon")
assert status == 400, f"not a time: {status} {answer}"
status, _, answer = ask("POST", "/clock", {**cookie, **form}, "t=12")
assert status == 200 and answer == b"implausible\n", f"1970: {status} {answer}"
status, _, answer = ask("POST", "/clock", {**cookie, **form}, f"t={phone}")
assert status == 200 and answer == b"set\n", f"the phone's time: {status} {answer}"
offset = time.time() * 1000 - phone
assert -2000 < offset < 10000, f"the clock is {offset:.0f} ms from the phone's"
status, _, answer = ask("POST", "/clock", {**cookie, **form}, f"t={phone + 86_400_000}")
assert status == 200 and answer == b"already set\n", f"a second phone: {status} {answer}"
status, _, page = ask("GET", "/", cookie)
assert b'data-clock' not in page, "the gallery still asks for the time"
print(f"the phone's time set the clock (now {offset:+.0f} ms from it); a second phone was refused: already set")
# The photo saved undated before is dated now, from the monotonic time between it and the setting: it is in the
# phone's day's ZIP, with a time a little before the phone's.
day = time.strftime("%Y-%m-%d", time.localtime(phone / 1000))
status, _, body = ask("GET", f"/zip/day/{day}", cookie)
assert status == 200, f"the day's ZIP: {status}"
names = zipfile.ZipFile(io.BytesIO(body)).namelist()
assert sys.argv[2] in names, f"the undated photo {sys.argv[2]} is not in {day}'s ZIP: {names}"
taken = time.mktime(zipfile.ZipFile(io.BytesIO(body)).getinfo(sys.argv[2]).date_time + (0, 0, -1))
assert phone / 1000 - 600 < taken <= phone / 1000 + 2, f"dated {time.ctime(taken)}, the phone said {time.ctime(phone / 1000)}"
print(f"the photo saved undated is dated {time.ctime(taken)}, {phone / 1000 - taken:.0f} s before the phone's time")
PY
rig_log "$(cat "$PHONE/clock.log")"
forward=$(clock_forward)
rig_assert "the clock moved an hour forward ($forward s)" test "$forward" -ge 3500 -a "$forward" -le 3700
journalctl -b -u heylook-gallery.service -o cat --no-pager >"$RIG_OUT/gallery-journal.txt" 2>&1
rig_assert "the gallery's journal says the clock came from a phone" grep -q "clock set from a phone (10\.42\.0\." "$RIG_OUT/gallery-journal.txt"
booth doctor >"$RIG_OUT/doctor.txt" 2>&1 || true  # It counts the VM's missing camera as a problem.
rig_assert "booth doctor says the clock was set from a phone" grep -q "set from a phone (10\.42\.0\." "$RIG_OUT/doctor.txt"
dated=$(sys_photo)
today=$(date +%Y-%m-%d)
rig_log "after the phone: $dated"
rig_assert "the next photo is dated ($dated)" grep -qE "^\./HeyLook_${today}_[0-9]{2}-[0-9]{2}-[0-9]{2}_[0-9]{6,}\.jpg$" <<<"$dated"
# With that save the booth wrote the earlier undated photo's date in its index, where it outlives the mark.
line=$(grep "^photo ${undated#./} " "$SYS_PHOTOS/index.txt" || true)
rig_log "its index line: $line"
seconds=${line##*=}
rig_assert "the booth's index dates the photo saved undated, a little before the phone's time" \
    test -n "$seconds" -a "${seconds//[0-9]/}" = "" -a "$seconds" -gt $(($(date +%s) - 900)) -a "$seconds" -le "$(date +%s)"
# The next export puts it on a stick as a dated copy: named with its date and time, its EXIF dated, every other byte
# the photo's. By hand, into a folder, as the booth's user (the booth's own export is the same code).
export_dir=$(mktemp -d)
chown booth "$export_dir"
runuser -u booth -- booth export --to "$export_dir" >"$RIG_OUT/export.log" 2>&1 \
    || { cat "$RIG_OUT/export.log" >&2; rig_fail "booth export failed"; }
sequence=${undated##*_}
copy=$(cd "$export_dir/HeyLook" && find . -name "HeyLook_*_$sequence" | head -n 1)
rig_log "the photo saved undated went out as $copy"
rig_assert "as a dated copy in its day's folder" \
    grep -qE "^\./[0-9]{4}-[0-9]{2}-[0-9]{2}/HeyLook_[0-9]{4}-[0-9]{2}-[0-9]{2}_[0-9]{2}-[0-9]{2}-[0-9]{2}_$sequence\$" <<<"$copy"
rig_assert "the photo with its date in its EXIF, every other byte the same (usbcheck)" \
    python3 "$RIG_DIR/lib/usbcheck.py" compare "$SYS_PHOTOS" "$export_dir/HeyLook" --complete
rm -rf "$export_dir"
clock_back
rig_log "the clock set back an hour for the next scenarios: $(date '+%F %T')"

# It survives a reboot: the radios are there at boot (as a Pi's own), and NetworkManager starts the profile itself.
echo mac80211_hwsim >/etc/modules-load.d/rig-hwsim.conf
echo "options mac80211_hwsim radios=2" >/etc/modprobe.d/rig-hwsim.conf
rebooting=1
rig_reboot
