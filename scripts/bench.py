#!/usr/bin/python3
"""The benchmark harness: how fast davinci-sim simulates.

    scripts/bench.sh                    # build Release, then this with defaults
    scripts/bench.py [-r RUNS] [-o RESULT.json] [--compare OLD.json] [--quick]

For each model of the zoo it runs davinci-sim RUNS times and reports the
median wall time, the median CPU time (user + system: the figure to trust
on a machine shared with other work), the simulated cycles, simulated
cycles and commands per wall second, and the peak memory (GNU time's
maximum RSS, the largest of the runs). Then a scaling series (GEMM n = 256
... 4096, generated programs): wall time against the number of commands,
which it should follow, not the number of cycles; the marginal column is
the wall and CPU time per extra command from one size to the next. Then
the cost per command of the same GEMM (n = 2048) with 24 clusters, on the
24-cluster preset (configs/ascend_910b_class.json: other tiles, fewer
commands) and with several blocks per cluster (pypo.config.MAX_PARALLEL =
16), against the default. Last, the front end
alone on a generated 5,000-line program (parse, elaborate, print the task
graph).

Where the time goes: each run asks davinci-sim for --timings (a binary
without the option is measured without it), and the tables give the
microseconds per command of each phase (parse, lower, check, spool,
simulate, outputs; the medians over the runs) and the SystemC process
activations per command (exact: the same in every run).

SystemC events per second are not reported: the kernel counts delta cycles
(sc_delta_count), not events, and our units wake only when a command can
start or a resource frees, so commands per second is the work measure.

The result file (JSON, written to a temporary name and renamed) has every
figure; --compare OLD.json prints, per model, the ratio new/old of the
median wall and CPU time (above 1: slower) and flags a model whose
simulated cycles changed. --quick runs small shapes once, for the tests.

Exit status: 0, or 1 when a run fails, 2 for a bad command line or file.
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import simrun  # noqa: E402

# (name, program, extra arguments). The full set and the quick set.
MODELS = [
    ("gemm_2048", "models/gemm_2048.pto", []),
    ("resnet50", "models/resnet50.pto", ["--shape", "input=1,3,224,224"]),
    ("resnet_block", "models/resnet_block.pto", []),
    ("attention", "models/attention.pto", []),
    ("super_resolution 240p", "models/super_resolution.pto", ["--shape", "img=1,1,240,320"]),
    ("super_resolution_naive 240p", "models/super_resolution_naive.pto", ["--shape", "img=1,1,240,320"]),
    ("super_resolution 720p", "models/super_resolution.pto", ["--shape", "img=1,1,720,1280"]),
    ("transpose", "models/transpose.pto", []),
    ("slide", "models/slide.pto", []),
    ("gemm_256", "models/gemm_256.pto", []),
    ("kv_append", "models/kv_append.pto", []),
    ("flash_attention S=2048", "models/flash_attention.pto",
     ["--shape", "q=2048,128", "--shape", "kt=128,2048", "--shape", "v=2048,128"]),
    ("llama_decode T=2048", "models/llama_decode.pto",
     ["--shape", "x=1,4096", "--shape", "k_cache=1,1,32,128,2048", "--shape", "v_cache=1,1,32,2048,128"]),
    # Weight-only int8: the weight panels dequantised in L1 by the vector units.
    ("llama_decode int8 T=2048", "models/llama_decode.pto",
     ["--param", "int8_weights=1", "--shape", "x=1,4096", "--shape", "k_cache=1,1,32,128,2048",
      "--shape", "v_cache=1,1,32,2048,128"]),
    # A whole 7B decode step: 32 layers, 13 GB of float16 weights, so a
    # 16 GiB DDR.
    ("llama_decode 32 layers", "models/llama_decode.pto",
     ["--param", "layers=32", "--set", "ddr.size_gib=16", "--shape", "x=1,4096",
      "--shape", "k_cache=32,1,32,128,2048", "--shape", "v_cache=32,1,32,2048,128"]),
    ("llama_prefill S=128", "models/llama_prefill.pto",
     ["--shape", "x=1,128,4096", "--shape", "cos=128,128", "--shape", "sin=128,128"]),
    # Past rope's resident tables (S <= 254): streamed cos/sin rows.
    ("llama_prefill S=512", "models/llama_prefill.pto",
     ["--shape", "x=1,512,4096", "--shape", "cos=512,128", "--shape", "sin=512,128"]),
    ("mobilenet_v2_block 56x56x24", "models/mobilenet_v2_block.pto", ["--shape", "x=1,56,56,24"]),
    ("mobilenet_v2 224", "models/mobilenet_v2.pto", ["--shape", "image=1,224,224,3"]),
    ("qwen3_32b_decode B=16 T=4096", "models/qwen3_32b_decode.pto",
     ["--shape", "x=16,5120", "--shape", "k_cache=1,16,8,128,4096", "--shape", "v_cache=1,16,8,4096,128"]),
]
QUICK_MODELS = [
    ("gemm_256", "models/gemm_256.pto", []),
    ("resnet_block", "models/resnet_block.pto", []),
    ("super_resolution 24x32", "models/super_resolution.pto", ["--shape", "img=1,1,24,32"]),
]
SCALING = [256, 512, 1024, 2048, 4096]
PHASES = ["parse", "lower", "check", "spool", "simulate", "outputs"]
# The same GEMM four ways: (name, arguments, line added to the program).
VARIANTS = [
    ("default", [], ""),
    # The default hardware with 24 clusters: the same commands, so the cost
    # per command compares directly.
    ("24 clusters", ["--set", "chip.clusters=24"], ""),
    ("ascend_910b_class", ["--config", "configs/ascend_910b_class.json"], ""),
    ("MAX_PARALLEL 16", [], "pypo.config.MAX_PARALLEL = 16\n"),
]
VARIANT_N = 2048
QUICK_SCALING = [256, 512]
GEMM_TEMPLATE = """# Generated by scripts/bench.py: the scaling series, {n} x {n} x {n} float16.
import pypto as pypo
{config}a = pypo.input("a", shape=({n}, {n}), dtype="float16")
b = pypo.input("b", shape=({n}, {n}), dtype="float16")
pypo.output("c", pypo.op.matmul(a, b))
"""


def fail(message):
    print("bench.py: error: " + message, file=sys.stderr)
    sys.exit(2)


def has_timings(sim):
    """Whether the binary has --timings (an older one, measured side by
    side, may not)."""
    run = subprocess.run([sim, "--help"], capture_output=True, text=True)
    return "--timings" in run.stdout


def parse_timings(text):
    """The phase seconds and the activation count of --timings' table."""
    seconds, activations = {}, None
    for line in text.splitlines():
        words = line.split()
        if len(words) == 3 and words[0] in PHASES:
            seconds[words[0]] = float(words[1])
        elif line.strip().startswith("SystemC:"):
            activations = int(words[1].replace(",", ""))
    if set(seconds) != set(PHASES) or activations is None:
        raise ValueError("no --timings table in its standard error")
    return seconds, activations


def measure(sim, args, runs, program, timings=False):
    """Runs davinci-sim `runs` times on `program`; returns the figures."""
    walls, cpus, rss = [], [], []
    phases, activations = {p: [] for p in PHASES}, None
    report = None
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        rep = os.path.join(tmp, "report.json")
        for _ in range(runs):
            cmd = [sim, "-q", "--report-json", rep] + (["--timings"] if timings else []) + args + [program]
            run = simrun.run_measured(cmd, cwd=ROOT)
            if run.status != 0:
                raise RuntimeError("%s %s: %s" % (program, " ".join(args), simrun.failure_text(run)))
            walls.append(run.wall_seconds)
            cpus.append(run.cpu_seconds)
            rss.append(run.max_rss_kib)
            if timings:
                try:
                    seconds, activations = parse_timings(run.stderr)
                except ValueError as e:
                    raise RuntimeError("%s: %s" % (program, e))
                for p in PHASES:
                    phases[p].append(seconds[p])
            with open(rep) as f:
                try:
                    figures = simrun.headline(json.load(f))
                except ValueError as e:
                    raise RuntimeError("%s: %s" % (program, e))
            if report and figures["total_cycles"] != report["total_cycles"]:
                raise RuntimeError("%s: cycles differ between runs (%d, %d): not deterministic" %
                                   (program, report["total_cycles"], figures["total_cycles"]))
            report = figures
    wall = statistics.median(walls)
    commands = report["commands"]
    figures = {"runs": runs, "wall_seconds": walls, "median_wall_seconds": wall,
               "median_cpu_seconds": statistics.median(cpus), "max_rss_kib": max(rss),
               "total_cycles": report["total_cycles"], "commands": commands, "blocks": report["blocks"],
               "cycles_per_second": report["total_cycles"] / wall, "commands_per_second": commands / wall,
               "wall_us_per_command": 1e6 * wall / commands if commands else None}
    if timings and commands:
        figures["phase_us_per_command"] = {p: 1e6 * statistics.median(phases[p]) / commands for p in PHASES}
        figures["activations"] = activations
        figures["activations_per_command"] = activations / commands
    return figures


def front_end(sim, lines, runs):
    with tempfile.TemporaryDirectory(prefix="bench-fe-") as tmp:
        program = os.path.join(tmp, "generated.pto")
        text = subprocess.run(["/usr/bin/python3", os.path.join(HERE, "gen_program.py"), str(lines)],
                              capture_output=True, text=True, check=True).stdout
        with open(program, "w") as f:
            f.write(text)
        walls = []
        for _ in range(runs):
            run = simrun.run_measured([sim, "--dump-graph", program])
            if run.status != 0:
                raise RuntimeError("front end: " + simrun.failure_text(run))
            walls.append(run.wall_seconds)
    return {"lines": text.count("\n"), "runs": runs, "median_wall_seconds": statistics.median(walls),
            "min_wall_seconds": min(walls)}


def fmt_time(s):
    return "%.0f ms" % (s * 1e3) if s < 1 else "%.2f s" % s


def print_models(results):
    print("%-28s %14s %10s %10s %12s %12s %9s" %
          ("model", "cycles", "wall", "cpu", "Mcycles/s", "commands/s", "peak MB"))
    for name, r in results.items():
        print("%-28s %14s %10s %10s %12.1f %12s %9.0f" %
              (name, format(r["total_cycles"], ","), fmt_time(r["median_wall_seconds"]),
               fmt_time(r["median_cpu_seconds"]), r["cycles_per_second"] / 1e6,
               format(int(r["commands_per_second"]), ","), r["max_rss_kib"] / 1024))


def print_phases(results):
    """The --timings columns, for the runs that have them."""
    rows = [(name, r) for name, r in results.items() if "phase_us_per_command" in r]
    if not rows:
        return
    print("\nwhere the time goes: microseconds per command per phase (medians), SystemC activations per command")
    print("%-28s" % "" + "".join("%9s" % p for p in PHASES) + "%9s %12s" % ("total", "activations"))
    for name, r in rows:
        ph = r["phase_us_per_command"]
        print("%-28s" % name + "".join("%9.3f" % ph[p] for p in PHASES) +
              "%9.3f %12.2f" % (sum(ph.values()), r["activations_per_command"]))


def print_variants(results, n):
    print("\nthe GEMM n = %d on other hardware: cost per command against the default" % n)
    print("%-18s %12s %10s %13s %9s" % ("", "commands", "wall", "wall/command", "ratio"))
    base = results["default"]["wall_us_per_command"]
    for name, r in results.items():
        print("%-18s %12s %10s %10.2f us %8.2fx" % (name, format(r["commands"], ","), fmt_time(r["median_wall_seconds"]),
                                                  r["wall_us_per_command"], r["wall_us_per_command"] / base))
    print_phases(results)


def add_marginal_cost(results):
    """Wall time per command between consecutive sizes: the slope, without
    the fixed cost of starting a process and elaborating the SystemC model
    that dominates the smallest runs."""
    previous = None
    for r in results.values():
        if previous and r["commands"] > previous["commands"]:
            extra = r["commands"] - previous["commands"]
            r["marginal_wall_us_per_command"] = 1e6 * (r["median_wall_seconds"] - previous["median_wall_seconds"]) / extra
            r["marginal_cpu_us_per_command"] = 1e6 * (r["median_cpu_seconds"] - previous["median_cpu_seconds"]) / extra
        previous = r


def print_scaling(results):
    print("\nscaling: GEMM n x n x n, float16, default hardware")
    print("%6s %14s %12s %10s %10s %13s %16s %9s" %
          ("n", "cycles", "commands", "wall", "cpu", "wall/command", "marginal wall/cpu", "peak MB"))
    for n, r in results.items():
        marginal = ""
        if "marginal_wall_us_per_command" in r:
            marginal = "%.2f/%.2f us" % (r["marginal_wall_us_per_command"], r["marginal_cpu_us_per_command"])
        print("%6s %14s %12s %10s %10s %10.2f us %16s %9.0f" %
              (n, format(r["total_cycles"], ","), format(r["commands"], ","), fmt_time(r["median_wall_seconds"]),
               fmt_time(r["median_cpu_seconds"]), r["wall_us_per_command"], marginal, r["max_rss_kib"] / 1024))


def compare(new, old_path):
    try:
        with open(old_path) as f:
            old = json.load(f)
        old_models = old["models"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail("--compare: %s is not a bench.py result: %s" % (old_path, e))
    print("\ncompared with %s (%s): new / old, above 1.00 is slower" % (old_path, old.get("date", "?")))
    print("%-28s %10s %10s %12s  %s" % ("model", "wall", "cpu", "activations", "cycles"))
    sections = [("", new["models"], old_models), ("gemm n=", new["scaling"], old.get("scaling", {})),
                ("gemm 2048 ", new.get("variants", {}), old.get("variants", {}))]
    for prefix, mine, theirs in sections:
        for name, r in mine.items():
            o = theirs.get(name)
            if not o:
                print("%-28s %10s" % (prefix + name, "new"))
                continue
            cycles = "same" if o["total_cycles"] == r["total_cycles"] else "CHANGED %s -> %s" % (
                format(o["total_cycles"], ","), format(r["total_cycles"], ","))
            acts = "-"
            if "activations" in r and "activations" in o:
                acts = "%.2fx" % (r["activations"] / max(o["activations"], 1))
            print("%-28s %9.2fx %9.2fx %12s  %s" % (prefix + name, r["median_wall_seconds"] / o["median_wall_seconds"],
                                                    r["median_cpu_seconds"] / max(o["median_cpu_seconds"], 1e-9),
                                                    acts, cycles))
    phased = [(name, r, old_models.get(name)) for name, r in new["models"].items()
              if "phase_us_per_command" in r and old_models.get(name, {}).get("phase_us_per_command")]
    if phased:
        print("\nper phase, new / old")
        print("%-28s" % "model" + "".join("%9s" % p for p in PHASES))
        for name, r, o in phased:
            print("%-28s" % name + "".join(
                "%8.2fx" % (r["phase_us_per_command"][p] / o["phase_us_per_command"][p])
                if o["phase_us_per_command"][p] > 0 else "%9s" % "-" for p in PHASES))


def write_atomically(path, text):
    tmp = "%s.tmp.%d" % (path, os.getpid())
    try:
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def main(argv):
    ap = argparse.ArgumentParser(prog="bench.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("-r", "--runs", type=int, help="runs per model (default 5; 1 with --quick)")
    ap.add_argument("-o", "--output", default=os.path.join(ROOT, "traces", "bench.json"),
                    help="result file (default traces/bench.json)")
    ap.add_argument("--compare", metavar="OLD.json", help="print new/old ratios against an earlier result")
    ap.add_argument("--quick", action="store_true", help="small shapes, one run: checks the harness works")
    ap.add_argument("--sim", default=os.path.join(ROOT, "build", "davinci-sim"), help="the davinci-sim binary")
    ap.add_argument("--no-scaling", action="store_true",
                    help="skip the GEMM scaling series and the 24-cluster and MAX_PARALLEL variants")
    ap.add_argument("-m", "--model", action="append", metavar="TEXT",
                    help="only the models whose name contains TEXT (repeatable; e.g. -m llama -m mobilenet)")
    args = ap.parse_args(argv)
    runs = args.runs if args.runs is not None else (1 if args.quick else 5)
    if runs < 1:
        ap.error("--runs must be at least 1")
    if not os.access(args.sim, os.X_OK):
        fail("%s is not an executable davinci-sim (build it: scripts/bench.sh builds it)" % args.sim)
    if args.compare and not os.path.isfile(args.compare):
        fail("--compare: %s does not exist" % args.compare)
    models = QUICK_MODELS if args.quick else MODELS
    if args.model:
        models = [m for m in models if any(text in m[0] for text in args.model)]
        if not models:
            ap.error("--model %s: no model's name contains it (models: %s)" %
                     (" ".join(args.model), ", ".join(m[0] for m in (QUICK_MODELS if args.quick else MODELS))))
    out_dir = os.path.dirname(os.path.abspath(args.output))
    if not os.path.isdir(out_dir):
        fail("-o: folder %s does not exist" % out_dir)

    result = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "machine": {"cores": os.cpu_count(), "platform": platform.platform(),
                          "load_average": list(os.getloadavg())},
              "quick": args.quick, "runs": runs, "models": {}, "scaling": {}, "variants": {}}
    timings = has_timings(args.sim)
    try:
        for name, program, extra in models:
            result["models"][name] = measure(args.sim, extra, runs, program, timings)
        print_models(result["models"])
        print_phases(result["models"])
        if not args.no_scaling:
            with tempfile.TemporaryDirectory(prefix="bench-gemm-") as tmp:
                for n in (QUICK_SCALING if args.quick else SCALING):
                    program = os.path.join(tmp, "gemm_%d.pto" % n)
                    with open(program, "w") as f:
                        f.write(GEMM_TEMPLATE.format(n=n, config=""))
                    result["scaling"][str(n)] = measure(args.sim, [], runs, program, timings)
                add_marginal_cost(result["scaling"])
                print_scaling(result["scaling"])
                print_phases(result["scaling"])
                n = QUICK_SCALING[-1] if args.quick else VARIANT_N
                for name, extra, line in VARIANTS:
                    program = os.path.join(tmp, "variant.pto")
                    with open(program, "w") as f:
                        f.write(GEMM_TEMPLATE.format(n=n, config=line))
                    result["variants"][name] = measure(args.sim, extra, runs, program, timings)
                print_variants(result["variants"], n)
        fe = front_end(args.sim, 500 if args.quick else 5000, runs)
        result["front_end"] = fe
        print("\nfront end: %d-line program, parse + elaborate + print graph: median %s, min %s" %
              (fe["lines"], fmt_time(fe["median_wall_seconds"]), fmt_time(fe["min_wall_seconds"])))
    except RuntimeError as e:
        print("bench.py: " + str(e), file=sys.stderr)
        return 1
    result["machine"]["load_average_after"] = list(os.getloadavg())
    print("\nload average before/after: %s / %s (%d cores); result in %s" %
          (" ".join("%.1f" % x for x in result["machine"]["load_average"]),
           " ".join("%.1f" % x for x in result["machine"]["load_average_after"]), os.cpu_count(), args.output))
    write_atomically(args.output, json.dumps(result, indent=1) + "\n")
    if args.compare:
        compare(result, args.compare)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
