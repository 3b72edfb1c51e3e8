"""Finds reference sounds in a loopback recording by normalized cross-correlation (numpy, FFT).

Usage: soundcheck.py find REC.wav REF.wav [FROM_S [TO_S [HEAD_S]]]
           -> "LAG NCC MATCHED FRAMES": the best position (in frames) of REF in REC whose start lies in
              [FROM_S, TO_S) seconds, its normalized correlation (1.0 = identical shape), how many of REF's
              frames from its first one are in REC at that position sample for sample (both channels, +-1),
              and REF's length in frames (MATCHED == FRAMES: played to the last sample). HEAD_S: locate REF by
              its first HEAD_S seconds only (a sound that was cut).
       soundcheck.py rank REC.wav REFDIR EXPECTED LAG [SPREAD_S=0.1] [EXCLUDE,...]
           -> for every REFDIR/*.wav except EXCLUDE, the best correlation starting within LAG +- SPREAD_S;
              exits 1 unless EXPECTED is best with >= 0.95 and every other is at least 0.3 lower.
       soundcheck.py latency EVENTS.jsonl PURPOSE LABEL
           -> table rows (n, min, median, p99, max in ms) from each input edge (kernel timestamp) to the soundStarted of
              PURPOSE it caused: first samples handed to ALSA, ALSA's trigger timestamp, the whole first buffer
              handed over (play returned), first progress seen.
       soundcheck.py capture-clock STATUS
           -> CLOCK_MONOTONIC microseconds of the recording's frame 0, from a RUNNING capture's /proc status
              file: by its trigger_time, and by its tstamp minus hw_ptr frames (the file's clock is mapped to
              CLOCK_MONOTONIC by reading both clocks).
       soundcheck.py onsets REC.wav EVENTS.jsonl PURPOSE FRAME0_US LABEL
           -> table row: from each input edge to the first non-silent frame in the recording from 10 ms before
              the ALSA trigger timestamp of the PURPOSE sound it started (FRAME0_US: from capture-clock).
       soundcheck.py onset REC.wav [FROM_S]
           -> the first frame (from FROM_S seconds) that is not digital silence, or -1.
The loopback is bit-exact (same rate, format, channels; gain 0 dB), so a sound the booth played appears in the
recording with its exact sample values; the correlation also tolerates a level change.
"""
import os
import sys
import time
import wave

import numpy as np

import events


def read(path):
    with wave.open(path, "rb") as w:
        if w.getsampwidth() != 2:
            sys.exit(f"soundcheck: {path}: only 16-bit samples are supported")
        rate, channels = w.getframerate(), w.getnchannels()
        data = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.int64)
    return rate, data.reshape(-1, channels)


def ncc(x, r):
    """Normalized correlation of r against x at every lag 0..len(x)-1 (x is zero-padded at the end)."""
    n_r = len(r)
    x = np.concatenate([x, np.zeros(n_r)])
    size = 1 << int(np.ceil(np.log2(len(x) + n_r)))
    corr = np.fft.irfft(np.fft.rfft(x, size) * np.conj(np.fft.rfft(r, size)), size)[: len(x) - n_r]
    energy = np.concatenate([[0.0], np.cumsum(x * x)])
    window = energy[n_r:] - energy[:-n_r]
    window = window[: len(corr)]
    norm = np.sqrt(np.maximum(window, 0)) * np.sqrt(np.sum(r * r))
    return np.where(norm > 1e-9 * max(norm.max(), 1.0), corr / np.maximum(norm, 1e-12), 0.0)


def best(rec, ref, lo, hi):
    scores = ncc(rec[:, 0].astype(float), ref[:, 0].astype(float))
    lo, hi = max(0, lo), min(len(scores), hi)
    if hi <= lo:
        return 0, 0.0
    lag = lo + int(np.argmax(scores[lo:hi]))
    return lag, float(scores[lag])


def matched(rec, ref, lag):
    """Frames of ref, from its first, found sample for sample (every channel, +-1 LSB) at lag."""
    seg = rec[lag : lag + len(ref)]
    mono = ref[: len(seg), :1]
    bad = np.nonzero(np.any(np.abs(seg - mono) > 1, axis=1))[0]
    return int(bad[0]) if len(bad) else len(seg)


def print_latency(path, purpose, label):
    found = events.sound_latencies(path, purpose)
    rows = [("first samples handed to ALSA", found["handoff"]), ("ALSA stream start (trigger tstamp)", found["start"]),
            ("whole buffer with ALSA (play returned)", found["returned"]),
            ("first progress seen by the loop", found["progress"])]
    for what, values in rows:
        if not values:
            continue
        v = np.sort(np.array(values)) / 1000.0
        p99 = v[min(len(v) - 1, int(np.ceil(0.99 * len(v))) - 1)]
        print(f"| {label} -> {what} | {len(v)} | {v[0]:.3f} | {np.median(v):.3f} | {p99:.3f} | {v[-1]:.3f} |")


def print_onsets(rec_path, events_path, purpose, frame0_us, label):
    with wave.open(rec_path, "rb") as w:
        rate, channels = w.getframerate(), w.getnchannels()
        data = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").reshape(-1, channels)
    loud = np.nonzero(np.any(data != 0, axis=1))[0]
    booth_events = list(events.events(events_path))
    inputs = {e["t_us"] for e in booth_events if e.get("type") == "input"}
    values = []
    for e in booth_events:
        if e.get("type") != "soundStarted" or e.get("purpose") != purpose or e.get("event_us") not in inputs:
            continue
        # The first non-silent frame from 10 ms before the ALSA trigger (more than two jiffies of snd-aloop).
        expected = (e.get("device_start_us", e["t_us"]) - frame0_us) * rate / 1e6
        at = np.searchsorted(loud, max(0, int(expected - rate * 0.01)))
        if at < len(loud):
            values.append(frame0_us + loud[at] * 1e6 / rate - e["event_us"])
    if not values:
        sys.exit(f"soundcheck: no {purpose} sound found in {rec_path}")
    v = np.sort(np.array(values)) / 1000.0
    p99 = v[min(len(v) - 1, int(np.ceil(0.99 * len(v))) - 1)]
    print(f"| {label} -> first sample in the loopback recording | {len(v)} | {v[0]:.3f} | {np.median(v):.3f} |"
          f" {p99:.3f} | {v[-1]:.3f} |")


def diagnose(rec, ref, lag, good, rate):
    """Says on stderr what the recording holds where it stops matching: the rest later (frames inserted, e.g.
    stale buffer content replayed by an underrun), or nothing (cut)."""
    x, y = rec[:, 0], ref[:, 0]
    at = lag + good
    if at >= len(x):
        print(f"soundcheck: after {good} frames the recording ends (it holds {len(x)} frames)", file=sys.stderr)
        return
    tail = y[good : good + 64]
    window = x[at : at + rate]
    hits = [i for i in range(max(0, len(window) - len(tail) + 1)) if np.array_equal(window[i : i + len(tail)], tail)]
    if not hits:
        print(f"soundcheck: after {good} frames the rest of the sound is not in the next second", file=sys.stderr)
        return
    inserted = x[at : at + hits[0]]
    source = ""
    for back in range(1, good + 1):
        if len(inserted) and np.array_equal(y[good - back : good - back + len(inserted)], inserted):
            source = f"; they repeat the sound from {back} frames earlier (stale ring buffer: an underrun)"
            break
    print(f"soundcheck: after {good} frames, {hits[0]} other frames, then the sound goes on{source}", file=sys.stderr)


def main(argv):
    cmd = argv[0] if argv else ""
    if cmd == "find":
        rate, rec = read(argv[1])
        ref_rate, ref = read(argv[2])
        if ref_rate != rate:
            sys.exit(f"soundcheck: {argv[2]} is {ref_rate} Hz, the recording {rate} Hz")
        lo = int(float(argv[3]) * rate) if len(argv) > 3 else 0
        hi = int(float(argv[4]) * rate) if len(argv) > 4 else len(rec)
        head = int(float(argv[5]) * rate) if len(argv) > 5 else len(ref)
        lag, score = best(rec, ref[:head], lo, hi)
        good = matched(rec, ref, lag)
        if good < len(ref) and head == len(ref):
            # A glitch inside the sound can pull the whole-sound correlation to a later part: try its start.
            start, _ = best(rec, ref[: min(len(ref), 2048)], lo, hi)
            if matched(rec, ref, start) > good:
                lag, good = start, matched(rec, ref, start)
                score = float(ncc(rec[lag : lag + len(ref), 0].astype(float), ref[:, 0].astype(float))[0])
        print(lag, f"{score:.4f}", good, len(ref))
        if good < len(ref) and head == len(ref):
            diagnose(rec, ref, lag, good, rate)
    elif cmd == "rank":
        rate, rec = read(argv[1])
        folder, expected, lag = argv[2], argv[3], int(argv[4])
        spread = int(float(argv[5]) * rate) if len(argv) > 5 else rate // 10
        exclude = set(argv[6].split(",")) if len(argv) > 6 else set()
        scores = {}
        for name in sorted(os.listdir(folder)):
            stem = name[:-4]
            if name.endswith(".wav") and stem not in exclude:
                scores[stem] = best(rec, read(os.path.join(folder, name))[1], lag - spread, lag + spread + 1)[1]
        for stem, score in sorted(scores.items(), key=lambda kv: -kv[1]):
            print(f"  {stem:<10} {score:.4f}{'  <- expected' if stem == expected else ''}")
        others = max((s for n, s in scores.items() if n != expected), default=0.0)
        ok = scores.get(expected, 0.0) >= 0.95 and others <= scores[expected] - 0.3
        return 0 if ok else 1
    elif cmd == "latency":
        print_latency(argv[1], argv[2], argv[3])
    elif cmd == "capture-clock":
        fields = {}
        with open(argv[1]) as f:
            for line in f:
                if ":" in line:
                    key, value = line.split(":", 1)
                    fields[key.strip()] = value.strip()
        mono, real = time.clock_gettime(time.CLOCK_MONOTONIC), time.clock_gettime(time.CLOCK_REALTIME)
        trigger, stamp = float(fields["trigger_time"]), float(fields["tstamp"])
        # The status file uses the stream's timestamp clock: whichever clock its stamp is near.
        offset = 0.0 if abs(stamp - mono) < abs(stamp - real) else real - mono
        rate = int(argv[2]) if len(argv) > 2 else 48000
        by_trigger = (trigger - offset) * 1e6
        by_pointer = (stamp - offset - int(fields["hw_ptr"]) / rate) * 1e6
        print(int(by_trigger), int(by_pointer))
    elif cmd == "onsets":
        print_onsets(argv[1], argv[2], argv[3], int(argv[4]), argv[5])
    elif cmd == "onset":
        rate, rec = read(argv[1])
        start = int(float(argv[2]) * rate) if len(argv) > 2 else 0
        loud = np.nonzero(np.any(rec[start:] != 0, axis=1))[0]
        print(start + int(loud[0]) if len(loud) else -1)
    else:
        sys.exit(__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
