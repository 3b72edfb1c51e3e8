# system-install: `dpkg -i` of the booth's package on a whole Debian 12 (systemd, udev, D-Bus, polkit, no network):
# the service reaches READY (Type=notify) on its own, every file under the state folder is the booth user's, and a
# photo and a retake work through the installed service after a config edit (camera size, as a user adapts it).
# Through all of it the service's journal holds no line of priority warning or above (the booth's warnings and errors,
# systemd's about the unit) but those listed in `expected` below, each with its reason, and no permission error at
# any priority; dpkg itself printed no error or warning. Mutation: a sound file the booth rejects in its sounds
# folder (it logs "warning: sound: ..." at each start) passed the old check, which printed the journal's warning
# lines and let every one but EACCES pass.
# shellcheck shell=bash
# rig-vm: system
# rig-order: first
# rig-timeout: 240
rig_log "installing $SYS_VERSION"
start=$(cut -d' ' -f1 /proc/uptime)
dpkg -i "$RIG_WORK/debs/current.deb" >"$RIG_OUT/dpkg.log" 2>&1 || { cat "$RIG_OUT/dpkg.log" >&2; rig_fail "dpkg -i failed"; }
# What dpkg printed is what a user sees at the install: no error or warning from the maintainer scripts. Mutation:
# the postinst's old gallery code (tr reading /dev/urandom into a pipe head closed) printed "tr: write error: Broken
# pipe" under dpkg, which ignores SIGPIPE.
rig_assert "dpkg -i printed no error or warning ($(grep -ci -e error -e warning "$RIG_OUT/dpkg.log") lines)" \
    bash -c "! grep -qi -e error -e warning '$RIG_OUT/dpkg.log'"
sys_wait_ready 60
ready_us=$(sys_prop ActiveEnterTimestampMonotonic)
rig_log "ok: installed and READY $(awk -v a="$start" -v b="$ready_us" 'BEGIN { printf "%.1f", b / 1e6 - a }') s after dpkg -i started"
rig_assert "the service is enabled" test "$(systemctl is-enabled "$SYS_UNIT")" = enabled
rig_assert "the booth found the simulated header (gpio:auto)" grep -q 'ready: input gpio:auto' <(sys_journal)

# A user's edit: the camera's size (the rig's small camera: lib/rig.sh says why), a longer review window for the
# retake.
sys_config width "$RIG_CAMERA_WIDTH"
sys_config height "$RIG_CAMERA_HEIGHT"
sys_config review_window 20.0
systemctl restart "$SYS_UNIT"
sys_wait_ready 60

first=$(sys_photo)
rig_log "ok: photo $first"
# Retake: hold the button within the review window; the photo moves to discarded/ and a new one is taken.
rig_gpio_press "$SYS_CHIP" "$SYS_BUTTON"
rig_wait_for 15 "the first photo to move to discarded/" test -e "$SYS_PHOTOS/discarded/$(basename "$first")"
rig_gpio_release "$SYS_CHIP" "$SYS_BUTTON"
rig_wait_for 30 "the retaken photo" sys_has_photos 1
rig_assert "no permission error in the journal" bash -c "! journalctl -b -u $SYS_UNIT | grep -q -e EACCES -e 'ermission denied'"
# Lines of priority warning or above that a healthy install, restart, photo and retake log (fixed strings), each with
# why it is expected. None today.
expected=()
journalctl -q -b -u "$SYS_UNIT" -o cat --no-pager >"$RIG_OUT/journal.txt"
journalctl -q -b -u "$SYS_UNIT" -p warning -o cat --no-pager >"$RIG_OUT/journal-warnings.txt"
unexpected=$(grep -v -F -x "${expected[@]/#/-e}" -e '-- No entries --' "$RIG_OUT/journal-warnings.txt" || true)
[[ -z $unexpected ]] || rig_fail "the service's journal has warnings or errors no healthy install logs: $unexpected"
rig_log "ok: no warning or error in the service's journal ($(wc -l <"$RIG_OUT/journal.txt") lines)"
others=$(find "$SYS_STATE" ! -user booth -printf '%u:%g %p\n')
[[ -z $others ]] || rig_fail "files under $SYS_STATE not owned by booth: $others"
rig_log "ok: everything under $SYS_STATE is the booth user's ($(find "$SYS_STATE" | wc -l) entries)"
find "$SYS_STATE" -printf '%u:%g %m %p\n' >"$RIG_OUT/state-folder.txt"
