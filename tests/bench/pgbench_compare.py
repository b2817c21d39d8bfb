#!/usr/bin/env python3
"""pgbench on PostgreSQL 18 under three configurations: a benchmark, not a test.

The same machine profile is given to three configurations:
  stock      initdb's postgresql.conf (every parameter at its default)
  pgtune     pgtune's formulas for the profile, as docs/pgtune-comparison.md lists
             them (mixed workload, SSD); io_method stays worker and wal_compression is
             left out, since the server of .cache/postgres is built without liburing
             and lz4 and would refuse pgtune's io_uring and lz4
  recommend  `pgconflint recommend --format conf` for the profile

One pgbench database per scale is initialized once and copied (cp -a, server
stopped) before every run, so each run starts from identical data. Per scale and
workload (TPC-B-like and select-only, `-S`), the three configurations run in
alternating order for --rounds rounds, --clients clients each, --seconds seconds.
The report gives, per scale, workload and configuration, the median TPS and median
latency over the rounds, and the ratios recommend/stock and recommend/pgtune with
their spread (the lowest and highest per-round ratio). Servers run as the
unprivileged test user (tests/support/pgtools.py) on free ports under temp dirs.

Usage (as root, or as a user allowed to run the servers):
  python3 tests/bench/pgbench_compare.py --ram 24GB --cpus 2 --scales 100,1500 \\
      --rounds 3 --seconds 60 [--pgconflint build/pgconflint] [--markdown]
Needs: .cache/postgres/18 (scripts/fetch-postgres.sh 18) and pgbench (Debian's
postgresql-client); `--scales` should include one whose data (about 15MB per scale
unit) is larger than the recommended shared_buffers.
"""
import argparse
import math
import os
import re
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))

import pgtools  # noqa: E402

MAJOR = 18
KB, MB, GB = 1024, 1024 ** 2, 1024 ** 3


def parse_size(text):
    m = re.fullmatch(r"(\d+)(kB|MB|GB|TB)", text)
    if not m:
        raise SystemExit(f"--ram: expected a size such as 24GB, got {text!r}")
    return int(m.group(1)) * {"kB": KB, "MB": MB, "GB": GB, "TB": 1024 * GB}[m.group(2)]


def size(b):
    """A size in whole MB, as postgresql.conf spells it."""
    return f"{max(1, int(b // MB))}MB"


def pgtune(ram, cpus, conns=100):
    """pgtune's formulas (docs/pgtune-comparison.md) for a mixed workload on SSD."""
    shared = ram / 4
    workers = cpus if cpus >= 4 else 8
    s = {
        "max_connections": str(conns),
        "shared_buffers": size(shared),
        "effective_cache_size": size(ram * 3 / 4),
        "maintenance_work_mem": size(min(ram / 16, 8 * GB)),
        # (RAM - shared_buffers) / ((conns + max_worker_processes) x 3), halved for mixed, at least 4MB.
        "work_mem": f"{max(4 * KB, int((ram - shared) / ((conns + workers) * 3) / 2 // KB))}kB",
        "wal_buffers": size(16 * MB if shared * 0.03 >= 14 * MB else shared * 0.03),
        "min_wal_size": "1GB",
        "max_wal_size": "4GB",
        "checkpoint_completion_target": "0.9",
        "default_statistics_target": "100",
        "random_page_cost": "1.1",
        "effective_io_concurrency": "200",
        "huge_pages": "try" if shared >= 2 * GB else "off",
        "jit": "off",
    }
    if cpus >= 4:
        half = math.ceil(cpus / 2)
        s.update({"max_worker_processes": str(cpus), "max_parallel_workers": str(cpus),
                  "max_parallel_workers_per_gather": str(min(half, 4)),
                  "max_parallel_maintenance_workers": str(min(half, 4))})
    io_workers = min(32, max(3, cpus // 4))
    if io_workers > 3:
        s["io_workers"] = str(io_workers)
    return "".join(f"{k} = '{v}'\n" for k, v in s.items())


def recommend(binary, ram_text, cpus):
    r = subprocess.run([binary, "recommend", "--no-config", "--pg-version", str(MAJOR), "--ram", ram_text,
                        "--cpus", str(cpus), "--storage", "sata-ssd", "--workload", "mixed", "--format", "conf"],
                       capture_output=True, text=True, check=True)
    return r.stdout


class Run:
    """One server start: on a fresh copy of a scale's pristine data directory,
    with `conf_text` appended to its postgresql.auto.conf (or on `pristine`
    itself, unchanged, with copy=False)."""

    def __init__(self, pristine, conf_text, work, copy=True):
        self.datadir = pristine
        if copy:
            self.datadir = os.path.join(work, "run")
            shutil.rmtree(self.datadir, ignore_errors=True)
            subprocess.run(["cp", "-a", pristine, self.datadir], check=True)
            with open(os.path.join(self.datadir, "postgresql.auto.conf"), "a", encoding="utf-8") as f:
                f.write("\n" + conf_text)
        self.sock = os.path.join(work, "sock")
        os.makedirs(self.sock, exist_ok=True)
        os.chmod(self.sock, 0o777)
        self.log = os.path.join(work, "server.log")
        self.port = pgtools.free_port()

    def __enter__(self):
        opts = f"-c port={self.port} -c listen_addresses='' -c unix_socket_directories={self.sock}"
        log = self.log
        r = subprocess.run(pgtools.as_user([pgtools.pg_bin(MAJOR, "pg_ctl"), "-D", self.datadir, "-l", log, "-w",
                                            "-t", "300", "-o", opts, "start"]), capture_output=True, text=True)
        if r.returncode != 0:
            with open(log, errors="replace") as f:
                raise RuntimeError(f"pg_ctl start failed:\n{r.stdout}{r.stderr}\n{f.read()[-3000:]}")
        return self

    def __exit__(self, *exc):
        subprocess.run(pgtools.as_user([pgtools.pg_bin(MAJOR, "pg_ctl"), "-D", self.datadir, "-m", "fast", "-w",
                                        "stop"]), capture_output=True)

    def pgbench(self, *args):
        r = subprocess.run(["pgbench", "-h", self.sock, "-p", str(self.port), "-U", "postgres", *args, "postgres"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"pgbench {' '.join(args)} failed:\n{r.stdout}{r.stderr}")
        return r.stdout


def measure(out):
    """(tps, latency ms) from pgbench's report."""
    tps = float(re.search(r"^tps = ([\d.]+)", out, re.M).group(1))
    lat = float(re.search(r"^latency average = ([\d.]+) ms", out, re.M).group(1))
    return tps, lat


def pristine_for(scale, work):
    """A stopped data directory with pgbench tables at `scale`, owned by the test user."""
    parent = os.path.join(work, f"scale-{scale}")
    os.makedirs(parent)
    os.chmod(parent, 0o777)
    datadir = pgtools.initdb(MAJOR, parent=parent)
    with Run(datadir, "", work, copy=False) as run:
        run.pgbench("-i", "-q", "-s", str(scale))
    return datadir


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ram", default="24GB")
    ap.add_argument("--cpus", type=int, default=os.cpu_count())
    ap.add_argument("--scales", default="100,1500")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--pgconflint", default=os.environ.get("PGCONFLINT", os.path.join(ROOT, "build", "pgconflint")))
    args = ap.parse_args()
    ram = parse_size(args.ram)
    configs = {"stock": "", "pgtune": pgtune(ram, args.cpus), "recommend": recommend(args.pgconflint, args.ram,
                                                                                    args.cpus)}
    work = pgtools.make_tempdir("pgconflint-pgbench-")
    results = {}  # (scale, workload, config) -> [(tps, latency)]
    try:
        for scale in [int(s) for s in args.scales.split(",")]:
            pristine = pristine_for(scale, work)
            for workload, flags in (("tpcb", []), ("select-only", ["-S"])):
                for rnd in range(args.rounds):
                    names = list(configs)
                    order = names[rnd % 3:] + names[:rnd % 3]  # alternate which configuration goes first
                    for name in order:
                        with Run(pristine, configs[name], work) as run:
                            out = run.pgbench("-c", str(args.clients), "-j", str(min(args.clients, args.cpus)),
                                              "-T", str(args.seconds), "-n", *flags)
                        results.setdefault((scale, workload, name), []).append(measure(out))
                        print(f"scale {scale} {workload} round {rnd + 1} {name}: "
                              f"{results[(scale, workload, name)][-1][0]:.0f} tps", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report(results, args)


def report(results, args):
    print(f"pgbench, PostgreSQL {MAJOR}, profile --ram {args.ram} --cpus {args.cpus} --storage sata-ssd "
          f"--workload mixed; {args.clients} clients, {args.rounds} rounds of {args.seconds}s, "
          "configurations alternating\n")
    print("| scale | workload | config | median TPS | median latency (ms) | recommend / this (TPS), spread |")
    print("|---|---|---|---|---|---|")
    for (scale, workload) in sorted({(s, w) for s, w, _ in results}):
        rec = [t for t, _ in results[(scale, workload, "recommend")]]
        for name in ("stock", "pgtune", "recommend"):
            runs = results[(scale, workload, name)]
            tps = [t for t, _ in runs]
            ratios = [r / t for r, t in zip(rec, tps)]
            ratio = ("" if name == "recommend" else
                     f"{statistics.median(rec) / statistics.median(tps):.2f}x "
                     f"({min(ratios):.2f} .. {max(ratios):.2f})")
            print(f"| {scale} | {workload} | {name} | {statistics.median(tps):.0f} | "
                  f"{statistics.median([lat for _, lat in runs]):.2f} | {ratio} |")


if __name__ == "__main__":
    main()
