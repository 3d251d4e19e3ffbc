#!/bin/sh
# apple_compile.sh — compiles the runtime (or the Unity plug-in) for arm64 iOS with clang against
# the Apple declarations stand-in (tests/apple-sdk-shim), then checks that the Apple branches were
# the ones compiled and, for the runtime, links it as a dylib and checks every symbol it needs.
# See docs/runtime.md, "Apple compile check", for what this does and does not prove.
#
#   apple_compile.sh runtime|unity CLANGXX NM SHIM REPO OUTDIR
set -eu
what=$1 cxx=$2 nm=$3 shim=$4 repo=$5 out=$6
rm -rf "$out"
mkdir -p "$out"
flags="-target arm64-apple-ios14.0 -isysroot $shim -std=c++20 -fno-exceptions -fno-rtti -fvisibility=hidden
  -fvisibility-inlines-hidden -fno-omit-frame-pointer -Wall -Wextra -DMEMTRACER_VERSION=\"apple-check\"
  -I$repo/runtime/include -I$repo/runtime/src -I$repo/trace/include -I$repo/trace/src"
fail=0

compile() {  # compile SOURCE: one object per source, every error printed
    obj="$out/$(basename "$1" .cpp).o"
    # shellcheck disable=SC2086
    if ! "$cxx" $flags -c "$1" -o "$obj"; then
        echo "FAIL: $1 does not compile for arm64-apple-ios14.0" >&2
        fail=1
    fi
}

needs() {  # needs OBJECT SYMBOL...: the object must reference each (proof its Apple branch was built)
    obj=$1
    shift
    for s in "$@"; do
        if ! "$nm" -u "$out/$obj" | grep -qx "_$s"; then
            echo "FAIL: $obj does not call $s: its __APPLE__ branch was not compiled" >&2
            fail=1
        fi
    done
}

if [ "$what" = unity ]; then
    for f in "$repo"/runtime/unity/*.cpp; do compile "$f"; done
    [ $fail = 0 ] || exit 1
    echo "runtime/unity compiled for arm64-apple-ios14.0: $(ls "$out" | tr '\n' ' ')"
    exit 0
fi

# The runtime's sources as runtime/src/CMakeLists.txt picks them for a normal (not NOOP) build,
# plus the encoder objects it links from trace/ (trace/CMakeLists.txt: encode.cpp, encode_events.cpp, crc_fast.cpp).
# unwind_libunwind.cpp is built without MT_HAVE_LIBUNWIND, as on iOS (Apple's libunwind has no
# unw_backtrace).
for f in "$repo"/runtime/src/*.cpp "$repo"/trace/src/encode.cpp "$repo"/trace/src/encode_events.cpp "$repo"/trace/src/crc_fast.cpp; do
    case $(basename "$f") in
        noop.cpp) continue ;;
    esac
    compile "$f"
done
[ $fail = 0 ] || exit 1

needs modules_apple.o _dyld_image_count _dyld_get_image_header _dyld_get_image_vmaddr_slide _dyld_get_image_name
needs slots.o pthread_get_stackaddr_np pthread_get_stacksize_np pthread_threadid_np
needs frames.o pthread_cond_timedwait_relative_np
needs info.o sysctlbyname getprogname

# Link as the dylib a game would load; undefined symbols resolve at load time, so each is checked
# here: a libSystem function the stand-in declares, or one of the few symbols the compiler
# itself emits calls to. Nothing from libc++ / libc++abi may appear, and nothing of Boehm's: the
# runtime reaches the GC only through a patched libil2cpp's bridge (ld64 refuses an undefined
# weak symbol, so a GC_* reference would break every iOS link without the patch).
# shellcheck disable=SC2086
"$cxx" -target arm64-apple-ios14.0 -isysroot "$shim" -shared -fuse-ld=lld -nostdlib \
    -Wl,-undefined,dynamic_lookup -o "$out/libmemtracer.dylib" "$out"/*.o
compiler_emitted=" ___error ___stack_chk_fail ___stack_chk_guard __tlv_bootstrap _bzero "
for s in $("$nm" -u "$out/libmemtracer.dylib"); do
    name=${s#_}
    case $name in GC_*) echo "FAIL: the runtime references Boehm's $name" >&2; fail=1; continue ;; esac
    case $compiler_emitted in *" $s "*) continue ;; esac
    if ! grep -rqw -- "$name" "$shim/usr/include"; then
        echo "FAIL: the runtime needs $name, which no Apple header of the stand-in declares" >&2
        fail=1
    fi
done
[ $fail = 0 ] || exit 1
echo "runtime compiled and linked for arm64-apple-ios14.0 ($(ls "$out"/*.o | wc -l) objects);" \
     "undefined: $("$nm" -u "$out/libmemtracer.dylib" | wc -l) symbols, all accounted for"
