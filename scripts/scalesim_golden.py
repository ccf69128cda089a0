#!/usr/bin/python3
"""Golden figures from SCALE-Sim v2 for the systolic dataflows (os, ws, is).

    scripts/scalesim_golden.py SCALESIM_SRC [--out DIR] [--only NAME ...]
                               [--skip-resnet50] [--estimate]

SCALESIM_SRC is a checkout (or file-by-file extraction) of
github.com/scalesim-project/scale-sim-v2; tests/golden/scalesim/README.md
says which commit made the committed figures and how. Every case runs
SCALE-Sim itself, once, in a fresh /usr/bin/python3 process (it needs numpy
and tqdm), on a one-layer topology file and a config written for it, and its
COMPUTE_REPORT.csv row is copied as SCALE-Sim printed it (str() of Python's
int and float, so a test can compare exactly).

Writes DIR/cases.csv (the cases below) and DIR/resnet50_32x32_os.csv
(SCALE-Sim's own topologies/mlperf/Resnet50.csv, every layer, 32x32 os),
DIR defaulting to tests/golden/scalesim. Never run in CI: the cases take
tens of minutes of CPU. --estimate prints the demand lines each case will
make SCALE-Sim walk (its run time grows with them) and runs nothing.
"""

import argparse
import csv
import math
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

# The layers. GEMMs are (M, N, K), in SCALE-Sim's GEMM topology column order;
# convolutions are SCALE-Sim's conv form (IFMAP H, W, filter R, S, channels,
# filters, stride).
GEMMS = {
    "gemm_256x128x256": (256, 128, 256),  # the example (M 256, N 128, K 256)
    "gemm_primes_31x17x13": (31, 17, 13),
    "gemm_primes_97x101x103": (97, 101, 103),
    "gemm_above_33x65x129": (33, 65, 129),
    "gemm_below_63x127x255": (63, 127, 255),
    "gemm_tall_4096x8x64": (4096, 8, 64),
    "gemm_wide_8x2048x64": (8, 2048, 64),
    "gemm_k1_128x128x1": (128, 128, 1),
    "gemm_k1_257x33x1": (257, 33, 1),
    "gemm_gemv_1x4096x1024": (1, 4096, 1024),
    "gemm_gemv_1x1000x2048": (1, 1000, 2048),
    "gemm_1x1x1": (1, 1, 1),
    "gemm_deepk_64x64x4608": (64, 64, 4608),
    "gemm_n1_1024x1x512": (1024, 1, 512),
}
CONVS = {
    # ResNet-50
    "resnet50_conv1": (224, 224, 7, 7, 3, 64, 2),
    "resnet50_cb2a_2": (56, 56, 3, 3, 64, 64, 1),
    "resnet50_cb2a_3": (56, 56, 1, 1, 64, 256, 1),
    "resnet50_cb3a_1": (56, 56, 1, 1, 256, 128, 2),
    "resnet50_cb4a_2": (14, 14, 3, 3, 256, 256, 1),
    "resnet50_cb5s": (14, 14, 1, 1, 1024, 2048, 2),
    "resnet50_cb4s": (28, 28, 1, 1, 512, 1024, 2),
    "resnet50_ib5c_2": (7, 7, 3, 3, 512, 512, 1),
    "resnet50_fc6": (1, 1, 1, 1, 2048, 1000, 1),
    # MobileNet (SCALE-Sim's topologies/conv_nets/mobilenet.csv)
    "mobilenet_conv1": (224, 224, 3, 3, 3, 32, 2),
    "mobilenet_conv4": (112, 112, 3, 3, 64, 1, 2),
    "mobilenet_conv9": (28, 28, 1, 1, 128, 256, 1),
    "mobilenet_conv12": (28, 28, 3, 3, 256, 1, 2),
    "mobilenet_conv27": (7, 7, 1, 1, 1024, 1024, 1),
    # AlexNet (topologies/conv_nets/alexnet.csv)
    "alexnet_conv1": (224, 224, 11, 11, 3, 96, 4),
    "alexnet_conv2": (27, 27, 5, 5, 96, 256, 1),
    "alexnet_conv3": (13, 13, 3, 3, 256, 384, 1),
    "alexnet_conv5": (13, 13, 3, 3, 384, 256, 1),
}

ARRAYS = [(8, 32), (32, 8), (16, 16), (32, 32), (64, 64), (128, 128)]
DATAFLOWS = ["os", "ws", "is"]

# SCALE-Sim's default SRAM sizes (configs/scale.cfg) and its bandwidth
# estimation mode; two cases repeat one layer with tiny SRAMs and a user
# bandwidth of 1 word/cycle so the memory stalls, to show Total - Stall does
# not move with the memory.
SRAM_KB = (64, 64, 64)

# (layer, rows, cols, dataflow[, ifmap_kb, filter_kb, ofmap_kb, bandwidth])
# chosen so every layer, array and dataflow appears and the total stays
# within about 40 minutes of one core (see --estimate).
CASES = [
    ("gemm_256x128x256", 32, 32, "os"),
    ("gemm_256x128x256", 32, 32, "ws"),
    ("gemm_256x128x256", 32, 32, "is"),
    ("gemm_256x128x256", 8, 32, "os"),
    ("gemm_256x128x256", 32, 8, "ws"),
    ("gemm_primes_31x17x13", 8, 32, "os"),
    ("gemm_primes_31x17x13", 32, 8, "ws"),
    ("gemm_primes_31x17x13", 16, 16, "is"),
    ("gemm_primes_97x101x103", 16, 16, "os"),
    ("gemm_primes_97x101x103", 32, 32, "ws"),
    ("gemm_primes_97x101x103", 8, 32, "is"),
    ("gemm_above_33x65x129", 32, 32, "os"),
    ("gemm_above_33x65x129", 64, 64, "ws"),
    ("gemm_above_33x65x129", 32, 8, "is"),
    ("gemm_below_63x127x255", 64, 64, "os"),
    ("gemm_below_63x127x255", 16, 16, "ws"),
    ("gemm_below_63x127x255", 128, 128, "is"),
    ("gemm_tall_4096x8x64", 32, 32, "os"),
    ("gemm_tall_4096x8x64", 8, 32, "ws"),
    ("gemm_tall_4096x8x64", 64, 64, "is"),
    ("gemm_wide_8x2048x64", 32, 8, "os"),
    ("gemm_wide_8x2048x64", 16, 16, "is"),
    ("gemm_k1_128x128x1", 16, 16, "os"),
    ("gemm_k1_128x128x1", 32, 32, "ws"),
    ("gemm_k1_257x33x1", 8, 32, "is"),
    ("gemm_gemv_1x4096x1024", 32, 32, "os"),
    ("gemm_gemv_1x4096x1024", 128, 128, "ws"),
    ("gemm_gemv_1x1000x2048", 16, 16, "is"),
    ("gemm_1x1x1", 32, 32, "os"),
    ("gemm_1x1x1", 8, 32, "ws"),
    ("gemm_deepk_64x64x4608", 32, 32, "os"),
    ("gemm_deepk_64x64x4608", 64, 64, "ws"),
    ("gemm_n1_1024x1x512", 8, 32, "os"),
    ("gemm_n1_1024x1x512", 32, 32, "is"),
    ("resnet50_conv1", 128, 128, "os"),
    ("resnet50_conv1", 64, 64, "ws"),
    ("resnet50_conv1", 128, 128, "is"),
    ("resnet50_cb2a_2", 64, 64, "os"),
    ("resnet50_cb2a_2", 128, 128, "ws"),
    ("resnet50_cb2a_3", 128, 128, "os"),
    ("resnet50_cb3a_1", 64, 64, "is"),
    ("resnet50_cb4a_2", 32, 32, "os"),
    ("resnet50_cb4a_2", 32, 32, "ws"),
    ("resnet50_cb4a_2", 32, 32, "is"),
    ("resnet50_cb5s", 128, 128, "ws"),
    ("resnet50_cb4s", 32, 8, "os"),
    ("resnet50_cb4s", 128, 128, "is"),
    ("resnet50_ib5c_2", 16, 16, "os"),
    ("resnet50_ib5c_2", 64, 64, "is"),
    ("mobilenet_conv1", 32, 32, "os"),
    ("mobilenet_conv1", 32, 8, "ws"),
    ("mobilenet_conv4", 16, 16, "os"),
    ("mobilenet_conv4", 128, 128, "is"),
    ("mobilenet_conv9", 64, 64, "ws"),
    ("mobilenet_conv12", 8, 32, "os"),
    ("mobilenet_conv12", 32, 32, "ws"),
    ("mobilenet_conv27", 32, 32, "is"),
    ("alexnet_conv1", 64, 64, "os"),
    ("alexnet_conv1", 32, 32, "ws"),
    ("alexnet_conv2", 128, 128, "os"),
    ("alexnet_conv2", 64, 64, "is"),
    ("alexnet_conv3", 128, 128, "ws"),
    ("alexnet_conv3", 8, 32, "is"),
    ("alexnet_conv5", 32, 32, "ws"),
    ("alexnet_conv5", 16, 16, "is"),
    ("resnet50_fc6", 32, 32, "os"),
    ("resnet50_fc6", 16, 16, "ws"),
    ("resnet50_fc6", 64, 64, "is"),
    # memory-bound variants: same layers, tiny SRAMs, 1 word/cycle
    ("gemm_primes_97x101x103", 16, 16, "os", 1, 1, 1, 1),
    ("gemm_below_63x127x255", 16, 16, "ws", 2, 2, 2, 2),
]

LAYER_FIELDS = ["kind", "M", "N", "K", "ifmap_h", "ifmap_w", "filter_h", "filter_w", "channels", "filters", "stride"]
REPORT_FIELDS = ["total_cycles", "stall_cycles", "overall_util", "mapping_efficiency", "compute_util"]


def layer_row(name):
    if name in GEMMS:
        m, n, k = GEMMS[name]
        return {"kind": "gemm", "M": m, "N": n, "K": k}
    h, w, r, s, c, f, st = CONVS[name]
    return {"kind": "conv", "ifmap_h": h, "ifmap_w": w, "filter_h": r, "filter_w": s, "channels": c,
            "filters": f, "stride": st}


def topology_text(name):
    if name in GEMMS:
        m, n, k = GEMMS[name]
        return "Layer Name, M, N, K,\n%s, %d, %d, %d,\n" % (name, m, n, k)
    return ("Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,\n"
            "%s, %s,\n" % (name, ", ".join(str(v) for v in CONVS[name])))


def config_text(rows, cols, df, sram_kb, bandwidth):
    mode = "USER" if bandwidth else "CALC"
    return ("[general]\nrun_name = golden\n\n[architecture_presets]\n"
            "ArrayHeight: %d\nArrayWidth: %d\nIfmapSramSzkB: %d\nFilterSramSzkB: %d\nOfmapSramSzkB: %d\n"
            "IfmapOffset: 0\nFilterOffset: 10000000\nOfmapOffset: 20000000\nBandwidth : %d\nDataflow : %s\n"
            "MemoryBanks: 1\n\n[run_presets]\nInterfaceBandwidth: %s\n"
            % (rows, cols, sram_kb[0], sram_kb[1], sram_kb[2], bandwidth or 10, df, mode))


def demand_lines(gemm_mnk, rows, cols, df):
    """How many demand lines SCALE-Sim walks (its run time grows with them)."""
    m, n, k = gemm_mnk
    sr, sc, t = {"os": (m, n, k), "ws": (k, n, m), "is": (k, m, n)}[df]
    per_fold = t + rows + cols - 2 if df == "os" else 2 * rows + cols + t - 2
    return math.ceil(sr / rows) * math.ceil(sc / cols) * per_fold


def as_gemm(name):
    """SCALE-Sim's GEMM view of a layer: M output pixels (its output size
    ceil((H - R + s) / s), no padding), N filters, K the window."""
    if name in GEMMS:
        return GEMMS[name]
    h, w, r, s, c, f, st = CONVS[name]
    oh = -(-(h - r + st) // st)
    ow = -(-(w - s + st) // st)
    return (oh * ow, f, r * s * c)


RUNNER = r"""
import sys
sys.path.insert(0, sys.argv[1])
from scalesim.scale_sim import scalesim
s = scalesim(save_disk_space=True, verbose=False, config=sys.argv[2], topology=sys.argv[3],
             input_type_gemm=sys.argv[4] == 'gemm')
s.run_scale(top_path=sys.argv[5])
"""


def run_scalesim(src, topology, config, gemm, workdir):
    """Runs SCALE-Sim on one topology file; returns its COMPUTE_REPORT rows
    (the printed fields, as text) and the child's CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = os.path.join(workdir, "out")
    subprocess.run(["/usr/bin/python3", "-c", RUNNER, src, config, topology, "gemm" if gemm else "conv", out],
                   check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rows = []
    with open(os.path.join(out, "golden", "COMPUTE_REPORT.csv")) as f:
        next(f)
        for line in f:
            fields = [x.strip() for x in line.split(",")]
            if fields and fields[0] != "":
                rows.append(fields[1:6])
    return rows, cpu


def write_csv(path, header, rows):
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scalesim_src")
    ap.add_argument("--out", default=os.path.join(REPO, "tests", "golden", "scalesim"))
    ap.add_argument("--only", nargs="*", help="only these case names (layer@RxC/df)")
    ap.add_argument("--skip-resnet50", action="store_true")
    ap.add_argument("--resnet50-only", action="store_true")
    ap.add_argument("--estimate", action="store_true")
    args = ap.parse_args()

    def case_name(c):
        name = "%s@%dx%d/%s" % c[:4]
        return name + ("/sram%d-%d-%d/bw%d" % c[4:8] if len(c) > 4 else "")

    cases = [c for c in CASES if (not args.only or case_name(c) in args.only) and not args.resnet50_only]
    if args.estimate:
        total = 0
        for c in cases:
            lines = demand_lines(as_gemm(c[0]), c[1], c[2], c[3])
            total += lines
            print("%-48s %10d lines" % (case_name(c), lines))
        print("%d cases, %d lines" % (len(cases), total))
        return 0

    os.makedirs(args.out, exist_ok=True)
    total_cpu = 0.0
    if cases:
        total_cpu = run_cases(args, cases, case_name)
    if not args.skip_resnet50 and not args.only:
        total_cpu += run_resnet50(args)
    print("total %.1f s CPU" % total_cpu, file=sys.stderr)
    return 0


def run_cases(args, cases, case_name):
    header = ["case", "rows", "cols", "dataflow", "ifmap_sram_kb", "filter_sram_kb", "ofmap_sram_kb",
              "bandwidth"] + LAYER_FIELDS + REPORT_FIELDS
    # With --only, the other cases keep the rows the file has.
    key = lambda r: tuple(str(x) for x in r[:8])
    kept = {}
    path = os.path.join(args.out, "cases.csv")
    if args.only and os.path.exists(path):
        with open(path) as f:
            reader = csv.reader(f)
            next(reader)
            kept = {key(r): r for r in reader}
    out_rows = []
    total_cpu = 0.0

    def config_key(c):
        sram = tuple(c[4:7]) if len(c) > 4 else SRAM_KB
        return key([c[0], c[1], c[2], c[3], sram[0], sram[1], sram[2], (c[7] if len(c) > 4 else 0) or "CALC"])

    for c in CASES:
        if c in cases:
            continue
        if config_key(c) in kept:
            out_rows.append(kept[config_key(c)])
    for c in cases:
        name, rows, cols, df = c[:4]
        sram = tuple(c[4:7]) if len(c) > 4 else SRAM_KB
        bw = c[7] if len(c) > 4 else 0
        with tempfile.TemporaryDirectory() as d:
            topo = os.path.join(d, "topology.csv")
            cfg = os.path.join(d, "config.cfg")
            open(topo, "w").write(topology_text(name))
            open(cfg, "w").write(config_text(rows, cols, df, sram, bw))
            report, cpu = run_scalesim(args.scalesim_src, topo, cfg, name in GEMMS, d)
        total_cpu += cpu
        layer = layer_row(name)
        out_rows.append([name, rows, cols, df, sram[0], sram[1], sram[2], bw or "CALC"] +
                        [layer.get(k, "") for k in LAYER_FIELDS] + report[0])
        print("%-48s total %s stall %s  (%.1f s CPU, %.0f s so far)" %
              (case_name(c), report[0][0], report[0][1], cpu, total_cpu), file=sys.stderr, flush=True)
        order = {config_key(x): i for i, x in enumerate(CASES)}
        out_rows.sort(key=lambda r: order.get(key(r), len(order)))
        write_csv(path, header, out_rows)
    return total_cpu


def run_resnet50(args):
    """SCALE-Sim's own topologies/mlperf/Resnet50.csv, every layer, on 32x32 os."""
    topo = os.path.join(args.scalesim_src, "topologies", "mlperf", "Resnet50.csv")
    names = []
    for i, line in enumerate(open(topo)):
        fields = [x.strip() for x in line.split(",")]
        if i > 0 and fields[0]:
            names.append(fields[:8])
    with tempfile.TemporaryDirectory() as d:
        cfg = os.path.join(d, "config.cfg")
        open(cfg, "w").write(config_text(32, 32, "os", SRAM_KB, 0))
        report, cpu = run_scalesim(args.scalesim_src, topo, cfg, False, d)
    assert len(report) == len(names), (len(report), len(names))
    rows = [[i, 32, 32, "os"] + names[i] + report[i] for i in range(len(names))]
    write_csv(os.path.join(args.out, "resnet50_32x32_os.csv"),
              ["layer_id", "rows", "cols", "dataflow", "layer", "ifmap_h", "ifmap_w", "filter_h", "filter_w", "channels", "filters",
               "stride"] + REPORT_FIELDS, rows)
    print("Resnet50.csv 32x32 os: %d layers (%.1f s CPU)" % (len(rows), cpu), file=sys.stderr)
    return cpu


if __name__ == "__main__":
    sys.exit(main())
