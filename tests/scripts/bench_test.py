#!/usr/bin/python3
"""scripts/bench.py in its quick mode works: it writes a result whose
simulated figures are those of davinci-sim run directly, --compare reads
it back, and bad input exits with status 2. Timings are not asserted.

    tests/scripts/bench_test.py SOURCE_DIR DAVINCI_SIM [unittest args]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SOURCE, SIM = None, None


class BenchTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="bench-test-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def bench(self, *args, expect=0):
        p = subprocess.run(["/usr/bin/python3", os.path.join(SOURCE, "scripts", "bench.py"), "--sim", SIM, *args],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, expect, p.stdout + p.stderr)
        return p

    def test_quick_mode_and_compare(self):
        result = os.path.join(self.tmp, "r.json")
        p = self.bench("--quick", "-o", result)
        with open(result) as f:
            r = json.load(f)
        self.assertEqual(sorted(r["models"]), ["gemm_256", "resnet_block", "super_resolution 24x32"])
        rep = os.path.join(self.tmp, "direct.json")
        subprocess.run([SIM, "-q", "--report-json", rep, "models/resnet_block.pto"], cwd=SOURCE, check=True)
        with open(rep) as f:
            direct = json.load(f)
        m = r["models"]["resnet_block"]
        self.assertEqual(m["total_cycles"], direct["total_cycles"])
        self.assertEqual(m["commands"], sum(u["commands"] for u in direct["units"]))
        self.assertGreater(m["max_rss_kib"], 0)
        self.assertEqual(len(m["wall_seconds"]), 1)
        self.assertEqual(sorted(r["scaling"], key=int), ["256", "512"])
        self.assertLess(r["scaling"]["256"]["commands"], r["scaling"]["512"]["commands"])
        self.assertGreater(r["front_end"]["lines"], 500)
        # --timings: the phases per command, and the activations, exact.
        self.assertEqual(sorted(m["phase_us_per_command"]),
                         ["check", "lower", "outputs", "parse", "simulate", "spool"])
        self.assertGreater(m["phase_us_per_command"]["simulate"], 0)
        self.assertEqual(m["activations_per_command"], m["activations"] / m["commands"])
        self.assertIn("where the time goes", p.stdout)
        self.assertEqual(sorted(r["variants"]), ["24 clusters", "MAX_PARALLEL 16", "ascend_910b_class", "default"])
        self.assertEqual(r["variants"]["default"]["commands"], r["scaling"]["512"]["commands"])
        self.assertIn("resnet_block", p.stdout)
        self.assertIn("scaling: GEMM", p.stdout)
        p = self.bench("--quick", "--no-scaling", "-o", os.path.join(self.tmp, "r2.json"), "--compare", result)
        # The same binary: the same activations, exactly.
        self.assertRegex(p.stdout, r"\nresnet_block +[0-9.]+x +[0-9.]+x +1\.00x  same\n")
        self.assertIn("per phase, new / old", p.stdout)
        only = os.path.join(self.tmp, "r3.json")
        self.bench("--quick", "--no-scaling", "-m", "resnet", "-m", "gemm", "-o", only)
        with open(only) as f:
            self.assertEqual(sorted(json.load(f)["models"]), ["gemm_256", "resnet_block"])

    def test_bad_input_exits_2(self):
        p = self.bench("--compare", os.path.join(self.tmp, "none.json"), expect=2)
        self.assertIn("bench.py: error: --compare: ", p.stderr)
        p = self.bench("--runs", "0", expect=2)
        self.assertIn("--runs must be at least 1", p.stderr)
        p = self.bench("-o", "/nonexistent-dir/r.json", expect=2)
        self.assertIn("-o: folder /nonexistent-dir does not exist", p.stderr)
        p = self.bench("--quick", "-m", "nosuch", expect=2)
        self.assertIn("--model nosuch: no model's name contains it (models: gemm_256, resnet_block, ", p.stderr)


if __name__ == "__main__":
    SOURCE, SIM = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:], verbosity=2)
