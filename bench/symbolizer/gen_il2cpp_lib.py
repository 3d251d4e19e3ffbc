#!/usr/bin/env python3
"""gen_il2cpp_lib.py — generates and builds an IL2CPP-like shared library for the symbolizer
benchmark, and lists its call-site return addresses.

The library looks like il2cpp output: many generated .cpp files of extern "C" methods named
<Type>_<Method>_m<40 hex>, each calling methods of other files (so the calls stay real calls)
through always-inline codegen helpers from a shared header (so most call sites carry an inline
chain, as Unity's il2cpp-codegen.h produces), built with clang -O2 -g.

    gen_il2cpp_lib.py OUT_DIR [--functions N] [--files N] [--jobs N] [--cxx clang++-19]

writes OUT_DIR/libil2cpp_bench.so and OUT_DIR/return_addresses.txt (hex file addresses just after
every call instruction, one per line). Skips the build when OUT_DIR already holds a library made
with the same parameters (OUT_DIR/params.txt).
"""
import argparse
import concurrent.futures
import hashlib
import inspect
import os
import random
import re
import subprocess
import sys
import time

COMPILE_FLAGS = ["-O2", "-g", "-fPIC", "-fno-omit-frame-pointer"]
TYPES = ["Enemy", "Player", "Bullet", "Weapon", "Inventory", "Quest", "Dialog", "Pathfinder", "NavMesh", "Spawner",
         "UIPanel", "HudText", "ScoreBoard", "Particle", "AudioMixer", "Terrain", "Camera", "Tween", "Loot", "Shop",
         "Network", "Packet", "Lobby", "Matchmaker", "SaveGame", "Achievement", "Leaderboard", "Chat", "Emote", "Skill"]
METHODS = ["Update", "LateUpdate", "Awake", "Start", "OnEnable", "Tick", "Refresh", "Build", "Create", "Spawn",
           "Despawn", "Apply", "Compute", "Resolve", "Serialize", "Deserialize", "Format", "Parse", "Load", "Store",
           "get_Count", "get_Item", "set_Item", "Add", "Remove", "TryGetValue", "Contains", "Clear", "ToString", "Equals"]

HEADER = r'''// il2cpp-codegen-bench.h — always-inline helpers in the style of il2cpp-codegen.h.
#pragma once
#include <stdint.h>
#define IL2CPP_FORCE_INLINE static inline __attribute__((always_inline))
#define IL2CPP_EXTERN_C extern "C"
struct RuntimeObject { void *klass; int32_t fields[4]; };
IL2CPP_EXTERN_C void *bench_sink;
IL2CPP_FORCE_INLINE void NullCheck(void *p) {
    if (!p) bench_sink = p;
}
IL2CPP_FORCE_INLINE int32_t il2cpp_codegen_add(int32_t a, int32_t b) {
    return a + b;
}
IL2CPP_FORCE_INLINE RuntimeObject *il2cpp_codegen_object_new(RuntimeObject *(*alloc)(int32_t), int32_t klass) {
    RuntimeObject *o = alloc(klass);
    NullCheck(o);
    return o;
}
IL2CPP_FORCE_INLINE int32_t il2cpp_codegen_call_virtual(int32_t (*fn)(RuntimeObject *, int32_t), RuntimeObject *o, int32_t a) {
    NullCheck(o);
    return fn(o, il2cpp_codegen_add(a, 1));
}
IL2CPP_FORCE_INLINE int32_t Box_Int32(int32_t (*fn)(RuntimeObject *, int32_t), RuntimeObject *o, int32_t v) {
    int32_t r = il2cpp_codegen_call_virtual(fn, o, v);
    return r ^ v;
}
'''


def method_name(rng, i):
    t = rng.choice(TYPES) + str(i % 97)
    m = rng.choice(METHODS)
    return "%s_%s_m%040X" % (t, m, rng.getrandbits(160))


def generate(out, functions, files):
    rng = random.Random(12345)
    names = [method_name(rng, i) for i in range(functions)]
    per_file = (functions + files - 1) // files
    src = os.path.join(out, "src")
    os.makedirs(src, exist_ok=True)
    with open(os.path.join(src, "il2cpp-codegen-bench.h"), "w") as f:
        f.write(HEADER)
    paths = []
    for fi in range(files):
        mine = names[fi * per_file:(fi + 1) * per_file]
        if not mine:
            break
        lines = ['#include "il2cpp-codegen-bench.h"', ""]
        if fi == 0:
            lines.append('IL2CPP_EXTERN_C void *bench_sink = 0;')
        # Callees from other files: real calls, not inlinable without LTO.
        callees = {}
        for n in mine:
            callees[n] = [names[rng.randrange(functions)] for _ in range(10)]
        declared = sorted({c for cs in callees.values() for c in cs})
        for c in declared:
            lines.append("IL2CPP_EXTERN_C int32_t %s(RuntimeObject *__this, int32_t a);" % c)
        lines.append("IL2CPP_EXTERN_C RuntimeObject *Object_New_Bench(int32_t klass);")
        for n in mine:
            cs = callees[n]
            lines.append("IL2CPP_EXTERN_C __attribute__((noinline)) int32_t %s(RuntimeObject *__this, int32_t a)" % n)
            lines.append("{")
            lines.append("    int32_t v = il2cpp_codegen_add(a, %d);" % rng.randrange(1000))
            lines.append("    RuntimeObject *o = il2cpp_codegen_object_new(Object_New_Bench, %d);" % rng.randrange(5000))
            for k, c in enumerate(cs):
                kind = k % 3
                if kind == 0:
                    lines.append("    v += il2cpp_codegen_call_virtual(%s, o, v);" % c)
                elif kind == 1:
                    lines.append("    v ^= Box_Int32(%s, __this, v);" % c)
                else:
                    lines.append("    if (v & %d) v -= %s(o, v);" % (1 << (k % 7), c))
            lines.append("    NullCheck(o);")
            lines.append("    return v;")
            lines.append("}")
            lines.append("")
        path = os.path.join(src, "Bulk_Generated_%d.cpp" % fi)
        with open(path, "w") as f:
            f.write("\n".join(lines))
        paths.append(path)
    # The allocation function, in a file of its own.
    alloc = os.path.join(src, "il2cpp_vm_Object.cpp")
    with open(alloc, "w") as f:
        f.write('#include "il2cpp-codegen-bench.h"\nstatic RuntimeObject heap[64];\n'
                'IL2CPP_EXTERN_C RuntimeObject *Object_New_Bench(int32_t klass) { return &heap[klass & 63]; }\n')
    paths.append(alloc)
    return paths


def build(out, paths, cxx, jobs):
    objs = []
    flags = COMPILE_FLAGS + ["-c"]

    def compile_one(p):
        o = p[:-4] + ".o"
        subprocess.run([cxx] + flags + [p, "-o", o], check=True)
        return o

    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        for i, o in enumerate(ex.map(compile_one, paths)):
            objs.append(o)
            if (i + 1) % 20 == 0:
                print("gen_il2cpp_lib: compiled %d/%d files (%.0fs)" % (i + 1, len(paths), time.time() - t0), flush=True)
    lib = os.path.join(out, "libil2cpp_bench.so")
    subprocess.run([cxx, "-shared", "-fuse-ld=lld", "-Wl,--build-id", "-o", lib] + objs, check=True)
    for o in objs:
        os.remove(o)
    return lib


def return_addresses(lib, objdump, out_path):
    # "  1234:  call  0x5678 <...>" -> the address of the next instruction is the return address.
    proc = subprocess.Popen([objdump, "-d", "--no-show-raw-insn", "--section=.text", lib], stdout=subprocess.PIPE, text=True)
    insn = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)")
    pending_call = False
    n = 0
    with open(out_path, "w") as out:
        for line in proc.stdout:
            m = insn.match(line)
            if not m:
                continue
            if pending_call:
                out.write(m.group(1) + "\n")
                n += 1
            pending_call = m.group(2).startswith("call")
    proc.wait()
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--functions", type=int, default=48000)
    ap.add_argument("--files", type=int, default=160)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cxx", default="clang++-19")
    ap.add_argument("--objdump", default="llvm-objdump-19")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    # What the library depends on: the generated code and the compile flags (not this script's
    # messages), so editing the reporting does not force a rebuild.
    recipe = inspect.getsource(generate) + inspect.getsource(method_name) + HEADER + repr(COMPILE_FLAGS)
    params = "functions=%d files=%d cxx=%s gen=%s\n" % (a.functions, a.files, a.cxx, hashlib.sha1(recipe.encode()).hexdigest())
    stamp = os.path.join(a.out, "params.txt")
    lib = os.path.join(a.out, "libil2cpp_bench.so")
    addrs = os.path.join(a.out, "return_addresses.txt")
    if os.path.exists(lib) and os.path.exists(addrs) and os.path.exists(stamp) and open(stamp).read() == params:
        print("gen_il2cpp_lib: %s is up to date" % lib)
        return 0
    t0 = time.time()
    paths = generate(a.out, a.functions, a.files)
    print("gen_il2cpp_lib: generated %d files, %d functions" % (len(paths), a.functions), flush=True)
    build(a.out, paths, a.cxx, a.jobs)
    n = return_addresses(lib, a.objdump, addrs)
    with open(stamp, "w") as f:
        f.write(params)
    import resource
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    print("gen_il2cpp_lib: %s, %.1f MB, %d call sites, built in %.0fs (compilers used %.0f CPU-s)"
          % (lib, os.path.getsize(lib) / 1e6, n, time.time() - t0, cpu.ru_utime + cpu.ru_stime))
    return 0


if __name__ == "__main__":
    sys.exit(main())
