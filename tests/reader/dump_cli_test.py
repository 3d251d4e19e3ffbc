#!/usr/bin/env python3
"""memtracer-dump end to end: text and JSON output, warnings and exit codes, on files written by
the runtime's encoder (reader-make-samples) and by real captures (reader-make-real-runs).
Usage: dump_cli_test.py DUMP MAKE_SAMPLES WORKDIR [MAKE_REAL_RUNS]"""
import json
import os
import subprocess
import sys

DUMP, MAKE, WORK = sys.argv[1:4]
MAKE_REAL = sys.argv[4] if len(sys.argv) > 4 else None
# A cross build's binaries run through the emulator CMake uses (e.g. qemu-aarch64 -L ...).
EMULATOR = os.environ.get("MT_EMULATOR", "").split()
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def dump(*args):
    # The timeout only turns a regression (a read that never ends) into a failure; nothing here
    # waits on it: every refusal below happens before the first read.
    p = subprocess.run([*EMULATOR, DUMP, *args], capture_output=True, timeout=120)
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8")


def sample(name):
    return os.path.join(WORK, name + ".mt")


def test_text():
    code, out, err = dump(sample("complete"))
    check(code == 0 and err == "", f"complete: exit {code}, stderr {err!r}")
    for want in ["format version     4", "start time         2023-11-14T22:13:20.123456789Z", "pid                4242",
                 "arch               x86_64, 8-byte pointers", "mode               events",
                 "flags              lifetimes, gc-events (0x18)", "process            SampleGame",
                 "deadbeef0102030405060708090a0b0c0d0e0f10  /opt/game/libil2cpp.so", "worker-renamed",
                 "Game.Weapons.Bullet [value-type]", "frames (6 committed, 6 shown)", "allocations seen   40",
                 f"stop               end at offset {os.path.getsize(sample('complete'))}",
                 "end reason         stopped: mt_stop", "loader\\xff", "marks (2)",
                 "  frame       2  index       104  +0.050 ms  level loaded",
                 "  frame       3  index       106  +0.050 ms  boss spawned"]:
        check(want in out, f"complete text lacks {want!r}")
    rows = [l for l in out.splitlines() if l.startswith("        ") and l.split()[0].isdigit()]
    check(len(rows) == 6, f"6 frame rows expected, got {len(rows)}")
    code, out, _ = dump(sample("complete"), "--frames", "2", "--events")
    check("frames (6 committed, 2 shown)" in out, "--frames 2 shows 2")
    check(out.count("  event  +") == 16, "--events lists 16 events of 2 frames")


def test_json():
    code, out, err = dump(sample("complete"), "--json", "--all-frames", "--events")
    check(code == 0, f"json exit {code}")
    doc = json.loads(out)
    check(doc["header"]["version"] == 4 and doc["header"]["pid"] == 4242, "json header")
    check(doc["info"]["session_label"] == 'level "1"\n\tGr\u00f6\u00dfe \\ \x01', "json escaping round-trips")
    check(doc["threads"][2]["name"] == "loader\ufffd", "invalid UTF-8 becomes U+FFFD")
    check([m["build_id"] for m in doc["modules"]][:2] == ["deadbeef0102030405060708090a0b0c0d0e0f10",
                                                          "deadbeef0102030405060708090a0b0c"], "json build ids")
    frames = doc["frames"]
    check(frames["committed"] == 6 and len(frames["rows"]) == 6, "json frames")
    check(sum(len(r["event_list"]) for r in frames["rows"]) == 36, "json events")
    check(frames["totals"]["events"] == 36 and frames["totals"]["dropped"] == 3, "json totals")
    check(frames["rows"][4]["death_list"][0]["address"] == "0x7f4400010100", "json deaths")
    check(doc["counters"]["allocations_seen"] == 40, "json counters")
    check(doc["marks"] == [{"frame_seq": 2, "frame_index": 104, "tick": 1000 + 2 * 16667 + 50, "label": "level loaded"},
                           {"frame_seq": 3, "frame_index": 106, "tick": 1000 + 3 * 16667 + 50, "label": "boss spawned"}],
          "json marks")
    check(doc["end"]["stop"] == "end" and doc["end"]["end_message"] == "mt_stop", "json end")
    code, out, _ = dump(sample("aggregate"), "--json", "--events")
    doc = json.loads(out)
    check(doc["header"]["mode"] == "aggregate" and len(doc["frames"]["rows"][0]["aggregates"]) == 4, "json aggregates")
    # The same check CI tools would do: the standard library's validator.
    p = subprocess.run([sys.executable, "-m", "json.tool"], input=out.encode(), capture_output=True)
    check(p.returncode == 0, "python3 -m json.tool accepts the document")


def test_ends():
    code, out, err = dump(sample("truncated"))
    check(code == 0 and "warning: truncated file: the file ends inside the payload of the FRAME chunk" in err,
          f"truncated: exit {code}, {err!r}")
    check("frames (4 committed, 4 shown)" in out and "uncommitted events 12" in out, "truncated keeps 4 frames")
    code, out, err = dump(sample("eof"), "--json")
    check(code == 0 and "without an END chunk" in err and json.loads(out)["end"]["stop"] == "eof", "eof")
    code, out, err = dump(sample("corrupt"))
    check(code == 3 and "error: corrupt file: CRC mismatch in the THREADS chunk" in err, f"corrupt: {code} {err!r}")
    check("frames (2 committed, 2 shown)" in out and "stop               corrupt at offset" in out,
          "corrupt prints what was good")
    code, out, err = dump(sample("corrupt"), "--json")
    check(code == 3 and json.loads(out)["end"]["stop"] == "corrupt", "corrupt json")


def test_unreadable_and_usage():
    code, out, err = dump(sample("foreign"))
    check(code == 2 and out == "" and "not a run.mt: magic is 'PK\\x03\\x04" in err, f"foreign: {code} {err!r}")
    code, out, err = dump(sample("version7"), "--json")
    check(code == 2 and out == "" and "format version 7, this reader knows 1 to 4" in err, f"version: {code} {err!r}")
    code, _, err = dump(os.path.join(WORK, "missing.mt"))
    check(code == 2 and "No such file or directory" in err, "missing file")
    for args, want in [([], "no run.mt given"), (["--bogus", "x.mt"], "--bogus: unknown option"),
                       (["x.mt", "--frames", "many"], "'many' is not a number"), (["a.mt", "b.mt"], "one file")]:
        code, _, err = dump(*args)
        check(code == 1 and want in err and "usage:" in err, f"usage {args}: {code} {err!r}")
    code, out, _ = dump("--help")
    check(code == 0 and "Exit status:" in out and "--all-frames" in out, "--help")


def test_damaged():
    """Intact chunks that contradict each other: exit 3, what and where, the frames before kept."""
    code, out, err = dump(sample("dup-events"))
    check(code == 3 and "error: corrupt file: FRAME chunk at offset" in err and
          "frame_seq 2 (frame index 104) commits 8 events, but its EVENTS chunks hold 12" in err,
          f"dup-events: {code} {err!r}")
    check("frames (2 committed, 2 shown)" in out, "dup-events prints the 2 frames before the damage")
    code, out, err = dump(sample("mode-aggregate-with-events"), "--json")
    check(code == 3 and "EVENTS chunk at offset" in err and "the file header says aggregate mode" in err,
          f"aggregate header, events chunks: {code} {err!r}")
    check(json.loads(out)["end"]["stop"] == "corrupt", "mode contradiction json")


def test_not_regular_files():
    """A FIFO (no writer: open would block) and /dev/zero (endless) are refused before any read."""
    fifo = os.path.join(WORK, "fifo.mt")
    if os.path.exists(fifo):
        os.remove(fifo)
    os.mkfifo(fifo)
    code, out, err = dump(fifo)
    check(code == 2 and out == "" and "it is a FIFO, not a regular file" in err, f"fifo: {code} {err!r}")
    os.remove(fifo)
    code, out, err = dump("/dev/zero")
    check(code == 2 and out == "" and "'/dev/zero': it is a character device, not a regular file" in err,
          f"/dev/zero: {code} {err!r}")


def test_real_capture():
    subprocess.run([*EMULATOR, MAKE_REAL, WORK], check=True)
    code, out, err = dump(sample("real-events"), "--all-frames")
    check(code == 0 and err == "", f"real text: exit {code}, {err!r}")
    for want in ["mode               events", "session_label      reader real run", "reader-make-real-runs",
                 "System.String [string]", "Game.Player", "stop               end at offset"]:
        check(want in out, f"real text lacks {want!r}")
    code, out, err = dump(sample("real-events"), "--json", "--all-frames", "--events")
    doc = json.loads(out)
    check(code == 0 and doc["end"]["stop"] == "end", "real json end")
    check(doc["frames"]["totals"]["events"] == 288, "real json: 6 frames x 2 threads x 24 allocations")
    check(sum(len(r["event_list"]) for r in doc["frames"]["rows"]) == 288, "real json event lists")
    check(any(m["path"].endswith("reader-make-real-runs") and len(m["build_id"]) == 40 for m in doc["modules"]),
          "real json: the executable with its GNU build id")
    code, out, _ = dump(sample("real-aggregate"), "--json")
    doc = json.loads(out)
    check(code == 0 and doc["header"]["mode"] == "aggregate" and doc["frames"]["totals"]["records"] > 0,
          "real aggregate json")


def test_format_doc_hexdump():
    """docs/format.md walks through tiny.mt byte by byte: its hexdump must be what the writer writes."""
    data = open(sample("tiny"), "rb").read()
    doc = open(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "format.md"), encoding="utf-8").read()
    for off in range(0, len(data), 16):
        row = data[off:off + 16]
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in row)
        line = f"{off:08x}: {' '.join(f'{b:02x}' for b in row):<47}  {text}"
        check(line in doc, f"docs/format.md lacks the tiny.mt hexdump line {line!r}")


os.makedirs(WORK, exist_ok=True)
subprocess.run([*EMULATOR, MAKE, WORK], check=True)
tests = [test_text, test_json, test_ends, test_unreadable_and_usage, test_damaged, test_not_regular_files,
         test_format_doc_hexdump]
if MAKE_REAL:
    tests.append(test_real_capture)
for t in tests:
    t()
print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
