"""Timing checks on a booth events file (JSON lines, CLOCK_MONOTONIC microseconds) and gpio-timing samples.

Usage: timing.py latency OUT LABEL=FILE...
           Kernel edge time -> the time a program had it, one table (n, min, median, p90, p99, max in
           microseconds) printed and written to OUT. FILE.jsonl: a booth events file, t_us -> handled_us of the
           `input` events, a row per input kind and one for all; any other FILE: `gpio-timing listen` lines
           "kernel_us read_us", one row. Exits 1 when a FILE has no samples.
       timing.py countdown EVENTS SAMPLES LED_COUNT TOLERANCE_MS
           Checks every edge of the LED lines sampled by `gpio-timing sample` (one column per LED, first to last)
           during each countdown against its schedule: the countingDown state event's time + k x 250 ms, the
           LEDs lit as the booth's countdown pattern says, then all on at the capture. Prints each edge's error
           and the distribution, with how many edges are within TOLERANCE_MS and how many came 100 ms or more
           late; exits 1 if an edge is missing or unexpected, if the median edge is off by more than
           TOLERANCE_MS, or if an edge is off by a whole step (250 ms) or more: a step missed or shifted.
           An edge the sampler cannot see because the booth replaced its frame at once (after a stalled loop
           the capture's frame is followed within a millisecond by the processing one: the photo was already
           taken) is checked in the booth's own `leds` events instead: written, on schedule, then replaced.
           The sampler runs SCHED_FIFO 99 on the booth's CPU (gpio-countdown pins both): a guest starved by the
           host stops it too, and that shows as the gap between its reads, which an edge's error may fill; the
           booth's events excuse nothing. Single edges late by less than a step are measured, not failed: an
           emulated guest on a busy host delays them beyond what the sampler sees (133 ms seen in CI).
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


STEP_US = 250_000  # an LED edge this far from its schedule is where the next step's edge belongs: a step lost
LATE_US = 100_000  # an edge this far from its schedule is counted as late (measured, not failed)
SAME_STEP_US = 100_000  # a write scheduled this close to an edge's schedule is that edge's (half the step, less)
BRIEF_US = 5_000  # a frame the booth replaced within this long may fall between two samples


def brief_write(led_events, line, level, scheduled):
    """The booth's write of a frame with LED `line` at `level`, scheduled within SAME_STEP_US of `scheduled`, that
    the next write replaced within BRIEF_US: (written_us, shown_us), or None."""
    for i, e in enumerate(led_events[:-1]):
        if abs(e["scheduled_us"] - scheduled) <= SAME_STEP_US and (e["bits"] >> line) & 1 == level:
            shown = led_events[i + 1]["t_us"] - e["t_us"]
            if shown <= BRIEF_US:
                return e["t_us"], shown
    return None


def countdown(events_path, samples_path, leds, tolerance_ms):
    evs = events(events_path)
    delay = float(next(e for e in evs if e.get("type") == "ready")["delay"])
    half_seconds = round(delay * 2)
    starts = [e["t_us"] for e in evs if e.get("type") == "state" and e.get("to") == "countingDown"]
    processing = [e["t_us"] for e in evs if e.get("type") == "state" and e.get("to") == "processing"]
    led_events = [e for e in evs if e.get("type") == "leds"]
    samples = []  # (t_us, prev_us, bits)
    with open(samples_path) as f:
        for line in f:
            fields = [int(x) for x in line.split()]
            bits = sum(v << i for i, v in enumerate(fields[2:2 + leds]))
            samples.append((fields[0], fields[1], bits))
    if not starts:
        sys.exit("timing: no countingDown state event")
    errors, problems = [], []
    for start in starts:
        end = min([p for p in processing if p > start] or [start + 10_000_000])
        frames = countdown_frames(half_seconds, leds)
        # Expected edges per line: (line, level, scheduled_us); the row is dark before the countdown.
        expected, previous = [], 0
        for offset, bits in frames:
            for i in range(leds):
                if (bits >> i) & 1 != (previous >> i) & 1:
                    expected.append((i, (bits >> i) & 1, start + offset))
            previous = bits
        # Observed edges per line within the countdown (from 100 ms before to the processing state; the last frame,
        # all on at the capture, may be seen just after it).
        observed, last = [], None
        for t, prev, bits in samples:
            if last is not None and start - 100_000 <= t <= end + 50_000:
                for i in range(leds):
                    if (bits >> i) & 1 != (last >> i) & 1:
                        observed.append((i, (bits >> i) & 1, (t + prev) // 2, (t - prev) // 2))
            last = bits
        for line, level, scheduled in expected:
            match = [o for o in observed if o[0] == line and o[1] == level]
            due = (scheduled - start) // 1000
            if not match:
                brief = brief_write(led_events, line, level, scheduled)
                if brief is None:
                    problems.append(f"countdown at {start}: LED{line + 1} never went {level} (due at +{due} ms)")
                    continue
                written, shown = brief
                errors.append((written - scheduled, 0))
                print(f"countdown +{due:5d} ms LED{line + 1}->{level}: "
                      f"error {(written - scheduled) / 1000:+7.2f} ms (the booth's write; replaced after "
                      f"{shown / 1000:.2f} ms, too brief to sample)")
                continue
            best = min(match, key=lambda o: abs(o[2] - scheduled))
            observed.remove(best)
            err, uncertainty = best[2] - scheduled, best[3]
            errors.append((err, uncertainty))
            # Off by a step although the sampler, on the booth's CPU above it, read on time: not the guest held
            # as a whole (that holds the sampler too), so the booth's loop or something it waited for.
            least = abs(err) - uncertainty
            note = ""
            if least >= STEP_US:
                note = "; a whole step beyond the sampler's gap: a step lost"
            elif least >= LATE_US:
                note = "; late beyond the sampler's gap (measured)"
            print(f"countdown +{due:5d} ms LED{line + 1}->{level}: "
                  f"error {err / 1000:+7.2f} ms (sampling +-{uncertainty / 1000:.2f} ms){note}")
        for line, level, t, half in observed:
            if t + half > end:
                continue  # the busy pattern of processing (or a change sampled across its start)
            problems.append(f"countdown at {start}: unexpected LED{line + 1}->{level} at +{(t - start) / 1000:.1f} ms")
    if errors:
        s = sorted(e for e, _ in errors)
        a = sorted(abs(e) for e, _ in errors)
        tolerance = tolerance_ms * 1000
        # An edge passes when the interval it was sampled in reaches into schedule +- tolerance.
        passed = sum(1 for e, u in errors if abs(e) - u <= tolerance)
        imprecise = sum(1 for _, u in errors if u > 2000)
        late = sum(1 for e, u in errors if abs(e) - u >= LATE_US)
        print(f"edges {len(errors)}: error min {s[0] / 1000:+.2f} ms, median {percentile(s, 50) / 1000:+.2f} ms, "
              f"max {s[-1] / 1000:+.2f} ms; |error| p90 {percentile(a, 90) / 1000:.2f} ms, "
              f"p99 {percentile(a, 99) / 1000:.2f} ms; within {tolerance_ms:g} ms: {passed}/{len(errors)}; "
              f"{LATE_US // 1000} ms or more beyond the sampler's gap: {late}; "
              f"sampled less precisely than +-2 ms: {imprecise}")
        # Pass/fail asserts the mechanism, not the host's load: a starved VM stamps edges late (29 ms seen with both
        # host cores busy, 133 ms once in CI while the sampler's reads bracketing the edge were only 42 ms apart), so
        # single edges are measured; a countdown that is off as a whole (its median) or by a whole step beyond what
        # the sampler's own gap explains (the next step's edge, or a step the booth lost) fails.
        if percentile(a, 50) > tolerance:
            problems.append(f"the median edge is off by {percentile(a, 50) / 1000:.2f} ms, more than {tolerance_ms:g} ms")
        stepped = sum(1 for e, u in errors if abs(e) - u >= STEP_US)
        if stepped:
            problems.append(f"{stepped} edge(s) off by {STEP_US // 1000} ms or more, a whole step (a step lost)")
    for p in problems:
        print("PROBLEM:", p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "latency":
        latency(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) == 6 and sys.argv[1] == "countdown":
        countdown(sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5]))
    else:
        sys.exit(__doc__)
