#!/bin/bash
# Guest runner: runs each planned scenario with a timeout and records its result. In the busybox VM it runs inside the
# chroot of the host root (lib/init.sh); in the system VM, from rig-runner.service (lib/system-guest.sh).
# Usage: guest.sh WORK [PLAN=plan [VM]] — reads WORK/PLAN (one scenario name per line), writes
# WORK/results/NAME.{log,status} and, at the end, WORK/results/.done-planVM. VM names this VM's own files (default:
# PLAN's suffix, "" for plan and "-system" for plan-system; "-2" for a second busybox VM on the same plan).
# Each scenario is claimed before it runs (mkdir WORK/claims/NAME, atomic on the host's file system under the share),
# so two VMs on one plan (the two busybox VMs) run each scenario once.
# A scenario already recorded is not run again, and one that asks for a reboot (touches RIG_REBOOT_FLAG, see
# lib/system.sh) ends the run without a result: after the boot the runner starts again and runs it once more.
# Scenarios that share a reboot (`# rig-shares-reboot: yes`) all run up to it before the one reboot (below).
set -u
export RIG_WORK=$1
plan=$RIG_WORK/${2:-plan}
RIG_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export RIG_DIR
# RIG_KROOT, RIG_KABI, and RIG_BOOTH (with RIG_BOOTH_VERSION) or RIG_BOOTH_SKIP or RIG_BOOTH_ERROR, exported to the scenarios.
set -a
# shellcheck disable=SC1091 # written by the host runner
source "$RIG_WORK/env"
# The system VM has the kernel's modules in its own /lib/modules and its own scenario library.
# shellcheck disable=SC2034 # exported (set -a) to the scenarios
[[ -z ${RIG_GUEST_KROOT:-} ]] || RIG_KROOT=$RIG_GUEST_KROOT
RIG_LIB=${RIG_LIB:-rig.sh}
set +a
# Each VM has its own monitor requests folder (requests, requests-system, requests-2): the VMs run at the same time
# and number their requests alike.
plan_name=${2:-plan}
vm=${3-${plan_name#plan}}
export RIG_REQUESTS=$RIG_WORK/requests$vm
# ... and its own reboot flag (WORK/reboot-system; the busybox VMs never reboot): a flag both read made the busybox
# VM stop as if its scenario had asked for the system VM's reboot.
export RIG_REBOOT_FLAG=$RIG_WORK/reboot$vm
mkdir -p "$RIG_WORK/results" "$RIG_WORK/claims"

# guest_busy: the guest's vCPUs' busy time so far, in clock ticks (/proc/stat: all but idle and iowait). A scenario's
# share, recorded with its time (NAME.status: "STATUS SECONDS BUSY_SECONDS"), is what it costs the host under
# emulation: a vCPU busy in the guest is a host thread emulating it.
guest_busy() {
    local _ user nice system idle iowait irq softirq steal
    read -r _ user nice system idle iowait irq softirq steal _ </proc/stat
    echo $((user + nice + system + irq + softirq + steal))
}
mkdir -p /run/udev/data /run/rig
# The host times this VM's boot up to here (Tests/Rig/run's time table).
: >"$RIG_WORK/ready$vm"

# spent START BUSY_START: "SECONDS BUSY_SECONDS" since START (EPOCHREALTIME) and BUSY_START (guest_busy), plus each
# "SECONDS BUSY_SECONDS" line read from stdin (a scenario's runs before its reboots).
spent() {
    awk -v a="$1" -v b="$EPOCHREALTIME" -v c="$2" -v d="$(guest_busy)" -v hz="$(getconf CLK_TCK)" \
        '{ t += $1; u += $2 } END { printf "%.1f %.1f", t + b - a, u + (d - c) / hz }'
}

# run_one NAME: runs the scenario NAME and records its result; returns 10 without a result when it asked for a reboot
# (it runs once more after the boot).
run_one() {
    local name=$1 script limit booth version booth_env start busy_start rc status secs
    echo "vm$vm" >"$RIG_WORK/claims/$name/vm"
    script=$RIG_DIR/scenarios/${name%@*}.sh
    limit=$(sed -n 's/^# rig-timeout: *\([0-9]*\).*/\1/p' "$script" | head -1)
    limit=$((${limit:-120} * RIG_TIME_SCALE))
    export RIG_OUT=$RIG_WORK/out/$name
    mkdir -p "$RIG_OUT"
    echo "RIG: start $name (timeout ${limit}s)"
    # NAME@gpiod2: the same scenario with the booth built against libgpiod 2.
    booth=${RIG_BOOTH:-} version=${RIG_BOOTH_VERSION:-} booth_env=()
    if [[ $name == *@gpiod2 ]]; then
        booth=${RIG_BOOTH_GPIOD2:-} version=${RIG_BOOTH_GPIOD2_VERSION:-}
        booth_env=(RIG_BOOTH="$booth" RIG_BOOTH_ERROR="${RIG_BOOTH_GPIOD2_ERROR:-}" RIG_BOOTH_SKIP=)
    fi
    # The version the host asked the binary for once (lib/host.sh), as the report shows it.
    if [[ -x $booth && -n $version ]]; then echo "rig: $version" >>"$RIG_WORK/results/$name.log"; fi
    start=$EPOCHREALTIME
    busy_start=$(guest_busy)
    # shellcheck disable=SC2016 # expanded by the inner bash
    env "${booth_env[@]}" timeout --kill-after=5 "$limit" bash -c 'source "$RIG_DIR/lib/$RIG_LIB" && trap rig_teardown EXIT && source "$1"' \
        "$name" "$script" >>"$RIG_WORK/results/$name.log" 2>&1 </dev/null
    rc=$?
    if [[ -e $RIG_REBOOT_FLAG ]]; then
        # Its time up to the reboot counts with the run after it (NAME.before-reboot, one line a run).
        secs=$(spent "$start" "$busy_start" </dev/null)
        echo "$secs" >>"$RIG_WORK/results/$name.before-reboot"
        echo "RIG: $name asked for a reboot (${secs}s)"
        return 10
    fi
    case $rc in
        0) status=PASS ;;
        77) if [[ -e $RIG_OUT/.skipped ]]; then status=SKIP; else status=FAIL; fi ;; # only rig_skip skips
        124 | 137) status=FAIL; echo "rig: scenario timed out after ${limit}s" >>"$RIG_WORK/results/$name.log" ;;
        *) status=FAIL ;;
    esac
    if [[ $status == FAIL ]]; then
        { echo "---- guest dmesg, last 25 lines ----"; dmesg | tail -n 25; } >>"$RIG_WORK/results/$name.log" 2>&1
    fi
    # Leave nothing behind for the next scenario, even if the teardown trap was killed by the timeout.
    bash -c 'source "$RIG_DIR/lib/$RIG_LIB" && rig_teardown' >>"$RIG_WORK/results/$name.log" 2>&1 </dev/null
    # Its time and vCPU time: this run's, the teardown's and each run's before a reboot it asked for.
    secs=$(cat "$RIG_WORK/results/$name.before-reboot" 2>/dev/null | spent "$start" "$busy_start")
    printf '%s %s\n' "$status" "$secs" >"$RIG_WORK/results/$name.status.tmp"
    mv "$RIG_WORK/results/$name.status.tmp" "$RIG_WORK/results/$name.status" # whole, as the host polls for it
    echo "RIG: $status $name (${secs}s)"
}

# claim NAME: succeeds when this VM is to run NAME: not recorded yet, and claimed by no other VM.
claim() {
    [[ -n $1 && ! -e $RIG_WORK/results/$1.status ]] || return 1
    mkdir "$RIG_WORK/claims/$1" 2>/dev/null || [[ $(cat "$RIG_WORK/claims/$1/vm" 2>/dev/null) == "vm$vm" ]]
}

# Scenarios whose header says `# rig-shares-reboot: yes` share one reboot: when the first asks for it, the others
# that have not run yet run up to their own reboot first (each leaves what it set up for after the boot in place),
# then the VM reboots once, and after the boot they run again in the opposite order: the last to ask checks first
# what it saw before the boot, before the earlier ones change anything. WORK/rebooting-VM lists them in order.
pending=$RIG_WORK/rebooting$vm
shares_reboot() { grep -q '^# rig-shares-reboot: yes' "$RIG_DIR/scenarios/${1%@*}.sh"; }
if [[ -e $pending ]]; then
    mapfile -t after < <(tac "$pending")
    rm -f "$pending"
    for name in "${after[@]}"; do
        if claim "$name"; then run_one "$name" || true; fi
    done
    # One that asked for yet another reboot gets it.
    [[ ! -e $RIG_REBOOT_FLAG ]] || exit 0
fi

while read -r name; do
    claim "$name" || continue
    run_one "$name" && continue
    shares_reboot "$name" || exit 0
    echo "$name" >>"$pending"
    while read -r other; do
        [[ $other != "$name" ]] && shares_reboot "$other" && claim "$other" || continue
        rm -f "$RIG_REBOOT_FLAG"
        if ! run_one "$other"; then echo "$other" >>"$pending"; fi
    done <"$plan"
    touch "$RIG_REBOOT_FLAG"
    exit 0
done <"$plan"
touch "$RIG_WORK/results/.done-plan$vm"
