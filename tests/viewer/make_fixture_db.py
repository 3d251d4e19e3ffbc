#!/usr/bin/env python3
"""Builds a MemTracer database by inserting rows that follow store/schema.sql.

Two uses:
  * the viewer's test fixture (default scale): 2 runs of two builds, a few hundred frames,
    classes such as System.String / List`1 / Node, symbolized stacks with inline chains,
    allocation sites, GC events, lifetimes in run 2. Deterministic (fixed seed), so tests can
    assert exact values that tests/viewer/fixture_expect.h derives the same way.
  * the benchmark database (--frames 50000 --stacks 2000 ...), same shape at scale.

It stands in for the symbolizer until real databases exist; it writes only what the symbolizer
would write, through the schema file itself (never a copy of it).
"""
import argparse
import os
import random
import sqlite3
import sys

GAME_MODULE = "/data/app/com.example.game/lib/arm64/libil2cpp.so"
BUILDS = {1: "5f1c2a9e0b7d4c3a8e6f1b2d3c4a5e6f", 2: "9a8b7c6d5e4f30211203f4e5d6c7b8a9"}

# key: (raw C++ name, C# name, file, line, cs_file, cs_line, game code?)
FUNCS = {
    "gc_malloc": ("GC_malloc_kind", "", "bdwgc/malloc.c", 310, "", 0, False),
    "obj_new": ("_ZN6il2cpp2vm6Object3NewEP11Il2CppClass", "", "libil2cpp/vm/Object.cpp", 97, "", 0, False),
    "str_new": ("_ZN6il2cpp2vm6String7NewSizeEi", "", "libil2cpp/vm/String.cpp", 51, "", 0, False),
    "arr_new": ("_ZN6il2cpp2vm5Array11NewSpecificEP11Il2CppClassj", "", "libil2cpp/vm/Array.cpp", 80, "", 0, False),
    "node_ctor": ("Node__ctor_mA1B2C3", "Node..ctor", "il2cppOutput/Assembly-CSharp.cpp", 1204, "Assets/Scripts/Node.cs", 12, True),
    "create_node": ("NodeFactory_CreateNode_m5E6F70", "NodeFactory.CreateNode", "il2cppOutput/Assembly-CSharp.cpp", 1260, "Assets/Scripts/NodeFactory.cs", 42, True),
    "list_add": ("List_1_Add_mE2D1_gshared", "List`1.Add", "il2cppOutput/Generics.cpp", 880, "", 0, False),
    "list_grow": ("List_1_set_Capacity_m3C4D_gshared", "List`1.set_Capacity", "il2cppOutput/Generics.cpp", 912, "", 0, False),
    "concat": ("String_Concat_m11AA22", "String.Concat", "il2cppOutput/mscorlib.cpp", 20411, "", 0, False),
    "hud_text": ("Hud_UpdateText_m7788AA", "Hud.UpdateText", "il2cppOutput/Assembly-CSharp.cpp", 2050, "Assets/Scripts/Hud.cs", 31, True),
    "graph_build": ("Graph_Build_m99AB01", "Graph.Build", "il2cppOutput/Assembly-CSharp.cpp", 1402, "Assets/Scripts/Graph.cs", 58, True),
    "graph_link": ("Graph_Link_m42CD77", "Graph.Link", "il2cppOutput/Assembly-CSharp.cpp", 1460, "Assets/Scripts/Graph.cs", 77, True),
    "level_chunk": ("Level_LoadChunk_m0F0E0D", "Level.LoadChunk", "il2cppOutput/Assembly-CSharp.cpp", 3310, "Assets/Scripts/Level.cs", 120, True),
    "enemy_spawn": ("Enemy_Spawn_m1A2B3C", "Enemy.Spawn", "il2cppOutput/Assembly-CSharp.cpp", 3900, "Assets/Scripts/Enemy.cs", 25, True),
    "dict_insert": ("Dictionary_2_TryInsert_m5A5B_gshared", "Dictionary`2.TryInsert", "il2cppOutput/Generics.cpp", 1540, "", 0, False),
    "cache_put": ("Cache_Put_m3E3E3E", "Cache.Put", "il2cppOutput/Assembly-CSharp.cpp", 2600, "Assets/Scripts/Cache.cs", 18, True),
    "game_update": ("Game_Update_m0A0B0C", "Game.Update", "il2cppOutput/Assembly-CSharp.cpp", 500, "Assets/Scripts/Game.cs", 64, True),
    "game_tick": ("Game_Tick_m1D1E1F", "Game.Tick", "il2cppOutput/Assembly-CSharp.cpp", 470, "Assets/Scripts/Game.cs", 40, True),
    "player_loop": ("_Z10PlayerLoopv", "", "Runtime/Misc/PlayerLoop.cpp", 1120, "", 0, False),
    "main": ("main", "", "main.cpp", 22, "", 0, False),
}

DEMANGLED = {
    "_ZN6il2cpp2vm6Object3NewEP11Il2CppClass": "il2cpp::vm::Object::New(Il2CppClass*)",
    "_ZN6il2cpp2vm6String7NewSizeEi": "il2cpp::vm::String::NewSize(int)",
    "_ZN6il2cpp2vm5Array11NewSpecificEP11Il2CppClassj": "il2cpp::vm::Array::NewSpecific(Il2CppClass*, unsigned int)",
    "_Z10PlayerLoopv": "PlayerLoop()",
}

# (namespace, name, flags, element_size); flags: 1 array, 2 string
CLASSES = {
    "String": ("System", "String", 2, 2),
    "List": ("System.Collections.Generic", "List`1", 0, 0),
    "Node": ("", "Node", 0, 0),
    "NodeArr": ("", "Node[]", 1, 8),
    "ByteArr": ("System", "Byte[]", 1, 1),
    "Dict": ("System.Collections.Generic", "Dictionary`2", 0, 0),
    "TempBuffer": ("", "TempBuffer", 0, 0),
    "Enemy": ("", "Enemy", 0, 0),
}

# A code address: an inline chain, innermost first. The last entry really contains the address.
ADDRS = {
    "gc_malloc": ["gc_malloc"], "obj_new": ["obj_new"], "str_new": ["str_new"], "arr_new": ["arr_new"],
    "create_node": ["node_ctor", "create_node"],  # Node..ctor inlined into CreateNode
    "list_add": ["list_add"], "list_grow": ["list_grow"], "concat": ["concat"],
    "hud_text": ["hud_text"], "graph_build": ["graph_build"], "graph_link": ["graph_link"],
    "level_chunk": ["level_chunk"], "enemy_spawn": ["enemy_spawn"], "dict_insert": ["dict_insert"],
    "cache_put": ["cache_put"], "game_update": ["game_update"], "game_tick": ["game_tick"],
    "player_loop": ["player_loop"], "main": ["main"], "unknown": None,  # symbolized, but '??'
}

OUTER = ["game_update", "game_tick", "player_loop", "main"]
# (class, weight in allocations per frame, size per object, stack innermost-first, runs it is in)
BASE_STACKS = [
    ("Node", 6.0, 48, ["gc_malloc", "obj_new", "create_node", "graph_build"], (1, 2)),
    ("Node", 2.0, 48, ["gc_malloc", "obj_new", "create_node", "graph_link"], (1, 2)),
    ("NodeArr", 0.6, 280, ["gc_malloc", "arr_new", "list_grow", "list_add", "graph_link"], (1, 2)),
    ("List", 1.5, 40, ["gc_malloc", "obj_new", "graph_build"], (1, 2)),
    ("String", 9.0, 64, ["gc_malloc", "str_new", "concat", "hud_text"], (1, 2)),
    ("String", 1.0, 36, ["gc_malloc", "str_new", "concat", "cache_put"], (1, 2)),
    ("ByteArr", 0.3, 4120, ["gc_malloc", "arr_new", "level_chunk"], (1, 2)),
    ("TempBuffer", 0.8, 96, ["gc_malloc", "obj_new", "level_chunk"], (1,)),
    ("Dict", 0.2, 80, ["gc_malloc", "obj_new", "dict_insert", "cache_put"], (1, 2)),
    ("Enemy", 1.2, 120, ["gc_malloc", "obj_new", "enemy_spawn"], (2,)),
    ("String", 0.4, 52, ["gc_malloc", "str_new", "unknown", "hud_text"], (1, 2)),
]


def sym_rows(addr_id, key, build):
    chain = ADDRS[key]
    if chain is None:
        return [(addr_id, 0, "", "", "", "", 0, 0, "", 0)]
    rows = []
    for depth, fk in enumerate(chain):
        raw, cs, f, line, csf, csl, _ = FUNCS[fk]
        if build == 2 and fk == "hud_text":
            csl += 3  # build 2 moved this allocation three lines down (see site_of)
        rows.append((addr_id, depth, raw, DEMANGLED.get(raw, raw), cs, f, line, 0, csf, csl))
    return rows


def site_of(stack_keys, build):
    """First game-code frame (innermost game symbol of its inline chain) -> (function, file, line)."""
    for key in stack_keys:
        chain = ADDRS.get(key)
        if not chain:
            continue
        for fk in chain:
            raw, cs, f, line, csf, csl, game = FUNCS[fk]
            if game:
                shift = 3 if build == 2 and fk == "hud_text" else 0  # build 2 moved a line
                return (cs or raw, csf or f, (csl or line) + shift)
    return None


class Writer:
    def __init__(self, db, args):
        self.db, self.args = db, args
        self.addr_ids = {}

    def address(self, build, key, fa):
        k = (build, key)
        if k in self.addr_ids:
            return self.addr_ids[k]
        cur = self.db.execute("INSERT INTO addresses(build_id, module_path, file_address, symbolized) VALUES(?,?,?,1)",
                              (BUILDS[build], GAME_MODULE, fa))
        aid = cur.lastrowid
        self.db.executemany("INSERT INTO symbols VALUES(?,?,?,?,?,?,?,?,?,?)", sym_rows(aid, key, build))
        self.addr_ids[k] = aid
        return aid

    def site(self, s):
        self.db.execute("INSERT OR IGNORE INTO sites(function, file, line) VALUES(?,?,?)", s)
        return self.db.execute("SELECT site_id FROM sites WHERE function=? AND file=? AND line=?", s).fetchone()[0]


def stacks_for(run, n_stacks, rng):
    """The base stacks of this run, then synthetic variants (different callers) up to n_stacks."""
    out = [(c, w, sz, keys + OUTER) for (c, w, sz, keys, runs) in BASE_STACKS if run in runs]
    base = list(out)
    i = 0
    while len(out) < n_stacks:
        c, w, sz, keys = base[i % len(base)]
        variant = keys[:-len(OUTER)] + [f"synth{i}"] + OUTER
        out.append((c, w * rng.uniform(0.01, 0.2), sz, variant))
        i += 1
    return out


def ensure_synth(key, n):
    if key in ADDRS:
        return
    FUNCS[key] = (f"Gameplay_System{n}_Update_m{n:06X}", f"GameplaySystem{n}.Update", "il2cppOutput/Assembly-CSharp.cpp",
                  5000 + n, f"Assets/Scripts/Systems/System{n}.cs", 10 + n % 90, True)
    ADDRS[key] = [key]


# The run's threads: two loading workers share a name (a thread filter by name takes both).
THREADS = [(0, "main"), (1, "Job.Worker 0"), (2, "Loading.Worker"), (3, "Loading.Worker")]


def thread_split(seq, sid, n, rb, gb):
    """The allocating threads of one (frame, class, stack) row, as the symbolizer splits it
    (schema version 2): [(thread, n, requested, gc)]. Fixed rules, no random numbers, so the
    per-(frame, class, stack) sums, and every figure the tests assert without a thread filter,
    are those of the unsplit rows: stacks 4k+1 are the job worker's; 4k+2 are shared, the worker
    allocating a third of each row; 4k+3 alternate frame by frame between the loading workers;
    the rest are the main thread's."""
    if sid % 4 == 1:
        return [(1, n, rb, gb)]
    if sid % 4 == 2:
        k = n // 3
        parts = [(0, n - k, rb * (n - k) // n, gb * (n - k) // n), (1, k, rb * k // n, gb * k // n)]
        return [p for p in parts if p[1] > 0]
    if sid % 4 == 3:
        return [(2 + seq % 2, n, rb, gb)]
    return [(0, n, rb, gb)]


def write_run(w, run, frames, n_stacks, rows_per_frame, rng, args):
    db, build = w.db, run
    tick_hz = 1e9
    start_unix = 1_700_000_000_000_000_000 + run * 3_600_000_000_000
    class_keys = [k for k in CLASSES if not (k == "Enemy" and run == 1) and not (k == "TempBuffer" and run == 2)]
    if run == 2:
        class_keys = list(reversed(class_keys))  # class ids differ between runs: compare must use names
    class_id = {k: i for i, k in enumerate(class_keys)}
    stacks = stacks_for(run, n_stacks, rng)
    for _, _, _, keys in stacks:
        for k in keys:
            if k.startswith("synth"):
                ensure_synth(k, int(k[5:]))
    db.execute("""INSERT INTO runs(run_id, source_file, source_size, ingested_unix_ns, start_unix_ns, pid, process,
                  device, os, arch, session_label, build_id, mode, sample_interval, tick_hz, stop, stop_reason, has_lifetimes,
                  thread_split)
                  VALUES(?,?,?,?,?,?,?,?,?,?,?,?,'aggregate',0,?,'end','',?,1)""",
               (run, f"/captures/run{run}.mt", 123456 * run, start_unix + 10**9, start_unix, 4000 + run, "SampleGame",
                "Pixel 7" if run == 1 else "iPhone 14", "Android 14" if run == 1 else "iOS 17.2", "arm64",
                f"build {run} nightly", BUILDS[build], tick_hz, 1 if run == 2 else 0))
    info = {"process": "SampleGame", "device": "Pixel 7" if run == 1 else "iPhone 14", "runtime_version": "0.1.0",
            "unwinder": "frame-pointer", "mode": "aggregate", "tick_hz": "1000000000"}
    db.executemany("INSERT INTO run_info VALUES(?,?,?)", [(run, k, v) for k, v in info.items()])
    db.execute("INSERT INTO modules VALUES(?,?,?,?,?,?,?,?,?,?)",
               (run, 0, "elf", GAME_MODULE, 0x7f00000000, 0x4000000, 0x7f00000000, 0, BUILDS[build], "/symbols/libil2cpp.so.debug"))
    db.executemany("INSERT INTO threads VALUES(?,?,?,?)", [(run, t, 5000 + 100 * t + run, name) for t, name in THREADS])
    for k, cid in class_id.items():
        ns, name, flags, esz = CLASSES[k]
        db.execute("INSERT INTO classes VALUES(?,?,?,?,?,?,?,?)",
                   (run, cid, 0x10000000 + 0x100 * cid + run, name, ns, f"{ns}.{name}" if ns else name, flags, esz))
    fa_base = 0x100000 + build * 0x40  # build 2's code moved: other file addresses
    stack_rows = []
    for sid, (c, _, _, keys) in enumerate(stacks):
        site = site_of(keys, build)
        site_id = w.site(site) if site else None
        db.execute("INSERT INTO stacks(run_id, stack_id, depth, site_id) VALUES(?,?,?,?)", (run, sid, len(keys), site_id))
        for pos, k in enumerate(keys):
            fa = fa_base + (abs(hash_key(k)) % 0x100000) * 16 + pos
            addr_id = w.address(build, k, fa)
            stack_rows.append((run, sid, pos, 0x7f00000000 + fa, addr_id))
    # One frame outside every module (JIT trampoline): addr_id NULL.
    stack_rows.append((run, 0, len(stacks[0][3]), 0x1234, None))
    db.execute("UPDATE stacks SET depth=depth+1 WHERE run_id=? AND stack_id=0", (run,))
    db.executemany("INSERT INTO stack_frames VALUES(?,?,?,?,?)", stack_rows)

    totals = {}
    frame_rows, alloc_rows, gc_rows = [], [], []
    heap, live, gc_no, t = 4 << 20, 0, 0, 0
    frame_ns = 16_666_667
    leak = 1.0 + 0.002 * (run - 1)
    run_tot = [0, 0, 0, 0]
    pick_n = min(rows_per_frame, len(stacks))
    indexed = list(enumerate(stacks))
    for seq in range(frames):
        chosen = indexed if pick_n == len(stacks) else rng.sample(indexed, pick_n)
        fc = frb = fgb = 0
        for sid, (c, wgt, size, keys) in chosen:
            growth = min(leak ** seq, 3.0) if c == "List" else 1.0
            n = int(wgt * rng.uniform(0.5, 1.5) * growth * args.scale + 0.5)
            if n == 0:
                continue
            rb = n * size
            gb = n * ((size + 15) // 16 * 16)
            for th, tn, trb, tgb in thread_split(seq, sid, n, rb, gb):
                key = (class_id[c], sid, th)
                alloc_rows.append((run, seq, key[0], key[1], tn, trb, tgb, th))
                tt = totals.setdefault(key, [0, 0, 0, seq, seq])
                tt[0] += tn; tt[1] += trb; tt[2] += tgb; tt[4] = seq
            fc += n; frb += rb; fgb += gb
        start = t
        end = t + frame_ns
        heap += fgb
        live += fgb
        gcs = 0
        gc_ns = 0
        if seq % 30 == 29:
            reclaimed = int(live * 0.8)
            live -= reclaimed
            gc_rows.append((run, seq, end - 2_000_000, end - 500_000, heap, heap - live, reclaimed, gc_no))
            gc_no += 1
            gcs, gc_ns = 1, 1_500_000
        # Run 1 as a patched capture (exact GC sizes), run 2 as a no-patch one (estimated sizes,
        # collections from il2cpp's profiler): format.h's MT_FRAME_GC_* bits.
        sources = 0x4 if run == 1 else 0x8 | 0x10
        frame_rows.append((run, seq, 1000 + seq, start, end, fc, frb, fgb, 0, heap, heap - live, gcs, gc_ns,
                           live if run == 2 else None, (1 if seq == frames - 1 else 0) | sources))
        run_tot[0] += fc; run_tot[1] += frb; run_tot[2] += fgb; run_tot[3] += gcs
        t = end
        if len(alloc_rows) > 200000:
            db.executemany("INSERT INTO allocs VALUES(?,?,?,?,?,?,?,?)", alloc_rows); alloc_rows = []
    db.executemany("INSERT INTO allocs VALUES(?,?,?,?,?,?,?,?)", alloc_rows)
    db.executemany("INSERT INTO frames VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", frame_rows)
    db.executemany("INSERT INTO gc_events VALUES(?,?,?,?,?,?,?,?)", gc_rows)
    if run == 1:
        # mt_mark labels: "boss spawned" twice (a range end names its first occurrence).
        starts = {r[1]: r[3] for r in frame_rows}
        half = frames // 2
        db.executemany("INSERT INTO markers VALUES(?,?,?,?)",
                       [(run, 0, starts[0] + 100, "level loaded"), (run, half, starts[half] + 200, "boss spawned"),
                        (run, frames - 1, starts[frames - 1] + 300, "boss spawned")])
    db.executemany("INSERT INTO run_class_stack VALUES(?,?,?,?,?,?,?,?,?)",
                   [(run, k[0], k[1], v[0], v[1], v[2], v[3], v[4], k[2]) for k, v in sorted(totals.items())])
    if run == 2:
        node = class_id["Node"]
        db.execute("INSERT INTO survivors VALUES(?,?,?,?,?,?,?,?,?)", (run, node, 0, 25, 25 * 48, 3, 20, 0, 20))
        db.execute("INSERT INTO deaths VALUES(?,?,?,?,?)", (run, 29, node, 7, 7 * 48))
        write_death_sites(db, run, class_id)
    db.execute("UPDATE runs SET frame_count=?, duration_ns=?, alloc_count=?, requested_bytes=?, gc_bytes=?, gc_count=? WHERE run_id=?",
               (frames, t, run_tot[0], run_tot[1], run_tot[2], run_tot[3], run))


def leb128(v):
    out = bytearray()
    while True:
        b, v = v & 0x7F, v >> 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


# Run 2's deaths linked to their allocations (death_sites): (frame of death, class, stack,
# [(age, count, gc_bytes)]). Frame 29 is the `deaths` row above split by stack and age; frame 59
# adds HUD strings and an enemy. No more than the fewest the allocation loop gives a frame (3
# Nodes of stack 0, 1 of stack 1, 5 HUD strings, 1 enemy), so no frame dies more than it made.
# tests/viewer/test_query_lifetimes.cpp asserts from these.
DEATH_SITES = [
    (29, "Node", 0, [(0, 3, 144), (1, 3, 144)]),
    (29, "Node", 1, [(5, 1, 48)]),
    (59, "String", 4, [(0, 5, 320), (2, 5, 320)]),
    (59, "Enemy", 8, [(40, 1, 128)]),
]


def write_death_sites(db, run, class_id):
    for seq, cls, stack, ages in DEATH_SITES:
        blob = b"".join(leb128(a) + leb128(n) + leb128(b) for a, n, b in ages)
        # Each stack's deaths are its allocating thread's (none of these stacks is split).
        thread = thread_split(seq, stack, 1, 0, 0)[0][0]
        db.execute("INSERT INTO death_sites VALUES(?,?,?,?,?,?)", (run, seq, class_id[cls], stack, blob, thread))
    db.executemany("INSERT INTO deaths VALUES(?,?,?,?,?)",
                   [(run, 59, class_id["String"], 10, 640), (run, 59, class_id["Enemy"], 1, 128)])


def hash_key(k):
    h = 2166136261
    for ch in k.encode():
        h = ((h ^ ch) * 16777619) & 0xFFFFFFFF
    return h


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--schema", required=True, help="store/schema.sql")
    ap.add_argument("--frames", type=int, nargs=2, default=[240, 300], metavar=("RUN1", "RUN2"))
    ap.add_argument("--stacks", type=int, default=0, help="stacks per run (0: only the base stacks)")
    ap.add_argument("--rows-per-frame", type=int, default=1000, help="(class, stack) rows per frame at most")
    ap.add_argument("--scale", type=float, default=1.0, help="multiplies every allocation count")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    tmp = args.out + ".tmp"
    if os.path.exists(tmp):
        os.remove(tmp)
    db = sqlite3.connect(tmp)
    db.execute("PRAGMA journal_mode=OFF")
    db.execute("PRAGMA synchronous=OFF")
    with open(args.schema) as f:
        db.executescript(f.read())
    db.execute("INSERT INTO meta VALUES('generator', 'tests/viewer/make_fixture_db.py')")
    rng = random.Random(args.seed)
    w = Writer(db, args)
    for run, frames in ((1, args.frames[0]), (2, args.frames[1])):
        write_run(w, run, frames, args.stacks, args.rows_per_frame, rng, args)
    db.commit()
    db.execute("ANALYZE")
    db.commit()
    db.close()
    os.replace(tmp, args.out)
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
