#!/usr/bin/env python3
"""Measures what a thread column in `allocs` would cost (docs/schema.md, "Thread per allocation").

Reads a run.mt's events through memtracer-dump --json --all-frames --events, sums them per
(seq, class, stack) as the symbolizer does today and per (seq, class, stack, thread) as a thread
column would, writes both into fresh SQLite files with allocs' exact column types and
WITHOUT ROWID primary key, VACUUMs them and prints rows and bytes, and the growth as a share of
a symbolized database of the same run (run.db); and the same for a side table holding only the
rows of threads other than the one that allocates most.

  measure_thread_column.py DUMP RUN.MT RUN.DB
"""
import collections
import json
import os
import sqlite3
import subprocess
import sys
import tempfile


def table_bytes(rows, with_thread):
    cols = "run_id INTEGER NOT NULL, seq INTEGER NOT NULL, class_id INTEGER NOT NULL, stack_id INTEGER NOT NULL, "
    cols += "thread_id INTEGER NOT NULL, " if with_thread else ""
    key = "run_id, seq, class_id, stack_id" + (", thread_id" if with_thread else "")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "t.db")
        db = sqlite3.connect(path)
        db.execute(f"CREATE TABLE allocs ({cols} count INTEGER NOT NULL, requested_bytes INTEGER NOT NULL, "
                   f"gc_bytes INTEGER NOT NULL, PRIMARY KEY ({key})) WITHOUT ROWID")
        n = 5 if with_thread else 4
        db.executemany(f"INSERT INTO allocs VALUES({','.join('?' * (n + 3))})", [(1, *k, *v) for k, v in rows.items()])
        db.commit()
        db.execute("VACUUM")
        db.close()
        return os.path.getsize(path)


def main():
    dump, mt, run_db = sys.argv[1:4]
    out = subprocess.run([dump, mt, "--json", "--all-frames", "--events"], check=True, capture_output=True).stdout
    frames = json.loads(out)["frames"]["rows"]
    plain, threaded = collections.defaultdict(lambda: [0, 0, 0]), collections.defaultdict(lambda: [0, 0, 0])
    threads = set()
    for f in frames:
        for e in f.get("event_list", []):
            if "class" not in e:
                continue
            threads.add(e["thread"])
            for key, m in (((f["seq"], e["class"], e["stack"]), plain),
                           ((f["seq"], e["class"], e["stack"], e["thread"]), threaded)):
                v = m[key]
                v[0] += 1
                v[1] += e["size"]
                v[2] += e["gc_size"]
    a, b = table_bytes(plain, False), table_bytes(threaded, True)
    # The alternative: allocs unchanged, a side table with the rows of every thread but the one
    # that allocates most (a game's main thread); that thread's share is allocs minus the side.
    per_thread = collections.Counter()
    for k, v in threaded.items():
        per_thread[k[3]] += v[0]
    main_thread = per_thread.most_common(1)[0][0]
    side = {k: v for k, v in threaded.items() if k[3] != main_thread}
    c = table_bytes(side, True) if side else 0
    whole = os.path.getsize(run_db)
    print(f"frames {len(frames)}, threads allocating {len(threads)}, events {sum(v[0] for v in plain.values())}")
    print(f"allocs rows: {len(plain)} without thread, {len(threaded)} with (+{100 * (len(threaded) / len(plain) - 1):.1f}%)")
    print(f"allocs bytes: {a} without thread, {b} with (+{b - a}, +{100 * (b / a - 1):.1f}% of the table)")
    print(f"run.db bytes: {whole}; the thread column adds {100 * (b - a) / whole:.1f}% of it")
    print(f"side table (threads other than {main_thread}, which allocates {100 * per_thread[main_thread] / sum(per_thread.values()):.1f}%): "
          f"{len(side)} rows, {c} bytes, {100 * c / whole:.1f}% of run.db")


if __name__ == "__main__":
    main()
