"""Checks for the camera scenarios over the booth's JSON-lines events.

Usage: camera.py photos EVENTS BOOTH WIDTH HEIGHT COUNT
           every photoSaved file decodes (`BOOTH inspect`) at WIDTH x HEIGHT with EXIF model and a date-time exactly
           when its name is dated (HeyLook_undated_N.jpg while the guest's clock is not synchronised), every
           capture event is a frame exposed at or after its trigger (sensor_us >= trigger_us, the trigger of its
           captureRequested), and there are COUNT of each
       camera.py stats EVENTS INTERVAL_US   -> shutter lag in frame intervals and capture -> durable photo times
       camera.py interval CAM_OUTPUT        -> median frame interval (us) of a `cam --capture` run
"""
import json
import os
import re
import statistics
import subprocess
import sys


def events(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def of(evs, kind):
    return [e for e in evs if e.get("type") == kind]


def fail(msg):
    sys.exit(f"camera.py: {msg}")


def photos(path, booth, width, height, count):
    evs = events(path)
    saved, captures, requests = of(evs, "photoSaved"), of(evs, "capture"), of(evs, "captureRequested")
    if len(saved) != count or len(captures) != count:
        fail(f"want {count} photoSaved and capture events, got {len(saved)} and {len(captures)}")
    triggers = {r["capture"]: r["trigger_us"] for r in requests}
    for c in captures:
        if triggers.get(c["capture"]) != c["trigger_us"]:
            fail(f"capture {c['capture']}: trigger_us {c['trigger_us']} is not its request's {triggers.get(c['capture'])}")
        if c["sensor_us"] < c["trigger_us"]:
            fail(f"capture {c['capture']}: frame exposed {c['trigger_us'] - c['sensor_us']} us before the trigger")
        print(f"capture {c['capture']}: sensor - trigger = {c['sensor_us'] - c['trigger_us']} us")
    for s in saved:
        out = subprocess.run([booth, "inspect", s["path"]], capture_output=True, text=True)
        if out.returncode != 0:
            fail(f"{s['path']}: booth inspect failed: {out.stderr.strip()}")
        info = json.loads(out.stdout)
        print(f"{s['path']}: {out.stdout.strip()}")
        if (info["width"], info["height"]) != (width, height):
            fail(f"{s['path']}: {info['width']}x{info['height']}, want {width}x{height}")
        if (info["decodedWidth"], info["decodedHeight"]) != (width, height):
            fail(f"{s['path']}: decodes to {info['decodedWidth']}x{info['decodedHeight']}")
        if not info.get("cameraModel"):
            fail(f"{s['path']}: no EXIF camera model")
        if os.path.basename(s["path"]).startswith("HeyLook_undated_"):
            if info.get("dateTime") is not None:
                fail(f"{s['path']}: undated photo with EXIF date-time {info['dateTime']!r}")
        elif not re.fullmatch(r"\d{4}:\d\d:\d\d \d\d:\d\d:\d\d", info.get("dateTime") or ""):
            fail(f"{s['path']}: EXIF date-time {info.get('dateTime')!r}")
    shots = sorted(c["sensor_us"] for c in captures)
    if len(set(shots)) != len(shots):
        fail("two captures share one frame")


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def stats(path, interval):
    evs = events(path)
    captures = {c["capture"]: c for c in of(evs, "capture")}
    lags = [(c["sensor_us"] - c["trigger_us"]) / interval for c in captures.values()]
    durable = [s["t_us"] - captures[s["capture"]]["t_us"] for s in of(evs, "photoSaved") if s["capture"] in captures]
    if not lags:
        fail("no captures")
    print(f"captures {len(lags)}  frame interval {interval:.0f} us")
    print(f"shutter lag (frame intervals): median {statistics.median(lags):.2f}  max {max(lags):.2f}  "
          f"(ms: median {statistics.median(lags) * interval / 1000:.1f}  max {max(lags) * interval / 1000:.1f})")
    print(f"capture -> durable photo (ms): median {statistics.median(durable) / 1000:.1f}  "
          f"p99 {pct(durable, 99) / 1000:.1f}  max {max(durable) / 1000:.1f}")


def interval(path):
    stamps = []
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*(\d+\.\d+) .*seq:", line)
            if m:
                stamps.append(float(m.group(1)))
    gaps = [(b - a) * 1e6 for a, b in zip(stamps, stamps[1:])]
    if not gaps:
        fail(f"no frame timestamps in {path}")
    print(f"{statistics.median(gaps):.0f}")


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "photos":
        photos(args[0], args[1], int(args[2]), int(args[3]), int(args[4]))
    elif cmd == "stats":
        stats(args[0], float(args[1]))
    elif cmd == "interval":
        interval(args[0])
    else:
        sys.exit(__doc__)
