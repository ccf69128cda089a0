"""One point of a sweep: one davinci-sim run, self-contained.

A task carries the program's text and the point's configuration, not paths
on the submitting machine, so it runs the same in a local process and on a
Dask worker elsewhere; the worker needs this file, scripts/simrun.py and the
davinci-sim binary at task["sim"]. It returns the point's row.

Given the davinci_sim Python module (docs/python.md), a local point runs
through it instead of the binary: the same driver, each run in a forked
child, without writing the program and config to files and starting
davinci-sim (and GNU time) per point. Its max_rss_kib is then the forked
child's peak, which counts the pages it shares with the sweep's
interpreter: an upper bound (sweep.py --no-module measures the binary).
"""
import json
import os
import socket
import tempfile
import time

import simrun


def run_point(task, module=None):
    """Runs one point, through `module` (davinci_sim) when given, else the
    binary; never raises for a failing simulation (the row says status
    'failed' and carries the error text)."""
    row = {"key": task["key"], "status": "failed", "error": ""}
    runner = _runner()
    row["runner"] = runner
    if module is not None:
        return _run_in_module(task, row, module)
    with tempfile.TemporaryDirectory(prefix="sweep-point-") as tmp:
        # The program keeps its relative path, so davinci-sim's messages
        # (file:line:col) name it as the sweep file does.
        program = os.path.join(tmp, "program", task["program_rel"])
        os.makedirs(os.path.dirname(program), exist_ok=True)
        with open(program, "w", encoding="utf-8") as f:
            f.write(task["program_text"])
        config = os.path.join(tmp, "config.json")
        with open(config, "w", encoding="utf-8") as f:
            json.dump(task["config"], f, indent=1, sort_keys=True)
        report = os.path.join(tmp, "report.json")
        cmd = [task["sim"], "-q", "--config", config, "--report-json", report]
        for name, dims in sorted(task["shapes"].items()):
            cmd += ["--shape", "%s=%s" % (name, ",".join(str(d) for d in dims))]
        for binding in task.get("params", []):  # "NAME=VALUE", as sweep_spec.param_options makes them
            cmd += ["--param", binding]
        cmd.append(task["program_rel"])
        try:
            run = simrun.run_measured(cmd, cwd=os.path.join(tmp, "program"), timeout=task.get("timeout"))
        except OSError as e:  # the binary is missing on this worker
            row["error"] = "cannot run %s on %s: %s" % (task["sim"], runner, e)
            return row
        # Its messages name the program as the sweep file does.
        run = run._replace(stderr=run.stderr.replace(tmp + "/program/", ""))

        def report_of():
            with open(report, encoding="utf-8") as f:
                return json.load(f)

        return _finish(row, run, report_of, "davinci-sim")


def _run_in_module(task, row, module):
    # Text is told from a path by its line break (davinci_sim.simulate).
    text = task["program_text"] if "\n" in task["program_text"] else task["program_text"] + "\n"
    params = dict(binding.split("=", 1) for binding in task.get("params", []))
    start = time.perf_counter()
    # Named by its relative path, as the binary's messages name it.
    run = module.run(text, config=task["config"], shapes=task["shapes"], params=params,
                     timeout=task.get("timeout"), program_name=task["program_rel"])
    measured = simrun.Run(run.status, run.stdout.decode("utf-8", "replace"), run.stderr.decode("utf-8", "replace"),
                          time.perf_counter() - start, run.cpu_seconds, run.max_rss_kib, run.timed_out)
    return _finish(row, measured, lambda: json.loads(run.report.decode("utf-8")), "davinci_sim (the module)")


def _finish(row, run, report, who):
    """The row of a finished run: its measurements, then its headline
    figures or its error."""
    row["wall_seconds"] = round(run.wall_seconds, 4)
    row["cpu_seconds"] = round(run.cpu_seconds, 4)
    row["max_rss_kib"] = run.max_rss_kib
    row["exit_status"] = run.status
    if run.status != 0:
        row["error"] = simrun.failure_text(run)
        return row
    try:
        row.update(simrun.headline(report()))
    except (OSError, ValueError, KeyError) as e:
        row["error"] = "%s exited 0 but its report is unreadable: %s" % (who, e)
        return row
    row["status"] = "ok"
    return row


def _runner():
    """Where the point ran: the Dask worker's address, else 'local'."""
    try:
        from distributed import get_worker
        return get_worker().address
    except (ImportError, ValueError):
        return "local@" + socket.gethostname()
