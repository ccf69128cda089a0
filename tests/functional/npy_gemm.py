#!/usr/bin/python3
"""The issue's acceptance, with NumPy on the other side: davinci-sim reads
a.npy and b.npy written by NumPy, computes gemm_256, writes out/c.npy, and
NumPy's matmul of the same inputs agrees within the float16 tolerance of
docs/functional.md (|c - ref| <= 1e-2 * (|ref| + max |ref|)). Also reads a
float32 and a version-2 file. Usage: npy_gemm.py DAVINCI_SIM WORKDIR"""
import os
import subprocess
import sys

import numpy as np

sim, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
rng = np.random.default_rng(2024)
a = rng.uniform(-1, 1, (256, 256)).astype(np.float16)
b = rng.uniform(-1, 1, (256, 256)).astype(np.float16)
np.save(os.path.join(work, "a.npy"), a)
# Version 2.0 of the format, as numpy.lib.format writes it on request.
with open(os.path.join(work, "b.npy"), "wb") as f:
    np.lib.format.write_array(f, b, version=(2, 0))
out = os.path.join(work, "out")
subprocess.run([sim, "-q", "--functional", "--input", "a=" + os.path.join(work, "a.npy"),
                "--input", "b=" + os.path.join(work, "b.npy"), "--outputs", out, "models/gemm_256.pto"],
               check=True)
c = np.load(os.path.join(out, "c.npy"))
assert c.dtype == np.float16 and c.shape == (256, 256), (c.dtype, c.shape)
ref = np.matmul(a.astype(np.float64), b.astype(np.float64))
scale = np.abs(ref).max()
err = np.abs(c.astype(np.float64) - ref)
bad = err > 1e-2 * (np.abs(ref) + scale)
assert not bad.any(), f"{bad.sum()} elements beyond tolerance, worst {err.max()}"
print(f"gemm_256 vs numpy.matmul: max abs error {err.max():.3g} (scale {scale:.3g})")

# A float32 file where the program wants float16 is refused with exit 2.
np.save(os.path.join(work, "a32.npy"), a.astype(np.float32))
r = subprocess.run([sim, "-q", "--functional", "--input", "a=" + os.path.join(work, "a32.npy"), "models/gemm_256.pto"],
                   capture_output=True, text=True)
assert r.returncode == 2 and "float32, the program declares (256, 256) float16" in r.stderr, r.stderr
