"""Unit tests of rig.sh's rig_count_in, the wait predicates' counter, run in bash on the host against files written
here as a booth writes its events. Run by scripts/test: python3 -m unittest discover -s Tests/Rig/lib."""
import os
import subprocess
import tempfile
import unittest

RIG_SH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rig.sh")

READY = '{"t_us":%d,"type":"ready"}\n'
SAVED = '{"t_us":%d,"type":"photoSaved","name":"a.jpg"}\n'


class RigCountTests(unittest.TestCase):
    def count(self, script):
        """Runs script in the scenario's own shell (rig.sh sourced, EVENTS set) and returns its lines."""
        with tempfile.TemporaryDirectory() as d:
            out = subprocess.run(
                ["bash", "-c", 'source "$1"; EVENTS=$2/events.jsonl\n' + script, "bash", RIG_SH, d],
                check=True, capture_output=True, text=True, timeout=30)
        return out.stdout.split()

    def test_counts_only_lines_appended_since_the_last_call(self):
        got = self.count(f"""
            printf '{READY % 1}' > "$EVENTS"
            rig_count_in "$EVENTS" '"type":"photoSaved"'; echo "$RIG_COUNT"
            printf '{SAVED % 2}{SAVED % 3}' >> "$EVENTS"
            rig_count_in "$EVENTS" '"type":"photoSaved"'; echo "$RIG_COUNT"
            printf '{SAVED % 4}' >> "$EVENTS"
            rig_count_in "$EVENTS" '"type":"photoSaved"'; echo "$RIG_COUNT"
        """)
        self.assertEqual(got, ["0", "2", "3"])

    def test_a_replaced_file_is_counted_from_its_start(self):
        # A scenario that starts a second booth removes the events file first: the first booth's photo must not count
        # for the second (a stale count ended gpio-bounce's wait for the photo at once, and it stopped the booth early).
        got = self.count(f"""
            printf '{READY % 1}{SAVED % 2}' > "$EVENTS"
            rig_count_in "$EVENTS" '"type":"photoSaved"'; echo "$RIG_COUNT"
            rm -f "$EVENTS"
            rig_count_in "$EVENTS" '"type":"photoSaved"'; echo "$RIG_COUNT"
            printf '{READY % 5}' > "$EVENTS"
            rig_count_in "$EVENTS" '"type":"photoSaved"'; echo "$RIG_COUNT"
            rig_count_in "$EVENTS" '"type":"ready"'; echo "$RIG_COUNT"
            printf '{SAVED % 6}' >> "$EVENTS"
            rig_count_in "$EVENTS" '"type":"photoSaved"'; echo "$RIG_COUNT"
        """)
        self.assertEqual(got, ["1", "0", "0", "1", "1"])

    def test_a_file_rewritten_in_place_is_counted_from_its_start(self):
        got = self.count(f"""
            printf '{READY % 1}{SAVED % 2}' > "$EVENTS"
            rig_count_in "$EVENTS" '"type":"photoSaved"'; echo "$RIG_COUNT"
            printf '{READY % 7}' > "$EVENTS"
            rig_count_in "$EVENTS" '"type":"photoSaved"'; echo "$RIG_COUNT"
        """)
        self.assertEqual(got, ["1", "0"])

    def test_an_unfinished_line_counts(self):
        got = self.count("""
            printf '{"t_us":1,"type":"photoSaved"' > "$EVENTS"
            rig_count_in "$EVENTS" '"type":"photoSaved"'; echo "$RIG_COUNT"
            printf ',"name":"a.jpg"}\\n' >> "$EVENTS"
            rig_count_in "$EVENTS" '"type":"photoSaved"'; echo "$RIG_COUNT"
        """)
        self.assertEqual(got, ["1", "1"])


if __name__ == "__main__":
    unittest.main()
