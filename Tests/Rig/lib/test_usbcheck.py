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


if __name__ == "__main__":
    unittest.main()
