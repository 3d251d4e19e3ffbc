#!/usr/bin/env bash
# The main job, from a fresh Debian machine: install what is missing, build, trace the sample
# IL2CPP game into out/run.mt, summarize it, symbolize it into out/run.db, and serve it.
#   bash scripts/demo.sh                  serve until Ctrl-C
#   MEMTRACER_DEMO_FRAMES=2000 bash ...   a longer capture
#   MEMTRACER_DEMO_PORT=9000 bash ...     another port
#   MEMTRACER_DEMO_SERVE=0 bash ...       stop after symbolizing (what the smoke test runs)
#   MEMTRACER_DEMO_LIVE=1 bash ...        live instead: the game runs (MEMTRACER_DEMO_FRAMES, default
#                                         36000 = 10 min at 60 fps) listening on
#                                         MEMTRACER_DEMO_LIVE_ADDR (127.0.0.1:34999), and the viewer
#                                         watches it live (memtracer-viewer --live, docs/live.md)
set -euo pipefail
cd "$(dirname "$0")/.."
live=${MEMTRACER_DEMO_LIVE:-0}
frames=${MEMTRACER_DEMO_FRAMES:-$([[ $live == 1 ]] && echo 36000 || echo 600)}
port=${MEMTRACER_DEMO_PORT:-8080}
serve=${MEMTRACER_DEMO_SERVE:-1}
out=${MEMTRACER_DEMO_OUT:-out}

bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
mkdir -p "$out"

if [[ $live == 1 ]]; then
  addr=${MEMTRACER_DEMO_LIVE_ADDR:-127.0.0.1:34999}
  token=demo-$RANDOM$RANDOM
  echo "== 1/2 the sample game: $frames frames at 60 fps, listening on $addr (token $token)"
  build/bin/memtracer-sample-game --frames "$frames" --fps 60 --workers 3 --gc-events --listen "$addr" \
      --token "$token" --out "$out/game.mt" --quiet &
  game=$!
  trap 'kill $game 2>/dev/null || true' EXIT
  echo "== 2/2 live: open http://127.0.0.1:$port/ (Pause, Mark, Resume, Stop on the page; Ctrl-C stops)"
  rm -f "$out/live.db" "$out/live.mt"
  build/bin/memtracer-viewer "$out/live.db" --host 127.0.0.1 --port "$port" --live "$addr" --token "$token" --live-out "$out/live.mt" \
      --elf build/bin/memtracer-sample-game --elf build/lib/libGameAssembly-patch.so
  exit 0
fi

echo "== 1/4 trace: the sample game, $frames frames, main thread + 3 job workers"
build/bin/memtracer-sample-game --frames "$frames" --workers 3 --out "$out/run.mt" --gc-events --quiet

echo "== 2/4 summary of $out/run.mt"
build/bin/memtracer-dump "$out/run.mt" --frames 5

echo "== 3/4 symbolize against the game's binaries (the player and its GameAssembly, like libil2cpp.so)"
rm -f "$out/run.db"
build/bin/memtracer-symbolize "$out/run.mt" --elf build/bin/memtracer-sample-game \
    --elf build/lib/libGameAssembly-patch.so -o "$out/run.db"

if [[ $serve == 1 ]]; then
  echo "== 4/4 serve: open http://127.0.0.1:$port/ (Ctrl-C stops)"
  exec build/bin/memtracer-viewer "$out/run.db" --host 127.0.0.1 --port "$port"
fi
echo "== 4/4 skipped serving (MEMTRACER_DEMO_SERVE=0); database: $out/run.db"
