#!/usr/bin/env bash
# One call on a lent many-core machine (docs/benchmarks.md): the whole game traced/untraced for
# 1, 3, 7 and 15 job workers (bench/game_overhead.sh, a base build's traced runs interleaved
# against the same untraced baseline) and bench_runtime of both builds, back to back.
#   bash bench/device_check.sh NEW_DIR BASE_DIR
# Each DIR holds bin/memtracer-sample-game, bin/bench_runtime, lib/libmemtracer.so and
# lib/libGameAssembly-patch.so (the game finds its GameAssembly in ../lib); DIR/../syslib, if
# present, holds the shared libraries the machine may lack (libgc, libunwind). Environment as
# bench/game_overhead.sh (MT_GAME_FRAMES, MT_GAME_REPS, MT_GAME_WORKERS); MT_BENCH_REPS for
# bench_runtime (default 7).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
new=$(cd "$1" && pwd)
base=$(cd "$2" && pwd)
[ -d "$new/../syslib" ] && export LD_LIBRARY_PATH="$(cd "$new/../syslib" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "== whole game (new = $new, base = $base)"
BASE_BUILD=$base bash "$root/bench/game_overhead.sh" "$new"
for b in new base; do
  dir=$new
  [ "$b" = base ] && dir=$base
  echo "== bench_runtime, $b"
  "$dir/bin/bench_runtime" --reps "${MT_BENCH_REPS:-7}"
done
