"""Unit tests of beside.py and the events.py readers it uses, on booth events written here in the booth's format
(JSON lines with t_us). Run by scripts/test: python3 -m unittest discover -s Tests/Rig/lib."""
import json
import os
import tempfile
import unittest

import beside
import events


def press(t, handoff_us, led_errors_us):
    """One sequence as the booth logs it: the button edge at t, the attention sound it started handoff_us later, a
    countdown whose first frame is shown at once and whose later changes come led_errors_us after they were due."""
    out = [
        {"t_us": t, "type": "input", "input": "buttonPressed"},
        {"t_us": t + 50, "type": "state", "from": "idle", "to": "playingSound"},
        {"t_us": t + handoff_us, "type": "soundStarted", "purpose": "attention", "event_us": t,
         "device_start_us": t + handoff_us + 100},
        {"t_us": t + 300_000, "type": "soundFinished", "purpose": "attention"},
        {"t_us": t + 300_010, "type": "state", "from": "playingSound", "to": "countingDown"},
        {"t_us": t + 300_900, "type": "leds", "bits": 3, "scheduled_us": t + 300_010},
    ]
    for i, error in enumerate(led_errors_us, 1):
        due = t + 300_010 + i * 250_000
        out.append({"t_us": due + error, "type": "leds", "bits": i % 2, "scheduled_us": due})
    out.append({"t_us": t + 2_000_000, "type": "state", "from": "countingDown", "to": "capturing"})
    # A leds change outside the countdown (the capture's flash) is not the countdown's.
    out.append({"t_us": t + 2_000_500, "type": "leds", "bits": 15, "scheduled_us": t + 2_000_000})
    out.append({"t_us": t + 2_500_000, "type": "state", "from": "processing", "to": "idle"})
    return out


class BesideTests(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def write(self, name, lines):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            for e in lines:
                f.write(json.dumps(e) + "\n")
        return path

    def test_sound_latencies_go_from_the_edge_to_the_sound_it_started(self):
        lines = press(1_000_000, 800, []) + press(5_000_000, 1200, [])
        # A preview started by something that is not an input in the file is not counted.
        lines.append({"t_us": 9_000_000, "type": "soundStarted", "purpose": "attention", "event_us": 8_999_000})
        found = events.sound_latencies(self.write("e.jsonl", lines), "attention")
        self.assertEqual(found["handoff"], [800, 1200])
        self.assertEqual(found["start"], [900, 1300])
        self.assertEqual(events.sound_latencies(self.write("e.jsonl", lines), "preview")["handoff"], [])

    def test_countdown_errors_leave_out_the_first_frame_and_what_comes_after_the_countdown(self):
        path = self.write("e.jsonl", press(1_000_000, 800, [120, 90, 3000]))
        self.assertEqual(events.countdown_errors(path), [120, 90, 3000])

    def test_rows_give_medians_p99_and_their_ratios(self):
        idle = self.write("idle.jsonl", press(1_000_000, 1000, [100, 100]) + press(5_000_000, 1000, [100, 300]))
        loaded = self.write("loaded.jsonl", press(1_000_000, 1500, [200, 200]) + press(5_000_000, 2500, [200, 600]))
        rows = beside.rows("attention", idle, loaded, "button press")
        self.assertEqual(rows[0], "| button press -> first samples handed to ALSA | 2 / 2 | 1.000 / 2.000 (2.00) |"
                                  " 1.000 / 2.500 (2.50) |")
        self.assertEqual(rows[1], "| button press -> ALSA stream start (trigger tstamp) | 2 / 2 |"
                                  " 1.100 / 2.100 (1.91) | 1.100 / 2.600 (2.36) |")
        self.assertEqual(rows[2], "| countdown LED change: made - due | 4 / 4 | 0.100 / 0.200 (2.00) |"
                                  " 0.300 / 0.600 (2.00) |")

    def test_a_file_without_the_sounds_is_named(self):
        idle = self.write("idle.jsonl", press(1_000_000, 1000, [100]))
        empty = self.write("empty.jsonl", [{"t_us": 1, "type": "ready"}])
        with self.assertRaisesRegex(ValueError, "empty.jsonl: no attention sound started by an input"):
            beside.rows("attention", idle, empty, "button press")

    def test_p99_is_the_nearest_rank(self):
        self.assertEqual(beside.p99(list(range(1, 101))), 99)
        self.assertEqual(beside.p99(list(range(1, 201))), 198)
        self.assertEqual(beside.p99([5]), 5)


if __name__ == "__main__":
    unittest.main()
