#!/usr/bin/python3
"""Fuzz target for sweep files (scripts/sweep.py's loader, sweep_spec.load),
with Debian's python3-hypothesis generating hostile files.

    tests/fuzz/sweep_file_fuzz.py SOURCE_DIR DAVINCI_SIM [--examples N | --seconds S]

It first replays tests/fuzz/regressions/sweep_file/ (files that once
escaped the loader with another exception).
The property: whatever the file holds, load() either returns a sweep or
raises SpecError (the caller prints it and exits 2); any other exception
is a bug, which hypothesis shrinks to a smallest file and prints. Files are
drawn three ways: arbitrary bytes; arbitrary JSON; and sweep-shaped
objects, whose keys are the loader's own (and davinci-sim's configuration
keys, from --help-config) with values of any JSON type, so the checks
behind each key are reached. ctest runs a fixed number of examples with a
fixed seed (derandomized: the same files every run); scripts/fuzz.sh runs
it for a time, randomly, as it runs the libFuzzer targets.
"""
import argparse
import json
import os
import sys
import tempfile
import time

from hypothesis import HealthCheck, given, settings, strategies as st

parser = argparse.ArgumentParser()
parser.add_argument("source")
parser.add_argument("sim")
parser.add_argument("--examples", type=int, default=400)
parser.add_argument("--seconds", type=int, default=0, help="run random batches until this much time has passed")
args = parser.parse_args()

sys.path.insert(0, os.path.join(args.source, "scripts"))
import sweep_spec  # noqa: E402

# --help-config is asked once, not once per file (its reading is tested
# with the sweep tool's own tests).
CONFIG_KEYS = sweep_spec.config_keys(args.sim)
sweep_spec.config_keys = lambda sim: CONFIG_KEYS

# Relative paths in a sweep file are taken from the current directory: the
# source tree's, so the shipped models and configs are reachable.
os.chdir(args.source)
WORK = tempfile.mkdtemp(prefix="sweep_fuzz_")
PATH = os.path.join(WORK, "sweep.json")

scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12))
json_values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                               st.dictionaries(st.text(max_size=8), inner,
                                                                               max_size=4)),
                           max_leaves=12)
paths = st.one_of(st.sampled_from(["models/gemm_256.pto", "models/resnet_block.pto", "configs/cluster.json",
                                   "configs/ascend_910b_class.json", "no/such/file.pto", "", ".", "/", "models",
                                   "README.md", "/dev/null", "build/davinci-sim", "a\0b"]),
                  st.text(max_size=10))
config_keys = st.sampled_from(CONFIG_KEYS[:40] + ["cluster", "chip.clusters.x", "no_such.key"])
grid_values = st.lists(st.one_of(st.integers(-3, 4096), st.sampled_from([0.5, 1e300, "x", True]), json_values),
                       max_size=4)
bindings = st.one_of(json_values,
                     st.lists(st.dictionaries(st.sampled_from(["a", "b", "img", "layers"]),
                                              st.one_of(st.lists(st.integers(-2, 5), max_size=4), json_values),
                                              max_size=3), max_size=3))
program_entries = st.one_of(paths, json_values,
                            st.fixed_dictionaries({}, optional={"program": st.one_of(paths, json_values),
                                                                "shapes": bindings, "params": bindings,
                                                                "extra": json_values}))
plots = st.lists(st.one_of(json_values,
                           st.fixed_dictionaries({}, optional={"x": st.one_of(config_keys, json_values),
                                                               "y": st.one_of(st.sampled_from(
                                                                   sweep_spec.Y_FIELDS), json_values),
                                                               "title": json_values})), max_size=3)
sweeps = st.fixed_dictionaries({}, optional={
    "name": st.one_of(st.sampled_from(["ok", "a b", "../x", ""]), json_values),
    "description": json_values,
    "base_config": st.one_of(paths, json_values),
    "programs": st.one_of(st.lists(program_entries, max_size=3), json_values),
    "grid": st.one_of(st.dictionaries(config_keys, st.one_of(grid_values, json_values), max_size=3), json_values),
    "plots": st.one_of(plots, json_values),
    "unknown": json_values,
})


def text_of(doc):
    return json.dumps(doc, allow_nan=True).encode()


files = st.one_of(st.binary(max_size=200), json_values.map(text_of), sweeps.map(text_of))


def check(data):
    with open(PATH, "wb") as f:
        f.write(data)
    try:
        spec, points = sweep_spec.load(PATH, args.sim)
    except sweep_spec.SpecError as e:
        assert str(e), "an empty error message"
        return
    # An accepted sweep is one the runner can use: its points serialise.
    json.dumps([p["config"] for p in points])
    assert points, "an accepted sweep without points"
    # A sweep in which nothing varies has no plots (sweep_spec.load's rule);
    # every plot it does have names an axis and a figure.
    for plot in spec["plots"]:
        assert isinstance(plot, dict) and plot.get("x") and plot.get("y"), plot


def run(examples, derandomize):
    test = settings(max_examples=examples, derandomize=derandomize, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))(given(files)(check))
    test()


regressions = os.path.join(args.source, "tests", "fuzz", "regressions", "sweep_file")
for name in sorted(os.listdir(regressions)):
    with open(os.path.join(regressions, name), "rb") as f:
        check(f.read())

if args.seconds:
    end = time.monotonic() + args.seconds
    batches = 0
    while time.monotonic() < end:
        run(args.examples, derandomize=False)
        batches += 1
    print("sweep_file fuzz: %d random examples, no finding" % (batches * args.examples))
else:
    run(args.examples, derandomize=True)
    print("sweep_file fuzz: %d examples, no finding" % args.examples)
