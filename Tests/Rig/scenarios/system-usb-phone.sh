# system-usb-phone: a phone charging on the booth's USB is no camera. QEMU's usb-mtp (an MTP device of the still-image
# class, as a phone in MTP mode) is plugged into the installed system; Debian's libgphoto2 rules give its node to
# group plugdev. With camera.backend = "auto" the booth, in its sandbox, sees a still-image interface in sysfs, asks
# libgphoto2, which finds the device and knows it cannot take photos; the booth says so and keeps libcamera: a photo
# is taken. `booth doctor` lists it as one that cannot take photos. Fails when auto takes an MTP device for a camera
# (no photo), or when the sandbox hides USB devices from the booth (no line about it). The booth's user (with the
# service's groups) can open the still-image device's node read-write, and a stick's node (plugged beside it) not:
# `DeviceAllow=char-usb_device` lets the service reach every USB node, and the file modes open only still-image
# devices to it. Fails when a rule gives the booth every USB device (the stick's node opens). Not proven here: the
# booth opening a camera's node in its sandbox (QEMU has no USB device that can take photos).
# shellcheck shell=bash
# rig-vm: system
# rig-timeout: 240
sys_wait_ready 60
rig_modprobe xhci_pci
mkdir -p "$RIG_OUT/phone/DCIM"
printf 'not a photo\n' >"$RIG_OUT/phone/DCIM/notes.txt"
before=$(ls /sys/bus/usb/devices)
rig_monitor "device_add usb-mtp,id=phone,rootdir=$(rig_host_path "$RIG_OUT/phone"),readonly=on,desc=RigPhone,bus=xhci.0" >&2
phone_sysfs() {
    local d
    for d in /sys/bus/usb/devices/*; do
        [[ -e $d/idVendor && " ${before//$'\n'/ } " != *" $(basename "$d") "* ]] || continue
        echo "$d"
        return 0
    done
    return 1
}
rig_wait_for 20 "the MTP device on USB" phone_sysfs >/dev/null
dev=$(phone_sysfs)
node=$(printf '/dev/bus/usb/%03d/%03d' "$(cat "$dev/busnum")" "$(cat "$dev/devnum")")
rig_log "the phone: $(cat "$dev/idVendor"):$(cat "$dev/idProduct") $(cat "$dev/product" 2>/dev/null) at $node"
rig_wait_for 10 "its node $node" test -e "$node"
udevadm settle
rig_assert "Debian's libgphoto2 rules give it to group plugdev ($(stat -c '%G %a' "$node"))" \
    test "$(stat -c %G "$node")" = plugdev
# opens_rw NODE: the booth's user, with its own groups (those the service runs with), opens NODE read-write.
opens_rw() { setpriv --reuid=booth --regid=booth --init-groups bash -c 'exec 3<>"$1"' opens_rw "$1" 2>/dev/null; }
rig_assert "the booth's user can open its node read-write" opens_rw "$node"
truncate -s 4M "$RIG_OUT/stick.img"
before_stick=$(ls /sys/bus/usb/devices)
rig_usb_plug "$RIG_OUT/stick.img" >/dev/null
stick_node=''
for d in /sys/bus/usb/devices/*; do
    [[ -e $d/idVendor && " ${before_stick//$'\n'/ } " != *" $(basename "$d") "* ]] || continue
    stick_node=$(printf '/dev/bus/usb/%03d/%03d' "$(cat "$d/busnum")" "$(cat "$d/devnum")")
done
[[ -n $stick_node ]] || rig_fail "the stick's USB device is not in sysfs"
udevadm settle
rig_log "the stick's node $stick_node: $(stat -c '%U:%G %a' "$stick_node")"
stays_closed() { ! opens_rw "$1"; }
rig_assert "a stick's USB node stays closed to the booth's user" stays_closed "$stick_node"
rig_usb_pull

since=$(date '+%Y-%m-%d %H:%M:%S')
systemctl restart "$SYS_UNIT"
sys_wait_ready 60
journal() { journalctl -b -u "$SYS_UNIT" --since "$since" -o cat --no-pager; }
rig_log "the booth: $(journal | grep -m1 'over USB' || echo 'said nothing about USB')"
rig_assert "the booth found it over USB in its sandbox, as one that cannot take photos" \
    bash -c "journalctl -b -u '$SYS_UNIT' --since '$since' -o cat | grep -q 'over USB libgphoto2 finds .*(cannot take photos); libcamera drives the camera'"
rig_assert "libcamera drives the camera" bash -c "! journalctl -b -u '$SYS_UNIT' --since '$since' -o cat | grep -q 'libgphoto2 drives it'"
photo=$(sys_photo)
rig_log "ok: photo $photo"
rig_assert "the photo is a JPEG" bash -c "head -c 3 '$SYS_PHOTOS/$photo' | od -An -tx1 | grep -q 'ff d8 ff'"
booth doctor >"$RIG_OUT/doctor.txt" 2>&1 || true
rig_log "doctor: $(grep 'USB:' "$RIG_OUT/doctor.txt" | tr '\n' ' ')"
rig_assert "booth doctor lists it as one that cannot take photos" grep -q 'USB: .*(cannot take photos)' "$RIG_OUT/doctor.txt"
rig_monitor "device_del phone" >&2
rig_wait_for 20 "the phone to go" test ! -e "$dev"
