#!/usr/bin/env bash
# The symbolizer benchmark in one command:
#
#   bash bench/symbolizer/run.sh [BUILD_DIR] [bench_symbolizer options...]
#   FUNCTIONS=200000 bash bench/symbolizer/run.sh [BUILD_DIR] ...   # the 200k-function library
#
# Builds memtracer's bench_symbolizer and memtracer-symbolize in BUILD_DIR (default build-bench,
# -j2), generates and builds the IL2CPP-like library once (cached per size: 40,000 functions by
# default in BUILD_DIR/bench-symbolizer/lib, about 10 CPU-minutes with clang -O2 -g; FUNCTIONS=N
# other sizes in lib-N, 250 functions per generated file as in the default, 200,000 about five
# times that), then prints the table of docs/benchmarks.md. Extra options go to bench_symbolizer
# (e.g. --baseline-cli OTHER_BUILD/bin/memtracer-symbolize to time another build's whole CLI in
# the same rounds).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build-bench}
shift || true
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j2 --target bench_symbolizer memtracer-symbolize
work="$build/bench-symbolizer"
functions=${FUNCTIONS:-40000}
lib="$work/lib"
[ "$functions" = 40000 ] || lib="$work/lib-$functions"
python3 "$here/gen_il2cpp_lib.py" "$lib" --functions "$functions" --files $(( (functions + 249) / 250 )) --jobs 2
exec "$build/bin/bench_symbolizer" --lib "$lib/libil2cpp_bench.so" \
  --addresses "$lib/return_addresses.txt" --workdir "$work/run" --count 400000 --reps 3 --jobs 2 "$@"
