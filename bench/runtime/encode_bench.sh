#!/usr/bin/env bash
# encode_bench.sh — the EVENTS encoder alone (encode_bench.cpp), this tree's headers against a
# base tree's (a checkout or `git archive` of it; only trace/include is read), built with the same
# flags and run interleaved on one core: median and minimum ns per event of each stream. Times, so
# noisy on a shared machine; the medians of interleaved rounds are the figure (docs/benchmarks.md,
# issue 22 ninth and tenth sessions). Every build must print the same digest of each stream's
# bytes (checked here: a mismatch fails the script).
#
#   bench/runtime/encode_bench.sh BASE_TREE [ROUNDS] [CPU]
#
# ENCODE_REAL=FILE adds a capture's stream (bench_encode_export's file, `bench_encode --real`);
# ENCODE_VARIANTS="name=TREE ..." adds more trees' headers to the interleaved rounds.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
base=$1
rounds=${2:-6}
cpu=${3:-0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
declare -A tree=([new]=$here [base]=$base)
names=(base new)
for v in ${ENCODE_VARIANTS:-}; do
  tree[${v%%=*}]=${v#*=}
  names+=("${v%%=*}")
done
for t in "${names[@]}"; do
  ${CXX:-c++} -std=c++20 -O2 -g -DNDEBUG -I "${tree[$t]}/trace/include" "$here/bench/runtime/encode_bench.cpp" -o "$tmp/$t"
done
args=()
[[ -n ${ENCODE_REAL:-} ]] && args=(--real "$ENCODE_REAL")
for ((i = 0; i < rounds; ++i)); do
  for t in "${names[@]}"; do echo "$t $(taskset -c "$cpu" "$tmp/$t" 15 "${args[@]}")"; done
done >"$tmp/runs"
python3 - "$tmp/runs" "${names[@]}" <<'PY'
import statistics as st, sys
rows = [l.split() for l in open(sys.argv[1])]
# A row: NAME then, per stream, STREAM NS "ns/event" BYTES "bytes/event" DIGEST.
def streams(r):
    return {r[i]: (float(r[i + 1]), r[i + 3], r[i + 5]) for i in range(1, len(r), 6)}
digests = {}
base = {}
for t in sys.argv[2:]:
    runs = [streams(r) for r in rows if r[0] == t]
    out = []
    for s in runs[0]:
        ns = [r[s][0] for r in runs]
        m = st.median(ns)
        base.setdefault(s, m)
        out.append(f"{s} median {m:6.2f} min {min(ns):6.2f} ({m / base[s]:.2f}x) ns/event ({runs[0][s][1]} B/event)")
        if digests.setdefault(s, runs[0][s][2]) != runs[0][s][2]:
            sys.exit(f"{t}: the {s} stream's bytes differ from base's")
    print(f"{t:8s} " + "   ".join(out) + f"   {len(runs)} runs")
print("bytes identical across builds for every stream")
PY
