"""Photo store and exported stick checks for the usb-* scenarios.

Usage: usbcheck.py seed DIR COUNT KIB DATE FIRST_SEQ  -> COUNT JPEG-shaped files (FF D8 .. FF D9, random body,
                                                        KIB kibibytes +-25 %) named like the store's photos
       usbcheck.py digest DIR                         -> "NAME SHA256" per photo (HeyLook_*.jpg) in DIR, sorted
       usbcheck.py compare STORE EXPORT [--complete]  -> checks every file under EXPORT/YYYY-MM-DD/: final names
                                                        must equal the store's photo of that name byte for byte,
                                                        in its date's folder (an undated one the index dates
                                                        since: that date's)
                                                        (temp names .NAME.partial are counted, not checked;
                                                        empty files are counted, at most one, what a pull
                                                        between a FAT rename's two flushes leaves);
                                                        --complete: every kept store photo is there, no temp or
                                                        empty files
       usbcheck.py fsck-pulled IMG                    -> fsck.fat -n IMG finds no damaged file: a complaint about
                                                        any file but a temp file (.NAME.partial), two files
                                                        sharing clusters or both FATs corrupt fail it; the rest
                                                        (dirty bit, unused clusters, torn long names, a lagging
                                                        second FAT, a temp file's reserved clusters) is printed
Prints one "final=N partial=N empty=N missing=N" line; exits 1 with the reasons when a check fails.
"""
import hashlib
import os
import random
import re
import subprocess
import sys
import time


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


def dated_since(store):
    """name -> the local date folder of each undated photo the store's index dates since (a phone set the clock:
    its line ends in BOOT@NS=SECONDS); such a photo is exported into that folder."""
    dated = {}
    try:
        with open(os.path.join(store, "index.txt")) as f:
            for line in f:
                m = re.fullmatch(r"photo (\S+) \S+ \d+ \S+ \S+ [0-9a-f]{32}@\d+=(-?\d+)\n?", line)
                if m:
                    dated[m.group(1)] = time.strftime("%Y-%m-%d", time.localtime(int(m.group(2))))
    except FileNotFoundError:
        pass
    return dated


def compare(store, export, complete):
    problems = []
    dated = dated_since(store)
    final = {}
    partial = []
    empty = []
    for folder in sorted(os.listdir(export)):
        path = os.path.join(export, folder)
        if folder.startswith(".") or not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            if name.startswith(".") and name.endswith(".partial"):
                partial.append(f"{folder}/{name}")
                continue
            if os.path.getsize(os.path.join(path, name)) == 0:
                # What a pull between the two flushes of a FAT rename leaves: the photo's new folder entry,
                # still empty. Counted apart; a re-plug must remove it.
                empty.append(f"{folder}/{name}")
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
            want = dated.get(name) or "-".join(name.split("_")[1].split("-")[:3])
            if folder != want:
                problems.append(f"{folder}/{name}: in the wrong date folder (want {want})")
    missing = [n for n in photos(store) if n not in final]
    if complete:
        problems += [f"{n}: not on the stick" for n in missing]
        problems += [f"{p}: temp file left" for p in partial]
        problems += [f"{p}: empty file under a final name left" for p in empty]
    elif len(empty) > 1:
        problems += [f"{p}: empty file under a final name (more than the one rename a pull can cut)" for p in empty]
    print(f"final={len(final)} partial={len(partial)} empty={len(empty)} missing={len(missing)}")
    if problems:
        sys.exit("usbcheck: " + "\nusbcheck: ".join(problems))


SUMMARY = re.compile(r"^(fsck\.fat |Leaving filesystem unchanged|.*: \d+ files, \d+/\d+ clusters$)")


def fsck_output(image):
    """fsck.fat -n's exit code and output."""
    run = subprocess.run(["fsck.fat", "-n", image], capture_output=True, text=True)
    return run.returncode, run.stdout + run.stderr


def fsck_judgement(image, output=None, tolerated=lambda path: False):
    """(problems, notes) of fsck.fat -n (or its `output`) on a pulled or power-cut stick. Problems are what would
    cost a photo: a complaint about a file that is not a temp file (a photo, the manifest, a folder) unless
    `tolerated(path)`, two files on the same clusters, or both FATs corrupt. Notes are the rest of what a pull
    leaves (the dirty bit, unused clusters, torn long names, a lagging second FAT, a temp file's reserved
    clusters)."""
    code, out = output or fsck_output(image)
    if code == 0:
        return [], []
    problems, notes = [], []
    for line in out.splitlines():
        text = line.strip()
        if not text or SUMMARY.match(line):
            continue
        if line.startswith("/") and not re.fullmatch(r"\.[^/]*\.partial", os.path.basename(line)):
            if tolerated(line):
                notes.append(f"tolerated: {line}")
            else:
                problems.append(f"a file that is not a temp file: {line}")
        elif "share clusters" in text or text == "and" or "both appear to be corrupt" in text:
            problems.append(text)
        else:
            notes.append(text)
    if problems:
        problems.insert(0, "fsck.fat -n " + image + ":\n" + out)
    return problems, notes


def fsck_pulled(image):
    """Fails on what fsck_judgement calls a problem; prints the notes."""
    problems, notes = fsck_judgement(image)
    if problems:
        sys.exit("usbcheck: " + "\nusbcheck: ".join(problems))
    if notes:
        print("fsck.fat -n (harmless after a pull): " + " | ".join(notes))


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "seed":
        seed(args[0], int(args[1]), int(args[2]), args[3], int(args[4]))
    elif cmd == "digest":
        digest(args[0])
    elif cmd == "fsck-pulled":
        fsck_pulled(args[0])
    elif cmd == "compare":
        compare(args[0], args[1], "--complete" in args[2:])
    else:
        sys.exit(__doc__)
