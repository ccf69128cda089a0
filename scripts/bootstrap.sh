#!/usr/bin/env bash
# Installs the Debian packages davinci-sim needs (only those missing), then
# configures and builds a Release build into build/.
#   scripts/bootstrap.sh            everything: the binary, the tests, the tools
#   scripts/bootstrap.sh TARGET...  only these CMake targets (scripts/run.sh
#                                   builds davinci-sim alone, in about a
#                                   quarter of the time)
# Idempotent: with everything installed and built, it only re-runs the build.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"

packages=(
  g++ cmake make pkg-config
  libsystemc-dev
  libboost-program-options-dev
  nlohmann-json3-dev
  libgtest-dev
  libonnx-dev libprotobuf-dev  # ONNX import (dsl/import/): the ONNX protobuf schema and protobuf
  python3-onnx         # the ONNX tests' models, written at test time (tests/onnx/)
  libonnx-testdata     # ONNX's backend node tests (tests/onnx/node_tests.py, ctest onnx_node_tests)
  graphviz
  python3-matplotlib   # scripts/plot_profile.py, scripts/sweep.py plots
  python3-tqdm         # scripts/sweep.py progress bar
  python3-distributed  # scripts/sweep.py --scheduler (Dask), and its tests' LocalCluster
  python3-numpy        # .npy round trip of --functional (tests/functional/npy_gemm.py)
  python3-hypothesis   # the sweep-file fuzz target (tests/fuzz/sweep_file_fuzz.py)
  time                 # GNU time: peak memory of a davinci-sim run (scripts/simrun.py)
  gtkwave  # vcd2fst and fst2vcd for the VCD tests; the viewer itself
  clang-format  # scripts/format.sh and its ctest `format`
  zlib1g-dev    # .gz outputs (sim/trace/gzip_stream.cpp)
  pybind11-dev  # the davinci_sim Python module (python/, docs/python.md)
  python3-dev   # its headers, for /usr/bin/python3
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}" >&2
  if [[ $(id -u) -ne 0 ]]; then
    sudo=sudo
  else
    sudo=
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# scripts/test.sh --sanitize needs the packages, not the Release build.
[[ -n ${DAVINCI_BOOTSTRAP_NO_BUILD:-} ]] && exit 0

jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build -j"$jobs" "${targets[@]}"
