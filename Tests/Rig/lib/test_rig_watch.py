"""Unit tests of host.sh's rig_watch and rig_running, the host's watch over a VM that stopped answering for itself,
run in bash on the host against a work folder written here as the guest's runner (lib/guest.sh) writes it. Run by
scripts/test: python3 -m unittest discover -s Tests/Rig/lib."""
import os
import subprocess
import tempfile
import time
import unittest

HOST_SH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "host.sh")


class RigWatchTests(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.dir = os.path.join(self.tmp.name, "rig")
        self.work = os.path.join(self.tmp.name, "work")
        os.makedirs(os.path.join(self.dir, "scenarios"))
        os.makedirs(os.path.join(self.work, "results"))
        os.makedirs(os.path.join(self.work, "claims"))
        self.console = os.path.join(self.tmp.name, "console.log")
        with open(self.console, "w") as f:
            f.write("".join(f"console line {i}\n" for i in range(50)))

    def scenario(self, name, timeout=None):
        with open(os.path.join(self.dir, "scenarios", name + ".sh"), "w") as f:
            f.write("#!/bin/bash\n# rig: a scenario\n")
            if timeout is not None:
                f.write(f"# rig-timeout: {timeout}\n")

    def claim(self, name, vm, started_ago):
        """The guest's runner claimed NAME for VM (vm, vm-2, vm-system) and started it STARTED_AGO seconds ago."""
        d = os.path.join(self.work, "claims", name)
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, "vm")
        with open(path, "w") as f:
            f.write(vm + "\n")
        t = time.time() - started_ago
        os.utime(path, (t, t))

    def result(self, name, status="PASS"):
        with open(os.path.join(self.work, "results", name + ".status"), "w") as f:
            f.write(f"{status} 1.0 0.5\n")

    def watch(self, vm, ready, secs, boot_limit=180, scale=3):
        """Runs rig_watch; returns (vm_stopped, what it said)."""
        out = subprocess.run(
            ["bash", "-c", 'source "$1"; RIG_DIR=$2 RIG_WORK=$3 RIG_TIME_SCALE=$4; shift 4\n'
             'rig_watch "$@"; printf "%s" "$vm_stopped"',
             "bash", HOST_SH, self.dir, self.work, str(scale), vm, ready, str(secs), str(boot_limit), self.console],
            check=True, capture_output=True, text=True, timeout=30)
        return out.stdout, out.stderr

    def status(self, name):
        path = os.path.join(self.work, "results", name + ".status")
        if not os.path.exists(path):
            return None
        with open(path) as f:
            return f.read().split()[0]

    def test_a_vm_whose_runner_never_started_is_stopped_after_its_boot_limit_only(self):
        stopped, _ = self.watch("", "", 179)
        self.assertEqual(stopped, "")
        stopped, said = self.watch("", "", 181)
        self.assertIn("runner had not started 181 s", stopped)
        self.assertIn("console line 49", said)

    def test_a_scenario_within_its_timeout_and_grace_runs_on(self):
        self.scenario("slow", timeout=100)
        self.claim("slow", "vm", started_ago=100 * 3 + 100)
        stopped, _ = self.watch("", "1.0", 500)
        self.assertEqual(stopped, "")
        self.assertIsNone(self.status("slow"))

    def test_a_scenario_past_its_timeout_and_grace_fails_with_the_console_in_its_log(self):
        self.scenario("stuck", timeout=100)
        self.claim("stuck", "vm", started_ago=100 * 3 + 130)
        stopped, _ = self.watch("", "1.0", 500)
        self.assertIn("stuck still running", stopped)
        self.assertEqual(self.status("stuck"), "FAIL")
        with open(os.path.join(self.work, "results", "stuck.log")) as f:
            log = f.read()
        self.assertIn("the host stopped the VM", log)
        self.assertIn("console line 49", log)
        self.assertNotIn("console line 19", log)

    def test_the_default_timeout_is_120_s(self):
        self.scenario("plain")
        self.claim("plain", "vm-system", started_ago=120 * 3 + 110)
        self.assertEqual(self.watch("-system", "1.0", 900)[0], "")
        self.claim("plain", "vm-system", started_ago=120 * 3 + 125)
        self.assertIn("plain still running", self.watch("-system", "1.0", 900)[0])

    def test_another_vms_claim_never_counts(self):
        self.scenario("theirs", timeout=1)
        self.scenario("ours", timeout=1000)
        self.claim("theirs", "vm-2", started_ago=150)  # overdue, and newer than ours
        self.claim("ours", "vm", started_ago=200)
        self.assertEqual(self.watch("", "1.0", 900)[0], "")
        self.assertIsNone(self.status("theirs"))
        self.assertIn("theirs still running", self.watch("-2", "1.0", 900)[0])

    def test_a_finished_claim_never_counts(self):
        self.scenario("done", timeout=10)
        self.claim("done", "vm", started_ago=10_000)
        self.result("done")
        self.assertEqual(self.watch("", "1.0", 900)[0], "")
        self.assertEqual(self.status("done"), "PASS")

    def test_of_the_vms_unfinished_claims_the_newest_is_the_running_one(self):
        # "zz-before" ran up to a shared reboot; "now" started after the boot and runs.
        for name in ("zz-before", "now"):
            self.scenario(name, timeout=10)
        self.claim("zz-before", "vm", started_ago=10_000)
        self.claim("now", "vm", started_ago=5)
        self.assertEqual(self.watch("", "1.0", 900)[0], "")
        self.assertIsNone(self.status("zz-before"))
        self.claim("now", "vm", started_ago=10 * 3 + 121)
        self.assertIn("now still running", self.watch("", "1.0", 900)[0])
        self.assertEqual(self.status("now"), "FAIL")
        self.assertIsNone(self.status("zz-before"))

    def test_a_gpiod2_run_takes_its_scenarios_timeout(self):
        self.scenario("gpio-x", timeout=200)
        self.claim("gpio-x@gpiod2", "vm", started_ago=200 * 3 + 60)
        self.assertEqual(self.watch("", "1.0", 900)[0], "")


if __name__ == "__main__":
    unittest.main()
