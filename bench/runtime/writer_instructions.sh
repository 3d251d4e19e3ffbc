#!/usr/bin/env bash
# writer_instructions.sh — the writer thread's instructions per ring record, counted by
# valgrind's callgrind in `bench_runtime --writer-only` (200 frames x 5,000 allocations in events
# mode, then the same in aggregate mode: 2,000,000 records), for this build and optionally a
# baseline build. An instruction count does not depend on the machine's load, so it is the figure
# to compare on a shared machine where the writer's CPU time is noise (docs/benchmarks.md, issue
# 22 third session); it is not a time. Needs valgrind (scripts/install-deps.sh).
#
#   bench/runtime/writer_instructions.sh [BUILD_DIR] [BASE_BUILD_DIR]
set -euo pipefail
build=${1:-build}
base=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

count() {  # count NAME BENCH_BINARY: prints the writer's instructions per record
  local out=$tmp/$1.out
  valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect='mt::rt::Writer::iterate*' \
    "$2" --writer-only >/dev/null 2>"$tmp/$1.log" || { cat "$tmp/$1.log" >&2; return 1; }
  local ir
  ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out")
  awk -v n="$1" -v ir="$ir" 'BEGIN { printf "%-5s %12d instructions in the writer thread, %.1f per record\n", n, ir, ir / 2000000 }' >&2
  echo "$ir"
}

new=$(count new "$build/bin/bench_runtime")
if [[ -n $base ]]; then
  old=$(count base "$base/bin/bench_runtime")
  awk -v a="$new" -v b="$old" 'BEGIN { printf "new / base: %.2fx\n", a / b }'
fi
