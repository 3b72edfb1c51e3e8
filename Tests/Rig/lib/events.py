"""Reads a JSON-lines events file written by the program under test.

Usage: events.py FILE states           -> "FROM TO" per {"type":"state"} event, in file order
       events.py FILE field TYPE KEY   -> the KEY value of each {"type":TYPE} event
       events.py FILE count TYPE       -> how many {"type":TYPE} events there are
Lines that are not JSON objects make it fail with the line number.
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
