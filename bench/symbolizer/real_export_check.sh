#!/usr/bin/env bash
# Agreement of memtracer's C# file:line with Unity's own source mapping on a real Unity export.
#   bash bench/symbolizer/real_export_check.sh EXPORT_DIR [BUILD_DIR] [--cpp-root DIR]
# EXPORT_DIR: an iOS Xcode export (or its Il2CppOutputProject/Source/il2cppOutput, or Symbols/)
# holding the generated *.cpp and Symbols/LineNumberMappings.json (il2cpp --emit-source-mapping).
# Unity's files are read where they are; nothing is copied into this repository.
set -euo pipefail
export_dir=${1:?usage: real_export_check.sh EXPORT_DIR [BUILD_DIR] [--cpp-root DIR]}
build=${2:-build}
shift $(( $# >= 2 ? 2 : 1 ))
root=$(cd "$(dirname "$0")/../.." && pwd)
cmake --build "$root/$build" --target real_export_check -j2 >/dev/null
"$root/$build/bin/real_export_check" "$export_dir" "$@"
