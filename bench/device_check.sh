#!/usr/bin/env bash
# One call on a lent many-core machine (docs/benchmarks.md): the whole game traced/untraced for
# 1, 3, 7 and 15 job workers (bench/game_overhead.sh, a base build's traced runs interleaved
# against the same untraced baseline) and bench_runtime of both builds, back to back; on request
# (MT_DEVICE_PARTS, below) a session-sized ingest and the symbolizer cold/warm, both builds.
#   bash bench/device_check.sh NEW_DIR BASE_DIR
# Each DIR holds bin/memtracer-sample-game, bin/bench_runtime, lib/libmemtracer.so and
# lib/libGameAssembly-patch.so (the game finds its GameAssembly in ../lib); DIR/../syslib, if
# present, holds the shared libraries the machine may lack (libgc, libunwind). Environment as
# bench/game_overhead.sh (MT_GAME_FRAMES, MT_GAME_REPS, MT_GAME_WORKERS); MT_BENCH_REPS for
# bench_runtime (default 7). MT_DEVICE_PARTS picks the parts (default "game runtime"; "ingest":
# a session-sized run recorded by NEW's game, then ingested by both builds' memtracer-symbolize,
# bench/store/ingest_ab.sh, MT_INGEST_REPS rounds (default 5). memtracer-symbolize links LLVM
# statically by default (MT_LLVM_STATIC_CLI): no LLVM needed there; DIR/../syslib/bin may hold GNU
# time and sqlite3;
# MT_SESSION_FRAMES, default 50000. "symbolize": bench/symbolizer/cold_warm_ab.sh on MT_SYM_LIB
# with the runs MT_SYM_RUN1 and MT_SYM_RUN2, MT_SYM_REPS rounds (default 3), 2 and all jobs.)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
new=$(cd "$1" && pwd)
base=$(cd "$2" && pwd)
if [ -d "$new/../syslib" ]; then
  syslib=$(cd "$new/../syslib" && pwd)
  export LD_LIBRARY_PATH="$syslib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" PATH="$syslib/bin:$PATH"
fi
parts=" ${MT_DEVICE_PARTS:-game runtime} "
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
if [[ $parts == *" game "* ]]; then
  echo "== whole game (new = $new, base = $base)"
  BASE_BUILD=$base bash "$root/bench/game_overhead.sh" "$new"
fi
if [[ $parts == *" runtime "* ]]; then
  for b in new base; do
    dir=$new
    [ "$b" = base ] && dir=$base
    echo "== bench_runtime, $b"
    "$dir/bin/bench_runtime" --reps "${MT_BENCH_REPS:-7}"
  done
fi
if [[ $parts == *" ingest "* ]]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  echo "== session-sized run (new's game: ${MT_SESSION_FRAMES:-50000} frames, 7 workers, --gc-events)"
  "$new/bin/memtracer-sample-game" --frames "${MT_SESSION_FRAMES:-50000}" --workers 7 --seed 3 --gc-events --quiet \
    --runtime-lib "$new/lib/libmemtracer.so" --out "$work/session.mt"
  echo "== session ingest, base = $base, new = $new"
  MT_INGEST_ARGS="--elf $new/lib/libGameAssembly-patch.so" bash "$root/bench/store/ingest_ab.sh" \
    "$work/session.mt" "$new/bin/memtracer-sample-game" "$base" "$new" "${MT_INGEST_REPS:-5}"
fi
if [[ $parts == *" symbolize "* ]]; then
  echo "== symbolizer cold and warm, base = $base, new = $new"
  bash "$root/bench/symbolizer/cold_warm_ab.sh" "${MT_SYM_LIB:?the symbolize part needs MT_SYM_LIB}" \
    "${MT_SYM_RUN1:?the symbolize part needs MT_SYM_RUN1}" "${MT_SYM_RUN2:?the symbolize part needs MT_SYM_RUN2}" "$base" "$new" \
    "${MT_SYM_REPS:-3}"
fi
