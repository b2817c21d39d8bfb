#!/usr/bin/env python3
"""A stand-in for `pgconflint check --format json` used to test the differential harness.

It speaks the JSON contract of differential.py but understands almost nothing: each
`name = value` line becomes an applied setting whose value is the text as written (quotes
removed), and a line that does not look like a setting is a fatal PGC001 diagnostic.
Includes are ignored.  Expect a low but non-zero agreement rate; the point is to exercise
the plumbing (batching, root matching, fatal and value extraction, the report):

    PGCONFLINT=tests/integration/differential/fake_pgconflint.py \
        python3 tests/integration/differential.py --major 18 --limit 500 --min-rate 0
"""
import json
import re
import sys

LINE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)\s*=?\s*"
                  r"('(?:[^'\\\n]|\\.|'')*'|[^\s#']+)\s*(#.*)?$")


def analyse(path):
    settings, diags = [], []
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    for no, line in enumerate(lines, 1):
        line = line.rstrip("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = LINE.match(line)
        if not m:
            diags.append({"root": path, "file": path, "line": no, "column": 1, "severity": "error",
                          "fatal": True, "code": "PGC001", "name": "syntax-error",
                          "message": "syntax error"})
            continue
        name, value = m.group(1), m.group(2)
        if name.lower() in ("include", "include_if_exists", "include_dir"):
            continue
        if value.startswith("'"):
            value = value[1:-1].replace("''", "'")
        settings.append({"name": name, "raw": m.group(2), "value": value, "file": path,
                         "line": no, "column": 1, "applied": True})
    return {"path": path, "settings": settings}, diags


def main(argv):
    if len(argv) < 6 or argv[0] != "check" or "--format" not in argv:
        print("usage: fake_pgconflint.py check --pg-version N --format json PATH...",
              file=sys.stderr)
        return 3
    paths = argv[5:]
    roots, diags = [], []
    for p in paths:
        root, d = analyse(p)
        roots.append(root)
        diags += d
    json.dump({"version": 1, "tool": {"name": "fake"}, "pg_version": int(argv[2]),
               "roots": roots, "diagnostics": diags, "summary": {}}, sys.stdout)
    return 1 if diags else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
