# system-press: a press on the installed service gives a photo with every device real at once: the gpio-sim header
# (button, knob, countdown LEDs), the vimc camera through libcamera and the snd-aloop card through ALSA's "default",
# no simulated device anywhere. The knob's turn is kept in the state file.
# shellcheck shell=bash
# rig-vm: system
# rig-timeout: 180
sys_wait_ready 60
ready=$(sys_journal | grep '^ready: ' | tail -1)
rig_log "the booth says: $ready"
rig_assert "the input is the GPIO header" grep -q 'input gpio:auto' <<<"$ready"
rig_assert "the camera is libcamera's vimc" grep -q 'camera libcamera:.*vimc' <<<"$ready"
rig_assert "the sound is ALSA's default device" grep -q 'sound alsa:default' <<<"$ready"
rig_assert "nothing simulated" bash -c "! grep -qi simulated <<<'$ready'"

# The event loop (the main thread) runs SCHED_FIFO at booth.realtime_priority (10, the shipped config); every other
# thread (the save and export workers, libcamera's) on the normal scheduler, so a worker never starves the loop.
# Fails with RestrictRealtime=true in the unit, or a loop left at priority 0.
pid=$(sys_pid)
read -r prio policy < <(awk '{ print $40, $41 }' "/proc/$pid/task/$pid/stat")
rig_assert "the loop thread runs SCHED_FIFO at 10 (policy $policy, priority $prio)" test "$policy $prio" = "1 10"
threads=0 realtime=0
for t in /proc/"$pid"/task/*; do
    [[ ${t##*/} == "$pid" ]] && continue
    # A thread that ended since the listing (a dispatch worker going idle) is not counted.
    thread_policy=$(awk '{ print $41 }' "$t/stat" 2>/dev/null) || continue
    [[ -n $thread_policy ]] || continue
    threads=$((threads + 1))
    [[ $thread_policy == 0 ]] || realtime=$((realtime + 1))
done
rig_assert "every other thread runs on the normal scheduler ($realtime of $threads do not)" test "$threads" -gt 0 -a "$realtime" -eq 0

# plughw: the booth holds the card in its own format (the loopback makes the capture side match it).
arecord -q -D plughw:Loopback,1,0 -f S16_LE -r 48000 -c 2 -d 40 "$RIG_OUT/rec.wav" &
rec=$!
rm -f "$RIG_OUT/leds"
rig_gpio_sample "$RIG_OUT/leds" 40000 20 "$SYS_CHIP" "${SYS_LEDS[@]}" &
sampler=$!
# The sampler looks its lines up first (forks, slow under emulation): press only once it has taken its first sample,
# or a short countdown can be over before the first one.
rig_wait_for 20 "the LED sampler's first sample" test -s "$RIG_OUT/leds"
photo=$(sys_photo)
rig_log "ok: photo $photo"
sleep 2
kill "$rec" "$sampler" 2>/dev/null
wait "$rec" "$sampler" 2>/dev/null || true # both killed
lit=$(awk '$2 + $3 + $4 + $5 > 0' "$RIG_OUT/leds" | wc -l)
rig_assert "the countdown LEDs lit ($lit of $(wc -l <"$RIG_OUT/leds") samples)" test "$lit" -gt 0
peak=$("$RIG_PY" - "$RIG_OUT/rec.wav" <<'PY'
import array, math, sys, wave
with wave.open(sys.argv[1]) as w:
    samples = array.array("h", w.readframes(w.getnframes()))
peak = max((abs(s) for s in samples), default=0)
print(f"{20 * math.log10(peak / 32768):.1f}" if peak else "-inf")
PY
)
rig_assert "the sounds reached the loopback card (peak $peak dBFS)" awk -v p="$peak" 'BEGIN { exit !(p > -30) }'
rig_assert "the photo is a JPEG" bash -c "head -c 3 '$SYS_PHOTOS/$photo' | od -An -tx1 | grep -q 'ff d8 ff'"

# The knob: one detent clockwise selects the next favourite, which the booth keeps in its state file.
before=$(grep -s '^sound' "$SYS_STATE/state.toml" || echo 'sound = "Duck"')
rig_gpio_knob "$SYS_CHIP" "$SYS_KNOB_A" "$SYS_KNOB_B" 1
rig_wait_for 15 "the state file to change" bash -c "grep -s '^sound' '$SYS_STATE/state.toml' | grep -vqF '$before'"
rig_log "ok: knob: $before -> $(grep '^sound' "$SYS_STATE/state.toml")"
