# Helpers for the sound-* scenarios (sourced after rig.sh): the real booth on gpio-sim + snd-aloop, its events,
# loopback recordings checked against the booth's own rendered sounds (lib/soundcheck.py).
# shellcheck shell=bash
# Globals it sets: booth (binary), chip (gpio-sim chip "booth"), events (JSON lines), booth_pid, rec_pid,
# sb_playback_params, rec_frame0_us, rec_frame0_alt_us, rec_overran, SB_KNOB_A/B.

SB_LINES=(button button-led knob-a knob-b knob-switch led0 led1 led2 led3)

# How far what snd-aloop plays may fall from ALSA's trigger timestamps and the booth's own times: snd-aloop moves
# audio on the jiffies timer (Debian: HZ=250, 4 ms), and a loaded guest runs its ticks and threads late (beside one
# busy loop per host core: a start 4.6 ms off its timestamp, two starts' distance 13.2 ms off; quiet: 0.5 ms). A
# broken mechanism is off by the 170 ms buffer (a finish at the last write, a start that waits for the old sound
# to drain, a stale replay), so the sound scenarios allow this much per start and no more.
SB_DEVICE_SLACK_US=25000

# sb_assert_start_distance REC_GAP DEV_GAP: two sounds' distance in the recording and between their trigger
# timestamps (µs) agree to SB_DEVICE_SLACK_US per start.
sb_assert_start_distance() {
    local slack2=$((2 * SB_DEVICE_SLACK_US))
    rig_assert "recording and ALSA timestamps agree within $((slack2 / 1000)) ms" test $(($1 - $2)) -le $slack2 -a \
        $(($2 - $1)) -le $slack2
}

# sb_setup: the booth binary, snd-aloop, a gpio-sim chip "booth" with SB_LINES, reference WAVs in RIG_OUT/ref.
sb_setup() {
    booth=$(rig_need_booth)
    rig_sound_up
    chip=$(rig_gpio_sim_add booth "${SB_LINES[@]}")
    events=$RIG_OUT/events.jsonl
    mkdir -p "$RIG_OUT/ref" "$RIG_OUT/photos" "$RIG_OUT/sounds"
    "$booth" sounds --export "$RIG_OUT/ref" >/dev/null || rig_fail "booth sounds --export failed"
}

# sb_config FILE DEVICE DEFAULT_SOUND FAVOURITES_TOML DELAY: a booth config on the gpio-sim chip, photos and state
# under RIG_OUT, no retake window, sounds folder RIG_OUT/sounds.
sb_config() {
    rig_booth_config "$1" sound.device="\"$2\"" sound.default="\"$3\"" sound.favourites="$4" \
        countdown.default_delay="$5" countdown.visual=true booth.review_window=0 booth.capture_timeout=20 \
        gpio.chip="\"$chip\"" gpio.leds='["led0", "led1", "led2", "led3"]'
    rm -f "$RIG_OUT/state.toml"
}

# sb_start CONFIG [PHOTOS=RIG_OUT/photos]: runs `booth run` in the background and waits until it is ready and holds
# the button line.
sb_start() {
    : >"$events"
    "$booth" run --config "$1" --events-json "$events" --photos "${2:-$RIG_OUT/photos}" --simulated-camera \
        >"$RIG_OUT/booth.log" 2>&1 &
    booth_pid=$!
    rig_wait_for 60 "the booth's ready event" sb_has '"type":"ready"'
    rig_gpio_wait_requested booth button 20
    local params=/proc/asound/Loopback/pcm0p/sub0/hw_params
    sb_playback_params=$(grep -E '^(period|buffer)_size' "$params" 2>/dev/null | tr '\n' ' ' || true)
    rig_log "booth's playback: ${sb_playback_params:-not open}"
}

# sb_stop: SIGTERM to the booth; fails unless it exits 0 within 20 s.
sb_stop() {
    kill -TERM "$booth_pid"
    local rc=0
    timeout 20 tail --pid="$booth_pid" -f /dev/null || rig_fail "the booth did not exit within 20 s of SIGTERM"
    wait "$booth_pid" || rc=$?
    ((rc == 0)) || { cat "$RIG_OUT/booth.log" >&2; rig_fail "the booth exited with $rc"; }
}

# sb_has TEXT [N=1]: succeeds when at least N event lines contain TEXT (fixed string).
sb_has() { rig_count_in "$events" "$1" && ((RIG_COUNT >= ${2:-1})); }

# sb_wait TEXT [N=1] [SECONDS=30]: waits until at least N event lines contain TEXT.
sb_wait() { rig_wait_for "${3:-30}" "${2:-1} event(s) with $1" sb_has "$1" "${2:-1}"; }

# sb_wait_quietly SECONDS TEXT N: like sb_wait, but returns 1 on timeout instead of failing the scenario.
sb_wait_quietly() {
    local deadline now
    rig_now_ms deadline
    deadline=$((deadline + $1 * 1000))
    until sb_has "$2" "$3"; do
        rig_now_ms now
        ((now < deadline)) || return 1
        rig_sleep_ms 50
    done
}

# sb_record OUT.wav [SECONDS=60]: records the loopback in the background until sb_record_stop (at most SECONDS);
# waits until the capture stream runs and sets rec_frame0_us / rec_frame0_alt_us (CLOCK_MONOTONIC of frame 0 by
# the capture's trigger_time / by tstamp - hw_ptr).
# The file is written on the guest's tmpfs (the 9p share can stall arecord into an overrun under load) with a 2 s
# capture buffer, and moved to OUT.wav by sb_record_stop.
# The clock is read from one snapshot of the status file taken while the stream ran: a second read could find the
# stream closed (the file then holds only "closed"). An arecord that ends before its stream runs, or right after,
# is started once more, its log shown; a second early end fails the scenario with that log.
sb_record() {
    rec_out=$1 rec_tmp=/tmp/rig-rec-$BASHPID.wav
    local attempt
    for attempt in 1 2; do
        arecord -D hw:Loopback,1,0 -f S16_LE -r 48000 -c 2 -B 2000000 -F 100000 -d "${2:-60}" "$rec_tmp" \
            2>"$RIG_OUT/arecord.log" &
        rec_pid=$!
        rig_wait_for 10 "the loopback capture to run (or arecord to end)" sb_capture_snapshot
        if [[ -s $RIG_OUT/capture-status ]] && kill -0 "$rec_pid" 2>/dev/null; then
            rig_log "capture: $(grep -E '^(period|buffer)_size' "$SB_CAPTURE/hw_params" | tr '\n' ' ')"
            # shellcheck disable=SC2034 # read by the scenarios
            read -r rec_frame0_us rec_frame0_alt_us < <(sb_check capture-clock "$RIG_OUT/capture-status")
            return 0
        fi
        wait "$rec_pid" || true
        rig_log "arecord ended before its capture ran (attempt $attempt): $(cat "$RIG_OUT/arecord.log")"
    done
    rig_fail "arecord could not record the loopback: $(cat "$RIG_OUT/arecord.log")"
}
SB_CAPTURE=/proc/asound/Loopback/pcm1c/sub0

# sb_capture_snapshot: succeeds once the capture's status file, read once into $RIG_OUT/capture-status, says the
# stream runs (the copy is left empty otherwise), or once arecord (rec_pid) has ended.
sb_capture_snapshot() {
    local status=
    IFS= read -r -d '' status <"$SB_CAPTURE/status" || true
    if [[ $status == *"state: RUNNING"* ]]; then
        printf '%s\n' "$status" >"$RIG_OUT/capture-status"
        return 0
    fi
    : >"$RIG_OUT/capture-status"
    ! kill -0 "$rec_pid" 2>/dev/null
}

# sb_capture_value KEY: a number from the capture's /proc status file (hw_ptr, appl_ptr).
sb_capture_value() { sed -n "s/^$1 *: *\([0-9]*\).*/\1/p" "$SB_CAPTURE/status"; }

# sb_capture_read FRAMES: succeeds once arecord has read the capture up to FRAMES.
sb_capture_read() { (($(sb_capture_value appl_ptr) >= $1)); }

# sb_record_stop: waits until arecord has read everything captured so far and one period more (it writes a period
# to the file only once it has read all of it: a SIGINT mid-period would lose what it read of it), then SIGINT (it
# finishes the WAV header), waits for it and moves the file into place; fails on an overrun (a recording with
# holes) unless SB_TOLERATE_OVERRUN=1, which sets rec_overran=1 instead.
sb_record_stop() {
    local captured period
    captured=$(sb_capture_value hw_ptr)
    period=$(sed -n 's/^period_size: *//p' "$SB_CAPTURE/hw_params")
    captured=$((captured + ${period:-4800}))
    rig_wait_for 10 "arecord to read the capture up to frame $captured" sb_capture_read "$captured"
    kill -INT "$rec_pid"
    wait "$rec_pid" || true
    mv "$rec_tmp" "$rec_out"
    # shellcheck disable=SC2034 # read by the scenarios
    rec_overran=0
    if grep -qi 'overrun' "$RIG_OUT/arecord.log"; then
        ((${SB_TOLERATE_OVERRUN:-0})) || rig_fail "arecord overran: $(cat "$RIG_OUT/arecord.log")"
        # shellcheck disable=SC2034 # read by the scenarios
        rec_overran=1
        rig_log "arecord overran: $(grep -ci overrun "$RIG_OUT/arecord.log") time(s); the recording has holes"
    fi
}

# sb_knob_paths: sets SB_KNOB_A / SB_KNOB_B to the knob lines' pull files (for sb_detent, which forks nothing).
sb_knob_paths() {
    SB_KNOB_A=$(rig_gpio_line_dir booth knob-a)/pull SB_KNOB_B=$(rig_gpio_line_dir booth knob-b)/pull
}

# sb_detent 1|-1 [MS=3]: one knob detent clockwise (A leads) or counter-clockwise, MS per transition, without forks.
# A guest the host holds off for more than two transitions loses the detent in the kernel (gpio-sim drops an edge
# while the IRQ thread is pending: docs/how-it-works.md, "A knob detent can be lost"): the latency scenarios count
# such losses at 3 ms; a scenario that needs every detent turns at 150 ms, as rig_gpio_knob does.
sb_detent() {
    local first=$SB_KNOB_A second=$SB_KNOB_B ms=${2:-3}
    (($1 > 0)) || { first=$SB_KNOB_B second=$SB_KNOB_A; }
    echo pull-down >"$first"; rig_sleep_ms "$ms"
    echo pull-down >"$second"; rig_sleep_ms "$ms"
    echo pull-up >"$first"; rig_sleep_ms "$ms"
    echo pull-up >"$second"
}

# sb_knob_detents N: N detents, alternately clockwise and back (two favourites: each one a preview), the next once
# the preview has played; sb_seen is how many the booth reported (one knobTurned each), and each one it did not is
# logged. A detent the booth does not report is counted as lost and the next one sent.
sb_knob_detents() {
    local i
    sb_seen=0
    for ((i = 1; i <= $1; i++)); do
        sb_detent $((i % 2 ? 1 : -1))
        if sb_wait_quietly 3 '"input":"knobTurned"' $((sb_seen + 1)); then
            sb_seen=$((sb_seen + 1))
            sb_wait '"type":"soundFinished","purpose":"preview"' "$sb_seen" 10
        else
            rig_log "detent $i ($((i % 2 ? 1 : -1))) was not reported by the booth"
        fi
    done
}

# sb_playback SOUND: "UNDERRUNS LONGEST_WAIT_US" of SOUND's latest preview or attention sound, from its soundFinished
# event (nothing when it has none).
sb_playback() {
    "$RIG_PY" - "$events" "$1" <<'PY'
import json, sys
started, finished = False, None
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("type") == "soundStarted":
        started = e.get("sound") == sys.argv[2]
    elif e.get("type") == "soundFinished" and started:
        finished = e
if finished is not None:
    print(finished.get("underruns", 0), finished.get("longest_wait_us", 0))
PY
}

# sb_playback_note SOUND: how the device played SOUND (sb_playback): "underruns N, longest loop wait M ms" (an underrun
# is a gap heard; a wait past the buffer causes one).
sb_playback_note() {
    local underruns wait_us
    read -r underruns wait_us < <(sb_playback "$1")
    if [[ -z $underruns ]]; then echo "no soundFinished event"; return; fi
    printf 'underruns %s, longest loop wait %d.%d ms\n' "$underruns" $((wait_us / 1000)) $((wait_us % 1000 / 100))
}

# sb_held_past_buffer SOUND: succeeds when SOUND's latest playback (sb_playback) underran while the booth's loop left
# the device longer than its whole buffer (sb_playback_params; 8192 frames, 170 ms): a guest the host holds off stalls
# every thread in it (beside one busy loop per host core a loop wait of 235 ms was seen, the booth's writes all on
# time before and after). Such a recording cannot show whether the booth plays a sound whole: a scenario plays it once
# more, and the second playback must be exact.
sb_held_past_buffer() {
    local buffer underruns wait_us
    buffer=$(sed -n 's/.*buffer_size: *\([0-9]*\).*/\1/p' <<<"$sb_playback_params")
    read -r underruns wait_us < <(sb_playback "$1")
    ((${underruns:-0} > 0 && ${buffer:-0} > 0 && ${wait_us:-0} > buffer * 1000000 / 48000))
}

# sb_check ARGS...: lib/soundcheck.py ARGS. Its correlations of recordings in the work share need no guest: the host
# runs them (lib/host.sh rig_job_soundcheck), at native speed (numpy on the emulated CPU took over a minute a
# scenario). capture-clock reads the guest's own capture status and clocks, so it runs here.
sb_check() {
    if [[ $1 == capture-clock ]]; then "$RIG_PY" "$RIG_DIR/lib/soundcheck.py" "$@"; else rig_host_job 300 soundcheck "$@"; fi
}

# sb_field TYPE KEY [MATCH]: KEY of each TYPE event (containing the fixed string MATCH), one a line.
sb_field() {
    if [[ -n ${3:-} ]]; then
        grep -F -- "$3" "$events" >"$RIG_OUT/.filtered" || true
        rig_events "$RIG_OUT/.filtered" field "$1" "$2"
    else
        rig_events "$events" field "$1" "$2"
    fi
}
