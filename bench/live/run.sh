#!/bin/sh
# bench/live/run.sh BUILD_DIR [REPS] — live capture figures over loopback (docs/benchmarks.md):
#  1. latency mt_frame_end -> frame stored by memtracer-capture (p50/p95), events/s and drops, with
#     the sample game (3 workers, or MT_LIVE_WORKERS) at 60 frames/s and at full speed;
#  2. the baseline beside it: the same game at full speed without live capture, alternated with (1)
#     rep by rep, so both see the same machine load;
#  3. mt_on_alloc with streaming on versus off in the same process (bench_live);
#  4. latency mt_frame_end -> frame queryable in memtracer-viewer --live (its follow ingest), the
#     game at 60 frames/s, from the viewer's /api/live (queryable_latency_ms).
# MT_LIVE_WORKERS (default 3) sets the game's job workers; 7 is the session-sized workload of
# bench/session.sh (8 allocating threads). MT_LIVE_FRAMES (default 20000): the full-speed runs' length.
set -eu
build=${1:-build}
reps=${2:-3}
workers=${MT_LIVE_WORKERS:-3}
frames=${MT_LIVE_FRAMES:-20000}
game=$build/bin/memtracer-sample-game
cap=$build/bin/memtracer-capture
dir=$(mktemp -d /tmp/mt-bench-live-XXXXXX)
trap 'rm -rf "$dir"' EXIT

# Starts the sample game listening on a free loopback port: sets gpid and port (bounded: 60 s).
start_listening_game() {  # game flags...
  rm -f "$dir/game.log"
  "$game" --listen 127.0.0.1:0 --token bench --out "$dir/game.mt" --workers "$workers" "$@" >"$dir/game.out" 2>"$dir/game.log" &
  gpid=$!
  port=""
  i=0
  while [ -z "$port" ] && [ $i -lt 1200 ]; do
    port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$dir/game.log" 2>/dev/null || true)
    [ -n "$port" ] || sleep 0.05
    i=$((i + 1))
  done
}

live() {  # label, game flags...
  label=$1; shift
  start_listening_game "$@"
  "$cap" "127.0.0.1:$port" -o "$dir/host.mt" --token bench --latency --status-interval 0 --no-commands 2>"$dir/cap.log"
  wait $gpid
  cmp -s "$dir/game.mt" "$dir/host.mt" && same=yes || same=NO
  echo "$label, live: $(grep '^latency' "$dir/cap.log"); game $(sed -n 's/.*workers.*, \([0-9.]* s\)$/\1/p' "$dir/game.out"); host file == game file: $same"
}

plain() {  # label, game flags...
  label=$1; shift
  "$game" --out "$dir/plain.mt" --workers "$workers" "$@" >"$dir/plain.out" 2>&1
  echo "$label, no live (baseline): game $(sed -n 's/.*workers.*, \([0-9.]* s\)$/\1/p' "$dir/plain.out"); $(grep -o 'recorded [0-9]*, dropped [0-9]*' "$dir/plain.out")"
}

live "60 frames/s, 1200 frames" --frames 1200 --fps 60
r=0
while [ $r -lt "$reps" ]; do
  plain "full speed, $frames frames, $workers workers" --frames "$frames"
  live "full speed, $frames frames, $workers workers" --frames "$frames"
  r=$((r + 1))
done
"$build/bin/bench_live" 2>/dev/null  # its stderr is the runtime's live log

viewer_live() {  # label, game flags...
  label=$1; shift
  rm -f "$dir/live.db" "$dir/live.mt"
  start_listening_game "$@"
  "$build/bin/memtracer-viewer" "$dir/live.db" --port 0 --quiet --live "127.0.0.1:$port" --token bench \
      --live-out "$dir/live.mt" --symbols "$build/lib" >"$dir/viewer.out" 2>"$dir/viewer.log" &
  vpid=$!
  wait $gpid
  vport=""
  status=""
  i=0
  while [ $i -lt 1200 ]; do  # until the run ended in the viewer (bounded: 60 s)
    [ -n "$vport" ] || vport=$(sed -n 's|.*http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$dir/viewer.out")
    [ -z "$vport" ] || status=$(curl -s "http://127.0.0.1:$vport/api/live" || true)
    case $status in *'"ingest":"ended"'*) break ;; esac
    sleep 0.05
    i=$((i + 1))
  done
  kill $vpid 2>/dev/null || true
  wait $vpid 2>/dev/null || true
  echo "$label, viewer --live: $(echo "$status" | sed -n 's/.*"run_frames":\([0-9]*\).*/\1 frames queryable/p'), mt_frame_end -> queryable $(echo "$status" | sed -n 's/.*"queryable_latency_ms":\({[^}]*}\).*/\1/p')"
}
viewer_live "60 frames/s, 1200 frames" --frames 1200 --fps 60
