#!/usr/bin/env bash
# The benchmark harness: builds Release (installing what is missing), then
# runs scripts/bench.py with the given arguments (see its --help).
#   scripts/bench.sh                      # every model, 5 runs, GEMM scaling, front end
#   scripts/bench.sh -r 3 --compare traces/bench-old.json
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$here/scripts/bootstrap.sh" >&2
exec /usr/bin/python3 "$here/scripts/bench.py" "$@"
