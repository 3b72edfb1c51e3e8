"""Unit tests of timing.py's countdown check, on booth events and gpio-timing samples written here in their formats
(events: JSON lines with t_us; samples: "t_us prev_us LED1 LED2 ..." per change seen). Run by scripts/test:
python3 -m unittest discover -s Tests/Rig/lib."""
import contextlib
import io
import json
import os
import tempfile
import unittest

import timing

START = 10_000_000  # the countingDown state event
LEDS = 2
DELAY_S = 1.0  # two half seconds: LEDs 11, dark, 01, dark, then 11 at the capture (+1000 ms)


def frames():
    return timing.countdown_frames(round(DELAY_S * 2), LEDS)


class CountdownTests(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def check(self, led_writes, processing_at, samples):
        """led_writes: [(t_us, scheduled_us, bits)] as the booth logged them; samples: [(t_us, bits)] as the sampler
        saw them. Returns (exit code, printed text)."""
        events = [{"type": "ready", "delay": DELAY_S, "t_us": 0},
                  {"type": "state", "from": "playingSound", "to": "countingDown", "t_us": START}]
        events += [{"type": "leds", "t_us": t, "scheduled_us": s, "bits": b} for t, s, b in led_writes]
        events.append({"type": "state", "from": "capturing", "to": "processing", "t_us": processing_at})
        events.sort(key=lambda e: e["t_us"])
        events_path = os.path.join(self.dir, "events.jsonl")
        with open(events_path, "w") as f:
            f.writelines(json.dumps(e) + "\n" for e in events)
        samples_path = os.path.join(self.dir, "samples")
        with open(samples_path, "w") as f:
            f.write(f"{START - 200_000} {START - 200_500} 0 0\n")
            for t, bits in samples:
                f.write(f"{t} {t - 500} {bits & 1} {bits >> 1 & 1}\n")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            try:
                timing.countdown(events_path, samples_path, LEDS, 20)
                code = 0
            except SystemExit as e:
                code = e.code
        return code, out.getvalue()

    def on_schedule(self, late_us=1_000):
        writes = [(START + offset + late_us, START + offset, bits) for offset, bits in frames()]
        samples = [(START + offset + late_us + 200, bits) for offset, bits in frames()]
        return writes, samples

    def test_a_countdown_on_schedule_passes(self):
        writes, samples = self.on_schedule()
        code, text = self.check(writes, START + 1_040_000, samples)
        self.assertEqual(code, 0, text)
        self.assertIn("within 20 ms: 8/8", text)

    def test_a_capture_frame_replaced_at_once_is_checked_in_the_booths_writes(self):
        # The loop stalled 60 ms at the capture: the photo was already taken, so the processing frame (LED1 only)
        # replaced the all-on frame 0.3 ms later; the sampler saw LED1 rise and LED2 never.
        writes, samples = self.on_schedule()
        capture = START + 1_000_000
        writes[-1] = (capture + 60_000, capture, 0b11)
        writes.append((capture + 60_300, capture + 60_300, 0b01))
        samples[-1] = (capture + 60_800, 0b01)
        code, text = self.check(writes, capture + 60_200, samples)
        self.assertEqual(code, 0, text)
        self.assertIn("LED2->1: error  +60.00 ms (the booth's write; replaced after 0.30 ms, too brief to sample)", text)

    def test_a_capture_frame_never_written_fails(self):
        writes, samples = self.on_schedule()
        capture = START + 1_000_000
        writes[-1] = (capture + 300, capture, 0b01)
        samples[-1] = (capture + 800, 0b01)
        code, text = self.check(writes, capture + 200, samples)
        self.assertEqual(code, 1, text)
        self.assertIn("LED2 never went 1 (due at +1000 ms)", text)

    def test_a_frame_shown_long_but_not_seen_fails(self):
        # The booth says it lit LED2 for 200 ms and the sampler never saw it: the line did not follow.
        writes, samples = self.on_schedule()
        capture = START + 1_000_000
        writes.append((capture + 200_000, capture + 200_000, 0b01))
        samples[-1] = (capture + 800, 0b01)
        code, text = self.check(writes, capture + 200_100, samples)
        self.assertEqual(code, 1, text)
        self.assertIn("LED2 never went 1", text)

    def test_a_step_off_by_more_than_100_ms_fails(self):
        writes, samples = self.on_schedule()
        samples[2] = (samples[2][0] + 150_000, samples[2][1])
        code, text = self.check(writes, START + 1_040_000, samples)
        self.assertEqual(code, 1, text)
        self.assertIn("off by more than 100 ms", text)

    def capture_written(self, written_late_us, scheduled_late_us=0):
        """The capture's all-on frame written `written_late_us` after the countdown's end for a deadline
        `scheduled_late_us` after it, the line following 0.2 ms later. Returns check()'s (code, text)."""
        writes, samples = self.on_schedule()
        capture = START + 1_000_000
        writes[-1] = (capture + written_late_us, capture + scheduled_late_us, 0b11)
        samples[-1] = (capture + written_late_us + 200, 0b11)
        return self.check(writes, capture + written_late_us + 40_000, samples)

    def test_a_frame_the_loop_wrote_late_on_its_own_schedule_passes(self):
        # Beside one busy loop per host core the guest's loop woke 103 ms late at the capture: the booth wrote the
        # all-on frame for its exact deadline, and the line followed the write.
        code, text = self.capture_written(103_000)
        self.assertEqual(code, 0, text)
        self.assertIn("on the booth's schedule, its loop woke 103.00 ms late", text)

    def test_a_frame_the_booth_scheduled_a_step_late_fails(self):
        # The same edge, but the booth's own deadline was wrong (a shifted step): that is the mechanism failing.
        code, text = self.capture_written(103_000, scheduled_late_us=103_000)
        self.assertEqual(code, 1, text)
        self.assertIn("off by more than 100 ms", text)

    def test_a_loop_late_by_more_than_a_second_fails(self):
        # On its schedule but written 1.2 s late: a loop blocked by our own work, not a starved host.
        code, text = self.capture_written(1_200_000)
        self.assertEqual(code, 1, text)
        self.assertIn("off by more than 100 ms", text)

if __name__ == "__main__":
    unittest.main()
