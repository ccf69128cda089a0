#!/usr/bin/python3
"""Sweeps davinci-sim over a grid of hardware configurations.

    scripts/sweep.py configs/sweeps/l1_vs_clusters.json
    scripts/sweep.py configs/sweeps/ddr_bandwidth_gemm.json --scheduler tcp://10.0.0.5:8786

The sweep file (scripts/sweep_spec.py documents it) names programs, shapes,
params (pypo.param constants, passed as --param), one base configuration or
several to compare, and a grid over configuration keys. Every point of the grid is one
davinci-sim run; they run in parallel, local processes by default, or on a
Dask distributed cluster with --scheduler (each worker needs the davinci-sim
binary at the --sim path; programs and configurations travel with the
tasks). Results go to OUT (default traces/sweeps/NAME/):

    points/KEY.json   one file per finished point: the resume state
    results.csv       one row per point, in grid order
    results.json      the same rows as a JSON list
    Y_vs_X.png        the sweep file's plots

and a comparison table on stdout (scripts/sweep_table.py).

A point's KEY is a hash of its program text, shapes and whole
configuration, so re-running the same sweep skips the points already done
(also after an interruption: each point file is written to a temporary
name and renamed, so it exists only complete) and runs only the missing
ones; --retry-failed re-runs the failed ones too. A failing point is
recorded with its error text and does not stop the sweep.

Local points run through the davinci_sim Python module (docs/python.md) when
the build of --sim has it (build/python next to build/davinci-sim) and it
imports: the same driver without a process of the binary per point (each
run is still a forked child, so points stay independent). --no-module runs
the binary instead, whose peak memory is the simulation's own (through the
module it also counts the pages the child shares with this script).

Exit status: 0 when every point succeeded, 1 when some failed (they are in
the results), 2 for a bad sweep file or command line.
"""
import argparse
import concurrent.futures
import csv
import io
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import sweep_point  # noqa: E402
import sweep_spec  # noqa: E402
import sweep_table  # noqa: E402

DEFAULT_SIM = os.path.join(os.path.dirname(HERE), "build", "davinci-sim")
# CSV columns after the point's identity and grid values.
FIGURES = ["total_cycles", "seconds", "cube_utilization", "vector_busy", "ddr_bytes_read", "ddr_bytes_written",
           "ddr_bytes", "format_conversions", "blocks", "commands", "macs", "energy_joules", "average_watts",
           "energy_delay_joule_seconds", "area_mm2", "wall_seconds", "cpu_seconds",
           "max_rss_kib", "exit_status", "runner", "error"]


def fail(message):
    print("sweep.py: error: " + message, file=sys.stderr)
    sys.exit(2)


def write_atomically(path, produce):
    """Writes a file through a temporary name in the same folder, then
    renames it: readers (and a resumed sweep) never see half a file.
    `produce(tmp_path)` writes the content."""
    tmp = "%s.tmp.%d" % (path, os.getpid())
    try:
        produce(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def write_text(path, text):
    def produce(tmp):
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    write_atomically(path, produce)


def read_done(points_dir, key):
    """The recorded row of a point, or None when it is missing or unreadable
    (an interrupted write from before atomic renames, a truncated copy)."""
    path = os.path.join(points_dir, key + ".json")
    try:
        with open(path, encoding="utf-8") as f:
            row = json.load(f)
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        print("sweep.py: %s is unreadable; running the point again" % path, file=sys.stderr)
        return None
    return row if isinstance(row, dict) and row.get("key") == key and row.get("status") in ("ok", "failed") else None


def task_of(point, sim, timeout):
    return {"key": point["key"], "program_rel": point["program_rel"], "program_text": point["source"],
            "shapes": point["shapes"], "params": sweep_spec.param_options(point["params"]), "config": point["config"],
            "sim": sim, "timeout": timeout}


def full_row(point, result):
    """The stored row: the point's identity and values, then its results."""
    row = {"key": point["key"], "program": point["program"], "shapes": sweep_spec.shapes_text(point["shapes"])}
    if point["params"]:  # only then: a sweep without params writes what it did before
        row["params"] = sweep_spec.params_text(point["params"])
    row.update(point["values"])
    if point["config_name"]:
        row["config"] = point["config_name"]
    row.update(result)
    return row


def local_module(sim):
    """The davinci_sim module built with the binary `sim` (its build's
    python/ folder), or None when there is none or it does not import."""
    folder = os.path.join(os.path.dirname(os.path.abspath(sim)), "python")
    if not os.path.isdir(os.path.join(folder, "davinci_sim")):
        return None
    sys.path.insert(0, folder)
    try:
        import davinci_sim
    except ImportError as e:
        print("sweep.py: the davinci_sim module in %s does not import (%s); running %s" % (folder, e, sim),
              file=sys.stderr)
        return None
    finally:
        sys.path.remove(folder)
    return davinci_sim


def run_local(tasks, jobs, module):
    """Yields (task, result) as points finish. Threads are enough: each
    point is a child process (of the binary, or forked by the module, which
    lets go of the interpreter while it runs), the thread only waits for it."""
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
    try:
        futures = {pool.submit(sweep_point.run_point, t, module): t for t in tasks}
        for f in concurrent.futures.as_completed(futures):
            yield futures[f], f.result()
    finally:
        # On an interruption, points not started yet are dropped (the ones
        # running finish); a later run of the sweep picks them up.
        pool.shutdown(wait=True, cancel_futures=True)


def run_dask(tasks, address):
    try:
        import distributed
    except ImportError:
        fail("--scheduler needs Dask distributed (Debian python3-distributed; scripts/bootstrap.sh installs it)")
    try:
        client = distributed.Client(address, timeout="20s")
    except (OSError, TimeoutError) as e:
        fail("cannot connect to the Dask scheduler at %s: %s" % (address, e))
    try:
        # The workers import the point runner from these files, whatever
        # machine they are on.
        for name in ("simrun.py", "sweep_point.py"):
            client.upload_file(os.path.join(HERE, name))
        futures = client.map(sweep_point.run_point, tasks, key=["sweep-point-" + t["key"] for t in tasks],
                             pure=False)
        by_key = {f.key: t for f, t in zip(futures, tasks)}
        for f in distributed.as_completed(futures):
            task = by_key[f.key]
            try:
                result = f.result()
            except Exception as e:  # the worker died or could not run the task
                result = {"key": task["key"], "status": "failed", "error": "Dask task failed: %r" % e,
                          "runner": address}
            yield task, result
    finally:
        client.close()


def csv_text(rows, grid_keys):
    out = io.StringIO()
    params = ["params"] if any("params" in r for r in rows) else []
    fields = ["key", "program", "shapes"] + params + grid_keys + ["status"] + FIGURES
    w = csv.DictWriter(out, fieldnames=fields, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: ("" if r.get(k) is None else r.get(k)) for k in fields})
    return out.getvalue()


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="sweep.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("sweep", help="the sweep file (JSON)")
    ap.add_argument("-o", "--out", help="output folder (default traces/sweeps/NAME)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                    help="points run at once, locally (default: the number of cores)")
    ap.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="run the points on this Dask scheduler")
    ap.add_argument("--sim", default=DEFAULT_SIM, help="the davinci-sim binary (default build/davinci-sim)")
    ap.add_argument("--timeout", type=float, help="seconds a point may run before it is killed and failed")
    ap.add_argument("--retry-failed", action="store_true", help="run the points recorded as failed again")
    ap.add_argument("--no-module", action="store_true",
                    help="run local points with the binary even when the davinci_sim module is built")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    if args.timeout is not None and args.timeout <= 0:
        ap.error("--timeout must be positive")
    if args.scheduler and not re.fullmatch(r"tcp://[^\s:/]+:\d{1,5}", args.scheduler):
        ap.error("--scheduler must look like tcp://HOST:PORT, got '%s'" % args.scheduler)
    return args


def main(argv):
    args = parse_args(argv)
    if not os.access(args.sim, os.X_OK):
        fail("%s is not an executable davinci-sim (build it: scripts/bootstrap.sh, or pass --sim)" % args.sim)
    try:
        spec, points = sweep_spec.load(args.sweep, args.sim)
    except sweep_spec.SpecError as e:
        fail(str(e))
    out_dir = args.out or os.path.join("traces", "sweeps", spec["name"])
    points_dir = os.path.join(out_dir, "points")
    try:
        os.makedirs(points_dir, exist_ok=True)
    except OSError as e:
        fail("cannot create %s: %s" % (points_dir, e.strerror))

    rows = {}
    todo = []
    for p in points:
        done = read_done(points_dir, p["key"])
        if done and (done["status"] == "ok" or not args.retry_failed):
            rows[p["key"]] = done
        else:
            todo.append(p)
    module = None if args.scheduler or args.no_module or not todo else local_module(args.sim)
    print("sweep %s: %d points, %d done before, %d to run%s" %
          (spec["name"], len(points), len(rows), len(todo),
           " on " + args.scheduler if args.scheduler else
           ", %d at a time%s" % (args.jobs, " through the davinci_sim module" if module else "")), file=sys.stderr)

    by_key = {p["key"]: p for p in points}
    tasks = [task_of(p, os.path.abspath(args.sim), args.timeout) for p in todo]
    try:
        from tqdm import tqdm
        import sweep_plot
    except ImportError as e:
        fail("%s: install Debian python3-tqdm and python3-matplotlib (scripts/bootstrap.sh does)" % e)
    if args.scheduler:
        results = run_dask(tasks, args.scheduler)
    else:
        results = run_local(tasks, args.jobs, module)
    with tqdm(total=len(tasks), disable=args.quiet or not tasks, unit="point", file=sys.stderr) as bar:
        for task, result in results:
            row = full_row(by_key[task["key"]], result)
            write_text(os.path.join(points_dir, task["key"] + ".json"), json.dumps(row, indent=1, sort_keys=True))
            rows[task["key"]] = row
            if row["status"] != "ok":
                bar.write("failed: %s %s %s: %s" % (row["program"], row["shapes"],
                                                    json.dumps(by_key[task["key"]]["values"]),
                                                    row["error"].splitlines()[0] if row["error"] else ""))
            bar.update(1)

    ordered = [rows[p["key"]] for p in points]
    axes = list(spec["grid"]) + (["config"] if "base_configs" in spec else [])
    write_text(os.path.join(out_dir, "results.csv"), csv_text(ordered, axes))
    write_text(os.path.join(out_dir, "results.json"), json.dumps(ordered, indent=1, sort_keys=True) + "\n")
    plots = sweep_plot.plot(spec, points, rows, out_dir, write_atomically)
    print(sweep_table.comparison(spec, points, rows), end="", flush=True)
    failed = sum(1 for r in ordered if r["status"] != "ok")
    print("sweep %s: %d ok, %d failed; %s, %s" %
          (spec["name"], len(ordered) - failed, failed, os.path.join(out_dir, "results.csv"),
           ", ".join(os.path.basename(p) for p in plots)), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        print("\nsweep.py: interrupted; the points finished so far are kept, run the sweep again to resume",
              file=sys.stderr)
        sys.exit(130)
