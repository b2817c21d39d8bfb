#!/usr/bin/env python3
"""Measures what each term of PostgreSQL's main shared memory area costs, per major, on the
real server binaries, and writes knowledge/shared_memory.json.

Which terms exist and how many units of each a configuration asks for is pgconflint's model
(src/core/model/shared_memory.cc: facts from the documentation and the source); what one unit
costs in bytes is measured here:

  1. seeded random configurations over every parameter the model reads (two sets: one to fit,
     one only to check);
  2. the exact size the server computes for each (tests/support/pgtools.py shared_memory_bytes:
     `postgres -C shared_memory_size_in_huge_pages` with huge_page_size = 1kB on 15 and later,
     the single-user backend's "invoking IpcMemoryCreate(size=N)" log line on 14, which has no
     shared_memory_size; a sample of the 15+ configurations is measured both ways and must agree);
  3. the term counts pgconflint gives each configuration (`show --format json ...
     shared_memory_size`, its "terms"), with the pgconflint binary of this checkout;
  4. the least-squares bytes per unit of every term, and the largest difference between the
     model and the server over both sets (max_error), which the file records with every point.

Nothing about PostgreSQL is typed in here: the value lists below are probe inputs (ranges to
draw from), and the parameters' existence and limits come from knowledge/pg<major>.json.
The output is deterministic for a seed and a set of binaries.

Usage: scripts/harvest_shared_memory.py [MAJOR...] [--pgconflint PATH] [--fit N] [--check N]
(default: every major of knowledge/majors.json, build/pgconflint or $PGCONFLINT, 120 and 40)
"""
import argparse
import concurrent.futures
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
import pgtools  # noqa: E402  (needs the path above)

OUT = os.path.join(ROOT, "knowledge", "shared_memory.json")
SCHEMA = 1
SEED = 2026
# The server's last step: its sum rounded up to the next multiple of 8192 (a whole 8192 more
# when it is one already); the fit aims at the middle of that step.
ROUND = 8192
SNAP = 0.002


# ---------------------------------------------------------------------------------------
# Configurations (probe inputs, not facts)

def log_int(rng, lo, hi):
    """An integer between lo and hi, log-uniformly (lo >= 1)."""
    return int(round(math.exp(rng.uniform(math.log(lo), math.log(hi)))))


def draw(rng, params):
    """One random configuration: name -> value, for the parameters `params` (pg_settings rows
    by name) that the model reads and this major has."""
    def has(n):
        return n in params

    def upto(n, hi):
        return min(hi, int(params[n]["max_val"]))

    c = {"shared_buffers": log_int(rng, 16, upto("shared_buffers", 1 << 27)),
         "max_connections": log_int(rng, 5, 20000),
         "max_worker_processes": rng.choice([0, log_int(rng, 1, 2000)]),
         "max_wal_senders": rng.choice([0, log_int(rng, 1, 500)]),
         "max_prepared_transactions": rng.choice([0, 0, log_int(rng, 1, 5000)]),
         "max_locks_per_transaction": log_int(rng, 10, 20000),
         "max_pred_locks_per_transaction": log_int(rng, 10, 20000),
         "wal_buffers": rng.choice([-1, -1, log_int(rng, 8, upto("wal_buffers", 262143))]),
         "track_activity_query_size": log_int(rng, 100, upto("track_activity_query_size", 1 << 20)),
         "hot_standby": rng.choice(["on", "off"]),
         "max_replication_slots": rng.choice([0, log_int(rng, 1, 5000)]),
         "max_logical_replication_workers": rng.choice([0, log_int(rng, 1, 2000)]),
         "min_dynamic_shared_memory": rng.choice([0, 0, log_int(rng, 1, 4096)])}
    if has("autovacuum_worker_slots"):
        c["autovacuum_worker_slots"] = log_int(rng, 1, 500)
    else:
        c["autovacuum_max_workers"] = log_int(rng, 1, 200)
    if has("old_snapshot_threshold"):
        c["old_snapshot_threshold"] = rng.choice([-1, -1, 0, log_int(rng, 1, 86400)])
    for n in ("transaction_buffers", "subtransaction_buffers", "commit_timestamp_buffers"):
        if has(n):
            c[n] = rng.choice([0, 0, 16 * log_int(rng, 1, 8192)])
    for n in ("multixact_member_buffers", "multixact_offset_buffers", "notify_buffers", "serializable_buffers"):
        if has(n):
            c[n] = rng.choice([int(params[n]["boot_val"]), 16 * log_int(rng, 1, 8192)])
    if has("io_max_concurrency"):
        c["io_max_concurrency"] = rng.choice([-1, -1, log_int(rng, 1, upto("io_max_concurrency", 1024))])
        c["io_max_combine_limit"] = log_int(rng, 1, upto("io_max_combine_limit", 128))
        c["io_method"] = rng.choice(["worker", "sync"])
        c["io_workers"] = log_int(rng, 1, upto("io_workers", 32))
    if has("max_active_replication_origins"):
        c["max_active_replication_origins"] = rng.choice([0, log_int(rng, 1, 5000)])
    return c


def configurations(major, seed, n):
    with open(os.path.join(ROOT, "knowledge", f"pg{major}.json")) as f:
        params = {p["name"]: p for p in json.load(f)["parameters"]}
    rng = random.Random(f"{seed}-{major}")
    return [draw(rng, params) for _ in range(n)]


# ---------------------------------------------------------------------------------------
# Measuring: the server's size, pgconflint's term counts

def measure(major, datadirs, configs):
    """The server's bytes for each configuration (None when it refuses one, with why), one
    worker per data directory: a -C of a computed parameter holds its data directory's lock."""
    method = "C" if major >= 15 else "log"
    out = [None] * len(configs)

    def work(k):
        for i in range(k, len(configs), len(datadirs)):
            out[i] = pgtools.shared_memory_bytes(major, datadirs[k], configs[i], method)

    with concurrent.futures.ThreadPoolExecutor(len(datadirs)) as pool:
        list(pool.map(work, range(len(datadirs))))
    return out


def conf_text(settings):
    return "".join(f"{k} = '{v}'\n" for k, v in settings.items())


def term_counts(pgconflint, major, configs):
    """pgconflint's terms for each configuration: [{term: count}]."""
    out = []
    with tempfile.TemporaryDirectory(prefix="pgconflint-shmem-") as d:
        for i, c in enumerate(configs):
            path = os.path.join(d, f"{i}.conf")
            with open(path, "w") as f:
                f.write(conf_text(c))
            r = subprocess.run([pgconflint, "show", "--no-config", "--pg-version", str(major), "--format", "json",
                                path, "shared_memory_size"], capture_output=True, text=True)
            if r.returncode != 0:
                raise SystemExit(f"pgconflint show failed on {c}:\n{r.stderr}")
            out.append({t["term"]: t["count"] for t in json.loads(r.stdout)[0]["terms"]})
    return out


# ---------------------------------------------------------------------------------------
# Fitting

def least_squares(rows, ys, names):
    """The coefficients minimising the squared error of rows (dicts name -> count) against ys:
    normal equations over columns scaled to 1, solved by Gauss-Jordan with partial pivoting."""
    scale = {k: max(abs(r[k]) for r in rows) or 1.0 for k in names}
    x = [[r[k] / scale[k] for k in names] for r in rows]
    n = len(names)
    m = [[sum(row[i] * row[j] for row in x) for j in range(n)] + [sum(row[i] * y for row, y in zip(x, ys))]
         for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-9:
            raise SystemExit(f"the points do not determine the cost of {names[col]}: draw more (--fit)")
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / m[col][col]
                m[r] = [a - f * b for a, b in zip(m[r], m[col])]
    return {k: m[i][n] / m[i][i] / scale[k] for i, k in enumerate(names)}


def fit(rows, ys, names):
    """least_squares, then again with the costs that came out within SNAP of a multiple of 0.1
    byte held there: they are sizes of structures, some with 10% added, and over the largest
    counts (hundreds of millions of lock entries) the fit's last digits would be kilobytes."""
    first = least_squares(rows, ys, names)
    held = {k: round(v, 1) for k, v in first.items() if k != "fixed" and abs(v - round(v, 1)) < SNAP}
    free = [k for k in names if k not in held]
    rest = least_squares(rows, [y - sum(v * r[k] for k, v in held.items()) for r, y in zip(rows, ys)], free)
    return {**held, **rest}


def predict(coefficients, counts):
    """The server's size under the model: the sum rounded as the server rounds it."""
    total = sum(coefficients[k] * v for k, v in counts.items())
    return (math.floor(total / ROUND) + 1) * ROUND


def harvest_major(major, pgconflint, n_fit, n_check, seed):
    t0 = time.time()
    datadir = pgtools.initdb(major)
    second = pgtools.initdb(major, parent=pgtools.make_tempdir(f"pgconflint-pg{major}-"))
    configs = configurations(major, seed, n_fit + n_check)
    sizes = measure(major, [datadir, second], configs)
    refused = [(c, why) for c, (b, why) in zip(configs, sizes) if b is None]
    if refused:
        raise SystemExit(f"pg{major}: the server refused {len(refused)} configurations, e.g. {refused[0]}")
    if major >= 15:
        # The single-user log method (the only one 14 has) against -C, on a sample.
        sample = configs[:20]
        logged = [pgtools.shared_memory_bytes(major, datadir, c, "log")[0] for c in sample]
        wrong = [(c, a, b) for c, a, (b, _) in zip(sample, logged, sizes) if a != b]
        if wrong:
            raise SystemExit(f"pg{major}: the log method disagrees with -C: {wrong[0]}")
    counts = term_counts(pgconflint, major, configs)
    names = list(counts[0])
    bytes_ = [b for b, _ in sizes]
    coefficients = fit(counts[:n_fit], [b - ROUND / 2 for b in bytes_[:n_fit]], names)
    coefficients = {k: round(v, 6) for k, v in coefficients.items()}
    errors = [abs(predict(coefficients, c) - b) for c, b in zip(counts, bytes_)]
    with open(os.path.join(ROOT, "knowledge", f"pg{major}.json")) as f:
        version = json.load(f)["server_version"]
    points = [{"set": "fit" if i < n_fit else "check", "settings": c, "bytes": b}
              for i, (c, b) in enumerate(zip(configs, bytes_))]
    print(f"pg{major}: {len(configs)} points in {time.time() - t0:.0f}s; largest error "
          f"{max(errors[:n_fit])} bytes on the fit set, {max(errors[n_fit:])} on the check set", file=sys.stderr)
    return {"major": major, "package": version, "method": "C" if major >= 15 else "log",
            "coefficients": coefficients, "max_error": max(errors), "points": points}


def write(doc):
    # One point per line keeps the file reviewable as a diff.
    lines = ['{', f'  "schema": {SCHEMA},', '  "majors": [']
    for i, m in enumerate(doc["majors"]):
        head = {k: m[k] for k in ("major", "package", "method", "max_error")}
        lines.append("    {" + json.dumps(head, sort_keys=True)[1:-1] + ",")
        lines.append('     "coefficients": ' + json.dumps(m["coefficients"], sort_keys=True) + ",")
        lines.append('     "points": [')
        lines += ["      " + json.dumps(p, sort_keys=True) + ("," if j + 1 < len(m["points"]) else "")
                  for j, p in enumerate(m["points"])]
        lines.append("     ]}" + ("," if i + 1 < len(doc["majors"]) else ""))
    lines += ["  ]", "}"]
    fd, tmp = tempfile.mkstemp(prefix="shared_memory.json.", dir=os.path.dirname(OUT))
    with os.fdopen(fd, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.chmod(tmp, 0o644)
    os.replace(tmp, OUT)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("majors", nargs="*", type=int, default=list(pgtools.MAJORS))
    ap.add_argument("--pgconflint", default=os.environ.get("PGCONFLINT", os.path.join(ROOT, "build", "pgconflint")))
    ap.add_argument("--fit", type=int, default=120, help="configurations to fit on (default 120)")
    ap.add_argument("--check", type=int, default=40, help="configurations only checked (default 40)")
    ap.add_argument("--seed", type=int, default=SEED)
    args = ap.parse_args()
    doc = {"schema": SCHEMA, "majors": []}
    if os.path.exists(OUT):
        with open(OUT) as f:
            doc = json.load(f)
    kept = [m for m in doc["majors"] if m["major"] not in args.majors]
    fresh = [harvest_major(m, args.pgconflint, args.fit, args.check, args.seed) for m in args.majors]
    doc["majors"] = sorted(kept + fresh, key=lambda m: m["major"])
    write(doc)


if __name__ == "__main__":
    main()
