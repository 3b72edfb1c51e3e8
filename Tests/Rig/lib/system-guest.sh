#!/bin/bash
# Scenario runner of the system VM, started at boot by rig-runner.service: runs the planned system-* scenarios with
# lib/guest.sh (the kernel's modules from the image, lib/system.sh as the scenarios' library), then reboots when a
# scenario asked for it (the host boots the same disk again) or powers off.
RIG_GUEST_KROOT=/ RIG_LIB=system.sh bash "$(dirname "${BASH_SOURCE[0]}")/guest.sh" /rig plan-system
if [[ -e /rig/reboot-system ]]; then systemctl reboot; else systemctl poweroff; fi
