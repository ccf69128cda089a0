#!/usr/bin/python3
"""Checks that a closed form, written from reading SCALE-Sim v2's compute
model (README.md here), gives every figure of the golden CSVs exactly:
Total - Stall cycles, overall utilisation (where the layer did not stall),
mapping efficiency and compute utilisation. Independent of davinci-sim and
of SCALE-Sim (nothing of either is imported): if this passes, the closed
form is what the simulator has to reproduce.

    tests/golden/scalesim/check_formula.py [DIR]    (default: this folder)
"""

import csv
import os
import sys


def ceil_div(a, b):
    return -(-a // b)


def layer_gemm(row):
    """SCALE-Sim's GEMM view of a layer: output pixels M (its output size is
    ceil((H - R + s) / s), no padding), filters N, window K."""
    if row["kind"] == "gemm":
        return int(row["M"]), int(row["N"]), int(row["K"])
    h, w = int(row["ifmap_h"]), int(row["ifmap_w"])
    r, s, st = int(row["filter_h"]), int(row["filter_w"]), int(row["stride"])
    oh, ow = ceil_div(h - r + st, st), ceil_div(w - s + st, st)
    return oh * ow, int(row["filters"]), r * s * int(row["channels"])


def figures(m, n, k, rows, cols, df):
    """(stall-free cycles, mapping efficiency %, compute util %, MACs)."""
    sr, sc, t = {"os": (m, n, k), "ws": (k, n, m), "is": (k, m, n)}[df]
    # Cycles of one fold, full or partial: the demand lines SCALE-Sim
    # generates for it (os: T operands, skewed over R rows, plus C - 1 for the
    # outputs to drain; ws/is: R more to load the stationary operand).
    per_fold = t + rows + cols - 2 if df == "os" else 2 * rows + cols + t - 2
    # The fold count it uses in its per-fold utilisation (os: the same; ws,
    # is: the stationary operand's R rows plus its suffix, plus C - 1).
    util_cycles = per_fold if df == "os" else 2 * rows + 2 * cols + t - 3
    row_folds, col_folds = ceil_div(sr, rows), ceil_div(sc, cols)
    mapping, compute = 0, 0
    for fc in range(col_folds):  # its fold order: column folds outer
        for fr in range(row_folds):
            used = min(rows, sr - fr * rows) * min(cols, sc - fc * cols)
            mapping += used / (rows * cols)
            compute += used * t / (rows * cols * util_cycles)
    folds = row_folds * col_folds
    # SCALE-Sim counts cycles from 0 and reports the last one: - 1 per layer.
    return folds * per_fold - 1, mapping / folds * 100, compute / folds * 100, m * n * k


def check(path):
    bad = 0
    n = 0
    with open(path) as f:
        for row in csv.DictReader(f):
            n += 1
            rows, cols = int(row["rows"]), int(row["cols"])
            df = row.get("dataflow", "os")
            if "kind" not in row:
                row = dict(row, kind="conv")
            m, nn, k = layer_gemm(row)
            cycles, mapping, compute, macs = figures(m, nn, k, rows, cols, df)
            total, stall = int(row["total_cycles"]), int(row["stall_cycles"])
            got = {"cycles": total - stall, "mapping_efficiency": float(row["mapping_efficiency"]),
                   "compute_util": float(row["compute_util"])}
            want = {"cycles": cycles, "mapping_efficiency": mapping, "compute_util": compute}
            # Overall utilisation divides by the total, stalls included.
            got["overall_util"] = float(row["overall_util"])
            want["overall_util"] = macs * 100 / (total * rows * cols)
            for key in want:
                if got[key] != want[key]:
                    bad += 1
                    print("%s: %s %s %dx%d %s: %s is %r, the formula gives %r" %
                          (os.path.basename(path), row.get("case", row.get("layer")), (m, nn, k), rows, cols, df,
                           key, got[key], want[key]))
    return n, bad


def main():
    here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    total = bad = 0
    for name in ("cases.csv", "resnet50_32x32_os.csv"):
        path = os.path.join(here, name)
        if not os.path.exists(path):
            continue
        n, b = check(path)
        total += n
        bad += b
        print("%s: %d rows, %d mismatches" % (name, n, b))
    return 1 if bad or not total else 0


if __name__ == "__main__":
    sys.exit(main())
