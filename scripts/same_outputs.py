#!/usr/bin/python3
"""Proves a refactoring changed no output: runs the same commands with two
davinci-sim binaries and compares everything they produce, byte for byte.

    scripts/same_outputs.py OLD_BINARY NEW_BINARY [-j N] [-k PATTERN] [--keep DIR] [--list]

For every case it compares the exit status, stdout, stderr and every file
the run writes (report JSON, Chrome trace, VCD, CSVs, profile, program JSON,
Graphviz, .npy outputs). The cases:
  * --help, --version, --help-config;
  * every model in models/ (resnet50 at 1,3,224,224, the super-resolution
    networks at 1,1,240,320) with every output in one run; --dump-graph,
    --graph-dot, --dump-program, --emit-program-json and that JSON read back
    with --program-json; the profile subcommand; --max-cycles;
  * the small models under every preset in configs/, and --check /
    --functional --outputs;
  * every .pto under tests/ (valid ones simulate, invalid ones are compared
    by their diagnostics), with --check where tests/functional holds it;
  * --op single operations;
  * SCALE-Sim topology files (written into the case's directory) on
    systolic arrays and the fractal cube, with every output but the traces;
  * every example of docs/errors.md (whole stderr, not only its head).
Both binaries run from the repository root with the same argument strings,
one after the other in the same output directory, so paths printed in
messages agree. Exit status 0 when every case is identical, 1 otherwise
(each difference is named), 2 for a bad command line.
"""
import argparse
import concurrent.futures
import fnmatch
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import errors_doc  # noqa: E402  (the catalogue's own parser)

SHAPES = {
    "resnet50": ["--shape", "input=1,3,224,224"],
    "super_resolution": ["--shape", "img=1,1,240,320"],
    "super_resolution_naive": ["--shape", "img=1,1,240,320"],
}
SMALL_MODELS = ["gemm_256", "resnet_block", "attention", "transpose", "slide", "memory_placement"]
SINGLE_OPS = [
    ["--op", "matmul", "--shape", "512,512,512"],
    ["--op", "matmul", "--shape", "31,33,17", "--dtype", "float32"],
    ["--op", "conv2d", "--shape", "56,56,64,3,3,64,1", "--dtype", "float32"],
    ["--op", "conv2d", "--shape", "28,28,32,3,3,16,2"],
]


def model_cases():
    cases = []
    for f in sorted(os.listdir(os.path.join(ROOT, "models"))):
        if not f.endswith(".pto"):
            continue
        name, prog = f[:-4], "models/" + f
        sh = SHAPES.get(name, [])
        cases.append(("model/%s/all-outputs" % name,
                      sh + ["--report-json", "{out}/report.json", "--summary-csv", "{out}/summary.csv",
                            "--timing-csv", "{out}/timing.csv", "--ops-csv", "{out}/ops.csv",
                            "--profile", "{out}/profile.json",
                            "--trace", "{out}/trace.json", "--vcd", "{out}/trace.vcd", prog]))
        cases.append(("model/%s/dump-graph" % name, sh + ["--dump-graph", prog]))
        cases.append(("model/%s/graph-dot" % name, sh + ["--graph-dot", "{out}/graph.dot", prog]))
        cases.append(("model/%s/dump-program" % name, sh + ["--dump-program", prog]))
        cases.append(("model/%s/program-json" % name,
                      sh + ["--emit-program-json", "{out}/program.json", prog],
                      ["--report-json", "{out}/report2.json", "--timing-csv", "{out}/timing2.csv",
                       "--program-json", "{out}/program.json"]))
        cases.append(("model/%s/profile-subcommand" % name, ["profile", "-q"] + sh + [prog, "-o", "{out}/p.json"]))
        cases.append(("model/%s/max-cycles" % name, sh + ["--max-cycles", "5000", prog]))
    return cases


def preset_cases():
    cases = []
    for cfg in sorted(os.listdir(os.path.join(ROOT, "configs"))):
        if not cfg.endswith(".json"):
            continue
        for m in SMALL_MODELS + ["gemm_2048"]:
            cases.append(("preset/%s/%s" % (cfg[:-5], m),
                          ["-c", "configs/" + cfg, "--report-json", "{out}/r.json", "--summary-csv",
                           "{out}/s.csv", "--timing-csv", "{out}/t.csv", "--ops-csv", "{out}/o.csv",
                           "models/%s.pto" % m]))
        for i, op in enumerate(SINGLE_OPS):
            cases.append(("preset/%s/op%d" % (cfg[:-5], i), ["-c", "configs/" + cfg, "--report-json", "{out}/r.json"] + op))
    for m in SMALL_MODELS:
        cases.append(("check/%s" % m, ["--check", "models/%s.pto" % m]))
        cases.append(("functional/%s" % m, ["--functional", "--seed", "3", "--outputs", "{out}/npy",
                                             "--report-json", "{out}/r.json", "models/%s.pto" % m]))
    return cases


def test_program_cases():
    cases = []
    for dirpath, _, files in sorted(os.walk(os.path.join(ROOT, "tests"))):
        for f in sorted(files):
            if not f.endswith(".pto"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), ROOT)
            cases.append(("tests/" + rel, ["--report-json", "{out}/r.json", "--timing-csv", "{out}/t.csv", rel]))
            cases.append(("tests-dump/" + rel, ["--dump-program", rel]))
            if "/functional/" in rel:
                cases.append(("tests-check/" + rel, ["--check", rel]))
    return cases


# SCALE-Sim's two topology forms: AlexNet's first convolutions, a strided
# layer with a stride width, a depthwise one; GEMMs of awkward sizes.
TOPOLOGY_FILES = {
    "convs.csv": "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,\n"
                 "Conv1, 224, 224, 11, 11, 3, 96, 4,\nConv2, 27, 27, 5, 5, 96, 256, 1,\n"
                 "s, 10, 12, 3, 3, 2, 5, 2, 3\nDP1, 14, 14, 3, 3, 4, 1, 1,\n",
    "gemms.csv": "Layer Name, M, N, K,\ng, 7, 9, 11,\ng, 8, 8, 8,\nt, 1, 129, 31,\nk1, 64, 33, 1,\n",
}
TOPOLOGY_ARRAYS = {
    "os8x8": ["-c", "configs/scalesim_32x32_ws.json", "--set", "cube.dataflow=os", "--set", "cube.mac_rows=8",
              "--set", "cube.mac_cols=8"],
    "ws32x32": ["-c", "configs/scalesim_32x32_ws.json"],
    "is16x32": ["-c", "configs/scalesim_32x32_ws.json", "--set", "cube.dataflow=is", "--set", "cube.mac_rows=16"],
    "fractal": [],
}


def topology_cases():
    cases = []
    for f in sorted(TOPOLOGY_FILES):
        for arr, opts in sorted(TOPOLOGY_ARRAYS.items()):
            cases.append(("topology/%s/%s" % (f[:-4], arr),
                          opts + ["--topology", "{out}/" + f, "--report-json", "{out}/r.json", "--summary-csv",
                                  "{out}/s.csv", "--timing-csv", "{out}/t.csv", "--ops-csv", "{out}/o.csv"]))
            cases.append(("topology-csv/%s/%s" % (f[:-4], arr),
                          opts + ["-q", "--topology", "{out}/" + f, "--topology-csv", "{out}/report.csv"]))
    return cases


def errors_doc_cases():
    with open(errors_doc.DOC, encoding="utf-8") as f:
        lines = f.read().split("\n")
    cases = []
    for heading, blocks in errors_doc.parse(lines):
        if any(b[0][0] == "sh" for b in blocks):
            cases.append(("errors.md/" + heading, blocks))
    return cases


def all_cases():
    cases = [("info/help", ["--help"]), ("info/version", ["--version"]), ("info/help-config", ["--help-config"])]
    cases += model_cases() + preset_cases() + test_program_cases()
    cases += [("op/%d" % i, op) for i, op in enumerate(SINGLE_OPS)]
    return cases + topology_cases()



def digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def snapshot(out):
    """{relative path: sha256} of every file under out."""
    files = {}
    for dirpath, _, names in os.walk(out):
        for n in names:
            p = os.path.join(dirpath, n)
            files[os.path.relpath(p, out)] = digest(p)
    return files


ENV = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")


def run_steps(binary, steps, out, inputs=None):
    """Runs each argument list in turn; returns what they printed and wrote
    (the input files `inputs`, {name: text}, written first, not compared)."""
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    for name, text in (inputs or {}).items():
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            f.write(text)
    result = []
    for args in steps:
        argv = [binary] + [a.replace("{out}", out) for a in args]
        p = subprocess.run(argv, cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        result.append((p.returncode, hashlib.sha256(p.stdout).hexdigest(), p.stderr))
    files = snapshot(out)
    for name in inputs or {}:
        del files[name]
    return result, files


def run_errors_doc(binary, blocks, out):
    """The catalogue entry's command in its own directory, as errors_doc.py runs it."""
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    words, env, _ = errors_doc.prepare(out, blocks)
    assert words and words[0] == "davinci-sim", words
    p = subprocess.run([binary] + words[1:], cwd=out, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=600)
    # The links are the repository's, not the run's output.
    for name in errors_doc.LINKS:
        os.unlink(os.path.join(out, name))
    return [(p.returncode, hashlib.sha256(p.stdout).hexdigest(), p.stderr)], snapshot(out)


def compare(case, old, new, workdir):
    name, spec = case[0], case[1:]
    out = os.path.join(workdir, hashlib.sha1(name.encode()).hexdigest()[:16])
    if name.startswith("errors.md/"):
        a = run_errors_doc(old, spec[0], out)
        b = run_errors_doc(new, spec[0], out)
    else:
        inputs = TOPOLOGY_FILES if name.startswith("topology") else None
        a = run_steps(old, spec, out, inputs)
        b = run_steps(new, spec, out, inputs)
    shutil.rmtree(out, ignore_errors=True)
    diffs = []
    for i, (x, y) in enumerate(zip(a[0], b[0])):
        step = " (step %d)" % (i + 1) if len(a[0]) > 1 else ""
        if x[0] != y[0]:
            diffs.append("exit status %d -> %d%s" % (x[0], y[0], step))
        if x[1] != y[1]:
            diffs.append("stdout differs%s" % step)
        if x[2] != y[2]:
            diffs.append("stderr differs%s:\n    old: %r\n    new: %r" % (step, x[2][:300], y[2][:300]))
    for f in sorted(set(a[1]) | set(b[1])):
        if f not in a[1]:
            diffs.append("new binary also writes %s" % f)
        elif f not in b[1]:
            diffs.append("new binary does not write %s" % f)
        elif a[1][f] != b[1][f]:
            diffs.append("%s differs" % f)
    statuses = sorted({x[0] for x in a[0]})
    return name, diffs, len(a[1]), statuses


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 2, help="cases at once")
    ap.add_argument("-k", default=None, help="only cases whose name matches this glob")
    ap.add_argument("--list", action="store_true", help="list the cases and stop")
    ap.add_argument("--keep", default=None, help="work directory (default: a temporary one)")
    a = ap.parse_args()
    for b in (a.old, a.new):
        if not os.access(b, os.X_OK):
            ap.error("not an executable: %s" % b)
    old, new = os.path.abspath(a.old), os.path.abspath(a.new)
    cases = all_cases() + errors_doc_cases()
    if a.k:
        cases = [c for c in cases if fnmatch.fnmatch(c[0], a.k)]
    if a.list:
        for c in cases:
            print(c[0])
        return 0
    workdir = a.keep or tempfile.mkdtemp(prefix="same-outputs-")
    os.makedirs(workdir, exist_ok=True)
    failed, files = 0, 0
    with concurrent.futures.ThreadPoolExecutor(a.j) as pool:
        for name, diffs, nfiles, _ in pool.map(lambda c: compare(c, old, new, workdir), cases):
            files += nfiles
            if diffs:
                failed += 1
                print("DIFFERS %s" % name)
                for d in diffs:
                    print("  " + d)
    if not a.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    print("%d cases, %d output files compared: %s" % (len(cases), files,
                                                     "all identical" if not failed else "%d differ" % failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
