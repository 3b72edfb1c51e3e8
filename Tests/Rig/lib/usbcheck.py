"""Photo store and exported stick checks for the usb-* scenarios.

Usage: usbcheck.py seed DIR COUNT KIB DATE FIRST_SEQ  -> COUNT JPEG-shaped files (FF D8 .. FF D9, random body,
                                                        KIB kibibytes +-25 %) named like the store's photos
       usbcheck.py digest DIR                         -> "NAME SHA256" per photo (HeyLook_*.jpg) in DIR, sorted
       usbcheck.py compare STORE EXPORT [--complete]  -> checks every file under EXPORT/YYYY-MM-DD/: final names
                                                        must equal the store's photo of that name byte for byte,
                                                        in its date's folder (an undated one the index dates
                                                        since: that date's, as saved or as its dated copy, named
                                                        with its date and time, its EXIF dated)
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


# A photo's companion on a stick (a RAW): the photo's name with another extension than jpg.
RAW = re.compile(r"(HeyLook_[^.]+)\.(?!jpg$)([a-z0-9]{1,5})")


def photos(directory):
    return sorted(n for n in os.listdir(directory) if n.startswith("HeyLook_") and n.endswith(".jpg"))


def digest(directory):
    for name in photos(directory):
        with open(os.path.join(directory, name), "rb") as f:
            print(name, hashlib.sha256(f.read()).hexdigest())


def dated_since(store):
    """name -> the seconds (UTC) of each undated photo the store's index dates since (a phone set the clock: its line
    ends in BOOT@NS=SECONDS); such a photo is exported into that date's folder, as a dated copy when it has EXIF."""
    dated = {}
    try:
        with open(os.path.join(store, "index.txt")) as f:
            for line in f:
                m = re.fullmatch(r"photo (\S+) \S+ \d+ \S+ \S+ [0-9a-f]{32}@\d+=(-?\d+)\n?", line)
                if m:
                    dated[m.group(1)] = int(m.group(2))
    except FileNotFoundError:
        pass
    return dated


def exif_span(data):
    """(start, end) of a JPEG's EXIF segment (APP1 "Exif") before its image data, or None."""
    if data[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 4 <= len(data) and data[i] == 0xFF and data[i + 1] != 0xDA:
        end = i + 2 + int.from_bytes(data[i + 2:i + 4], "big")
        if data[i + 1] == 0xE1 and data[i + 4:i + 10] == b"Exif\0\0":
            return i, end
        i = end
    return None


def is_dated_copy(there, here, seconds):
    """Whether `there` is the photo `here` (saved undated) as an export dates it: its EXIF segment rebuilt holding the
    local date and time of `seconds` (DateTime, DateTimeOriginal, DateTimeDigitized), every other byte the photo's."""
    span = exif_span(here)
    if span is None:
        return False
    start, end = span
    tail = here[end:]
    if len(there) < start + len(tail) or there[:start] != here[:start] or there[len(there) - len(tail):] != tail:
        return False
    segment = there[start:len(there) - len(tail)]
    stamp = time.strftime("%Y:%m:%d %H:%M:%S", time.localtime(seconds)).encode() + b"\0"
    return (segment[:2] == b"\xff\xe1" and int.from_bytes(segment[2:4], "big") == len(segment) - 2
            and segment.count(stamp) == 3)


def same_file(there, kept, label, what):
    """The problems of a file on the stick (`there`) that must be the store's `kept` byte for byte (a layout, a RAW)."""
    if not os.path.isfile(kept):
        return [f"{label}: not a {what} of the store"]
    with open(there, "rb") as a, open(kept, "rb") as b:
        return [] if a.read() == b.read() else [f"{label}: differs from the store's {what}"]


def compare(store, export, complete):
    problems = []
    dated = dated_since(store)
    # The name a dated copy of each such photo has on the stick -> the photo's.
    copies = {}
    for name, seconds in dated.items():
        m = re.fullmatch(r"HeyLook_undated_(\d+)\.jpg", name)
        if m:
            copies[time.strftime(f"HeyLook_%Y-%m-%d_%H-%M-%S_{m.group(1)}.jpg", time.localtime(seconds))] = name
    final = {}
    layouts = raws = 0
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
            if folder == "layouts":
                # A print layout the booth kept (store/layouts/NAME): byte for byte, no photo of the store.
                problems += same_file(os.path.join(path, name), os.path.join(store, "layouts", name),
                                      f"layouts/{name}", "layout")
                layouts += 1
                continue
            raw = RAW.fullmatch(name)
            if raw:
                # A photo's RAW (export.raw): beside its photo under its stem, the store's RAW byte for byte (its
                # bytes are never redated).
                photo = raw.group(1) + ".jpg"
                photo = photo if os.path.isfile(os.path.join(store, photo)) else copies.get(photo, photo)
                problems += same_file(os.path.join(path, name), os.path.join(store, photo[:-4] + "." + raw.group(2)),
                                      f"{folder}/{name}", "RAW")
                raws += 1
                continue
            source = name if os.path.isfile(os.path.join(store, name)) else copies.get(name)
            if source is None:
                problems.append(f"{folder}/{name}: not a photo of the store")
                continue
            final[source] = folder
            with open(os.path.join(path, name), "rb") as a, open(os.path.join(store, source), "rb") as b:
                there, here = a.read(), b.read()
            if source == name and there != here:
                problems.append(f"{folder}/{name}: differs from the store ({len(there)} vs {len(here)} bytes)")
            if source != name and not is_dated_copy(there, here, dated[source]):
                problems.append(f"{folder}/{name}: is not {source} with its date in its EXIF")
            if source in dated:
                want = time.strftime("%Y-%m-%d", time.localtime(dated[source]))
            else:
                want = "-".join(name.split("_")[1].split("-")[:3])
            if folder != want:
                problems.append(f"{folder}/{name}: in the wrong date folder (want {want})")
    missing = [n for n in photos(store) if n not in final]
    if complete:
        problems += [f"{n}: not on the stick" for n in missing]
        problems += [f"{p}: temp file left" for p in partial]
        problems += [f"{p}: empty file under a final name left" for p in empty]
    elif len(empty) > 1:
        problems += [f"{p}: empty file under a final name (more than the one rename a pull can cut)" for p in empty]
    print(f"final={len(final)} partial={len(partial)} empty={len(empty)} missing={len(missing)} layouts={layouts} "
          f"raws={raws}")
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
