#!/usr/bin/env bash
# The benchmark harness: wall time of davinci-sim on the example models.
# Reports, never asserts. Usage: scripts/bench.sh [runs] [model.pto ...]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$here/scripts/bootstrap.sh" >/dev/null
runs=${1:-5}
shift || true
models=("$@")
((${#models[@]})) || models=("$here/models/gemm_256.pto" "$here/models/gemm_2048.pto")

printf '%-28s %14s %10s %10s %10s %14s\n' model cycles min_ms median_ms max_ms Mcycles/s
for m in "${models[@]}"; do
  times=()
  cycles=
  for ((i = 0; i < runs; i++)); do
    t0=$(date +%s%N)
    out=$("$here/build/davinci-sim" "$m")
    t1=$(date +%s%N)
    times+=($(((t1 - t0) / 1000)))
    cycles=$(sed -n 's/^total cycles *\([0-9,]*\).*/\1/p' <<<"$out" | tr -d ,)
  done
  sorted=($(printf '%s\n' "${times[@]}" | sort -n))
  n=${#sorted[@]}
  min=${sorted[0]} med=${sorted[$((n / 2))]} max=${sorted[$((n - 1))]}
  awk -v m="$(basename "$m")" -v c="$cycles" -v a="$min" -v b="$med" -v z="$max" 'BEGIN {
    printf "%-28s %14d %10.1f %10.1f %10.1f %14.1f\n", m, c, a / 1000, b / 1000, z / 1000, c / b }'
done

# The front end alone: parse and elaborate a generated 5,000-line program.
gen=$(mktemp --suffix=.pto)
/usr/bin/python3 "$here/scripts/gen_program.py" 5000 >"$gen"
times=()
for ((i = 0; i < runs; i++)); do
  t0=$(date +%s%N)
  "$here/build/davinci-sim" --dump-graph "$gen" >/dev/null
  t1=$(date +%s%N)
  times+=($(((t1 - t0) / 1000)))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
awk -v l="$(wc -l <"$gen")" -v a="${sorted[0]}" -v b="${sorted[$((${#sorted[@]} / 2))]}" 'BEGIN {
  printf "\nfront end: %d-line program, parse + elaborate + print graph: min %.1f ms, median %.1f ms\n", l, a / 1000, b / 1000 }'
rm -f "$gen"
