"""usbcheck compare: a photo is expected in its date's folder on the stick; an undated one the store's index dates
since (a phone set the clock) in that date's folder, not `undated/`."""
import contextlib
import io
import os
import tempfile
import time
import unittest

import usbcheck


class CompareTest(unittest.TestCase):
    def stick(self, index_line):
        store, export = tempfile.mkdtemp(), tempfile.mkdtemp()
        name = "HeyLook_undated_000002.jpg"
        with open(os.path.join(store, name), "wb") as f:
            f.write(b"\xff\xd8photo\xff\xd9")
        with open(os.path.join(store, "index.txt"), "w") as f:
            f.write("heylook-index 1\n" + index_line.format(name=name) + "\n")
        return store, export, name

    def compare(self, store, export):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            try:
                usbcheck.compare(store, export, False)
                return False, out.getvalue()
            except SystemExit as e:
                return True, out.getvalue() + str(e.code)

    def put(self, store, export, name, folder):
        os.makedirs(os.path.join(export, folder), exist_ok=True)
        with open(os.path.join(store, name), "rb") as a, open(os.path.join(export, folder, name), "wb") as b:
            b.write(a.read())

    def test_an_undated_photo_dated_since_belongs_in_its_dates_folder(self):
        seconds = 1795780740
        day = time.strftime("%Y-%m-%d", time.localtime(seconds))
        line = "photo {name} kept 9 - - " + "ab" * 16 + f"@5000={seconds}"
        store, export, name = self.stick(line)
        self.put(store, export, name, day)
        failed, out = self.compare(store, export)
        self.assertFalse(failed, out)
        store, export, name = self.stick(line)
        self.put(store, export, name, "undated")
        failed, out = self.compare(store, export)
        self.assertTrue(failed, out)
        self.assertIn(f"want {day}", out)

    def test_an_undated_photo_not_dated_belongs_in_undated(self):
        store, export, name = self.stick("photo {name} kept 9 - - " + "ab" * 16 + "@5000")
        self.put(store, export, name, "undated")
        failed, out = self.compare(store, export)
        self.assertFalse(failed, out)
        store, export, name = self.stick("photo {name} kept 9 - -")
        self.put(store, export, name, "2026-11-27")
        failed, out = self.compare(store, export)
        self.assertTrue(failed, out)
        self.assertIn("want undated", out)



    @staticmethod
    def app1(payload):
        return b"\xff\xe1" + (len(payload) + 2).to_bytes(2, "big") + payload

    def dated_copy_stick(self, stamp_seconds, tail_change=b""):
        """A store with one undated photo the index dates since, and a stick holding its dated copy."""
        seconds = 1795780740
        store, export = tempfile.mkdtemp(), tempfile.mkdtemp()
        name = "HeyLook_undated_000007.jpg"
        body = b"\xff\xdbscan-data\xff\xd9"
        with open(os.path.join(store, name), "wb") as f:
            f.write(b"\xff\xd8" + self.app1(b"Exif\0\0undated-tiff") + body)
        with open(os.path.join(store, "index.txt"), "w") as f:
            f.write("heylook-index 1\n" + f"photo {name} kept 9 - - " + "ab" * 16 + f"@5000={seconds}\n")
        local = time.localtime(seconds)
        stamp = time.strftime("%Y:%m:%d %H:%M:%S", time.localtime(stamp_seconds)).encode() + b"\0"
        folder = time.strftime("%Y-%m-%d", local)
        copy = time.strftime("HeyLook_%Y-%m-%d_%H-%M-%S_000007.jpg", local)
        os.makedirs(os.path.join(export, folder))
        with open(os.path.join(export, folder, copy), "wb") as f:
            f.write(b"\xff\xd8" + self.app1(b"Exif\0\0tiff" + stamp * 3) + body + tail_change)
        return store, export

    def test_a_dated_copy_is_the_photo_with_its_date_in_exif(self):
        failed, out = self.compare(*self.dated_copy_stick(1795780740))
        self.assertFalse(failed, out)
        self.assertIn("final=1", out)
        self.assertIn("missing=0", out)

    def test_a_dated_copy_with_another_date_or_other_image_bytes_is_wrong(self):
        failed, out = self.compare(*self.dated_copy_stick(1795780740 - 3600))
        self.assertTrue(failed, out)
        self.assertIn("with its date in its EXIF", out)
        failed, out = self.compare(*self.dated_copy_stick(1795780740, tail_change=b"!"))
        self.assertTrue(failed, out)


    def test_a_layout_on_the_stick_is_the_stores_byte_for_byte(self):
        store, export, name = self.stick("photo {name} kept 9 - - " + "ab" * 16 + "@5000")
        self.put(store, export, name, "undated")
        layout = name[:-4] + "-strip.jpg"
        os.makedirs(os.path.join(store, "layouts"))
        with open(os.path.join(store, "layouts", layout), "wb") as f:
            f.write(b"\xff\xd8strip\xff\xd9")
        self.put(os.path.join(store, "layouts"), export, layout, "layouts")
        failed, out = self.compare(store, export)
        self.assertFalse(failed, out)
        self.assertIn("final=1 ", out)
        self.assertIn("layouts=1", out)
        with open(os.path.join(export, "layouts", layout), "wb") as f:
            f.write(b"\xff\xd8other\xff\xd9")
        failed, out = self.compare(store, export)
        self.assertTrue(failed, out)
        self.assertIn("differs from the store's layout", out)
        with open(os.path.join(export, "layouts", "HeyLook_undated_000009-grid.jpg"), "wb") as f:
            f.write(b"\xff\xd8")
        failed, out = self.compare(store, export)
        self.assertIn("not a layout of the store", out)

    def test_a_raw_on_the_stick_is_the_stores_byte_for_byte_beside_its_photo(self):
        # export.raw: a photo's RAW goes beside it under its stem. Mutation: a RAW counted as a photo of the store
        # ("not a photo of the store") fails the first check.
        store, export, name = self.stick("photo {name} kept 9 - - " + "ab" * 16 + "@5000")
        self.put(store, export, name, "undated")
        raw = name[:-4] + ".cr2"
        with open(os.path.join(store, raw), "wb") as f:
            f.write(b"II*\0raw")
        self.put(store, export, raw, "undated")
        failed, out = self.compare(store, export)
        self.assertFalse(failed, out)
        self.assertIn("final=1 ", out)
        self.assertIn("raws=1", out)
        with open(os.path.join(export, "undated", raw), "wb") as f:
            f.write(b"II*\0other")
        failed, out = self.compare(store, export)
        self.assertTrue(failed, out)
        self.assertIn("differs from the store's RAW", out)
        with open(os.path.join(export, "undated", "HeyLook_undated_000010.nef"), "wb") as f:
            f.write(b"II*\0")
        failed, out = self.compare(store, export)
        self.assertIn("not a RAW of the store", out)


if __name__ == "__main__":
    unittest.main()
