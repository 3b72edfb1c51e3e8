# system-clock: the installed, sandboxed service reads whether the kernel's clock is synchronised (adjtimex) and
# dates photos only then: before network time a photo is HeyLook_undated_N.jpg with no EXIF date; once the clock is
# marked synchronised (as timesyncd or chrony does) the next photo carries the date in its name and its EXIF.
# shellcheck shell=bash
# rig-vm: system
# rig-timeout: 120

# exif_date PHOTO: prints the photo's EXIF dateTime as `booth inspect` reads it ("null" when there is none).
exif_date() { booth inspect "$SYS_PHOTOS/$1" | "$RIG_PY" -c 'import json, sys; print(json.load(sys.stdin)["dateTime"] or "null")'; }

sys_wait_ready 60
rig_log "$(sys_clock_status unsync)"
systemctl restart "$SYS_UNIT"
sys_wait_ready 60
rig_assert "the service read the clock's status in its sandbox (journal: clock unsynchronised)" \
    bash -c "journalctl -b -u '$SYS_UNIT' -o cat --no-pager | grep -q '^clock unsynchronised: photos are undated'"
rig_assert "no adjtimex error in the journal" bash -c "! journalctl -b -u '$SYS_UNIT' -o cat --no-pager | grep -q 'adjtimex'"
undated=$(sys_photo)
rig_log "not synchronised: $undated, EXIF date $(exif_date "$undated")"
rig_assert "named by number alone ($undated)" grep -qE '^\./HeyLook_undated_[0-9]{6,}\.jpg$' <<<"$undated"
rig_assert "no EXIF date" test "$(exif_date "$undated")" = null

rig_log "$(sys_clock_status sync)"
dated=$(sys_photo)
today=$(date +%Y-%m-%d)
rig_log "synchronised: $dated, EXIF date $(exif_date "$dated")"
rig_assert "dated today ($dated)" grep -qE "^\./HeyLook_${today}_[0-9]{2}-[0-9]{2}-[0-9]{2}_[0-9]{6,}\.jpg$" <<<"$dated"
rig_assert "the EXIF date is today's" grep -q "^${today//-/:} " <<<"$(exif_date "$dated")"
n_undated=${undated##*_}
n_dated=${dated##*_}
rig_assert "numbered in order (${n_undated%.jpg} then ${n_dated%.jpg})" test "$((10#${n_dated%.jpg}))" -gt "$((10#${n_undated%.jpg}))"
rig_log "$(sys_clock_status unsync)"
