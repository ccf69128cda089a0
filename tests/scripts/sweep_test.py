#!/usr/bin/python3
"""End-to-end tests of scripts/sweep.py: a 4-point grid run locally and on a
loopback Dask LocalCluster, resuming after an interruption, a failing point,
bad input. Cycle counts are compared with davinci-sim run directly on the
same program and configuration (they are deterministic).

    tests/scripts/sweep_test.py SOURCE_DIR DAVINCI_SIM [unittest args]
"""
import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

SOURCE, SIM = None, None
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def sweep_file(directory, grid, programs=None, name="t"):
    spec = {"name": name, "programs": programs or ["models/gemm_256.pto"], "grid": grid}
    path = os.path.join(directory, name + ".json")
    with open(path, "w") as f:
        json.dump(spec, f)
    return path


def slurp(path):
    with open(path, "rb") as f:
        return f.read()


def direct_cycles(program, config, shapes=()):
    """total_cycles of davinci-sim run by hand."""
    with tempfile.TemporaryDirectory() as tmp:
        cfg, rep = os.path.join(tmp, "c.json"), os.path.join(tmp, "r.json")
        with open(cfg, "w") as f:
            json.dump(config, f)
        cmd = [SIM, "-q", "--config", cfg, "--report-json", rep] + [a for s in shapes for a in ("--shape", s)]
        subprocess.run(cmd + [program], cwd=SOURCE, check=True)
        with open(rep) as f:
            return json.load(f)["total_cycles"]


class SweepTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sweep-test-")
        self.out = os.path.join(self.tmp, "out")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def sweep(self, path, *extra, expect=0):
        p = subprocess.run(["/usr/bin/python3", os.path.join(SOURCE, "scripts", "sweep.py"), path, "-o", self.out,
                            "--sim", SIM, *extra], cwd=SOURCE, capture_output=True, text=True)
        self.assertEqual(p.returncode, expect, p.stderr)
        return p

    def rows(self):
        with open(os.path.join(self.out, "results.csv")) as f:
            return list(csv.DictReader(f))

    GRID = {"ddr.bytes_per_cycle": [16, 32], "chip.clusters": [1, 2]}

    def check_grid_rows(self, rows):
        self.assertEqual(len(rows), 4)
        self.assertEqual([(r["ddr.bytes_per_cycle"], r["chip.clusters"]) for r in rows],
                         [("16", "1"), ("16", "2"), ("32", "1"), ("32", "2")])
        for r in rows:
            self.assertEqual(r["status"], "ok", r["error"])
            config = {"ddr": {"bytes_per_cycle": int(r["ddr.bytes_per_cycle"])},
                      "chip": {"clusters": int(r["chip.clusters"])}}
            self.assertEqual(int(r["total_cycles"]), direct_cycles("models/gemm_256.pto", config), r)
            self.assertGreater(int(r["ddr_bytes"]), 0)
            self.assertGreater(float(r["wall_seconds"]), 0)
            self.assertGreater(int(r["max_rss_kib"]), 0)
        # The grid matters: two clusters are faster than one.
        self.assertLess(int(rows[1]["total_cycles"]), int(rows[0]["total_cycles"]))
        with open(os.path.join(self.out, "results.json")) as f:
            self.assertEqual([j["total_cycles"] for j in json.load(f)], [int(r["total_cycles"]) for r in rows])
        for png in ("total_cycles_vs_ddr_bytes_per_cycle.png", "cube_utilization_vs_ddr_bytes_per_cycle.png"):
            with open(os.path.join(self.out, png), "rb") as f:
                self.assertEqual(f.read(8), PNG_MAGIC, png)
        self.assertEqual(len(os.listdir(os.path.join(self.out, "points"))), 4)

    def test_local_grid(self):
        p = self.sweep(sweep_file(self.tmp, self.GRID), "-j", "2")
        self.assertIn("4 points, 0 done before, 4 to run", p.stderr)
        rows = self.rows()
        self.check_grid_rows(rows)
        self.assertTrue(all(r["runner"].startswith("local@") for r in rows))

    def test_module_and_binary_agree(self):
        """Local points go through the davinci_sim module when the build of
        --sim has one (docs/python.md); --no-module runs the binary. Same
        figures either way."""
        has_module = os.path.isdir(os.path.join(os.path.dirname(SIM), "python", "davinci_sim"))
        p = self.sweep(sweep_file(self.tmp, self.GRID), "-j", "2")
        self.assertEqual("through the davinci_sim module" in p.stderr, has_module, p.stderr)
        through_module = self.rows()
        shutil.rmtree(self.out)
        p = self.sweep(sweep_file(self.tmp, self.GRID), "-j", "2", "--no-module")
        self.assertNotIn("through the davinci_sim module", p.stderr)
        by_binary = self.rows()
        measured = ("wall_seconds", "cpu_seconds", "max_rss_kib")
        self.assertEqual([{k: v for k, v in r.items() if k not in measured} for r in through_module],
                         [{k: v for k, v in r.items() if k not in measured} for r in by_binary])
        self.check_grid_rows(through_module)

    def test_dask_local_cluster(self):
        from distributed import LocalCluster
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address=None) as cluster:
            p = self.sweep(sweep_file(self.tmp, self.GRID), "--scheduler", cluster.scheduler_address)
            self.assertIn("on " + cluster.scheduler_address, p.stderr)
            workers = set(cluster.scheduler_info["workers"])
        rows = self.rows()
        self.check_grid_rows(rows)
        for r in rows:  # every point ran on a worker of this cluster
            self.assertIn(r["runner"], workers)

    def test_resume_runs_only_missing_points(self):
        path = sweep_file(self.tmp, self.GRID)
        self.sweep(path, "-j", "2")
        points = os.path.join(self.out, "points")
        names = sorted(os.listdir(points))
        kept = {n: slurp(os.path.join(points, n)) for n in names[2:]}
        os.remove(os.path.join(points, names[0]))
        with open(os.path.join(points, names[1]), "r+b") as f:  # a half-written file
            f.truncate(20)
        p = self.sweep(path, "-j", "2")
        self.assertIn("4 points, 2 done before, 2 to run", p.stderr)
        self.assertIn("unreadable; running the point again", p.stderr)
        for n, content in kept.items():  # untouched: not run again
            self.assertEqual(slurp(os.path.join(points, n)), content, n)
        self.check_grid_rows(self.rows())
        p = self.sweep(path)
        self.assertIn("4 points, 4 done before, 0 to run", p.stderr)

    def test_resume_after_kill(self):
        grid = {"ddr.bytes_per_cycle": [8, 16, 32, 64], "chip.clusters": [1, 2]}
        path = sweep_file(self.tmp, grid, programs=["models/resnet_block.pto"])
        proc = subprocess.Popen(["/usr/bin/python3", os.path.join(SOURCE, "scripts", "sweep.py"), path, "-o",
                                 self.out, "--sim", SIM, "-j", "1", "-q"], cwd=SOURCE, start_new_session=True,
                                stderr=subprocess.DEVNULL)
        points = os.path.join(self.out, "points")
        deadline = time.time() + 120
        while time.time() < deadline and proc.poll() is None:
            if os.path.isdir(points) and len([n for n in os.listdir(points) if n.endswith(".json")]) >= 2:
                break
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGKILL)  # the sweep and the point running under it
        proc.wait()
        done = [n for n in os.listdir(points) if n.endswith(".json")]
        self.assertGreaterEqual(len(done), 2)
        if len(done) == 8:
            self.skipTest("the sweep finished before it could be interrupted")
        p = self.sweep(path, "-j", "2")
        self.assertIn("8 points, %d done before, %d to run" % (len(done), 8 - len(done)), p.stderr)
        rows = self.rows()
        self.assertEqual(len(rows), 8)
        self.assertTrue(all(r["status"] == "ok" for r in rows))
        r = rows[3]
        self.assertEqual(int(r["total_cycles"]), direct_cycles(
            "models/resnet_block.pto", {"ddr": {"bytes_per_cycle": 16}, "chip": {"clusters": 2}}))

    def test_failing_point_is_recorded(self):
        # 1 KiB of L1 holds no block of the residual block's convolutions.
        path = sweep_file(self.tmp, {"cluster.l1_kib": [1, 256]}, programs=["models/resnet_block.pto"])
        p = self.sweep(path, expect=1)
        self.assertIn("1 ok, 1 failed", p.stderr)
        bad, good = self.rows()
        self.assertEqual(bad["status"], "failed")
        self.assertEqual(bad["exit_status"], "2")
        self.assertTrue(bad["error"].startswith("models/resnet_block.pto:"), bad["error"])
        self.assertIn("error: conv2d does not fit the hardware", bad["error"])
        self.assertEqual(bad["total_cycles"], "")
        self.assertEqual(good["status"], "ok")
        self.assertEqual(int(good["total_cycles"]), direct_cycles("models/resnet_block.pto", {"cluster": {"l1_kib": 256}}))
        # Recorded: a second run does not retry it, --retry-failed does.
        self.assertIn("2 done before, 0 to run", self.sweep(path, expect=1).stderr)
        self.assertIn("1 done before, 1 to run", self.sweep(path, "--retry-failed", expect=1).stderr)

    def test_timeout_is_a_failure(self):
        path = sweep_file(self.tmp, {"chip.clusters": [4]}, programs=["models/gemm_2048.pto"])
        p = self.sweep(path, "--timeout", "0.05", expect=1)
        self.assertIn("0 ok, 1 failed", p.stderr)
        (row,) = self.rows()
        self.assertEqual(row["status"], "failed")
        # The run's own wall time when it was stopped: the timeout, plus
        # however long a loaded machine takes to stop it (0.122 s seen).
        self.assertTrue(row["error"].startswith("timed out after "), row["error"])
        seconds = float(row["error"].split()[3])
        self.assertTrue(0.05 <= seconds < 5, row["error"])

    def test_shapes_are_passed(self):
        programs = [{"program": "models/super_resolution.pto", "shapes": [{"img": [1, 1, 24, 32]}, {"img": [1, 1, 48, 64]}]}]
        self.sweep(sweep_file(self.tmp, {"chip.clusters": [2]}, programs=programs))
        small, large = self.rows()
        self.assertEqual(small["shapes"], "img=1,1,24,32")
        self.assertEqual(int(large["total_cycles"]), direct_cycles(
            "models/super_resolution.pto", {"chip": {"clusters": 2}}, shapes=["img=1,1,48,64"]))
        self.assertLess(int(small["total_cycles"]), int(large["total_cycles"]))

    def test_params_are_passed(self):
        # tests/cli/param_option_test.cpp's chain: 1,757 cycles a layer on
        # the default machine (4 clusters), the layers one after another.
        program = os.path.join(self.tmp, "chain.pto")
        with open(program, "w") as f:
            f.write("import pypto as pypo\n"
                    "LAYERS = pypo.param('layers', 1)\n"
                    "FUSED = pypo.param('fused', False)\n"
                    "x = pypo.input('x', shape=(64, 64))\n"
                    "for i in range(LAYERS):\n"
                    "    x = pypo.op.matmul(x, pypo.weight('w' + str(i), shape=(64, 64)))\n"
                    "pypo.output('y', x)\n")
        programs = [{"program": program, "params": [{"layers": 1}, {"layers": 2, "fused": True}]}]
        self.sweep(sweep_file(self.tmp, {"chip.clusters": [4]}, programs=programs))
        one, two = self.rows()
        self.assertEqual(one["params"], "layers=1")
        self.assertEqual(two["params"], "fused=True layers=2")
        self.assertEqual(int(one["total_cycles"]), 1757)
        self.assertEqual(int(two["total_cycles"]), 3510)
        # A sweep without params has no params column.
        plain = os.path.join(self.tmp, "plain")
        p = subprocess.run(["/usr/bin/python3", os.path.join(SOURCE, "scripts", "sweep.py"),
                            sweep_file(self.tmp, {"chip.clusters": [4]}, name="plain"), "-o", plain, "--sim", SIM],
                           cwd=SOURCE, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(plain, "results.csv")) as f:
            self.assertEqual(f.readline().split(",")[:4], ["key", "program", "shapes", "chip.clusters"])

    def test_shipped_energy_sweep(self):
        """configs/sweeps/l2_energy_gemm.json: cycles and energy against one
        hardware key, each row's energy the run's own report's."""
        self.sweep(os.path.join(SOURCE, "configs", "sweeps", "l2_energy_gemm.json"), "-j", "2")
        rows = self.rows()
        self.assertEqual([r["l2.kib"] for r in rows], ["0", "1024", "4096", "16384", "196608"])
        self.assertTrue(all(r["status"] == "ok" for r in rows), rows)
        with tempfile.TemporaryDirectory() as tmp:
            rep = os.path.join(tmp, "r.json")
            subprocess.run([SIM, "-q", "--config", "configs/ascend_910b2.json", "--set", "l2.kib=0", "--report-json",
                            rep, "models/gemm_2048.pto"], cwd=SOURCE, check=True)
            with open(rep) as f:
                energy = json.load(f)["energy"]
        self.assertEqual(float(rows[0]["energy_joules"]), energy["joules"])
        self.assertEqual(float(rows[0]["average_watts"]), energy["average_watts"])
        # Without an L2 every operand re-read is HBM's: more energy, more cycles.
        self.assertGreater(float(rows[0]["energy_joules"]), float(rows[-1]["energy_joules"]))
        self.assertGreater(int(rows[0]["total_cycles"]), int(rows[-1]["total_cycles"]))
        # ... and the L2 takes its KiB's area: 192 MiB at 320 um^2 a KiB.
        self.assertAlmostEqual(float(rows[-1]["area_mm2"]) - float(rows[0]["area_mm2"]), 196608 * 320e-6, places=6)
        for png in ("total_cycles_vs_l2_kib.png", "energy_joules_vs_l2_kib.png", "area_mm2_vs_l2_kib.png"):
            with open(os.path.join(self.out, png), "rb") as f:
                self.assertEqual(f.read(8), PNG_MAGIC, png)

    def test_two_machines_over_sizes(self):
        """configs/sweeps/gemm_two_machines.json: base_configs make the
        machine an axis, a param the x axis, and the sweep prints a table of
        cycles per machine with the second's speed-up; each cell is the
        run's own report (the 1024^3 row: configs/README.md's table)."""
        p = self.sweep(os.path.join(SOURCE, "configs", "sweeps", "gemm_two_machines.json"), "-j", "2", "-q")
        rows = self.rows()
        self.assertEqual([(r["params"], r["config"]) for r in rows],
                         [("k=256 m=256 n=256", "cluster"), ("k=256 m=256 n=256", "910b2"),
                          ("k=512 m=512 n=512", "cluster"), ("k=512 m=512 n=512", "910b2"),
                          ("k=1024 m=1024 n=1024", "cluster"), ("k=1024 m=1024 n=1024", "910b2")])
        self.assertEqual([int(r["total_cycles"]) for r in rows[4:]], [4309622, 25440])
        table = p.stdout.split("\n")
        self.assertEqual(table[0], "sweep gemm_two_machines: simulated cycles, speed-up over cluster")
        self.assertEqual(table[1].split(), ["program", "params", "cluster", "cycles", "910b2", "cycles", "910b2", "vs",
                                            "cluster"])
        self.assertEqual(table[4].split(), ["models/gemm.pto", "k=1024", "m=1024", "n=1024", "4,309,622", "25,440",
                                            "%.2fx" % (4309622 / 25440)])
        for png in ("total_cycles_vs_param_m.png", "energy_joules_vs_param_m.png"):
            with open(os.path.join(self.out, png), "rb") as f:
                self.assertEqual(f.read(8), PNG_MAGIC, png)

    def test_empty_grid_and_a_shape_axis(self):
        """No grid: the programs' shapes are the points, and a shape
        dimension (shape:TENSOR.DIM) is an axis a plot can use."""
        spec = {"name": "shapes", "programs": [
            {"program": "models/super_resolution.pto", "shapes": [{"img": [1, 1, 24, 32]}, {"img": [1, 1, 48, 64]}]}],
            "plots": [{"x": "shape:img.2", "y": "total_cycles"}]}
        path = os.path.join(self.tmp, "shapes.json")
        with open(path, "w") as f:
            json.dump(spec, f)
        p = self.sweep(path, "-q")
        small, large = self.rows()
        self.assertEqual(int(large["total_cycles"]), direct_cycles("models/super_resolution.pto", {},
                                                                   shapes=["img=1,1,48,64"]))
        self.assertIn(["models/super_resolution.pto", "img=1,1,48,64", "{:,}".format(int(large["total_cycles"]))],
                      [line.split() for line in p.stdout.split("\n")])
        with open(os.path.join(self.out, "total_cycles_vs_shape_img_2.png"), "rb") as f:
            self.assertEqual(f.read(8), PNG_MAGIC)
        # An axis the sweep does not have is refused, with the axes it has.
        spec["plots"] = [{"x": "shape:img.7", "y": "total_cycles"}]
        with open(path, "w") as f:
            json.dump(spec, f)
        p = self.sweep(path, expect=2)
        self.assertIn("x 'shape:img.7' is not an axis of this sweep (did you mean shape:img.3?); axes: shape:img.0, "
                      "shape:img.1, shape:img.2, shape:img.3", p.stderr)

    def test_bad_input_exits_2(self):
        def bad(path, message, *extra):
            p = self.sweep(path, *extra, expect=2)
            self.assertIn("error: ", p.stderr)
            self.assertIn(message, p.stderr)
            self.assertNotIn("Traceback", p.stderr)
        bad(os.path.join(self.tmp, "missing.json"), "missing.json does not exist")
        broken = os.path.join(self.tmp, "broken.json")
        with open(broken, "w") as f:
            f.write("{\"grid\": ")
        bad(broken, "is not valid JSON: line 1")
        bad(sweep_file(self.tmp, {"cluster.l1_kb": [1]}), "unknown configuration key 'cluster.l1_kb' (did you mean cluster.l1_kib?)")
        bad(sweep_file(self.tmp, {"cluster.l1_kib": []}), "cluster.l1_kib must be a non-empty list")
        bad(sweep_file(self.tmp, {"chip.clusters": [1]}, programs=["models/nope.pto"]), "cannot read program models/nope.pto")
        bad(sweep_file(self.tmp, {"chip.clusters": [1]},
                       programs=[{"program": "models/gemm_256.pto", "params": [{"layers": [1]}]}]),
            "programs[0]: param 'layers' must be a finite number, string or boolean, got [1]")
        bad(sweep_file(self.tmp, {"chip.clusters": [1]}, programs=[{"program": "models/gemm_256.pto", "params": []}]),
            "programs[0]: params is an empty list")
        bad(sweep_file(self.tmp, self.GRID), "--scheduler must look like tcp://HOST:PORT", "--scheduler", "localhost")
        both = os.path.join(self.tmp, "both.json")
        with open(both, "w") as f:
            json.dump({"programs": ["models/gemm_256.pto"], "base_config": "configs/cluster.json",
                       "base_configs": {"a": "configs/cluster.json"}}, f)
        bad(both, "give base_config (one machine) or base_configs (several, by name), not both")
        same = os.path.join(self.tmp, "same.json")
        with open(same, "w") as f:
            json.dump({"programs": ["models/gemm_256.pto"],
                       "base_configs": {"a": "configs/cluster.json", "b": "configs/cluster.json"}}, f)
        bad(same, "models/gemm_256.pto  is listed twice (base configs that are the same machine?)")
        self.assertFalse(os.path.exists(self.out))


if __name__ == "__main__":
    SOURCE, SIM = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:], verbosity=2)
