#!/bin/bash
# Scenario runner of the system VM, started at boot by rig-runner.service: runs the planned system-* scenarios with
# lib/guest.sh (the kernel's modules from the image, lib/system.sh as the scenarios' library), then reboots when a
# scenario asked for it (the host boots the same disk again) or powers off.
RIG_GUEST_KROOT=/ RIG_LIB=system.sh bash "$(dirname "${BASH_SOURCE[0]}")/guest.sh" /rig plan-system
# Where this boot's CPU went, one line a unit (the scenarios run in rig-runner.service), most first, in seconds, with
# the whole machine's first: cpu.BOOT.log on the work share, where the host's time table can be explained.
# cpu_of CGROUP: sets cpu to the microseconds of CPU the cgroup used (cpu.stat's usage_usec), with builtins only.
cpu_of() { local key value; cpu=0; while read -r key value; do [[ $key == usage_usec ]] && cpu=$value; done <"$1/cpu.stat"; }
read -r uptime _ </proc/uptime
{
    cpu_of /sys/fs/cgroup
    printf '%8.1f s  %s\n' "${cpu}e-6" "(all, uptime $uptime s)"
    for unit in /sys/fs/cgroup/*.slice/*/ /sys/fs/cgroup/init.scope/; do
        cpu_of "$unit"
        unit=${unit%/}
        printf '%8.1f s  %s\n' "${cpu}e-6" "${unit##*/}"
    done | sort -rn
} >"/rig/cpu.$(cat /rig/system-boots 2>/dev/null || echo 0).log" 2>&1
if [[ -e /rig/reboot-system ]]; then systemctl reboot; else systemctl poweroff; fi
