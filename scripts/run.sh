#!/usr/bin/env bash
# Runs davinci-sim, building it first if needed (the binary only, not the
# tests; build output goes to stderr).
# With no arguments: the main job, the 2048x2048x2048 GEMM on the built-in
# default hardware (the user documents' cluster).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$here/scripts/bootstrap.sh" davinci-sim >&2
if (($# == 0)); then
  set -- "$here/models/gemm_2048.pto"
fi
exec "$here/build/davinci-sim" "$@"
