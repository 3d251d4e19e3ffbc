#!/usr/bin/env bash
# Installs everything MemTracer needs on a fresh Debian 12 (bookworm) machine, as root.
# Idempotent: a second run only checks. Used by the README's two commands and by .ci/run.
set -euo pipefail

want_arm64=${MEMTRACER_WANT_ARM64:-1}

pkgs=(
  build-essential cmake ninja-build pkg-config git python3
  libgc-dev catch2 libunwind-dev            # runtime + sample game + tests
  libtbb-dev libomp-19-dev                  # real ITT clients for tests/itt (oneTBB, LLVM OpenMP)
  llvm-19 llvm-19-dev clang-19 lld-19 libclang-rt-19-dev   # symbolizer, Mach-O fixtures, fuzzers
  libsqlite3-dev sqlite3 zlib1g-dev libzstd-dev           # database
  libboost-dev libboost-system-dev                        # viewer (Beast/Asio), Boost.Process
  libcli11-dev libsimdjson-dev                            # option parsing, streaming JSON
  chromium                                                # browser tests
  wrk hyperfine time valgrind                             # benchmarks (valgrind: bench/runtime/writer_instructions.sh)
  mono-mcs mono-runtime                                   # Unity package tests (C# stand-ins, tests/unity-package)
  clickhouse-server clickhouse-client                     # fleet tests (the tests start their own servers)
)
if [[ $want_arm64 == 1 ]]; then
  pkgs+=(g++-aarch64-linux-gnu qemu-user libc6-dev-arm64-cross)
fi

missing=()
# The page bundle needs node and npm; an image that already ships them (nodesource) keeps its
# own, since Debian's npm package conflicts with nodesource's nodejs.
command -v node >/dev/null && command -v npm >/dev/null || pkgs+=(nodejs npm)
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [[ $want_arm64 == 1 ]] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
  dpkg --add-architecture arm64
  missing+=(libgc-dev:arm64)
elif [[ $want_arm64 == 1 ]]; then
  dpkg-query -W -f='${Status}' libgc-dev:arm64 2>/dev/null | grep -q "ok installed" || missing+=(libgc-dev:arm64)
fi

if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# clickhouse-server's package starts a system service where it may: the tests need none (they
# start their own servers on loopback ports with their own config and data under /tmp).
if command -v systemctl >/dev/null && systemctl is-active --quiet clickhouse-server 2>/dev/null; then
  systemctl stop clickhouse-server || true
fi
echo "install-deps: all dependencies present"
