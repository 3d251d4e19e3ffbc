#!/usr/bin/env python3
"""extract_alloc_block.py OBJECT_CPP OUT: copies the `#if IL2CPP_GC_BOEHM` ... matching `#endif`
block of a libil2cpp vm/Object.cpp (the ALLOC_* macros, patched or not) to OUT, so a test can
compile exactly what the patch script produced."""
import sys


def main(src, out):
    lines = open(src, encoding="latin-1").read().splitlines(keepends=True)
    start = next((i for i, l in enumerate(lines) if l.strip() == "#if IL2CPP_GC_BOEHM"), None)
    if start is None:
        sys.exit(f"{src}: no '#if IL2CPP_GC_BOEHM' line")
    depth = 0
    for i in range(start, len(lines)):
        word = lines[i].strip().split(" ")[0]
        if word in ("#if", "#ifdef", "#ifndef"):
            depth += 1
        elif word == "#endif":
            depth -= 1
            if depth == 0:
                with open(out, "w", encoding="latin-1") as f:
                    f.write(f"// extracted from {src}, lines {start + 1}-{i + 1}\n")
                    f.writelines(lines[start:i + 1])
                return
    sys.exit(f"{src}: the IL2CPP_GC_BOEHM block at line {start + 1} never ends")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
