#!/usr/bin/env bash
# Builds davinci-sim (installing what is missing) and runs the whole test suite.
#   scripts/test.sh [CTEST ARGS...]              the Release build in build/
#   scripts/test.sh --sanitize [CTEST ARGS...]   AddressSanitizer + UndefinedBehaviorSanitizer
#                                                build in build-sanitize/ (about 5x slower),
#                                                every test but the `slow`, `python`
#                                                and `fuzz` ones, the random
#                                                differential tests on a fifth of
#                                                their seeds
# Other arguments go to ctest, e.g. scripts/test.sh -R Config, or
# scripts/test.sh -L unit (the modules' own tests, in seconds).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

if [[ ${1:-} != --sanitize ]]; then
  "$here/scripts/bootstrap.sh"
  cd "$here/build"
  exec ctest --output-on-failure -j"$jobs" "$@"
fi
shift

# Packages only: the sanitized build does not need the Release one.
DAVINCI_BOOTSTRAP_NO_BUILD=1 "$here/scripts/bootstrap.sh"
# -O1: the sanitizers' own advice (readable stacks, a fraction of -O2's
# compile time) and the build is compiled once per CI run. -g1: line tables
# only, all a sanitizer's stack trace prints (function, file, line), at
# two-thirds of -g's compile time (tiling_properties_test.cpp 56 s against 93).
cmake -S "$here" -B "$here/build-sanitize" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DDAVINCI_SANITIZE=ON >/dev/null
cmake --build "$here/build-sanitize" -j"$jobs"
# Every finding stops the process that made it (abort, so the test fails
# even where a test only looks at stdout). The suppression files list, with
# reasons, what is not ours to fix: see tests/sanitizer/README.md.
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
# use_stacks=0: LeakSanitizer's tracer scans each thread's stack range as
# ASan recorded it, and after QuickThreads' unannounced stack switches that
# range can be a coroutine stack with guard pages: the tracer then dies of
# SIGSEGV at exit (tests/sanitizer/README.md). Not scanning stacks can only
# add leak reports, never hide one.
export LSAN_OPTIONS="suppressions=$here/tests/sanitizer/lsan.supp:print_suppressions=0:use_stacks=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
cd "$here/build-sanitize"
# The `slow` tests (whole models, cross-checks: ctest -L slow lists them) run
# in the normal pass only, so CI's sanitized pass stays well inside its time.
# The `python` tests too: an uninstrumented /usr/bin/python3 cannot load an
# ASan-built module without preloading the runtime, so this build has no
# davinci_sim module (tests/CMakeLists.txt, Labels). The `fuzz` replays too:
# scripts/fuzz.sh runs every libFuzzer target's corpus, seeds and regression
# inputs under ASan and UBSan before it fuzzes (in CI, right after this
# pass); the sweep-file replays are Python, run by the normal pass.
# The random differential tests run one seed in five here (each test still
# runs, on a different two of its ten seeds: tests/oracle/seed_sample.h);
# at all their seeds they were a quarter of this pass's time (1,272 of
# 4,915 s in one run).
export DAVINCI_RANDOM_STRIDE=${DAVINCI_RANDOM_STRIDE:-5}
exec ctest --output-on-failure -j"$jobs" -LE 'slow|python|fuzz' "$@"
