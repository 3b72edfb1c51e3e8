"""USB webcams for the rig: UVC devices served over USB/IP on 127.0.0.1 (PyPI's pure-Python `usbip`), which the
guest's vhci-hcd imports so that uvcvideo and libcamera see each as any webcam, fed four colour bars by this script.

Usage: webcam.py serve WIDTH HEIGHT PORT FORMAT... -> serves one UVC camera for each FORMAT (yuyv or mjpeg), each
                                                      streaming it at WIDTH x HEIGHT, on 127.0.0.1:PORT until
                                                      SIGTERM: the first is bus id 1-1, product 1209:0c4d, the next
                                                      1-2, 1209:0c4e, and so on; prints "serving" once it listens,
                                                      then each stream's start and end
       webcam.py bars EVENTS                       -> every photoSaved photo in the booth's events (a JPEG,
                                                      decoded with djpeg) shows the four bars, red, green, blue,
                                                      white, left to right; there is at least one
"""
import json
import re
import signal
import subprocess
import sys
import threading

# The bars, left to right, as RGB; `bars` tells each from the others by its strongest channel (white: all high).
BARS = ((220, 30, 30), (30, 220, 30), (30, 30, 220), (235, 235, 235))


def fail(msg):
    sys.exit(f"webcam.py: {msg}")


def rgb_frame(width, height, bars=BARS):
    """The bars as packed RGB24 rows."""
    row = bytearray()
    for x in range(width):
        row += bytes(bars[x * len(bars) // width])
    return bytes(row) * height


def ycbcr(rgb):
    """BT.601 limited range, as a UVC camera's YUY2 is."""
    r, g, b = rgb
    y = 16 + (65.738 * r + 129.057 * g + 25.064 * b) / 256
    cb = 128 + (-37.945 * r - 74.494 * g + 112.439 * b) / 256
    cr = 128 + (112.439 * r - 94.154 * g - 18.285 * b) / 256
    return round(y), round(cb), round(cr)


def yuyv_frame(width, height):
    """The bars as packed YUYV (Y0 U Y1 V per two pixels); each bar's width is even, so a pair never spans two."""
    row = bytearray()
    for x in range(0, width, 2):
        y, u, v = ycbcr(BARS[x * len(BARS) // width])
        row += bytes((y, u, y, v))
    return bytes(row) * height


def mjpeg_frame(width, height, bars=BARS):
    """The bars as one baseline JPEG (cjpeg from libjpeg-turbo-progs), as a webcam's MJPEG frame is."""
    ppm = b"P6\n%d %d\n255\n" % (width, height) + rgb_frame(width, height, bars)
    out = subprocess.run(["cjpeg", "-quality", "90", "-baseline"], input=ppm, capture_output=True)
    if out.returncode != 0 or not out.stdout.startswith(b"\xff\xd8"):
        fail(f"cjpeg failed: {out.stderr.decode(errors='replace').strip()}")
    return out.stdout


def serve(width, height, port, formats):
    from usbip.classes.device import UVC
    from usbip.device import USBDevice
    from usbip.transport import USBIP

    if width % (2 * len(BARS)):
        fail(f"width {width}: a multiple of {2 * len(BARS)}, so each bar is whole YUYV pairs")
    transport = USBIP("127.0.0.1", port)
    plugged = []
    for index, fmt in enumerate(formats):
        if fmt not in ("yuyv", "mjpeg"):
            fail(f"format {fmt!r}: yuyv or mjpeg")
        frame = yuyv_frame(width, height) if fmt == "yuyv" else mjpeg_frame(width, height)

        def on_event(text, fmt=fmt):
            if text.startswith("STREAM") or text.startswith("COMMIT"):
                print(f"{fmt}: {text}", flush=True)

        dev = USBDevice(0x1209, 0x0C4D + index, manufacturer="HeyLook rig", product="Rig Webcam", serial=f"{index + 1}")
        dev.add(UVC(width=width, height=height, fps=15, formats=(fmt,), source=lambda vs, ch, i, frame=frame: frame,
                    on_event=on_event))
        dev.set_iso_pacing(True)  # frames at the camera's own rate, not as fast as the guest can ask
        dev.plug(via=transport)
        plugged.append(dev)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    print("serving", flush=True)
    done.wait()
    for dev in plugged:
        dev.unplug()


def bars(events):
    with open(events) as f:
        photos = [e["path"] for e in map(json.loads, filter(str.strip, f)) if e.get("type") == "photoSaved"]
    if not photos:
        fail(f"{events}: no photoSaved event")
    for photo in photos:
        bars_of(photo)


def bars_of(photo):
    out = subprocess.run(["djpeg", "-pnm", photo], capture_output=True)
    if out.returncode != 0:
        fail(f"{photo}: djpeg failed: {out.stderr.decode(errors='replace').strip()}")
    header = re.match(rb"P6\s+(\d+)\s+(\d+)\s+255\s", out.stdout)
    if not header:
        fail(f"{photo}: not a colour JPEG (djpeg gave {out.stdout[:2]!r})")
    width, height, pixels = int(header[1]), int(header[2]), out.stdout[header.end():]
    for i, want in enumerate(BARS):
        # the middle half of bar i, rows in the middle half
        x0, x1 = (4 * i + 1) * width // 16, (4 * i + 3) * width // 16
        total, n = [0, 0, 0], 0
        for y in range(height // 4, 3 * height // 4):
            for x in range(x0, x1):
                p = 3 * (y * width + x)
                for c in range(3):
                    total[c] += pixels[p + c]
                n += 1
        got = tuple(t // n for t in total)
        if any(abs(g - w) > 12 for g, w in zip(got, want)):
            fail(f"{photo}: bar {i + 1} is RGB {got}, want about {want} (the camera's frame, not what was saved?)")
        print(f"{photo}: bar {i + 1} RGB {got} (fed {want})")


def main(argv):
    if len(argv) >= 6 and argv[1] == "serve":
        serve(int(argv[2]), int(argv[3]), int(argv[4]), argv[5:])
    elif len(argv) == 3 and argv[1] == "bars":
        bars(argv[2])
    else:
        fail(__doc__)


if __name__ == "__main__":
    main(sys.argv)
