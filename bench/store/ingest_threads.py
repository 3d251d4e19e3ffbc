#!/usr/bin/env python3
"""Session-sized ingest, a baseline build against this one, interleaved: for each of the two
ingest threads (the database thread, the caller's; the reading thread) its CPU seconds, its
run-queue wait (runnable, but another process had the core) and the time it was blocked (asleep:
waiting for the other thread, or for the disk), from /proc/PID/task/TID/schedstat polled every
20 ms; medians over the runs, and this build's over the baseline's.

On this shared 2-core machine the wall time mostly measures the other work running beside the
ingest (run-queue wait); the blocked time does not: it is what the pipeline itself loses, and
CPU + blocked of the longer thread is the wall time the ingest would take on two idle cores.

  python3 bench/store/ingest_threads.py RUN.mt GAME_ELF BASE_BUILD [BUILD] [REPS]
"""
import os, statistics, subprocess, sys, tempfile, time

def one(binary, run, elf, db):
    """One ingest into a fresh database: wall, and per thread (database, reader) cpu/rq/blocked."""
    for suffix in ("", "-journal", "-wal"):
        if os.path.exists(db + suffix):
            os.unlink(db + suffix)
    t0 = time.monotonic()
    p = subprocess.Popen([binary, run, "--elf", elf, "-o", db], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seen = {}  # tid -> (first seen, last seen, cpu s, run-queue wait s)
    while p.poll() is None:
        now = time.monotonic()
        try:
            tids = os.listdir(f"/proc/{p.pid}/task")
        except FileNotFoundError:
            break
        for tid in tids:
            try:
                cpu, rq, _ = (int(x) for x in open(f"/proc/{p.pid}/task/{tid}/schedstat").read().split())
            except (OSError, ValueError):
                continue  # the thread ended between the listing and the read
            seen[tid] = (seen.get(tid, (now,))[0], now, cpu / 1e9, rq / 1e9)
        time.sleep(0.02)
    wall = time.monotonic() - t0
    if p.wait() != 0:
        sys.exit(f"ingest_threads.py: {binary} failed: {p.stderr.read().decode()[-500:]}")
    def figures(tid):
        first, last, cpu, rq = seen[tid]
        return cpu, rq, max(0.0, (last - first) - cpu - rq)
    main = str(p.pid)
    reader = max((t for t in seen if t != main), key=lambda t: seen[t][2])  # the busiest other thread
    return wall, figures(main), figures(reader)

def main():
    run, elf, base = sys.argv[1:4]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    new = sys.argv[4] if len(sys.argv) > 4 else os.path.join(root, "build")
    reps = int(sys.argv[5]) if len(sys.argv) > 5 else 5
    builds = {"base": base, "new": new}
    results = {n: [] for n in builds}
    with tempfile.TemporaryDirectory() as work:
        for _ in range(reps):
            for name, build in builds.items():
                results[name].append(one(os.path.join(build, "bin", "memtracer-symbolize"), run, elf, os.path.join(work, name + ".db")))
    med = lambda xs: statistics.median(xs)
    print(f"run: {run}, {reps} runs each, interleaved; {os.cpu_count()} CPUs, load average {' '.join(open('/proc/loadavg').read().split()[:3])}")
    print()
    print("| build | wall s | database thread CPU / run-queue / blocked s | reading thread CPU / run-queue / blocked s | longer thread's CPU + blocked s |")
    print("|---|---:|---|---|---:|")
    idle = {}
    for name, rs in results.items():
        walls = [r[0] for r in rs]
        d = [med([r[1][i] for r in rs]) for i in range(3)]
        t = [med([r[2][i] for r in rs]) for i in range(3)]
        idle[name] = med([max(r[1][0] + r[1][2], r[2][0] + r[2][2]) for r in rs])
        print(f"| {name} | {med(walls):.2f} ({' '.join(f'{w:.2f}' for w in walls)}) | {d[0]:.2f} / {d[1]:.2f} / {d[2]:.2f} "
              f"| {t[0]:.2f} / {t[1]:.2f} / {t[2]:.2f} | {idle[name]:.2f} |")
    print()
    print(f"longer thread's CPU + blocked, new/base: {idle['new'] / idle['base']:.2f}x (the wall time two idle cores would give, less the start and the end)")

if __name__ == "__main__":
    main()
