#!/usr/bin/env python3
"""SQL inputs against real PostgreSQL servers: the ALTER SYSTEM simulation and the refusals.

* simulation (SimulationTest): for PostgreSQL 15, 17 and 18, one server each runs
  SCRIPTS_PER_MAJOR seeded random scripts of ALTER SYSTEM statements (quotes, doubled quotes,
  backslashes in standard and E'' strings, dollar quoting, list values with identifiers that
  need quoting, names in mixed case, quoted names, numbers written bare, TO and =, DEFAULT,
  RESET, RESET ALL, the same name SET again), one after the other on the same cluster, so
  each script starts from the postgresql.auto.conf the previous ones left (duplicates and
  lines in the server's own normal form included). After each script the file the server
  wrote must be byte for byte what `pgconflint apply-sql --auto-conf BEFORE SCRIPT` prints
  from the file as it was before. The count of compared scripts per major is printed.
* refusals (RefusalTest): the statements pgconflint reports as refused (an unquoted value
  with a unit, ALTER SYSTEM in a transaction block, a parameter that cannot be changed, a
  postmaster parameter per database, a bad tablespace option) are refused by the real
  server too, and their near misses are accepted.

Usage: python3 tests/integration/test_sql.py [-v]
Environment: PGCONFLINT (the binary); SQL_SEED (default 20261130).
Needs: .cache/postgres/<major> (scripts/fetch-postgres.sh), psql, root or the test user.
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
import pgtools  # noqa: E402

PGCONFLINT = os.environ.get("PGCONFLINT", os.path.join(ROOT, "build", "pgconflint"))
SEED = int(os.environ.get("SQL_SEED", "20261130"))
SCRIPTS_PER_MAJOR = 40
SIMULATED_MAJORS = (15, 17, 18)

# Statement pieces. Names: parameters of every major 15-18 (knowledge/pg<major>.json).
SCALAR = [
    ("work_mem", ["'64MB'", "131072", "'1GB'", "4096"]),
    ("random_page_cost", ["1.1", "0.9", "'4'", "2"]),
    ("application_name", ["'it''s'", "E'back\\\\slash'", "'a\\b'", "$$dollar 'q'$$", "'tab\there'",
                          "E'new\\nline'", "'\"dq\"'", "plain_word", "'mixed Case'"]),
    ("cluster_name", ["'c1'", "$tag$x''y$tag$", "'o''brien\\\\'", "''"]),
    ("log_min_duration_statement", ["-1", "'250ms'", "1000", "'1s'"]),
    ("statement_timeout", ["0", "'30s'", "60000"]),
    ("jit", ["on", "off", "'true'", "false"]),
]
LISTS = [
    ("search_path", ["'\"$user\", public'", "\"$user\", public", "public, \"Mixed\", other",
                     "'a', 'B c'", "\"with space\"", "public"]),
    ("datestyle", ["'ISO, DMY'", "iso, mdy", "'German'", "'SQL, DMY'"]),
]
NAME_SPELLINGS = {
    "work_mem": ["work_mem", "WORK_MEM", "Work_Mem", "\"work_mem\""],
    "datestyle": ["DateStyle", "datestyle", "\"DateStyle\"", "DATESTYLE"],
    "random_page_cost": ["random_page_cost", "Random_Page_Cost"],
    "search_path": ["search_path", "SEARCH_PATH"],
}


def spell(rng, name):
    return rng.choice(NAME_SPELLINGS.get(name, [name]))


def statement(rng):
    roll = rng.random()
    if roll < 0.08:
        return "ALTER SYSTEM RESET ALL"
    name, values = rng.choice(SCALAR + LISTS)
    if roll < 0.2:
        return f"ALTER SYSTEM RESET {spell(rng, name)}"
    if roll < 0.27:
        return f"ALTER SYSTEM SET {spell(rng, name)} {rng.choice(['TO', '='])} DEFAULT"
    return f"ALTER SYSTEM SET {spell(rng, name)} {rng.choice(['TO', '='])} {rng.choice(values)}"


def script(rng):
    stmts = [statement(rng) for _ in range(rng.randint(1, 6))]
    if rng.random() < 0.3:  # the same name SET again
        stmts.append(stmts[-1] if stmts[-1].startswith("ALTER SYSTEM SET") else statement(rng))
    return "".join(s + ";\n" for s in stmts)


def run_psql_script(srv, text):
    """Runs `text` with psql, each statement on its own (autocommit); returns (rc, stderr)."""
    r = subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", srv.sockdir, "-p", str(srv.port),
                        "-U", "postgres", "-d", "postgres"],
                       input=text, capture_output=True, text=True, errors="replace")
    return r.returncode, r.stderr


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def apply_sql(major, before_path, script_path):
    r = subprocess.run([PGCONFLINT, "apply-sql", "--no-config", "--pg-version", str(major),
                        "--auto-conf", before_path, script_path], capture_output=True)
    return r.returncode, r.stdout, r.stderr.decode(errors="replace")


class SimulationTest(unittest.TestCase):
    def test_alter_system_simulation_matches_the_server(self):
        rng = random.Random(SEED)
        work = tempfile.mkdtemp(prefix="pgconflint-sql-")
        try:
            for major in SIMULATED_MAJORS:
                compared = 0
                start = time.monotonic()
                with pgtools.Server(major) as srv:
                    auto = os.path.join(srv.datadir, "postgresql.auto.conf")
                    for i in range(SCRIPTS_PER_MAJOR):
                        text = script(rng)
                        before = os.path.join(work, f"{major}-{i}.before.conf")
                        shutil.copyfile(auto, before)
                        sql = os.path.join(work, f"{major}-{i}.sql")
                        with open(sql, "w") as f:
                            f.write(text)
                        rc, err = run_psql_script(srv, text)
                        self.assertEqual(rc, 0, f"PostgreSQL {major} refused the script:\n{text}\n{err}")
                        want = read_bytes(auto)
                        prc, got, perr = apply_sql(major, before, sql)
                        with self.subTest(major=major, script=i):
                            self.assertEqual(prc, 0, perr)
                            self.assertEqual(got.decode(errors="replace"), want.decode(errors="replace"),
                                             f"script:\n{text}\nbefore:\n{read_bytes(before).decode()}")
                            compared += 1
                print(f"PostgreSQL {major}: {compared} scripts byte for byte "
                      f"({time.monotonic() - start:.1f}s)", file=sys.stderr)
        finally:
            shutil.rmtree(work, ignore_errors=True)


def check_sql(text, major, *extra):
    """`pgconflint check` of a script; returns the codes it reports."""
    d = tempfile.mkdtemp(prefix="pgconflint-sqlcheck-")
    try:
        path = os.path.join(d, "script.sql")
        with open(path, "w") as f:
            f.write(text)
        r = subprocess.run([PGCONFLINT, "check", "--no-config", "--pg-version", str(major), "--format", "json",
                            "--fail-on", "never", *extra, path], capture_output=True, text=True)
        if r.returncode != 0:
            raise AssertionError(r.stderr)
        import json
        data = json.loads(r.stdout)
        return {d["code"] for f in data["files"] for d in f["diagnostics"]} if "files" in data else \
            {d["code"] for d in data.get("diagnostics", [])}
    finally:
        shutil.rmtree(d, ignore_errors=True)


# (code, statement the server refuses, near miss it accepts); one transaction-free run each.
REFUSALS = [
    ("PGC1001", "ALTER SYSTEM SET work_mem = 64MB", "ALTER SYSTEM SET work_mem = '64MB'"),
    ("PGC1002", "BEGIN; ALTER SYSTEM SET work_mem = '64MB'; COMMIT",
     "BEGIN; ALTER DATABASE postgres SET work_mem = '64MB'; COMMIT"),
    ("PGC1003", "ALTER SYSTEM SET block_size = 8192", "ALTER SYSTEM SET work_mem = 8192"),
    ("PGC1004", "ALTER DATABASE postgres SET shared_buffers = '1GB'",
     "ALTER DATABASE postgres SET work_mem = '1GB'"),
    ("PGC1007", "ALTER TABLESPACE pg_default SET (work_mem = 1)",
     "ALTER TABLESPACE pg_default SET (random_page_cost = 1.1)"),
    ("PGC1008", "ALTER TABLESPACE pg_default SET (random_page_cost = -1)",
     "ALTER TABLESPACE pg_default SET (seq_page_cost = 0.5)"),
]


class RefusalTest(unittest.TestCase):
    def test_reported_refusals_are_the_servers(self):
        with pgtools.Server(18) as srv:
            for code, bad, good in REFUSALS:
                with self.subTest(code=code):
                    rc, err = run_psql_script(srv, bad + ";\n")
                    self.assertNotEqual(rc, 0, f"the server accepted {bad}")
                    self.assertIn(code, check_sql(bad + ";\n", 18))
                    rc, err = run_psql_script(srv, good + ";\n")
                    self.assertEqual(rc, 0, f"the server refused {good}: {err}")
                    self.assertNotIn(code, check_sql(good + ";\n", 18))
            run_psql_script(srv, "ALTER SYSTEM RESET ALL;\nALTER DATABASE postgres RESET ALL;\n"
                                 "ALTER TABLESPACE pg_default RESET (random_page_cost, seq_page_cost);\n")


if __name__ == "__main__":
    unittest.main()
