#!/usr/bin/env python3
"""The trend across N runs: ClickHouse (memtracer-export, one real server) against the run.db
files read through the query layer (SQLite), in the same run. Prints p50/p95 of
`memtracer-report trend` on each source, their ratio, export time, and bytes per allocs row.

  bench/fleet/fleet_bench.py --build build --runs 100 [--frames 2000] [--rows-per-frame 10]

Each run.db holds two runs (tests/viewer/fixture_shape.cpp's shape, scaled by --frames and
--rows-per-frame); its copies are later nights of new builds. Everything generated lives in a
temporary folder under /tmp, removed at the end, and the ClickHouse server is stopped.
"""
import argparse, json, os, shutil, socket, sqlite3, statistics, subprocess, sys, tempfile, time, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def ch(port, sql):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/", data=sql.encode())
    return urllib.request.urlopen(req, timeout=600).read().decode()


def start_server(d):
    http, tcp = free_port(), free_port()
    for sub in ("data", "tmp", "user_files", "log"):
        os.makedirs(f"{d}/{sub}", exist_ok=True)
    with open(f"{d}/config.xml", "w") as f:
        f.write(f"""<?xml version="1.0"?><yandex><logger><level>warning</level><log>{d}/log/s.log</log>
<errorlog>{d}/log/e.log</errorlog><console>0</console></logger><http_port>{http}</http_port><tcp_port>{tcp}</tcp_port>
<listen_host>127.0.0.1</listen_host><path>{d}/data/</path><tmp_path>{d}/tmp/</tmp_path><user_files_path>{d}/user_files/</user_files_path>
<users_config>/etc/clickhouse-server/users.xml</users_config><default_profile>default</default_profile>
<default_database>default</default_database><mark_cache_size>5368709</mark_cache_size>
<compression><case><method>zstd</method></case></compression></yandex>""")
    proc = subprocess.Popen(["/usr/sbin/clickhouse-server", f"--config-file={d}/config.xml"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(1200):
        try:
            if ch(http, "SELECT 1").strip() == "1":
                return proc, http
        except Exception:
            time.sleep(0.1)
    proc.kill()
    sys.exit("clickhouse-server did not answer")


def timings(argv, reps):
    out = []
    for _ in range(reps):
        t = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out.append(time.perf_counter() - t)
    out.sort()
    return statistics.median(out), out[min(len(out) - 1, int(round(0.95 * (len(out) - 1))))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--frames", type=int, default=2000)
    ap.add_argument("--rows-per-frame", type=int, default=10)
    ap.add_argument("--reps", type=int, default=10)
    a = ap.parse_args()
    bindir = os.path.join(a.build, "bin")
    tmp = tempfile.mkdtemp(prefix="mt-fleet-bench-", dir="/tmp")
    server = None
    try:
        base = f"{tmp}/base.db"
        subprocess.run([os.path.join(a.build, "tests", "mt_make_fixture_db"), base,
                        "--frames", str(a.frames), str(a.frames), "--rows-per-frame", str(a.rows_per_frame)],
                       check=True, stdout=subprocess.DEVNULL)
        dbs = []
        for i in range(max(1, a.runs // 2)):
            p = f"{tmp}/night{i}.db"
            shutil.copy(base, p)
            c = sqlite3.connect(p)
            c.execute(f"UPDATE runs SET start_unix_ns = start_unix_ns + {i} * 86400000000000, build_id = 'build-{i:04d}'")
            c.commit()
            c.close()
            dbs.append(p)
        rows = sqlite3.connect(base).execute("SELECT count(*) FROM allocs").fetchone()[0] // 2
        server, port = start_server(f"{tmp}/ch")
        url = f"clickhouse://127.0.0.1:{port}/bench"
        t = time.perf_counter()
        subprocess.run([f"{bindir}/memtracer-export", *dbs, "--to", url], check=True, stdout=subprocess.DEVNULL)
        export_s = time.perf_counter() - t
        ch(port, "OPTIMIZE TABLE bench.allocs FINAL")
        parts = ch(port, "SELECT sum(rows), sum(data_compressed_bytes) FROM system.parts WHERE database = 'bench' "
                         "AND table = 'allocs' AND active FORMAT TabSeparated").split()
        ch_bpr = int(parts[1]) / max(1, int(parts[0]))
        sqlite_bpr = os.path.getsize(base) / max(1, 2 * rows)  # the whole file per allocs row: an upper bound
        site = ["--site", "Cache.Put"]
        report = f"{bindir}/memtracer-report"
        ch_p50, ch_p95 = timings([report, "trend", url, *site], a.reps)
        sq_p50, sq_p95 = timings([report, "trend", *dbs, *site], max(3, a.reps // 3))
        runs = 2 * len(dbs)
        print(json.dumps({"runs": runs, "allocs_rows_per_run": rows, "export_s": round(export_s, 2),
                          "export_runs_per_s": round(runs / export_s, 1),
                          "trend_clickhouse_p50_s": round(ch_p50, 3), "trend_clickhouse_p95_s": round(ch_p95, 3),
                          "trend_sqlite_files_p50_s": round(sq_p50, 3), "trend_sqlite_files_p95_s": round(sq_p95, 3),
                          "sqlite_over_clickhouse_p50": round(sq_p50 / ch_p50, 1),
                          "clickhouse_bytes_per_allocs_row": round(ch_bpr, 2),
                          "sqlite_file_bytes_per_allocs_row": round(sqlite_bpr, 2)}, indent=1))
    finally:
        if server:
            server.kill()
            server.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
