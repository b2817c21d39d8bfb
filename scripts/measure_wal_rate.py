#!/usr/bin/env python3
"""Measures the WAL a TPC-B-like load writes per second on a real server, right after a
checkpoint and later in the cycle: the rate knowledge/storage.toml's
peak_wal_mb_per_second_per_cpu assumes for oltp (max_wal_size is sized from it).

A fresh server of .cache/postgres/<major> (default 18) is started as the test user with
shared_buffers 256MB and checkpoint_timeout 30min (no timed checkpoint during the run), and
fsync off as every test server (the WAL written per transaction is the same; the rate is then
what the CPUs allow, as on storage that never makes a commit wait);
`pgbench -i -s SCALE` fills it, a CHECKPOINT starts the cycle, and `pgbench -c CLIENTS -j
CLIENTS -T SECONDS` (the built-in TPC-B-like script) runs while pg_current_wal_lsn() is
sampled every INTERVAL seconds. Each interval's WAL rate is printed, with the TPS pgbench
reports; the first intervals after the checkpoint write full-page images of every page
touched again, so they show the peak.

The numbers depend on the machine and its load: run it on the server's own hardware, and
print the load average with the result (this script does).

Usage: scripts/measure_wal_rate.py [--major 18] [--scale 10] [--clients 2] [--seconds 120]
                                   [--interval 10]
Needs: pgbench (Debian's postgresql-client), psql, .cache/postgres/<major>, root or the test
user (tests/support/pgtools.py).
"""
import argparse
import os
import shutil
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
import pgtools  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--major", type=int, default=18)
    ap.add_argument("--scale", type=int, default=10)
    ap.add_argument("--clients", type=int, default=2)
    ap.add_argument("--seconds", type=int, default=120)
    ap.add_argument("--interval", type=int, default=10)
    args = ap.parse_args()
    pgbench = shutil.which("pgbench")
    if not pgbench:
        sys.exit("pgbench not found (Debian: apt-get install postgresql-client)")
    settings = {"shared_buffers": "256MB", "checkpoint_timeout": "30min", "max_wal_size": "10GB"}
    with pgtools.Server(args.major, settings=settings) as srv:
        conn = ["-h", srv.sockdir, "-p", str(srv.port), "-U", "postgres"]
        subprocess.run([pgbench, *conn, "-i", "-q", "-s", str(args.scale), "postgres"], check=True,
                       capture_output=True)
        srv.psql("CHECKPOINT")
        start_lsn = srv.psql("SELECT pg_current_wal_lsn()").strip()
        samples = []

        def sample():
            t0 = time.monotonic()
            while time.monotonic() - t0 < args.seconds:
                time.sleep(args.interval)
                samples.append((time.monotonic() - t0, srv.psql(
                    f"SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '{start_lsn}')").strip()))

        sampler = threading.Thread(target=sample)
        sampler.start()
        bench = subprocess.run([pgbench, *conn, "-c", str(args.clients), "-j", str(args.clients), "-T",
                                str(args.seconds), "-P", str(args.interval), "postgres"],
                               capture_output=True, text=True)
        sampler.join()
        version = srv.psql("SHOW server_version").strip()
    load = os.getloadavg()
    print(f"PostgreSQL {version}, pgbench -s {args.scale} -c {args.clients} -j {args.clients} -T {args.seconds}, "
          f"fsync off, {os.cpu_count()} CPUs, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    progress = [line for line in bench.stderr.splitlines() if line.startswith("progress:")]
    previous_t, previous_b = 0.0, 0.0
    for i, (t, written) in enumerate(samples):
        b = float(written)
        rate = (b - previous_b) / (t - previous_t) / 1024 / 1024
        tps = progress[i].split(",")[1].strip() if i < len(progress) else ""
        print(f"  {previous_t:5.0f}-{t:4.0f} s after the checkpoint: {rate:6.2f} MB/s of WAL "
              f"({rate / args.clients:5.2f} MB/s per client)  {tps}")
        previous_t, previous_b = t, b
    total = float(samples[-1][1]) / samples[-1][0] / 1024 / 1024 if samples else 0
    print(f"  whole run: {total:.2f} MB/s of WAL")
    for line in bench.stdout.splitlines():
        if line.startswith(("tps", "number of transactions")):
            print("  pgbench: " + line)


if __name__ == "__main__":
    main()
