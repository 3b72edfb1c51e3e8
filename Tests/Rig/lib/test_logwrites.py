"""Unit tests of logwrites.py's log reader, replay and crash points, on logs written here in the kernel's format
(drivers/md/dm-log-writes.c: super in sector 0; per entry a header sector, a mark's text after the header, then
the data unless it is a discard). Run by scripts/test: python3 -m unittest discover -s Tests/Rig/lib."""
import os
import pathlib
import random
import struct
import tempfile
import unittest

import logwrites

SECTOR = 512


def write_log(path, entries):
    """entries: (sector, data bytes or None, flags, mark text or None); returns nothing."""
    with open(path, "wb") as f:
        f.write(struct.pack("<QQQI", logwrites.MAGIC, 1, len(entries), SECTOR).ljust(SECTOR, b"\0"))
        for sector, data, flags, mark in entries:
            text = (mark or "").encode()
            count = len(data) // SECTOR if data else 0
            f.write((struct.pack("<QQQQ", sector, count, flags, len(text)) + text).ljust(SECTOR, b"\0"))
            if data and not flags & logwrites.DISCARD:
                f.write(data)


class LogWritesTests(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.log = os.path.join(self.dir, "log")
        self.base = os.path.join(self.dir, "base")
        with open(self.base, "wb") as f:
            f.write(b"\xee" * 8 * SECTOR)
        write_log(self.log, [
            (0, None, logwrites.MARK, "start"),
            (1, b"a" * SECTOR, 0, None),
            (2, b"b" * 2 * SECTOR, 0, None),
            (0, None, logwrites.FLUSH, None),
            (0, None, logwrites.MARK, "saved:x.jpg"),
            (4, b"c" * SECTOR, logwrites.FUA, None),
            (1, b"\0" * SECTOR, logwrites.DISCARD, None),
            (5, b"d" * SECTOR, 0, None),
        ])

    def replayed(self, count):
        out = os.path.join(self.dir, f"out{count}")
        logwrites.replay(self.log, self.base, out, count)
        with open(out, "rb") as f:
            return [f.read(SECTOR)[:1] for _ in range(8)]

    def test_entries_are_read_with_their_flags_marks_and_data(self):
        sector_size, entries = logwrites.read_log(self.log)
        self.assertEqual(sector_size, SECTOR)
        self.assertEqual([e.mark for e in entries], ["start", None, None, None, "saved:x.jpg", None, None, None])
        self.assertEqual([e.sector for e in entries], [0, 1, 2, 0, 0, 4, 1, 5])
        self.assertEqual([e.is_flush_point for e in entries], [False, False, False, True, False, True, False, False])
        # A discard has no data in the log: the next entry's data follows its header at once.
        self.assertEqual(entries[7].data_at - entries[6].data_at, SECTOR)

    def test_a_prefix_is_replayed_exactly(self):
        self.assertEqual(self.replayed(0), [b"\xee"] * 8)
        self.assertEqual(self.replayed(2), [b"\xee", b"a"] + [b"\xee"] * 6)
        self.assertEqual(self.replayed(6), [b"\xee", b"a", b"b", b"b", b"c", b"\xee", b"\xee", b"\xee"])
        self.assertEqual(self.replayed(8), [b"\xee", b"\0", b"b", b"b", b"c", b"d", b"\xee", b"\xee"])

    def test_crash_points_hold_every_flush_point_and_cuts_only_after_writes(self):
        _, entries = logwrites.read_log(self.log)
        points = logwrites.crash_points(entries, 100, random.Random(1))
        self.assertEqual([n for n, why in points if why == "flush"], [4, 6])
        # Random cuts fall right after an entry that changed the device (a cut after a mark changes nothing).
        self.assertEqual(sorted(n for n, why in points if why == "random"), [2, 3, 7])

    def test_every_acknowledgements_mark_is_a_crash_point(self):
        # Mutation: without the mark points (as before) only flush points and random cuts were checked, and the
        # device as it was right at an acknowledgement was never judged with that acknowledgement counted.
        _, entries = logwrites.read_log(self.log)
        points = logwrites.crash_points(entries, 100, random.Random(1))
        self.assertEqual([n for n, why in points if why == "mark"], [5])

    def test_a_log_without_the_kernels_end_mark_is_incomplete(self):
        # The log device filled up: dm-log-writes stopped logging, and the map's removal logged no end mark.
        _, entries = logwrites.read_log(self.log)
        problems, used = logwrites.completeness(entries, 1 << 20, SECTOR, None)
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("does not end with the kernel's end mark", problems[0])
        self.assertEqual(used, os.path.getsize(self.log))

    def test_every_acknowledgement_must_be_marked(self):
        write_log(self.log, [(0, None, logwrites.MARK, "start"), (1, b"a" * SECTOR, logwrites.FUA, None),
                             (0, None, logwrites.MARK, "saved:x.jpg"), (0, None, logwrites.MARK, "dm-log-writes-end")])
        _, entries = logwrites.read_log(self.log)
        self.assertEqual(logwrites.completeness(entries, 1 << 20, SECTOR, ["saved:x.jpg"])[0], [])
        problems, _ = logwrites.completeness(entries, 1 << 20, SECTOR, ["saved:x.jpg", "discarded:x.jpg"])
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("missing: discarded:x.jpg", problems[0])
        events = os.path.join(self.dir, "events.jsonl")
        with open(events, "w") as f:
            f.write('{"type":"photoSaved","path":"/p/a.jpg"}\n{"type":"state","to":"idle"}\n'
                    '{"type":"photoDiscarded","path":"/p/a.jpg"}\n')
        self.assertEqual(logwrites.expected_marks(events), ["saved:a.jpg", "discarded:a.jpg"])

    @staticmethod
    def index(*lines):
        body = "heylook-index 1\n" + "".join(line + "\n" for line in lines)
        return body + f"end {__import__('zlib').crc32(body.encode()):08x}\n"

    def judged_index(self, text, acked):
        store = logwrites.StoreCheck(None, self.dir, None)
        store.reference = {"HeyLook_undated_000001.jpg": (300, 0xABCD), "HeyLook_undated_000002.jpg": (200, 0x1234)}
        seen = logwrites.Observation({}, [], [])
        seen.texts = {} if text is None else {"photos/index.txt": text}
        return store.judge_index(seen, acked)

    def test_the_index_on_the_card_lists_every_acknowledged_photo_as_saved(self):
        # Mutation: the store writing the index only at start and at exports (as before the save wrote it) leaves
        # an index without the photos saved since: each of these states is then a violation.
        one, two = "HeyLook_undated_000001.jpg", "HeyLook_undated_000002.jpg"
        whole = self.index(f"photo {one} kept 300 0000abcd -", f"photo {two} discarded 200 00001234 -")
        self.assertEqual(self.judged_index(whole, [f"saved:{one}", f"saved:{two}", f"discarded:{two}"]), [])
        self.assertEqual(self.judged_index(None, []), [])
        self.assertIn("missing", self.judged_index(None, [f"saved:{one}"])[0])
        self.assertIn("not in it", self.judged_index(self.index(f"photo {one} kept 300 0000abcd -"),
                                                     [f"saved:{one}", f"saved:{two}"])[0])
        self.assertIn("acknowledged as discarded", self.judged_index(
            self.index(f"photo {one} kept 300 0000abcd -", f"photo {two} kept 200 00001234 -"),
            [f"saved:{two}", f"discarded:{two}"])[0])
        # A retake under way: discarded in the index before its acknowledgement.
        self.assertEqual(self.judged_index(whole, [f"saved:{one}", f"saved:{two}"]), [])
        self.assertIn("saved with 300 and 0000abcd",
                      self.judged_index(self.index(f"photo {one} kept 300 - -"), [f"saved:{one}"])[0])
        self.assertIn("damaged", self.judged_index(whole[:-3], [f"saved:{one}"])[0])
        # An undated photo's line ends in the moment it was taken; anything else there is damage.
        moment = "0123456789abcdef0123456789abcdef@52000000000"
        self.assertEqual(self.judged_index(self.index(f"photo {one} kept 300 0000abcd - {moment}"),
                                           [f"saved:{one}"]), [])
        self.assertEqual(self.judged_index(self.index(f"photo {one} kept 300 0000abcd - {moment}=1795780740"),
                                           [f"saved:{one}"]), [])
        self.assertIn("damaged", self.judged_index(self.index(f"photo {one} kept 300 0000abcd - soon"),
                                                   [f"saved:{one}"])[0])

    def test_the_choices_file_is_absent_or_whole(self):
        whole = ("# HeyLook Booth: the knob's choices, rewritten by the booth. Edit the config file instead.\n"
                 'sound = "Bell"\ndelay = 2.0\nvisual_countdown = false\nvolume = 80\n')
        self.assertEqual(logwrites.judge_choices(whole), [])
        self.assertEqual(logwrites.judge_choices(None), [])
        self.assertEqual(len(logwrites.judge_choices(whole[:-12])), 1)
        self.assertEqual(len(logwrites.judge_choices("")), 1)

    def test_a_log_of_something_else_is_refused(self):
        with open(self.log, "r+b") as f:
            f.write(b"\0" * 8)
        with self.assertRaises(SystemExit):
            logwrites.read_log(self.log)

    def test_acknowledgements_become_marks(self):
        self.assertEqual(logwrites.mark_for('{"type":"photoSaved","path":"/p/HeyLook_a.jpg","bytes":3}', None),
                         "saved:HeyLook_a.jpg")
        self.assertEqual(logwrites.mark_for('{"type":"photoDiscarded","path":"/p/x.jpg"}', None), "discarded:x.jpg")
        self.assertIsNone(logwrites.mark_for('{"type":"state","from":"idle","to":"playingSound"}', None))
        self.assertIsNone(logwrites.mark_for("not json", None))

    def test_an_export_mark_counts_what_the_booth_says_is_on_the_stick(self):
        # The store may already hold a photo saved after the export ended (a loaded machine's marker sees the event
        # late): the event's own count is the acknowledgement. Fails counting the store (13 here).
        with tempfile.TemporaryDirectory() as store:
            for i in range(13):
                pathlib.Path(store, f"HeyLook_undated_{i:06d}.jpg").write_bytes(b"x")
            line = '{"type":"exportFinished","stick":"/m/s","copied":12,"unmounted":true,"bytes":9,"photos":12}'
            self.assertEqual(logwrites.mark_for(line, store), "exported:12")
            older = '{"type":"exportFinished","stick":"/m/s","copied":12,"unmounted":true,"bytes":9}'
            self.assertEqual(logwrites.mark_for(older, store), "exported:13")
            self.assertIsNone(logwrites.mark_for(line.replace("true", "false"), store))

    def test_a_manifest_is_trusted_only_with_its_checksum_line(self):
        body = "heylook-manifest 1\nstick 0123\nfile b1 HeyLook_a.jpg 2026-11-21/HeyLook_a.jpg 3 0000abcd\n"
        good = body + f"end {__import__('zlib').crc32(body.encode()):08x}\n"
        self.assertEqual(logwrites.parse_manifest(good), [("2026-11-21/HeyLook_a.jpg", 3, 0xABCD)])
        self.assertIsNone(logwrites.parse_manifest(good.replace("0000abcd", "0000abce")))
        self.assertEqual(logwrites.parse_manifest(""), [])

    def test_a_version_2_manifest_carries_each_files_sha256(self):
        sha = "ab" * 32
        body = f"heylook-manifest 2\nstick 0123\nfile b1 HeyLook_a.jpg 2026-11-21/HeyLook_a.jpg 3 0000abcd {sha}\n"
        good = body + f"end {__import__('zlib').crc32(body.encode()):08x}\n"
        self.assertEqual(logwrites.parse_manifest(good), [("2026-11-21/HeyLook_a.jpg", 3, 0xABCD)])
        short = body.replace(f" {sha}", "")
        self.assertIsNone(logwrites.parse_manifest(short + f"end {__import__('zlib').crc32(short.encode()):08x}\n"))
        bad = body.replace(sha, "zz" * 32)
        self.assertIsNone(logwrites.parse_manifest(bad + f"end {__import__('zlib').crc32(bad.encode()):08x}\n"))


class ImageReaderTests(unittest.TestCase):
    """The crash states are read without mounting (debugfs, mtools; logwrites.Extracted), on the host: what they
    read must be what the files are. Images are made here with userspace tools (mkfs.ext4 -d, mkfs.fat, mcopy)."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.src = os.path.join(self.dir, "src")

    def tearDown(self):
        __import__("shutil").rmtree(self.dir, ignore_errors=True)

    def put(self, path, data):
        full = os.path.join(self.src, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)

    def run_ok(self, *cmd):
        r = logwrites.run(list(cmd), env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
        self.assertEqual(r.returncode, 0, f"{cmd}: {r.stderr}")

    def test_an_ext4_store_reads_as_its_files(self):
        # Mutation: a reader that copies only photos/ (not state.toml), or rdump's folders one level deep (no
        # discarded/), reads other files than the card holds: the comparison with the folder fails.
        self.put("photos/HeyLook_undated_000001.jpg", os.urandom(70000))
        self.put("photos/.HeyLook_undated_000002.jpg.partial", b"x" * 5000)
        self.put("photos/discarded/HeyLook_undated_000003.jpg", os.urandom(3000))
        self.put("photos/index.txt", b"heylook-index 1\n")
        self.put("photos/booth-id", b"0123\n")
        self.put("state.toml", b'sound = "Bell"\n')
        image = os.path.join(self.dir, "sd.img")
        with open(image, "wb") as f:
            f.truncate(8 << 20)
        self.run_ok("mkfs.ext4", "-q", "-F", "-b", "4096", "-d", self.src, image)
        store = logwrites.StoreCheck(None, os.path.join(self.dir, "work"), None)
        seen = store.observe(image)
        self.assertEqual(seen.problems, [])
        self.assertEqual(seen.files, store.view(self.src).files)
        self.assertEqual(len(seen.files), 6)
        self.assertEqual(seen.texts["state.toml"], 'sound = "Bell"\n')

    def test_a_fat_stick_reads_as_its_files(self):
        # Mutation: mcopy without -s (folders not copied) reads an empty export.
        self.put("HeyLook/2026-11-21/HeyLook_2026-11-21_10-00-00_000001.jpg", os.urandom(40000))
        self.put("HeyLook/undated/.HeyLook_undated_000002.jpg.partial", b"y" * 700)
        self.put("HeyLook/manifest.txt", b"heylook-manifest 2\n")
        image = os.path.join(self.dir, "stick.img")
        with open(image, "wb") as f:
            f.truncate(16 << 20)
        self.run_ok("mkfs.fat", image)
        self.run_ok("mcopy", "-s", "-i", image, os.path.join(self.src, "HeyLook"), "::/")
        stick = logwrites.StickCheck(None, os.path.join(self.dir, "work"), None)
        seen = stick.observe(image)
        self.assertEqual(seen.problems, [])
        self.assertEqual(seen.files, stick.view(self.src).files)
        self.assertEqual(len(seen.files), 2)
        self.assertEqual(seen.manifest, "heylook-manifest 2\n")

    def test_an_unreadable_image_is_a_problem_not_an_empty_store(self):
        # Mutation: taking debugfs's exit status (0 whatever its commands said) as the verdict reads a card whose
        # super block is gone as an empty store, which a state before the first photo passes.
        image = os.path.join(self.dir, "zeros.img")
        with open(image, "wb") as f:
            f.truncate(8 << 20)
        seen = logwrites.StoreCheck(None, os.path.join(self.dir, "work"), None).observe(image)
        self.assertTrue(any("debugfs could not read" in p for p in seen.problems), seen.problems)


if __name__ == "__main__":
    unittest.main()
