#!/usr/bin/env bash
# encode_bench_counts.sh — valgrind's counts for the EVENTS encoder alone (encode_bench.cpp), per
# event of each stream: instructions, conditional branches and the branches valgrind's simulator
# mispredicts (--branch-sim=yes: 2-bit counters without global history, so a pattern a real core
# learns still counts; docs/benchmarks.md, issue 22 ninth session). Counts, not times: the figure
# to compare on a shared machine. One encoding pass per stream (bench_encode --only NAME 1); the
# chunks' resets (a 15 KiB memset, which valgrind replaces by a byte loop) are not counted.
#
#   bench/runtime/encode_bench_counts.sh [REAL_FILE] name=TREE...   (TREE: a tree with trace/include)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
real=${1:-}
shift || true
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
streams=(periodic game)
args=()
[[ -n $real ]] && { streams+=(real); args=(--real "$real"); }
for v in "$@"; do
  n=${v%%=*}
  ${CXX:-c++} -std=c++20 -O2 -g -DNDEBUG -I "${v#*=}/trace/include" "$here/bench/runtime/encode_bench.cpp" -o "$tmp/$n"
  for s in "${streams[@]}"; do
    valgrind --tool=callgrind --branch-sim=yes --callgrind-out-file="$tmp/$n.$s" --toggle-collect='*encode_stream*' --toggle-collect='*start_chunk*' \
      "$tmp/$n" 1 "${args[@]}" --only "$s" >"$tmp/$n.$s.stdout" 2>"$tmp/$n.$s.log" || { cat "$tmp/$n.$s.log" >&2; exit 1; }
    events=$(case $s in real) "$tmp/$n" 1 "${args[@]}" --only real >/dev/null; python3 -c "
import struct,sys
d=open(sys.argv[1],'rb').read(); o=8; ns=struct.unpack_from('<Q',d,o)[0]; o+=8+24*ns
nf=struct.unpack_from('<Q',d,o)[0]; o+=8; t=0
for _ in range(nf):
    n=struct.unpack_from('<Q',d,o+8)[0]; t+=n; o+=16+56*n
print(t)" "$real";; *) echo 1000000;; esac)
    awk -v n="$n" -v s="$s" -v r="$events" '
      /^events:/ { for (i = 2; i <= NF; ++i) col[$i] = i - 1 }
      /^summary:/ { for (i = 2; i <= NF; ++i) v[i - 1] = $i }
      END { printf "%-8s %-8s per event: %6.1f instructions, %5.2f conditional branches, %.3f mispredicted\n", n, s,
              v[col["Ir"]] / r, v[col["Bc"]] / r, (v[col["Bcm"]] + v[col["Bim"]]) / r }' "$tmp/$n.$s"
  done
done
