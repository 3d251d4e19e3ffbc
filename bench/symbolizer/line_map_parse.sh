#!/usr/bin/env bash
# Parse time of a real Symbols/LineNumberMappings.json: the symbolizer's parser against simdjson
# On-Demand (medians and ratio).   bash bench/symbolizer/line_map_parse.sh FILE [RUNS] [BUILD_DIR]
# Unity's file is read where it is; nothing is copied into this repository.
set -euo pipefail
file=${1:?usage: line_map_parse.sh LineNumberMappings.json [RUNS] [BUILD_DIR]}
runs=${2:-15}
build=${3:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
cmake --build "$root/$build" --target line_map_parse -j2 >/dev/null
"$root/$build/bin/line_map_parse" "$file" "$runs"
