#!/usr/bin/python3
"""Plots a davinci-sim profile (schema davinci-sim-profile/1, traces/README.md).

    davinci-sim profile models/gemm_256.pto -o traces/gemm.profile.json
    scripts/plot_profile.py traces/gemm.profile.json -o traces/gemm-plots

writes DIR/heatmap.png (busy fraction per unit and time bucket),
DIR/bandwidth.png (completion bandwidth per link, bytes/cycle),
DIR/power.png (the chip's power over time, in the profile's bins of
whole microseconds, with its average and peak), DIR/energy.png (the
run's energy by part, and the operations that cost most) and
DIR/taskgraph.svg (tasks with their cycles, edges = data dependencies;
rendered by Graphviz `dot`). Needs Debian python3-matplotlib and graphviz.
"""
import argparse
import json
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# The profile format this script reads (davinci-sim writes it as
# "schema_version", sim/trace/profile.h).
SCHEMA_VERSION = 1


def bucket_edges(p):
    """Cycle at which each bucket starts, plus the total at the end."""
    w, n, total = p["bucket_cycles"], p["buckets"], p["total_cycles"]
    return [min(b * w, total) for b in range(n)] + [total]


def plot_heatmap(p, path):
    units, rows = p["units"], p["heatmap"]
    edges = bucket_edges(p)
    fig, ax = plt.subplots(figsize=(12, max(3.0, 0.22 * len(units) + 1.5)))
    mesh = ax.pcolormesh(edges, range(len(units) + 1), rows or [[0]], cmap="viridis", vmin=0.0, vmax=1.0,
                         shading="flat")
    ax.set_yticks([i + 0.5 for i in range(len(units))])
    ax.set_yticklabels(units, fontsize=7 if len(units) > 24 else 9)
    ax.invert_yaxis()
    ax.set_xlabel("cycles (bucket = %d cycles)" % p["bucket_cycles"])
    ax.set_ylabel("unit")
    ax.set_title("%s: utilization" % p["program"])
    fig.colorbar(mesh, ax=ax, label="busy fraction")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_bandwidth(p, path):
    edges = bucket_edges(p)
    mids = [(a + b) / 2 for a, b in zip(edges, edges[1:])]
    fig, ax = plt.subplots(figsize=(12, 4.5))
    for link in p["links"]:
        if link["bytes"] == 0:
            continue
        ax.plot(mids, link["bandwidth"], label=link["name"], linewidth=1.2)
    ax.set_xlabel("cycles")
    ax.set_ylabel("completion bandwidth (bytes/cycle)")
    ax.set_title("%s: link bandwidth" % p["program"])
    ax.set_xlim(0, max(1, p["total_cycles"]))
    ax.set_ylim(bottom=0)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="upper right", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_power(p, path):
    """The power series (docs/timing-model.md §9, "Energy") as steps, one
    per bin, with the run's average; the title's peak is the report's (its
    highest bin of `peak_bin_cycles`, finer than these when they merge)."""
    power = p["power"]
    watts, w, total = power["watts"], power["bin_cycles"], p["total_cycles"]
    starts = [b * w for b in range(len(watts))]
    fig, ax = plt.subplots(figsize=(12, 4))
    if watts:
        ax.step(starts + [total], watts + [watts[-1]], where="post", linewidth=1.2, label="power")
        ax.axhline(power["average_watts"], color="gray", linestyle="--", linewidth=1,
                   label="average %.3g W" % power["average_watts"])
        ax.legend(loc="upper right", fontsize=8)
    ax.set_xlabel("cycles (bin = %d cycles)" % w)
    ax.set_ylabel("power (W)")
    ax.set_title("%s: power (peak %.3g W in %d-cycle bins)" % (p["program"], power["peak_watts"],
                                                                power["peak_bin_cycles"]))
    ax.set_xlim(0, max(1, total))
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# Operations shown by name in the energy chart; the rest are summed.
TOP_OPS = 12


def plot_energy(p, path):
    """Two bar charts: the run's energy by part (each action's, each memory
    level's, static power) and by operation (the costliest TOP_OPS, the
    others together)."""
    parts = p["energy"]["parts"]
    ops = sorted((o for o in p["ops"] if o["energy_femtojoules"] > 0), key=lambda o: -o["energy_femtojoules"])
    shown = [(o["name"], o["energy_femtojoules"]) for o in ops[:TOP_OPS]]
    rest = sum(o["energy_femtojoules"] for o in ops[TOP_OPS:])
    if rest:
        shown.append(("%d others" % (len(ops) - TOP_OPS), rest))
    fig, (by_part, by_op) = plt.subplots(1, 2, figsize=(12, max(3.5, 0.3 * max(len(parts), len(shown)) + 1.5)))
    by_part.barh([q["label"] for q in parts], [q["femtojoules"] * 1e-9 for q in parts], color="tab:blue")
    by_part.invert_yaxis()
    by_part.set_xlabel("energy (uJ)")
    by_part.set_title("by part (total %.4g uJ)" % (p["energy"]["femtojoules"] * 1e-9))
    by_op.barh([name for name, _ in shown], [fj * 1e-9 for _, fj in shown], color="tab:orange")
    by_op.invert_yaxis()
    by_op.set_xlabel("energy (uJ)")
    by_op.set_title("by operation (dynamic)")
    for ax in (by_part, by_op):
        ax.tick_params(axis="y", labelsize=8)
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle("%s: energy" % p["program"])
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def quoted(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def task_dot(p):
    critical = set(p["critical_path"])
    ops_by_task = {}
    for op in p["ops"]:
        ops_by_task.setdefault(op["task"], []).append(op["name"])
    lines = ["digraph tasks {", "  rankdir=LR;", '  node [shape=box, fontname="Helvetica"];']
    for t in p["tasks"]:
        name = t["name"] or "(top level)"
        if t["cycles"] is None:
            when = "no commands"
        else:
            when = "%d cycles [%d, %d)" % (t["cycles"], t["start"], t["end"])
        label = "%s\\n%s\\n%s" % (name, when, ", ".join(t["units"]) or "-")
        on_path = any(o in critical for o in ops_by_task.get(t["name"], []))
        style = ', penwidth=2.5, color="firebrick"' if on_path else ""
        lines.append("  %s [label=%s%s];" % (quoted("task:" + t["name"]), quoted(label).replace("\\\\n", "\\n"),
                                             style))
    for e in p["task_edges"]:
        lines.append("  %s -> %s;" % (quoted("task:" + e["from"]), quoted("task:" + e["to"])))
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description="Plot a davinci-sim profile: heatmap.png, bandwidth.png, power.png, "
                                             "energy.png, taskgraph.svg")
    ap.add_argument("profile", help="profile JSON (davinci-sim profile PROGRAM -o FILE)")
    ap.add_argument("-o", "--output", required=True, metavar="DIR", help="directory for the five files")
    args = ap.parse_args()
    with open(args.profile) as f:
        p = json.load(f)
    if p.get("schema_version") != SCHEMA_VERSION:
        sys.exit("plot_profile.py: %s: schema_version %r, this script reads %r" %
                 (args.profile, p.get("schema_version"), SCHEMA_VERSION))
    os.makedirs(args.output, exist_ok=True)
    plot_heatmap(p, os.path.join(args.output, "heatmap.png"))
    plot_bandwidth(p, os.path.join(args.output, "bandwidth.png"))
    plot_power(p, os.path.join(args.output, "power.png"))
    plot_energy(p, os.path.join(args.output, "energy.png"))
    svg = os.path.join(args.output, "taskgraph.svg")
    try:
        r = subprocess.run(["dot", "-Tsvg", "-o", svg], input=task_dot(p), text=True, capture_output=True)
    except FileNotFoundError:
        sys.exit("plot_profile.py: graphviz 'dot' not found (apt-get install graphviz)")
    if r.returncode != 0:
        sys.exit("plot_profile.py: dot failed: " + r.stderr.strip())
    for name in ("heatmap.png", "bandwidth.png", "power.png", "energy.png", "taskgraph.svg"):
        print(os.path.join(args.output, name))


if __name__ == "__main__":
    main()
