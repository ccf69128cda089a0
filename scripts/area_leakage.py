#!/usr/bin/env python3
"""Derives the presets' area and leakage keys (configs/README.md, "Area and
leakage") from their published sources, so that each figure has one
derivation and a test can hold the configs to it.

Sources:

* Logic: the Aladdin accelerator simulator's power/area table, Synopsys
  DesignWare floating-point units characterised in a commercial 40 nm
  process ("normalized to a commercial 40g") at a 1 ns clock
  (github.com/harvard-acc/ALADDIN, commit 8fa3ec8eac06faaed1283cfa15a5f5dbddf8eec8,
  common/power_func.h: FP_SP_3STAGE_MUL_1ns_*, FP_SP_3STAGE_ADD_1ns_*).
  Aladdin has no 16-bit float multiplier: a float16 one is taken as the
  float32 one times the ratio of their energies in Horowitz's ISSCC 2014
  table (1.1 / 3.7 pJ), gates being what both follow.
* SRAM: HP Labs' CACTI 7 (github.com/HewlettPackard/cacti, commit
  1ffd8dfb10303d306ecd8d215320aea07651e878) run on each memory as a "ram"
  (a scratchpad: no tags), one bank, one read-write port of 512 bits,
  360 K, CACTI's own cache.cfg otherwise. Cells: ITRS low-standby-power
  (itrs-lstp) cells, as large on-chip SRAMs use high-threshold cells; the
  buffers the cores read every cycle (L0, L1, Unified Buffer) with
  high-performance periphery (itrs-hp), the L2, a large array read at a
  263-cycle latency, with low-standby-power periphery. A larger L2 is
  1 MiB banks (as the energy keys take it). CACTI's smallest node is
  22 nm: the 7 nm presets start there.
* Scaling between nodes: Stillmaker and Baas, "Scaling equations for the
  accurate prediction of CMOS device performance from 180 nm to 7 nm",
  Integration 58 (2017), with the tables and the rule of Accelergy's
  hwcomponents (github.com/Accelergy-Project/hwcomponents, commit
  373ccd99569512f947efecf12738a9f043d4abf8, hwcomponents/scaling/techscaling.py):
  area by the area table, leakage power as energy at the same supply
  (0.9 V). Between two of the table's nodes this script interpolates
  linearly in the node's position: 40 nm lies 5/13 of the way from 45 to
  32 nm, index 3.385. (Accelergy's own interpolation at that commit puts
  40 nm at 3.615, weighting the two nodes the other way round; it would
  give area x 1.74 and leakage x 1.28 from 40 to 45 nm, x 0.155 and
  x 0.178 from 22 to 7 nm.)

    /usr/bin/python3 scripts/area_leakage.py            # the keys, per preset
    /usr/bin/python3 scripts/area_leakage.py --check    # the configs hold them
    /usr/bin/python3 scripts/area_leakage.py --cacti DIR  # rerun CACTI (a built checkout)
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Aladdin, 40 nm, 1 ns: (area um^2, leakage mW).
FP32_MUL = (8967.113, 0.1198412)
FP32_ADD = (4361.094, 0.05311069)
FP16_OF_FP32_MUL = 1.1 / 3.7  # Horowitz: float16 and float32 multiply, pJ
LOGIC_NODE = 40

# Stillmaker and Baas as Accelergy keeps them: nodes, area factors
# AREA[from][to], and energy a*V^2 + b*V + c per node.
NODES = [130, 90, 65, 45, 32, 20, 16, 14, 10, 7]
AREA = [
    [1, 0.44, 0.23, 0.16, 0.072, 0.033, 0.03, 0.027, 0.016, 0.0092],
    [2.3, 1, 0.53, 0.35, 0.16, 0.075, 0.067, 0.061, 0.036, 0.021],
    [4.3, 1.9, 1, 0.66, 0.31, 0.14, 0.13, 0.12, 0.068, 0.039],
    [6.4, 2.8, 1.5, 1, 0.46, 0.21, 0.19, 0.17, 0.1, 0.059],
    [14, 6.1, 3.3, 2.2, 1, 0.46, 0.41, 0.38, 0.22, 0.13],
    [30, 13, 7.1, 4.7, 2.2, 1, 0.89, 0.82, 0.48, 0.28],
    [34, 15, 7.9, 5.3, 2.4, 1.1, 1, 0.91, 0.54, 0.31],
    [37, 16, 8.7, 5.8, 2.7, 1.2, 1.1, 1, 0.59, 0.34],
    [63, 28, 15, 9.8, 4.5, 2.1, 1.9, 1.7, 1, 0.58],
    [110, 48, 25, 17, 7.8, 3.6, 3.2, 2.9, 1.7, 1],
]
ENERGY = [
    (7.171, -6.709, 2.904), (4.762, -4.781, 2.092), (3.755, -4.398, 1.975), (1.103, -0.362, 0.2767),
    (0.9559, -0.7823, 0.471), (0.373, -0.1582, 0.04104), (0.2958, -0.1241, 0.03024),
    (0.2363, -0.09675, 0.02239), (0.2068, -0.09311, 0.02375), (0.1776, -0.09097, 0.02447),
]
VDD = 0.9  # the supply Horowitz's table is at, which the energy keys scale from

# CACTI's results (scripts/area_leakage.py --cacti reruns them): per
# (node nm, KiB, cells, periphery): data array area mm^2, leakage of the
# bank mW.
CACTI = {
    (45, 32, "itrs-lstp", "itrs-hp"): (0.132126, 7.58813),
    (45, 256, "itrs-lstp", "itrs-hp"): (1.1959, 17.8794),
    (45, 192, "itrs-lstp", "itrs-hp"): (1.2977, 25.1973),
    (45, 1024, "itrs-lstp", "itrs-lstp"): (4.50427, 0.254108),
    (22, 64, "itrs-lstp", "itrs-hp"): (0.105974, 2.51528),
    (22, 128, "itrs-lstp", "itrs-hp"): (0.241082, 5.03056),
    (22, 512, "itrs-lstp", "itrs-hp"): (0.812173, 13.2915),
    (22, 192, "itrs-lstp", "itrs-hp"): (0.311726, 6.57989),
    (22, 1024, "itrs-lstp", "itrs-lstp"): (1.28351, 0.247737),
}
FAST, L2_CELLS = ("itrs-lstp", "itrs-hp"), ("itrs-lstp", "itrs-lstp")

# The presets: their node, and the config whose memories each level's
# figure is taken from (scripts/area_leakage.py reads their sizes: the
# buffers of a level, KiB each). The L2 is a 1 MiB bank; the documents'
# machine has no Unified Buffer, and its figure is a 192 KiB one's, the
# 910B's size.
PRESETS = {
    "default": dict(node=45, config="configs/cluster.json", ub=[192]),
    "ascend": dict(node=7, cacti_node=22, config="configs/ascend_910b2.json"),
}
L2_BANK_KIB = 1024


def memories(preset):
    """The KiB of each buffer of each level, from the preset's config."""
    p = PRESETS[preset]
    with open(os.path.join(ROOT, p["config"])) as f:
        cfg = json.load(f)
    cube, cluster, vector = cfg.get("cube", {}), cfg.get("cluster", {}), cfg.get("vector", {})
    split = [cube[k] for k in ("l0a_kib", "l0b_kib", "l0c_kib") if cube.get(k)]
    return {"l0": split or [cube["l0_kib"]], "l1": [cluster["l1_kib"]],
            "ub": p.get("ub") or [vector["buffer_kib"]], "l2": [L2_BANK_KIB]}
LEVEL_CELLS = {"l0": FAST, "l1": FAST, "ub": FAST, "l2": L2_CELLS}


def node_index(nm):
    """The node's position in NODES, fractional between two of them."""
    for i in range(len(NODES) - 1):
        big, small = NODES[i], NODES[i + 1]
        if small <= nm <= big:
            return i + (big - nm) / (big - small)
    raise ValueError("node %s nm is outside %s..%s" % (nm, NODES[-1], NODES[0]))


def lerp2(table, x, y):
    fx, fy = math.floor(x), math.floor(y)
    cx, cy = math.ceil(x), math.ceil(y)
    tx, ty = x - fx, y - fy
    return (table[fx][fy] * (1 - tx) * (1 - ty) + table[fx][cy] * (1 - tx) * ty + table[cx][fy] * tx * (1 - ty) +
            table[cx][cy] * tx * ty)


def area_factor(from_nm, to_nm):
    return lerp2(AREA, node_index(from_nm), node_index(to_nm))


def energy_at(nm):
    x = node_index(nm)
    e = [a * VDD * VDD + b * VDD + c for a, b, c in ENERGY]
    return e[math.floor(x)] * (1 - (x - math.floor(x))) + e[math.ceil(x)] * (x - math.floor(x))


def leakage_factor(from_nm, to_nm):
    return energy_at(to_nm) / energy_at(from_nm)


def keys(preset):
    """The area (um^2) and static (nW) keys of one preset, as integers."""
    p = PRESETS[preset]
    node = p["node"]
    mul_area, mul_leak = FP32_MUL[0] * FP16_OF_FP32_MUL, FP32_MUL[1] * FP16_OF_FP32_MUL
    a_logic, l_logic = area_factor(LOGIC_NODE, node), leakage_factor(LOGIC_NODE, node)
    out = {
        # A cube MAC: a float16 multiply and the float32 add it accumulates in.
        "area.mac_um2": (mul_area + FP32_ADD[0]) * a_logic,
        "energy.mac_static_nw": (mul_leak + FP32_ADD[1]) * 1e6 * l_logic,
        # A vector unit, per byte of its width: a float32 multiply and add
        # for every 4 bytes.
        "area.vector_um2_per_byte": (FP32_MUL[0] + FP32_ADD[0]) / 4 * a_logic,
        "energy.vector_static_nw_per_byte": (FP32_MUL[1] + FP32_ADD[1]) / 4 * 1e6 * l_logic,
    }
    cacti_node = p.get("cacti_node", node)
    a_sram, l_sram = area_factor(cacti_node, node), leakage_factor(cacti_node, node)
    sizes = memories(preset)
    for level in ("l0", "l1", "ub", "l2"):
        cells = LEVEL_CELLS[level]
        for k in sizes[level]:
            if (cacti_node, k) + cells not in CACTI:
                raise SystemExit("area_leakage.py: no CACTI result for a %d KiB %s at %d nm (%s, %s): add the case "
                                 "to CACTI and rerun it with --cacti" % ((k, level, cacti_node) + cells))
        kib = sum(sizes[level])
        mm2 = sum(CACTI[(cacti_node, k) + cells][0] for k in sizes[level])
        mw = sum(CACTI[(cacti_node, k) + cells][1] for k in sizes[level])
        out["area.%s_um2_per_kib" % level] = mm2 * 1e6 / kib * a_sram
        out["energy.%s_static_nw_per_kib" % level] = mw * 1e6 / kib * l_sram
    return {k: int(round(v)) for k, v in out.items()}


def defaults(sim):
    text = subprocess.run([sim, "--help-config"], capture_output=True, text=True, check=True).stdout
    got = {}
    for line in text.splitlines():
        m = re.match(r"\s+(\S+)\s+.*?\s(\d+) (?:um2|nW)", line)
        if m:
            got[m.group(1)] = int(m.group(2))
    return got


def preset_values(path):
    with open(path) as f:
        cfg = json.load(f)
    got = {}
    for section in ("area", "energy"):
        for k, v in cfg.get(section, {}).items():
            got["%s.%s" % (section, k)] = v
    return got


def check(sim):
    bad = 0
    targets = [("default", "davinci-sim --help-config", defaults(sim))]
    for name in ("ascend_910b2.json", "ascend_910b3.json"):
        targets.append(("ascend", "configs/" + name, preset_values(os.path.join(ROOT, "configs", name))))
    for preset, where, got in targets:
        for key, want in keys(preset).items():
            if got.get(key) != want:
                print("%s: %s is %s, derived %d" % (where, key, got.get(key), want))
                bad += 1
    print("area and leakage keys: %s" % ("%d differ" % bad if bad else "all as derived"))
    return 1 if bad else 0


def run_cacti(cacti_dir):
    """Reruns every CACTI case, printing its result beside the recorded one."""
    template = open(os.path.join(cacti_dir, "cache.cfg")).read()
    replace = {
        "-block size (bytes)": "-block size (bytes) 64",
        "-associativity": "-associativity 1",
        "-output/input bus width": "-output/input bus width 512",
        "-cache type": '-cache type "ram"',
    }
    for (node, kib, cell, periph), recorded in sorted(CACTI.items()):
        fields = dict(replace)
        fields["-size (bytes)"] = "-size (bytes) %d" % (kib * 1024)
        fields["-technology (u)"] = "-technology (u) %.3f" % (node / 1000)
        for array in ("Data", "Tag"):
            fields["-%s array cell type" % array] = '-%s array cell type - "%s"' % (array, cell)
            fields["-%s array peripheral type" % array] = '-%s array peripheral type - "%s"' % (array, periph)
        lines = []
        for line in template.splitlines():
            hit = [v for k, v in fields.items() if line.strip().startswith(k)]
            lines.append(hit[0] if hit else line)
        with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as f:
            f.write("\n".join(lines) + "\n")
        out = subprocess.run([os.path.join(cacti_dir, "cacti"), "-infile", f.name], capture_output=True, text=True,
                             cwd=cacti_dir).stdout
        os.unlink(f.name)
        area = float(re.search(r"Data array: Area \(mm2\): ([\d.e+-]+)", out).group(1))
        leak = float(re.search(r"Total leakage power of a bank \(mW\): ([\d.e+-]+)", out).group(1))
        print("%2d nm %5d KiB %-9s %-9s area %.6g mm2 leakage %.6g mW (recorded %.6g, %.6g)" %
              (node, kib, cell, periph, area, leak, recorded[0], recorded[1]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="fail unless the built-in defaults and the Ascend presets "
                    "hold the derived keys")
    ap.add_argument("--sim", default=os.path.join(ROOT, "build", "davinci-sim"))
    ap.add_argument("--cacti", metavar="DIR", help="a built CACTI 7 checkout: rerun its cases")
    args = ap.parse_args()
    if args.cacti:
        run_cacti(args.cacti)
        return 0
    if args.check:
        return check(args.sim)
    for preset in PRESETS:
        print("%s (%d nm):" % (preset, PRESETS[preset]["node"]))
        for k, v in keys(preset).items():
            print("  %-36s %d" % (k, v))
    return 0


if __name__ == "__main__":
    sys.exit(main())
