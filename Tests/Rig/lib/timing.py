"""Timing checks on a booth events file (JSON lines, CLOCK_MONOTONIC microseconds) and gpio-timing samples.

Usage: timing.py latency OUT LABEL=FILE...
           Kernel edge time -> the time a program had it, one table (n, min, median, p90, p99, max in
           microseconds) printed and written to OUT. FILE.jsonl: a booth events file, t_us -> handled_us of the
           `input` events, a row per input kind and one for all; any other FILE: `gpio-timing listen` lines
           "kernel_us read_us", one row. Exits 1 when a FILE has no samples.
       timing.py countdown EVENTS SAMPLES LED_COUNT DELAY_S TOLERANCE_MS [--held FROM_US TO_US]
           Checks the LED lines sampled by `gpio-timing sample` (one column per LED, first to last, then the time the
           sampler lost) in each countdown against the configured schedule (DELAY_S, on LED_COUNT LEDs), on the
           sampler's own clock: the countdown starts at the read that first saw an LED lit (the booth had written its
           first frame by then; an edge seen early is judged from the read before it, less the time the sampler lost in
           the step before, when it had not), and every later edge is due that long after it (k x 250 ms, the LEDs lit
           as the countdown pattern says). When that read shows a later frame, the frames before it are asked for only
           where they were due while the sampler ran: the booth shows the frame due when it runs, and a guest the host
           held off over the countdown's start (398 ms once in CI) runs it past its first frames. The booth's events
           only say where each countdown is (its countingDown event, to 100 ms); nothing they say about time is used. Prints each edge's error and the distribution, with how many
           are within TOLERANCE_MS; exits 1 if an edge is missing or unexpected, if the median edge's read interval lies
           more than TOLERANCE_MS outside where the edge may be (from the earliest the countdown can have begun to the
           anchor, plus its offset), or if an edge was still not written 40 ms after it was due, beyond the time the
           sampler lost meanwhile: the sampler runs SCHED_FIFO 99 on the booth's CPU (gpio-countdown pins both), so it
           loses time only when that CPU stands still (a guest the host starves), which holds the booth as well; time
           the sampler did not lose was the booth's to write in. A booth stalled for 50 ms over an edge fails. The
           capture's frame (all on, at the countdown's end) is outside the judged window: it is reported, and the camera
           scenarios time the capture itself. With --held (the time gpio-timing held the booth, on the same clock), a
           problem with an edge due within that time ends in "(in the hold)", so a scenario that holds the booth can
           tell the held edge's failure from any other.
"""
import json
import sys

HALF_SECOND_US = 500_000
FLASH_ON_US = 250_000


def events(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def percentile(sorted_values, p):
    """Nearest-rank percentile of an already sorted list."""
    if not sorted_values:
        return 0
    rank = max(1, -(-p * len(sorted_values) // 100))
    return sorted_values[int(rank) - 1]


def latency(out_path, sources):
    rows = [("source", "n", "min_us", "median_us", "p90_us", "p99_us", "max_us")]
    for source in sources:
        label, path = source.split("=", 1)
        by_kind = {}
        if path.endswith(".jsonl"):
            for e in events(path):
                if e.get("type") == "input" and "handled_us" in e:
                    by_kind.setdefault(f"{label}: {e['input']}", []).append(e["handled_us"] - e["t_us"])
            by_kind = dict(sorted(by_kind.items()))
            if by_kind:
                by_kind[f"{label}: all"] = [v for values in by_kind.values() for v in values]
        else:
            with open(path) as f:
                by_kind[label] = [int(b) - int(a) for a, b, *_ in (line.split() for line in f if line.strip())]
        if not by_kind:
            sys.exit(f"timing: no samples in {path}")
        for kind, values in by_kind.items():
            v = sorted(values)
            rows.append((kind, len(v), v[0], percentile(v, 50), percentile(v, 90), percentile(v, 99), v[-1]))
    widths = [max(len(str(r[i])) for r in rows) for i in range(len(rows[0]))]
    text = "".join(
        "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(r, widths))) + "\n"
        for r in rows)
    print(text, end="")
    with open(out_path, "w") as f:
        f.write("kernel edge timestamp -> the event in the program's hands (the booth: handled in its loop), microseconds\n")
        f.write(text)


def countdown_frames(half_seconds, leds):
    """[(offset_us, bits)] of the countdown pattern, then all on at the end (the capture)."""
    frames = []
    for slot in range(half_seconds):
        lit = (leds * (half_seconds - slot) + half_seconds - 1) // half_seconds
        frames.append((slot * HALF_SECOND_US, (1 << lit) - 1))
        frames.append((slot * HALF_SECOND_US + FLASH_ON_US, 0))
    frames.append((half_seconds * HALF_SECOND_US, (1 << leds) - 1))
    return frames


def ran_within(samples, low, high):
    """How long the sampler ran from `low` to `high`: the time less what it lost there. A read's lost time lies
    somewhere in its interval, so only what cannot lie outside the window counts as lost within it."""
    lost = 0
    for t, prev, _, read_lost in samples:
        overlap = min(t, high) - max(prev, low)
        if read_lost and overlap > 0:
            lost += max(0, read_lost - ((t - prev) - overlap))
    return max(0, high - low - lost)


def skipped_frames(samples, first, frames):
    """How many of the countdown's first frames the read `first` (the first to see an LED lit) shows passed: k when it
    shows frame k, or part of its write (only lines frame k lights), and the sampler ran less than HELD_US of the time
    of each lit frame before it: a guest the host held off stood still then, and the booth shows the frame due when it
    runs again (a dark frame before it is the row as it was). The same allowance as an edge's: one written HELD_US after
    it was due beyond the time lost fails. 0 otherwise: the first frame, or part of it (a read in the middle of its
    write), judged edge by edge from there."""
    t, prev, bits, _ = samples[first]
    for k, (offset, frame_bits) in enumerate(frames[:-1]):
        if k == 0 or frame_bits == 0 or bits & ~frame_bits:
            continue
        # Each lit frame's time, from the read before the anchor's to the anchor's, less frame k's offset.
        if all(ran_within(samples[:first + 1], prev - offset + o, t - offset + frames[j + 1][0]) < HELD_US
               for j, (o, b) in enumerate(frames[:k]) if b):
            return k
    return 0


def expected_from(frames, skipped, leds):
    """[(line, level, offset_us)]: the edges of the countdown's frames from frame `skipped` on (the row dark before it),
    the capture's frame excluded."""
    expected, previous = [], 0
    for offset, bits in frames[skipped:-1]:
        for i in range(leds):
            if (bits >> i) & 1 != (previous >> i) & 1:
                expected.append((i, (bits >> i) & 1, offset))
        previous = bits
    return expected


STEP_US = 250_000  # one countdown step
HELD_US = 40_000  # an edge still not written this long after it was due, beyond the time the sampler lost, fails
LATE_US = 100_000  # an edge this far from its schedule is counted as late
WINDOW_US = 100_000  # a countdown's first lit LED is looked for from this long before its countingDown event


def read_samples(path, leds):
    """[(t_us, prev_us, bits, lost_us)] of a gpio-timing sample file (lost_us 0 where the file has none)."""
    samples = []
    with open(path) as f:
        for line in f:
            fields = [int(x) for x in line.split()]
            bits = sum(v << i for i, v in enumerate(fields[2:2 + leds]))
            lost = fields[2 + leds] if len(fields) > 2 + leds else 0
            samples.append((fields[0], fields[1], bits, lost))
    return samples


def lost_between(samples, after, until):
    """The time the sampler lost in the reads that ended after `after` and by `until`."""
    return sum(lost for t, _, _, lost in samples if after < t <= until)


def countdown(events_path, samples_path, leds, delay_s, tolerance_ms, held=None):
    evs = events(events_path)
    half_seconds = round(delay_s * 2)
    starts = [e["t_us"] for e in evs if e.get("type") == "state" and e.get("to") == "countingDown"]
    samples = read_samples(samples_path, leds)
    if not starts:
        sys.exit("timing: no countingDown state event")
    frames = countdown_frames(half_seconds, leds)
    capture_offset, all_on = frames[-1]
    errors, problems = [], []
    tolerance = tolerance_ms * 1000
    for start in starts:
        first = next((k for k, s in enumerate(samples) if s[0] >= start - WINDOW_US and s[2] != 0), None)
        skipped = 0 if first is None else skipped_frames(samples, first, frames)
        if first is None or samples[first][0] > start + frames[skipped][0] + STEP_US:
            problems.append(f"countdown at {start}: no LED seen lit within {STEP_US // 1000} ms of it")
            continue
        # The countdown began (its first frame was due) the skipped frames' length before the anchor's read (the
        # booth shows the frame due when it gets to run: frames due while the guest stood still are never shown).
        shift = frames[skipped][0]
        anchor, anchor_prev = samples[first][0] - shift, samples[first][1] - shift
        if skipped:
            print(f"countdown at {start}: the first {skipped} frame(s) were due while the guest stood still "
                  f"(the sampler lost {lost_between(samples, start - WINDOW_US, samples[first][1]) / 1000:.1f} ms); "
                  f"judged from the frame at +{shift // 1000} ms")
        # The countdown began no later than the anchor's read, and no earlier than the read before it less the time
        # the sampler lost in the step before (a guest that stood still holds the first frame back, not the booth's
        # schedule).
        earliest = anchor_prev - lost_between(samples, anchor + shift - STEP_US, anchor_prev + shift)
        end = anchor + capture_offset - STEP_US // 2  # the judged window ends half a step before the capture
        # Observed edges per line from the anchor's read (the row was dark before it) to the window's end:
        # (line, level, t_us, prev_us).
        observed, last = [], 0
        for t, prev, bits, _ in samples[first:]:
            if t > end:
                break
            for i in range(leds):
                if (bits >> i) & 1 != (last >> i) & 1:
                    observed.append((i, (bits >> i) & 1, t, prev))
            last = bits
        for line, level, offset in expected_from(frames, skipped, leds):
            due = anchor + offset
            in_hold = " (in the hold)" if held and held[0] <= due <= held[1] else ""
            match = [o for o in observed if o[0] == line and o[1] == level]
            if not match:
                problems.append(f"countdown at {start}: LED{line + 1} never went {level} (due at +{offset // 1000} ms)"
                                f"{in_hold}")
                continue
            best = min(match, key=lambda o: abs((o[2] + o[3]) // 2 - due))
            observed.remove(best)
            _, _, t, prev = best
            # The error against the schedule from the anchor's interval's middle, as uncertain as both intervals.
            # The error as the sampler saw it (the middles of the edge's and the anchor's read intervals), and how far
            # the edge's interval lies outside where it may be: from the earliest start + offset to the anchor +
            # offset.
            err = (t + prev) // 2 - (anchor + anchor_prev) // 2 - offset
            uncertainty = (t - prev) // 2 + (anchor - anchor_prev) // 2
            errors.append((err, max(0, prev - due, earliest + offset - t)))
            # Not written by `prev` although the CPU ran for all that the sampler did not lose since it was due.
            lost = lost_between(samples, due, prev)
            behind = prev - due - lost
            # Seen before it was due even from the earliest the countdown can have begun.
            early = earliest + offset - t
            note = ""
            if behind >= HELD_US:
                note = f"; not written {behind / 1000:.1f} ms after it was due beyond the time lost: the booth held"
                problems.append(f"countdown at {start}: LED{line + 1}->{level} due at +{offset // 1000} ms: "
                                f"{note[2:]}{in_hold}")
            elif early >= HELD_US:
                note = f"; seen {early / 1000:.1f} ms before it was due"
                problems.append(f"countdown at {start}: LED{line + 1}->{level} due at +{offset // 1000} ms: "
                                f"{note[2:]}{in_hold}")
            elif abs(err) - uncertainty >= LATE_US:
                note = "; late, within the time the sampler lost"
            print(f"countdown +{offset // 1000:5d} ms LED{line + 1}->{level}: error {err / 1000:+7.2f} ms "
                  f"(sampling +-{uncertainty / 1000:.2f} ms, sampler lost {lost_between(samples, due, t) / 1000:.2f} ms)"
                  f"{note}")
        for line, level, t, prev in observed:
            problems.append(f"countdown at {start}: unexpected LED{line + 1}->{level} at "
                            f"+{((t + prev) // 2 - anchor) / 1000:.1f} ms")
        capture = next((s for s in samples[first:] if s[0] > end and s[2] == all_on), None)
        seen = f"+{((capture[0] + capture[1]) // 2 - anchor) / 1000:.1f} ms" if capture else "not sampled"
        print(f"countdown capture frame (not judged here): due at +{capture_offset // 1000} ms, seen {seen}")
    if errors:
        s = sorted(e for e, _ in errors)
        a = sorted(abs(e) for e, _ in errors)
        # An edge is within the tolerance when the interval it was sampled in reaches within it of where it may be.
        passed = sum(1 for _, b in errors if b <= tolerance)
        late = sum(1 for _, b in errors if b >= LATE_US)
        print(f"edges {len(errors)}: error min {s[0] / 1000:+.2f} ms, median {percentile(s, 50) / 1000:+.2f} ms, "
              f"max {s[-1] / 1000:+.2f} ms; |error| p90 {percentile(a, 90) / 1000:.2f} ms, "
              f"p99 {percentile(a, 99) / 1000:.2f} ms; within {tolerance_ms:g} ms: {passed}/{len(errors)}; "
              f"{LATE_US // 1000} ms or more off: {late}")
        beyond = sorted(b for _, b in errors)
        if percentile(beyond, 50) > tolerance:
            problems.append(f"the median edge is off by {percentile(beyond, 50) / 1000:.2f} ms beyond its sampling, "
                            f"more than {tolerance_ms:g} ms")
    for p in problems:
        print("PROBLEM:", p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "latency":
        latency(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) == 7 and sys.argv[1] == "countdown":
        countdown(sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6]))
    elif len(sys.argv) == 10 and sys.argv[1] == "countdown" and sys.argv[7] == "--held":
        countdown(sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6]),
                  (int(sys.argv[8]), int(sys.argv[9])))
    else:
        sys.exit(__doc__)
