"""The headline curves of a sweep: one figure per plot of the sweep file,
a figure (y) against one grid key (x), one line per combination of
everything else that varies (program, shapes, the other grid keys).
Failed points leave a gap. Needs Debian python3-matplotlib (Agg backend:
no display).
"""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sweep_spec import shapes_text  # noqa: E402

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


def _series_name(point, x, grid_keys, several_programs):
    parts = []
    if several_programs:
        parts.append(os.path.basename(point["program"]) + (" " + shapes_text(point["shapes"]) if point["shapes"] else ""))
    parts += ["%s=%s" % (k, point["values"][k]) for k in grid_keys if k != x]
    return ", ".join(parts) or os.path.basename(point["program"])


def plot(spec, points, rows, out_dir, write):
    """Writes each plot as out_dir/<y>_vs_<x>.png through `write(path,
    render)` (which renames a finished temporary file into place); returns
    the paths."""
    grid_keys = list(spec["grid"])
    programs = {(p["program_rel"], shapes_text(p["shapes"])) for p in points}
    paths = []
    for p in spec["plots"]:
        x, y = p["x"], p["y"]
        lines = {}
        for point in points:
            row = rows.get(point["key"])
            value = row.get(y) if row and row.get("status") == "ok" else None
            name = _series_name(point, x, grid_keys, len(programs) > 1)
            lines.setdefault(name, []).append((point["values"][x], value))
        fig, ax = plt.subplots(figsize=(8, 5))
        numeric_x = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in spec["grid"][x])
        for name, pts in lines.items():
            if numeric_x:
                pts.sort(key=lambda t: t[0])
                xs = [a for a, _ in pts]
            else:
                xs = [spec["grid"][x].index(a) for a, _ in pts]
            ys = [float("nan") if b is None else b for _, b in pts]
            ax.plot(xs, ys, marker="o", label=name)
        if not numeric_x:
            ax.set_xticks(range(len(spec["grid"][x])))
            ax.set_xticklabels([str(v) for v in spec["grid"][x]])
        elif all(v > 0 for v in spec["grid"][x]) and max(spec["grid"][x]) >= 4 * min(spec["grid"][x]):
            ax.set_xscale("log", base=2)
            ax.set_xticks(spec["grid"][x])
            ax.set_xticklabels([str(v) for v in spec["grid"][x]])
        ax.set_xlabel(x)
        ax.set_ylabel(LABELS.get(y, y))
        ax.set_title(p.get("title") or "%s: %s vs %s" % (spec["name"], y, x))
        ax.grid(True, alpha=0.3)
        if len(lines) > 1:
            ax.legend(fontsize=8)
        fig.tight_layout()
        path = os.path.join(out_dir, "%s_vs_%s.png" % (y, x.replace(".", "_")))
        write(path, lambda tmp, fig=fig: fig.savefig(tmp, dpi=100, format="png"))
        plt.close(fig)
        paths.append(path)
    return paths
