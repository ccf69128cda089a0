"""One point of a sweep: one davinci-sim run, self-contained.

A task carries the program's text and the point's configuration, not paths
on the submitting machine, so it runs the same in a local process and on a
Dask worker elsewhere; the worker needs this file, scripts/simrun.py and the
davinci-sim binary at task["sim"]. It returns the point's row.
"""
import json
import os
import socket
import tempfile

import simrun


def run_point(task):
    """Runs one point; never raises for a failing simulation (the row says
    status 'failed' and carries the error text)."""
    row = {"key": task["key"], "status": "failed", "error": ""}
    runner = _runner()
    row["runner"] = runner
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
        row["wall_seconds"] = round(run.wall_seconds, 4)
        row["cpu_seconds"] = round(run.cpu_seconds, 4)
        row["max_rss_kib"] = run.max_rss_kib
        row["exit_status"] = run.status
        if run.status != 0:
            row["error"] = simrun.failure_text(run).replace(tmp + "/program/", "")
            return row
        try:
            with open(report, encoding="utf-8") as f:
                row.update(simrun.headline(json.load(f)))
        except (OSError, ValueError, KeyError) as e:
            row["error"] = "davinci-sim exited 0 but its report is unreadable: %s" % e
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
