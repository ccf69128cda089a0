#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) with Debian's clang into
# build-fuzz/ and runs each for SECONDS (default 60), as many at once as the
# machine has cores (JOBS to change it):
#   scripts/fuzz.sh [SECONDS] [TARGET...]     (no TARGET: all of them)
#   frontend      arbitrary bytes as a .pto program: lex, parse, elaborate
#   compiler      the same through the whole compiler on two machines, each
#                 program checked and its block dependencies checked for
#                 DDR races
#   config        arbitrary bytes as a hardware config (JSON)
#   program_json  arbitrary bytes as a --program-json command program
#   topology      arbitrary bytes as a --topology SCALE-Sim layer file
#   onnx          arbitrary bytes as an ONNX model (davinci-sim MODEL.onnx)
#   option_values the text of --set KEY=VALUE, --shape and --param
#   sweep_file    hostile sweep files for scripts/sweep.py's loader, drawn by
#                 python3-hypothesis (tests/fuzz/sweep_file_fuzz.py; no
#                 libFuzzer: the loader is Python)
# FUZZ_RUNS=N ends a libFuzzer target after N executions if that comes
# before SECONDS (issue 24's depth: an hour or 10 M executions, whichever
# first, is `FUZZ_RUNS=10000000 scripts/fuzz.sh 3600`).
# Seeds: the committed corpus tests/fuzz/corpus/NAME (what earlier runs
# found, minimised with libFuzzer's -merge=1), models/, configs/,
# tests/dsl/invalid, tests/fuzz/seeds and tests/fuzz/regressions; the
# corpus grows in build-fuzz/corpus/ across runs. With FUZZ_MERGE=1 the run
# ends by minimising the committed corpus and this run's together into a
# fresh tests/fuzz/corpus/NAME (the smallest set of inputs with the
# coverage of both: inputs that an earlier run kept and that add nothing
# now are dropped): commit the result. A crash, a hang (one
# input over 30 s: the front end's own limit of a million loop iterations
# takes 18 s under the fuzzing sanitizers, 1 s without), a leak or a
# sanitizer report stops with status 1 and leaves the input in
# build-fuzz/artifacts/; add it to tests/fuzz/regressions/NAME/ with the
# fix, where ctest replays it. The 30 s are wall time: a long run that
# shares the machine (niced beside a build) can starve an input past them;
# FUZZ_TIMEOUT=S raises the limit for such a run.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
all_targets=(frontend compiler config program_json topology onnx option_values sweep_file)
usage="usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (seconds per target, default 60; targets: ${all_targets[*]})"
seconds=${1:-60}
if ! [[ $seconds =~ ^[0-9]+$ ]] || ((seconds == 0)); then
  echo "$usage" >&2
  exit 2
fi
shift $(($# > 0 ? 1 : 0))
chosen=("$@")
((${#chosen[@]})) || chosen=("${all_targets[@]}")
for t in "${chosen[@]}"; do
  if [[ " ${all_targets[*]} " != *" $t "* ]]; then
    echo "scripts/fuzz.sh: no fuzz target '$t'" >&2
    echo "$usage" >&2
    exit 2
  fi
done
runs=${FUZZ_RUNS:--1}
timeout=${FUZZ_TIMEOUT:-30}
if ! [[ $timeout =~ ^[1-9][0-9]*$ ]]; then
  echo "scripts/fuzz.sh: FUZZ_TIMEOUT must be a positive number of seconds, not '$timeout'" >&2
  exit 2
fi
if ! [[ $runs =~ ^(-1|[1-9][0-9]*)$ ]]; then
  echo "scripts/fuzz.sh: FUZZ_RUNS must be a positive number of executions, not '$runs'" >&2
  exit 2
fi

# The project's own packages (and its Release build), then the fuzzing
# compiler: clang and its runtime libraries (libFuzzer, ASan, UBSan).
"$here/scripts/bootstrap.sh"
missing=()
for p in clang libclang-rt-14-dev; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  echo "fuzz: installing ${missing[*]}" >&2
  sudo=; [[ $(id -u) -ne 0 ]] && sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
targets=()
for t in "${chosen[@]}"; do [[ $t == sweep_file ]] || targets+=("$t"); done
# -g1: line tables, all a crash's stack trace prints (as the sanitized
# build of scripts/test.sh), for less compile time than -g.
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DDAVINCI_FUZZ=ON >/dev/null
((${#targets[@]} == 0)) || cmake --build build-fuzz -j"$jobs" --target "${targets[@]/#/fuzz_}"

seeds_frontend=(tests/fuzz/corpus/frontend models tests/dsl/invalid tests/fuzz/regressions/frontend)
seeds_compiler=(tests/fuzz/corpus/compiler models tests/functional tests/fuzz/regressions/compiler)
seeds_config=(tests/fuzz/corpus/config configs tests/fuzz/regressions/config)
seeds_program_json=(tests/fuzz/corpus/program_json tests/fuzz/seeds/program_json tests/fuzz/regressions/program_json)
seeds_topology=(tests/fuzz/corpus/topology tests/fuzz/seeds/topology tests/fuzz/regressions/topology)
seeds_onnx=(tests/fuzz/corpus/onnx tests/fuzz/seeds/onnx tests/onnx/hostile tests/fuzz/regressions/onnx)
seeds_option_values=(tests/fuzz/corpus/option_values tests/fuzz/seeds/option_values tests/fuzz/regressions/option_values)

# option_values' dictionary: every --set key, as --help-config lists them
# (config_params.def declares them once), and the program's --param names.
{
  "$here/build/davinci-sim" --help-config | awk 'NR > 1 && $1 ~ /^[a-z]/ { printf "\"%s=\"\n", $1 }'
  printf '"%s="\n' x layers scale fused mode
  printf '"%s"\n' true false null nan inf 1e308 -1 0 , '{' '}' '[' ']'
} >build-fuzz/option_values.dict

mkdir -p build-fuzz
status=0
summary=()

# Runs one target's command, its output to LOG; on failure shows the log's
# tail. Sets `result` to ok or FAILED.
run_logged() {
  local log=$1
  shift
  if "$@" >"$log" 2>&1; then
    result=ok
  else
    result=FAILED
    tail -n 40 "$log" >&2
  fi
}

# One target, start to end: its summary line goes to build-fuzz/NAME.summary
# and its status is the function's (the targets run side by side, below).
fuzz_one() {
  local t=$1 result=ok
  local log=build-fuzz/$t.log
  if [[ $t == sweep_file ]]; then
    echo "fuzz: sweep_file for ${seconds}s (log: $log)" >&2
    run_logged "$log" /usr/bin/python3 tests/fuzz/sweep_file_fuzz.py "$here" "$here/build/davinci-sim" \
      --examples 1000 --seconds "$seconds"
    local execs
    execs=$(grep -o '[0-9]* random examples' "$log" | grep -o '^[0-9]*' || echo '?')
    printf '%-13s %-6s examples   %-9s (hypothesis: no coverage figures)\n' sweep_file "$result" "$execs" \
      >"build-fuzz/$t.summary"
    [[ $result == ok ]]
    return
  fi
  local corpus=build-fuzz/corpus/$t
  local artifacts=build-fuzz/artifacts/$t/
  mkdir -p "$corpus" "$artifacts"
  local seeds_var="seeds_${t}[@]"
  local dict=()
  [[ -f tests/fuzz/$t.dict ]] && dict=(-dict="tests/fuzz/$t.dict")
  [[ -f build-fuzz/$t.dict ]] && dict=(-dict="build-fuzz/$t.dict")
  # The compiler reads the language the front end does.
  [[ $t == compiler ]] && dict=(-dict="tests/fuzz/frontend.dict")
  echo "fuzz: $t for ${seconds}s (log: $log)" >&2
  # The first directory receives new inputs; the others are only read.
  run_logged "$log" env ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "build-fuzz/tests/fuzz_$t" -max_total_time="$seconds" -runs="$runs" -timeout="$timeout" -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts" "${dict[@]}" "$corpus" "${!seeds_var}"
  local execs last cov ft
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
  cov=$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo '?')
  ft=$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo '?')
  if [[ -n ${FUZZ_MERGE:-} ]]; then
    # Into a fresh directory, so the result is minimal over both sets, not
    # the old corpus plus what is new; it replaces the committed one only
    # when the merge succeeded.
    local fresh=build-fuzz/merged/$t
    rm -rf "$fresh"
    mkdir -p "$fresh" "tests/fuzz/corpus/$t"
    if "build-fuzz/tests/fuzz_$t" -merge=1 -timeout="$timeout" -rss_limit_mb=2048 "$fresh" "tests/fuzz/corpus/$t" "$corpus" \
      >>"$log" 2>&1; then
      rm -rf "tests/fuzz/corpus/$t"
      mv "$fresh" "tests/fuzz/corpus/$t"
    else
      echo "fuzz: merging $t's corpus failed (log: $log)" >&2
      result=FAILED
    fi
  fi
  printf '%-13s %-6s executions %-9s cov %-6s ft %-6s corpus %s\n' "$t" "$result" "$execs" "$cov" "$ft" \
    "$(ls "$corpus" | wc -l)" >"build-fuzz/$t.summary"
  [[ $result == ok ]]
}

# Each target is one process: they run JOBS at a time (the machine's cores),
# so the whole run takes about SECONDS x targets / JOBS.
order=("${targets[@]}")
[[ " ${chosen[*]} " == *" sweep_file "* ]] && order+=(sweep_file)
declare -A pid_of
running=0
for t in "${order[@]}"; do
  if ((running >= jobs)); then
    wait -n || true
    ((running--))
  fi
  rm -f "build-fuzz/$t.summary"
  fuzz_one "$t" &
  pid_of[$t]=$!
  ((++running))
done
for t in "${order[@]}"; do
  wait "${pid_of[$t]}" || status=1
  if [[ -f build-fuzz/$t.summary ]]; then
    summary+=("$(cat "build-fuzz/$t.summary")")
  else
    summary+=("$(printf '%-13s FAILED (no summary: see build-fuzz/%s.log)' "$t" "$t")")
    status=1
  fi
done
printf 'fuzz: %s\n' "${summary[@]}"
exit $status
