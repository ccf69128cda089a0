#!/usr/bin/env bash
# Formats every C++ source of the repository with .clang-format.
#   scripts/format.sh           rewrite the files in place
#   scripts/format.sh --check   change nothing; name every place that differs, exit 1 if any
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mapfile -t files < <(git ls-files '*.cpp' '*.h')
if [[ ${1:-} == --check ]]; then
  # One process for every file: clang-format names each place that differs.
  clang-format --style=file --dry-run --Werror "${files[@]}"
  exit
fi
clang-format --style=file -i "${files[@]}"
