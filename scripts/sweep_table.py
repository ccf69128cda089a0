"""The table a sweep prints at its end: one row per program input and grid
combination, one column of simulated cycles per base configuration (one
column without base_configs), and with several machines each one's
speed-up over the first (its cycles over theirs: above 1 is faster).
"""
import os

from sweep_spec import params_text, shapes_text


def _cycles(row):
    if not row or row.get("status") != "ok" or row.get("total_cycles") is None:
        return None
    return int(row["total_cycles"])


def comparison(spec, points, rows):
    """The table's text, columns aligned; rows in the sweep's order."""
    configs = spec["axes"].get("config", [""]) if "base_configs" in spec else [""]
    grid_keys = list(spec["grid"])
    table = {}  # identity -> {config: cycles}
    order = []
    for p in points:
        identity = (p["program"], shapes_text(p["shapes"]), params_text(p["params"])) + tuple(
            str(p["values"][k]) for k in grid_keys)
        if identity not in table:
            table[identity] = {}
            order.append(identity)
        table[identity][p["config_name"]] = _cycles(rows.get(p["key"]))
    show_shapes = any(i[1] for i in order)
    show_params = any(i[2] for i in order)
    header = ["program"] + (["shapes"] if show_shapes else []) + (["params"] if show_params else []) + grid_keys
    header += ["%s cycles" % c if c else "total cycles" for c in configs]
    header += ["%s vs %s" % (c, configs[0]) for c in configs[1:]]
    lines = [header]
    for identity in order:
        cells = [os.path.normpath(identity[0])] + ([identity[1]] if show_shapes else []) + (
            [identity[2]] if show_params else []) + list(identity[3:])
        got = table[identity]
        cells += ["{:,}".format(got[c]) if got.get(c) is not None else "failed" for c in configs]
        first = got.get(configs[0])
        cells += ["%.2fx" % (first / got[c]) if first and got.get(c) else "-" for c in configs[1:]]
        lines.append(cells)
    widths = [max(len(r[i]) for r in lines) for i in range(len(header))]
    out = "sweep %s: simulated cycles%s\n" % (spec["name"], ", speed-up over %s" % configs[0] if len(configs) > 1
                                              else "")
    for r in lines:
        out += "  " + "  ".join(c.ljust(w) if i < len(header) - len(configs) - (len(configs) - 1) else c.rjust(w)
                                for i, (c, w) in enumerate(zip(r, widths))).rstrip() + "\n"
    return out
