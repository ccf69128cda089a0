#!/usr/bin/python3
"""The ONNX backend node tests (Debian's libonnx-testdata) through the importer
and --functional (ctest onnx_node_tests; issue 22, part 2):

    tests/onnx/node_tests.py DAVINCI_SIM WORK_DIR [--jobs N] [--only GLOB]
                             [--write-docs | --check-docs] [--raw]

Every test directory of DATA (/usr/share/libonnx-testdata/data/node/test_*/,
or $ONNX_NODE_TEST_DATA) whose graph uses only operators the importer maps
(the list the binary itself prints when it refuses an unknown operator) is
run, data set by data set: the model (with CONSTANT_INPUTS made initializers)
through `davinci-sim --emit-pto` for the dtypes the program declares, each
test_data_set_N/input_K.pb as a .npy given with --input, then `davinci-sim
MODEL --functional --outputs DIR`, and each output compared with output_K.pb
(RTOL below). Each test is then

  pass     every output of every data set within tolerance;
  skip     tests/onnx/node_test_skips.json lists it, and davinci-sim refuses
           it (exit status 2: the importer, the compiler or the --input
           check) with a message containing the entry's `refused` text;
  fail     anything else: a wrong value, a missing output, an exit status
           other than 0 and 2, an unlisted refusal.

A wrong value is never a skip. The exit status is 1 when a test fails, when
a skip entry is stale (it matches no test, or a test it lists passes or
fails otherwise than it says), when a passing test fails with every input but
the first an initializer, when a test run with a fault injected passes
(FAULT_CHECKS), or, with --check-docs, when the section "ONNX backend node
tests" of docs/onnx.md is not what --write-docs writes."""
import argparse
import collections
import concurrent.futures
import difflib
import fnmatch
import glob
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SKIPS = os.path.join(HERE, "node_test_skips.json")
DOCS = os.path.join(ROOT, "docs", "onnx.md")
DATA = os.environ.get("ONNX_NODE_TEST_DATA", "/usr/share/libonnx-testdata/data/node")
ENV = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
SECTION = "## ONNX backend node tests"

# Tolerance per dtype of the expected output: an element passes when
#   |sim - ref| <= rtol * (|ref| + scale)
# with scale the largest finite |ref| of that output (or both are the same
# infinity, or both NaN). This is --check's criterion with its rtol
# (docs/functional.md, section 5), for the same reason: the vector unit computes
# each element in float32 and rounds it once to the result's dtype, reductions
# round every partial sum, and the cube accumulates in float32, so a result is
# a few roundings from the exact one, relative to the size of the values it
# was computed from (a difference of two near-equal values is small, its
# rounding error is not); the expected values (NumPy, in the output's dtype)
# carry their own roundings. float16 1e-2 is about twenty float16 roundings
# (one is 4.9e-4), bfloat16 8e-2 as many bfloat16 ones (3.9e-3: test data
# 1.12 truncates float32 to bfloat16 where davinci-sim rounds to nearest
# even). float32 1e-4 is loose for single operators, but a float32 result
# that went through float16 anywhere fails it: half a float16 ulp at the
# largest element, up to 4.9e-4 of it, is beyond the 2e-4 allowed there.
# Integer outputs are compared exactly.
RTOL = {np.dtype(np.float32): 1e-4, np.dtype(np.float16): 1e-2}
RTOL_BFLOAT16 = 8e-2

# The .npy dtype --input reads for each dtype the program declares an input
# with (docs/functional.md, section 4): bfloat16 is given as float32.
NPY_DTYPE = {"float32": np.float32, "float16": np.float16, "bfloat16": np.float32, "int32": np.int32,
             "int8": np.int8}

# Operands the importer takes as constants only (docs/onnx.md, Operators: the
# target shape, axes, slice bounds, Clip's bounds, Pow's exponent, Resize's
# roi, scales and sizes), by operator and input position.
# The node tests give them as graph inputs with their values in input_K.pb;
# the test runs them as initializers
# holding those values (as a deployment folds them), and compares the outputs
# as given.
CONSTANT_INPUTS = {
    "Clip": {1, 2},
    "Pow": {1},
    "ReduceMax": {1},
    "ReduceMean": {1},
    "ReduceSum": {1},
    "Reshape": {1},
    "Resize": {1, 2, 3},
    "Slice": {1, 2, 3, 4},
    "Squeeze": {1},
    "Unsqueeze": {1},
}


def supported_operators(sim, work):
    """The operators the importer maps, as the binary names them when it refuses one."""
    node = helper.make_node("NoSuchOperator", ["x"], ["y"])
    vi = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2]) for n in ("x", "y")]
    model = helper.make_model(helper.make_graph([node], "g", vi[:1], vi[1:]),
                              opset_imports=[helper.make_opsetid("", 13)])
    path = os.path.join(work, "no_such_operator.onnx")
    onnx.save(model, path)
    p = subprocess.run([sim, "--emit-pto", os.path.join(work, "x.pto"), path], env=ENV, capture_output=True,
                       text=True)
    m = re.search(r"; supported: (.*)$", p.stderr.strip())
    if p.returncode != 2 or not m:
        sys.exit("node_tests.py: cannot read the supported operators from: %s" % p.stderr)
    return set(m.group(1).split(", "))


def load_tensor(path):
    t = TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def compare(name, got, want, bfloat16=False):
    """(None when `got` matches `want`, else what differs; the largest |sim - ref| / tolerance)."""
    if got.shape != want.shape:
        return "output %s: shape %s, expected %s" % (name, got.shape, want.shape), 1.0
    if want.dtype.kind in "iub":
        if got.dtype.kind not in "iu":
            return "output %s: dtype %s, expected integers (%s)" % (name, got.dtype, want.dtype), 1.0
        bad = got.astype(np.int64) != want.astype(np.int64)
        if bad.any():
            i = tuple(int(k) for k in np.argwhere(bad)[0])
            return "output %s: %d of %d elements differ, first at %s: %s, expected %s (exact)" % (
                name, int(bad.sum()), bad.size, i, got[i], want[i]), 1.0
        return None, 0.0
    if want.dtype not in RTOL:
        return "output %s: expected dtype %s has no tolerance" % (name, want.dtype), 1.0
    if got.dtype != want.dtype:
        return "output %s: dtype %s, expected %s" % (name, got.dtype, want.dtype), 1.0
    rtol = RTOL_BFLOAT16 if bfloat16 else RTOL[want.dtype]
    g, w = got.astype(np.float64), want.astype(np.float64)
    finite = np.isfinite(w)
    scale = float(np.max(np.abs(w[finite]))) if finite.any() else 0.0
    tol = rtol * (np.abs(w) + scale)
    with np.errstate(invalid="ignore"):
        ok = finite & (np.abs(g - w) <= tol)
    ok |= (np.isnan(g) & np.isnan(w)) | (np.isinf(w) & (g == w))
    finite &= np.isfinite(g)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = float(np.max(np.where(tol[finite] > 0, np.abs(g - w)[finite] / tol[finite], 0.0), initial=0.0))
    if not ok.all():
        i = tuple(int(k) for k in np.argwhere(~ok)[0])
        return "output %s: %d of %d elements beyond tolerance %g x (|ref| + %g), first at %s: %r, expected %r" % (
            name, int((~ok).sum()), ok.size, rtol, scale, i, float(g[i]), float(w[i])), ratio
    return None, ratio


def constant_inputs(graph, all_but_first=False):
    """The names of the graph inputs CONSTANT_INPUTS makes initializers (all_but_first: and every
    input but the first)."""
    names = set()
    for n in graph.node:
        for k in CONSTANT_INPUTS.get(n.op_type, ()):
            if k < len(n.input) and n.input[k]:
                names.add(n.input[k])
    if all_but_first:
        initializers = {i.name for i in graph.initializer}
        names |= {v.name for v in graph.input if v.name not in initializers}
        names.discard(next(v.name for v in graph.input if v.name not in initializers))
    return names


def several_inputs(test_dir):
    """Whether the test has two inputs or more once CONSTANT_INPUTS are initializers."""
    g = onnx.load(os.path.join(test_dir, "model.onnx")).graph
    initializers = {i.name for i in g.initializer} | constant_inputs(g)
    return sum(v.name not in initializers for v in g.input) > 1


def bfloat16_bits(x):
    """numpy_helper gives a BFLOAT16 tensor as its uint16 bit patterns: their float32 values."""
    return (x.astype(np.uint32) << 16).view(np.float32)


def declared_inputs(pto):
    """{NAME: (shape, dtype)} of the program's pypo.input declarations."""
    with open(pto) as f:
        text = f.read()
    return {m.group(1): m.group(2) for m in re.finditer(r'pypo\.input\("((?:[^"\\]|\\.)*)", shape=\([^)]*\), '
                                                           r'dtype="(\w+)"\)', text)}


def run_test(sim, work, test_dir, first_output_only=False, env=None, all_constant=False):
    """(outcome, detail): ('pass', ''), ('refused', the importer's message), ('fail', what)."""
    name = os.path.basename(test_dir)
    here = os.path.join(work, name + ("_first_output" if first_output_only else "") + ("_fault" if env else "") +
                        ("_constants" if all_constant else ""))
    shutil.rmtree(here, ignore_errors=True)
    os.makedirs(here)
    sets = sorted(glob.glob(os.path.join(test_dir, "test_data_set_*")))
    if not sets:
        return "fail", "no test_data_set_* directory"
    worst = 0.0
    for s in sets:
        model = onnx.load(os.path.join(test_dir, "model.onnx"))
        g = model.graph
        initializers = {i.name for i in g.initializer}
        inputs = [v for v in g.input if v.name not in initializers]
        values, elem = {}, {}
        for k, v in enumerate(inputs):
            path = os.path.join(s, "input_%d.pb" % k)
            if not os.path.exists(path):
                return "fail", "%s: no input_%d.pb for input '%s'" % (os.path.basename(s), k, v.name)
            if v.type.HasField("tensor_type") and v.type.tensor_type.elem_type != TensorProto.STRING:
                values[v.name] = load_tensor(path)
                elem[v.name] = v.type.tensor_type.elem_type
        if first_output_only:
            for n in g.node:
                if g.output[0].name in n.output:
                    del n.output[1:]
            del g.output[1:]
        folded = constant_inputs(g, all_constant) & set(values)
        for v in folded:
            g.initializer.append(numpy_helper.from_array(values[v], v))
        if folded:
            kept = [v for v in g.input if v.name not in folded]
            del g.input[:]
            g.input.extend(kept)
        path = os.path.join(here, "model.onnx")
        onnx.save(model, path)
        pto = os.path.join(here, "model.pto")
        p = subprocess.run([sim, "--emit-pto", pto, path], env=ENV, capture_output=True, text=True)
        if p.returncode == 2:
            return "refused", p.stderr.strip().replace(path, "MODEL")
        if p.returncode != 0:
            return "fail", "--emit-pto: exit status %d: %s" % (p.returncode, (p.stdout + p.stderr).strip()[-2000:])
        declared = declared_inputs(pto)
        args = [sim, "-q", "--functional", "--outputs", os.path.join(here, "out")]
        for v in inputs:
            if v.name in folded:
                continue
            if v.name not in declared:
                return "fail", "input '%s' is not declared by the program" % v.name
            x = values[v.name]
            if elem[v.name] == TensorProto.BFLOAT16:
                x = bfloat16_bits(x)
            want = np.dtype(NPY_DTYPE[declared[v.name]])
            y = x.astype(want)
            if not np.array_equal(y.astype(x.dtype), x, equal_nan=x.dtype.kind == "f"):
                return "fail", "input '%s' (%s) is not exactly %s" % (v.name, x.dtype, declared[v.name])
            npy = os.path.join(here, v.name.replace("/", "_") + ".npy")
            np.save(npy, np.ascontiguousarray(y))
            args += ["--input", "%s=%s" % (v.name, npy)]
        shutil.rmtree(os.path.join(here, "out"), ignore_errors=True)
        p = subprocess.run(args + [path], env=dict(ENV, **(env or {})), capture_output=True, text=True)
        if p.returncode == 2:
            return "refused", p.stderr.strip().replace(here + "/", "")
        if p.returncode != 0:
            return "fail", "exit status %d: %s" % (p.returncode, (p.stdout + p.stderr).strip()[-2000:])
        for k, v in enumerate(g.output):
            want = load_tensor(os.path.join(s, "output_%d.pb" % k))
            if v.type.tensor_type.elem_type == TensorProto.BFLOAT16:
                want = bfloat16_bits(want)
            out = os.path.join(here, "out", v.name + ".npy")
            if not os.path.exists(out):
                return "fail", "no output file for '%s'" % v.name
            diff, r = compare(v.name, np.load(out), want, v.type.tensor_type.elem_type == TensorProto.BFLOAT16)
            if diff:
                return "fail", "%s: %s" % (os.path.basename(s), diff)
            worst = max(worst, r)
    shutil.rmtree(here, ignore_errors=True)
    return "pass", "largest error %.3g of the tolerance" % worst


def load_skips():
    with open(SKIPS) as f:
        skips = json.load(f)["skips"]
    for e in skips:
        if set(e) - {"reason", "refused", "tests", "first_output_passes"} or not e.get("refused") or not e.get("tests"):
            sys.exit("node_tests.py: %s: malformed entry %r" % (SKIPS, e))
    return skips


def classify(results, skips, names):
    """(verdicts {test: (verdict, detail)}, problems): verdict pass, skip (detail the reason) or fail."""
    verdicts, problems = {}, []
    entry_of = {}
    for i, e in enumerate(skips):
        for pattern in e["tests"]:
            hits = fnmatch.filter(names, pattern)
            if not hits:
                problems.append("skip list: '%s' (%s) matches no node test in scope" % (pattern, e["reason"]))
            for t in hits:
                if entry_of.get(t, i) != i:
                    problems.append("skip list: %s is listed twice" % t)
                entry_of[t] = i
    for t in names:
        outcome, detail = results[t]
        e = skips[entry_of[t]] if t in entry_of else None
        if outcome == "pass":
            verdicts[t] = ("pass", detail)
            if e:
                problems.append("%s passes: its skip entry (%s) is stale" % (t, e["reason"]))
        elif e and outcome == "refused" and e["refused"] in detail:
            verdicts[t] = ("skip", e["reason"])
        else:
            verdicts[t] = ("fail", detail)
            if e:
                problems.append("%s: %s, not refused with '%s' as its skip entry says (%s)" % (
                    t, outcome, e["refused"], e["reason"]))
            else:
                problems.append("%s: %s: %s" % (t, outcome, detail))
    return verdicts, entry_of, problems


def docs_section(total, names, verdicts, skips, entry_of, n_consts):
    """The section of docs/onnx.md --write-docs writes."""
    count = collections.Counter(v for v, _ in verdicts.values())
    lines = [
        SECTION,
        "",
        "<!-- Written by tests/onnx/node_tests.py --write-docs from tests/onnx/node_test_skips.json;",
        "     ctest onnx_node_tests fails when this section is not what it writes. -->",
        "",
        "Debian's `libonnx-testdata` ships ONNX's backend node tests: a one-operator",
        "model (or its expansion into simpler operators, `*_expanded`) with inputs and",
        "expected outputs as `TensorProto` files. ctest `onnx_node_tests`",
        "(`tests/onnx/node_tests.py`) runs every one whose operators are all in the",
        "table above, %d of the %d, through `--functional` (`--input` for each" % (len(names), total),
        "input, `--outputs`) and compares each output with the expected one: an",
        "element passes when `|sim - ref| <= rtol * (|ref| + scale)`, `scale` the",
        "output's largest finite `|ref|`, with --check's `rtol`",
        "(docs/functional.md, section 5): float32 `1e-4`, float16 `1e-2`, bfloat16",
        "`8e-2`; integer outputs exactly. The operands the importer takes as",
        "constants only (Reshape's shape, the axes of Squeeze, Unsqueeze and",
        "ReduceSum, Slice's bounds, Clip's bounds, Pow's exponent, Resize's roi,",
        "scales and sizes), which the tests give as graph inputs, become initializers",
        "holding the test's values, as a deployment folds them. Each test that passes",
        "with two inputs or more (%d of them) must pass again with every input but" % n_consts,
        "the first an initializer (the importer's constant operands: number",
        "operands, Gemm's B stored transposed and C scaled, BatchNormalization's",
        "statistics folded at import where the first run computed the fold).",
        "",
        "A test that does not pass is skipped only when",
        "`tests/onnx/node_test_skips.json` lists it and davinci-sim refuses it (exit",
        "status 2) with the message the list gives; a wrong value is never skipped,",
        "and a listed test that passes or fails otherwise fails the ctest.",
        "",
        "**%d passed, %d skipped, %d failed.**" % (count["pass"], count["skip"], count["fail"]),
        "",
        "| skipped | tests | reason |",
        "|---|---|---|",
    ]
    for i, e in enumerate(skips):
        tests = sorted(t for t in names if entry_of.get(t) == i and verdicts[t][0] == "skip")
        lines.append("| %d | %s | %s |" % (len(tests), ", ".join("`%s`" % t[5:] for t in tests), e["reason"]))
    failed = sorted(t for t in names if verdicts[t][0] == "fail")
    if failed:
        lines += ["", "Failed: " + ", ".join("`%s`" % t for t in failed) + "."]
    lines += ["", "Test names are without their `test_` prefix."]
    return "\n".join(lines) + "\n"


def split_docs(text):
    """(before, section, after) of docs/onnx.md around SECTION."""
    start = text.find("\n" + SECTION + "\n")
    if start < 0:
        return text.rstrip("\n") + "\n\n", "", ""
    start += 1
    end = text.find("\n## ", start + len(SECTION))
    end = len(text) if end < 0 else end + 1
    return text[:start], text[start:end].rstrip("\n") + "\n", text[end:]


def self_test():
    """The comparison and the classification fail what they must (run before the tests)."""
    want = np.array([[1.0, -2.0], [0.5, 4.0]], np.float32)
    tol = np.float32(1e-4 * (1.0 + 4.0))
    checks = [
        (compare("y", want.copy(), want)[0] is None, "equal float32 outputs"),
        (compare("y", want + np.float32([[0.9 * tol, 0], [0, 0]]), want)[0] is None, "within tolerance"),
        (compare("y", want + np.float32([[1.1 * tol, 0], [0, 0]]), want)[0] is not None, "beyond tolerance"),
        (compare("y", want.astype(np.float16), want)[0] is not None, "float16 for float32"),
        (compare("y", want[:1], want)[0] is not None, "another shape"),
        (compare("y", np.float32([np.nan, np.inf]), np.float32([np.nan, np.inf]))[0] is None, "NaN and inf alike"),
        (compare("y", np.float32([np.nan, 1]), np.float32([0, 1]))[0] is not None, "NaN for a number"),
        (compare("y", np.float32([-np.inf, 1]), np.float32([np.inf, 1]))[0] is not None, "-inf for inf"),
        (compare("y", np.int32([3, 4]), np.int64([3, 4]))[0] is None, "equal integers"),
        (compare("y", np.int32([3, 5]), np.int64([3, 4]))[0] is not None, "integers one apart"),
    ]
    skips = [{"reason": "r", "refused": "not mapped", "tests": ["test_a*"]}]
    cases = [
        ({"test_a1": ("refused", "x is not mapped"), "test_b": ("pass", "")}, 0, "a listed refusal"),
        ({"test_a1": ("pass", ""), "test_b": ("pass", "")}, 1, "a listed test that passes"),
        ({"test_a1": ("refused", "another message"), "test_b": ("pass", "")}, 1, "another refusal"),
        ({"test_a1": ("fail", "x is not mapped"), "test_b": ("pass", "")}, 1, "a listed test with a wrong value"),
        ({"test_a1": ("refused", "x is not mapped"), "test_b": ("refused", "x is not mapped")}, 1,
         "an unlisted refusal"),
        ({"test_b": ("pass", "")}, 1, "an entry that matches no test"),
    ]
    for results, n, what in cases:
        checks.append((len(classify(results, skips, sorted(results))[2]) == n, what))
    bad = [what for ok, what in checks if not ok]
    if bad:
        sys.exit("node_tests.py: self-test failed: " + ", ".join(bad))


# Tests that pass, run once more with the first DMA command reading DDR
# moved by one float16 element (DAVINCI_SIM_INJECT_FAULT=1, docs/functional.md
# section 7): each must then fail by its values, or the comparison is not
# looking.
FAULT_CHECKS = ["test_add", "test_conv_with_strides_padding", "test_matmul_2d", "test_softmax_axis_1"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sim")
    ap.add_argument("work")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", action="append", help="run only the tests matching this glob (repeatable), "
                    "ignoring the skip list's other entries and the docs")
    ap.add_argument("--raw", action="store_true", help="print every outcome and the importer's message")
    docs = ap.add_mutually_exclusive_group()
    docs.add_argument("--write-docs", action="store_true", help="rewrite docs/onnx.md's section")
    docs.add_argument("--check-docs", action="store_true", help="fail when docs/onnx.md's section is not current")
    args = ap.parse_args()
    sim, work = os.path.abspath(args.sim), os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    self_test()
    ops = supported_operators(sim, work)
    all_tests = sorted(glob.glob(os.path.join(DATA, "test_*")))
    if not all_tests:
        sys.exit("node_tests.py: no node tests in %s (Debian package libonnx-testdata)" % DATA)
    tests = [d for d in all_tests
             if {n.op_type for n in onnx.load(os.path.join(d, "model.onnx")).graph.node} <= ops]
    if args.only:
        tests = [t for t in tests if any(fnmatch.fnmatch(os.path.basename(t), p) for p in args.only)]
    names = [os.path.basename(t) for t in tests]
    skips = load_skips()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        results = dict(ex.map(lambda d: (os.path.basename(d), run_test(sim, work, d)), tests))
        if args.only:
            skips = [dict(e, tests=[p for p in e["tests"] if fnmatch.filter(names, p)]) for e in skips]
            skips = [e for e in skips if e["tests"]]
        verdicts, entry_of, problems = classify(results, skips, names)
        # A skip entry that says the first output passes alone: it must.
        firsts = [t for t in names if verdicts[t][0] == "skip" and skips[entry_of[t]].get("first_output_passes")]
        for t, (outcome, detail) in zip(firsts, ex.map(
                lambda t: run_test(sim, work, os.path.join(DATA, t), first_output_only=True), firsts)):
            if outcome != "pass":
                verdicts[t] = ("fail", "first output alone: %s: %s" % (outcome, detail))
                problems.append("%s: its skip entry says its first output passes alone: %s: %s" % (t, outcome, detail))
        # Every test that passes with two inputs or more passes too with every
        # input but the first an initializer: the importer's paths for constant
        # operands (number operands, Gemm's B stored transposed and C scaled).
        consts = [t for t in names if verdicts[t][0] == "pass" and several_inputs(os.path.join(DATA, t))]
        for t, (outcome, detail) in zip(consts, ex.map(
                lambda t: run_test(sim, work, os.path.join(DATA, t), all_constant=True), consts)):
            if outcome != "pass":
                verdicts[t] = ("fail", "with every input but the first an initializer: %s: %s" % (outcome, detail))
                problems.append("%s: %s" % (t, verdicts[t][1]))
        faults = [t for t in FAULT_CHECKS if t in names]
        if not args.only and len(faults) != len(FAULT_CHECKS):
            problems.append("FAULT_CHECKS: %s not among the tests" % sorted(set(FAULT_CHECKS) - set(faults)))
        for t, (outcome, detail) in zip(faults, ex.map(
                lambda t: run_test(sim, work, os.path.join(DATA, t), env={"DAVINCI_SIM_INJECT_FAULT": "1"}), faults)):
            if outcome != "fail" or "beyond tolerance" not in detail:
                problems.append("%s with DAVINCI_SIM_INJECT_FAULT=1: %s (%s), wanted values beyond tolerance" % (
                    t, outcome, detail))
    for t in names:
        verdict, detail = verdicts[t]
        if args.raw:
            detail = results[t][1]
        if args.raw or verdict != "pass":
            print("%-50s %-5s %s" % (t, verdict, detail.replace("\n", " | ")))
    count = collections.Counter(v for v, _ in verdicts.values())
    print("node tests: %d in %s, %d with supported operators: %d passed, %d skipped, %d failed" % (
        len(all_tests), DATA, len(names), count["pass"], count["skip"], count["fail"]))
    if not args.only:
        section = docs_section(len(all_tests), names, verdicts, skips, entry_of, len(consts))
        with open(DOCS) as f:
            text = f.read()
        before, current, after = split_docs(text)
        if args.write_docs and current != section:
            with open(DOCS, "w") as f:
                f.write(before + section + ("\n" + after if after else ""))
            print("wrote the section '%s' of %s" % (SECTION[3:], DOCS))
        elif args.check_docs and current != section:
            problems.append("%s: the section '%s' is not what node_tests.py --write-docs writes:\n%s" % (
                DOCS, SECTION[3:], "".join(difflib.unified_diff(current.splitlines(True), section.splitlines(True),
                                                                "docs/onnx.md", "node_tests.py"))))
    for p in problems:
        print("FAIL: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
