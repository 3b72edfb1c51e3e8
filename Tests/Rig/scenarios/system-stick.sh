# system-stick: the whole stick path of the installed system. A FAT stick is hot-plugged; the package's udev rule
# has systemd-mount mount it below /media/heylook, nosuid,nodev,noexec, after its own fsck (both checked); the booth
# (export.sticks = "owner", as shipped) gives the new stick nothing and shows it (the first and last LED in turn)
# until the knob's switch is held, which makes it the owner's (its id in /var/lib/heylook/owner-sticks.txt); it then
# exports every photo, then stops the mount unit over D-Bus (polkit allows the booth's user that verb on those units;
# the service has no capability) and says "safe to remove" (in the journal, and on the LEDs until the stick is
# pulled); the stick is pulled and holds every photo. A tmpfs and an ext4 disk mounted below the media root are
# refused and stay mounted and untouched.
# shellcheck shell=bash
# rig-vm: system
# rig-timeout: 240
sys_wait_ready 60
pid=$(sys_pid)
rig_assert "the booth has no capability (CapEff $(sys_cap_eff "$pid"))" test "$(sys_cap_eff "$pid")" = 0000000000000000
(($(sys_photo_count) > 0)) || sys_photo >/dev/null
photos=$(sys_photo_count)

# Mounts the booth must refuse (not FAT or exFAT): a tmpfs and an ext4 disk.
mkdir -p /media/heylook/rig-tmpfs /media/heylook/rig-ext4
mount -t tmpfs -o size=4m tmpfs /media/heylook/rig-tmpfs
echo keep >/media/heylook/rig-tmpfs/keep.txt
truncate -s 16M /var/tmp/rig-ext4.img
mkfs.ext4 -q -F /var/tmp/rig-ext4.img
mount -o loop /var/tmp/rig-ext4.img /media/heylook/rig-ext4
echo keep >/media/heylook/rig-ext4/keep.txt

rig_usb_image "$RIG_OUT/stick.img" 64
unknown=$(sys_event_count stickUnknown)
plugged=$(date '+%Y-%m-%d %H:%M:%S')
dev=$(rig_usb_plug "$RIG_OUT/stick.img")
rig_wait_for 30 "udev and systemd-mount to mount $dev" findmnt -n "$dev"
point=$(findmnt -n -o TARGET "$dev")
unit=$(systemd-escape --path --suffix=mount "$point")
options=$(findmnt -n -o OPTIONS "$dev")
rig_log "ok: $dev mounted on $point ($unit, $(findmnt -n -o FSTYPE "$dev"), $options)"
for o in nosuid nodev noexec; do
    rig_assert "the stick is mounted $o" grep -qE "(^|,)$o(,|$)" <<<"$options"
done
rig_wait_for 30 "the booth to refuse the new stick" sys_has_event stickUnknown $((unknown + 1))
rig_gpio_sample "$RIG_OUT/leds-unknown" 2000 20 "$SYS_CHIP" "${SYS_LEDS[@]}"
rig_assert "the LEDs light the first and the last LED in turn" \
    bash -c "grep -q ' 1 0 0 0$' '$RIG_OUT/leds-unknown' && grep -q ' 0 0 0 1$' '$RIG_OUT/leds-unknown'"
rig_assert "nothing was written to the unknown stick" test ! -e "$point/HeyLook"
sys_claim_stick $((unknown + 1))
rig_assert "owner-sticks.txt names one stick" test "$(wc -l <"$SYS_STATE/owner-sticks.txt")" -ge 1
rig_wait_for 90 "the booth's 'safe to remove'" bash -c "journalctl -b -u $SYS_UNIT -o cat | grep -qF 'copied to $point; unmounted: safe to remove'"
sys_journal | grep -F "$point" >&2
rig_assert "the stick is unmounted" bash -c "! findmnt -n '$dev' >/dev/null"
# The service has a mount namespace of its own, a slave of the system's: the mount reached it (the booth exported
# there) and the unmount must too, or the booth would still hold the stick it called safe to remove.
nsenter -t "$pid" -m findmnt -n -r -o TARGET >"$RIG_OUT/booth-mounts.txt" || rig_fail "cannot read the booth's mounts"
rig_assert "the booth's namespace was read (its / is there)" grep -qx / "$RIG_OUT/booth-mounts.txt"
rig_assert "the stick is unmounted in the booth's own mount namespace" bash -c "! grep -qxF '$point' '$RIG_OUT/booth-mounts.txt'"
rig_assert "systemd stopped $unit" bash -c "[[ \$(systemctl show -p ActiveState --value '$unit') != active ]]"
rig_assert "systemd did the unmount" bash -c "journalctl -b -o cat | grep -q 'Unmounted.*$point\|Unmounted media-heylook'"
# This stick's own fsck finished before its mount: since the plug, the journal's line for its mount comes after the
# fsck unit's. Fails with the udev rule's --fsck=yes dropped.
fsck_unit=$(systemd-escape --template=systemd-fsck@.service --path "$dev")
journalctl -b --since "$plugged" -o short-monotonic --no-pager >"$RIG_OUT/journal.txt"
checked=$(grep -nF "Finished $fsck_unit" "$RIG_OUT/journal.txt" | head -1 | cut -d: -f1)
mounted=$(grep -nF -e "Mounted $point" -e "Mounted $unit" "$RIG_OUT/journal.txt" | head -1 | cut -d: -f1)
rig_log "journal lines: fsck of $dev ($fsck_unit) finished at ${checked:-none}, mounted at ${mounted:-none}"
rig_assert "this stick's fsck finished before its mount" test "${checked:-999999}" -lt "${mounted:-0}"
# The LEDs: all four blink slowly while the unmounted stick is still plugged in, and go dark once it is pulled
# (the booth watches its block device: mountinfo said all it had to say at the unmount).
rig_gpio_sample "$RIG_OUT/leds-safe" 3000 20 "$SYS_CHIP" "${SYS_LEDS[@]}"
rig_assert "the LEDs blink 'safe to remove'" grep -q ' 1 1 1 1$' "$RIG_OUT/leds-safe"
rig_usb_pull
sleep 1
rig_gpio_sample "$RIG_OUT/leds-pulled" 2000 20 "$SYS_CHIP" "${SYS_LEDS[@]}"
rig_assert "the LEDs leave 'safe to remove' once the stick is pulled" bash -c "! grep -q ' 1' '$RIG_OUT/leds-pulled'"

mkdir -p "$RIG_STATE/check"
mount -t vfat -o ro,loop "$RIG_OUT/stick.img" "$RIG_STATE/check"
on_stick=$(find "$RIG_STATE/check/HeyLook" -path '*/layouts' -prune -o -name '*.jpg' -print | wc -l)
rig_assert "the stick holds all $photos photo(s) (found $on_stick)" test "$on_stick" -eq "$photos"
# The print layouts system-print left in the store follow in a folder of their own, byte for byte.
for kept in "$SYS_PHOTOS"/layouts/*.jpg; do
    [[ -e $kept ]] || continue
    rig_assert "the stick holds the layout ${kept##*/} in layouts/" cmp "$kept" "$RIG_STATE/check/HeyLook/layouts/${kept##*/}"
done
rig_assert "the manifest is there" test -s "$RIG_STATE/check/HeyLook/manifest.txt"
umount "$RIG_STATE/check"

for m in rig-tmpfs rig-ext4; do
    rig_assert "/media/heylook/$m is still mounted" findmnt -n "/media/heylook/$m"
    left=$(find "/media/heylook/$m" -mindepth 1 -maxdepth 1 ! -name lost+found -printf '%f ')
    rig_assert "/media/heylook/$m is untouched ($left)" test "$left" = "keep.txt "
done
sys_journal | grep -e rig-tmpfs -e rig-ext4 >&2 || true
