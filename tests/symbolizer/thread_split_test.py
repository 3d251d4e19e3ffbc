#!/usr/bin/env python3
"""The per-thread allocation rows of a real sample-game run (main thread and job workers) against
the run.mt itself, read by memtracer-dump: allocs per (frame, class, stack, thread) and
run_class_stack per (class, stack, thread) equal the EVENTS summed the same way; death_sites and
survivors split by the thread that allocated each dead object (linked by address and allocation
frame); and --no-threads writes the same sums once per (frame, class, stack) with thread_id -1.

usage: thread_split_test.py SAMPLE_GAME GAME_LIBDIR MEMTRACER_DUMP MEMTRACER_SYMBOLIZE
"""
import collections
import json
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit(f"{' '.join(map(str, cmd))} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}")
    return r.stdout


def leb128_triples(blob):
    vals, v, shift = [], 0, 0
    for b in blob:
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            vals.append(v)
            v, shift = 0, 0
    return [tuple(vals[i:i + 3]) for i in range(0, len(vals), 3)]


def check(cond, what):
    if not cond:
        sys.exit("FAILED: " + what)
    print("ok:", what)


def main():
    game, libdir, dump, symbolize = sys.argv[1:5]
    with tempfile.TemporaryDirectory(prefix="mt-thread-split-") as tmp:
        tmp = Path(tmp)
        mt = tmp / "run.mt"
        run([game, "--frames", "90", "--workers", "2", "--lifetimes", "--gc-events", "--block-when-full",
             "--seed", "5", "--quiet", "--out", mt])
        doc = json.loads(run([dump, mt, "--json", "--all-frames", "--events"]))
        sym = [symbolize, mt, "--symbols", libdir, "--elf", game, "--no-progress", "-q"]
        run(sym + ["-o", tmp / "split.db"])
        run(sym + ["-o", tmp / "flat.db", "--no-threads"])

        rows = doc["frames"]["rows"]
        check(sum(r["dropped"] for r in rows) == 0, "no event was dropped (--block-when-full)")
        events = collections.Counter()  # (seq, class, stack, thread) -> [count, size, gc]
        per = collections.defaultdict(lambda: [0, 0, 0])
        born = collections.defaultdict(list)  # address -> [(seq, class, stack, thread)] in allocation order
        for r in rows:
            for e in r["event_list"]:
                k = (r["seq"], e["class"], e["stack"], e["thread"])
                per[k][0] += 1
                per[k][1] += e["size"]
                per[k][2] += e["gc_size"]
                born[e["address"]].append((r["seq"], e["class"], e["stack"], e["thread"]))
        threads = {k[3] for k in per}
        check(len(threads) >= 2, f"events come from {len(threads)} threads (main and workers)")

        db = sqlite3.connect(tmp / "split.db")
        check(db.execute("SELECT thread_split FROM runs").fetchone()[0] == 1, "runs.thread_split = 1")
        allocs = {(s, c, st, t): [n, rb, gb] for s, c, st, t, n, rb, gb in
                  db.execute("SELECT seq, class_id, stack_id, thread_id, count, requested_bytes, gc_bytes FROM allocs")}
        check(allocs == dict(per), f"allocs = events per (frame, class, stack, thread): {len(allocs)} rows")
        by_thread = collections.defaultdict(lambda: [0, 0, 0])
        for (s, c, st, t), v in per.items():
            for i in range(3):
                by_thread[t][i] += v[i]
        rcs = {t: [n, rb, gb] for t, n, rb, gb in db.execute(
            "SELECT thread_id, sum(count), sum(requested_bytes), sum(gc_bytes) FROM run_class_stack GROUP BY thread_id")}
        check(rcs == dict(by_thread), f"run_class_stack per thread = events per thread: {sorted(rcs.items())}")
        names = dict(db.execute("SELECT thread_id, name FROM threads"))
        print("  per thread:", {names.get(t, t): v[0] for t, v in sorted(by_thread.items())})

        # Deaths: the allocating thread of each, linked by (address, allocation frame).
        died = collections.Counter()
        died_bytes = collections.Counter()
        for r in rows:
            for d in r["death_list"]:
                # An address freed and reused: the oldest allocation of that frame, class and stack
                # died first.
                t = -1
                mine = born.get(d["address"], [])
                for i, (s, c, st, th) in enumerate(mine):
                    if (s, c, st) == (d["alloc_frame_seq"], d["class"], d["stack"]):
                        t = th
                        del mine[i]
                        break
                died[(r["seq"], d["class"], d["stack"], t)] += 1
                died_bytes[(r["seq"], d["class"], d["stack"], t)] += d["gc_size"]
        check(sum(died.values()) > 0 and -1 not in {k[3] for k in died}, f"{sum(died.values())} deaths, each linked to its allocation")
        ds = collections.Counter()
        ds_bytes = collections.Counter()
        for s, c, st, t, blob in db.execute("SELECT seq, class_id, stack_id, thread_id, ages FROM death_sites"):
            for age, n, b in leb128_triples(blob):
                ds[(s, c, st, t)] += n
                ds_bytes[(s, c, st, t)] += b
        if ds != died:
            diff = [(k, ds.get(k), died.get(k)) for k in set(ds) | set(died) if ds.get(k) != died.get(k)]
            print("  differ:", len(diff), sorted(diff)[:8])
        check(ds == died and ds_bytes == died_bytes, f"death_sites per (frame, class, stack, thread): {len(ds)} rows")
        alive = collections.Counter()
        for (s, c, st, t), v in per.items():
            alive[(c, st, t)] += v[0]
        for (s, c, st, t), n in died.items():
            alive[(c, st, t)] -= n
        surv = {(c, st, t): n for c, st, t, n in db.execute("SELECT class_id, stack_id, thread_id, count FROM survivors")}
        check(surv == {k: n for k, n in alive.items() if n > 0}, f"survivors per (class, stack, thread): {len(surv)} rows")

        flat = sqlite3.connect(tmp / "flat.db")
        check(flat.execute("SELECT thread_split FROM runs").fetchone()[0] == 0, "--no-threads: runs.thread_split = 0")
        summed = collections.defaultdict(lambda: [0, 0, 0])
        for (s, c, st, t), v in per.items():
            for i in range(3):
                summed[(s, c, st)][i] += v[i]
        fl = {(s, c, st): [n, rb, gb] for s, c, st, t, n, rb, gb in flat.execute(
            "SELECT seq, class_id, stack_id, thread_id, count, requested_bytes, gc_bytes FROM allocs")}
        check(fl == dict(summed), f"--no-threads: allocs per (frame, class, stack): {len(fl)} rows")
        check({r[0] for r in flat.execute("SELECT DISTINCT thread_id FROM allocs UNION SELECT thread_id FROM death_sites "
                                         "UNION SELECT thread_id FROM survivors UNION SELECT thread_id FROM run_class_stack")} == {-1},
              "--no-threads: every thread_id is -1")
        check(len(fl) < len(allocs), f"--no-threads: fewer rows ({len(fl)} vs {len(allocs)})")


if __name__ == "__main__":
    main()
