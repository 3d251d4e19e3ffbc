#!/usr/bin/env bash
# encode_bench.sh — the EVENTS encoder alone (encode_bench.cpp), this tree's headers against a
# base tree's (a checkout or `git archive` of it; only trace/include is read), built with the same
# flags and run interleaved on one core: median and minimum ns per event of each stream. Times, so
# noisy on a shared machine; the medians of interleaved rounds are the figure (docs/benchmarks.md,
# issue 22 ninth session).
#
#   bench/runtime/encode_bench.sh BASE_TREE [ROUNDS] [CPU]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
base=$1
rounds=${2:-6}
cpu=${3:-0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for t in new base; do
  inc=$here/trace/include
  [[ $t == base ]] && inc=$base/trace/include
  ${CXX:-c++} -std=c++20 -O2 -g -DNDEBUG -I "$inc" "$here/bench/runtime/encode_bench.cpp" -o "$tmp/$t"
done
for ((i = 0; i < rounds; ++i)); do
  for t in base new; do echo "$t $(taskset -c "$cpu" "$tmp/$t")"; done
done >"$tmp/runs"
python3 - "$tmp/runs" <<'PY'
import statistics as st, sys
for t in ("base", "new"):
    rows = [l.split() for l in open(sys.argv[1]) if l.startswith(t + " ")]
    p = [float(r[2]) for r in rows]
    g = [float(r[7]) for r in rows]
    print(f"{t:5s} periodic median {st.median(p):6.2f} min {min(p):6.2f} ns/event ({rows[0][4]} bytes/event)   "
          f"game median {st.median(g):6.2f} min {min(g):6.2f} ns/event ({rows[0][9]} bytes/event)   {len(rows)} runs")
PY
