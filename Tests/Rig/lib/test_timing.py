"""Unit tests of timing.py's countdown check, on booth events and gpio-timing samples written here in their formats
(events: JSON lines with t_us; samples: "t_us prev_us LED1 LED2 ... lost_us" per change seen or time lost). Run by scripts/test:
python3 -m unittest discover -s Tests/Rig/lib."""
import contextlib
import io
import json
import os
import tempfile
import unittest

import timing

START = 10_000_000  # the countingDown state event; the sampler sees the row lit 1.2 ms later
LEDS = 2
DELAY_S = 1.0  # two half seconds: LEDs 11, dark, 01, dark, then 11 at the capture (+1000 ms)


def frames():
    return timing.countdown_frames(round(DELAY_S * 2), LEDS)


class CountdownTests(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def check(self, samples, counting_down_at=START, held=None, leds=LEDS, delay_s=DELAY_S):
        """samples: [(t_us, bits)] read 0.5 ms after the read before, or (t_us, bits, prev_us, lost_us) after a gap
        or with time the sampler lost. The booth's events hold only where the countdown is (counting_down_at); held:
        the (from, to) time the sampler held the booth; leds and delay_s: the row and the countdown (2 LEDs, 1 s).
        Returns (exit code, printed text)."""
        events = [{"type": "state", "from": "playingSound", "to": "countingDown", "t_us": counting_down_at},
                  {"type": "state", "from": "capturing", "to": "processing", "t_us": START + 1_040_000}]
        events_path = os.path.join(self.dir, "events.jsonl")
        with open(events_path, "w") as f:
            f.writelines(json.dumps(e) + "\n" for e in events)
        samples_path = os.path.join(self.dir, "samples")
        with open(samples_path, "w") as f:
            f.write(f"{START - 200_000} {START - 200_500} {' '.join(['0'] * leds)} 0\n")
            for t, bits, *rest in sorted(samples):
                prev, lost = rest if rest else (t - 500, 0)
                f.write(f"{t} {prev} {' '.join(str(bits >> i & 1) for i in range(leds))} {lost}\n")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            try:
                timing.countdown(events_path, samples_path, leds, delay_s, 20, held)
                code = 0
            except SystemExit as e:
                code = e.code
        return code, out.getvalue()

    def on_schedule(self, late_us=1_000):
        """The row as the sampler sees a booth on schedule: each frame `late_us` after it was due."""
        return [(START + offset + late_us + 200, bits) for offset, bits in frames()]

    def from_the_third_frame(self, lost_us):
        """The row on schedule from its third frame (+500 ms) on, after one dark read 400 ms long, from before the
        countdown to past its second frame, in which the sampler lost `lost_us`."""
        samples = [s for s in self.on_schedule() if s[0] >= START + 500_000]
        return [(START + 260_000, 0b00, START - 140_000, lost_us)] + samples

    def test_a_countdown_on_schedule_passes(self):
        code, text = self.check(self.on_schedule())
        self.assertEqual(code, 0, text)
        self.assertIn("within 20 ms: 6/6", text)
        self.assertIn("capture frame (not judged here): due at +1000 ms, seen +999.8 ms", text)

    def test_the_schedule_is_the_samplers_not_the_booths_events(self):
        # The booth's countingDown event 80 ms before the row lit: the schedule starts where the sampler saw the
        # first LED lit, so a booth on its own schedule passes, and the event only finds the countdown.
        code, text = self.check(self.on_schedule(), counting_down_at=START - 80_000)
        self.assertEqual(code, 0, text)
        self.assertIn("within 20 ms: 6/6", text)

    def test_a_capture_frame_never_sampled_is_outside_the_judged_window(self):
        # The loop's stall at the capture: the all-on frame replaced before the sampler read it.
        samples = self.on_schedule()
        samples[-1] = (START + 1_060_800, 0b01)
        code, text = self.check(samples)
        self.assertEqual(code, 0, text)
        self.assertIn("capture frame (not judged here): due at +1000 ms, seen not sampled", text)

    def held_over_the_third_edge(self, held_us, lost_us=0, lost_before=False, held=None):
        """The booth held `held_us` over the third frame's edge (due at +500 ms: LED1 lit again), the sampler
        reading every 0.5 ms meanwhile; it lost `lost_us` in the read that saw the edge, or, with `lost_before`, in
        the read before (the CPU stood still, then the sampler, above the booth, read first)."""
        samples = self.on_schedule()
        t, bits = samples[2]
        seen = t + held_us
        if lost_before:
            samples.append((seen - 500, 0, seen - 500 - lost_us, lost_us))
            samples[2] = (seen, bits)
        else:
            samples[2] = (seen, bits, seen - 500 - lost_us, lost_us)
        return self.check(samples, held=held)

    def test_a_booth_held_for_50_ms_over_an_edge_fails(self):
        # Mutation: the check before (an edge failed only 250 ms off, a whole step) passed this.
        code, text = self.held_over_the_third_edge(50_000)
        self.assertEqual(code, 1, text)
        self.assertIn("LED1->1 due at +500 ms: not written 49.5 ms after it was due beyond the time lost: the booth "
                      "held", text)

    def test_an_edge_due_in_the_hold_is_marked_and_no_other(self):
        # gpio-countdown holds the booth over one edge and must tell that edge's failure from any other: a countdown
        # whose first frames a guest standstill excused is judged from a later frame, so the held edge's offset varies.
        code, text = self.held_over_the_third_edge(50_000, held=(START + 480_000, START + 560_000))
        self.assertEqual(code, 1, text)
        self.assertIn("LED1->1 due at +500 ms: not written 49.5 ms after it was due beyond the time lost: the booth "
                      "held (in the hold)", text)
        # The same stall outside the time the sampler held the booth (mutation: every problem marked fails this).
        code, text = self.held_over_the_third_edge(50_000, held=(START + 100_000, START + 380_000))
        self.assertEqual(code, 1, text)
        self.assertIn("the booth held\n", text)
        self.assertNotIn("(in the hold)", text)

    def test_a_missing_edge_due_in_the_hold_is_marked(self):
        samples = self.on_schedule()
        del samples[2:4]
        code, text = self.check(samples, held=(START + 400_000, START + 700_000))
        self.assertEqual(code, 1, text)
        self.assertIn("LED1 never went 1 (due at +500 ms) (in the hold)", text)

    def test_a_booth_held_for_30_ms_is_measured_not_failed(self):
        code, text = self.held_over_the_third_edge(30_000)
        self.assertEqual(code, 0, text)
        self.assertIn("within 20 ms: 5/6", text)

    def test_a_guest_that_stood_still_over_the_edge_passes(self):
        # The same 50 ms, lost by the sampler too before the read that saw the edge: the CPU stood still.
        # Mutation: a check that ignores the time lost (held = prev - due) fails this.
        code, text = self.held_over_the_third_edge(50_000, lost_us=50_000, lost_before=True)
        self.assertEqual(code, 0, text)
        self.assertIn("sampler lost 50.00 ms", text)

    def test_a_guest_that_stood_still_within_the_read_interval_passes(self):
        # 120 ms lost inside the interval that saw the edge: the write is somewhere in it.
        code, text = self.held_over_the_third_edge(120_000, lost_us=120_000)
        self.assertEqual(code, 0, text)
        self.assertIn("LED1->1: error  +60.00 ms (sampling +-60.50 ms, sampler lost 120.00 ms)", text)

    def test_time_lost_before_the_edge_was_due_excuses_nothing(self):
        # The sampler lost 50 ms 100 ms before the edge was due, then read on time while the booth held 50 ms.
        samples = self.on_schedule()
        samples.append((START + 400_000, 0b00, START + 350_000, 50_000))
        t, bits = samples[2]
        samples[2] = (t + 50_000, bits)
        code, text = self.check(samples)
        self.assertEqual(code, 1, text)
        self.assertIn("the booth held", text)

    def test_a_missing_edge_fails(self):
        samples = self.on_schedule()
        del samples[2:4]  # LED1 never lit again, the row stays dark until the capture
        code, text = self.check(samples)
        self.assertEqual(code, 1, text)
        self.assertIn("LED1 never went 1 (due at +500 ms)", text)

    def test_an_unexpected_edge_fails(self):
        samples = self.on_schedule()
        samples.append((START + 600_000, 0b11))  # LED2 lit in the step where only LED1 is
        samples.append((START + 650_000, 0b01))
        code, text = self.check(samples)
        self.assertEqual(code, 1, text)
        self.assertIn("unexpected LED2->1", text)

    def test_an_edge_seen_early_fails(self):
        samples = self.on_schedule()
        t, bits = samples[2]
        samples[2] = (t - 60_000, bits)
        code, text = self.check(samples)
        self.assertEqual(code, 1, text)
        self.assertIn("before it was due", text)

    def test_a_row_first_seen_after_a_long_gap_passes(self):
        # The sampler's read before the lit row came 60 ms earlier: the booth wrote the first frame somewhere in that
        # gap, so every later edge looks up to 60 ms early. Mutation: early judged from the anchor's read alone
        # (due - t) failed this, as it did in the rig.
        samples = self.on_schedule()
        t, bits = samples[0]
        samples[0] = (t + 58_000, bits, t - 2_000, 0)
        code, text = self.check(samples)
        self.assertEqual(code, 0, text)

    def test_a_first_frame_held_back_by_a_guest_standstill_passes(self):
        # CI: the guest stood still 96 ms as the countdown began, so its first frame was written 96 ms late, and every
        # later edge came on the booth's own schedule, 96 ms "early" against the row first seen lit. The sampler lost
        # those 96 ms in the read before. Mutation: early judged from the read before the anchor alone failed this.
        samples = self.on_schedule()
        t, bits = samples[0]
        samples.insert(0, (t + 95_000, 0b00, t - 1_000, 96_000))
        samples[1] = (t + 96_000, bits)
        code, text = self.check(samples)
        self.assertEqual(code, 0, text)

    def test_frames_due_while_the_guest_stood_still_are_not_asked_for(self):
        # CI: the guest stood still 398 ms over the countdown's start, so when the booth ran again its first two frames
        # (lit, then dark at +250 ms) were past and it showed the one due then (+500 ms), on time. The sampler lost
        # those 398 ms in one read. Mutation: the first lit read taken as the first frame failed this ("no LED seen
        # lit within 250 ms"), as it did in the rig.
        code, text = self.check(self.from_the_third_frame(lost_us=398_000))
        self.assertEqual(code, 0, text)
        self.assertIn("the first 2 frame(s) were due while the guest stood still", text)
        self.assertIn("within 20 ms: 2/2", text)

    def test_a_first_frame_missing_without_a_standstill_fails(self):
        # The same row with the guest running all along: a booth that skips its first frames fails.
        code, text = self.check(self.from_the_third_frame(lost_us=0))
        self.assertEqual(code, 1, text)
        self.assertIn("no LED seen lit within 250 ms", text)

    def test_a_standstill_over_only_the_first_frame_excuses_nothing_later(self):
        # The guest stood still over the first frame's time only; the dark frame at +250 ms was due while it ran, and
        # a booth that never showed it fails.
        samples = [s for s in self.on_schedule() if s[0] >= START + 500_000]
        samples.insert(0, (START + 100_000, 0b00, START - 140_000, 238_000))
        samples.insert(1, (START + 260_000, 0b00, START + 100_000, 0))
        code, text = self.check(samples)
        self.assertEqual(code, 1, text)

    def test_a_read_in_the_middle_of_the_first_frames_write_is_the_first_frame(self):
        # The rig, quiet: the first read to see the row lit caught three of four lines of the first frame, which looks
        # like a later frame (its bits); it is the first, with its last line a read later. Mutation: a first lit read
        # that matches a later frame's bits taken as that frame without a standstill failed this.
        samples = self.on_schedule()
        t, bits = samples[0]
        samples[0] = (t + 300, 0b11)
        samples.insert(0, (t, 0b01))
        code, text = self.check(samples)
        self.assertEqual(code, 0, text)

    def starved_start(self, lost_us):
        """CI, gpio-countdown@gpiod2 (4 LEDs, 2 s): one read 336 ms long over the countdown's start in which the sampler
        lost `lost_us`, then reads 10 ms apart that each lost 9 ms (a host that lets the guest run a little); the booth
        shows its third frame (+500 ms, three lines) on time, the first read catching one line of it."""
        samples = [(START + 234_000, 0, START - 102_000, lost_us)]
        samples += [(t, 0, t - 10_000, 9_000 if lost_us else 0) for t in range(START + 244_000, START + 500_000, 10_000)]
        samples += [(START + 502_600, 0b0001, START + 501_970, 0), (START + 503_400, 0b0111)]
        samples += [(START + offset + 1_200, bits) for offset, bits in timing.countdown_frames(4, 4)[3:]]
        return samples

    def test_a_start_the_guest_barely_ran_through_is_judged_from_the_frame_it_showed(self):
        # CI: the guest stood still 336 ms over the countdown's start and then ran in snatches, so the booth's first
        # frame was due while it ran 2 ms in all, and its first lit read caught one of the third frame's three lines.
        # Mutations: only frames due within one read that lost 40 ms or more excused (the dark frame at +250 ms was
        # due in the snatches), or only a read showing a frame's every line taken as that frame, failed this ("no LED
        # seen lit within 250 ms"), as it did in the rig.
        code, text = self.check(self.starved_start(lost_us=336_000), leds=4, delay_s=2.0)
        self.assertEqual(code, 0, text)
        self.assertIn("the first 2 frame(s) were due while the guest stood still", text)
        self.assertIn("within 20 ms: 12/12", text)

    def test_a_start_the_guest_ran_through_is_not_excused(self):
        # The same row with the guest running all along: the first frame was never shown, and that fails.
        code, text = self.check(self.starved_start(lost_us=0), leds=4, delay_s=2.0)
        self.assertEqual(code, 1, text)
        self.assertIn("no LED seen lit within 250 ms", text)

    def test_no_lit_led_near_the_countdown_fails(self):
        code, text = self.check([], counting_down_at=START)
        self.assertEqual(code, 1, text)
        self.assertIn("no LED seen lit within 250 ms", text)

    def test_a_sample_file_without_lost_times_reads(self):
        path = os.path.join(self.dir, "old")
        with open(path, "w") as f:
            f.write("100 90 1 0\n200 190 0 1 7\n")
        self.assertEqual(timing.read_samples(path, 2), [(100, 90, 1, 0), (200, 190, 2, 7)])


if __name__ == "__main__":
    unittest.main()
