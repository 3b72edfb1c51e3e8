"""Reads a JSON-lines events file written by the program under test.

Usage: events.py FILE states           -> "FROM TO" per {"type":"state"} event, in file order
       events.py FILE field TYPE KEY   -> the KEY value of each {"type":TYPE} event
       events.py FILE count TYPE       -> how many {"type":TYPE} events there are
Lines that are not JSON objects make it fail with the line number. As a module: events(), sound_latencies() and
countdown_errors() for the scripts that measure the booth from its events (soundcheck.py, beside.py).
"""
import json
import sys


def events(path):
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                e = json.loads(line)
            except ValueError as err:
                sys.exit(f"events: {path}:{n}: not JSON: {err}: {line.strip()[:200]}")
            if not isinstance(e, dict):
                sys.exit(f"events: {path}:{n}: not a JSON object")
            yield e


def sound_latencies(path, purpose):
    """From each input edge (its kernel timestamp) to the soundStarted of `purpose` it caused, in µs:
    {"handoff": first samples handed to ALSA, "start": ALSA's trigger timestamp, "returned": the whole first buffer
    with ALSA (play returned), "progress": first progress seen by the loop (from the soundFinished that follows)}."""
    all_events = list(events(path))
    inputs = {e["t_us"] for e in all_events if e.get("type") == "input"}
    found = {"handoff": [], "start": [], "returned": [], "progress": []}
    started = None
    for e in all_events:
        if e.get("type") == "soundStarted" and e.get("purpose") == purpose and e.get("event_us") in inputs:
            found["handoff"].append(e["t_us"] - e["event_us"])
            if "returned_us" in e:
                found["returned"].append(e["returned_us"] - e["event_us"])
            if "device_start_us" in e:
                found["start"].append(e["device_start_us"] - e["event_us"])
            started = e
        elif e.get("type") == "soundFinished" and e.get("purpose") == purpose and started is not None:
            if "first_progress_us" in e:
                found["progress"].append(e["first_progress_us"] - started["event_us"])
            started = None
    return found


def countdown_errors(path):
    """Each countdown LED change the booth made on its timer: when its loop made it minus when it was due (µs, the
    leds event's t_us - scheduled_us). A countdown's first frame, shown with the event that starts it, is not on a
    timer and is left out."""
    errors, counting, first = [], False, False
    for e in events(path):
        if e.get("type") == "state":
            counting = e.get("to") == "countingDown"
            first = counting
        elif e.get("type") == "leds" and counting:
            if first:
                first = False
            elif "scheduled_us" in e:
                errors.append(e["t_us"] - e["scheduled_us"])
    return errors


if __name__ == "__main__":
    path, cmd, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    if cmd == "states":
        for e in events(path):
            if e.get("type") == "state":
                print(e.get("from", "-"), e.get("to", "-"))
    elif cmd == "field":
        for e in events(path):
            if e.get("type") == args[0] and args[1] in e:
                print(e[args[1]])
    elif cmd == "count":
        print(sum(1 for e in events(path) if e.get("type") == args[0]))
    else:
        sys.exit(__doc__)
