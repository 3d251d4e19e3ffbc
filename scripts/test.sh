#!/usr/bin/env bash
# Runs every MemTracer test on this machine: installs what is missing, builds, and runs
# Tests carry their folder as a CTest label (runtime, reader, unity, patches, sample-game,
# symbolizer, viewer, fuzz); the later stages select by label.
#   host      the full build and every CTest test (runtime, reader, Unity entry, patch layer,
#             sample game, symbolizer, viewer, browser)
#   arm64     the runtime, reader and sample game cross-built for aarch64 and run under qemu-user
#   asan      runtime + reader tests under AddressSanitizer and UndefinedBehaviorSanitizer
#   tsan      runtime tests under ThreadSanitizer
#   fuzz      each libFuzzer target for a short bounded run on its seed corpus
# MEMTRACER_TEST_STAGES="host arm64" picks stages; the default runs them all. Exit 0 only when
# every stage passed. The last line is the plain "N passed, N failed" total.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
stages=${MEMTRACER_TEST_STAGES:-host arm64 asan tsan fuzz}
jobs=$(nproc)
passed=0 failed=0 failed_stages=()

bash scripts/install-deps.sh || exit 1

# ctest_stage NAME BUILD_DIR CTEST_ARGS...: runs ctest, adds its counts to the totals.
ctest_stage() {
  local name=$1 dir=$2; shift 2
  local log=$dir/ctest-$name.log
  ctest --test-dir "$dir" --output-on-failure -j"$jobs" "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  local line p f
  line=$(grep -E "tests passed, [0-9]+ tests failed out of [0-9]+" "$log" | tail -1)
  if [[ -n $line ]]; then
    f=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/' <<<"$line")
    p=$(( $(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$line") - f ))
    passed=$((passed + p)); failed=$((failed + f))
  fi
  if [[ $rc != 0 || -z $line ]]; then failed_stages+=("$name"); [[ -z $line ]] && failed=$((failed + 1)); fi
}

configure_build() {  # configure_build DIR TARGETS... -- CMAKE_ARGS...
  local dir=$1; shift
  local targets=() args=()
  while (($#)) && [[ $1 != -- ]]; do targets+=("$1"); shift; done
  (($#)) && shift; args=("$@")
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${args[@]}" >/dev/null || return 1
  if ((${#targets[@]})); then
    cmake --build "$dir" -j"$jobs" --target "${targets[@]}"
  else
    cmake --build "$dir" -j"$jobs"
  fi
}

stage_host() {
  configure_build build -- || { failed_stages+=(host-build); failed=$((failed + 1)); return; }
  ctest_stage host build
}

stage_arm64() {
  configure_build build-arm64 -- -DCMAKE_TOOLCHAIN_FILE="$root/cmake/aarch64-linux-gnu.cmake" \
      -DMEMTRACER_HOST_TOOLS=OFF -DMEMTRACER_BENCH=OFF -DMEMTRACER_LIBUNWIND=OFF \
    || { failed_stages+=(arm64-build); failed=$((failed + 1)); return; }
  ctest_stage arm64 build-arm64 -L "runtime|trace|reader|sample-game"
}

stage_asan() {
  configure_build build-asan -- -DMEMTRACER_SANITIZE=address,undefined -DMEMTRACER_HOST_TOOLS=OFF \
      -DMEMTRACER_BENCH=OFF -DMEMTRACER_SAMPLE_GAME=ON \
    || { failed_stages+=(asan-build); failed=$((failed + 1)); return; }
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 ctest_stage asan build-asan -L "runtime|trace|reader|unity|sample-game"
}

stage_tsan() {
  configure_build build-tsan -- -DMEMTRACER_SANITIZE=thread -DMEMTRACER_HOST_TOOLS=OFF \
      -DMEMTRACER_BENCH=OFF -DMEMTRACER_SAMPLE_GAME=OFF \
    || { failed_stages+=(tsan-build); failed=$((failed + 1)); return; }
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 ctest_stage tsan build-tsan -L "runtime"
}

stage_fuzz() {
  configure_build build-fuzz mt_fuzzers -- -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
      -DMEMTRACER_FUZZ=ON -DMEMTRACER_BENCH=OFF -DMEMTRACER_TESTS=ON \
    || { failed_stages+=(fuzz-build); failed=$((failed + 1)); return; }
  ctest_stage fuzz build-fuzz -L fuzz
}

for s in $stages; do
  echo "=== stage: $s ==="
  "stage_$s"
done

echo
if ((${#failed_stages[@]})); then echo "failed stages: ${failed_stages[*]}"; fi
echo "$passed passed, $failed failed"
((failed == 0 && ${#failed_stages[@]} == 0))
