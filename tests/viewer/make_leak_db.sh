#!/usr/bin/env bash
# Makes the leak-scenario database for the Leaks view's browser test: run 1 is the sample game
# with lifetimes and a deliberate leak from frame LEAK_FROM on (one Single[1024] a frame kept in
# LeakyCache forever), run 2 the same game without lifetimes (the view's "no lifetimes" note).
#   make_leak_db.sh GAME SYMBOLIZE OUT_DIR SYMBOLS_DIR [FRAMES] [LEAK_FROM]
set -euo pipefail
game=$1 symbolize=$2 out=$3 symbols=$4 frames=${5:-200} leak_from=${6:-60}
rm -rf "$out"
mkdir -p "$out"
common=(--frames "$frames" --seed 5 --quiet --ring-bytes 16777216 --block-when-full)
"$game" "${common[@]}" --lifetimes --gc-events --leak-from "$leak_from" --out "$out/leak.mt"
"$game" "${common[@]}" --gc-events --out "$out/plain.mt"
"$symbolize" "$out/leak.mt" "$out/plain.mt" --symbols "$symbols" --elf "$game" --no-progress -o "$out/leak.db.tmp"
mv "$out/leak.db.tmp" "$out/leak.db"
echo "make_leak_db: $out/leak.db"
