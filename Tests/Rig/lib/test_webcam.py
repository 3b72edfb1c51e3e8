"""Tests of lib/webcam.py's frames and its check of the booth's photo (cjpeg and djpeg, libjpeg-turbo-progs)."""
import os
import tempfile
import unittest

import webcam


class WebcamTest(unittest.TestCase):
    def photo(self, bars):
        fd, path = tempfile.mkstemp(suffix=".jpg")
        with os.fdopen(fd, "wb") as f:
            f.write(webcam.mjpeg_frame(160, 120, bars))
        self.addCleanup(os.unlink, path)
        return path

    def test_a_photo_of_the_bars_passes(self):
        webcam.bars_of(self.photo(webcam.BARS))

    def test_bars_in_another_order_fail(self):
        with self.assertRaises(SystemExit):
            webcam.bars_of(self.photo(tuple(reversed(webcam.BARS))))

    def test_a_washed_out_photo_fails(self):
        # A limited-range frame saved as if full range: each channel squeezed into 16-235.
        squeezed = tuple(tuple(16 + c * 219 // 255 for c in bar) for bar in webcam.BARS)
        with self.assertRaises(SystemExit):
            webcam.bars_of(self.photo(squeezed))

    def test_a_yuyv_frame_is_each_bars_pairs(self):
        frame = webcam.yuyv_frame(16, 2)
        self.assertEqual(len(frame), 16 * 2 * 2)
        y, u, v = webcam.ycbcr(webcam.BARS[0])
        self.assertEqual(frame[:4], bytes((y, u, y, v)))
        y, u, v = webcam.ycbcr(webcam.BARS[3])
        self.assertEqual(frame[28:32], bytes((y, u, y, v)))
        self.assertEqual(webcam.ycbcr((0, 0, 0)), (16, 128, 128))
        self.assertEqual(webcam.ycbcr((255, 255, 255)), (235, 128, 128))


if __name__ == "__main__":
    unittest.main()
