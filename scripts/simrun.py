"""Runs davinci-sim once and measures the run: wall time and peak memory.

Shared by scripts/sweep.py (through scripts/sweep_point.py, also on Dask
workers) and scripts/bench.py. Standard library only, so a worker needs
nothing but this file and the davinci-sim binary.

Peak memory is measured by GNU time (/usr/bin/time, Debian package
`time`), not by os.wait4 here: Linux folds the peak RSS of the process that
calls exec into the new program's ru_maxrss, so a child forked from this
Python process never reports less than Python's own peak (11 MB for a
davinci-sim run that needs 11 MB, and 200 MB more once the parent has
touched 200 MB). GNU time is small; the davinci-sim it forks starts from
its footprint, and it reports that child's ru_maxrss from wait4.
"""
import os
import signal
import subprocess
import tempfile
import threading
import time
from collections import namedtuple

GNU_TIME = "/usr/bin/time"
# The --report-json format headline() reads (davinci-sim writes it as
# "schema_version", sim/trace/report.h).
REPORT_SCHEMA_VERSION = 2
Run = namedtuple("Run", "status stdout stderr wall_seconds cpu_seconds max_rss_kib timed_out")


def run_measured(cmd, cwd=None, timeout=None):
    """Runs `cmd` (a list) to completion; returns a Run.

    status is the exit status, or -N when signal N ended it (timed_out says
    whether that was our timeout). Output goes through temporary files, not
    pipes: a child that writes more than a pipe holds would otherwise block
    while we sit in wait4.
    """
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile(prefix="simrun-rss-") as rss:
        wrapped = [GNU_TIME, "-f", "%M", "-o", rss.name] + list(cmd) if os.access(GNU_TIME, os.X_OK) else cmd
        start = time.perf_counter()
        proc = subprocess.Popen(wrapped, cwd=cwd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env,
                                start_new_session=True)
        timed_out = threading.Event()

        def kill():
            timed_out.set()
            try:  # the whole group: GNU time and the simulator under it
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill) if timeout else None
        if timer:
            timer.start()
        try:
            _, raw, usage = os.wait4(proc.pid, 0)
        finally:
            if timer:
                timer.cancel()
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(raw)  # so Popen does not wait again
        status = proc.returncode
        max_rss = usage.ru_maxrss  # an upper bound (see above) when GNU time is missing
        if wrapped is not cmd:
            rss.seek(0)
            words = rss.read().decode().split()
            if words and words[-1].isdigit():
                max_rss = int(words[-1])
            # GNU time exits with the command's status, or 128 + N for a
            # command that signal N ended (and says so on a line of its
            # own); report the latter as -N, as Popen does.
            if "signal" in words[:-1] and words[words.index("signal") + 1].isdigit():
                status = -int(words[words.index("signal") + 1])
        out.seek(0)
        err.seek(0)
        return Run(status, out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"),
                   wall, usage.ru_utime + usage.ru_stime, max_rss, timed_out.is_set())


def headline(report):
    """The figures of a --report-json report that sweeps and benchmarks
    compare; ValueError for a report of another format version."""
    if report.get("schema_version") != REPORT_SCHEMA_VERSION:
        raise ValueError("report schema_version %r, this script reads %r" %
                         (report.get("schema_version"), REPORT_SCHEMA_VERSION))
    units = report.get("units", [])
    return {
        "total_cycles": report["total_cycles"],
        "seconds": report["seconds"],
        "blocks": report["blocks"],
        "commands": sum(u.get("commands", 0) for u in units),
        "cube_utilization": report["cube_utilization"],
        "vector_busy": report.get("vector_busy"),
        "macs": report["macs"],
        "ddr_bytes_read": report["ddr_bytes_read"],
        "ddr_bytes_written": report["ddr_bytes_written"],
        "ddr_bytes": report["ddr_bytes_read"] + report["ddr_bytes_written"],
        "format_conversions": report["format_conversions"],
        # What the run cost (docs/timing-model.md §9, "Energy").
        "energy_joules": report["energy"]["joules"],
        "average_watts": report["energy"]["average_watts"],
        "energy_delay_joule_seconds": report["energy"]["energy_delay_joule_seconds"],
        # What the chip's units take (docs/timing-model.md §9, "Area").
        "area_mm2": report["area"]["mm2"],
    }


def failure_text(run, limit=2000):
    """What a failed run said, for a results table: its stderr (the
    davinci-sim error message), or how it ended."""
    if run.timed_out:
        return "timed out after %.3g s" % run.wall_seconds
    text = run.stderr.strip()
    if run.status < 0:
        text = ("killed by signal %d\n" % -run.status + text).strip()
    if not text:
        text = "exit status %d, no message" % run.status
    return text[:limit]
