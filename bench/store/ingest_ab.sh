#!/usr/bin/env bash
# Session-sized ingest, this build against a baseline build, on one run.mt, interleaved: wall,
# CPU (user + sys) and peak RSS of memtracer-symbolize (GNU time), medians of REPS runs each, and
# whether both databases hold the same rows (every table and view both name, read in full; the
# ingest time zeroed, the schema version and the string ids left out).
#   bash bench/store/ingest_ab.sh RUN.mt GAME_ELF BASE_BUILD [BUILD] [REPS]
# Make RUN.mt once (bench/session.sh's traced step: memtracer-sample-game --frames 50000
# --workers 7 --seed 3 --gc-events --out RUN.mt) and keep it: the game takes minutes.
# MT_INGEST_ARGS: more memtracer-symbolize options for both builds (e.g. --force when GAME_ELF
# was rebuilt since the run was recorded: both builds then read the same, mismatched, symbols).
# Needs GNU time and the sqlite3 shell on PATH (bench/device_check.sh carries both).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
run=$1 elf=$2 base=$3 new=${4:-$root/build} reps=${5:-3}
gnu_time=$(type -P time) || { echo "ingest_ab.sh: needs GNU time on PATH (Debian: apt-get install time)" >&2; exit 1; }
type -P sqlite3 >/dev/null || { echo "ingest_ab.sh: needs the sqlite3 shell on PATH (Debian: apt-get install sqlite3)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

one() {  # one NAME BUILD REP: a fresh database, GNU time's figures in NAME.REP.time
  rm -f "$work/$1.db"
  "$gnu_time" -f "%e %U %S %M" -o "$work/$1.$3.time" \
    "$2/bin/memtracer-symbolize" "$run" --elf "$elf" ${MT_INGEST_ARGS:-} -o "$work/$1.db" >/dev/null 2>"$work/$1.err" \
    || { echo "ingest_ab.sh: $2/bin/memtracer-symbolize failed:" >&2; tail -5 "$work/$1.err" >&2; exit 1; }
}
for ((i = 0; i < reps; i++)); do one base "$base" "$i"; one new "$new" "$i"; done

median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
fig() {  # fig NAME FIELD: median of the field over the reps (1 wall, 2 user, 3 sys, 4 KiB; 5 user+sys)
  cat "$work/$1".*.time | awk -v f="$2" '{print f == 5 ? $2 + $3 : $f}' | median
}
# What a reader sees: every table and view both databases name (schema version 3 keeps version
# 2's addresses and symbols as views over its own tables), each read in full in a fixed order.
# A table that gained a column in one build (version 5's stacks.shape_id) is compared on the
# columns both name.
columns() { sqlite3 "$1" "SELECT name FROM pragma_table_info('$2') ORDER BY cid"; }
contents() {  # contents DB OTHER_DB NAMES...: each name's rows, the columns both name, sorted
  for t in "${@:3}"; do
    cols=$(comm -12 <(columns "$1" "$t" | LC_ALL=C sort) <(columns "$2" "$t" | LC_ALL=C sort) | sed 's/.*/"&"/' | paste -sd,)
    echo "== $t ($cols)"; sqlite3 "$1" "SELECT $cols FROM \"$t\"" | LC_ALL=C sort
  done
}
# strings and symbol_frames are left out: a string's id is given in the order the backend's jobs
# hand their answers over (-j2 and up), so two ingests of one run number the same names
# differently; the symbols view (compared) reads every symbol_frames row with its names.
names() { sqlite3 "$1" "SELECT name FROM sqlite_master WHERE type IN ('table','view') AND name NOT LIKE 'sqlite_%' AND name NOT IN ('strings', 'symbol_frames') ORDER BY name"; }
# The ingest time and the schema version are not the information compared.
for n in base new; do sqlite3 "$work/$n.db" "UPDATE runs SET ingested_unix_ns = 0; DELETE FROM meta WHERE key = 'schema_version'"; done
common=$(comm -12 <(names "$work/base.db") <(names "$work/new.db"))
same=$( (contents "$work/base.db" "$work/new.db" $common | md5sum; contents "$work/new.db" "$work/base.db" $common | md5sum) | uniq | wc -l)
only=$(comm -3 <(names "$work/base.db") <(names "$work/new.db") | tr -d '\t' | tr '\n' ' ')

echo "run: $run ($(( $(stat -c %s "$run") / 1048576 )) MiB), $reps runs each, interleaved; $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| build | median wall s | median CPU s (user+sys) | median peak RSS MiB | all runs wall s |"
echo "|---|---:|---:|---:|---|"
for n in base new; do
  echo "| $n | $(fig $n 1) | $(fig $n 5) | $(( $(fig $n 4) / 1024 )) | $(cat "$work/$n".*.time | cut -d' ' -f1 | tr '\n' ' ')|"
done
echo
echo "wall new/base: $(awk -v n="$(fig new 1)" -v b="$(fig base 1)" 'BEGIN {printf "%.2fx", n / b}'); databases: $([ "$same" = 1 ] && echo identical || echo DIFFER) (every table and view both name)${only:+; in one only: $only}"
