#!/usr/bin/python3
"""Tests of the davinci_sim Python module (docs/python.md) against the
davinci-sim binary of the same build: the same program and configuration
give the same report, cycle for cycle, and the same messages.

    tests/python/davinci_sim_test.py SOURCE_DIR BUILD_DIR [unittest args]

The module is imported from BUILD_DIR/python, as PYTHONPATH=build/python
does. Not in the sanitizer pass (label `python`, tests/CMakeLists.txt).
"""
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import unittest

SOURCE, BUILD, SIM = None, None, None
davinci_sim = None

GEMM = "models/gemm_256.pto"


def cli_report(program, *options, cwd=None):
    """The --report-json of the binary run by hand."""
    with tempfile.TemporaryDirectory() as tmp:
        rep = os.path.join(tmp, "r.json")
        subprocess.run([SIM, "-q", "--report-json", rep, *options, program], cwd=cwd or SOURCE, check=True,
                       stdout=subprocess.DEVNULL,
                       env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
        with open(rep) as f:
            return json.load(f)


def cli_failure(program, *options, cwd=None):
    """(exit status, stderr) of a binary run that fails."""
    p = subprocess.run([SIM, "-q", *options, program], cwd=cwd or SOURCE, capture_output=True, text=True,
                       env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    return p.returncode, p.stderr


def running(pid):
    """Whether process `pid` runs (a zombie has ended)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


# The fields of a report that describe the run, not the machine or the
# names the inputs went by.
NAMES = ("program", "config")


def without_names(report):
    return {k: v for k, v in report.items() if k not in NAMES}


class DavinciSimTest(unittest.TestCase):
    def setUp(self):
        os.chdir(SOURCE)

    def test_acceptance_command(self):
        """The issue's command prints the CLI's total cycles."""
        p = subprocess.run(["/usr/bin/python3", "-c",
                            "import davinci_sim; print(davinci_sim.simulate('%s')['total_cycles'])" % GEMM],
                           cwd=SOURCE, capture_output=True, text=True, check=True,
                           env=dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python")))
        self.assertEqual(p.stdout, "%d\n" % cli_report(GEMM)["total_cycles"])
        self.assertEqual(p.stderr, "")

    def test_report_is_the_report_json(self):
        report = davinci_sim.simulate(GEMM)
        self.assertEqual(report["schema_version"], davinci_sim.REPORT_SCHEMA_VERSION)
        self.assertEqual(report, cli_report(GEMM))

    def test_program_text_equals_its_path(self):
        with open(GEMM) as f:
            text = f.read()
        by_text = davinci_sim.simulate(text)
        self.assertEqual(by_text["program"], "<program>")
        self.assertEqual(without_names(by_text), without_names(davinci_sim.simulate(GEMM)))
        self.assertEqual(davinci_sim.simulate(text, program_name="mine.pto")["program"], "mine.pto")

    def test_a_path_that_does_not_exist(self):
        with self.assertRaises(davinci_sim.Error) as e:
            davinci_sim.simulate("models/no_such_model.pto")
        status, stderr = cli_failure("models/no_such_model.pto")
        self.assertEqual((e.exception.status, e.exception.message), (status, stderr.rstrip("\n")))

    def test_bad_program_text_gives_the_diagnostic(self):
        text = "import pypto as pypo\na = pypo.input('a', shape=(4, 4), dtype='float16')\nb = pypo.op.relu(a, a, a)\n"
        with self.assertRaises(davinci_sim.Error) as e:
            davinci_sim.simulate(text, program_name="bad.pto")
        self.assertEqual(e.exception.status, 2)
        self.assertRegex(e.exception.message, r"^bad\.pto:3:\d+: error: ")
        self.assertEqual(str(e.exception), e.exception.message)
        # The same text, a file named so, on the command line: the same words.
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "bad.pto"), "w") as f:
                f.write(text)
            self.assertEqual(cli_failure("bad.pto", cwd=tmp), (2, e.exception.message + "\n"))

    def test_config_dict_equals_its_file(self):
        with open("configs/edge_npu.json") as f:
            config = json.load(f)
        by_dict = davinci_sim.simulate(GEMM, config=config)
        self.assertEqual(by_dict["config"], "<config dict>")
        by_path = davinci_sim.simulate(GEMM, config="configs/edge_npu.json")
        self.assertEqual(without_names(by_dict), without_names(by_path))
        self.assertEqual(by_path, cli_report(GEMM, "--config", "configs/edge_npu.json"))
        self.assertNotEqual(by_dict["total_cycles"], davinci_sim.simulate(GEMM)["total_cycles"])

    def test_bad_config_key_names_its_path(self):
        with self.assertRaises(davinci_sim.Error) as e:
            davinci_sim.simulate(GEMM, config={"cube": {"l0_kibb": 64}})
        self.assertEqual(e.exception.status, 2)
        self.assertTrue(e.exception.message.startswith("davinci-sim: error: <config dict>: cube.l0_kibb: "),
                        e.exception.message)
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "c.json"), "w") as f:
                json.dump({"cube": {"l0_kibb": 64}}, f)
            status, stderr = cli_failure(os.path.join(SOURCE, GEMM), "--config", "c.json", cwd=tmp)
        self.assertEqual(status, 2)
        self.assertEqual(stderr.replace("c.json", "<config dict>"), e.exception.message + "\n")

    def test_settings_are_set(self):
        report = davinci_sim.simulate(GEMM, settings={"ddr.bytes_per_cycle": 8, "chip.clusters": 2})
        self.assertEqual(report, cli_report(GEMM, "--set", "ddr.bytes_per_cycle=8", "--set", "chip.clusters=2"))

    def test_shapes_and_params(self):
        shapes = {"img": [1, 1, 24, 32]}
        report = davinci_sim.simulate("models/super_resolution.pto", shapes=shapes)
        self.assertEqual(report, cli_report("models/super_resolution.pto", "--shape", "img=1,1,24,32"))
        with self.assertRaises(davinci_sim.Error) as e:
            davinci_sim.simulate("models/super_resolution.pto", shapes={"img": [1, 0, 24, 32]})
        self.assertEqual(e.exception.status, 2)
        self.assertTrue(e.exception.message.startswith("davinci_sim: error: shapes: "), e.exception.message)
        with self.assertRaises(davinci_sim.Error) as e:
            davinci_sim.simulate(GEMM, params={"layers": 2})
        status, stderr = cli_failure(GEMM, "--param", "layers=2")
        self.assertEqual((e.exception.status, e.exception.message), (status, stderr.rstrip("\n")))

    def test_functional(self):
        report = davinci_sim.simulate(GEMM, functional=True)
        self.assertEqual(report, cli_report(GEMM, "--functional"))

    def test_timeout(self):
        with self.assertRaises(davinci_sim.Error) as e:
            davinci_sim.simulate("models/gemm_2048.pto", timeout=0.05)
        self.assertTrue(e.exception.timed_out)
        self.assertEqual(e.exception.status, -9)

    def test_child_ends_with_interpreter(self):
        """A simulation whose interpreter is killed does not run on."""
        p = subprocess.Popen(["/usr/bin/python3", "-c", "import davinci_sim; davinci_sim.simulate('models/gemm_2048.pto')"],
                             cwd=SOURCE, env=dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python")))
        children = []
        deadline = time.monotonic() + 30
        while not children and time.monotonic() < deadline:
            time.sleep(0.05)
            for task in os.listdir("/proc/%d/task" % p.pid):
                with open("/proc/%d/task/%s/children" % (p.pid, task)) as f:
                    children += [int(c) for c in f.read().split()]
        self.assertEqual(len(children), 1)
        p.kill()
        p.wait()
        deadline = time.monotonic() + 30
        while running(children[0]) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertFalse(running(children[0]), "the simulation runs on")

    def test_machine_failure_is_an_error(self):
        """No temporary folder: Error with the exit status of a machine
        failure (4), not a crash."""
        p = subprocess.run(["/usr/bin/python3", "-c", "import davinci_sim\ntry:\n"
                            "    davinci_sim.simulate('models/gemm_256.pto')\n"
                            "except davinci_sim.Error as e:\n    print(e.status, e)"],
                           cwd=SOURCE, capture_output=True, text=True, check=True,
                           env=dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python"), TMPDIR="/nonexistent"))
        self.assertRegex(p.stdout, r"^4 davinci_sim: error: cannot make a temporary folder /nonexistent/davinci-sim-py-"
                                   r"\S+: No such file or directory\n$")

    def test_wrong_argument_types(self):
        with self.assertRaises(TypeError):
            davinci_sim.simulate(42)
        with self.assertRaises(TypeError):
            davinci_sim.simulate(GEMM, config=[1])
        with self.assertRaises(TypeError):
            davinci_sim.simulate(GEMM, config={"cube": object()})

    def test_many_calls_in_one_interpreter(self):
        """SystemC elaborates once per process: each call forks, so 20 calls
        in this interpreter (4 configs, 5 times each, in turn) give exactly
        the binary's cycles."""
        widths = [8, 16, 32, 64]
        expected = {w: cli_report(GEMM, "--set", "ddr.bytes_per_cycle=%d" % w)["total_cycles"] for w in widths}
        self.assertEqual(len(set(expected.values())), len(widths), expected)
        got = [(w, davinci_sim.simulate(GEMM, settings={"ddr.bytes_per_cycle": w})["total_cycles"])
               for _ in range(5) for w in widths]
        self.assertEqual(len(got), 20)
        self.assertEqual(got, [(w, expected[w]) for _ in range(5) for w in widths])

    def test_calls_from_threads(self):
        results, threads = {}, []
        for w in (8, 16, 32, 64):
            t = threading.Thread(target=lambda w=w: results.__setitem__(
                w, davinci_sim.simulate(GEMM, settings={"ddr.bytes_per_cycle": w})["total_cycles"]))
            threads.append(t)
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(results, {w: cli_report(GEMM, "--set", "ddr.bytes_per_cycle=%d" % w)["total_cycles"]
                                   for w in (8, 16, 32, 64)})

    def test_config_params_are_help_configs(self):
        params = davinci_sim.config_params()
        listing = subprocess.run([SIM, "--help-config"], capture_output=True, text=True, check=True).stdout
        self.assertGreater(len(params), 20)
        for p in params:
            self.assertEqual(set(p), {"key", "kind", "unit", "default", "default_text", "meaning"})
            self.assertIn(p["key"], listing)
            self.assertIn(p["meaning"], listing)
        by_key = {p["key"]: p for p in params}
        self.assertEqual(len(by_key), len(params))
        # The defaults are typed values of what --help-config prints.
        for p in params:
            try:
                shown = json.loads(p["default_text"])
            except ValueError:
                shown = p["default_text"]  # a string: os, ws, ...
            self.assertEqual(p["default"], shown, p["key"])


def main():
    global SOURCE, BUILD, SIM, davinci_sim
    SOURCE, BUILD = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    SIM = os.path.join(BUILD, "davinci-sim")
    sys.path.insert(0, os.path.join(BUILD, "python"))
    import davinci_sim as module
    davinci_sim = module
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:])


if __name__ == "__main__":
    main()
