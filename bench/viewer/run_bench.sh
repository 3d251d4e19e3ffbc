#!/usr/bin/env bash
# The viewer benchmark: per-endpoint p50/p95 through the query layer (viewer_bench), then
# throughput and latency over HTTP on loopback with wrk. Makes the 50k-frame database first if
# it is missing (minutes; never run from CTest).
#   bash bench/viewer/run_bench.sh [BUILD_DIR] [DB]
# MT_BENCH_SOURCE=game uses the sample game + symbolizer (needs both built) instead of the
# generator; MT_WRK_SECONDS sets each wrk run's length (default 5).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
db=${2:-$build/bench/viewer-bench.db}
secs=${MT_WRK_SECONDS:-5}
mkdir -p "$(dirname "$db")"

if [[ ! -f $db ]]; then
  if [[ ${MT_BENCH_SOURCE:-generator} == game ]]; then
    # 50k frames of the sample game (>10M allocations), symbolized.
    bash "$root/tests/viewer/make_real_db.sh" "$build/bin/memtracer-sample-game" \
      "$build/bin/memtracer-symbolize" "$db.d" "$build/lib" 50000
    mv "$db.d/real.db" "$db"
  else
    # Two runs of 50,000 frames, 2,000 stacks each, ~11M allocations per run (schema-true rows).
    "$build/tests/mt_make_fixture_db" "$db" --frames 50000 50000 --stacks 2000 --rows-per-frame 40 --scale 25
  fi
fi
sqlite3 "$db" "SELECT 'runs: ' || count(*) || ', frames: ' || sum(frame_count) || ', allocations: ' || sum(alloc_count) FROM runs; SELECT 'allocs rows: ' || count(*) FROM allocs;"

echo "== query layer (in process)"
"$build/bench/viewer_bench" "$db" --reps 40

echo "== HTTP on 127.0.0.1 with wrk (-t2 -c8, ${secs}s each, server --threads 2)"
port_file=$(mktemp)
"$build/bin/memtracer-viewer" "$db" --port 0 --threads 2 --quiet >"$port_file" &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$port_file"' EXIT
for _ in $(seq 50); do grep -q http "$port_file" && break; sleep 0.1; done
base=$(grep -o 'http://127.0.0.1:[0-9]*' "$port_file")
run=$(sqlite3 "$db" "SELECT min(run_id) FROM runs")
other=$(sqlite3 "$db" "SELECT max(run_id) FROM runs")
frames=$(sqlite3 "$db" "SELECT frame_count FROM runs WHERE run_id=$run")
printf '| endpoint | req/s | p50 | p99 |\n|---|---:|---:|---:|\n'
for path in "/api/runs" "/api/runs/$run/frames/$((frames / 2))" "/api/runs/$run/top" \
            "/api/runs/$run/top?group=site" "/api/compare?a=$run&b=$other" "/api/runs/$run/frames"; do
  out=$(wrk -t2 -c8 -d"${secs}s" --latency "$base$path")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1=="50%" {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  printf '| %s | %s | %s | %s |\n' "$path" "$rps" "$p50" "$p99"
done
