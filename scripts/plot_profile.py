#!/usr/bin/python3
"""Plots a davinci-sim profile (schema davinci-sim-profile/1, traces/README.md).

    davinci-sim profile models/gemm_256.pto -o traces/gemm.profile.json
    scripts/plot_profile.py traces/gemm.profile.json -o traces/gemm-plots

writes DIR/heatmap.png (busy fraction per unit and time bucket, or per
unit kind and per cluster when there are many units, under the
operations' spans),
DIR/bandwidth.png (bytes per cycle per link, with its peak),
DIR/power.png (the chip's power over time, in the profile's bins of
whole microseconds, with its average and peak), DIR/energy.png (the
run's energy by part, and the operations that cost most) and
DIR/taskgraph.svg (tasks around their operations, with their cycles,
edges = data dependencies; rendered by Graphviz `dot`). Needs Debian python3-matplotlib and graphviz.

    davinci-sim -q --ops-csv traces/ops.csv models/resnet_block.pto
    scripts/plot_profile.py --roofline traces/ops.csv -o traces/plots

writes DIR/roofline.png from a per-operation CSV (--ops-csv): each
operation that ran MACs at its arithmetic intensity (2 x MACs per DDR
byte read and written) and its achieved rate (2 x MACs per cycle of its
span), under the machine's roofs, which the CSV itself gives: the peak
compute rate, 2 x MACs over compute_bound_cycles (the float16 rate: the
highest of the operations'), and the DDR bandwidth, DDR bytes over
ddr_bound_cycles. With a profile too, both sets are written.
"""
import argparse
import csv
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


# Above this many units the heatmap shows unit kinds and clusters, not
# units (a 24-cluster preset has 240).
MAX_UNIT_ROWS = 48


def heatmap_rows(p):
    """(labels, rows, kind rows): one row per unit, or with many units one
    per unit kind (the mean of its units' busy fractions) then one per
    cluster (the mean of all its units'), and how many rows are kinds."""
    units, rows = p["units"], p["heatmap"]
    if len(units) <= MAX_UNIT_ROWS or not rows:
        return units, rows, 0

    def mean_of(indices):
        return [sum(rows[i][b] for i in indices) / len(indices) for b in range(len(rows[0]))]

    kinds, clusters = {}, {}
    for i, (name, kind) in enumerate(zip(units, p["unit_kinds"])):
        kinds.setdefault(kind, []).append(i)
        clusters.setdefault(name.split(".")[0], []).append(i)
    labels = ["%s (all %d)" % (k, len(v)) for k, v in kinds.items()] + ["%s (its %d units)" % (c, len(v))
                                                                         for c, v in clusters.items()]
    return labels, [mean_of(v) for v in kinds.values()] + [mean_of(v) for v in clusters.values()], len(kinds)


def op_lanes(p):
    """The operations that ran, in start order, each with a lane of the
    strip above the heatmap (the first lane its band fits in); and the
    number of lanes."""
    ran = sorted((o for o in p.get("ops", []) if (o.get("end") or 0) > (o.get("start") or 0)),
                 key=lambda o: o["start"])
    ends, placed = [], []  # the end of the last band on each lane
    for o in ran:
        lane = next((k for k, end in enumerate(ends) if end <= o["start"]), len(ends))
        if lane == len(ends):
            ends.append(0)
        ends[lane] = o["end"]
        placed.append((o, lane))
    return placed, len(ends)


def plot_op_bands(p, ax, placed, lanes):
    """The operations' spans along the time axis, a band each on its lane
    (op_lanes), the longest named: which operation the heatmap's columns
    belong to."""
    total = max(p["total_cycles"], 1)
    for o, lane in placed:
        ax.barh(lane, o["end"] - o["start"], left=o["start"], height=0.8, color="tab:orange", alpha=0.6,
                edgecolor="black", linewidth=0.3)
        if (o["end"] - o["start"]) / total > 0.04:
            ax.text(o["start"] + (o["end"] - o["start"]) / 2, lane, o["name"], ha="center", va="center", fontsize=7,
                    clip_on=True)
    ax.set_ylim(lanes - 0.5 if lanes else 0.5, -0.5)
    ax.set_yticks([])
    ax.set_ylabel("operations", fontsize=8)


def plot_heatmap(p, path):
    labels, rows, kind_rows = heatmap_rows(p)
    edges = bucket_edges(p)
    placed, lanes = op_lanes(p)
    band_height = min(3.0, 0.25 * max(1, lanes) + 0.4)
    fig, (bands, ax) = plt.subplots(2, 1, sharex=True, figsize=(12, max(3.0, 0.22 * len(labels) + 1.5) + band_height),
                                    gridspec_kw={"height_ratios": [band_height, max(3.0, 0.22 * len(labels) + 1.5)]})
    plot_op_bands(p, bands, placed, lanes)
    mesh = ax.pcolormesh(edges, range(len(labels) + 1), rows or [[0]], cmap="viridis", vmin=0.0, vmax=1.0,
                         shading="flat")
    ax.set_yticks([i + 0.5 for i in range(len(labels))])
    ax.set_yticklabels(labels, fontsize=7 if len(labels) > 24 else 9)
    if kind_rows:
        ax.axhline(kind_rows, color="white", linewidth=2)
    ax.invert_yaxis()
    ax.set_xlabel("cycles (bucket = %d cycles)" % p["bucket_cycles"])
    ax.set_ylabel("unit" if labels is p["units"] else "unit kind, cluster (mean busy fraction)")
    bands.set_title("%s: utilization" % p["program"])
    fig.colorbar(mesh, ax=[bands, ax], label="busy fraction")
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_bandwidth(p, path):
    """Each link's bytes per cycle over time (spread over each command's
    span, traces/README.md), with its peak as a dashed line of its colour.
    With more than six links the clusters' L1 ports are drawn as two lines,
    their mean and the busiest in each bucket, so the legend stays short."""
    edges = bucket_edges(p)
    mids = [(a + b) / 2 for a, b in zip(edges, edges[1:])]
    fig, ax = plt.subplots(figsize=(12, 4.5))
    moved = [link for link in p["links"] if link["bytes"] > 0]
    series = []  # (label, values, peak)
    l1 = [link for link in moved if link["kind"] == "l1_l0"]
    for link in moved:
        if len(moved) > 6 and link["kind"] == "l1_l0":
            continue
        series.append((link["name"], link["bandwidth"], (link["name"], link["peak_bytes_per_cycle"])))
    if len(moved) > 6 and l1:
        n = len(l1)
        series.append(("L1 ports, mean of %d" % n, [sum(v) / n for v in zip(*(x["bandwidth"] for x in l1))],
                       ("an L1 port", l1[0]["peak_bytes_per_cycle"])))
        series.append(("L1 ports, busiest", [max(v) for v in zip(*(x["bandwidth"] for x in l1))], None))
    for k, (label, values, peak) in enumerate(series):
        colour = "C%d" % k
        ax.plot(mids, values, label=label, linewidth=1.2, color=colour)
        if peak and peak[1]:
            ax.axhline(peak[1], color=colour, linestyle="--", linewidth=0.8,
                       label="%s: peak %d B/cycle" % (peak[0], peak[1]))
    ax.set_xlabel("cycles")
    ax.set_ylabel("bytes per cycle")
    ax.set_title("%s: link bandwidth" % p["program"])
    ax.set_xlim(0, max(1, p["total_cycles"]))
    ax.set_ylim(bottom=0)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
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


def roofline_points(rows):
    """(name, intensity FLOP/B, achieved FLOP/cycle, cycles) of each operation
    that ran MACs and moved DDR bytes, and the roofs (peak FLOP/cycle, DDR
    B/cycle) the CSV's bounds imply."""
    points, peak, bandwidth = [], 0.0, 0.0
    for r in rows:
        macs, cycles = int(r["macs"] or 0), int(r["cycles"] or 0)
        ddr = int(r["ddr_bytes_read"] or 0) + int(r["ddr_bytes_written"] or 0)
        compute_bound, ddr_bound = int(r["compute_bound_cycles"] or 0), int(r["ddr_bound_cycles"] or 0)
        if macs and compute_bound:
            peak = max(peak, 2.0 * macs / compute_bound)
        if ddr and ddr_bound:
            bandwidth = max(bandwidth, ddr / ddr_bound)
        if macs and cycles and ddr:
            points.append((r["op"], 2.0 * macs / ddr, 2.0 * macs / cycles, cycles))
    return points, peak, bandwidth


def plot_roofline(rows, title, path):
    points, peak, bandwidth = roofline_points(rows)
    if not points or not peak or not bandwidth:
        sys.exit("plot_profile.py: %s: no operation ran MACs and moved DDR bytes: nothing to place on a roofline"
                 % title)
    fig, ax = plt.subplots(figsize=(9, 6))
    lo = min(min(p[1] for p in points), peak / bandwidth) / 4
    hi = max(max(p[1] for p in points), peak / bandwidth) * 4
    xs = [lo * (hi / lo) ** (i / 200) for i in range(201)]
    ax.plot(xs, [min(peak, bandwidth * x) for x in xs], color="black", linewidth=1.5,
            label="roof: %.4g FLOP/cycle, DDR %.4g B/cycle (ridge at %.3g FLOP/B)" % (peak, bandwidth,
                                                                                     peak / bandwidth))
    sizes = [20 + 180 * p[3] / max(q[3] for q in points) for p in points]
    ax.scatter([p[1] for p in points], [p[2] for p in points], s=sizes, alpha=0.7, color="tab:blue", zorder=3,
               label="operations (area: cycles)")
    # Name the operations that take the most cycles.
    for k, (name, x, y, _) in enumerate(sorted(points, key=lambda p: -p[3])[:6]):
        ax.annotate(name, (x, y), fontsize=7, xytext=(6, 10 - 9 * k), textcoords="offset points",
                    arrowprops=dict(arrowstyle="-", color="gray", lw=0.5))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (FLOP per DDR byte, 2 x MACs)")
    ax.set_ylabel("achieved (FLOP per cycle of the operation's span)")
    ax.set_title("%s: roofline" % title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError as e:
        sys.exit("plot_profile.py: cannot read %s: %s" % (path, e.strerror))
    except ValueError as e:
        sys.exit("plot_profile.py: %s is not a profile (JSON): %s" % (path, e))


def read_ops_csv(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.exit("plot_profile.py: cannot read %s: %s" % (path, e.strerror))
    except (csv.Error, UnicodeDecodeError) as e:
        sys.exit("plot_profile.py: %s is not a CSV file: %s" % (path, e))
    needed = {"op", "macs", "cycles", "compute_bound_cycles", "ddr_bound_cycles", "ddr_bytes_read",
              "ddr_bytes_written"}
    if not rows or not needed <= set(rows[0]):
        sys.exit("plot_profile.py: %s is not a per-operation CSV (davinci-sim --ops-csv): it lacks %s" %
                 (path, ", ".join(sorted(needed - set(rows[0] if rows else {})))))
    try:
        for r in rows:
            for k in needed - {"op"}:
                int(r[k] or 0)
    except (ValueError, TypeError):
        sys.exit("plot_profile.py: %s: a row of operation %r has a column that is not a whole number" %
                 (path, r.get("op")))
    return rows


def quoted(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


# Above this many operations the task graph shows tasks alone.
MAX_OP_NODES = 400


def task_dot(p):
    """Graphviz: each coarse task a box around its operations (name, kind,
    cycles), edges the data dependencies between operations; the critical
    path in red. A program of more than MAX_OP_NODES operations shows its
    tasks only, with their cycles and the edges between them."""
    critical = set(p["critical_path"])
    ops_by_task = {}
    for op in p["ops"]:
        ops_by_task.setdefault(op["task"], []).append(op)
    lines = ["digraph tasks {", "  rankdir=LR;", "  compound=true;", '  node [shape=box, fontname="Helvetica"];']
    with_ops = len(p["ops"]) <= MAX_OP_NODES
    for k, t in enumerate(p["tasks"]):
        name = t["name"] or "(top level)"
        when = "no commands" if t["cycles"] is None else "%d cycles [%d, %d)" % (t["cycles"], t["start"], t["end"])
        label = "%s\\n%s\\n%s" % (name, when, ", ".join(t["units"]) or "-")
        on_path = any(o["name"] in critical for o in ops_by_task.get(t["name"], []))
        style = ', penwidth=2.5, color="firebrick"' if on_path else ""
        if not with_ops:
            lines.append("  %s [label=%s%s];" % (quoted("task:" + t["name"]), quoted(label).replace("\\\\n", "\\n"),
                                                 style))
            continue
        lines.append("  subgraph cluster_%d {" % k)
        lines.append("    label=%s; fontname=\"Helvetica\";%s" % (quoted(label).replace("\\\\n", "\\n"),
                                                                 " color=\"firebrick\"; penwidth=2;" if on_path else ""))
        for o in ops_by_task.get(t["name"], []):
            cycles = "-" if o["cycles"] is None else "%d cycles" % o["cycles"]
            op_style = ', color="firebrick", penwidth=2' if o["name"] in critical else ""
            lines.append("    %s [label=%s%s];" % (quoted("op:" + o["name"]),
                                                   quoted("%s\\n%s, %s" % (o["name"], o["kind"], cycles)).replace(
                                                       "\\\\n", "\\n"), op_style))
        lines.append("  }")
    if with_ops:
        for o in p["ops"]:
            for i in o.get("inputs", []):
                lines.append("  %s -> %s;" % (quoted("op:" + i), quoted("op:" + o["name"])))
    else:
        for e in p["task_edges"]:
            lines.append("  %s -> %s;" % (quoted("task:" + e["from"]), quoted("task:" + e["to"])))
    lines.append("}")
    return "\n".join(lines) + "\n"

def main():
    ap = argparse.ArgumentParser(description="Plot a davinci-sim profile: heatmap.png, bandwidth.png, power.png, "
                                             "energy.png, taskgraph.svg")
    ap.add_argument("profile", nargs="?", help="profile JSON (davinci-sim profile PROGRAM -o FILE)")
    ap.add_argument("--roofline", metavar="OPS.csv", help="a per-operation CSV (davinci-sim --ops-csv): "
                    "write roofline.png")
    ap.add_argument("-o", "--output", required=True, metavar="DIR", help="directory for the files")
    args = ap.parse_args()
    if not args.profile and not args.roofline:
        ap.error("give a profile, --roofline OPS.csv, or both")
    if args.roofline:
        rows = read_ops_csv(args.roofline)
        os.makedirs(args.output, exist_ok=True)
        plot_roofline(rows, os.path.basename(args.roofline), os.path.join(args.output, "roofline.png"))
        print(os.path.join(args.output, "roofline.png"))
    if not args.profile:
        return
    p = read_json(args.profile)
    if not isinstance(p, dict) or p.get("schema_version") != SCHEMA_VERSION:
        sys.exit("plot_profile.py: %s: schema_version %r, this script reads %r" %
                 (args.profile, p.get("schema_version") if isinstance(p, dict) else None, SCHEMA_VERSION))
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
