#!/usr/bin/env bash
# The symbolizer benchmark in one command:
#
#   bash bench/symbolizer/run.sh [BUILD_DIR] [bench_symbolizer options...]
#
# Builds memtracer's bench_symbolizer in BUILD_DIR (default build-bench, -j2), generates and
# builds the IL2CPP-like library once (BUILD_DIR/bench-symbolizer/lib, cached: ~40k functions,
# clang -O2 -g, a few minutes on 2 cores), then prints the table of docs/symbolizer.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build-bench}
shift || true
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j2 --target bench_symbolizer
work="$build/bench-symbolizer"
python3 "$here/gen_il2cpp_lib.py" "$work/lib" --functions 40000 --files 160 --jobs 2
exec "$build/bin/bench_symbolizer" --lib "$work/lib/libil2cpp_bench.so" \
  --addresses "$work/lib/return_addresses.txt" --workdir "$work/run" --count 400000 --reps 3 --jobs 2 "$@"
