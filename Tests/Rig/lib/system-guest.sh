#!/bin/bash
# Scenario runner of the system VM, started at boot by rig-runner.service: runs the planned system-* scenarios with
# lib/guest.sh (the kernel's modules from the image, lib/system.sh as the scenarios' library), then reboots when a
# scenario asked for it (the host boots the same disk again) or powers off.
RIG_GUEST_KROOT=/ RIG_LIB=system.sh bash "$(dirname "${BASH_SOURCE[0]}")/guest.sh" /rig plan-system
# Where this boot's CPU went, one line a unit (the scenarios run in rig-runner.service), most first, in seconds, with
# the whole machine's first: cpu.BOOT.log on the work share, where the host's time table can be explained.
cpu_of() { local key value; while read -r key value; do [[ $key == usage_usec ]] && echo "$value"; done <"$1/cpu.stat"; }
{
    printf '%8.1f s  %s\n' "$(cpu_of /sys/fs/cgroup)e-6" "(all, uptime $(cut -d' ' -f1 /proc/uptime) s)"
    for unit in /sys/fs/cgroup/*.slice/*/ /sys/fs/cgroup/init.scope/; do
        printf '%8.1f s  %s\n' "$(cpu_of "$unit")e-6" "$(basename "$unit")"
    done | sort -rn
} >"/rig/cpu.$(cat /rig/system-boots 2>/dev/null || echo 0).log" 2>&1
if [[ -e /rig/reboot-system ]]; then systemctl reboot; else systemctl poweroff; fi
