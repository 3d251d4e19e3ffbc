#!/bin/bash
# compile_export.sh NATIVE LIBIL2CPP OUT SHIM — compiles what MemTracer's hook put into an export:
#   - the runtime and plug-in sources with the baked settings (NATIVE: Libraries/com.memtracer.unity/
#     MemTracer or src/main/cpp/MemTracer), with exactly the include folders the hook set up and
#     C++17 (Unity's Xcode projects use c++17; the runtime's own build uses C++20);
#   - the export's patched vm/Object.cpp ALLOC_* block and its vm/Array.cpp hook line, over a
#     reduced libil2cpp prelude, with the headers the patch put into LIBIL2CPP/memtracer/;
# for arm64-apple-ios14.0 (clang-19 against the Apple declarations stand-in, tests/apple-sdk-shim)
# and for aarch64 Linux (Debian's cross g++; Android's NDK is not on this machine). Every error is
# printed; MemTracerRegister.mm (Objective-C++ over UIKit) has no SDK here and is not compiled.
set -euo pipefail
NATIVE=$1 LIB=$2 OUT=$3 SHIM=$4
HERE=$(cd "$(dirname "$0")" && pwd)
rm -rf "$OUT" && mkdir -p "$OUT"
python3 "$HERE/../patches/extract_alloc_block.py" "$LIB/vm/Object.cpp" "$OUT/alloc_block.inc"
grep -q "MEMTRACER_ORIG_ALLOC_OBJECT" "$OUT/alloc_block.inc" || { echo "FAIL: $LIB/vm/Object.cpp is not patched" >&2; exit 1; }
: > "$OUT/array_hook.inc"  # layouts before 2020.1 (and the 6000.x fixture) have no Array.cpp hook
if [[ -f $LIB/vm/Array.cpp ]] && grep -q "GC_gcj_vector_malloc(" "$LIB/vm/Array.cpp"; then
    grep "MEMTRACER_IL2CPP_ON_ALLOC" "$LIB/vm/Array.cpp" > "$OUT/array_hook.inc" || { echo "FAIL: $LIB/vm/Array.cpp has no hook line" >&2; exit 1; }
fi
fail=0 n=0
compile() {  # compile NAME COMPILER FLAGS... SOURCE OBJECT
    local name=$1; shift
    if ! "$@" 2>"$OUT/err"; then echo "FAIL: $name: ${*: -3:1}" >&2; cat "$OUT/err" >&2; fail=1; fi
    n=$((n + 1))
}
for target in ios linux; do
    mkdir -p "$OUT/$target"
    if [[ $target == ios ]]; then
        CXX=(clang++-19 -target arm64-apple-ios14.0 -isysroot "$SHIM") CC=(clang-19 -target arm64-apple-ios14.0 -isysroot "$SHIM")
    else
        CXX=(aarch64-linux-gnu-g++) CC=(aarch64-linux-gnu-gcc)
    fi
    for f in "$NATIVE"/src/*.cpp; do
        compile "$target" "${CXX[@]}" -std=c++17 -fno-exceptions -fno-rtti -Werror=return-type -I"$NATIVE/include" -I"$NATIVE/src" -c "$f" -o "$OUT/$target/$(basename "$f").o"
    done
    compile "$target" "${CC[@]}" -std=c11 -Wall -Werror -c "$NATIVE/memtracer_settings.c" -o "$OUT/$target/memtracer_settings.o"
    compile "$target" "${CXX[@]}" -std=c++17 -Werror -I"$LIB" -I"$OUT" -c "$HERE/patched_il2cpp.cpp" -o "$OUT/$target/patched_il2cpp.o"
done
[[ $fail == 0 ]] || exit 1
echo "ok: $n compilations (runtime, baked settings, patched libil2cpp) for arm64-apple-ios14.0 and aarch64 Linux"
