"""Photo store and exported stick checks for the usb-* scenarios.

Usage: usbcheck.py seed DIR COUNT KIB DATE FIRST_SEQ  -> COUNT JPEG-shaped files (FF D8 .. FF D9, random body,
                                                        KIB kibibytes +-25 %) named like the store's photos
       usbcheck.py digest DIR                         -> "NAME SHA256" per photo (HeyLook_*.jpg) in DIR, sorted
       usbcheck.py compare STORE EXPORT [--complete]  -> checks every file under EXPORT/YYYY-MM-DD/: final names
                                                        must equal the store's photo of that name byte for byte
                                                        (temp names .NAME.partial are counted, not checked);
                                                        --complete: every kept store photo is there, no temp files
Prints one "final=N partial=N missing=N" line; exits 1 with the reasons when a check fails.
"""
import hashlib
import os
import random
import sys


def seed(directory, count, kib, date, first):
    os.makedirs(directory, exist_ok=True)
    rng = random.Random(f"{date}-{first}-{count}-{kib}")
    for i in range(count):
        size = int(kib * 1024 * rng.uniform(0.75, 1.25))
        seq = first + i
        name = f"HeyLook_{date}_10-{(i // 60) % 60:02d}-{i % 60:02d}_{seq:06d}.jpg"
        body = rng.randbytes(size - 6)
        with open(os.path.join(directory, name), "wb") as f:
            f.write(b"\xff\xd8\xff\xe0" + body + b"\xff\xd9")


def photos(directory):
    return sorted(n for n in os.listdir(directory) if n.startswith("HeyLook_") and n.endswith(".jpg"))


def digest(directory):
    for name in photos(directory):
        with open(os.path.join(directory, name), "rb") as f:
            print(name, hashlib.sha256(f.read()).hexdigest())


def compare(store, export, complete):
    problems = []
    final = {}
    partial = []
    for folder in sorted(os.listdir(export)):
        path = os.path.join(export, folder)
        if folder.startswith(".") or not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            if name.startswith(".") and name.endswith(".partial"):
                partial.append(f"{folder}/{name}")
                continue
            final[name] = folder
            ours = os.path.join(store, name)
            if not os.path.isfile(ours):
                problems.append(f"{folder}/{name}: not a photo of the store")
                continue
            with open(os.path.join(path, name), "rb") as a, open(ours, "rb") as b:
                there, here = a.read(), b.read()
            if there != here:
                problems.append(f"{folder}/{name}: differs from the store ({len(there)} vs {len(here)} bytes)")
            want = "-".join(name.split("_")[1].split("-")[:3])
            if folder != want:
                problems.append(f"{folder}/{name}: in the wrong date folder (want {want})")
    missing = [n for n in photos(store) if n not in final]
    if complete:
        problems += [f"{n}: not on the stick" for n in missing]
        problems += [f"{p}: temp file left" for p in partial]
    print(f"final={len(final)} partial={len(partial)} missing={len(missing)}")
    if problems:
        sys.exit("usbcheck: " + "\nusbcheck: ".join(problems))


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "seed":
        seed(args[0], int(args[1]), int(args[2]), args[3], int(args[4]))
    elif cmd == "digest":
        digest(args[0])
    elif cmd == "compare":
        compare(args[0], args[1], "--complete" in args[2:])
    else:
        sys.exit(__doc__)
