#!/usr/bin/env python3
"""Writes docs/api.md: the endpoint reference with real responses, each produced by running
`memtracer-viewer DB --get TARGET` on the fixture database (tests/viewer/make_fixture_db.cpp).
   python3 viewer-api/tools/gen_api_doc.py BUILD_DIR > docs/api.md
Long arrays are cut to a few elements ("..."), nothing else is edited."""
import json
import subprocess
import sys

build = sys.argv[1]
viewer = f"{build}/bin/memtracer-viewer"
db = f"{build}/tests/viewer/fixture.db"


def get(target):
    p = subprocess.run([viewer, db, "--get", target], capture_output=True, text=True)
    return p.stdout


def shorten(v, depth=0):
    if isinstance(v, list):
        keep = 3 if depth > 0 else 4
        out = [shorten(x, depth + 1) for x in v[:keep]]
        if len(v) > keep:
            out.append(f"... {len(v) - keep} more")
        return out
    if isinstance(v, dict):
        return {k: shorten(x, depth + 1) for k, x in v.items()}
    return v


def example(target, raw=False, lines=None):
    body = get(target)
    if raw:
        text = "\n".join(body.splitlines()[:lines]) + ("\n..." if lines and len(body.splitlines()) > lines else "")
    else:
        text = json.dumps(shorten(json.loads(body)), indent=2, ensure_ascii=False)
    return f"`GET {target}`\n\n```{'text' if raw else 'json'}\n{text}\n```\n"


doc = open(__file__.replace("gen_api_doc.py", "api.md.in")).read()
out = []
for line in doc.splitlines(keepends=True):
    if line.startswith("@example "):
        parts = line.split()
        if parts[1] == "raw":
            out.append(example(parts[2], raw=True, lines=int(parts[3])))
        else:
            out.append(example(parts[1]))
    else:
        out.append(line)
sys.stdout.write("".join(out))
