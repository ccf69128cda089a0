#!/usr/bin/env bash
# Builds davinci-sim (installing what is missing) and runs the whole test suite.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$here/scripts/bootstrap.sh"
cd "$here/build"
ctest --output-on-failure -j"${JOBS:-$(nproc 2>/dev/null || echo 2)}" "$@"
