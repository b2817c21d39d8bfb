#!/usr/bin/env python3
"""Writes a knowledge directory with one more major than knowledge/: a fake one.

The test of tests/major/ proves that a major is added by data alone: knowledge/majors.json
and the files it lists. This makes such a directory without a real server: the knowledge
of the last major of FROM copied as MAJOR (its "major" changed, and a server version that
says it is fake), listed last in majors.json (the default stays), with its extension
modules and its SQL knowledge.

Usage: fake_major.py --from knowledge --major 19 --out DIR
"""
import argparse
import json
import os
import shutil


def read(path):
    with open(path) as f:
        return json.load(f)


def write(path, doc):
    """Writes `doc` (sorted keys, 2-space indent), only when it changes (incremental builds)."""
    text = json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def copy(src, dst):
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copyfile(src, dst)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--from", dest="source", required=True, help="the knowledge directory (knowledge/)")
    ap.add_argument("--major", type=int, required=True, help="the fake major, after the last listed one")
    ap.add_argument("--out", required=True, help="the directory to write")
    args = ap.parse_args()
    majors = read(os.path.join(args.source, "majors.json"))
    listed = [m["major"] for m in majors["majors"]]
    last = listed[-1]
    if args.major <= last:
        raise SystemExit(f"fake_major.py: --major {args.major} is not after the last major ({last})")
    for m in listed:
        copy(os.path.join(args.source, f"pg{m}.json"), os.path.join(args.out, f"pg{m}.json"))
        copy(os.path.join(args.source, "extensions", f"pg{m}.json"),
             os.path.join(args.out, "extensions", f"pg{m}.json"))
    majors["majors"].append({"major": args.major, "npm_version": None})
    write(os.path.join(args.out, "majors.json"), majors)
    core = read(os.path.join(args.source, f"pg{last}.json"))
    core.update(major=args.major, server_version=f"{args.major}.0",
                package=f"a copy of the knowledge of {core['server_version']} (tests/major/fake_major.py)")
    write(os.path.join(args.out, f"pg{args.major}.json"), core)
    extensions = read(os.path.join(args.source, "extensions", f"pg{last}.json"))
    extensions["major"] = args.major
    write(os.path.join(args.out, "extensions", f"pg{args.major}.json"), extensions)
    sql = read(os.path.join(args.source, "sql.json"))
    sql["majors"][str(args.major)] = sql["majors"][str(last)]
    write(os.path.join(args.out, "sql.json"), sql)


if __name__ == "__main__":
    main()
