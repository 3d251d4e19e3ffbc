#!/usr/bin/env bash
# The whole CLI, cold then warm, a base build against this one, interleaved, at one or more job
# counts: each round runs, per build and job count, `memtracer-symbolize RUN1 -o DB --elf LIB -jN`
# into a fresh database (cold: every address new) and then RUN2 into that database (warm: every
# address from the cache). Prints median wall and CPU (user + sys) seconds and peak RSS of each,
# and the ratio of each build's medians to base's at the same job count. No llvm-symbolizer here
# (bench/symbolizer/run.sh compares with it), so this runs where LLVM is not installed, with a
# memtracer-symbolize as built by default (static LLVM: MT_LLVM_STATIC_CLI; bench/device_check.sh's
# "symbolize" part).
#   bash bench/symbolizer/cold_warm_ab.sh LIB RUN1 RUN2 BASE_BUILD NEW_BUILD [REPS] [JOBS...]
# RUN1 and RUN2: runs whose addresses lie in LIB (bench_symbolizer --keep writes such files);
# JOBS default: 2 and the machine's core count. Needs GNU time on PATH.
set -euo pipefail
[ $# -ge 5 ] || { echo "usage: bash bench/symbolizer/cold_warm_ab.sh LIB RUN1 RUN2 BASE_BUILD NEW_BUILD [REPS] [JOBS...]" >&2; exit 2; }
lib=$1 run1=$2 run2=$3 base=$4 new=$5 reps=${6:-3}
shift 5; shift || true
jobs_list=("$@")
if [ ${#jobs_list[@]} -eq 0 ]; then
  jobs_list=(2)
  [ "$(nproc)" -gt 2 ] && jobs_list+=("$(nproc)")
fi
gnu_time=$(type -P time) || { echo "cold_warm_ab.sh: needs GNU time on PATH (Debian: apt-get install time)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

one() {  # one NAME BUILD JOBS RUN REP: GNU time's "wall user sys KiB" in NAME.REP.time
  "$gnu_time" -f "%e %U %S %M" -o "$work/$1.$5.time" \
    "$2/bin/memtracer-symbolize" "$4" --elf "$lib" -j "$3" -q -o "$work/$1.db" >/dev/null 2>"$work/$1.err" \
    || { echo "cold_warm_ab.sh: $2/bin/memtracer-symbolize $4 failed:" >&2; tail -5 "$work/$1.err" >&2; exit 1; }
}
for ((i = 0; i < reps; i++)); do
  for j in "${jobs_list[@]}"; do
    for b in base new; do
      dir=$new
      [ "$b" = base ] && dir=$base
      rm -f "$work/$b-j$j.db"
      one "$b-j$j" "$dir" "$j" "$run1" "cold$i"
      one "$b-j$j" "$dir" "$j" "$run2" "warm$i"
    done
  done
done

median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
fig() {  # fig NAME KIND FIELD: median over the reps (1 wall, 4 KiB; 5 user+sys)
  cat "$work/$1".$2*.time | awk -v f="$3" '{print f == 5 ? $2 + $3 : $f}' | median
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2fx", a / b}'; }
echo "lib: $lib ($(( $(stat -c %s "$lib") / 1048576 )) MiB); $reps rounds, interleaved; $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| build | jobs | cold wall s | cold CPU s | cold peak MiB | warm wall s | warm CPU s | warm peak MiB | cold wall / base | warm wall / base |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for j in "${jobs_list[@]}"; do
  for b in base new; do
    n=$b-j$j
    echo "| $b | $j | $(fig $n cold 1) | $(fig $n cold 5) | $(( $(fig $n cold 4) / 1024 )) | $(fig $n warm 1) | $(fig $n warm 5) | $(( $(fig $n warm 4) / 1024 )) | $(ratio "$(fig $n cold 1)" "$(fig base-j$j cold 1)") | $(ratio "$(fig $n warm 1)" "$(fig base-j$j warm 1)") |"
  done
done
