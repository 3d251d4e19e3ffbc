#!/bin/sh
# The runtime must need nothing from libstdc++ (no operator new, no exceptions, no RTTI) and its
# shared build may need only libc/libpthread/libdl/libunwind. Usage: check_link_deps.sh lib.a lib.so
set -eu
archive=$1
shared=$2
bad=$(nm -u "$archive" | awk '{print $NF}' | grep -E '^(_Zn[wa]|_Zd[la]|__cxa_|_ZSt|_ZNSt|__gxx_personality|_ZTI|_ZTV|_Unwind_Resume)' | sort -u || true)
if [ -n "$bad" ]; then
  echo "FAIL: $archive needs libstdc++ symbols:"; echo "$bad"; exit 1
fi
needed=$(readelf -d "$shared" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
for lib in $needed; do
  case $lib in
    libc.so*|libpthread.so*|libdl.so*|libunwind.so*|ld-linux*) ;;
    *) echo "FAIL: $shared needs $lib"; exit 1 ;;
  esac
done
echo "ok: no libstdc++ symbols in $(basename "$archive"); $(basename "$shared") needs: $needed"
