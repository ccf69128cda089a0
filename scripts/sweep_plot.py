"""The headline curves of a sweep: one figure per plot of the sweep file,
a figure (y) against one axis (x: a grid key, the base config, a shape
dimension or a param; scripts/sweep_spec.py), one line per combination of
everything else that varies (program, shapes, the other axes).
Failed points leave a gap. Needs Debian python3-matplotlib (Agg backend:
no display).
"""
import os
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sweep_spec import params_text, shapes_text  # noqa: E402

LABELS = {
    "total_cycles": "simulated cycles",
    "cube_utilization": "cube MAC utilization",
    "ddr_bytes": "DDR bytes (read + written)",
    "energy_joules": "energy (J)",
    "average_watts": "average power (W)",
    "energy_delay_joule_seconds": "energy x delay (J s)",
    "area_mm2": "area (mm2)",
    "wall_seconds": "wall time (s)",
    "max_rss_kib": "peak memory (KiB)",
}


def _is_input_axis(axis):
    return axis.startswith("shape:") or axis.startswith("param:")


def _series_name(point, x, spec, several_inputs, several_programs):
    """A line's label: what besides x tells its points apart. Against a
    shape or param axis the program's inputs are the x axis, so only the
    program (when there are several) and the machine's axes name a line."""
    parts = []
    if _is_input_axis(x):
        if several_programs:
            parts.append(os.path.basename(point["program"]))
    elif several_inputs:
        inputs = " ".join(filter(None, [shapes_text(point["shapes"]), params_text(point["params"])]))
        parts.append(os.path.basename(point["program"]) + (" " + inputs if inputs else ""))
    parts += ["%s=%s" % (k, v) for k, v in point["axes"].items()
              if k != x and not _is_input_axis(k) and len(spec["axes"][k]) > 1]
    return ", ".join(parts) or os.path.basename(point["program"])


def plot(spec, points, rows, out_dir, write):
    """Writes each plot as out_dir/<y>_vs_<x>.png through `write(path,
    render)` (which renames a finished temporary file into place); returns
    the paths."""
    inputs = {(p["program_rel"], shapes_text(p["shapes"]), params_text(p["params"])) for p in points}
    several_programs = len({p["program_rel"] for p in points}) > 1
    paths = []
    for p in spec["plots"]:
        x, y = p["x"], p["y"]
        lines = {}
        for point in points:
            row = rows.get(point["key"])
            value = row.get(y) if row and row.get("status") == "ok" else None
            if x not in point["axes"]:  # a shape or param another program has
                continue
            name = _series_name(point, x, spec, len(inputs) > 1, several_programs)
            lines.setdefault(name, []).append((point["axes"][x], value))
        fig, ax = plt.subplots(figsize=(8, 5))
        numeric_x = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in spec["axes"][x])
        for name, pts in lines.items():
            if numeric_x:
                pts.sort(key=lambda t: t[0])
                xs = [a for a, _ in pts]
            else:
                xs = [spec["axes"][x].index(a) for a, _ in pts]
            ys = [float("nan") if b is None else b for _, b in pts]
            ax.plot(xs, ys, marker="o", label=name)
        if not numeric_x:
            ax.set_xticks(range(len(spec["axes"][x])))
            ax.set_xticklabels([str(v) for v in spec["axes"][x]])
        elif all(v > 0 for v in spec["axes"][x]) and max(spec["axes"][x]) >= 4 * min(spec["axes"][x]):
            ax.set_xscale("log", base=2)
            ax.set_xticks(spec["axes"][x])
            ax.set_xticklabels([str(v) for v in spec["axes"][x]])
        # Figures spanning two decades or more (machines compared over a
        # range of sizes) on a log scale, so that the small ones show.
        finite = [b for pts in lines.values() for _, b in pts if isinstance(b, (int, float)) and b == b]
        if finite and min(finite) > 0 and max(finite) >= 100 * min(finite):
            ax.set_yscale("log")
        ax.set_xlabel(x)
        ax.set_ylabel(LABELS.get(y, y))
        ax.set_title(p.get("title") or "%s: %s vs %s" % (spec["name"], y, x))
        ax.grid(True, alpha=0.3)
        if len(lines) > 1:
            ax.legend(fontsize=8)
        fig.tight_layout()
        path = os.path.join(out_dir, "%s_vs_%s.png" % (y, re.sub(r"[^A-Za-z0-9_-]", "_", x)))
        write(path, lambda tmp, fig=fig: fig.savefig(tmp, dpi=100, format="png"))
        plt.close(fig)
        paths.append(path)
    return paths
