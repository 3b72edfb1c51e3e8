# Helpers for rig scenarios (sourced inside the VM): drive gpio-sim lines, camera, loopback sound, USB stick; assert.
# shellcheck shell=bash
# Environment a scenario sees: RIG_DIR (Tests/Rig), RIG_WORK (read-write work share, same path on host and guest),
# RIG_OUT (this scenario's output dir inside the work share), RIG_KROOT/RIG_KABI (the guest kernel's module tree).
set -euo pipefail
RIG_STATE=/run/rig
RIG_PY=/usr/bin/python3
# The camera size the scenarios that stream vimc configure (lib/camera.sh's default, the system VM's booth): small,
# because vimc makes every frame at 60 Hz in the guest's kernel whether or not the booth takes it (its streamer
# thread: sensor, debayer, scaler), so the cost lasts as long as the booth runs. The installed booth idle for 10 s:
# 648x486 kept 66 % of a vCPU busy, 336x252 28 %, 264x198 19 %, 216x162 14 %, the booth stopped 1 %. vimc's sizes are
# multiples of 6 (640x480 would stream 636x480).
# shellcheck disable=SC2034 # used by the scenarios and their libraries
RIG_CAMERA_WIDTH=264 RIG_CAMERA_HEIGHT=198

# ---- reporting -------------------------------------------------------------------------------------------------

# Prints a line prefixed with the seconds since boot, on stderr (so it works inside $(...) too).
rig_log() { printf '[%s] %s\n' "$(cut -d' ' -f1 /proc/uptime)" "$*" >&2; }

# Ends the scenario as failed with a reason.
rig_fail() { rig_log "FAIL: $*"; exit 1; }

# Ends the scenario as skipped with a reason.
rig_skip() { rig_log "SKIP: $*"; touch "$RIG_OUT/.skipped"; exit 77; }

# rig_assert DESCRIPTION COMMAND...: fails the scenario unless COMMAND succeeds.
rig_assert() {
    local what=$1; shift
    if "$@"; then rig_log "ok: $what"; else rig_fail "$what (command: $*)"; fi
}

# rig_deadline VAR SECONDS: sets VAR to the rig_now_ms time SECONDS times RIG_TIME_SCALE from now, and RIG_DEADLINE_S to
# those seconds. Every wait for something that may never come ends there: a deadline catches a hang, it does not judge
# speed, so it stretches with the rig's scale (Tests/Rig/run) on a machine that runs the VMs slowly.
rig_deadline() {
    local -n rig_deadline_var=$1
    local now
    rig_now_ms now
    RIG_DEADLINE_S=$(awk -v s="$2" -v k="${RIG_TIME_SCALE:-1}" 'BEGIN { print s * k }')
    rig_deadline_var=$((now + $(awk -v s="$RIG_DEADLINE_S" 'BEGIN { printf "%d", s * 1000 }')))
}

# rig_wait_for SECONDS DESCRIPTION COMMAND...: polls COMMAND until it succeeds (rig_poll_pause between polls); fails at
# rig_deadline SECONDS.
rig_wait_for() {
    local secs=$1 what=$2; shift 2
    local deadline now rig_poll_start
    rig_deadline deadline "$secs"
    secs=$RIG_DEADLINE_S
    rig_now_ms rig_poll_start
    until "$@"; do
        rig_now_ms now
        ((now < deadline)) || rig_fail "timed out after ${secs}s waiting for $what"
        rig_poll_pause $((now - rig_poll_start))
        rig_now_ms rig_poll_start
    done
}

# rig_poll_pause POLL_MS [MIN_MS=50]: the pause after a poll that took POLL_MS: MIN_MS, or twice the poll when that is
# longer (at most 1 s). A predicate that forks (nmcli, journalctl, `bash -c ... | grep`) costs an emulated guest
# 100-300 ms of vCPU; polled every 50 ms it kept a vCPU busy beside the service it waited for. One of builtins
# (rig_count_in) takes a millisecond and is polled every MIN_MS as before.
rig_poll_pause() {
    local pause=$((2 * $1))
    ((pause >= ${2:-50})) || pause=${2:-50}
    ((pause <= 1000)) || pause=1000
    rig_sleep_ms "$pause"
}

# rig_count_in FILE TEXT: sets RIG_COUNT to how many lines of FILE contain TEXT (a fixed string; 0 without FILE), as
# `grep -cF` counts them, with builtins only. The wait predicates call it every 50 ms: a grep there forked and loaded a
# program each time, which under emulation kept a vCPU busy beside the program the scenario waits for. In the
# scenario's own shell FILE stays open and only what was appended since the last call is read (FILE replaced or
# rewritten from its start, as a new booth does, is read again from its start); in a subshell, whose reads would move
# the shared descriptor, grep counts (as `$(rig_booth_count TEXT)` does).
declare -gA RIG_TAIL_FD=() RIG_TAIL_HEAD=() RIG_TAIL_PART=() RIG_TAIL_NAME=() RIG_TAIL_N=() RIG_TAIL_SEEN=()
rig_count_in() {
    local file=$1 text=$2 line first fd n i
    RIG_COUNT=0
    if [[ $BASHPID != "$$" ]]; then
        [[ -e $file ]] || return 0
        RIG_COUNT=$(grep -cF -- "$text" "$file") || true
        return 0
    fi
    fd=${RIG_TAIL_FD[$file]:-}
    if [[ -n $fd ]]; then
        first=''
        { IFS= read -r first <"$file"; } 2>/dev/null || true
        if ! [[ $file -ef /proc/self/fd/$fd && (-z ${RIG_TAIL_HEAD[$file]} || $first == "${RIG_TAIL_HEAD[$file]}") ]]; then
            exec {fd}<&-
            fd=''
        fi
    fi
    if [[ -z $fd ]]; then
        { exec {fd}<"$file"; } 2>/dev/null || return 0
        RIG_TAIL_FD[$file]=$fd RIG_TAIL_HEAD[$file]='' RIG_TAIL_PART[$file]=''
        RIG_TAIL_NAME[$file]=RIG_TAIL_LINES_$fd
        declare -ga "RIG_TAIL_LINES_$fd=()"
        # Single quotes: unset expands the subscript itself, once; a key expanded before it is parsed again, and the
        # texts' double quotes are removed (the count of an earlier file stayed, and a new booth's wait ended at once).
        for i in "${!RIG_TAIL_SEEN[@]}"; do [[ $i != "$file"$'\n'* ]] || unset 'RIG_TAIL_SEEN[$i]' 'RIG_TAIL_N[$i]'; done
    fi
    local -n lines=${RIG_TAIL_NAME[$file]}
    while IFS= read -r -u "$fd" line; do
        lines+=("${RIG_TAIL_PART[$file]}$line")
        RIG_TAIL_PART[$file]=''
    done
    RIG_TAIL_PART[$file]+=$line # a line not finished yet
    [[ -n ${RIG_TAIL_HEAD[$file]} || ${#lines[@]} == 0 ]] || RIG_TAIL_HEAD[$file]=${lines[0]}
    n=${RIG_TAIL_N[$file$'\n'$text]:-0}
    for ((i = ${RIG_TAIL_SEEN[$file$'\n'$text]:-0}; i < ${#lines[@]}; i++)); do
        [[ ${lines[i]} != *"$text"* ]] || n=$((n + 1))
    done
    RIG_TAIL_N[$file$'\n'$text]=$n RIG_TAIL_SEEN[$file$'\n'$text]=${#lines[@]}
    [[ -z ${RIG_TAIL_PART[$file]} || ${RIG_TAIL_PART[$file]} != *"$text"* ]] || n=$((n + 1))
    RIG_COUNT=$n
}

# rig_now_ms VAR: sets VAR to the wall clock in milliseconds (no fork, unlike $(...)).
rig_now_ms() { local t=${EPOCHREALTIME/./}; printf -v "$1" '%s' "${t:0:-3}"; }

# rig_cpu_hogs_start / rig_cpu_hogs_stop: a busy loop per vCPU, for benchmarks under load (what encoding a photo and
# writing a stick do to a Pi's CPUs).
RIG_CPU_HOGS=()
rig_cpu_hogs_start() {
    local _
    for _ in $(seq "$(nproc)"); do
        sh -c 'while :; do :; done' &
        RIG_CPU_HOGS+=($!)
    done
}
rig_cpu_hogs_stop() {
    ((${#RIG_CPU_HOGS[@]})) || return 0
    kill "${RIG_CPU_HOGS[@]}"
    wait "${RIG_CPU_HOGS[@]}" 2>/dev/null || true
    RIG_CPU_HOGS=()
}

# rig_sleep_ms MS: sleeps MS milliseconds without forking (read with a timeout on a private fifo).
rig_sleep_ms() {
    if [[ -z ${RIG_SLEEP_FD:-} ]]; then
        local fifo
        fifo=$(mktemp -u /tmp/rig-sleep.XXXXXX)
        mkfifo "$fifo"
        exec {RIG_SLEEP_FD}<>"$fifo"
        rm -f "$fifo"
    fi
    local s
    printf -v s '%d.%03d' $(($1 / 1000)) $(($1 % 1000))
    read -r -t "$s" -u "$RIG_SLEEP_FD" _ || true
}

# rig_modprobe MODULE...: loads modules (and their dependencies) from the guest kernel's module tree.
rig_modprobe() { modprobe -d "$RIG_KROOT" -a "$@" || rig_fail "modprobe $* failed"; }

# Kills the scenario's background jobs, unmounts what is mounted under /run/rig, removes gpio-sim chips, pulls a
# plugged stick. Runs after every scenario (mount sticks under /run/rig/ so it can clean up after a failure).
rig_teardown() {
    set +e
    # A webcam leaves libcamera's sight before its server is killed with the jobs below (which detaches it), however
    # long the kernel then takes to drop it.
    rig_camera_nodes_forget "$RIG_VHCI"
    local pids
    mapfile -t pids < <(jobs -p)
    ((${#pids[@]})) && kill "${pids[@]}" 2>/dev/null && wait 2>/dev/null
    # What the scenario mounted, last first: under RIG_STATE, and a webcam's cover over vhci-hcd's folder (its server,
    # killed above, took the webcam with it).
    local m
    while read -r _ m _; do
        [[ $m == "$RIG_STATE"/* || $m == "$RIG_VHCI" || $m == "$RIG_VHCI"/* ]] && umount -l "$m"
    done < <(tac /proc/mounts)
    [[ -e $RIG_STATE/usb-plugged ]] && rig_usb_pull
    # Device-mapper maps a scenario made (rig-*: power-cut's dm-log-writes, usb-fake's wrap-around) and every loop
    # device.
    local map
    for map in $(dmsetup ls 2>/dev/null | awk '$1 ~ /^rig-/ { print $1 }'); do
        DM_DISABLE_UDEV=1 dmsetup remove --noudevsync "$map"
    done
    [[ -e /sys/module/loop ]] && losetup -D
    rm -rf "$RIG_STATE/pc"
    local dev bank line gone=()
    for dev in /sys/kernel/config/gpio-sim/*/; do
        [[ -d $dev ]] || continue
        echo 0 >"$dev/live" 2>/dev/null
        for bank in "$dev"bank*/; do
            for line in "$bank"line*/; do [[ -d $line ]] && gone+=("$line"); done
            gone+=("$bank")
        done
        gone+=("$dev")
    done
    # One rmdir, children first (a fork each cost about 100 ms under emulation).
    ((${#gone[@]} == 0)) || rmdir "${gone[@]}"
    rm -rf "$RIG_STATE/gpio"
    return 0
}

# ---- host monitor (QEMU HMP) -------------------------------------------------------------------------------------

# rig_request_path: prints the next request's path without its suffix (RIG_REQUESTS/N, N counting up per boot), for
# rig_monitor and rig_host_job.
rig_request_path() {
    local dir=${RIG_REQUESTS:-$RIG_WORK/requests} n
    mkdir -p "$dir" "$RIG_STATE"
    n=$(($(cat "$RIG_STATE/request-count" 2>/dev/null || echo 0) + 1))
    echo "$n" >"$RIG_STATE/request-count"
    echo "$dir/$n"
}

# rig_host_path PATH: PATH in the work share as the host sees it (the system VM mounts the share on /rig).
rig_host_path() { echo "${RIG_HOST_WORK:-$RIG_WORK}${1#"$RIG_WORK"}"; }

# rig_monitor COMMAND: has the host send one QEMU monitor (HMP) command; prints what the monitor answered.
# Protocol: the guest writes RIG_REQUESTS/N.req (one HMP line, renamed into place so it appears whole; each VM has its
# own folder, set by lib/guest.sh); the host runner sends it to that VM's monitor, then writes the monitor's output
# to N.done.
rig_monitor() {
    local req
    req=$(rig_request_path)
    printf '%s\n' "$1" >"$req.tmp" && mv "$req.tmp" "$req.req"
    rig_wait_for 15 "the host to answer monitor command '$1'" test -e "$req.done"
    cat "$req.done"
}

# rig_host_job LIMIT NAME ARG...: has the host run its job NAME (lib/host.sh rig_job_NAME) with the ARGs (paths in
# the work share as the guest sees them), beside the VMs; waits up to LIMIT seconds for it to end, prints its output
# and returns its exit status. For work that needs no guest (the power-cut replays): natively it takes a fraction of
# the emulated CPU's time. Protocol: RIG_REQUESTS/N.job (one argument per line, renamed into place); the host writes
# N.out, then N.rc.
rig_host_job() {
    local limit=$1 name=$2 req arg rc
    shift 2
    req=$(rig_request_path)
    {
        echo "$name"
        for arg in "$@"; do
            if [[ $arg == "$RIG_WORK"/* ]]; then arg=$(rig_host_path "$arg"); fi
            printf '%s\n' "$arg"
        done
    } >"$req.tmp"
    mv "$req.tmp" "$req.job"
    rig_wait_for "$limit" "the host's job $name" test -e "$req.rc"
    cat "$req.out"
    read -r rc <"$req.rc"
    return "$rc"
}

# ---- GPIO (gpio-sim) ---------------------------------------------------------------------------------------------

# rig_gpio_sim_add NAME LINENAME...: creates a simulated chip labelled NAME with one line per LINENAME (offsets
# 0,1,...) and prints its chip name (gpiochipN). All lines start pulled up: inputs idle high (active-low button
# released, encoder at rest); outputs read whatever the program under test drives.
rig_gpio_sim_add() {
    local name=$1; shift
    grep -q ' /sys/kernel/config ' /proc/mounts || {
        rig_modprobe configfs
        mount -t configfs none /sys/kernel/config
    }
    [[ -d /sys/kernel/config/gpio-sim ]] || rig_modprobe gpio-sim
    local d=/sys/kernel/config/gpio-sim/$name i=0 line dirs=()
    # One mkdir for every folder (a fork costs an emulated guest about 100 ms: 58 of them took 6 s of each boot).
    for ((i = 0; i < $#; i++)); do dirs+=("$d/bank0/line$i"); done
    mkdir "$d" "$d/bank0" "${dirs[@]}"
    echo $# >"$d/bank0/num_lines"
    echo "$name" >"$d/bank0/label"
    i=0
    for line in "$@"; do
        echo "$line" >"$d/bank0/line$i/name"
        i=$((i + 1))
    done
    echo 1 >"$d/live"
    mkdir -p "$RIG_STATE/gpio/$name"
    local chip dev
    chip=$(cat "$d/bank0/chip_name") dev=$(cat "$d/dev_name")
    echo "/sys/devices/platform/$dev/$chip" >"$RIG_STATE/gpio/$name/sysfs"
    echo "$chip" >"$RIG_STATE/gpio/$name/chip"
    printf '%s\n' "$@" >"$RIG_STATE/gpio/$name/lines"
    for ((i = 0; i < $#; i++)); do echo pull-up >"/sys/devices/platform/$dev/$chip/sim_gpio$i/pull"; done
    echo "$chip"
}

# rig_gpio_chip NAME: prints the chip name (gpiochipN) of the simulated chip NAME.
rig_gpio_chip() { cat "$RIG_STATE/gpio/$1/chip"; }

# rig_gpio_offset NAME LINE: prints the offset of a line given by offset or by line name.
rig_gpio_offset() {
    local off=$2
    if [[ ! $off =~ ^[0-9]+$ ]]; then
        off=$(grep -nxF -- "$2" "$RIG_STATE/gpio/$1/lines" | head -1 | cut -d: -f1)
        [[ -n $off ]] || rig_fail "gpio-sim chip $1 has no line named $2"
        off=$((off - 1))
    fi
    echo "$off"
}

# rig_gpio_line_dir NAME LINE: prints the sysfs dir of a line given by offset or by line name.
rig_gpio_line_dir() {
    local off
    off=$(rig_gpio_offset "$1" "$2")
    echo "$(cat "$RIG_STATE/gpio/$1/sysfs")/sim_gpio$off"
}

# rig_gpio_pull NAME LINE up|down: drives an input line high (up) or low (down); edges happen at once.
rig_gpio_pull() { echo "pull-$3" >"$(rig_gpio_line_dir "$1" "$2")/pull"; }

# rig_gpio_press NAME LINE / rig_gpio_release NAME LINE: active-low button (pull down / pull up).
# Set RIG_GPIO_ACTIVE_HIGH=1 for buttons wired active-high.
rig_gpio_press() { rig_gpio_pull "$1" "$2" "$([[ ${RIG_GPIO_ACTIVE_HIGH:-0} == 1 ]] && echo up || echo down)"; }
rig_gpio_release() { rig_gpio_pull "$1" "$2" "$([[ ${RIG_GPIO_ACTIVE_HIGH:-0} == 1 ]] && echo down || echo up)"; }

# rig_gpio_click NAME LINE [HOLD_MS=100]: press, hold, release (no fork between the two edges: under emulation a
# fork can take long enough to turn a click into a long press).
rig_gpio_click() {
    local pull down=down up=up
    pull=$(rig_gpio_line_dir "$1" "$2")/pull
    [[ ${RIG_GPIO_ACTIVE_HIGH:-0} == 1 ]] && down=up up=down
    echo "pull-$down" >"$pull"
    rig_sleep_ms "${3:-100}"
    echo "pull-$up" >"$pull"
}

# rig_gpio_knob NAME LINE_A LINE_B STEPS [MS=150]: turns a quadrature encoder |STEPS| detents, clockwise when STEPS > 0
# (A leads B), counter-clockwise when < 0. One detent is a full Gray cycle from rest (A=B=1):
# CW (A,B) 11 -> 01 -> 00 -> 10 -> 11; CCW 11 -> 10 -> 00 -> 01 -> 11. MS is the pause after each transition.
# A person's pace by default: Linux 6.1's gpiolib-cdev names a both-edges event by the level the line's IRQ thread
# reads, and gpio-sim drops an edge that comes while that thread is still pending (irq_sim: the IRQ is masked), so a
# guest the host starves for longer than two transitions of a line (103 and 165 ms seen beside one busy loop per host
# core) loses that detent before the booth sees anything. Fast spins are measured, not passed or failed
# (sound-latency, knob-latency: detents lost are counted).
rig_gpio_knob() {
    local name=$1 a b steps=$4 ms=${5:-150} first second i
    a=$(rig_gpio_line_dir "$1" "$2")/pull b=$(rig_gpio_line_dir "$1" "$3")/pull
    if ((steps >= 0)); then first=$a second=$b; else first=$b second=$a steps=$((-steps)); fi
    : "$name"
    for ((i = 0; i < steps; i++)); do
        echo pull-down >"$first"; rig_sleep_ms "$ms"
        echo pull-down >"$second"; rig_sleep_ms "$ms"
        echo pull-up >"$first"; rig_sleep_ms "$ms"
        echo pull-up >"$second"; rig_sleep_ms "$ms"
    done
}

# rig_gpio_wait_requested NAME LINE [SECONDS=10]: waits until a program has requested the line (gpioinfo "[used]").
rig_gpio_wait_requested() {
    local off
    off=$(rig_gpio_line_dir "$1" "$2"); off=${off##*sim_gpio}
    rig_wait_for "${3:-10}" "line $2 of $1 to be requested" \
        bash -c "gpioinfo $(rig_gpio_chip "$1") | grep -E '^[[:space:]]+line +$off:' | grep -q '\[used'"
}

# rig_gpio_value NAME LINE: prints the line's current value (0/1): what the program drives on an output line.
rig_gpio_value() { cat "$(rig_gpio_line_dir "$1" "$2")/value"; }

# rig_gpio_wait_value NAME LINE VALUE [SECONDS=10]: waits until the line reads VALUE (0/1).
rig_gpio_wait_value() {
    local file
    file=$(rig_gpio_line_dir "$1" "$2")/value
    rig_wait_for "${4:-10}" "line $2 of $1 to read $3" rig_file_is "$file" "$3"
}

# rig_file_is FILE TEXT: succeeds when FILE's first line is TEXT (for rig_wait_for).
rig_file_is() { local v; read -r v <"$1" && [[ $v == "$2" ]]; }

# rig_gpio_sample OUT DURATION_MS EVERY_MS NAME LINE...: samples line values; writes "t_ms v1 v2 ..." lines to OUT
# (t_ms from the start). Run it in the background (&) while driving the program; emulation makes < 5 ms unreliable.
rig_gpio_sample() {
    local out=$1 dur=$2 every=$3 name=$4; shift 4
    local t0 now row i
    rig_gpio_read_row "$name" "$@"  # Finds the value files (forks, slow under emulation) before the clock starts.
    rig_now_ms t0
    : >"$out"
    while rig_now_ms now && ((now - t0 <= dur)); do
        rig_gpio_read_row "$name" "$@"
        row=$((now - t0))
        for ((i = 0; i < ${#RIG_GPIO_ROW}; i++)); do row+=" ${RIG_GPIO_ROW:i:1}"; done
        echo "$row" >>"$out"
        rig_sleep_ms "$every"
    done
}

# rig_gpio_changes FILE: prints only the samples of a rig_gpio_sample file where the values changed.
rig_gpio_changes() { awk '{ t = $1; $1 = ""; if ($0 != last) print t $0; last = $0 }' "$1"; }

# rig_gpio_row NAME LINE...: prints the lines' values side by side, e.g. "1100".
rig_gpio_row() { rig_gpio_read_row "$@"; echo "$RIG_GPIO_ROW"; }

# rig_gpio_row_is NAME VALUES LINE...: succeeds when the lines read VALUES (e.g. 1100; for rig_wait_for). No fork once
# the value files are known, so it can be polled while the program under test runs.
rig_gpio_row_is() { local name=$1 want=$2; shift 2; rig_gpio_read_row "$name" "$@"; [[ $RIG_GPIO_ROW == "$want" ]]; }

# rig_gpio_read_row NAME LINE...: sets RIG_GPIO_ROW to the lines' values (value files looked up once per shell).
# The files are read one after another, so a row the program changes between two reads comes out torn (half the
# old row, half the new: a frame it never showed). The row is read again until two reads agree (at most 5 times).
declare -gA RIG_GPIO_VALUE_FILES=()
rig_gpio_read_row() {
    local name=$1 l v previous='' tries
    shift
    for l in "$@"; do
        [[ -n ${RIG_GPIO_VALUE_FILES[$name/$l]:-} ]] ||
            RIG_GPIO_VALUE_FILES[$name/$l]=$(rig_gpio_line_dir "$name" "$l")/value
    done
    for ((tries = 0; tries < 5; tries++)); do
        RIG_GPIO_ROW=''
        for l in "$@"; do
            read -r v <"${RIG_GPIO_VALUE_FILES[$name/$l]}"
            RIG_GPIO_ROW+=$v
        done
        [[ $RIG_GPIO_ROW == "$previous" ]] && return 0
        previous=$RIG_GPIO_ROW
    done
}

# rig_gpio_timing: prints the path of the gpio-timing tool (lib/gpio-timing.c: a fast sampler that writes one line
# per change with CLOCK_MONOTONIC microseconds, and a bouncer), compiling it into RIG_WORK/bin when needed.
rig_gpio_timing() { rig_c_tool gpio-timing; }

# rig_c_tool NAME: prints the path of the tool built from lib/NAME.c, compiling it into RIG_WORK/bin when needed.
rig_c_tool() {
    local bin=$RIG_WORK/bin/$1 src=$RIG_DIR/lib/$1.c
    if [[ ! -x $bin || $src -nt $bin ]]; then
        mkdir -p "$RIG_WORK/bin"
        local tmp # Its own name: two busybox VMs may compile it at once.
        tmp=$(mktemp "$bin.XXXXXX")
        if ! { gcc -O2 -o "$tmp" "$src" >&2 && chmod 755 "$tmp" && mv "$tmp" "$bin"; }; then
            rm -f "$tmp"
            rig_fail "cannot compile $src"
        fi
    fi
    echo "$bin"
}

# ---- remotes (uinput) --------------------------------------------------------------------------------------------

declare -A RIG_REMOTE_FD RIG_REMOTE_NODE RIG_REMOTE_PID

# rig_remote_make ID NAME VENDOR PRODUCT KEY_CODE...: makes an input device through uinput (lib/remote-keys.c) that
# stays until rig_remote_gone ID; sets RIG_REMOTE_NODE[ID] to its event node. Its output is RIG_OUT/remote-ID.out.
rig_remote_make() {
    [[ -e /dev/uinput ]] || { rig_modprobe uinput evdev; rig_wait_for 10 "/dev/uinput" test -e /dev/uinput; }
    rig_remote_start "$1" make "${@:2}"
}

# rig_remote_hid ID NAME VENDOR PRODUCT: a Bluetooth selfie remote as the kernel's HID layer sees one, through uhid
# (remote-keys hid: its keys come through hid-generic's mapping); RIG_REMOTE_NODE[ID] is the first of its event nodes.
rig_remote_hid() {
    [[ -e /dev/uhid ]] || { rig_modprobe uhid hid-generic evdev; rig_wait_for 10 "/dev/uhid" test -e /dev/uhid; }
    rig_remote_start "$1" hid "${@:2}"
}

# rig_remote_start ID MODE ARG...: runs remote-keys MODE ARG... with its commands from a FIFO (rig_remote) until
# rig_remote_gone ID.
rig_remote_start() {
    local id=$1 tool fd
    shift
    tool=$(rig_c_tool remote-keys)
    # Its commands through a FIFO in the guest's /tmp (the 9p share refuses one).
    rm -f "/tmp/rig-remote-$id" "$RIG_OUT/remote-$id.out"
    mkfifo "/tmp/rig-remote-$id"
    "$tool" "$@" <"/tmp/rig-remote-$id" >"$RIG_OUT/remote-$id.out" &
    RIG_REMOTE_PID[$id]=$!
    exec {fd}>"/tmp/rig-remote-$id"
    RIG_REMOTE_FD[$id]=$fd
    rig_wait_for 10 "remote $id's event node" grep -q '^node ' "$RIG_OUT/remote-$id.out"
    RIG_REMOTE_NODE[$id]=$(sed -n 's/^node \([^ ]*\).*/\1/p' "$RIG_OUT/remote-$id.out" | head -1)
    rig_log "remote $id ($2, $3:$4) at $(sed -n 's/^node //p' "$RIG_OUT/remote-$id.out" | tr '\n' ' ')"
}

# rig_remote ID COMMAND: sends one command (down CODE, up CODE, repeat CODE, click CODE, burst CODE N GAP_US, sleep
# MS) to remote ID and waits until it was carried out.
rig_remote() {
    local id=$1 done
    shift
    done=$(grep -c '^done ' "$RIG_OUT/remote-$id.out" || true)
    echo "$*" >&"${RIG_REMOTE_FD[$id]}"
    rig_wait_for 10 "remote $id: $*" rig_remote_done "$id" $((done + 1))
}
rig_remote_done() { (($(grep -c '^done ' "$RIG_OUT/remote-$1.out") >= $2)); }

# rig_remotes_together ID1 ID2 ACTION...: sends ACTION to remotes ID1 and ID2 at once (two parents pressing
# together: both lines written before either is waited for), and waits until both have done it.
rig_remotes_together() {
    local first=$1 second=$2 done1 done2
    shift 2
    done1=$(grep -c '^done ' "$RIG_OUT/remote-$first.out" || true)
    done2=$(grep -c '^done ' "$RIG_OUT/remote-$second.out" || true)
    echo "$*" >&"${RIG_REMOTE_FD[$first]}"
    echo "$*" >&"${RIG_REMOTE_FD[$second]}"
    rig_wait_for 10 "remote $first: $*" rig_remote_done "$first" $((done1 + 1))
    rig_wait_for 10 "remote $second: $*" rig_remote_done "$second" $((done2 + 1))
}

# rig_remote_gone ID: destroys remote ID (as a remote unplugged or asleep) and waits for its node to go.
rig_remote_gone() {
    local id=$1 fd=${RIG_REMOTE_FD[$1]}
    echo quit >&"$fd"
    exec {fd}>&-
    wait "${RIG_REMOTE_PID[$id]}" || rig_fail "remote-keys for remote $id failed"
    rig_wait_for 10 "${RIG_REMOTE_NODE[$id]} to go" test ! -e "${RIG_REMOTE_NODE[$id]}"
}

# ---- camera (vimc) -----------------------------------------------------------------------------------------------

# rig_camera_up: loads vimc and fakes the udev database entries libcamera needs (there is no udevd).
rig_camera_up() {
    rig_modprobe vimc
    rig_wait_for 10 "vimc media and video nodes" compgen -G '/sys/class/video4linux/video*' >/dev/null
    rig_wait_for 10 "vimc media node" compgen -G '/sys/bus/media/devices/media*' >/dev/null
    sleep 0.5
    rig_camera_nodes /sys/devices/platform/vimc
}

# rig_camera_nodes FOLDER: marks each video and media node of a device under FOLDER initialised in the udev database
# (what udevd would do: libcamera's enumerator takes only those) and waits for its /dev node. Another device's
# nodes are left as they are: a webcam the kernel is slow to drop stays out of a later scenario's camera list.
rig_camera_nodes() {
    local n
    mkdir -p /run/udev/data
    for n in /sys/class/video4linux/* /sys/bus/media/devices/*; do
        [[ -e $n/dev && $(cd -P "$n" && pwd) == "$1"* ]] || continue
        echo "I:1" >"/run/udev/data/c$(<"$n/dev")"
        rig_wait_for 5 "/dev/${n##*/}" test -e "/dev/${n##*/}"
    done
}

# rig_camera_nodes_forget FOLDER: takes the video and media nodes of devices under FOLDER out of the udev database,
# so that libcamera no longer lists them, whether or not the kernel has dropped them yet.
rig_camera_nodes_forget() {
    local n
    for n in /sys/class/video4linux/* /sys/bus/media/devices/*; do
        [[ -e $n/dev && $(cd -P "$n" && pwd) == "$1"* ]] && rm -f "/run/udev/data/c$(<"$n/dev")"
    done
    return 0
}

# ---- webcams (UVC devices over USB/IP) ---------------------------------------------------------------------------

RIG_WEBCAM_PID=
RIG_VHCI=/sys/devices/platform/vhci_hcd.0

# rig_webcam_plug WIDTH HEIGHT FORMAT...: serves lib/webcam.py's UVC cameras (one per FORMAT, yuyv or mjpeg, product
# 1209:0c4d, 1209:0c4e, ...) on 127.0.0.1 and imports each through vhci-hcd (`usbip attach`, as webcams plugged in),
# waits for uvcvideo's media node of each and marks their nodes for libcamera. The server's output goes to
# $RIG_OUT/webcam.log.
rig_webcam_plug() {
    [[ -z $RIG_WEBCAM_PID ]] || rig_fail "webcams are already plugged"
    rig_modprobe vhci-hcd uvcvideo
    ip link set lo up
    local port=3240 log=$RIG_OUT/webcam.log width=$1 height=$2 n
    shift 2
    PYTHONPATH=$RIG_USBIP PYTHONDONTWRITEBYTECODE=1 \
        "$RIG_PY" "$RIG_DIR/lib/webcam.py" serve "$width" "$height" "$port" "$@" >"$log" 2>&1 &
    RIG_WEBCAM_PID=$!
    rig_wait_for 20 "the webcams' USB/IP server" grep -q '^serving' "$log"
    for ((n = 1; n <= $#; n++)); do
        usbip attach -r 127.0.0.1 -b "1-$n" >>"$log" 2>&1 || rig_fail "usbip attach of 1-$n failed, see $log"
    done
    # Each webcam's own media node (vimc's, from an earlier scenario, may be there too), then kept awake: vhci-hcd
    # lets a webcam autosuspend (2 s after its last user), and its suspends and resumes are emulation this rig does
    # not test, not the booth.
    for ((n = 1; n <= $#; n++)); do
        rig_wait_for 30 "webcam 1-$n's media node" compgen -G "/sys/bus/usb/devices/1-$n/1-$n:1.0/media*" >/dev/null
        echo on >"/sys/bus/usb/devices/1-$n/power/control"
    done
    rig_webcam_firmware_node
    rig_camera_nodes "$RIG_VHCI"
}

# rig_webcam_firmware_node: libcamera names a USB camera after its host controller's firmware node (the path in the
# device tree or ACPI, which a Pi's USB controller has); vhci-hcd is a platform device without one. So vhci-hcd's
# sysfs folder is covered by a tmpfs holding firmware_node/path and its root hubs, bind-mounted from the real sysfs:
# everything at and below the camera stays sysfs, as libudev demands. Mounted after `usbip attach` (which writes to
# that folder) and taken off (rig_webcam_firmware_node_off) before the webcams go; rig_teardown takes it off after a
# scenario that failed first.
rig_webcam_firmware_node() {
    local real=$RIG_STATE/vhci-sysfs hub
    mkdir -p "$real"
    mount --bind "$RIG_VHCI" "$real" || rig_fail "bind-mounting $RIG_VHCI failed"
    mount -t tmpfs rig-vhci "$RIG_VHCI" || rig_fail "mounting a tmpfs on $RIG_VHCI failed"
    mkdir "$RIG_VHCI/firmware_node"
    echo 'VHCI' >"$RIG_VHCI/firmware_node/path"
    for hub in "$real"/usb[0-9]*; do
        mkdir "$RIG_VHCI/${hub##*/}"
        mount --bind "$hub" "$RIG_VHCI/${hub##*/}" || rig_fail "bind-mounting $hub failed"
    done
}

# rig_webcam_firmware_node_off: uncovers vhci-hcd's sysfs folder.
rig_webcam_firmware_node_off() {
    local hub
    for hub in "$RIG_VHCI"/usb[0-9]*; do umount -l "$hub" || rig_fail "$hub is busy"; done
    umount -l "$RIG_VHCI" || rig_fail "the tmpfs on $RIG_VHCI is busy"
    umount -l "$RIG_STATE/vhci-sysfs" || rig_fail "$RIG_STATE/vhci-sysfs is busy"
}

# rig_webcam_unplug: takes the webcams out of libcamera's sight (rig_camera_nodes_forget), uncovers vhci-hcd's
# folder and stops the server, which detaches them. It does not wait for the kernel to drop them: under a busy host,
# uvcvideo's unbinding of a webcam over vhci-hcd was seen to take more than a minute, both after `usbip detach` and
# after an unbind by hand.
rig_webcam_unplug() {
    [[ -n $RIG_WEBCAM_PID ]] || return 0
    rig_camera_nodes_forget "$RIG_VHCI"
    rig_webcam_firmware_node_off
    kill -TERM "$RIG_WEBCAM_PID"
    wait "$RIG_WEBCAM_PID" || true
    RIG_WEBCAM_PID=
}


# ---- sound (snd-aloop) -------------------------------------------------------------------------------------------

# rig_sound_up: loads snd-aloop; what plays on hw:Loopback,0,0 can be recorded from hw:Loopback,1,0.
rig_sound_up() {
    rig_modprobe snd-aloop
    rig_wait_for 10 "the Loopback sound card" test -e /proc/asound/Loopback
    rig_wait_for 5 "/dev/snd/pcmC0D1c" compgen -G '/dev/snd/pcmC*D1c' >/dev/null
}

# rig_sound_record OUT.wav SECONDS [RATE=48000] [CHANNELS=2]: records the loopback (run it with & before playing).
rig_sound_record() {
    arecord -q -D hw:Loopback,1,0 -f S16_LE -r "${3:-48000}" -c "${4:-2}" -d "$2" "$1"
}

# rig_tone OUT.wav FREQ_HZ SECONDS [RATE=48000] [CHANNELS=2]: writes a sine tone at -6 dBFS.
rig_tone() { "$RIG_PY" "$RIG_DIR/lib/tone.py" make "$@"; }

# rig_tone_check IN.wav FREQ_HZ [TOLERANCE_PCT=3] [MIN_DBFS=-20]: asserts the recording holds that tone.
rig_tone_check() { "$RIG_PY" "$RIG_DIR/lib/tone.py" check "$@" || rig_fail "tone check of $1 failed"; }

# ---- USB stick (QEMU hot-plug via the host monitor) --------------------------------------------------------------

# rig_usb_image FILE [SIZE_MB=16]: creates a FAT-formatted stick image (put it under RIG_OUT so QEMU can open it).
rig_usb_image() {
    rm -f "$1"
    mkfs.fat -C -n RIGSTICK "$1" $((${2:-16} * 1024)) >/dev/null || rig_fail "mkfs.fat $1 failed"
}

# rig_usb_plug FILE [OPTIONS]: hot-plugs FILE as a USB stick; waits for it and prints its block device (/dev/sdX).
# OPTIONS are QEMU's drive options added to it (bps_rd=204800: a stick that reads 200 kB/s).
rig_usb_plug() {
    rig_modprobe xhci_pci usb_storage sd_mod vfat nls_cp437 nls_ascii
    [[ -e $RIG_STATE/usb-plugged ]] && rig_fail "a stick is already plugged"
    local n before
    n=$(($(cat "$RIG_STATE/usb-count" 2>/dev/null || echo 0) + 1))
    echo "$n" >"$RIG_STATE/usb-count"
    before=$(ls /sys/block)
    # QEMU opens the file on the host: a path in the work share, as the host sees it (the system VM mounts it on /rig).
    rig_monitor "drive_add 0 if=none,id=stick$n,file=$(rig_host_path "$1"),format=raw${2:+,$2}" >&2
    rig_monitor "device_add usb-storage,id=stick,drive=stick$n,bus=xhci.0,removable=on" >&2
    touch "$RIG_STATE/usb-plugged"
    rig_wait_for 20 "the stick's block device" rig_usb_new_disk "$before" >/dev/null
    local dev
    dev=$(rig_usb_new_disk "$before")
    rig_wait_for 5 "/dev/$dev" test -b "/dev/$dev"
    echo "$dev" >"$RIG_STATE/usb-plugged"
    echo "/dev/$dev"
}

# Prints the sd* disk that is not in the list $1 (fails when there is none).
rig_usb_new_disk() {
    local d
    for d in /sys/block/sd*; do
        [[ -e $d ]] || continue
        d=$(basename "$d")
        [[ " ${1//$'\n'/ } " == *" $d "* ]] || { echo "$d"; return 0; }
    done
    return 1
}

# rig_usb_pull: unplugs the stick (unmount it first if you mounted it) and waits until its block device is gone.
rig_usb_pull() {
    local dev
    dev=$(cat "$RIG_STATE/usb-plugged")
    rm -f "$RIG_STATE/usb-plugged"
    rig_monitor "device_del stick" >&2
    [[ -z $dev ]] || rig_wait_for 10 "/sys/block/$dev to go away" test ! -e "/sys/block/$dev"
    sleep 0.3 # let QEMU free the id "stick" before a new plug
}

# ---- program under test ------------------------------------------------------------------------------------------

# rig_need_booth: prints the path of the booth binary under test; skips or fails the scenario when there is none.
# The booth runs from a copy in the guest's memory (RIG_STATE/bin, made once per binary): the work share is 9p with
# cache=none, which keeps no page of a file nobody holds open, so every booth started there reads each page of code it
# runs for the first time through QEMU while it waits (13 major faults in gpio-countdown's loop thread; on a busy
# host one of them held a countdown step 125 ms). On a Pi the binary is on the SD card, with the page cache.
rig_need_booth() {
    local copy
    [[ -z ${RIG_BOOTH_SKIP:-} ]] || rig_skip "$RIG_BOOTH_SKIP"
    [[ -z ${RIG_BOOTH_ERROR:-} ]] || rig_fail "$RIG_BOOTH_ERROR"
    [[ -x ${RIG_BOOTH:-} ]] || rig_fail "no booth binary at '${RIG_BOOTH:-}'"
    export LD_LIBRARY_PATH=/opt/swift/usr/lib/swift/linux${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    copy=$RIG_STATE/bin/$(basename "$RIG_BOOTH")
    if [[ ! -x $copy ]]; then
        mkdir -p "$RIG_STATE/bin"
        cp "$RIG_BOOTH" "$copy.tmp" && mv "$copy.tmp" "$copy" || rig_fail "could not copy $RIG_BOOTH to $copy"
    fi
    echo "$copy"
}

# rig_events FILE states: prints "FROM TO" per state event; rig_events FILE field TYPE KEY: prints KEY of each TYPE
# event; rig_events FILE count TYPE: prints how many TYPE events there are. FILE holds JSON lines.
rig_events() { "$RIG_PY" "$RIG_DIR/lib/events.py" "$@"; }

# ---- the booth on gpio-sim ---------------------------------------------------------------------------------------

# The gpio-sim lines rig_booth_chip makes, named as rig_booth_config configures them.
RIG_BOOTH_LINES=(button button-led knob-a knob-b knob-switch led1 led2 led3 led4 haptic)

# rig_booth_chip [NAME=booth]: creates the booth's simulated chip (label NAME, lines RIG_BOOTH_LINES); prints gpiochipN.
rig_booth_chip() { rig_gpio_sim_add "${1:-booth}" "${RIG_BOOTH_LINES[@]}"; }

# rig_booth_config FILE [SECTION.KEY=VALUE...]: writes a booth config for the chip labelled "booth" (lines by name),
# photos, state and sounds under RIG_OUT, no free-space reserve, every stick exported to (export.sticks = "any": the
# owner's sticks are usb-owner's and the system VM's); each argument sets (or adds) one key, e.g.
# countdown.default_delay=2.0 or gpio.chip='"other"' (VALUE is TOML).
rig_booth_config() {
    local file=$1 kv section key
    shift
    local -A v=(
        [booth.photos_dir]="\"$RIG_OUT/photos\"" [booth.state_file]="\"$RIG_OUT/state.toml\""
        [booth.free_space_reserve_mb]=0 [sound.sounds_dir]="\"$RIG_OUT/sounds\"" [sound.device]='"default"'
        [gpio.chip]='"booth"' [gpio.button]='"button"' [gpio.button_led]='"button-led"' [gpio.knob_a]='"knob-a"'
        [gpio.knob_b]='"knob-b"' [gpio.knob_switch]='"knob-switch"' [gpio.leds]='["led1", "led2", "led3", "led4"]'
        [export.sticks]='"any"'
    )
    for kv in "$@"; do v[${kv%%=*}]=${kv#*=}; done
    : >"$file"
    local -a lines
    for section in booth sound countdown camera export print gpio remote; do
        lines=()
        for key in "${!v[@]}"; do [[ $key == "$section".* ]] && lines+=("${key#*.} = ${v[$key]}"); done
        # A table only when it has keys, so an older booth (BOOTH_BIN) that knows no [print] or [remote] reads it.
        if ((${#lines[@]})); then printf '%s\n' "[$section]" "${lines[@]}" >>"$file"; fi
    done
    mkdir -p "$RIG_OUT/photos"
}

# rig_booth_start CONFIG [ARG...]: starts `booth run` in the background with RIG_OUT/events.jsonl as events file,
# stdout/stderr in RIG_OUT/booth.out/booth.err; sets RIG_BOOTH_PID and waits (30 s) for its "ready" event.
rig_booth_start() {
    local booth config=$1
    shift
    booth=$(rig_need_booth)
    RIG_BOOTH_EVENTS=$RIG_OUT/events.jsonl
    rm -f "$RIG_BOOTH_EVENTS"
    rig_log "starting booth run --config $config $*"
    "$booth" run --config "$config" --events-json "$RIG_BOOTH_EVENTS" --photos "$RIG_OUT/photos" "$@" \
        >"$RIG_OUT/booth.out" 2>"$RIG_OUT/booth.err" &
    RIG_BOOTH_PID=$!
    rig_wait_for 30 "the booth's ready event" rig_booth_alive_and 1 '"type":"ready"'
    rig_log "booth ready (pid $RIG_BOOTH_PID)"
}

# rig_booth_alive_and N TEXT: fails the scenario if the booth died; succeeds when N events contain TEXT.
rig_booth_alive_and() {
    if ! kill -0 "$RIG_BOOTH_PID" 2>/dev/null; then
        cat "$RIG_OUT/booth.err" >&2
        rig_fail "the booth exited early"
    fi
    rig_count_in "$RIG_BOOTH_EVENTS" "$2"
    ((RIG_COUNT >= $1))
}

# rig_booth_count TEXT: prints how many lines of the events file contain TEXT (e.g. '"to":"idle"').
rig_booth_count() { rig_count_in "$RIG_BOOTH_EVENTS" "$1" && echo "$RIG_COUNT"; }

# rig_booth_wait SECONDS N TEXT: waits until N events contain TEXT (the booth writes fields in a fixed order:
# '"type":"state","from":"idle","to":"playingSound"', '"type":"setting","name":"sound","value":"Cow"').
rig_booth_wait() { rig_wait_for "$1" "$2 event(s) with $3" rig_booth_alive_and "$2" "$3"; }

# rig_booth_press EVENTS: one click on the booth's button (chip booth, line button) while a booth writes EVENTS: held
# until EVENTS gains the booth's buttonPressed (at least 100 ms, at most 600 ms: below the 1 s long press), then
# released, with no fork between the two edges (EVENTS is read on a descriptor of its own). Linux 6.1's gpiolib-cdev
# names an edge by the level its IRQ thread reads, so a release that comes while a starved guest has not yet run the
# press's thread turns the press into a release, and the press is lost (seen beside one busy loop per host core: no
# press within 10 s, then 30 s, of a 100 ms click).
rig_booth_press() {
    local pull down=down up=up fd part="" line seen=0 pressed_at now
    [[ -r $1 ]] || rig_fail "rig_booth_press: no events file $1 (start the booth first)"
    pull=$(rig_gpio_line_dir booth button)/pull
    [[ ${RIG_GPIO_ACTIVE_HIGH:-0} == 1 ]] && down=up up=down
    rig_sleep_ms 1 # Its first call makes a fifo (forks): not between the edges.
    exec {fd}<"$1"
    while IFS= read -r -u "$fd" line; do :; done # Past the events so far.
    echo "pull-$down" >"$pull"
    rig_now_ms pressed_at
    rig_sleep_ms 100
    while ((seen == 0)) && rig_now_ms now && ((now - pressed_at < 600)); do
        while IFS= read -r -u "$fd" line; do
            [[ $part$line == *'"input":"buttonPressed"'* ]] && seen=1
            part=""
        done
        part+=$line # A line the booth has not finished writing yet.
        ((seen == 1)) || rig_sleep_ms 10
    done
    echo "pull-$up" >"$pull"
    exec {fd}<&-
}

# rig_booth_knob_click: one short press of the booth's knob switch (chip booth, line knob-switch), held 400 ms: well
# below the 1 s long press, and long enough that a guest the host starves has run the press's IRQ thread before the
# release (see rig_booth_press: an edge is named by the level its thread reads). The booth reports the knob's press
# only at its release (short or long), so there is no press event to wait for; 100 ms clicks were lost beside three
# busy VMs.
rig_booth_knob_click() { rig_gpio_click booth knob-switch 400; }

# rig_booth_click N TEXT: one click on the booth's button (rig_booth_press); the booth must see it as one more press
# within 10 s, then N events must contain TEXT within 30 s. One click, one reaction: a dropped click fails, printing
# the inputs the booth saw.
rig_booth_click() {
    local presses deadline now
    presses=$(($(rig_booth_count '"input":"buttonPressed"') + 1))
    rig_booth_press "$RIG_BOOTH_EVENTS"
    rig_deadline deadline 10
    until rig_booth_alive_and "$presses" '"input":"buttonPressed"'; do
        rig_now_ms now
        if ((now >= deadline)); then
            grep -F '"type":"input"' "$RIG_BOOTH_EVENTS" >&2 || true
            rig_fail "the booth saw no press within $RIG_DEADLINE_S s of one click (its inputs are above)"
        fi
        rig_sleep_ms 50
    done
    rig_booth_wait 30 "$1" "$2"
}

# rig_booth_idle: succeeds when the booth's last state event went to idle (for rig_wait_for).
rig_booth_idle() { grep -F '"type":"state"' "$RIG_BOOTH_EVENTS" | tail -1 | grep -qF '"to":"idle"'; }

# rig_booth_stop: sends SIGTERM and asserts the booth exits 0 within 20 s.
rig_booth_stop() {
    kill -TERM "$RIG_BOOTH_PID"
    rig_wait_for 20 "the booth to exit after SIGTERM" rig_booth_exited
    local rc=0
    wait "$RIG_BOOTH_PID" || rc=$?
    [[ $rc == 0 ]] || { cat "$RIG_OUT/booth.err" >&2; rig_fail "booth exited with $rc after SIGTERM"; }
    rig_log "ok: booth exited 0 after SIGTERM"
}

# rig_booth_exited: succeeds once the booth process is gone or a zombie (for rig_wait_for).
rig_booth_exited() {
    local stat
    { read -r stat <"/proc/$RIG_BOOTH_PID/stat"; } 2>/dev/null || return 0
    stat=${stat##*) }
    [[ ${stat%% *} == Z ]]
}
