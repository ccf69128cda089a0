#!/usr/bin/python3
"""Writes a synthetic PyPTO program of about N lines (default 5000) to stdout:
a chain of @pypo.task functions with loops, conditionals and comprehensions,
for measuring the front end (scripts/bench.sh)."""
import sys

target = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
lines = ["import pypto as pypo", "",
         "x = pypo.input('x', shape=(64, 64))",
         "w = pypo.weight('w', shape=(64, 64))", ""]
i = 0
while len(lines) < target - 1:
    lines += [
        "@pypo.task(placement='cube')",
        f"def block_{i}(t, scale={i % 7 + 1}):",
        "    y = pypo.op.matmul(t, w)",
        "    for k in range(2):",
        "        y = pypo.op.add(y, t) if k % 2 == 0 else pypo.op.relu(y)",
        "    dims = [d * scale for d in y.shape]",
        "    ok = len(dims) == 2 and dims[0] >= 64",
        "    return y",
        "",
        f"x = block_{i}(x)",
    ]
    i += 1
lines.append("pypo.output('y', x)")
print("\n".join(lines))
