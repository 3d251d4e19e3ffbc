#!/usr/bin/env python3
"""Database size with and without the per-thread split (docs/schema.md, "Thread per allocation").

usage: measure_thread_split.py BUILD_DIR OUT_DIR FRAMES [sample-game options...]

Records one sample-game run (--lifetimes --gc-events --seed 5 plus the options given), symbolizes
it twice (per thread, and --no-threads) and prints, for each database, its size as written and
after VACUUM, the rows of the four split tables, and the size without death_sites (the lifetime
data's share, vacuumed).
"""
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path


def vacuumed(src, dst, drop=None):
    shutil.copyfile(src, dst)
    db = sqlite3.connect(dst)
    if drop:
        db.execute(f"DROP TABLE {drop}")
    db.execute("VACUUM")
    db.close()
    return Path(dst).stat().st_size


def main():
    build, out, frames = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    extra = sys.argv[4:]
    out.mkdir(parents=True, exist_ok=True)
    game = build / "bin" / "memtracer-sample-game"
    libdir = build / "lib"  # libGameAssembly-patch.so, the game's symbols
    sym = build / "bin" / "memtracer-symbolize"
    mt = out / "run.mt"
    subprocess.run([game, "--frames", frames, "--lifetimes", "--gc-events", "--seed", "5", "--quiet", "--out", mt, *extra],
                   check=True, capture_output=True)
    print(f"run: {frames} frames {' '.join(extra)}; run.mt {mt.stat().st_size} B")
    for name, flags in (("split", []), ("no-threads", ["--no-threads"])):
        db = out / f"{name}.db"
        db.unlink(missing_ok=True)
        subprocess.run([sym, mt, "-o", db, "--symbols", libdir, "--elf", game, "-q", *flags], check=True)
        c = sqlite3.connect(db)
        rows = {t: c.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                for t in ("allocs", "run_class_stack", "death_sites", "survivors")}
        events = c.execute("SELECT alloc_count FROM runs").fetchone()[0]
        threads = c.execute("SELECT count(DISTINCT thread_id) FROM run_class_stack").fetchone()[0]
        c.close()
        size = db.stat().st_size
        vac = vacuumed(db, out / f"{name}.vac.db")
        nolife = vacuumed(db, out / f"{name}.nolife.db", "death_sites")
        print(f"{name}: {size} B ({vac} vacuumed), allocations {events}, threads with rows {threads}, rows {rows}, "
              f"without death_sites {nolife} B vacuumed: lifetimes +{100.0 * (vac - nolife) / nolife:.1f}%")


if __name__ == "__main__":
    main()
