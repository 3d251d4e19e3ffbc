#!/bin/sh
# check_exports.sh NM LIB... — the stand-in libil2cpp exports what a Unity player's does: il2cpp_*
# (and the stand-in player's mtsample_* entry points; mt_* where the runtime is linked in), no
# Boehm symbol, nothing else; and it has no undefined reference to the runtime (mt_*).
set -eu
NM=$1; shift
for lib in "$@"; do
    allowed='^(il2cpp_|mtsample_)'
    case "$lib" in *-in-game.so) allowed='^(il2cpp_|mtsample_|mt_)' ;; esac
    extra=$($NM -D --defined-only "$lib" | awk '{print $NF}' | grep -Ev "$allowed" || true)
    [ -z "$extra" ] || { echo "FAIL: $lib exports more than il2cpp's API: $extra" >&2; exit 1; }
    runtime=$($NM -D -u "$lib" | awk '{print $NF}' | grep -E '^mt_' || true)
    [ -z "$runtime" ] || { echo "FAIL: $lib references the runtime: $runtime" >&2; exit 1; }
    echo "ok: $lib"
done
