#!/bin/sh
# seam_link_test.sh FORMAT CLANG NM REPO WORKDIR (FORMAT msvc: compile check only) — links a libil2cpp stand-in (patched or not)
# with the MemTracer runtime's side of the seam in the same image or in its own, for FORMAT
# macho (arm64-apple-ios14.0, ld64.lld: refuses undefined weak symbols) or elf (x86_64 Linux),
# and fails on any undefined symbol other than the system's (dlsym), on any exported Boehm
# symbol, and if a patched image lacks il2cpp_memtracer_bridge. A control shows the check bites:
# the old hook (a weak reference to mt_on_alloc) must not link as Mach-O.
set -euf  # -f: the export patterns (il2cpp_*) are not file globs
FORMAT=$1 CC=$2 NM=$3 REPO=$4 WORK=$5
HERE=$(cd "$(dirname "$0")" && pwd)
rm -rf "$WORK" && mkdir -p "$WORK/include/memtracer"
# The headers where the patch script puts them (libil2cpp/memtracer/), plus the runtime's.
cp "$REPO/bdwgc-patches/memtracer_il2cpp_hooks.h" "$REPO/runtime/include/memtracer/il2cpp_bridge.h" \
   "$REPO/runtime/include/memtracer/memtracer.h" "$WORK/include/memtracer/"

if [ "$FORMAT" = msvc ]; then
    # Windows standalone players build libil2cpp with MSVC: the patched block must compile there,
    # with every __attribute__ and __atomic builtin behind its guard (poisoned here).
    for patched in 0 1; do
        $CC --target=x86_64-pc-windows-msvc -fms-compatibility -ffreestanding -fsyntax-only -Werror \
            -D__attribute__=MSVC_HAS_NO___attribute__ -D__atomic_load_n=MSVC_HAS_NO___atomic_load_n \
            -D__atomic_store_n=MSVC_HAS_NO___atomic_store_n -DMT_PATCHED=$patched -I"$WORK/include" \
            "$HERE/il2cpp_standin.cpp"
    done
    echo "ok: the hooks header compiles for x86_64-pc-windows-msvc"
    exit 0
elif [ "$FORMAT" = macho ]; then
    TARGET="-target arm64-apple-ios14.0"; P=_; EXT=dylib
    SYSTEM="-Wl,-U,_dlsym"                       # the only system symbol; nothing else may stay undefined
    exports() { printf '%s\n' "$@" | sed 's/^/_/' > "$WORK/exports.txt"; echo "-Wl,-exported_symbols_list,$WORK/exports.txt"; }
else
    TARGET="-target x86_64-linux-gnu"; P=; EXT=so
    SYSTEM=""
    exports() { { echo "{ global:"; printf '  %s;\n' "$@"; echo "local: *; };"; } > "$WORK/exports.map"; echo "-Wl,--version-script=$WORK/exports.map"; }
fi
CFLAGS="$TARGET -ffreestanding -fPIC -O1 -fvisibility=hidden -I$WORK/include"
CXXFLAGS="$CFLAGS -std=c++11 -fno-exceptions -fno-rtti -nostdinc++"
LINK="$TARGET -shared -nostdlib -fuse-ld=lld $SYSTEM"

$CC $CFLAGS -c "$HERE/gc_standin.c" -o "$WORK/gc.o"
$CC $CFLAGS -c "$HERE/il2cpp_api_standin.c" -o "$WORK/api.o"
$CC $CFLAGS -c "$HERE/runtime_standin.c" -o "$WORK/runtime.o"

fail() { echo "FAIL: $*" >&2; exit 1; }
check_image() {  # image, what it is
    undefined=$($NM -u "$1" | awk '{print $NF}' | sort -u | grep -v "^${P}dlsym\$" || true)
    [ -z "$undefined" ] || fail "$2: undefined symbols other than the system's: $undefined"
    gc=$($NM -g --defined-only "$1" | awk '{print $NF}' | grep "^${P}GC_" || true)
    [ -z "$gc" ] || fail "$2: exports Boehm's $gc"
}

for patched in 0 1; do
    $CC $CXXFLAGS -DMT_PATCHED=$patched -c "$HERE/il2cpp_standin.cpp" -o "$WORK/il2cpp$patched.o"
    for together in 0 1; do
        what="patched=$patched runtime-in-image=$together ($FORMAT)"
        img="$WORK/UnityFramework-$patched-$together.$EXT"
        objs="$WORK/il2cpp$patched.o $WORK/gc.o $WORK/api.o"
        names="il2cpp_*"
        if [ $together = 1 ]; then objs="$objs $WORK/runtime.o"; names="il2cpp_* mt_*"; fi
        # shellcheck disable=SC2086
        $CC $LINK $(exports $names) -o "$img" $objs || fail "$what: does not link"
        check_image "$img" "$what"
        if [ $together = 0 ]; then
            # shellcheck disable=SC2086
            $CC $LINK $(exports "mt_*") -o "$WORK/libmemtracer-$patched.$EXT" "$WORK/runtime.o" \
                || fail "$what: the runtime alone does not link"
            check_image "$WORK/libmemtracer-$patched.$EXT" "$what, runtime image"
        fi
        bridge=$($NM -g --defined-only "$img" | awk '{print $NF}' | grep -c "^${P}il2cpp_memtracer_bridge\$" || true)
        [ "$bridge" = "$patched" ] || fail "$what: il2cpp_memtracer_bridge exported $bridge times"
        echo "ok: $what"
    done
done

if [ "$FORMAT" = macho ]; then
    # Control: a weak undefined reference across the seam (the previous hook) must be refused.
    printf 'extern "C" void mt_on_alloc(void*, void*, unsigned long) __attribute__((weak));\nextern "C" __attribute__((visibility("default"))) void il2cpp_x(void *o) { if (&mt_on_alloc) mt_on_alloc(o, o, 8); }\n' \
        > "$WORK/weak.cpp"
    $CC $CXXFLAGS -c "$WORK/weak.cpp" -o "$WORK/weak.o"
    if $CC $LINK -o "$WORK/weak.$EXT" "$WORK/weak.o" 2> "$WORK/weak.log"; then
        fail "control: a weak undefined mt_on_alloc linked; the check would not catch it"
    fi
    grep -q "mt_on_alloc" "$WORK/weak.log" || fail "control: refused for another reason: $(cat "$WORK/weak.log")"
    echo "ok: control (an undefined weak mt_on_alloc is refused by ld64.lld)"
fi
