"""Unit tests of logwrites.py's log reader, replay and crash points, on logs written here in the kernel's format
(drivers/md/dm-log-writes.c: super in sector 0; per entry a header sector, a mark's text after the header, then
the data unless it is a discard). Run by scripts/test: python3 -m unittest discover -s Tests/Rig/lib."""
import os
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


if __name__ == "__main__":
    unittest.main()
