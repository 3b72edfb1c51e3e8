#!/bin/bash
# Run at every boot of the system VM by rig-devices.service, before the booth's service: the Pi's hardware, made of
# real drivers. gpio-sim is a 58-line chip labelled pinctrl-bcm2711 with lines GPIO0..GPIO57 (what `gpio.chip = "auto"`
# and the BCM numbers of the default config find on a Pi 4), vimc is the camera, snd-aloop the only sound card.
export RIG_KROOT=/ RIG_OUT=/run/rig/devices
mkdir -p "$RIG_OUT"
# Its log (each step's uptime) goes to the journal and to the work share, one file a boot (devices.BOOT.log), where
# the host's time table can be explained.
exec 2> >(tee -a "/rig/devices.$(cat /rig/system-boots 2>/dev/null || echo 0).log" >&2)
# shellcheck source=SCRIPTDIR/rig.sh
source "$(dirname "${BASH_SOURCE[0]}")/rig.sh"
names=()
for ((i = 0; i < 58; i++)); do names+=("GPIO$i"); done
rig_log "devices: starting"
rig_gpio_sim_add pinctrl-bcm2711 "${names[@]}" >/dev/null
rig_log "devices: gpio-sim live"
rig_modprobe vimc snd-aloop
rig_log "devices: vimc and snd-aloop loaded"
rig_wait_for 20 "vimc's media node" compgen -G '/dev/media*' >/dev/null
rig_wait_for 20 "the Loopback sound card" test -e /proc/asound/Loopback
rig_log "devices: nodes there"
udevadm settle -t 20
rig_log "devices ready: $(cat /run/rig/gpio/pinctrl-bcm2711/chip) (pinctrl-bcm2711), $(echo /dev/media* /dev/video*)"
