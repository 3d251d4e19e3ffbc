#!/usr/bin/env bash
# What tracing costs the whole game: the sample game (events mode, --gc-events, main thread + N
# job workers) untraced and traced, runs interleaved, for 1, 3, 7 and 15 workers. Prints the
# median wall and CPU (user + system) seconds of each and the traced/untraced ratios, both
# measured in the same run. With BASE_BUILD, a second build's traced runs (e.g. the commit before
# a change) are interleaved too and compared against the same untraced baseline.
#   bash bench/game_overhead.sh [BUILD_DIR]
# Environment: MT_GAME_FRAMES (default 20000), MT_GAME_REPS (default 5), MT_GAME_WORKERS
# (default "1 3 7 15"), BASE_BUILD (a build dir whose bin/memtracer-sample-game is compared),
# MT_GAME_WORK (scratch dir for the traces; default a temp dir, removed at the end). Each build's
# game loads its own build's runtime (--runtime-lib): the game's default is the path it was built
# with, which would make a copied build load another build's runtime.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
frames=${MT_GAME_FRAMES:-20000}
reps=${MT_GAME_REPS:-5}
workers_list=${MT_GAME_WORKERS:-1 3 7 15}
base=${BASE_BUILD:-}
work=${MT_GAME_WORK:-$(mktemp -d)}
[ -n "${MT_GAME_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work"
game=$build/bin/memtracer-sample-game
[ -x "$game" ] || { echo "bench/game_overhead.sh: no $game (build memtracer-sample-game)" >&2; exit 1; }

# run NAME GAME ARGS...: appends "wall cpu" to $work/NAME.times
# (bash's own `time`, so the script needs no GNU time.)
run() {
  local name=$1; shift
  local TIMEFORMAT='%R %U %S'
  { time "$@" >"$work/out" 2>&1; } 2>"$work/t" \
    || { echo "bench/game_overhead.sh: '$*' failed:" >&2; tail -20 "$work/out" >&2; exit 1; }
  awk '{printf "%s %.3f\n", $1, $2 + $3}' "$work/t" >>"$work/$name.times"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2fx", a / b}'; }
# median COLUMN FILE
median() { cut -d' ' -f"$1" "$2" | sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

echo "sample game, $frames frames, events mode, --gc-events, $reps interleaved runs each; medians"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start"
printf '| workers | untraced wall s | traced wall s | wall ratio | untraced CPU s | traced CPU s | CPU ratio |'
[ -n "$base" ] && printf ' base traced wall s | base wall ratio | base CPU ratio |'
echo
printf '|---:|---:|---:|---:|---:|---:|---:|'
[ -n "$base" ] && printf -- '---:|---:|---:|'
echo
for w in $workers_list; do
  rm -f "$work"/*.times
  args=(--frames "$frames" --workers "$w" --seed 3 --gc-events --quiet)
  for ((i = 0; i < reps; ++i)); do
    run untraced "$game" "${args[@]}" --runtime-lib "$build/lib/libmemtracer.so" --no-trace
    run traced "$game" "${args[@]}" --runtime-lib "$build/lib/libmemtracer.so" --out "$work/run.mt"
    [ -n "$base" ] && run base "$base/bin/memtracer-sample-game" "${args[@]}" \
      --runtime-lib "$base/lib/libmemtracer.so" --out "$work/base.mt"
  done
  uw=$(median 1 "$work/untraced.times"); uc=$(median 2 "$work/untraced.times")
  tw=$(median 1 "$work/traced.times"); tc=$(median 2 "$work/traced.times")
  printf '| %s | %s | %s | %s | %s | %s | %s |' "$w" "$uw" "$tw" "$(ratio "$tw" "$uw")" \
    "$uc" "$tc" "$(ratio "$tc" "$uc")"
  if [ -n "$base" ]; then
    bw=$(median 1 "$work/base.times"); bc_=$(median 2 "$work/base.times")
    printf ' %s | %s | %s |' "$bw" "$(ratio "$bw" "$uw")" "$(ratio "$bc_" "$uc")"
  fi
  echo
done
