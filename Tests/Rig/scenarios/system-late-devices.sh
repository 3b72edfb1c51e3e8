# system-late-devices: the camera and the sound card appear after the booth started (on a Pi their modules often load
# after the service starts). With every module of the device classes unloaded, the service starts: it loads the
# classes' core modules first (snd, videodev, mc), so its DeviceAllow= list names alsa, video4linux and media; then
# vimc and snd-aloop load, and the booth finds both by itself and takes a photo, with no restart. Fails without the
# unit's modprobe@ lines: the classes are dropped from the allow list and the devices open with EPERM until a restart.
# shellcheck shell=bash
# rig-vm: system
# rig-timeout: 240
sys_wait_ready 60
systemctl stop "$SYS_UNIT"
modprobe -r vimc snd-aloop || rig_fail "cannot unload vimc and snd-aloop"
# What they leave loaded of the classes' modules (ALSA's core and timer, videodev, mc, ...), unused ones first.
classes='^(snd|soundcore|videodev|mc|v4l2|videobuf2)'
for _ in 1 2 3 4 5; do
    lsmod | awk -v re="$classes" 'NR > 1 && $1 ~ re && $3 == 0 { print $1 }' | xargs -r rmmod
done
rig_assert "every module of the classes is unloaded ($(lsmod | awk -v re="$classes" 'NR > 1 && $1 ~ re { print $1 }' | xargs))" \
    bash -c "! lsmod | awk -v re='$classes' 'NR > 1 && \$1 ~ re' | grep -q ."
for class in alsa video4linux media; do
    rig_assert "no $class devices registered" bash -c "! awk '{ print \$2 }' /proc/devices | grep -qx $class"
done
since=$(date '+%Y-%m-%d %H:%M:%S')
systemctl start "$SYS_UNIT"
sys_wait_ready 60
pid=$(sys_pid)
for class in alsa video4linux media; do
    rig_assert "the unit loaded the $class class before the booth" bash -c "awk '{ print \$2 }' /proc/devices | grep -qx $class"
done
rig_log "the booth started without devices: $(journalctl -b -u "$SYS_UNIT" --since "$since" -o cat | grep -e camera -e sound | head -3 | tr "\n" " ")"

rig_modprobe vimc snd-aloop
rig_wait_for 20 "vimc's media node" compgen -G '/dev/media*' >/dev/null
rig_wait_for 20 "the Loopback sound card" test -e /proc/asound/Loopback
rig_wait_for 90 "the booth to find the camera" bash -c "journalctl -b -u '$SYS_UNIT' --since '$since' -o cat | grep -q '^camera is back'"
rig_wait_for 90 "the booth to find the sound card" bash -c "journalctl -b -u '$SYS_UNIT' --since '$since' -o cat | grep -q '^sound is back'"
photo=$(sys_photo)
rig_log "ok: photo $photo"
rig_assert "the photo is a JPEG" bash -c "head -c 3 '$SYS_PHOTOS/$photo' | od -An -tx1 | grep -q 'ff d8 ff'"
rig_assert "no restart: the booth is the same process ($pid)" test "$(sys_pid)" = "$pid"
rig_assert "nothing was refused (EPERM)" bash -c "! journalctl -b -u '$SYS_UNIT' --since '$since' -o cat | grep -q 'Operation not permitted'"
