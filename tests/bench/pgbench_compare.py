#!/usr/bin/env python3
"""pgbench on PostgreSQL 18 under three configurations: a benchmark, not a test.

The same machine profile (--ram, --cpus) is given to three configurations:
  stock      initdb's postgresql.conf (every parameter at its default)
  pgtune     pgtune's formulas for the profile, as docs/pgtune-comparison.md lists
             them (mixed workload, SSD); io_method stays worker and wal_compression is
             left out, since the server of .cache/postgres is built without liburing
             and lz4 and would refuse pgtune's io_uring and lz4
  recommend  `pgconflint recommend --format conf` for the profile

They differ where data is larger than shared_buffers, where runs reach checkpoints and
where autovacuum has work, so those are the workloads (--workloads, all by default):
  select  pgbench -S on pgbench tables at --scale: data beyond the recommended
          shared_buffers and near the profile's RAM; the shared_buffers hit ratio
  tpcb    pgbench's TPC-B-like script on the same tables for --long-seconds without a
          restart; pg_stat_checkpointer (checkpoints, write and sync time, buffers),
          buffers written by the bgwriter and by client backends (pg_stat_io), WAL
          records, full-page images and bytes (pg_stat_wal)
  hot     a custom script updating random rows of pgbench_hot (--hot-rows rows, a
          primary key and an index on the updated column, so that no update is HOT and
          dead tuples wait for vacuum) for --hot-seconds: autovacuum runs and time, dead
          tuples and the table's size at the end (pg_stat_user_tables), WAL and FPI
Each run starts a server on a fresh copy of one pristine data directory (cp -a, then
written to disk and dropped from the page cache, so every run starts cold), runs the
workload unmeasured for --warmup seconds, reads the statistics, runs it for the measured
window, reads them again and stops the server: the measures are the differences over
the window (the dead tuples and the table size are the values at its end).

The profile's RAM is made real where the kernel allows it: with --memory-limit (default:
the profile's --ram) the server's processes run in a memory cgroup of that size (cgroup
v2 memory.max where the memory controller is enabled below a cgroup2 mount's root, else
cgroup v1's memory.limit_in_bytes), which bounds its page cache too. That needs root
and a writable cgroup hierarchy; where neither exists the run goes on without a limit
and says so in its report (`--memory-limit none` asks for that).

The rounds rotate the order of the configurations (stock pgtune recommend / pgtune
recommend stock / recommend stock pgtune / ...). The report gives, per workload, the
median of each measure per configuration, then for each measure the per-round ratios
recommend/stock, recommend/pgtune and pgtune/stock with an exact two-sided sign test
over the rounds (pgbench_stats.py): the direction only where p < 0.05, otherwise "not
significant". Servers run as the unprivileged test user (tests/support/pgtools.py) on
free ports under temp dirs, and are always stopped.

Usage (as root, or as a user allowed to run the servers):
  python3 tests/bench/pgbench_compare.py [--pgconflint build/pgconflint] [--json FILE]
      the full run: --ram 4GB --scale 200 --rounds 8, 120-s select runs, 900-s tpcb and
      600-s hot runs after 60 s of warm-up (--plan prints the runs and an estimate of
      their duration, and runs nothing)
  python3 tests/bench/pgbench_compare.py --quick
      every workload at toy sizes, 3 rounds of seconds: checks the script, measures nothing
  python3 tests/bench/pgbench_compare.py --json FILE --resume [--workloads ...]
      goes on with an interrupted run (Ctrl-C or SIGTERM stops its server cleanly), keeping its
      complete rounds: the full run in parts, each with the same options and pgconflint
Any option given explicitly overrides the full or quick default. Needs .cache/postgres/18
(scripts/fetch-postgres.sh 18) and pgbench (Debian's postgresql-client).
"""
import argparse
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
sys.path.insert(0, HERE)

import pgbench_stats as stats  # noqa: E402
import pgtools  # noqa: E402
import pgbench_cgroup  # noqa: E402

MAJOR = 18
KB, MB, GB = 1024, 1024 ** 2, 1024 ** 3
CONFIGS = ("stock", "pgtune", "recommend")
# The full run and --quick; an option given on the command line wins over both.
FULL = {"ram": "4GB", "scale": 200, "rounds": 8, "seconds": 120, "long_seconds": 900, "hot_seconds": 600,
        "warmup": 60, "clients": 8, "hot_rows": 1_000_000}
QUICK = {"ram": "1GB", "scale": 10, "rounds": 3, "seconds": 2, "long_seconds": 4, "hot_seconds": 4,
         "warmup": 1, "clients": 2, "hot_rows": 10_000}
# For --plan's estimate, measured here at scale 50 with 1,000,000 hot rows (919 MB) under a load
# average of 5-8 (docs/benchmarks.md): a run's start and stop took 4 s, its copy and eviction
# 4-5 s, the pristine 24 s; pgbench_accounts with its index 15 MB per scale unit, pgbench_hot
# with its two indexes 178 MB per million rows.
RUN_OVERHEAD_S, COPY_S_PER_GB, INIT_S_PER_GB = 5, 5, 30
BYTES_PER_SCALE, BYTES_PER_HOT_ROW = 15 * MB, 178

HOT_TABLE = ("CREATE TABLE pgbench_hot (id int PRIMARY KEY, n bigint NOT NULL DEFAULT 0, "
             "filler char(100) NOT NULL DEFAULT ''); "
             "INSERT INTO pgbench_hot (id) SELECT generate_series(1, {rows}); "
             # n indexed: no update is HOT, so dead tuples wait for vacuum instead of page pruning.
             "CREATE INDEX pgbench_hot_n ON pgbench_hot (n)")
HOT_SCRIPT = "\\set id random(1, {rows})\nUPDATE pgbench_hot SET n = n + 1 WHERE id = :id;\n"

# What a run reads before and after its window: one SELECT of these expressions.
SNAPSHOT = (
    ("ckpt_timed", "(SELECT num_timed FROM pg_stat_checkpointer)"),
    ("ckpt_requested", "(SELECT num_requested FROM pg_stat_checkpointer)"),
    ("ckpt_write_ms", "(SELECT write_time FROM pg_stat_checkpointer)"),
    ("ckpt_sync_ms", "(SELECT sync_time FROM pg_stat_checkpointer)"),
    ("ckpt_buffers", "(SELECT buffers_written FROM pg_stat_checkpointer)"),
    ("bgwriter_buffers", "(SELECT buffers_clean FROM pg_stat_bgwriter)"),
    ("backend_writes", "(SELECT coalesce(sum(writes), 0) FROM pg_stat_io WHERE backend_type = 'client backend')"),
    ("wal_records", "(SELECT wal_records FROM pg_stat_wal)"),
    ("wal_fpi", "(SELECT wal_fpi FROM pg_stat_wal)"),
    ("wal_bytes", "(SELECT wal_bytes FROM pg_stat_wal)"),
    ("blks_read", "(SELECT sum(blks_read) FROM pg_stat_database)"),
    ("blks_hit", "(SELECT sum(blks_hit) FROM pg_stat_database)"),
    ("hot_autovacuums", "(SELECT autovacuum_count FROM pg_stat_user_tables WHERE relname = 'pgbench_hot')"),
    ("hot_autovacuum_ms", "(SELECT total_autovacuum_time FROM pg_stat_user_tables WHERE relname = 'pgbench_hot')"),
    ("hot_dead", "(SELECT n_dead_tup FROM pg_stat_user_tables WHERE relname = 'pgbench_hot')"),
    ("hot_size", "pg_total_relation_size('pgbench_hot')"),
)
COMMON = [("tps", "TPS"), ("latency_ms", "latency average (ms)")]
WAL = [("wal_mb", "WAL (MB)"), ("wal_fpi", "full-page images"), ("wal_kb_per_txn", "WAL per transaction (kB)")]
CHECKPOINTS = [("checkpoints", "checkpoints (timed + requested)"), ("checkpoints_requested", "requested checkpoints"),
               ("checkpoint_write_s", "checkpoint write time (s)"), ("checkpoint_sync_s", "checkpoint sync time (s)"),
               ("checkpoint_buffers", "buffers written by checkpoints")]
WORKLOADS = {
    # name: (option holding its window, pgbench arguments, measures reported)
    "select": ("seconds", ["-S"], COMMON + [("hit_ratio", "shared_buffers hit ratio"),
                                            ("blks_read", "blocks read into shared_buffers")]),
    "tpcb": ("long_seconds", [], COMMON + CHECKPOINTS + [("bgwriter_buffers", "buffers written by the bgwriter"),
                                                         ("backend_writes", "buffers written by client backends")]
             + WAL + [("hit_ratio", "shared_buffers hit ratio")]),
    "hot": ("hot_seconds", ["-f", "{script}"], COMMON + [
        ("autovacuums", "autovacuum runs on pgbench_hot"), ("autovacuum_s", "autovacuum time on pgbench_hot (s)"),
        ("dead_tuples", "dead tuples in pgbench_hot at the end"),
        ("table_mb", "pgbench_hot with its indexes at the end (MB)")] + WAL + CHECKPOINTS[:1]),
}


def parse_size(text, option="--ram"):
    m = re.fullmatch(r"(\d+)(kB|MB|GB|TB)", text)
    if not m:
        raise SystemExit(f"{option}: expected a size such as 4GB, got {text!r}")
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
                       capture_output=True, text=True)
    if r.returncode != 0:
        how = f"signal {-r.returncode}" if r.returncode < 0 else f"exit status {r.returncode}"
        raise SystemExit(f"{binary} recommend failed ({how}):\n{r.stderr}")
    return r.stdout


class Run:
    """One server start, on a fresh copy of `pristine` with `conf_text` appended to its
    postgresql.auto.conf, in a memory cgroup when `memory` (a pgbench_cgroup.Memory) is
    given; or on `pristine` itself, unchanged, with copy=False."""

    def __init__(self, pristine, conf_text, work, copy=True, memory=None):
        self.datadir, self.copy, self.memory, self.cgroup = pristine, copy, memory, None
        if copy:
            self.datadir = os.path.join(work, "run")
            shutil.rmtree(self.datadir, ignore_errors=True)
            subprocess.run(["cp", "-a", pristine, self.datadir], check=True)
            with open(os.path.join(self.datadir, "postgresql.auto.conf"), "a", encoding="utf-8") as f:
                f.write("\n" + conf_text)
            pgbench_cgroup.evict(self.datadir, pristine)  # the pristine too: no run reads it, leave the cache to others
        self.sock = os.path.join(work, "sock")
        os.makedirs(self.sock, exist_ok=True)
        os.chmod(self.sock, 0o777)
        self.log = os.path.join(work, "server.log")
        self.port = pgtools.free_port()

    def __enter__(self):
        opts = f"-c port={self.port} -c listen_addresses='' -c unix_socket_directories={self.sock}"
        argv = pgtools.as_user([pgtools.pg_bin(MAJOR, "pg_ctl"), "-D", self.datadir, "-l", self.log, "-w",
                                "-t", "300", "-o", opts, "start"])
        if self.memory:
            self.cgroup = self.memory.create()
            argv = self.cgroup.enter(argv)  # the postmaster and every process it forks
        r = subprocess.run(argv, capture_output=True, text=True)
        if r.returncode != 0:
            self.__exit__()
            with open(self.log, errors="replace") as f:
                raise RuntimeError(f"pg_ctl start failed:\n{r.stdout}{r.stderr}\n{f.read()[-3000:]}")
        return self

    def __exit__(self, *exc):
        subprocess.run(pgtools.as_user([pgtools.pg_bin(MAJOR, "pg_ctl"), "-D", self.datadir, "-m", "fast", "-w",
                                        "-t", "600", "stop"]), capture_output=True)
        if self.cgroup:
            self.cgroup.remove()
        if self.copy:
            shutil.rmtree(self.datadir, ignore_errors=True)

    def pgbench(self, *args, timeout=None):
        r = subprocess.run(["pgbench", "-h", self.sock, "-p", str(self.port), "-U", "postgres", *args, "postgres"],
                           capture_output=True, text=True, timeout=timeout)
        if r.returncode != 0:
            oom = f"\n(the server's cgroup counted {self.cgroup.oom_kills()} OOM kills)" if self.cgroup else ""
            raise RuntimeError(f"pgbench {' '.join(args)} failed:\n{r.stdout}{r.stderr}{oom}")
        return r.stdout

    def psql(self, sql):
        r = subprocess.run([pgtools.PSQL, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", self.sock,
                            "-p", str(self.port), "-U", "postgres", "-d", "postgres", "-c", sql],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"psql failed on {sql[:80]}: {r.stderr}")
        return r.stdout.strip()

    def wait_idle(self):
        """Until no other client backend is left: a backend reports its pending statistics
        when it exits, so the window's last transactions count once pgbench's are gone."""
        for _ in range(600):
            if self.psql("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' "
                         "AND pid <> pg_backend_pid()") == "0":
                return
            time.sleep(0.1)
        raise RuntimeError("pgbench's backends did not exit within 60 s")

    def snapshot(self):
        values = self.psql("SELECT " + ", ".join(f"coalesce({e}, 0)" for _, e in SNAPSHOT)).split("|")
        return {name: float(v) for (name, _), v in zip(SNAPSHOT, values)}


def pgbench_result(out):
    """(tps, latency ms, transactions) from pgbench's report."""
    tps = float(re.search(r"^tps = ([\d.]+)", out, re.M).group(1))
    lat = float(re.search(r"^latency average = ([\d.]+) ms", out, re.M).group(1))
    txns = int(re.search(r"^number of transactions actually processed: (\d+)", out, re.M).group(1))
    return tps, lat, txns


def measures(before, after, out):
    """The measures of one window from the snapshots around it and pgbench's report."""
    d = {k: after[k] - before[k] for k in before}
    tps, lat, txns = pgbench_result(out)
    reads = d["blks_read"] + d["blks_hit"]
    return {
        "tps": tps, "latency_ms": lat, "transactions": txns,
        "hit_ratio": d["blks_hit"] / reads if reads else 1.0, "blks_read": d["blks_read"],
        "checkpoints": d["ckpt_timed"] + d["ckpt_requested"], "checkpoints_requested": d["ckpt_requested"],
        "checkpoint_write_s": d["ckpt_write_ms"] / 1000, "checkpoint_sync_s": d["ckpt_sync_ms"] / 1000,
        "checkpoint_buffers": d["ckpt_buffers"], "bgwriter_buffers": d["bgwriter_buffers"],
        "backend_writes": d["backend_writes"], "wal_records": d["wal_records"], "wal_fpi": d["wal_fpi"],
        "wal_mb": d["wal_bytes"] / MB, "wal_kb_per_txn": d["wal_bytes"] / KB / txns if txns else 0.0,
        "autovacuums": d["hot_autovacuums"], "autovacuum_s": d["hot_autovacuum_ms"] / 1000,
        "dead_tuples": after["hot_dead"], "table_mb": after["hot_size"] / MB,
    }


def run_workload(run, workload, args, script):
    window_option, flags, _ = WORKLOADS[workload]
    flags = [f.format(script=script) for f in flags]
    common = ["-n", "-c", str(args.clients), "-j", str(max(1, min(args.clients, args.cpus)))]
    if args.warmup > 0:
        run.pgbench(*common, "-T", str(args.warmup), *flags, timeout=args.warmup + 600)
    run.wait_idle()
    before = run.snapshot()
    window = getattr(args, window_option)
    out = run.pgbench(*common, "-T", str(window), *flags, timeout=window + 600)
    run.wait_idle()
    return measures(before, run.snapshot(), out)


def make_pristine(args, work):
    """A stopped data directory with pgbench's tables at --scale and pgbench_hot, owned by the
    test user; and its database's size in bytes."""
    parent = os.path.join(work, "pristine")
    os.makedirs(parent)
    os.chmod(parent, 0o777)
    datadir = pgtools.initdb(MAJOR, parent=parent)
    with Run(datadir, "", work, copy=False) as run:
        run.pgbench("-i", "-q", "-s", str(args.scale))
        run.psql(HOT_TABLE.format(rows=args.hot_rows))
        run.psql("VACUUM ANALYZE pgbench_hot")
        run.psql("CHECKPOINT")
        data_bytes = int(run.psql("SELECT pg_database_size('postgres')"))
    return datadir, data_bytes


def estimate(args, workloads, data_bytes=None):
    """Seconds a run of `workloads` should take: {workload: seconds} and the pristine's making."""
    data_gb = (data_bytes or args.scale * BYTES_PER_SCALE + args.hot_rows * BYTES_PER_HOT_ROW) / GB
    overhead = RUN_OVERHEAD_S + COPY_S_PER_GB * data_gb
    runs = args.rounds * len(CONFIGS)
    return ({w: runs * (args.warmup + getattr(args, WORKLOADS[w][0]) + overhead) for w in workloads},
            INIT_S_PER_GB * data_gb)


def hours(seconds):
    return f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{seconds / 60:.0f} min"


def full_command(args):
    cmd = "python3 tests/bench/pgbench_compare.py"
    if args.pgconflint != os.path.join(ROOT, "build", "pgconflint"):
        cmd += f" --pgconflint {args.pgconflint}"
    return cmd + " --json pgbench-full.json > pgbench-full.md"


def print_plan(args, workloads, out=sys.stdout):
    per, init = estimate(args, workloads)
    print(f"{args.rounds} rounds x {len(CONFIGS)} configurations x {len(workloads)} workloads, one server start each; "
          "order per round: " + " / ".join(" ".join(o) for o in stats.rotation(CONFIGS, min(3, args.rounds))), file=out)
    for w in workloads:
        print(f"  {w}: {args.warmup} s warm-up + {getattr(args, WORKLOADS[w][0])} s measured per run, "
              f"about {hours(per[w])}", file=out)
    data = args.scale * BYTES_PER_SCALE + args.hot_rows * BYTES_PER_HOT_ROW
    print(f"  pristine data (scale {args.scale} and {args.hot_rows} hot rows, about {data // MB} MB): "
          f"about {hours(init)}", file=out)
    print(f"estimated total: {hours(init + sum(per.values()))} (an estimate from this machine's copy and start "
          "times, not a measurement)", file=out)


def options():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="toy sizes: checks the script, measures nothing")
    ap.add_argument("--plan", action="store_true", help="print the runs and their estimated duration, run nothing")
    ap.add_argument("--ram", help=f"the profile's RAM (full {FULL['ram']}, quick {QUICK['ram']})")
    ap.add_argument("--cpus", type=int, default=os.cpu_count(), help="the profile's CPUs (default: this machine's)")
    ap.add_argument("--scale", type=int, help="pgbench scale of the select and tpcb workloads")
    ap.add_argument("--rounds", type=int, help="rounds, each running every configuration once")
    ap.add_argument("--seconds", type=int, help="measured window of a select run")
    ap.add_argument("--long-seconds", type=int, help="measured window of a tpcb run (no restart within it)")
    ap.add_argument("--hot-seconds", type=int, help="measured window of a hot run")
    ap.add_argument("--warmup", type=int, help="unmeasured seconds of the same workload before each window")
    ap.add_argument("--clients", type=int, help="pgbench clients")
    ap.add_argument("--hot-rows", type=int, help="rows of pgbench_hot")
    ap.add_argument("--workloads", default=",".join(WORKLOADS), help="a comma-separated subset of "
                    + ", ".join(WORKLOADS))
    ap.add_argument("--memory-limit", default="ram",
                    help="the server's memory cgroup: 'ram' (default: the profile's --ram, or no limit with a "
                         "warning where no cgroup can be made), a size such as 4GB (required), or 'none'")
    ap.add_argument("--pgconflint", default=os.environ.get("PGCONFLINT", os.path.join(ROOT, "build", "pgconflint")))
    ap.add_argument("--json", help="also write every run's measures to this file")
    ap.add_argument("--resume", action="store_true",
                    help="go on with the run --json FILE holds (its options, configurations and complete rounds "
                         "kept; an unfinished round runs again), so that the full run can be done in parts")
    args = ap.parse_args()
    if args.resume and not args.json:
        raise SystemExit("--resume: needs --json FILE, the run to go on with")
    for k, v in (QUICK if args.quick else FULL).items():
        if getattr(args, k) is None:
            setattr(args, k, v)
    if args.rounds < 1:
        raise SystemExit("--rounds: at least 1")
    workloads = args.workloads.split(",")
    for w in workloads:
        if w not in WORKLOADS:
            raise SystemExit(f"--workloads: unknown workload {w!r} (known: {', '.join(WORKLOADS)})")
    return args, workloads


def memory_for(args):
    """(pgbench_cgroup.Memory or None, the report's words about the server's memory)."""
    if args.memory_limit == "none":
        return None, "not limited (--memory-limit none): the page cache holds what the machine's RAM allows"
    limit = parse_size(args.ram if args.memory_limit == "ram" else args.memory_limit, "--memory-limit")
    memory = pgbench_cgroup.Memory(limit)
    why = memory.probe()
    if why is None:
        return memory, f"limited to {size(limit)} ({memory.describe()}), page cache included"
    if args.memory_limit != "ram":
        raise SystemExit(f"--memory-limit {args.memory_limit}: no memory cgroup can be made here: {why}")
    print(f"warning: the server's memory is not limited: {why}", file=sys.stderr)
    return None, f"NOT limited (no memory cgroup can be made here: {why}): the page cache holds what RAM allows"


def main():
    args, workloads = options()
    if args.plan:
        print_plan(args, workloads)
        return
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so that the finally blocks stop the servers
    ram = parse_size(args.ram)
    configs = {"stock": "", "pgtune": pgtune(ram, args.cpus), "recommend": recommend(args.pgconflint, args.ram,
                                                                                    args.cpus)}
    memory, memory_text = memory_for(args)
    started = time.time()
    values = {w: {c: {} for c in CONFIGS} for w in workloads}
    runs, info = [], {"memory": memory_text, "shared_buffers": {}}
    done = set()
    if args.resume:
        runs, info, earlier = resumed(args, workloads, configs, memory_text)
        started -= earlier
        for r in runs:
            if r["workload"] in workloads:
                done.add((r["workload"], r["round"]))
                count(r, values)
        print(f"resumed: {len(done)} complete rounds of {args.json} kept", file=sys.stderr, flush=True)
    work = pgtools.make_tempdir("pgconflint-pgbench-")
    try:
        script = os.path.join(work, "hot.sql")
        with open(script, "w", encoding="utf-8") as f:
            f.write(HOT_SCRIPT.format(rows=args.hot_rows))
        os.chmod(script, 0o644)
        if len(done) < len(workloads) * args.rounds:
            t0 = time.time()
            pristine, info["data_bytes"] = make_pristine(args, work)
            print(f"pristine data: {info['data_bytes'] // MB} MB, made in {time.time() - t0:.0f} s",
                  file=sys.stderr, flush=True)
        for workload in workloads:
            for rnd, order in enumerate(stats.rotation(CONFIGS, args.rounds)):
                if (workload, rnd + 1) in done:
                    continue
                for position, name in enumerate(order):
                    t0 = time.time()
                    with Run(pristine, configs[name], work, memory=memory) as run:
                        info["server_version"] = run.psql("SHOW server_version")
                        info["shared_buffers"][name] = run.psql("SHOW shared_buffers")
                        m = run_workload(run, workload, args, script)
                        peak = run.cgroup.peak() if run.cgroup else None
                    load = os.getloadavg()[0]
                    runs.append({"workload": workload, "round": rnd + 1, "position": position + 1, "config": name,
                                 "seconds": round(time.time() - t0, 1), "load1": load, "server_peak_bytes": peak, **m})
                    count(runs[-1], values)
                    info["elapsed"] = time.time() - started  # so far: what a resumed run adds to
                    if args.json:  # after every run: hours of runs survive a failure in the next one
                        write_json(args.json, args, configs, info, runs)
                    print(f"{workload} round {rnd + 1} {name}: {m['tps']:.0f} tps, {m['wal_mb']:.0f} MB WAL, "
                          f"{m['checkpoints']:.0f} checkpoints, load {load:.1f}, "
                          f"{time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    info["elapsed"] = time.time() - started
    if args.json:
        write_json(args.json, args, configs, info, runs)
    report(args, workloads, values, info, runs)
    if args.quick:
        full = argparse.Namespace(**{**vars(args), **FULL, "quick": False})
        print("\nThe full run: " + full_command(args), file=sys.stderr)
        print_plan(full, list(WORKLOADS), out=sys.stderr)


RUN_KEYS_NOT_MEASURES = ("workload", "round", "position", "config", "seconds", "load1", "server_peak_bytes")


def count(run, values):
    """Adds one run's measures (its record as the --json file holds it) to the report's values."""
    for k, v in run.items():
        if k not in RUN_KEYS_NOT_MEASURES:
            values[run["workload"]][run["config"]].setdefault(k, []).append(v)


# Options that change what a run measures: a resumed run must have the same.
SAME_WHEN_RESUMED = ("ram", "cpus", "scale", "rounds", "seconds", "long_seconds", "hot_seconds", "warmup", "clients",
                     "hot_rows", "memory_limit", "quick")


def resumed(args, workloads, configs, memory_text):
    """(the complete rounds' runs, info, seconds already spent) of the run args.json holds, after
    checking that it measured what this one would."""
    try:
        with open(args.json, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise SystemExit(f"--resume: cannot read {args.json}: {e}")
    for k in SAME_WHEN_RESUMED:
        if doc["options"].get(k) != getattr(args, k):
            raise SystemExit(f"--resume: {args.json} was run with {k} = {doc['options'].get(k)!r}, "
                             f"this run has {getattr(args, k)!r}")
    if doc["configs"] != configs:
        changed = [c for c in CONFIGS if doc["configs"].get(c) != configs[c]]
        raise SystemExit(f"--resume: the configurations differ from those of {args.json} ({', '.join(changed)}): "
                         f"a different pgconflint recommends something else")
    if doc["info"].get("memory") != memory_text:
        raise SystemExit(f"--resume: {args.json}'s servers ran with memory {doc['info'].get('memory')!r}, "
                         f"these would run with {memory_text!r}")
    # Runs of workloads this run does not name stay in the file as they are.
    runs = stats.complete_rounds(doc["runs"], workloads, args.rounds, CONFIGS)
    runs += [r for r in doc["runs"] if r["workload"] not in workloads]
    # Loads and peaks are read from the runs; older records also held copies of them.
    info = {k: v for k, v in doc["info"].items() if k not in ("loads", "peaks")}
    return runs, info, doc["info"].get("elapsed", 0)


def write_json(path, args, configs, info, runs):
    """The options, the three configurations and every run so far, replacing `path` atomically."""
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump({"options": vars(args), "configs": configs, "info": info, "runs": runs}, f, indent=1)
    os.replace(tmp, path)


def report(args, workloads, values, info, runs):
    mine = [r for r in runs if r["workload"] in workloads]
    sb = ", ".join(f"{c} {info['shared_buffers'].get(c, '?')}" for c in CONFIGS)
    peak_of = {c: [r["server_peak_bytes"] for r in mine if r["config"] == c and r["server_peak_bytes"]]
               for c in CONFIGS}
    peaks = ", ".join(f"{c} {min(p) // MB}..{max(p) // MB} MB" for c, p in peak_of.items() if p)
    loads = [r["load1"] for r in mine]
    print(f"pgbench, PostgreSQL {info.get('server_version', MAJOR)}, profile --ram {args.ram} --cpus {args.cpus} "
          f"--storage sata-ssd --workload mixed{' (--quick: toy sizes, measures nothing)' if args.quick else ''}\n")
    print(f"- data: pgbench scale {args.scale} and pgbench_hot ({args.hot_rows} rows): "
          f"{info['data_bytes'] // MB} MB; shared_buffers: {sb}")
    print(f"- server memory: {info['memory']}" + (f"; peak per run: {peaks}" if peaks else ""))
    windows = ", ".join(f"{getattr(args, WORKLOADS[w][0])} s ({w})" for w in workloads)
    print(f"- {args.clients} clients, {args.rounds} rounds, the order rotating (A B C / B C A / C A B); "
          f"{args.warmup} s of warm-up, then windows of {windows}; one server start per run")
    print(f"- load average (1 min) after the runs: {min(loads):.1f} .. {max(loads):.1f}; "
          f"{hours(info['elapsed'])} for all the runs{' the record holds' if args.resume else ''}")
    print(f"- sign test: exact, two-sided, over the {args.rounds} rounds; a direction is given only where "
          f"p < {stats.ALPHA} (with {args.rounds} rounds the smallest possible p is "
          f"{stats.sign_test(args.rounds, 0):.4f})")
    for w in workloads:
        print(f"\n### {w}\n")
        print("\n".join(stats.report_tables(values[w], WORKLOADS[w][2])))


if __name__ == "__main__":
    main()
