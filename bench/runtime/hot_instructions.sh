#!/usr/bin/env bash
# hot_instructions.sh — the game thread's cost per allocation in bench_runtime's cells, counted by
# valgrind's callgrind (`bench_runtime --count CELL`: one thread, the counted loop alone, after a
# warm-up that binds the slot and sends the stacks). A count does not depend on the machine's load,
# so it is the figure to compare on a shared machine where the hot path's times are noise
# (docs/benchmarks.md, issue 22 tenth session); it is not a time.
#
# For each phase (alone: objects preallocated; gc: GC_MALLOC in the loop) and cell (bare, walk,
# traced, paused) it prints per allocation: instructions, conditional branches, mispredicted
# branches (valgrind's simple predictor: a pattern a real core learns may still count, e.g. the
# walk's loop exit), D1 and last-level data misses (valgrind's cache model); then the walk's and
# the tracer's overheads against the bare cell and their ratio. With a base build, the same for it
# and new / base per figure.
#
#   bench/runtime/hot_instructions.sh [BUILD_DIR] [BASE_BUILD_DIR] [KEEP_DIR]
#
# KEEP_DIR keeps the callgrind files (NAME.PHASE.CELL.cg, the game thread's part) for
# callgrind_annotate; they are made with --dump-instr=yes.
set -euo pipefail
build=${1:-build}
base=${2:-}
keep=${3:-}
allocs=${HOT_ALLOCS:-20000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[[ -n $keep ]] && mkdir -p "$keep"

# count NAME BINARY PHASE CELL: prints "Ir Bc Bm D1 LL" per allocation of that cell
count() {
  local out=$tmp/$1.$3.$4.cg
  valgrind --tool=callgrind --toggle-collect='*count_loop*' --separate-threads=yes --dump-instr=yes \
    --branch-sim=yes --cache-sim=yes --callgrind-out-file="$out" \
    "$2" --count "$4" --phase "$3" --allocs "$allocs" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  # Thread 1 is the game thread (count_loop runs there); the writer's part counts nothing.
  [[ -n $keep ]] && cp "$out-01" "$keep/$1.$3.$4.cg"
  awk -v n="$allocs" '
    /^events:/ { for (i = 2; i <= NF; ++i) col[$i] = i - 1 }
    /^summary:/ { for (i = 2; i <= NF; ++i) v[i - 1] = $i }
    END {
      printf "%.2f %.2f %.3f %.3f %.4f\n", v[col["Ir"]] / n, v[col["Bc"]] / n, (v[col["Bcm"]] + v[col["Bim"]]) / n,
        (v[col["D1mr"]] + v[col["D1mw"]]) / n, (v[col["DLmr"]] + v[col["DLmw"]]) / n
    }' "$out-01"
}

report() {  # report NAME BINARY: one table per phase; leaves NAME.PHASE.{bare,walk,traced,paused[,paused-slot]} in $tmp
  local name=$1 bin=$2 cells="bare walk traced paused"
  # paused-slot (a patched libil2cpp's hook slot, cleared by the runtime while paused): newer builds
  if "$bin" --help 2>&1 | grep -q paused-slot; then cells="$cells paused-slot"; fi
  for phase in alone gc; do
    printf '%s, %s: per allocation    instructions   branches  mispredicted  D1 misses  LL misses\n' "$name" "$phase"
    for cell in $cells; do
      count "$name" "$bin" "$phase" "$cell" >"$tmp/$name.$phase.$cell"
      read -r ir bc bm d1 ll <"$tmp/$name.$phase.$cell"
      printf '  %-30s %12s %10s %13s %10s %10s\n' "$cell" "$ir" "$bc" "$bm" "$d1" "$ll"
    done
    read -r b_ir b_bc b_bm _ <"$tmp/$name.$phase.bare"
    read -r w_ir w_bc w_bm _ <"$tmp/$name.$phase.walk"
    read -r t_ir t_bc t_bm _ <"$tmp/$name.$phase.traced"
    read -r p_ir _ <"$tmp/$name.$phase.paused"
    awk -v b="$b_ir" -v w="$w_ir" -v t="$t_ir" -v p="$p_ir" -v bm="$b_bm" -v wm="$w_bm" -v tm="$t_bm" 'BEGIN {
      printf "  walk %.1f, traced overhead %.1f instructions -> %.3fx the walk; paused %.1f; mispredicted: walk %.3f, traced %.3f\n",
        w - b, t - b, (t - b) / (w - b), p - b, wm - bm, tm - bm }'
    if [[ -f $tmp/$name.$phase.paused-slot ]]; then
      read -r s_ir _ <"$tmp/$name.$phase.paused-slot"
      awk -v b="$b_ir" -v p="$p_ir" -v s="$s_ir" 'BEGIN {
        printf "  paused: mt_on_alloc called %.1f instructions, hook slot cleared %.1f (over bare)\n", p - b, s - b }'
    fi
  done
}

report new "$build/bin/bench_runtime"
if [[ -n $base ]]; then
  report base "$base/bin/bench_runtime"
  for phase in alone gc; do
    for cell in walk traced paused; do
      read -r n_ir _ <"$tmp/new.$phase.$cell"
      read -r nb_ir _ <"$tmp/new.$phase.bare"
      read -r o_ir _ <"$tmp/base.$phase.$cell"
      read -r ob_ir _ <"$tmp/base.$phase.bare"
      awk -v p="$phase" -v c="$cell" -v n="$n_ir" -v nb="$nb_ir" -v o="$o_ir" -v ob="$ob_ir" 'BEGIN {
        printf "%-5s %-6s overhead instructions per allocation: base %.1f, new %.1f (%.3fx)\n", p, c, o - ob, n - nb,
          (o - ob) != 0 ? (n - nb) / (o - ob) : 0 }'
    done
  done
fi
