#!/usr/bin/env bash
# Makes a real database for the viewer tests: the sample game records two runs (different
# seeds and lengths, so compare has something to show), the symbolizer turns both into one
# SQLite file against the game's own symbols.
#   make_real_db.sh GAME SYMBOLIZE OUT_DIR SYMBOLS_DIR [FRAMES]
set -euo pipefail
game=$1 symbolize=$2 out=$3 symbols=$4 frames=${5:-200}
rm -rf "$out"
mkdir -p "$out"
"$game" --frames "$frames" --seed 1 --gc-events --lifetimes --out "$out/run1.mt" --quiet
"$game" --frames $((frames * 3 / 4)) --seed 2 --gc-events --out "$out/run2.mt" --quiet
args=(--symbols "$symbols" --no-progress -o "$out/real.db.tmp")
for d in "$symbols" "$symbols/Symbols"; do
  if [[ -f $d/MethodMap.tsv || -f $d/LineNumberMappings.json ]]; then args+=(--il2cpp-symbols "$d"); break; fi
done
"$symbolize" "$out/run1.mt" "$out/run2.mt" "${args[@]}"
mv "$out/real.db.tmp" "$out/real.db"
echo "make_real_db: $out/real.db from $(stat -c %s "$out/run1.mt") + $(stat -c %s "$out/run2.mt") bytes of capture"
