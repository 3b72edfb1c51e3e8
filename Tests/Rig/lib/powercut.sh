# Helpers for the power-cut scenarios (sourced after rig.sh): a scratch disk behind dm-log-writes, marks for what the
# booth acknowledged, and the replay check (lib/logwrites.py).
# shellcheck shell=bash
# Everything lives on the guest's tmpfs under $PC_DIR (teardown detaches the loop devices and removes rig-* maps).
PC_DIR=$RIG_STATE/pc
PC_TOOL=$RIG_DIR/lib/logwrites.py
PC_MARKER_PID=

# pc_logged_disk NAME IMAGE LOG_MB: puts IMAGE (formatted already; its copy IMAGE.base is the replay's start) behind
# a dm-log-writes map /dev/mapper/rig-NAME whose log goes to IMAGE.log (a fresh sparse file of LOG_MB MiB); prints
# the map's device. Every write and flush to the map from now on is logged, in the order it reached the disk.
pc_logged_disk() {
    local name=$1 image=$2 dev logdev sectors
    rig_modprobe loop dm-mod dm-log-writes
    mkdir -p "$PC_DIR"
    cp --sparse=always "$image" "$image.base"
    rm -f "$image.log" && truncate -s "${3}M" "$image.log"
    dev=$(losetup -f --show "$image") || rig_fail "losetup $image failed"
    logdev=$(losetup -f --show "$image.log") || rig_fail "losetup $image.log failed"
    echo "$dev $logdev" >"$PC_DIR/$name.loops"
    sectors=$(blockdev --getsz "$dev")
    DM_DISABLE_UDEV=1 dmsetup create "rig-$name" --noudevsync --table "0 $sectors log-writes $dev $logdev" >&2 ||
        rig_fail "dmsetup create rig-$name (log-writes) failed"
    rig_wait_for 5 "/dev/mapper/rig-$name" test -b "/dev/mapper/rig-$name"
    dmsetup message "rig-$name" 0 mark start || rig_fail "dmsetup message rig-$name mark failed"
    echo "/dev/mapper/rig-$name"
}

# pc_close_disk NAME: removes the map (which logs what is left and the end mark) and detaches its loop devices.
pc_close_disk() {
    DM_DISABLE_UDEV=1 dmsetup remove --noudevsync "rig-$1" || rig_fail "dmsetup remove rig-$1 failed"
    local loop
    for loop in $(cat "$PC_DIR/$1.loops"); do losetup -d "$loop" || rig_fail "losetup -d $loop failed"; done
}

# pc_marker_start EVENTS NAME [STORE]: drops a mark into rig-NAME's log for every acknowledgement in the booth's
# events file (photoSaved, photoDiscarded, exportFinished; see lib/logwrites.py marker), in the background.
pc_marker_start() {
    rm -f "$PC_DIR/marker.stop"
    "$RIG_PY" "$PC_TOOL" marker "$1" "rig-$2" "$PC_DIR/marker.stop" ${3:+"$3"} >"$RIG_OUT/marks.log" 2>&1 &
    PC_MARKER_PID=$!
}

# pc_marker_stop: lets the marker read the events file to its end, then waits for it.
pc_marker_stop() {
    touch "$PC_DIR/marker.stop"
    wait "$PC_MARKER_PID" || { cat "$RIG_OUT/marks.log" >&2; rig_fail "the marker failed"; }
    rig_log "marks: $(grep -c '^mark' "$RIG_OUT/marks.log") ($(cut -d' ' -f2 "$RIG_OUT/marks.log" | tr '\n' ' '))"
}

# pc_check KIND IMAGE REFERENCE KERNEL_VIEW [ARG...]: replays IMAGE's log onto IMAGE.base at every flush point and
# at random cuts between (lib/logwrites.py check KIND), printing its table; fails the scenario on any violation,
# keeping the log and the base image in $RIG_OUT/violations. RIG_POWERCUT_STATES (default 210) crash states in all,
# cut at random by RIG_POWERCUT_SEED (default: random, logged). The replay needs no guest: the host runs it
# (lib/host.sh rig_job_powercut_check) on copies of the log and the base image in the work share, reading each
# state with userspace tools; KERNEL_VIEW (the disk's files, copied from the kernel's mount at the end of the
# workload) is what its reading of the last state must equal.
pc_check() {
    local kind=$1 image=$2 reference=$3 view=$4 seed=${RIG_POWERCUT_SEED:-$RANDOM} shared=$RIG_OUT/replay
    shift 4
    "$RIG_PY" "$PC_TOOL" info "$image.log" >"$RIG_OUT/log-info.txt" || rig_fail "cannot read the log"
    rig_log "log: $(head -1 "$RIG_OUT/log-info.txt")"
    rm -rf "$shared" && mkdir -p "$shared"
    cp --sparse=always "$image.log" "$image.base" "$shared/" || rig_fail "cannot copy the log to the work share"
    local log=$shared/${image##*/}.log base=$shared/${image##*/}.base
    rig_host_job 600 powercut_check "$kind" "$log" "$base" "$reference" --kernel-view "$view" \
        --states "${RIG_POWERCUT_STATES:-210}" --seed "$seed" "$@" >"$RIG_OUT/replay.txt" ||
        {
            cat "$RIG_OUT/replay.txt" >&2
            mkdir -p "$RIG_OUT/violations"
            mv "$log" "$base" "$RIG_OUT/violations/" || true
            rig_fail "power-cut replay found violations (seed $seed; log and base image kept in $RIG_OUT/violations)"
        }
    cat "$RIG_OUT/replay.txt" >&2
    rm -rf "$shared"
}
