#!/usr/bin/env bash
# A session-sized run: the sample game for the size of a 30-minute session (50k frames, >10M
# allocations, main thread + 7 job workers) through runtime, symbolizer and viewer, on this
# machine. Prints a Markdown section (bench/run-all puts it in docs/benchmarks.md).
#   bash bench/session.sh [BUILD_DIR] [WORK_DIR]
# MT_SESSION_FRAMES overrides the frame count (the short run for the bound is a tenth of it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
work=${2:-$build/bench/session}
frames=${MT_SESSION_FRAMES:-50000}
short=$((frames / 10))
game=$build/bin/memtracer-sample-game
mkdir -p "$work"

# peak KiB and wall seconds of a command, from GNU time.
measure() {  # measure NAME CMD...
  local name=$1; shift
  /usr/bin/time -f "%M %e" -o "$work/$name.time" "$@" >"$work/$name.out" 2>&1 \
    || { echo "bench/session.sh: '$*' failed:" >&2; tail -20 "$work/$name.out" >&2; exit 1; }
}
peak_kib() { cut -d' ' -f1 "$work/$1.time"; }
wall_s() { cut -d' ' -f2 "$work/$1.time"; }
counter() {  # counter FILE NAME: a field of the run's COUNTERS chunk
  "$build/bin/memtracer-dump" "$1" --json --frames 0 | python3 -c "import json,sys; print(json.load(sys.stdin)['counters']['$2'])"
}

args=(--workers 7 --seed 3 --gc-events --quiet)
measure untraced "$game" --frames "$frames" "${args[@]}" --no-trace
measure traced "$game" --frames "$frames" "${args[@]}" --out "$work/session.mt"
measure untraced_short "$game" --frames "$short" "${args[@]}" --no-trace
measure traced_short "$game" --frames "$short" "${args[@]}" --out "$work/short.mt"
measure aggregate "$game" --frames "$frames" "${args[@]}" --mode aggregate --out "$work/aggregate.mt"

allocs=$(counter "$work/session.mt" events_written)
dropped=$(counter "$work/session.mt" events_dropped)
agg_allocs=$(counter "$work/aggregate.mt" events_written)
size=$(stat -c %s "$work/session.mt")
agg_size=$(stat -c %s "$work/aggregate.mt")

rm -f "$work/session.db"
measure symbolize "$build/bin/memtracer-symbolize" "$work/session.mt" --elf "$game" -o "$work/session.db"
db_size=$(stat -c %s "$work/session.db")

runtime_long=$(( $(peak_kib traced) - $(peak_kib untraced) ))
runtime_short=$(( $(peak_kib traced_short) - $(peak_kib untraced_short) ))

cat <<EOF
### Session-sized run ($frames frames, 8 threads)

| figure | value |
| --- | --- |
| allocations traced (events mode) | $allocs (dropped: $dropped) |
| game wall time, untraced / traced | $(wall_s untraced) s / $(wall_s traced) s |
| runtime peak memory (traced − untraced peak RSS), $frames frames | $((runtime_long / 1024)) MiB |
| the same, $short frames (a tenth of the length) | $((runtime_short / 1024)) MiB |
| run.mt, events mode | $((size / 1048576)) MiB, $(python3 -c "print(f'{$size/$allocs:.2f}')") bytes per allocation |
| run.mt, aggregate mode | $((agg_size / 1048576)) MiB, $(python3 -c "print(f'{$agg_size/max($agg_allocs,1):.3f}')") bytes per allocation |
| symbolize + ingest (memtracer-symbolize, wall) | $(wall_s symbolize) s, peak $(( $(peak_kib symbolize) / 1024 )) MiB |
| database size | $((db_size / 1048576)) MiB |

Viewer latency on this database (query layer, in process):

\`\`\`
$("$build/bench/viewer_bench" "$work/session.db" --reps 20 2>&1)
\`\`\`
EOF
