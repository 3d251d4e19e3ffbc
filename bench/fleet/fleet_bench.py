#!/usr/bin/env python3
"""Cross-run answers at N runs: ClickHouse (one real server) against the run.db files read through
the query layer (SQLite), the same questions in the same run. Prints, per N, p50/p95 of the
90-build trend, the fleet top, the build-range growth and a one-run top on each source, their
ratio, bytes per allocs row, the load average around each ClickHouse timing and what one answer
read on the server (rows and bytes from system.query_log; 18.16 has no EXPLAIN).

  bench/fleet/fleet_bench.py prepare --dir D --sizes 100,730,1825,7300 [--full-max 100] [--sqlite-max 1825]
  bench/fleet/fleet_bench.py measure --dir D --build build [--reps 10] [--sqlite-reps 2] [--only 1825]
  bench/fleet/fleet_bench.py clean --dir D

Generation is cheap on purpose (the machine is shared): one seed run.db of two session-shaped runs
(tests/viewer/mt_make_fixture_db, 2,000 frames each) is exported once with memtracer-export; every
further run is made on the server from the seed's rows (INSERT ... SELECT ... ARRAY JOIN, which
ClickHouse 18.16 accepts), with its own run key, build, device and night. Runs come 20 to a build
(10 copies of the seed's two devices), one build a night, so N runs are N/20 builds. Sizes above
--full-max leave out the per-frame tables (allocs, frames, gc_events: no cross-run answer reads
them; bytes per row come from the full sizes); prepare adds sizes to a prepared folder. The SQLite side
is copies of the seed file with the same labels (a prefix of the same list serves every N up to
--sqlite-max). The server's data stays under D between `prepare` and `measure`.
"""
import argparse, json, os, shutil, socket, sqlite3, statistics, subprocess, sys, time, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PER_BUILD = 10  # seed copies per build: 2 runs each, so 20 runs (devices) a build


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def ch(port, sql):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/", data=sql.encode())
    return urllib.request.urlopen(req, timeout=3600).read().decode()


def start_server(d):
    http, tcp = free_port(), free_port()
    for sub in ("data", "tmp", "user_files", "log"):
        os.makedirs(f"{d}/{sub}", exist_ok=True)
    with open(f"{d}/config.xml", "w") as f:
        f.write(f"""<?xml version="1.0"?><yandex><logger><level>warning</level><log>{d}/log/s.log</log>
<errorlog>{d}/log/e.log</errorlog><console>0</console></logger><http_port>{http}</http_port><tcp_port>{tcp}</tcp_port>
<listen_host>127.0.0.1</listen_host><path>{d}/data/</path><tmp_path>{d}/tmp/</tmp_path><user_files_path>{d}/user_files/</user_files_path>
<users_config>{d}/users.xml</users_config><query_log><database>system</database><table>query_log</table>
<flush_interval_milliseconds>500</flush_interval_milliseconds></query_log><default_profile>default</default_profile>
<default_database>default</default_database><mark_cache_size>5368709</mark_cache_size>
<compression><case><method>zstd</method></case></compression></yandex>""")
    # The stock users, with every query logged: measure reads what each answer read from system.query_log.
    with open(f"{d}/users.xml", "w") as f:
        f.write("""<?xml version="1.0"?><yandex><profiles><default><log_queries>1</log_queries></default></profiles>
<users><default><password></password><networks><ip>::/0</ip></networks><profile>default</profile><quota>default</quota></default></users>
<quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors><result_rows>0</result_rows>
<read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas></yandex>""")
    proc = subprocess.Popen(["/usr/sbin/clickhouse-server", f"--config-file={d}/config.xml"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(3000):
        try:
            if ch(http, "SELECT 1").strip() == "1":
                return proc, http
        except Exception:
            time.sleep(0.1)
    proc.kill()
    sys.exit("clickhouse-server did not answer")


def label_exprs(col, table):
    """The replicated column `col` of copy `n` (the ARRAY JOIN variable)."""
    build = "concat('build-', substring(toString(10000 + intDiv(n, %d)), 2))" % PER_BUILD
    device = "concat(%s, '-', toString(n %% %d))"
    return {
        "build": build,
        "device": device % ("device", PER_BUILD),
        "night": "night + intDiv(n, %d)" % PER_BUILD,
        "run_key": "cityHash64(run_key, n)",
        "run_id": "run_id + 2 * n",
        "build_id": build,
        "capture_device": device % ("capture_device", PER_BUILD),
        "start_unix_ns": "start_unix_ns + intDiv(n, %d) * 86400000000000" % PER_BUILD,
    }.get(col, col) if table == "runs" or col in ("build", "device", "night", "run_key") else col


# The per-frame tables, which no cross-run answer reads; --light sizes leave them out (bytes per
# row come from the sizes that have them).
PER_FRAME = ("allocs", "frames", "gc_events")


def replicate(port, db, copies, batch=100, light=False):
    tables = [r.split("\t") for r in ch(port, "SELECT name FROM system.tables WHERE database = 'seed' FORMAT TabSeparated").split()]
    names = [t[0] for t in tables]
    # The run rows last, as the exporter writes them.
    for t in sorted(names, key=lambda n: n == "runs"):
        cols = ch(port, f"SELECT name FROM system.columns WHERE database = 'seed' AND table = '{t}' FORMAT TabSeparated").split()
        if light and t in PER_FRAME:
            continue
        if "run_key" not in cols:  # a content-keyed dictionary: the same for every copy
            ch(port, f"INSERT INTO {db}.{t} SELECT * FROM seed.{t}")
            continue
        select = ", ".join(label_exprs(c, t) for c in cols)
        for lo in range(0, copies, batch):
            k = min(batch, copies - lo)
            ch(port, f"INSERT INTO {db}.{t} ({', '.join('`%s`' % c for c in cols)}) SELECT {select} FROM seed.{t} "
                     f"ARRAY JOIN arrayMap(x -> x + {lo}, range({k})) AS n")


def sqlite_copy(seed, path, i):
    shutil.copy(seed, path)
    c = sqlite3.connect(path)
    c.execute(f"UPDATE runs SET start_unix_ns = start_unix_ns + {i // PER_BUILD} * 86400000000000, "
              f"build_id = 'build-{i // PER_BUILD:04d}', device = device || '-{i % PER_BUILD}'")
    c.commit()
    c.close()


def prepare(a):
    os.makedirs(a.dir, exist_ok=True)
    seed = f"{a.dir}/seed.db"
    if not os.path.exists(seed):
        subprocess.run([os.path.join(a.build, "tests", "mt_make_fixture_db"), seed,
                        "--frames", "2000", "2000", "--rows-per-frame", "20", "--stacks", "1000", "--scale", "6"],
                     check=True, stdout=subprocess.DEVNULL)
    if not os.path.exists(f"{a.dir}/prepare.json"):
        os.makedirs(f"{a.dir}/files", exist_ok=True)
        for i in range(a.sqlite_max // 2):
            sqlite_copy(seed, f"{a.dir}/files/night{i:05d}.db", i)
    server, port = start_server(f"{a.dir}/ch")
    log = {}
    if os.path.exists(f"{a.dir}/prepare.json"):  # more sizes into a prepared folder
        with open(f"{a.dir}/prepare.json") as f:
            log = json.load(f)
    try:
        if "seed_export_s" not in log:
            t = time.perf_counter()
            subprocess.run([f"{a.build}/bin/memtracer-export", seed, "--to", f"clickhouse://127.0.0.1:{port}/seed"], check=True)
            log["seed_export_s"] = round(time.perf_counter() - t, 2)
        for n in sorted(int(s) for s in a.sizes.split(",")):
            db = f"bench_{n}"
            ch(port, f"DROP DATABASE IF EXISTS {db}")  # what an interrupted prepare left
            subprocess.run([f"{a.build}/bin/memtracer-export", "--init", "--to", f"clickhouse://127.0.0.1:{port}/{db}"], check=True)
            t = time.perf_counter()
            light = n > a.full_max
            replicate(port, db, n // 2, light=light)
            if not light:
                ch(port, f"OPTIMIZE TABLE {db}.allocs FINAL")  # its bytes per row as a settled table has them
            log[f"replicate_{n}_s"] = round(time.perf_counter() - t, 1)
            if light:
                log[f"light_{n}"] = True
            print(json.dumps(log), flush=True)
            with open(f"{a.dir}/prepare.json", "w") as f:  # a size is measurable once it is whole
                json.dump(log, f)
    finally:
        server.terminate()
        server.wait()


def timings(argv, reps):
    out = []
    for _ in range(reps):
        t = time.perf_counter()
        r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out.append(time.perf_counter() - t)
        if r.returncode != 0:
            sys.exit(f"{argv[:3]} failed: {r.stderr.decode()}")
    out.sort()
    return statistics.median(out), out[min(len(out) - 1, int(round(0.95 * (len(out) - 1))))], r.stdout


def server_reads(port, argv, reps):
    """What one answer read on the server: rows and bytes summed over its queries (query_log; type 2:
    a finished query, a UInt8 in 18.16, an enum in current releases)."""
    time.sleep(1.2)  # the log's clock is in seconds: start on a fresh one
    t0 = int(time.time())
    for _ in range(reps):
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    time.sleep(2)  # flushed every 500 ms
    rows, nbytes, n = ch(port, f"SELECT sum(read_rows), sum(read_bytes), count() FROM system.query_log WHERE type = 2 AND "
                               f"event_time >= toDateTime({t0}) AND query NOT LIKE '%query_log%' FORMAT TabSeparated").split()
    return int(rows) // reps, int(nbytes) // reps, int(n) // reps


def measure(a):
    server, port = start_server(f"{a.dir}/ch")
    report = f"{a.build}/bin/memtracer-report"
    results = []
    try:
        with open(f"{a.dir}/prepare.json") as f:
            prepared = json.load(f)
        sizes = sorted(int(k.split("_")[1]) for k in prepared if k.startswith("replicate_"))
        if a.only:
            sizes = [n for n in sizes if n in {int(x) for x in a.only.split(",")}]
        files = sorted(os.path.join(a.dir, "files", f) for f in os.listdir(f"{a.dir}/files"))
        for n in sizes:
            url = f"clickhouse://127.0.0.1:{port}/bench_{n}"
            db = f"bench_{n}"
            light = prepared.get(f"light_{n}", False)
            rows, comp = (int(x) for x in ch(port, f"SELECT sum(rows), sum(data_compressed_bytes) FROM system.parts WHERE database = '{db}' "
                                                   "AND table = 'allocs' AND active FORMAT TabSeparated").split())
            builds = n // (2 * PER_BUILD)
            last90 = [f"--builds", f"build-{max(0, builds - 90):04d}..build-{builds - 1:04d}"]
            half = max(1, builds // 2)
            queries = {
                "trend": ["trend", "--site", "Cache.Put", *last90],
                "fleet_top": ["fleet-top", "--group", "site", *last90],
                "growth": ["growth", "--group", "class", "--base", f"build-0000..build-{half - 1:04d}",
                           "--new", f"build-{half:04d}..build-{builds - 1:04d}"],
                "one_run_top": ["fleet-top", "--group", "class", "--builds", "build-0000..build-0000", "--device", "Pixel 7-0"],
            }
            row = {"runs": n, "builds": builds}
            if not light:  # a light size has no per-frame tables
                row.update({"allocs_rows": rows, "clickhouse_bytes_per_allocs_row": round(comp / max(1, rows), 2)})
            nfiles = n // 2
            have_files = nfiles <= len(files)
            if have_files:
                seed_rows = sqlite3.connect(f"{a.dir}/seed.db").execute("SELECT count(*) FROM allocs").fetchone()[0]
                row["sqlite_file_bytes_per_allocs_row"] = round(os.path.getsize(f"{a.dir}/seed.db") / seed_rows, 2)
            for name, q in queries.items():
                row[f"{name}_load_before"] = os.getloadavg()[0]
                cp50, cp95, cout = timings([report, q[0], url, *q[1:]], a.reps)
                row[f"{name}_clickhouse_p50_s"], row[f"{name}_clickhouse_p95_s"] = round(cp50, 3), round(cp95, 3)
                row[f"{name}_load_after"] = os.getloadavg()[0]
                row[f"{name}_server_rows"], row[f"{name}_server_bytes"], row[f"{name}_server_queries"] = \
                    server_reads(port, [report, q[0], url, *q[1:]], 2)
                if have_files:
                    sp50, sp95, sout = timings([report, q[0], *files[:nfiles], *q[1:]], a.sqlite_reps)
                    row[f"{name}_sqlite_p50_s"], row[f"{name}_sqlite_p95_s"] = round(sp50, 3), round(sp95, 3)
                    row[f"{name}_sqlite_over_clickhouse_p50"] = round(sp50 / cp50, 1)
                    row[f"{name}_same_answer"] = cout == sout
            if have_files:  # the one-run TopN as memtracer-report answers it on one run.db
                p50, p95, _ = timings([report, "top", files[0] + "@1", "--by", "class"], a.reps)
                row["report_top_one_file_p50_s"], row["report_top_one_file_p95_s"] = round(p50, 3), round(p95, 3)
            results.append(row)
            print(json.dumps(row), flush=True)
    finally:
        server.terminate()
        server.wait()
    print(json.dumps(results, indent=1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("phase", choices=["prepare", "measure", "clean"])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--build", default="build")
    ap.add_argument("--sizes", default="100,730,1825")
    ap.add_argument("--sqlite-max", type=int, default=1825)
    ap.add_argument("--full-max", type=int, default=1825, help="larger sizes leave out the per-frame tables")
    ap.add_argument("--only", default="", help="measure: only these prepared sizes")
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--sqlite-reps", type=int, default=3)
    a = ap.parse_args()
    a.build = os.path.abspath(a.build)
    if a.phase == "prepare":
        prepare(a)
    elif a.phase == "measure":
        measure(a)
    else:
        shutil.rmtree(a.dir, ignore_errors=True)


if __name__ == "__main__":
    main()
