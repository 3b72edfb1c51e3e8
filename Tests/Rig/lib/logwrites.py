"""Power cuts, replayed: reads a dm-log-writes log, rebuilds the device as it was at each crash point and checks it.

The log format is the kernel's (Documentation/admin-guide/device-mapper/log-writes.rst, drivers/md/dm-log-writes.c):
the first sector holds the super block (magic, version, entry count, sector size, little-endian); then, entry after
entry, one sector with the entry's header (target sector, sector count, flags, data length; a mark's text follows
the header in the same sector) and, unless the entry is a discard, the data that was written. dm-log-writes logs a
write only once a flush has made it durable, in completion order: the writes before a flush entry are those that
completed before the flush was issued. So every prefix of the log is a state the disk could be in after a power
cut: the state right after each flush or FUA write ("flush points"), and between two of them the state with the
writes after the cut dropped ("random points"). A mark (`dmsetup message DEV 0 mark NAME`) is logged at once, so a
mark the scenario drops when the booth reports a photo saved stands after every write the booth had flushed by then.

Usage:
  logwrites.py info LOG                         -> entries, flushes, FUA writes, marks, bytes written
  logwrites.py replay LOG BASE OUT COUNT        -> OUT = BASE with the log's first COUNT entries applied (a crash
                                                   state kept as a regression case is rebuilt with this)
  logwrites.py marker EVENTS DEVICE STOPFILE [STORE]
                                                -> tails the booth's events file and drops a mark per acknowledgement:
                                                   saved:NAME (photoSaved), discarded:NAME (photoDiscarded),
                                                   exported:N (exportFinished, unmounted: N = the event's
                                                   `photos`, the kept photos the booth says are on the stick, or
                                                   without it the photos in STORE; all of them must be on the
                                                   stick); until STOPFILE appears
  logwrites.py check store|stick LOG BASE REFERENCE WORK [--states N] [--seed S] [--jobs J] [--booth BIN]
        [--booth-config FILE] [--booth-every K] [--events EVENTS [--events-store STORE]] [--kernel-view DIR]
                                                -> checks the log is whole (the kernel's end mark, and with EVENTS
                                                   a mark for every acknowledgement in it) and, with DIR (the disk's
                                                   files copied from the kernel's mount at the end), that the last
                                                   state reads as the kernel showed it; then rebuilds and checks
                                                   the state at every flush point, at every acknowledgement's mark
                                                   and at random cuts between (at least 50; N states in all, default
                                                   210) in J processes (see StoreCheck and StickCheck), prints each
                                                   violation and a table, exits 1 on any violation
  logwrites.py case store|stick IMAGE flush|random WORK
                                                -> checks one kept crash state as if cut there; exits 1 on a problem
"""
import argparse
import hashlib
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import usbcheck  # noqa: E402 (the stick's fsck judgement is shared with the usb-pull scenario)

SUPER = struct.Struct("<QQQI")
ENTRY = struct.Struct("<QQQQ")
MAGIC = 0x6A736677736872
FLUSH, FUA, DISCARD, MARK = 1, 2, 4, 8
DIRTY_ONLY = re.compile(r"Dirty bit is set|Automatically removing dirty bit")
FOLDER = re.compile(r"HeyLook|\d{4}-\d{2}-\d{2}|undated")  # the export folder, its date and undated folders
PHOTO = re.compile(r"HeyLook_(\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}|undated)_\d+\.jpg")  # PhotoName.fileName


class Entry:
    """One logged write, flush, discard or mark."""

    __slots__ = ("index", "sector", "count", "flags", "data_at", "mark")

    def __init__(self, index, sector, count, flags, data_at, mark):
        self.index, self.sector, self.count, self.flags, self.data_at, self.mark = (
            index, sector, count, flags, data_at, mark)

    @property
    def is_flush_point(self):
        return bool(self.flags & (FLUSH | FUA))

    @property
    def changes_device(self):
        return not self.flags & MARK and (self.count > 0)


def read_log(path):
    """The log's sector size and entries."""
    with open(path, "rb") as f:
        head = f.read(4096)
        magic, version, count, sector_size = SUPER.unpack_from(head)
        if magic != MAGIC or version != 1:
            sys.exit(f"logwrites: {path} is not a dm-log-writes log (magic {magic:#x}, version {version})")
        entries = []
        at = sector_size
        for i in range(count):
            f.seek(at)
            block = f.read(sector_size)
            if len(block) < ENTRY.size:
                sys.exit(f"logwrites: {path}: entry {i} of {count} is past the end of the log")
            sector, sectors, flags, data_len = ENTRY.unpack_from(block)
            mark = block[ENTRY.size:ENTRY.size + data_len].decode(errors="replace") if flags & MARK else None
            at += sector_size
            entries.append(Entry(i, sector, sectors, flags, at, mark))
            if not flags & DISCARD:
                at += sectors * sector_size
    return sector_size, entries


def apply(device, log, sector_size, entry):
    """Writes one entry's effect onto the open device (a discard reads back as zeros, as on a loop device)."""
    if entry.flags & MARK or entry.count == 0:
        return
    length = entry.count * sector_size
    if entry.flags & DISCARD:
        data = bytes(length)
    else:
        data = os.pread(log, length, entry.data_at)
    os.pwrite(device, data, entry.sector * sector_size)


def info(log_path):
    sector_size, entries = read_log(log_path)
    flushes = sum(1 for e in entries if e.flags & FLUSH)
    fua = sum(1 for e in entries if e.flags & FUA)
    written = sum(e.count for e in entries if e.changes_device and not e.flags & DISCARD) * sector_size
    marks = [e.mark for e in entries if e.mark is not None]
    print(f"entries={len(entries)} flushes={flushes} fua={fua} written={written} sector={sector_size} "
          f"marks={len(marks)}")
    for e in entries:
        if e.mark is not None:
            print(f"  {e.index}: mark {e.mark}")


def replay(log_path, base, out, count):
    sector_size, entries = read_log(log_path)
    shutil.copyfile(base, out)
    log = os.open(log_path, os.O_RDONLY)
    device = os.open(out, os.O_RDWR)
    try:
        for entry in entries[:count]:
            apply(device, log, sector_size, entry)
    finally:
        os.close(device)
        os.close(log)


def marker(events, device, stop, store=None):
    """Drops a mark into the log for every acknowledgement the booth writes to its events file."""
    at = 0
    pending = ""
    while True:
        stopping = os.path.exists(stop)
        try:
            with open(events, "rb") as f:
                f.seek(at)
                chunk = f.read()
        except FileNotFoundError:
            chunk = b""
        at += len(chunk)
        pending += chunk.decode(errors="replace")
        *lines, pending = pending.split("\n")
        for line in lines:
            mark = mark_for(line, store)
            if mark:
                subprocess.run(["dmsetup", "message", device, "0", "mark", mark], check=True)
                print(f"mark {mark}", flush=True)
        if stopping:
            return
        time.sleep(0.02)


def mark_for(line, store):
    try:
        event = json.loads(line)
    except ValueError:
        return None
    kind = event.get("type")
    if kind == "photoSaved":
        return "saved:" + os.path.basename(event["path"])
    if kind == "photoDiscarded":
        return "discarded:" + os.path.basename(event["path"])
    if kind == "exportFinished" and event.get("unmounted"):
        # The booth's own count of the photos on the stick; counting the store when the marker sees the event
        # (an older booth's events) can take in a photo saved since, on a loaded machine.
        if isinstance(event.get("photos"), int):
            return f"exported:{event['photos']}"
        if store:
            return f"exported:{sum(1 for n in os.listdir(store) if PHOTO.fullmatch(n))}"
    return None


def crc_of(path):
    crc, size = 0, 0
    with open(path, "rb") as f:
        while True:
            block = f.read(1 << 20)
            if not block:
                return size, crc
            crc = zlib.crc32(block, crc)
            size += len(block)


def run(cmd, **kwargs):
    return subprocess.run(cmd, capture_output=True, text=True, **kwargs)


class Extracted:
    """A file system image's files, copied out with userspace tools for the duration of a `with` block: debugfs for
    ext4, mtools for FAT. What the kernel shows once the image is mounted, read without a kernel (the replay runs on
    the host, at native speed, beside the VMs); the check compares the last state it reads this way with the
    kernel's own view of the disk at the end of the workload (`--kernel-view`), so a reader that saw things
    otherwise fails the check. PATHS are absolute paths in the image; a missing one is left out."""

    def __init__(self, image, point, fstype, paths):
        self.image, self.point, self.fstype, self.paths = image, point, fstype, paths

    def __enter__(self):
        shutil.rmtree(self.point, ignore_errors=True)
        os.makedirs(self.point)
        if self.fstype == "ext4":
            script = "".join(f"rdump {path} {self.point}\n" for path in self.paths)
            r = run(["debugfs", "-f", "-", self.image], input=script)
            # debugfs exits 0 whatever its commands said: only its banner and a missing path may be on stderr.
            said = [line for line in r.stderr.splitlines()
                    if line.strip() and not line.startswith("debugfs ") and "File not found by ext2_lookup" not in line]
            if r.returncode != 0 or said:
                raise ExtractFailed(f"debugfs could not read the file system: {' / '.join(said)[-400:]}")
        else:
            for path in self.paths:
                r = run(["mcopy", "-s", "-p", "-n", "-Q", "-i", self.image, "::" + path, self.point + "/"],
                        env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
                if r.returncode != 0 and f'"::{path}" not found' not in r.stderr:
                    raise ExtractFailed(f"mcopy could not read {path}: {(r.stdout + r.stderr).strip()[-400:]}")
        return self.point

    def __exit__(self, *_):
        shutil.rmtree(self.point, ignore_errors=True)


class ExtractFailed(Exception):
    pass


class StoreCheck:
    """The photo store on ext4, as on a Pi's SD card, after a power cut.

    What the booth acknowledged (a mark before the cut) must be there: every saved photo, whole, in photos/ or
    discarded/ (in discarded/ once its retake was acknowledged). Nothing under a final photo name may be partial:
    every such file equals the photo of that name the booth saved (the reference copy made after the workload);
    only temp names (.NAME.partial) may hold anything. fsck must find nothing it cannot repair. Then, for a sample
    of the distinct states, the booth itself starts on the disk (index and knob choices read, or rebuilt / fallen
    back) and reaches ready, and `booth photos` lists every acknowledged photo in its acknowledged state."""

    def __init__(self, reference, work, booth):
        self.reference = load_reference(reference)
        self.work, self.booth = work, booth

    def observe(self, image):
        r = run(["e2fsck", "-p", image])
        notes, problems = [], []
        if r.returncode >= 4:
            problems.append(f"e2fsck -p exit {r.returncode}: {(r.stdout + r.stderr).strip()[-400:]}")
        elif r.returncode != 0:
            notes.append(f"e2fsck -p exit {r.returncode}")
        try:
            with Extracted(image, os.path.join(self.work, "files"), "ext4", self.paths) as root:
                seen = self.view(root)
        except ExtractFailed as e:
            seen = Observation({}, [], [])
            problems.append(str(e))
        seen.problems, seen.notes = problems, notes
        return seen

    # What the store's checks read: the photos (kept and discarded), the index, the booth's id, the knob's choices.
    paths = ("/photos", "/state.toml")

    def view(self, root):
        """The observation of a store whose root (the card's file system: photos/, state.toml) is the folder ROOT."""
        files, texts = {}, {}
        for folder in ("photos", "photos/discarded"):
            path = os.path.join(root, folder)
            if not os.path.isdir(path):
                continue
            for name in os.listdir(path):
                full = os.path.join(path, name)
                if os.path.isfile(full) and not os.path.islink(full):
                    files[f"{folder}/{name}"] = crc_of(full)
        for small in ("photos/index.txt", "photos/booth-id", "state.toml"):
            full = os.path.join(root, small)
            if os.path.isfile(full):
                files[small] = crc_of(full)
                with open(full, "rb") as f:
                    texts[small] = f.read().decode(errors="replace")
        seen = Observation(files, [], [])
        seen.texts = texts
        return seen

    def judge(self, seen, acked, why):
        problems = list(seen.problems)
        for path, (size, crc) in seen.files.items():
            name = os.path.basename(path)
            if not PHOTO.fullmatch(name):
                continue
            want = self.reference.get(name)
            if want is None:
                problems.append(f"{path}: a photo name the booth never saved")
            elif (size, crc) != want:
                problems.append(f"{path}: partial or damaged ({size} bytes, crc {crc:08x}; saved {want[0]} bytes)")
        for mark in acked:
            kind, _, name = mark.partition(":")
            if kind == "saved" and f"photos/{name}" not in seen.files and f"photos/discarded/{name}" not in seen.files:
                problems.append(f"{name}: acknowledged as saved, missing")
            if kind == "discarded" and f"photos/discarded/{name}" not in seen.files:
                problems.append(f"{name}: acknowledged as discarded, not in discarded/")
        return problems + self.judge_index(seen, acked) + judge_choices(seen.texts.get("state.toml"))

    def judge_index(self, seen, acked):
        """The index on the card, as it is (never rebuilt here): whole, and since a save or a retake writes it before
        it is acknowledged, listing every acknowledged photo with the size and CRC-32 it was saved with, discarded
        once its retake was acknowledged."""
        text = seen.texts.get("photos/index.txt")
        acknowledged = {}
        for mark in acked:
            kind, _, name = mark.partition(":")
            if kind in ("saved", "discarded"):
                acknowledged[name] = "kept" if kind == "saved" else "discarded"
        if text is None:
            return ["photos/index.txt: missing, with photos acknowledged"] if acknowledged else []
        index = parse_index(text)
        if index is None:
            return ["photos/index.txt: damaged (not a whole index with its checksum line)"]
        problems = []
        for name, state in acknowledged.items():
            entry = index.get(name)
            want = self.reference.get(name)
            if entry is None:
                problems.append(f"photos/index.txt: acknowledged {name} not in it")
            elif state == "discarded" and entry[0] != state:
                # A photo acknowledged as saved may already show as discarded: its retake was under way (the move
                # and the index written before it is acknowledged).
                problems.append(f"photos/index.txt: {name} is {entry[0]}, acknowledged as {state}")
            elif want is not None and entry[1:] != want:
                problems.append(f"photos/index.txt: {name} has size {entry[1]} and CRC {entry[2]}, saved with "
                                f"{want[0]} and {want[1]:08x}")
        return problems

    def start_booth(self, image, acked, config_template):
        """Starts the booth on the state's files (copied out of the image read-write, as the card after a reboot)
        and checks it reaches ready and lists every acknowledged photo. Returns problems."""
        problems = []
        try:
            with Extracted(image, os.path.join(self.work, "started"), "ext4", self.paths) as mnt:
                config = os.path.join(self.work, "start.toml")
                with open(config, "w") as f:
                    f.write(config_template.replace("@ROOT@", mnt))
                events = os.path.join(self.work, "start.jsonl")
                r = run([self.booth, "simulate", "--script", "-", "--config", config, "--events-json", events,
                         "--photos", os.path.join(mnt, "photos")], input="quit\n", timeout=60)
                ready = []
                if os.path.exists(events):
                    with open(events) as f:
                        ready = [line for line in f if '"type":"ready"' in line]
                if r.returncode != 0 or not ready:
                    return [f"the booth did not start on this disk (exit {r.returncode}): {r.stderr.strip()[-300:]}"]
                r = run([self.booth, "photos", "--config", config, "--photos", os.path.join(mnt, "photos")],
                        timeout=60)
                listed = {}
                for line in r.stdout.splitlines():
                    parts = line.split()
                    if len(parts) >= 3 and PHOTO.fullmatch(parts[0]):
                        listed[parts[0]] = parts[2]
                discarded = {m.partition(":")[2] for m in acked if m.startswith("discarded:")}
                for mark in acked:
                    kind, _, name = mark.partition(":")
                    if kind != "saved":
                        continue
                    want = "discarded" if name in discarded else None
                    if name not in listed:
                        problems.append(f"booth photos: acknowledged {name} not listed")
                    elif want and listed[name] != want:
                        problems.append(f"booth photos: {name} is {listed[name]}, acknowledged as discarded")
        except ExtractFailed as e:
            problems.append(str(e))
        except subprocess.TimeoutExpired as e:
            problems.append(f"the booth hung: {e}")
        return problems


class StickCheck:
    """The export on a FAT stick after a power cut.

    fsck.fat -n must find no damaged file: nothing but temp files complained about, no two files sharing clusters
    (usbcheck.py's fsck-pulled judgement). Then, as systemd-mount does, fsck.fat -a, and read: every file the
    manifest lists has the manifest's size and CRC; every file under a final photo name is a whole photo of the
    store (or empty: the one placeholder a FAT rename cut between its two flushes leaves); once an export was
    acknowledged (exportFinished, unmounted), every store photo is on the stick and in the manifest."""

    def __init__(self, reference, work, booth):
        self.reference = load_reference(reference)
        self.by_content = {v: k for k, v in self.reference.items()}
        self.work, self.booth = work, booth

    def observe(self, image):
        before = usbcheck.fsck_output(image)
        complained = {line for line in before[1].splitlines() if line.startswith("/")}
        folders = {p for p in complained if FOLDER.fullmatch(os.path.basename(p))}
        repairs = []
        problems, notes = usbcheck.fsck_judgement(image, before, tolerated=lambda p: p in folders)
        # What systemd-mount runs before mounting (not needed where fsck -n saw at most the dirty bit a mounted FAT
        # carries). A folder cut inside its update can take fsck.fat -a more than one pass (the first truncates its
        # chain, the next drops the entry then pointing at the root); counted. More than three is a violation.
        passes = 0
        if complained or not all(DIRTY_ONLY.match(note) for note in notes):
            for passes in range(1, 4):
                r = run(["fsck.fat", "-a", image])
                if r.returncode > 1:
                    repairs.append(f"fsck.fat -a exit {r.returncode}: {(r.stdout + r.stderr).strip()[-300:]}")
                    break
                after = usbcheck.fsck_output(image)
                if after[0] == 0:
                    break
            else:
                repairs.append(f"fsck.fat -a did not repair everything in 3 passes: {after[1].strip()[-300:]}")
        try:
            with Extracted(image, os.path.join(self.work, "files"), "vfat", ("/HeyLook",)) as root:
                seen = self.view(root)
        except ExtractFailed as e:
            seen = Observation({}, [], [])
            repairs.append(str(e))
        seen.problems, seen.notes = problems + repairs, notes
        seen.torn = sorted(folders)
        seen.passes = passes
        return seen

    def view(self, root):
        """The observation of a stick whose root is the folder ROOT (HeyLook/ and its folders)."""
        files, manifest = {}, None
        top = os.path.join(root, "HeyLook")
        if os.path.isdir(top):
            for folder in os.listdir(top):
                path = os.path.join(top, folder)
                if os.path.isdir(path):
                    for name in os.listdir(path):
                        files[f"{folder}/{name}"] = crc_of(os.path.join(path, name))
            if os.path.isfile(os.path.join(top, "manifest.txt")):
                with open(os.path.join(top, "manifest.txt"), "rb") as f:
                    manifest = f.read().decode(errors="replace")
        seen = Observation(files, [], [])
        seen.manifest = manifest
        return seen

    def judge(self, seen, acked, why):
        problems = list(seen.problems)
        if why == "flush":
            problems += [f"{path}: a folder fsck must rebuild, at a flush point" for path in seen.torn]
        empty = [p for p, (size, _) in seen.files.items() if size == 0 and not is_temp(p)]
        if len(empty) > 1:
            problems.append(f"{len(empty)} empty files under final names: {' '.join(sorted(empty))}")
        for path, (size, crc) in seen.files.items():
            if is_temp(path) or size == 0:
                continue
            if (size, crc) not in self.by_content:
                problems.append(f"{path}: partial or damaged ({size} bytes, crc {crc:08x})")
        listed = parse_manifest(seen.manifest)
        if seen.manifest is not None and seen.manifest != "" and listed is None:
            problems.append("manifest.txt: damaged")
        for path, size, crc in listed or []:
            if seen.files.get(path) != (size, crc):
                problems.append(f"manifest lists {path} ({size} bytes, crc {crc:08x}): {seen.files.get(path)}")
        exported = max((int(m.partition(":")[2]) for m in acked if m.startswith("exported:")), default=0)
        if exported:
            on_stick = {c for p, c in seen.files.items() if not is_temp(p)}
            in_manifest = {(s, c) for _, s, c in listed or []}
            there = sum(1 for content in self.reference.values() if content in on_stick and content in in_manifest)
            if there < exported:
                problems.append(f"an export of {exported} photos was acknowledged; {there} are on the stick and "
                                "in its manifest")
        return problems


# An undated photo's line ends in the moment it was taken (its boot id and monotonic nanoseconds), then its date.
INDEX_LINE = re.compile(r"photo (\S+) (kept|discarded) (\d+) ([0-9a-f]{8}|-) (\S+)(?: [0-9a-f]{32}@\d+(?:=\d+)?)?")
CHOICES = re.compile(r"# HeyLook Booth: [^\n]*\nsound = \"[^\"\n]*\"\ndelay = \d+\.\d+\n"
                     r"visual_countdown = (true|false)\nvolume = \d+\n")


def checked_body(text, headers):
    """The lines of a file that ends in an `end <crc-32 of everything before>` line and starts with one of
    `headers` (the booth's index and manifest), or None when it is damaged."""
    if text is None or not text.endswith("\n"):
        return None
    body, sep, last = text.rstrip("\n").rpartition("\n")
    if not sep or not last.startswith("end "):
        return None
    if f"{zlib.crc32((body + chr(10)).encode()):08x}" != last[4:].strip():
        return None
    lines = body.splitlines()
    return lines if lines and lines[0] in headers else None


def parse_index(text):
    """name -> (state, size, crc or None) of the store's index.txt (PhotoIndex.encode), or None when damaged."""
    lines = checked_body(text, {"heylook-index 1"})
    if lines is None:
        return None
    index = {}
    for line in lines[1:]:
        m = INDEX_LINE.fullmatch(line)
        if not m:
            return None
        index[m.group(1)] = (m.group(2), int(m.group(3)), None if m.group(4) == "-" else int(m.group(4), 16))
    return index


def judge_choices(text):
    """The knob's choices file (ChoicesFile.encode) is absent or whole: written by rename, never torn."""
    if text is None or CHOICES.fullmatch(text):
        return []
    return [f"state.toml: not a whole choices file: {text[-120:]!r}"]


def is_temp(path):
    return re.fullmatch(r"\.[^/]*\.partial", os.path.basename(path)) is not None


def parse_manifest(text):
    """(path, size, crc) per file line of a manifest (version 1, or 2 with each file's SHA-256 or "-" after the
    CRC) that ends in its valid CRC line; None when damaged."""
    if text is None or text == "":
        return []
    versions = {"heylook-manifest 1": 1, "heylook-manifest 2": 2}
    lines = checked_body(text, versions)
    if lines is None:
        return None
    version = versions[lines[0]]
    rows = []
    for line in lines:
        parts = line.split(" ")
        if parts[0] != "file":
            continue
        if len(parts) != 5 + version:
            return None
        if version == 2 and not (parts[6] == "-" or re.fullmatch(r"[0-9a-f]{64}", parts[6])):
            return None
        rows.append((parts[3], int(parts[4]), int(parts[5], 16)))
    return rows


def load_reference(directory):
    """name -> (size, crc) of every photo the workload saved (kept and discarded); none without a directory."""
    reference = {}
    if directory is None:
        return reference
    for root, _, names in os.walk(directory):
        for name in names:
            if PHOTO.fullmatch(name):
                reference[name] = crc_of(os.path.join(root, name))
    if not reference:
        sys.exit(f"logwrites: no reference photos in {directory}")
    return reference


class Observation:
    """What a crash state holds: files (path -> (size, crc)), and what fsck or the reader said."""

    def __init__(self, files, problems, notes):
        self.files, self.problems, self.notes = files, problems, notes
        self.manifest = None
        self.texts = {}  # the small files' contents (store: index.txt, state.toml)
        self.torn = []  # folders fsck had to rebuild (FAT: a cut inside a folder's update)
        self.passes = 1  # fsck.fat -a passes it took to repair

    def signature(self):
        digest = hashlib.sha256(repr(sorted(self.files.items())).encode())
        digest.update((self.manifest or "").encode())
        return digest.hexdigest()


def crash_points(entries, states, rng):
    """Prefix lengths to check: after every flush or FUA entry, right at every acknowledgement's mark (the device as
    it was when the booth said so, with that acknowledgement counted), and random cuts between them (at least 50),
    so that there are at least `states` in all."""
    flush = sorted({e.index + 1 for e in entries if e.is_flush_point})
    marks = sorted({e.index + 1 for e in entries if is_acknowledgement(e.mark)} - set(flush))
    between = [n for n in range(1, len(entries)) if n not in flush and entries[n - 1].changes_device]
    picked = sorted(rng.sample(between, min(max(states - len(flush) - len(marks), 50), len(between))))
    return sorted([(n, "flush") for n in flush] + [(n, "mark") for n in marks] + [(n, "random") for n in picked])


END_MARK = "dm-log-writes-end"  # logged by the kernel when the map is removed, unless logging stopped before


def is_acknowledgement(mark):
    return mark is not None and ":" in mark


def completeness(entries, log_size, sector_size, expected):
    """Whether the log holds the whole workload: it ends with the kernel's end mark (a log device that filled up
    stops logging silently, and then has none), and its acknowledgement marks are exactly `expected` (the marks the
    booth's events call for, in order; None: not checked). Returns (problems, bytes used)."""
    problems = []
    last = entries[-1] if entries else None
    used = (last.data_at + (0 if last.flags & DISCARD else last.count * sector_size)) if last else sector_size
    if last is None or last.mark != END_MARK:
        problems.append(f"the log does not end with the kernel's end mark ({END_MARK}): the log device filled up "
                        f"({used} of {log_size} bytes used) or the map was never removed; the states after are not "
                        "in it")
    if expected is not None:
        # exported:N counts the store's photos when the marker saw the event: compared by kind only.
        logged = [re.sub(r"^exported:\d+$", "exported", e.mark) for e in entries if is_acknowledgement(e.mark)]
        expected = [re.sub(r"^exported:\d+$", "exported", m) for m in expected]
        if logged != expected:
            missing = [m for m in expected if m not in logged]
            extra = [m for m in logged if m not in expected]
            problems.append(f"the log's marks are not the booth's acknowledgements: {len(logged)} marks for "
                            f"{len(expected)} acknowledgements (missing: {' '.join(missing) or '-'}; not "
                            f"acknowledged: {' '.join(extra) or '-'})")
    return problems, used


def expected_marks(events_path, store=None):
    """The marks the booth's events file calls for (as the marker makes them), in order."""
    with open(events_path, errors="replace") as f:
        return [m for m in (mark_for(line, store) for line in f) if m]


def kernel_view_problems(kind, log_path, base, reference, work, kernel_view):
    """The reader checked against the kernel: the whole log replayed onto `base` and read as every crash state is
    (fsck, then Extracted) must show the files the kernel showed with the disk mounted at the end of the workload
    (`kernel_view`: a folder the scenario copied from the mounted disk), names, sizes and CRCs alike."""
    checker = (StoreCheck if kind == "store" else StickCheck)(reference, work, None)
    final = os.path.join(work, "final.img")
    replay(log_path, base, final, len(read_log(log_path)[1]))
    seen = checker.observe(final)
    want = checker.view(kernel_view).files
    problems = [f"the last state: {p}" for p in seen.problems]
    for path in sorted(set(seen.files) | set(want)):
        if seen.files.get(path) != want.get(path):
            problems.append(f"the last state read here differs from the kernel's view: {path} is {seen.files.get(path)} "
                            f"here, {want.get(path)} in {kernel_view}")
    if not want:
        problems.append(f"the kernel's view {kernel_view} holds none of the files the check reads")
    os.remove(final)
    return problems


def check(kind, log_path, base, reference, work, states, seed, jobs, booth, booth_every, config_template,
          expected=None, kernel_view=None):
    """Checks that the log is complete (`completeness`, against the `expected` marks) and, with `kernel_view`, that
    the last state reads as the kernel showed it (`kernel_view_problems`), then the crash states in `jobs`
    processes (each replays the log itself and takes every jobs-th point); prints the violations and a table;
    returns the number of violations (an incomplete log or a reader that disagrees with the kernel counts as one)."""
    started = time.monotonic()
    sector_size, entries = read_log(log_path)
    incomplete, used = completeness(entries, os.path.getsize(log_path), sector_size, expected)
    if kernel_view is not None:
        differs = kernel_view_problems(kind, log_path, base, reference, work, kernel_view)
        incomplete += differs
    for problem in incomplete:
        print(f"VIOLATION: {problem}", flush=True)
    points = crash_points(entries, states, random.Random(seed))
    print(f"logwrites: {len(entries)} entries, {len(points)} crash points (seed {seed}, {jobs} jobs)", flush=True)
    children = []
    for job in range(jobs):
        folder = os.path.join(work, f"job{job}")
        os.makedirs(folder, exist_ok=True)
        pid = os.fork()
        if pid == 0:
            code = 2
            try:
                result = check_points(kind, log_path, base, reference, folder, points[job::jobs], booth, booth_every,
                                      config_template)
                with open(os.path.join(folder, "result.json"), "w") as f:
                    json.dump(result, f)
                code = 0
            finally:
                sys.stdout.flush()
                os._exit(code)
        children.append((pid, folder))
    total = {"violations": len(incomplete), "observed": 0, "torn": 0, "booth_runs": 0, "booth_problems": 0,
             "flush": 0, "mark": 0, "random": 0, "observe_s": 0.0, "booth_s": 0.0, "two_passes": 0}
    distinct = set()
    for pid, folder in children:
        _, status = os.waitpid(pid, 0)
        if status != 0:
            sys.exit(f"logwrites: the check in {folder} failed (status {status})")
        with open(os.path.join(folder, "result.json")) as f:
            result = json.load(f)
        distinct.update(result.pop("distinct"))
        for key, value in result.items():
            total[key] += value
    elapsed = time.monotonic() - started
    print()
    print(f"| power-cut replay ({kind}) | value |")
    print("|---|---|")
    print(f"| log entries / flush or FUA entries / marks | {len(entries)} / "
          f"{sum(1 for e in entries if e.is_flush_point)} / {sum(1 for e in entries if e.mark is not None)} |")
    print(f"| log used / log device (ends with the kernel's end mark: nothing was dropped) | {used} / "
          f"{os.path.getsize(log_path)} bytes |")
    print(f"| crash states checked (at flush points + at acknowledgements' marks + random cuts between) | "
          f"{len(points)} ({total['flush']} + {total['mark']} + {total['random']}) |")
    if kernel_view is not None:
        print(f"| the last state, read as every state is, equals the kernel's view at the end | "
              f"{'no' if differs else 'yes'} |")
    print(f"| device states rebuilt and checked (fsck, read, every file's CRC) / distinct file-level states | "
          f"{total['observed']} / {len(distinct)} |")
    if kind == "stick":
        print(f"| states with a folder fsck rebuilds (a cut inside FAT's folder update; none may be at a flush point) "
              f"| {total['torn']} |")
        print(f"| of which fsck.fat -a needed more than one pass | {total['two_passes']} |")
    if kind == "store":
        print(f"| booth started on a state and reached ready | {total['booth_runs'] - total['booth_problems']} of "
              f"{total['booth_runs']} |")
    print(f"| acknowledgements in the log | {len([e for e in entries if is_acknowledgement(e.mark)])}"
          + (f" of {len(expected)} in the booth's events |" if expected is not None else " |"))
    print(f"| violations | {total['violations']} |")
    per_start = f", per booth start {total['booth_s'] / total['booth_runs']:.2f} s" if total["booth_runs"] else ""
    print(f"| replay and check time ({jobs} jobs) | {elapsed:.1f} s (per rebuilt state "
          f"{total['observe_s'] / max(1, total['observed']):.2f} s{per_start}) |")
    return total["violations"]


def check_points(kind, log_path, base, reference, work, points, booth, booth_every, config_template):
    """Replays the log onto a copy of `base` up to each of `points` in turn and checks the state there."""
    sector_size, entries = read_log(log_path)
    checker = (StoreCheck if kind == "store" else StickCheck)(reference, work, booth)
    current = os.path.join(work, "current.img")
    state = os.path.join(work, "state.img")
    shutil.copyfile(base, current)
    log = os.open(log_path, os.O_RDONLY)
    device = os.open(current, os.O_RDWR)
    applied = 0
    acked = []
    seen = None  # the observation of the device as it is now (re-made only when a write changed it)
    distinct = set()
    result = {"violations": 0, "observed": 0, "torn": 0, "booth_runs": 0, "booth_problems": 0, "flush": 0,
              "mark": 0, "random": 0, "observe_s": 0.0, "booth_s": 0.0, "two_passes": 0}
    for n, why in points:
        dirty = False
        while applied < n:
            entry = entries[applied]
            if entry.mark is not None:
                acked.append(entry.mark)
            elif entry.changes_device:
                apply(device, log, sector_size, entry)
                dirty = True
            applied += 1
        result[why] += 1
        if seen is None or dirty:
            began = time.monotonic()
            shutil.copyfile(current, state)
            seen = checker.observe(state)
            result["observed"] += 1
            result["observe_s"] += time.monotonic() - began
        problems = checker.judge(seen, acked, why)
        result["torn"] += bool(seen.torn)
        result["two_passes"] += seen.passes > 1
        signature = seen.signature()
        fresh = signature not in distinct
        distinct.add(signature)
        if booth and kind == "store" and fresh and len(distinct) % booth_every == 1 and not problems:
            began = time.monotonic()
            shutil.copyfile(current, state)
            run(["e2fsck", "-p", state])
            result["booth_runs"] += 1
            found = checker.start_booth(state, acked, config_template)
            result["booth_s"] += time.monotonic() - began
            result["booth_problems"] += len(found) > 0
            problems += found
        if problems:
            result["violations"] += 1
            print(f"VIOLATION at entry {n} ({why}; acknowledged: {' '.join(acked[-3:]) or '-'}; rebuild it with "
                  f"logwrites.py replay LOG BASE OUT {n}):\n" + "\n".join(f"  {p}" for p in problems), flush=True)
    os.close(device)
    os.close(log)
    result["distinct"] = sorted(distinct)
    return result


def case(kind, image, why, work):
    """Observes and judges one kept crash state (no acknowledgements); prints what is wrong; returns whether
    anything is."""
    checker = (StoreCheck if kind == "store" else StickCheck)(None, work, None)
    state = os.path.join(work, "case.img")
    shutil.copyfile(image, state)
    problems = checker.judge(checker.observe(state), [], why)
    print("\n".join(problems) or "no problem")
    return bool(problems)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    cmd = sys.argv[1]
    if cmd == "info":
        info(sys.argv[2])
    elif cmd == "replay":
        replay(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    elif cmd == "marker":
        marker(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5] if len(sys.argv) > 5 else None)
    elif cmd == "case":
        sys.exit(1 if case(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]) else 0)
    elif cmd == "check":
        p = argparse.ArgumentParser(prog="logwrites.py check")
        p.add_argument("kind", choices=["store", "stick"])
        p.add_argument("log")
        p.add_argument("base")
        p.add_argument("reference")
        p.add_argument("work")
        p.add_argument("--states", type=int, default=210)
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--jobs", type=int, default=2)
        p.add_argument("--booth")
        p.add_argument("--booth-every", type=int, default=4)
        p.add_argument("--booth-config")
        p.add_argument("--events", help="the booth's events file: every acknowledgement in it must be marked")
        p.add_argument("--events-store", help="the store folder the marker counted exported:N in")
        p.add_argument("--kernel-view", help="the disk's files as the kernel showed them mounted at the end")
        a = p.parse_args(sys.argv[2:])
        template = open(a.booth_config).read() if a.booth_config else ""
        expected = expected_marks(a.events, a.events_store) if a.events else None
        violations = check(a.kind, a.log, a.base, a.reference, a.work, a.states, a.seed, a.jobs, a.booth,
                           a.booth_every, template, expected, a.kernel_view)
        sys.exit(1 if violations else 0)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
