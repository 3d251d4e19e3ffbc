#!/usr/bin/env bash
# writer_instructions.sh — the writer thread's instructions per ring record, counted by
# valgrind's callgrind in `bench_runtime --writer-only` (200 frames x 5,000 allocations in events
# mode, then the same in aggregate mode: 2,000,000 records), for this build and optionally a
# baseline build. An instruction count does not depend on the machine's load, so it is the figure
# to compare on a shared machine where the writer's CPU time is noise (docs/benchmarks.md, issue
# 22 third session); it is not a time. Needs valgrind (scripts/install-deps.sh).
#
# Each count also prints, per record, the conditional branches and the branches valgrind's
# branch simulator mispredicts (conditional + indirect; --branch-sim=yes). Its predictor is a
# simple table of 2-bit counters without global history, so a pattern a real core learns
# (this benchmark's sizes repeat every 8 allocations) still counts as mispredicted: the figure
# shows which branches depend on the data, not what a real core pays (issue 22, ninth session;
# bench/runtime/encode_bench.cpp times that natively). WRITER_CACHE_SIM=1 adds --cache-sim=yes
# and prints the D1 and last-level data misses per record of valgrind's cache model.
#
# The workload under valgrind is not the same from run to run (the collector's addresses, the
# ticks): the counts move by about 1%, the bytes per allocation (not printed) by more.
#
# WRITER_REPLAY=FILE counts bench_writer_replay instead (encode_bench_writer.cpp: a capture's
# events, bench_encode_export's file, replayed through mt_on_alloc by one thread per captured
# thread, WRITER_MERGE frames as one, default 13), events mode only; the records are its events.
#
#   bench/runtime/writer_instructions.sh [BUILD_DIR] [BASE_BUILD_DIR]
set -euo pipefail
build=${1:-build}
base=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

count() {  # count NAME BUILD_DIR: prints the writer's instructions per record
  local out=$tmp/$1.out
  local sim=(--branch-sim=yes)
  [[ ${WRITER_CACHE_SIM:-0} == 1 ]] && sim+=(--cache-sim=yes)
  local cmd=("$2/bin/bench_runtime" --writer-only) r=2000000
  [[ -n ${WRITER_REPLAY:-} ]] && cmd=("$2/bin/bench_writer_replay" "$WRITER_REPLAY" --merge "${WRITER_MERGE:-13}")
  valgrind --tool=callgrind "${sim[@]}" --callgrind-out-file="$out" --toggle-collect='mt::rt::Writer::iterate*' \
    "${cmd[@]}" >"$tmp/$1.stdout" 2>"$tmp/$1.log" || { cat "$tmp/$1.log" >&2; return 1; }
  [[ -n ${WRITER_REPLAY:-} ]] && r=$(awk '/^replayed/ { print $2 }' "$tmp/$1.stdout")
  # The events line names the columns of the summary line (Ir first; Bc, Bcm, Bi, Bim; D1mr...).
  awk -v n="$1" -v r="$r" '
    /^events:/ { for (i = 2; i <= NF; ++i) col[$i] = i - 1 }
    /^summary:/ { for (i = 2; i <= NF; ++i) v[i - 1] = $i }
    END {
      printf "%-5s %12d instructions in the writer thread, %.1f per record\n", n, v[col["Ir"]], v[col["Ir"]] / r > "/dev/stderr"
      printf "%-5s per record: %.2f conditional branches, %.3f mispredicted (%.3f conditional + %.4f indirect)\n", n,
        v[col["Bc"]] / r, (v[col["Bcm"]] + v[col["Bim"]]) / r, v[col["Bcm"]] / r, v[col["Bim"]] / r > "/dev/stderr"
      if ("D1mr" in col)
        printf "%-5s per record: %.3f D1 data misses (%.3f read + %.3f write), %.4f last-level data misses\n", n,
          (v[col["D1mr"]] + v[col["D1mw"]]) / r, v[col["D1mr"]] / r, v[col["D1mw"]] / r,
          (v[col["DLmr"]] + v[col["DLmw"]]) / r > "/dev/stderr"
      print v[col["Ir"]]
    }' "$out"
}

new=$(count new "$build")
if [[ -n $base ]]; then
  old=$(count base "$base")
  awk -v a="$new" -v b="$old" 'BEGIN { printf "new / base: %.2fx\n", a / b }'
fi
