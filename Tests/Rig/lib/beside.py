"""The booth measured from its own events without and with load beside it: button edge -> sound handed to ALSA and
the countdown LED changes against their schedule, each as median and p99 without and with, and their ratios.

Usage: beside.py PURPOSE WITHOUT.jsonl WITH.jsonl LABEL
           -> Markdown table rows "| LABEL what | n without / with | median without / with (ratio) |
              p99 without / with (ratio) |", in ms: the latencies of events.sound_latencies (PURPOSE's sounds) and
              events.countdown_errors. Exits 1 if either file holds no PURPOSE sound started by an input.
The ratio is with ÷ without: 1.00 is no change, above it the load slowed the booth down.
"""
import sys
from statistics import median

import events


def p99(values):
    """The smallest value at or above 99 % of them (nearest rank)."""
    v = sorted(values)
    return v[max(0, -(-99 * len(v) // 100) - 1)]


def ratio(loaded, idle):
    return f"{loaded / idle:.2f}" if idle > 0 else "n/a"


def rows(purpose, without_path, with_path, label):
    """The table's rows (strings), or raises ValueError naming the file without a sound."""
    without, loaded = events.sound_latencies(without_path, purpose), events.sound_latencies(with_path, purpose)
    for path, found in ((without_path, without), (with_path, loaded)):
        if not found["handoff"]:
            raise ValueError(f"{path}: no {purpose} sound started by an input; did the presses reach the booth?")
    pairs = [
        (f"{label} -> first samples handed to ALSA", without["handoff"], loaded["handoff"]),
        (f"{label} -> ALSA stream start (trigger tstamp)", without["start"], loaded["start"]),
        ("countdown LED change: made - due", events.countdown_errors(without_path), events.countdown_errors(with_path)),
    ]
    out = []
    for what, a, b in pairs:
        if not a or not b:
            continue
        a_ms, b_ms = [x / 1000 for x in a], [x / 1000 for x in b]
        out.append(
            f"| {what} | {len(a)} / {len(b)} | {median(a_ms):.3f} / {median(b_ms):.3f} "
            f"({ratio(median(b_ms), median(a_ms))}) | {p99(a_ms):.3f} / {p99(b_ms):.3f} "
            f"({ratio(p99(b_ms), p99(a_ms))}) |")
    return out


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    try:
        for row in rows(*argv):
            print(row)
    except ValueError as error:
        print(f"beside: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
