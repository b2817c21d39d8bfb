#!/usr/bin/env python3
"""Cost grows linearly: every entry point is run on a realistic input at sizes x1 and x8,
and its CPU time (user + system, of the child alone) and its peak memory above a tiny run's
must grow at most linearly, with a factor 2 for logarithms and noise. Asserted as ratios, never
as absolute times: a slow or loaded machine scales both sides alike. The x1 sizes cost at least
about 30 ms, above the noise of process start-up; each size is the best of two runs.

It guards against the class of issue 22's costs (--fix cubic in its fixes, SQL scripts
quadratic in their roles): a quadratic cost makes the x8 ratio about 64, over the bound 16 (x1,
x4 and x16 took 2.3 times the work, 39 CPU seconds, for the same verdict).

Usage:
    python3 tests/integration/test_cost_scaling.py [-v]
Environment: PGCONFLINT (binary, default build/pgconflint).
"""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PGCONFLINT = os.environ.get("PGCONFLINT", os.path.join(ROOT, "build", "pgconflint"))
SIZES = (1, 8)
SLACK = 2.0  # a factor for n log n and for the noise of a shared machine
RUNS = 2


def run_once(args, cwd, stdin_path=None):
    """CPU seconds and peak RSS (KiB) of one run of pgconflint, as /usr/bin/time reports them (a
    small parent: the kernel's maximum RSS of a child forked by this Python process would count
    this process's memory at the fork)."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    # Standard error to a file: a pipe read only after the child ends would block a child
    # that writes more than its buffer (--fix lists each fix there).
    with tempfile.NamedTemporaryFile("r") as usage, tempfile.TemporaryFile() as err:
        try:
            proc = subprocess.run(["/usr/bin/time", "-q", "-f", "%U %S %M", "-o", usage.name, PGCONFLINT, *args],
                                  cwd=cwd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=err, timeout=600)
        finally:
            if stdin_path:
                stdin.close()
        user, system, rss = usage.read().split()[-3:]
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    return float(user) + float(system), int(rss), proc.returncode, text


def best_of(make, d, n):
    """The least CPU time and the least peak memory of RUNS runs, the input written anew before
    each (--fix changes it)."""
    cpu, rss = [], []
    for _ in range(RUNS):
        args, stdin = make(d, n)
        c, m, code, err = run_once(args, d, stdin)
        if code not in (0, 1):
            raise AssertionError(f"pgconflint {' '.join(args)} exited {code}: {err[-2000:]}")
        cpu.append(c)
        rss.append(m)
    return min(cpu), min(rss)


# Realistic inputs of n units. Each returns (arguments, stdin file or None) after writing its
# files under `d`.

def conf_lines(n):
    lines = []
    for i in range(n):
        lines += [f"# block {i}: memory and logging for service {i}",
                  f"myapp.setting_{i} = 'value {i}'",
                  "work_mem = '64MB'" if i % 2 else "work_mem = 32MB  # overridden later",
                  f"log_line_prefix = '%m [%p] {i} '",
                  "#shared_buffers = 128MB",
                  ""]
    return "\n".join(lines) + "\n"


def make_conf(d, n, fmt):
    write(d, "data/PG_VERSION", "18\n")
    write(d, "data/postgresql.conf", conf_lines(n))
    return ["check", "--no-config", "--format", fmt, "--fail-on", "never", "data"], None


def make_fix(d, n, mode):
    write(d, "fix.conf", "".join(f"work_mem = '{i % 60 + 4}MB'\nwork_mem = '8MB'\n" for i in range(n)))
    return ["check", "--no-config", mode, "--fail-on", "never", "fix.conf"], None


def make_sql(d, n):
    stmts = []
    for i in range(n):
        stmts += [f"ALTER ROLE app_{i} SET work_mem = '{i % 60 + 4}MB';",
                  f"ALTER ROLE app_{i} IN DATABASE db_{i % 50} SET statement_timeout = '30s';",
                  f"ALTER SYSTEM SET myapp.p_{i} = '{i}';",
                  "BEGIN;", f"ALTER DATABASE db_{i} SET random_page_cost = 1.1;", "COMMIT;"]
    write(d, "runbook.sql", "\n".join(stmts) + "\n")
    return ["check", "--no-config", "--format", "concise", "--fail-on", "never", "runbook.sql"], None


def make_apply_sql(d, n):
    write(d, "alter.sql", "".join(f"ALTER SYSTEM SET myapp.p_{i} = '{i}';\nALTER SYSTEM RESET myapp.p_{i // 2};\n"
                                  for i in range(n)))
    return ["apply-sql", "--no-config", "alter.sql"], None


def make_hba(d, n):
    # Every line valid at every size (an IPv6 group holds 4 hex digits: 2001:db8:10000:: would be a
    # host name with a mask, a refused line, and the largest size would measure a different workload).
    lines = ["local all postgres peer"]
    for i in range(n):
        lines += [f"host db_{i} app_{i} 10.{i // 65536 % 256}.{i // 256 % 256}.{i % 256}/32 scram-sha-256",
                  f"hostssl all +group_{i % 40} 2001:db8:{i // 65536:x}:{i % 65536:x}::/64 cert clientcert=verify-full"]
    write(d, "hba/pg_hba.conf", "\n".join(lines) + "\n")
    return ["check", "--no-config", "--format", "concise", "--fail-on", "never", "hba/pg_hba.conf"], None


def make_snapshot(d, n):
    settings = [{"name": "work_mem", "setting": "4096", "unit": "kB", "source": "configuration file",
                 "sourcefile": "/srv/pg/postgresql.conf", "sourceline": 3, "context": "user", "vartype": "integer",
                 "pending_restart": False}]
    file_settings = [{"sourcefile": "/srv/pg/conf.d/%d.conf" % (i % 100), "sourceline": i + 1, "seqno": i + 1,
                      "name": "myapp.p_%d" % i, "setting": str(i), "applied": True, "error": None}
                     for i in range(n)]
    roles = [{"database": None if i % 3 else "db_%d" % i, "role": "app_%d" % i,
              "settings": ["work_mem=%dMB" % (i % 60 + 4), "statement_timeout=30s"]} for i in range(n)]
    doc = {"pgconflint_snapshot": 1, "server": "db1:5432/postgres",
           "info": {"server_version_num": 180004, "superuser": True}, "settings": settings,
           "file_settings": file_settings, "db_role_settings": roles}
    write(d, "snap.json", json.dumps(doc))
    return ["check", "--no-config", "--format", "concise", "--fail-on", "never", "--snapshot", "snap.json"], None


def make_stdin(d, n):
    write(d, "input.conf", conf_lines(n))
    return ["check", "--no-config", "--format", "json", "--fail-on", "never", "--stdin-filename", "postgresql.conf",
            "-"], os.path.join(d, "input.conf")


def make_show(d, n):
    write(d, "data/PG_VERSION", "18\n")
    write(d, "data/postgresql.conf", conf_lines(n))
    return ["show", "--no-config", "data", "work_mem"], None


def make_plan(d, n):
    write(d, "data/PG_VERSION", "18\n")
    write(d, "data/postgresql.conf", conf_lines(n))
    return ["recommend", "--no-config", "--ram", "16GB", "--cpus", "4", "--plan", "data"], None


def make_format(d, n):
    write(d, "data/PG_VERSION", "18\n")
    write(d, "data/postgresql.conf", conf_lines(n))
    # --diff writes nothing, so every run of best_of formats the same text.
    return ["format", "--no-config", "--diff", "data"], None


def write(d, name, text):
    path = os.path.join(d, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


# entry point -> (input maker, units at x1): units chosen so that x1 costs about 30 ms or more.
CASES = {
    "check json": (lambda d, n: make_conf(d, n, "json"), 2000),
    "check sarif": (lambda d, n: make_conf(d, n, "sarif"), 1000),
    "check --fix": (lambda d, n: make_fix(d, n, "--fix"), 6000),
    "check --diff": (lambda d, n: make_fix(d, n, "--diff"), 6000),
    "check stdin": (make_stdin, 1500),
    "sql script": (make_sql, 1500),
    "apply-sql": (make_apply_sql, 8000),
    "pg_hba.conf": (make_hba, 12000),
    "check --snapshot": (make_snapshot, 3000),
    "show": (make_show, 4000),
    "recommend --plan": (make_plan, 4000),
    "format --diff": (make_format, 4000),
}


class CostScalingTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(PGCONFLINT, os.X_OK):
            raise RuntimeError(f"pgconflint binary not found at {PGCONFLINT}: set PGCONFLINT")
        cls.tmp = tempfile.mkdtemp(prefix="pgconflint-cost-")
        # The floor of memory: a run on an empty input (the catalogs, the rules, the binary).
        _, cls.base_rss = best_of(lambda d, n: make_conf(d, n, "concise"), os.path.join(cls.tmp, "base"), 1)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_every_entry_point_grows_linearly(self):
        report = []
        for name, (make, units) in CASES.items():
            with self.subTest(entry=name):
                cpu, mem = {}, {}
                for k in SIZES:
                    d = os.path.join(self.tmp, name.replace(" ", "_").replace("-", "") + f"_x{k}")
                    cpu[k], rss = best_of(make, d, units * k)
                    mem[k] = max(rss - self.base_rss, 2048)  # KiB above the floor, at least 2 MiB
                big = SIZES[-1]
                report.append(f"{name:18} cpu {cpu[1] * 1000:7.0f} ms x{big} {cpu[big] / cpu[1]:5.1f} | "
                              f"memory {mem[1] // 1024:5d} MiB x{big} {mem[big] / mem[1]:5.1f}")
                for k in SIZES[1:]:
                    self.assertLessEqual(cpu[k] / cpu[1], k * SLACK,
                                         f"{name}: CPU time x{k} input is {cpu[k] / cpu[1]:.1f} times x1's "
                                         f"({cpu[1]:.3f} s -> {cpu[k]:.3f} s)")
                    self.assertLessEqual(mem[k] / mem[1], k * SLACK,
                                         f"{name}: memory x{k} input is {mem[k] / mem[1]:.1f} times x1's")
        print("\n" + "\n".join(report))


if __name__ == "__main__":
    unittest.main()
