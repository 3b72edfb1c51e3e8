# Helpers for the camera scenarios (sourced by them): the real booth on vimc with a gpio-sim button.
# shellcheck shell=bash
# Uses: CAM_ID (camera.id, 0), CAM_RATIO (4:3), CAM_BURST (1), CAM_FLASH (off), CAM_TIMEOUT (capture_timeout, 10.0), CAM_IDLE_FPS
# (camera.idle_fps, 2), CAM_WIDTH x CAM_HEIGHT (the rig's small camera, lib/rig.sh says why).
CAM_WIDTH=${CAM_WIDTH:-$RIG_CAMERA_WIDTH} CAM_HEIGHT=${CAM_HEIGHT:-$RIG_CAMERA_HEIGHT}
CAM_EVENTS=$RIG_OUT/events.jsonl
CAM_PHOTOS=$RIG_OUT/photos
CAM_PID=

# cam_chip: creates the gpio-sim chip "booth" with the lines cam_config names (buttons idle released).
cam_chip() {
    [[ -d /sys/kernel/config/gpio-sim/booth ]] && return 0
    rig_gpio_sim_add booth button button_led knob_a knob_b knob_switch led0 led1 led2 led3 >/dev/null
}

# cam_config FILE: writes a booth config for chip "booth", the short Pop sound, a 0.5 s countdown and the CAM_*
# settings.
cam_config() {
    cat >"$1" <<TOML
[booth]
photos_dir = "$CAM_PHOTOS"
state_file = "$RIG_OUT/state.toml"
ratio = "${CAM_RATIO:-4:3}"
burst = ${CAM_BURST:-1}
flash = "${CAM_FLASH:-off}"
capture_timeout = ${CAM_TIMEOUT:-10.0}
free_space_reserve_mb = 1
review_window = 0.0            # a release slowed by emulation must not make the next press a retake

[sound]
favourites = ["Pop"]
default = "Pop"

[countdown]
default_delay = 0.5

[camera]
id = "${CAM_ID:-0}"
width = $CAM_WIDTH
height = $CAM_HEIGHT
idle_fps = ${CAM_IDLE_FPS:-2}

[gpio]
chip = "booth"
button = "button"
button_led = "button_led"
knob_a = "knob_a"
knob_b = "knob_b"
knob_switch = "knob_switch"
leds = ["led0", "led1", "led2", "led3"]
TOML
}

# cam_start NAME: starts `booth run` (simulated sound) in the background with a fresh config NAME.toml, events
# and log NAME.log; waits for its ready event and the button line to be requested.
cam_start() {
    local booth
    cam_chip
    booth=$(rig_need_booth)
    export LD_LIBRARY_PATH=/opt/swift/usr/lib/swift/linux${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    mkdir -p "$CAM_PHOTOS"
    CAM_EVENTS=$RIG_OUT/$1.jsonl
    cam_config "$RIG_OUT/$1.toml"
    "$booth" run --config "$RIG_OUT/$1.toml" --events-json "$CAM_EVENTS" --photos "$CAM_PHOTOS" \
        --simulated-sound >"$RIG_OUT/$1.log" 2>&1 &
    CAM_PID=$!
    rig_wait_for 30 "the booth's ready event" cam_has ready 1
    rig_gpio_wait_requested booth button 10
}

# cam_stop: SIGTERM to the booth; waits for it to exit 0.
cam_stop() {
    [[ -n $CAM_PID ]] || return 0
    kill -TERM "$CAM_PID"
    local rc=0
    wait "$CAM_PID" || rc=$?
    CAM_PID=
    ((rc == 0)) || rig_fail "the booth exited with $rc"
}

# cam_count TYPE: prints how many TYPE events the booth wrote so far.
cam_count() { rig_count_in "$CAM_EVENTS" "\"type\":\"$1\"" && echo "$RIG_COUNT"; }

# cam_has TYPE N: succeeds when there are at least N TYPE events.
cam_has() { rig_count_in "$CAM_EVENTS" "\"type\":\"$1\"" && ((RIG_COUNT >= $2)); }

# cam_has_text TEXT: succeeds when the events file holds TEXT (a fixed string).
cam_has_text() { grep -qF -- "$1" "$CAM_EVENTS" 2>/dev/null; }

# cam_idle_ready: succeeds when the booth is idle and takes a press (its button LED is lit).
cam_idle_ready() { [[ $(rig_gpio_value booth button_led) == 1 ]]; }

# cam_shoot SECONDS: presses the button once and waits for one more photoSaved event.
cam_shoot() {
    local before
    before=$(cam_count photoSaved)
    rig_wait_for 20 "the button LED (booth idle, taking presses)" cam_idle_ready
    rig_booth_press "$CAM_EVENTS"
    rig_wait_for "$1" "photo $((before + 1)) to be saved" cam_has photoSaved $((before + 1))
}

# cam_idle_cost SECONDS: with the booth started (cam_start) and idle, prints "CPU_MS WAKEUPS PREEMPTIONS" over
# SECONDS: user + system time of the whole process (/proc/PID/stat, clock ticks), the voluntary context switches of
# all its threads (each one a wake-up: the thread blocked and was woken) and their involuntary ones (the scheduler
# took the CPU away: these grow with the host's load, not with the booth's work).
cam_idle_cost() {
    local ticks cpu0 sw0 inv0 cpu1 sw1 inv1 hz=100 # USER_HZ: /proc's clock ticks are 1/100 s on Linux
    cam_sample() {
        read -r -a ticks < <(sed 's/.*) //' "/proc/$CAM_PID/stat")
        # After the name: state is field 1, utime 12, stime 13.
        printf -v "$1" '%s' $((ticks[11] + ticks[12]))
        printf -v "$2" '%s' "$(cat /proc/"$CAM_PID"/task/*/status | awk '/^voluntary_ctxt_switches/ { n += $2 } END { print n }')"
        printf -v "$3" '%s' "$(cat /proc/"$CAM_PID"/task/*/status | awk '/^nonvoluntary_ctxt_switches/ { n += $2 } END { print n }')"
    }
    cam_sample cpu0 sw0 inv0
    sleep "$1"
    cam_sample cpu1 sw1 inv1
    echo "$(((cpu1 - cpu0) * 1000 / hz)) $((sw1 - sw0)) $((inv1 - inv0))"
}

# cam_check ARGS...: lib/camera.py (photo, capture and timing checks over the events file).
cam_check() { "$RIG_PY" "$RIG_DIR/lib/camera.py" "$@"; }
