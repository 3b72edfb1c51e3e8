# Helpers for the system-* scenarios (sourced inside the system VM, a whole Debian 12 with systemd): the booth as
# installed from its .deb, running as heylook-booth.service on the devices lib/system-devices.sh made at boot.
# shellcheck shell=bash
# shellcheck source=SCRIPTDIR/rig.sh
source "$RIG_DIR/lib/rig.sh"

SYS_UNIT=heylook-booth.service
SYS_STATE=/var/lib/heylook
SYS_PHOTOS=$SYS_STATE/photos
SYS_CONFIG=/etc/heylook/booth.toml
SYS_CHIP=pinctrl-bcm2711 # the gpio-sim chip; lines by the default config's BCM numbers
# shellcheck disable=SC2034 # used by the scenarios
SYS_BUTTON=GPIO17 SYS_KNOB_A=GPIO5 SYS_KNOB_B=GPIO6 SYS_KNOB_SWITCH=GPIO13 SYS_LEDS=(GPIO22 GPIO23 GPIO24 GPIO25)

# The scenarios share one system (installed by system-install): teardown stops only what a scenario started, never
# the devices made at boot nor the service.
rig_teardown() {
    set +e
    local pids m
    mapfile -t pids < <(jobs -p)
    ((${#pids[@]})) && kill "${pids[@]}" 2>/dev/null && wait 2>/dev/null
    while read -r _ m _; do [[ $m == "$RIG_STATE"/* || $m == /media/heylook/rig-* ]] && umount -l "$m"; done \
        < <(tac /proc/mounts)
    [[ -e $RIG_STATE/usb-plugged ]] && rig_usb_pull
    return 0
}

# rig_reboot: reboots the VM (the host boots the same disk again) and runs this scenario once more after the boot;
# the scenario tells the two runs apart with sys_booted_again.
rig_reboot() {
    date +%s >"$RIG_OUT/.rebooted"
    touch "$RIG_REBOOT_FLAG"
    rig_log "rebooting"
    exit 0
}

# sys_booted_again: succeeds in the run after rig_reboot.
sys_booted_again() { [[ -e $RIG_OUT/.rebooted ]]; }

# sys_prop PROPERTY [UNIT]: prints a unit's property (systemctl show --value).
sys_prop() { systemctl show -p "$1" --value "${2:-$SYS_UNIT}"; }

# sys_seconds TIMESPAN: prints a systemd time span ("10s", "1min 30s") in whole seconds.
sys_seconds() { systemd-analyze timespan "$1" | awk '$1 == "μs:" { print int($2 / 1000000) }'; }

# sys_ready: succeeds when the service is active, i.e. the booth sent READY=1 (Type=notify), and not restarting.
sys_ready() {
    local states
    states=$(systemctl show -p ActiveState -p SubState --value "$SYS_UNIT") # one systemctl per poll, not two
    [[ $states == $'active\nrunning' || $states == $'running\nactive' ]]
}

# sys_wait_ready SECONDS: waits for sys_ready (until rig_deadline SECONDS); on timeout prints the unit's journal.
sys_wait_ready() {
    rig_wait_for_quiet "$1" sys_ready && return 0
    systemctl status --no-pager "$SYS_UNIT" >&2
    sys_journal | tail -30 >&2
    rig_fail "$SYS_UNIT not ready after $RIG_DEADLINE_S s"
}

# sys_journal: the service's journal of this boot, as plain lines.
sys_journal() { journalctl -b -u "$SYS_UNIT" -o cat --no-pager; }

# sys_pid: the booth's main PID.
sys_pid() { sys_prop MainPID; }

# sys_stop_traced FILE: `systemctl stop` of the booth while FILE gets, every 0.1 s, the processes in its cgroup and each
# of their threads (name, state, wait channel, kernel stack): where a slow stop spends its time. The sampler reads with
# builtins only (a fork under emulation costs milliseconds) and ends when the stop does.
sys_stop_traced() {
    local cgroup sampler
    cgroup=/sys/fs/cgroup$(sys_prop ControlGroup)
    rig_sleep_ms 1 # makes the sleep fifo here, not in the sampler's loop
    (
        set +e # threads come and go between the reads
        local pid task comm stat wchan stack
        while mapfile -t pids <"$cgroup/cgroup.procs" && ((${#pids[@]})); do
            printf -- '--- %s\n' "$EPOCHREALTIME"
            for pid in "${pids[@]}"; do
                for task in /proc/"$pid"/task/*; do
                    read -r comm <"$task/comm" && read -r stat <"$task/stat" || continue
                    wchan='' && read -r wchan <"$task/wchan" # no newline at its end: read fails, yet sets it
                    wchan=${wchan:-?}
                    mapfile -t stack <"$task/stack" || stack=()
                    stat=${stat##*) }
                    printf '%s %s %s %s\n' "$pid/${task##*/}" "$comm" "${stat%% *}" "$wchan"
                    ((${#stack[@]} == 0)) || printf '    %s\n' "${stack[@]}"
                done
            done
            rig_sleep_ms 100
        done
    ) >"$1" 2>/dev/null &
    sampler=$!
    systemctl stop "$SYS_UNIT"
    kill "$sampler" 2>/dev/null || true # it may have ended with the cgroup
    wait "$sampler" || true
}

# sys_photos: lists the photos kept in the store (not the discarded ones, nor print layouts), relative to the store,
# sorted.
sys_photos() { (cd "$SYS_PHOTOS" && find . \( -path ./discarded -o -path ./layouts \) -prune -o -name '*.jpg' -print | sort); }

# sys_photo_count: prints how many photos the store keeps.
sys_photo_count() { sys_photos | wc -l; }

# sys_has_photos N: succeeds when the store keeps at least N photos (for rig_wait_for).
sys_has_photos() { (($(sys_photo_count) >= $1)); }

# sys_click: a 400 ms press of the button (GPIO17) on the simulated header, a firm press. gpio-sim drops an edge that
# comes while its IRQ thread is still pending, so a guest starved longer than the press loses the click: with both
# VMs and one busy loop per host core, 100 ms presses were lost in system-clock and system-late-devices.
sys_click() { rig_gpio_click "$SYS_CHIP" "$SYS_BUTTON" 400; }

# sys_new_photo LIST: succeeds when the store keeps a photo that is not in LIST (sys_photos' output).
sys_new_photo() { [[ -n $(comm -13 <(printf '%s\n' "$1") <(sys_photos)) ]]; }

# sys_photo: one click, and a new photo kept within 30 s (a dropped click fails); prints the new photo's name. A click
# that a host starving the guest stretches past gpio.long_press_ms while its sequence runs is a retake (the booth does
# what the line says): the photo before it moves to discarded/ and the new one replaces it. That is logged, not failed.
sys_photo() {
    local list before
    list=$(sys_photos)
    before=$(sys_photo_count)
    sys_click
    if ! rig_wait_for_quiet 30 sys_new_photo "$list"; then
        sys_journal | tail -20 >&2
        echo "---- retakes (discarded/) and the booth's last events ----" >&2
        ls "$SYS_PHOTOS/discarded" >&2 || true
        tail -8 "$SYS_STATE/events.jsonl" >&2 || true
        rig_fail "one click gave no photo within $RIG_DEADLINE_S s (the booth's journal and events are above)"
    fi
    if (($(sys_photo_count) == before)); then
        rig_log "the click was held as a long press (the host starved the guest): a retake; discarded/ holds" \
            "$(ls "$SYS_PHOTOS/discarded" | tr '\n' ' ')"
    fi
    comm -13 <(printf '%s\n' "$list") <(sys_photos) | tail -1
}

# sys_clock_status unsync|sync: sets the kernel's clock status as at boot (STA_UNSYNC, the maximum error at its 16 s
# limit) or as an NTP daemon leaves it (no STA_UNSYNC, a small maximum error). The booth reads STA_UNSYNC;
# systemd-timedated's NTPSynchronized (which the gallery reads) reads the maximum error.
sys_clock_status() {
    "$RIG_PY" - "$1" <<'PY'
import ctypes, sys
class Timex(ctypes.Structure):  # struct timex's first fields (x86-64 and aarch64), then room for the rest
    _fields_ = [("modes", ctypes.c_uint), ("offset", ctypes.c_long), ("freq", ctypes.c_long),
                ("maxerror", ctypes.c_long), ("esterror", ctypes.c_long), ("status", ctypes.c_int),
                ("rest", ctypes.c_byte * 256)]
ADJ_MAXERROR, ADJ_ESTERROR, ADJ_STATUS, STA_UNSYNC = 0x4, 0x8, 0x10, 0x40
unsync = sys.argv[1] == "unsync"
error = 16_000_000 if unsync else 1000  # microseconds
t = Timex(modes=ADJ_STATUS | ADJ_MAXERROR | ADJ_ESTERROR, status=STA_UNSYNC if unsync else 0, maxerror=error,
          esterror=error)
libc = ctypes.CDLL(None, use_errno=True)
state = libc.adjtimex(ctypes.byref(t))
if state < 0:
    sys.exit(f"adjtimex: errno {ctypes.get_errno()}")
print(f"clock state {state}, status {t.status:#x}, maximum error {t.maxerror} us")
PY
}

# rig_wait_for_quiet SECONDS COMMAND...: like rig_wait_for (ends at rig_deadline SECONDS), but returns 1 on timeout
# instead of failing.
rig_wait_for_quiet() {
    local deadline now rig_poll_start
    rig_deadline deadline "$1"
    shift
    rig_now_ms rig_poll_start
    until "$@"; do
        rig_now_ms now
        ((now < deadline)) || return 1
        rig_poll_pause $((now - rig_poll_start)) 100
        rig_now_ms rig_poll_start
    done
}

# sys_event_count TYPE: prints how many TYPE events the service kept so far (/var/lib/heylook/events.jsonl).
sys_event_count() { rig_count_in "$SYS_STATE/events.jsonl" "\"type\":\"$1\"" && echo "$RIG_COUNT"; }

# sys_has_event TYPE N: succeeds when the service kept at least N TYPE events (for rig_wait_for).
sys_has_event() { rig_count_in "$SYS_STATE/events.jsonl" "\"type\":\"$1\"" && ((RIG_COUNT >= $2)); }

# sys_claim_stick N: waits for the service's Nth stickUnknown event (a stick that is not the owner's got nothing),
# then holds the knob's switch for 1.5 s, as the owner does once per stick, and waits for the stick to be taken
# (stickClaimed).
sys_claim_stick() {
    local claimed
    claimed=$(sys_event_count stickClaimed)
    rig_wait_for 30 "the booth to refuse the stick as not the owner's (stickUnknown #$1)" sys_has_event stickUnknown "$1"
    rig_gpio_click "$SYS_CHIP" "$SYS_KNOB_SWITCH" 1500
    rig_wait_for 10 "the booth to make the stick the owner's" sys_has_event stickClaimed $((claimed + 1))
}

# sys_config KEY VALUE: sets `KEY = VALUE` in /etc/heylook/booth.toml (the line must exist), as a person would.
sys_config() {
    grep -q "^$1 *=" "$SYS_CONFIG" || rig_fail "$SYS_CONFIG has no line for $1"
    sed -i "s|^$1 *=[^#]*|$1 = $2  |" "$SYS_CONFIG"
}

# sys_cap_eff PID: prints the effective capability mask of PID (hex).
sys_cap_eff() { sed -n 's/^CapEff:\t//p' "/proc/$1/status"; }

# sys_gallery_check CODE NAME...: the gallery on port 80 as a client on the VM's loopback sees it: the code page, an
# original refused without the code, CODE accepted, every NAME (a photo's file name) listed, the last one's original
# the store's bytes and its thumbnail a JPEG. Prints what it saw; fails with the first thing that is wrong.
sys_gallery_check() {
    local code=$1
    shift
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
