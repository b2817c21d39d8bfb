#!/usr/bin/env python3
"""`pgconflint recommend` against real PostgreSQL servers, and its golden outputs.

Three parts:

* conf (ConfOutputTest): for PROFILE_COUNT seeded random profiles (RAM 256MB..1TB, 1..128
  CPUs, every storage and workload or none, connections or none, 0..3 tablespaces,
  io_uring yes/no/unknown, PostgreSQL 14..18 with 18 for half of them), the
  `--format conf` output is given to the matching major as `config_file` of
  `postgres -C` (as the unprivileged test user). It must be accepted, and `-C` must print
  for every recommended parameter the value of `--format json`, converted to the server's
  base unit here (1.1 and 1.10 are equal; '16GB' is 2097152 in 8kB pages). The one
  expected refusal: with `--io-uring yes` the recommender may choose io_method = io_uring,
  which the cached build (no liburing) refuses; the test asserts that this is the only
  reason (the same file with worker is accepted). The same file must pass
  `pgconflint check --no-config <same profile> --fail-on warning` with exit 0, check's
  value of every setting must be what `-C` printed, and `recommend --plan` on that file
  must find nothing to change. A profile whose --connections cannot fit even at the
  smallest work_mem may be refused, with the numbers and the choices (counted apart).
* sql (SqlOutputTest): for the representative profiles and SQL_RANDOM seeded random ones,
  a PostgreSQL 18 server is started, the profile's tablespaces are created on temp
  directories owned by the test user, and the `--format sql` output is run as a psql
  script (each statement on its own: ALTER SYSTEM cannot run in a transaction block).
  Then, after the reload, every non-postmaster parameter must show the recommended value
  in pg_settings (source postgresql.auto.conf), every postmaster parameter must be in
  pg_file_settings without an error other than "setting could not be applied" and
  `postgres -C` on the data directory (what the next start reads) must print the
  recommended value; pg_tablespace.spcoptions must hold exactly the four recommended
  options per tablespace; the per-table-size ALTER TABLE templates run on real tables and
  pg_class.reloptions must match; `recommend --live` on the server then plans no tablespace
  change, and without --tablespace names each of them as lacking a storage type. When the recommended shared_buffers is at most
  RESTART_MAX_SHARED_BUFFERS the server is restarted and every parameter, postmaster ones
  included, is compared in pg_settings (wal_buffers = -1 against the size the
  recommendation says it resolves to).
* golden (GoldenTest): tests/golden/recommend/<profile>.<format> for the profiles of
  tests/fixtures/recommend/profiles.json x table, markdown, json, conf, sql, and
  plan-docs-example.{table,markdown} (`--plan docs/example` under the oltp profile).
  Byte for byte; UPDATE_GOLDEN=1 rewrites them (then read the diff as a user would).

Usage:
    python3 tests/integration/test_recommend.py [-v]
    UPDATE_GOLDEN=1 python3 tests/integration/test_recommend.py GoldenTest
Environment: PGCONFLINT (binary, default /tmp/build-tmp/pgconflint); RECOMMEND_SEED
(default 20251129); RECOMMEND_PROFILES (conf profiles, default 30).
Needs: .cache/postgres/<major> (scripts/fetch-postgres.sh), psql, root or the test user.
"""
import difflib
import json
import os
import pwd
import random
import re
import shutil
import subprocess
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))

import commonmark  # noqa: E402
import pgtools  # noqa: E402
import supported  # noqa: E402

PGCONFLINT = os.environ.get("PGCONFLINT", "/tmp/build-tmp/pgconflint")
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
SEED = int(os.environ.get("RECOMMEND_SEED", "20251129"))
PROFILE_COUNT = int(os.environ.get("RECOMMEND_PROFILES", "30"))
SQL_RANDOM = 4
GOLDEN = os.path.join(ROOT, "tests", "golden", "recommend")
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "recommend")
FORMATS = ("table", "markdown", "json", "conf", "sql")
PLAN_PROFILE = "oltp-16cpu-64gb-nvme"
PLAN_PATH = "docs/example"
# Restarting with more shared memory than this is left to `postgres -C` (the test host
# may have less RAM than the profile).
RESTART_MAX_SHARED_BUFFERS = 2 * 1024 ** 3

MAJORS = supported.majors(PGCONFLINT)
STORAGES = supported.storage_types(PGCONFLINT)
WORKLOADS = ("oltp", "olap", "mixed", "web", "desktop")
# Names that PostgreSQL reads back unchanged with the quoting recommend does today
# (lower-case identifiers, or anything else inside double quotes). Keywords and names
# with a double quote are tested on their own (test_tablespace_names_that_need_quoting).
SAFE_TABLESPACE_NAMES = ("fast", "archive", "iscsi", "ts_1", "hist2", "Cold Archive", "Fast-NVMe")

with open(os.path.join(FIXTURES, "profiles.json")) as f:
    PROFILES = {k: v for k, v in json.load(f).items() if not k.startswith("_")}

MEMORY_UNITS = {"B": 1, "kB": 1024, "MB": 1024 ** 2, "GB": 1024 ** 3, "TB": 1024 ** 4}
TIME_UNITS = {"us": 0.001, "ms": 1, "s": 1000, "min": 60000, "h": 3600000, "d": 86400000}


# --- helpers -----------------------------------------------------------------------------

def pgconflint(*argv, check=True):
    r = subprocess.run([PGCONFLINT, *argv], capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, NO_COLOR="1"), cwd=ROOT)
    if check and r.returncode != 0:
        raise AssertionError(f"pgconflint {' '.join(argv)}: exit {r.returncode}\n{r.stderr}")
    return r


def recommend(args, fmt, *extra):
    return pgconflint("recommend", "--no-config", *args, "--format", fmt, *extra).stdout


def catalog(major):
    """name -> knowledge/pg<major>.json entry (vartype, unit, context)."""
    if major not in catalog.cache:
        with open(os.path.join(ROOT, "knowledge", f"pg{major}.json")) as f:
            catalog.cache[major] = {p["name"]: p for p in json.load(f)["parameters"]}
    return catalog.cache[major]


catalog.cache = {}


def unit_size(unit):
    """(table, amount) of a pg_settings unit: '8kB' -> (MEMORY_UNITS, 8192)."""
    m = re.fullmatch(r"(\d*)(\w+)", unit)
    n = int(m.group(1) or 1)
    if m.group(2) in MEMORY_UNITS:
        return MEMORY_UNITS, n * MEMORY_UNITS[m.group(2)]
    return TIME_UNITS, n * TIME_UNITS[m.group(2)]


def base_value(value, vartype, unit):
    """A recommended value ('16GB', '1.1', 'worker') as pg_settings.setting / -C print it."""
    if vartype in ("integer", "real"):
        m = re.fullmatch(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([a-zA-Z]*)\s*", value)
        if not m:
            raise AssertionError(f"cannot read the number {value!r}")
        number, suffix = float(m.group(1)), m.group(2)
        if suffix:
            table, amount = unit_size(unit)
            number = number * table[suffix] / amount
        return round(number) if vartype == "integer" else number
    return value.lower()


def same_setting(expected, server, vartype):
    if vartype == "integer":
        return int(server) == expected
    if vartype == "real":
        return abs(float(server) - expected) <= 1e-9 * max(1.0, abs(expected))
    return server.lower() == expected


def conf_cells(rec, has_storage):
    """The cells the conf and sql outputs set: machine, the selected storage row, autovacuum."""
    cells = list(rec["machine"])
    if has_storage:
        cells += rec["storage"][0]["settings"]
    return cells + list(rec["autovacuum"])


def arg(args, name):
    return [args[i + 1] for i in range(len(args) - 1) if args[i] == name]


def random_profile(rng, major=None, uring=True, names=SAFE_TABLESPACE_NAMES, max_ram_gb=None):
    """Profile flags for recommend and check, and the major."""
    if max_ram_gb:
        ram = f"{rng.randint(1024, max_ram_gb * 1024)}MB"
    elif rng.random() < 0.6:
        ram = rng.choice(["256MB", "512MB", "768MB"] + [f"{g}GB" for g in (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64,
                                                                          96, 128, 192, 256, 512, 768, 1024)])
    else:
        ram = f"{rng.randint(256, 1024 * 1024)}MB"
    cpus = rng.choice([1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128]) if rng.random() < 0.7 \
        else rng.randint(1, 128)
    args = ["--ram", ram, "--cpus", str(cpus)]
    if rng.random() < 0.9:
        args += ["--storage", rng.choice(STORAGES)]
    if rng.random() < 0.85:
        args += ["--workload", rng.choice(WORKLOADS)]
    if rng.random() < 0.5:
        args += ["--connections", str(rng.choice([5, 20, 100, 300, 1000, 5000, rng.randint(5, 5000)]))]
    for name in rng.sample(names, rng.randint(0, 3)):
        args += ["--tablespace", f"{name}={rng.choice(STORAGES)}"]
    if uring:
        u = rng.choice([None, "yes", "no"])
        if u:
            args += ["--io-uring", u]
    if rng.random() < 0.2:
        args += ["--os", rng.choice(["linux", "freebsd"])]
    if major is None:
        major = MAJORS[-1] if rng.random() < 0.5 else rng.choice(MAJORS[:-1])
    return args + ["--pg-version", str(major)], major


def quote_ident(name):
    return '"' + name.replace('"', '""') + '"'


def quote_literal(text):
    return "'" + text.replace("'", "''") + "'"


def psql_file(server, path):
    return subprocess.run([pgtools.PSQL, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", server.sockdir,
                           "-p", str(server.port), "-U", "postgres", "-d", "postgres", "-f", path],
                          capture_output=True, text=True, errors="replace")


def pg_ctl_restart(server):
    log = os.path.join(server.base, "server.log")
    r = subprocess.run(pgtools.as_user([pgtools.pg_bin(server.major, "pg_ctl"), "-D", server.datadir, "-l", log,
                                        "-w", "-t", "60", "-m", "fast", "restart"]),
                       capture_output=True, text=True)
    if r.returncode != 0:
        with open(log, errors="replace") as f:
            raise AssertionError(f"pg_ctl restart failed:\n{r.stdout}{r.stderr}\n{f.read()[-3000:]}")


# --- conf ---------------------------------------------------------------------------------

class ConfOutputTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(PGCONFLINT, os.X_OK):
            raise RuntimeError(f"pgconflint binary not found at {PGCONFLINT}: set PGCONFLINT")
        cls.work = pgtools.make_tempdir("pgconflint-recommend-")
        rng = random.Random(SEED)
        cls.profiles = [random_profile(rng) for _ in range(PROFILE_COUNT)]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def test_conf_is_accepted_by_postgres_and_passes_check(self):
        counts = {"accepted": 0, "io_uring refused": 0, "refused": 0}
        for i, (args, major) in enumerate(self.profiles):
            with self.subTest(profile=" ".join(args)):
                counts[self.check_profile(i, args, major)] += 1
        print(f"\nconf: {len(self.profiles)} profiles (seed {SEED}): {counts}", file=sys.stderr)

    def check_profile(self, i, args, major):
        # The one refusal allowed: connections the profile gives are never lowered, so
        # when they do not fit even at the smallest work_mem (5000 in 256MB) recommend
        # says so with the numbers and the choices (as the unit property allows).
        r = pgconflint("recommend", "--no-config", *args, "--format", "conf", check=False)
        if r.returncode == 2 and arg(args, "--connections") and "do not fit" in r.stderr and "pooler" in r.stderr:
            return "refused"
        conf = recommend(args, "conf")
        rec = json.loads(recommend(args, "json"))
        self.assertEqual(rec["pg_version"], major)
        cells = conf_cells(rec, bool(arg(args, "--storage")))
        d = os.path.join(self.work, f"p{i:02d}")
        os.mkdir(d)
        path = os.path.join(d, "postgresql.conf")
        with open(path, "w") as f:
            f.write(conf)
        pgtools.share_with_user(d)
        datadir = pgtools.initdb(major)

        # io_uring: only when the profile allows it, on PostgreSQL 18 and Linux.
        uring = re.search(r"^io_method = io_uring\b", conf, re.M) is not None
        if uring:
            self.assertEqual(arg(args, "--io-uring"), ["yes"], "io_uring without --io-uring yes")
            self.assertEqual(major, 18)
            self.assertIn(arg(args, "--os"), ([], ["linux"]))
        elif arg(args, "--io-uring") == ["yes"] and major == 18 and arg(args, "--os") in ([], ["linux"]) \
                and arg(args, "--storage") == ["network-block"]:
            self.fail("network block storage with --io-uring yes should get io_method = io_uring")

        ok, _, err = pgtools.postgres_C(major, datadir, path, "shared_buffers")
        if uring:
            # The cached build has no liburing: exactly that, and nothing else, is refused.
            self.assertFalse(ok, "a build without liburing accepted io_method = io_uring")
            self.assertIn('invalid value for parameter "io_method": "io_uring"', err)
            with open(path, "w") as f:
                f.write(re.sub(r"^io_method = io_uring\b", "io_method = worker", conf, flags=re.M))
            ok, _, err = pgtools.postgres_C(major, datadir, path, "shared_buffers")
            self.assertTrue(ok, f"still refused with io_method = worker:\n{err}")
        else:
            self.assertTrue(ok, f"PostgreSQL {major} refuses the conf output:\n{err}\n{conf}")

        # Every recommended value, as the server reads it from the file.
        cat = catalog(major)
        server_values = {}
        for cell in cells:
            p = cat[cell["parameter"]]
            ok, printed, err = pgtools.postgres_C(major, datadir, path, cell["parameter"])
            self.assertTrue(ok, err)
            server_values[cell["parameter"]] = printed
            want = cell["value"]
            if uring and cell["parameter"] == "io_method":
                want = "worker"
            self.assertTrue(same_setting(base_value(want, p["vartype"], p["unit"]), printed, p["vartype"]),
                            f"{cell['parameter']}: recommended {cell['value']}, postgres -C prints {printed}")

        # check under the same profile: exit 0 at --fail-on warning, and the values it
        # computed are the server's.
        r = pgconflint("check", "--no-config", *args, "--format", "json", "--fail-on", "warning", path, check=False)
        out = json.loads(r.stdout)
        problems = [f"{x['severity']} {x['code']}: {x['message']}" for x in out["diagnostics"]
                    if x["severity"] in ("warning", "error")]
        self.assertEqual((r.returncode, problems), (0, []), f"check fails on the conf output\n{conf}")
        for s in out["roots"][0]["settings"]:
            if s["applied"] and s["name"] in server_values:
                self.assertEqual(s["value"], server_values[s["name"]], f"check's value of {s['name']}")

        # The plan from the recommendation itself changes nothing (tablespace steps
        # always appear, so they are left out here).
        plan_args = []
        skip = False
        for a in args:
            if skip:
                skip = False
            elif a == "--tablespace":
                skip = True
            else:
                plan_args.append(a)
        plan = pgconflint("recommend", "--no-config", *plan_args, "--plan", path).stdout
        self.assertTrue("Every setting is already within the recommended range." in plan,
                        f"recommend {' '.join(plan_args)} --plan <its own conf output> wants changes:\n{plan}")
        return "io_uring refused" if uring else "accepted"


# --- sql ----------------------------------------------------------------------------------

class SqlOutputTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(PGCONFLINT, os.X_OK):
            raise RuntimeError(f"pgconflint binary not found at {PGCONFLINT}: set PGCONFLINT")
        pgtools.pg_bin(18)
        user = pgtools.ensure_user()
        cls.owner = pwd.getpwnam(user) if user else None

    def test_sql_runs_on_postgres_18_and_sets_what_was_recommended(self):
        rng = random.Random(SEED + 1)
        cases = [(name, args + ["--pg-version", "18"]) for name, args in PROFILES.items()]
        for i in range(SQL_RANDOM):
            # Half of them small enough to restart with (shared_buffers <= 2GB).
            args, _ = random_profile(rng, major=18, uring=False, max_ram_gb=8 if i % 2 == 0 else None)
            cases.append((f"random-{i}", args))
        restarted = 0
        self.planned = 0  # profiles with tablespaces, whose plan from the server was checked
        for name, args in cases:
            with self.subTest(profile=name, args=" ".join(args)):
                restarted += self.run_sql_profile(args)
        print(f"\nsql: {len(cases)} profiles on PostgreSQL 18, {restarted} also restarted, "
              f"{self.planned} with tablespaces planned from the server", file=sys.stderr)
        self.assertGreater(self.planned, 0, "no profile had a tablespace")

    def make_tablespaces(self, server, names):
        for name in names:
            d = os.path.join(server.base, "ts-" + re.sub(r"[^A-Za-z0-9]", "_", name) + f"-{len(name)}")
            os.mkdir(d)
            if self.owner:
                os.chown(d, self.owner.pw_uid, self.owner.pw_gid)
            server.psql(f"CREATE TABLESPACE {quote_ident(name)} LOCATION '{d}'")

    def run_script(self, server, text):
        path = os.path.join(server.base, f"script-{time.monotonic_ns()}.sql")
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o644)
        return psql_file(server, path)

    def run_sql_profile(self, args):
        sql = recommend(args, "sql")
        rec = json.loads(recommend(args, "json"))
        self.assertNotRegex(sql, r"(?im)^\s*(BEGIN|START TRANSACTION)\b")
        names = [t.split("=", 1)[0] for t in arg(args, "--tablespace")]
        cells = conf_cells(rec, bool(arg(args, "--storage")))
        with pgtools.Server(18) as server:
            self.make_tablespaces(server, names)
            r = self.run_script(server, sql)
            self.assertEqual(r.returncode, 0, f"psql -f <sql output> failed:\n{r.stderr}\n{sql}")

            auto = os.path.join(server.datadir, "postgresql.auto.conf")
            file_rows = {}
            for line in server.psql("SELECT name, setting, coalesce(error, '') FROM pg_file_settings "
                                    f"WHERE sourcefile = '{auto}'").splitlines():
                n, s, e = line.split("|", 2)
                file_rows[n] = (s, e)
            self.wait_for_reload(server, cells)
            settings = self.read_settings(server)
            for cell in cells:
                n = cell["parameter"]
                vartype, unit, context, setting, sourcefile = settings[n]
                want = base_value(cell["value"], vartype, unit)
                self.assertIn(n, file_rows, f"{n} is not in postgresql.auto.conf")
                self.assertIn(file_rows[n][1], ("", "setting could not be applied"), f"{n}: {file_rows[n]}")
                if context == "postmaster":
                    ok, printed, err = pgtools.postgres_C(18, server.datadir, None, n)
                    self.assertTrue(ok, err)
                    self.assertTrue(same_setting(want, printed, vartype),
                                    f"{n}: recommended {cell['value']}, the next start reads {printed}")
                else:
                    self.assertTrue(same_setting(want, setting, vartype),
                                    f"{n}: recommended {cell['value']}, pg_settings says {setting} {unit or ''}")
                    self.assertEqual(sourcefile, auto, n)

            # Tablespaces: exactly the four options, with the recommended values.
            got = {}
            for line in server.psql("SELECT spcname, array_to_string(spcoptions, ',') FROM pg_tablespace "
                                    "WHERE spcname NOT IN ('pg_default', 'pg_global')").splitlines():
                n, opts = line.rsplit("|", 1)
                got[n] = dict(o.split("=", 1) for o in opts.split(",") if o)
            want_ts = {t["name"]: {o["parameter"]: o["value"] for o in t["options"]} for t in rec["tablespaces"]}
            self.assertEqual(sorted(got), sorted(names))
            for n, opts in want_ts.items():
                self.assertEqual(sorted(got[n]), sorted(opts), n)
                for k, v in opts.items():
                    self.assertEqual(float(got[n][k]), float(v), f"tablespace {n} {k}")

            # The plan from the server itself finds its tablespaces, each with what was recommended;
            # without their storage types, it names each as lacking one.
            if names:
                self.planned += 1
                live = f"host={server.sockdir} port={server.port} user=postgres dbname=postgres"
                plan = pgconflint("recommend", "--no-config", *args, "--live", live).stdout
                self.assertNotIn("ALTER TABLESPACE", plan, f"the plan after the sql output:\n{plan}")
                self.assertNotIn("no storage type", plan, plan)
                bare = [a for i, a in enumerate(args) if a != "--tablespace" and (i == 0 or args[i - 1] != "--tablespace")]
                plan = pgconflint("recommend", "--no-config", *bare, "--live", live).stdout
                note = next((line for line in plan.splitlines() if "no storage type for tablespace" in line), "")
                for n in names:
                    self.assertIn(n + " (pg_tablespace:", note, plan)

            # The per-table-size templates, each on a fresh table.
            script, want_tables = [], {}
            for i, t in enumerate(rec["tables"]):
                table = f"t{i}"
                script.append(f"CREATE TABLE {table} (id int);")
                script.append(t["sql"].replace("<table>", table))
                want_tables[table] = {o["parameter"]: o["value"] for o in t["options"]}
            r = self.run_script(server, "\n".join(script) + "\n")
            self.assertEqual(r.returncode, 0, r.stderr)
            for line in server.psql("SELECT relname, array_to_string(reloptions, ',') FROM pg_class "
                                    "WHERE relname ~ '^t[0-9]+$'").splitlines():
                n, opts = line.split("|", 1)
                got_opts = dict(o.split("=", 1) for o in opts.split(",") if o)
                self.assertEqual(sorted(got_opts), sorted(want_tables[n]), n)
                for k, v in want_tables[n].items():
                    self.assertEqual(float(got_opts[k]), float(v), f"{n} {k}")

            # A restart where the shared memory fits this host: every value, live.
            sb = next(c for c in rec["machine"] if c["parameter"] == "shared_buffers")["value"]
            if base_value(sb, "integer", "B") > RESTART_MAX_SHARED_BUFFERS:
                return 0
            pg_ctl_restart(server)
            settings = self.read_settings(server)
            pending = server.psql("SELECT name FROM pg_settings WHERE pending_restart").split()
            self.assertEqual(pending, [])
            for cell in cells:
                n = cell["parameter"]
                vartype, unit, context, setting, _ = settings[n]
                if n == "wal_buffers" and cell["value"] == "-1":
                    # The recommendation says what -1 resolves to: "(16MB here)".
                    m = re.search(r"\((\d+(?:kB|MB))\s+here\)", cell["why"])
                    self.assertIsNotNone(m, cell["why"])
                    self.assertEqual(int(setting), base_value(m.group(1), vartype, unit),
                                     f"wal_buffers resolved to {setting} x {unit}, the recommendation says {m.group(1)}")
                    continue
                self.assertTrue(same_setting(base_value(cell["value"], vartype, unit), setting, vartype),
                                f"after the restart {n} = {setting} {unit or ''}, recommended {cell['value']}")
            return 1

    def read_settings(self, server):
        out = {}
        for line in server.psql("SELECT name, vartype, coalesce(unit, ''), context, setting, "
                                "coalesce(sourcefile, '') FROM pg_settings").splitlines():
            n, vartype, unit, context, setting, sourcefile = line.split("|")
            out[n] = (vartype, unit or None, context, setting, sourcefile)
        return out

    def wait_for_reload(self, server, cells):
        """pg_reload_conf() only signals the postmaster: wait until a new backend sees the file."""
        n = next((c["parameter"] for c in cells if c["parameter"] == "work_mem"), None)
        deadline = time.monotonic() + 10
        while n and time.monotonic() < deadline:
            if server.psql(f"SELECT source FROM pg_settings WHERE name = '{n}'").strip() == "configuration file":
                return
            time.sleep(0.05)

    def test_tablespace_names_that_need_quoting(self):
        # A keyword must be quoted (ALTER TABLESPACE user ... is a syntax error) and a
        # double quote inside a quoted identifier is written twice. A name with a line break
        # is written U&"...\000a..." and shown as \n in comments: no line of the script
        # (piped to psql) can be forged by a name.
        evil = "evil\nDROP DATABASE postgres; --"
        names = ["user", "table", 'o"q', "Mixed Case", evil, "back\\slash"]
        args = ["--ram", "4GB", "--cpus", "2", "--storage", "nvme", "--pg-version", "18"]
        for n in names:
            args += ["--tablespace", f"{n}=cold-object"]
        rec = json.loads(recommend(args, "json"))
        sql = recommend(args, "sql")
        self.assertNotRegex(sql, r"(?m)^DROP")
        self.assertIn("tablespace evil\\nDROP DATABASE postgres; -- on cold-object", sql)
        with pgtools.Server(18) as server:
            self.make_tablespaces(server, names)
            failures = []
            for t in rec["tablespaces"]:
                r = self.run_script(server, t["sql"] + "\n")
                if r.returncode != 0:
                    failures.append(f"{t['name']!r}: {t['sql']}\n    {r.stderr.strip()}")
            self.assertEqual(failures, [], "ALTER TABLESPACE statements PostgreSQL refuses:\n" + "\n".join(failures))
            for n in names:
                opts = server.psql(f"SELECT array_to_string(spcoptions, ',') FROM pg_tablespace "
                                   f"WHERE spcname = {quote_literal(n)}").strip()
                self.assertIn("seq_page_cost=2.0", opts, n)


# --- plan as a fragment ---------------------------------------------------------------------

class PlanFragmentTest(unittest.TestCase):
    """`recommend --plan DATADIR --plan-format conf` on a data directory whose postgresql.conf
    includes conf.d, sets a line after that include, and has a postgresql.auto.conf: written
    where the fragment says, every planned value is what a real 18 reads (`postgres -C`),
    except those the fragment names as overridden, which keep the overriding line's value."""

    def test_fragment_wins_where_it_says(self):
        major = 18
        datadir = pgtools.initdb(major)
        files = {"postgresql.conf": "max_connections = 50\ninclude_dir 'conf.d'\nrandom_page_cost = 3\n",
                 "conf.d/10-tuning.conf": "effective_cache_size = 1GB\n",
                 "postgresql.auto.conf": "# Do not edit this file manually!\n"
                                         "# It will be overwritten by the ALTER SYSTEM command.\n"
                                         "track_io_timing = 'off'\n"}
        os.makedirs(os.path.join(datadir, "conf.d"), exist_ok=True)
        for name, text in files.items():
            with open(os.path.join(datadir, name), "w") as f:
                f.write(text)
        pgtools.share_with_user(datadir)
        profile = ["--no-config", "--ram", "16GB", "--cpus", "4", "--storage", "nvme", "--workload", "oltp"]
        out = pgconflint("recommend", *profile, "--plan", datadir, "--plan-format", "conf").stdout
        target = re.search(r"^# To apply it, save it as (\S+): ", out, re.M)
        self.assertIsNotNone(target, out)
        self.assertEqual(target.group(1), os.path.join(datadir, "conf.d", "99-pgconflint.conf"), out)
        planned, overridden, name = {}, {}, None
        for line in out.splitlines():
            m = re.match(r"^(\w+) = (\S+)  # was ", line)
            if m:
                name = m.group(1)
                planned[name] = m.group(2).strip("'")
            m = re.match(r"^#   overridden by (\S+):(\d+) \((\w+) = (.*)\)", line)
            if m:
                overridden[name] = m.group(4)
        self.assertEqual(sorted(overridden), ["random_page_cost", "track_io_timing"], out)
        self.assertIn("effective_cache_size", planned, out)
        with open(target.group(1), "w") as f:
            f.write(out)
        pgtools.share_with_user(datadir)
        cat = catalog(major)
        server = {}
        for param, value in planned.items():
            ok, printed, err = pgtools.postgres_C(major, datadir, None, param)
            self.assertTrue(ok, f"PostgreSQL refuses the data directory with the fragment:\n{err}\n{out}")
            server[param] = printed
            p = cat[param]
            want = overridden.get(param, value).strip("'")
            self.assertTrue(same_setting(base_value(want, p["vartype"], p["unit"]), printed, p["vartype"]),
                            f"{param}: expected {want} ({'overridden' if param in overridden else 'the fragment'}), "
                            f"postgres -C prints {printed}")
        # pgconflint reads the tree as the server does.
        r = pgconflint("check", *profile, "--format", "json", datadir, check=False)
        self.assertIn(r.returncode, (0, 1), r.stderr)
        values = {s["name"]: s["value"] for s in json.loads(r.stdout)["roots"][0]["settings"] if s["applied"]}
        for param, printed in server.items():
            self.assertEqual(values.get(param), printed, param)


# --- golden -------------------------------------------------------------------------------

class GoldenTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(PGCONFLINT, os.X_OK):
            raise RuntimeError(f"pgconflint binary not found at {PGCONFLINT}: set PGCONFLINT")

    @staticmethod
    def cases():
        """golden file name -> (argv, expected exit status)."""
        out = {}
        for name, args in PROFILES.items():
            for fmt in FORMATS:
                out[f"{name}.{fmt}"] = ["recommend", "--no-config", *args, "--format", fmt]
        out["plan-docs-example.table"] = ["recommend", "--no-config", *PROFILES[PLAN_PROFILE], "--plan", PLAN_PATH]
        out["plan-docs-example.markdown"] = ["recommend", "--no-config", *PROFILES[PLAN_PROFILE], "--plan", PLAN_PATH,
                                             "--format", "markdown"]
        out["plan-docs-example.conf"] = ["recommend", "--no-config", *PROFILES[PLAN_PROFILE], "--plan", PLAN_PATH,
                                         "--plan-format", "conf"]
        return out

    def test_outputs(self):
        for golden, argv in self.cases().items():
            with self.subTest(golden=golden):
                r = pgconflint(*argv)
                self.assertEqual(r.stderr, "", golden)
                path = os.path.join(GOLDEN, golden)
                if UPDATE:
                    os.makedirs(GOLDEN, exist_ok=True)
                    if not os.path.exists(path) or open(path, encoding="utf-8").read() != r.stdout:
                        with open(path, "w", encoding="utf-8") as f:
                            f.write(r.stdout)
                        print(f"updated {os.path.relpath(path, ROOT)}", file=sys.stderr)
                    continue
                self.assertTrue(os.path.exists(path),
                                f"{os.path.relpath(path, ROOT)} missing: run with UPDATE_GOLDEN=1 and review it")
                with open(path, encoding="utf-8") as f:
                    expected = f.read()
                if expected != r.stdout:
                    diff = "".join(difflib.unified_diff(expected.splitlines(True), r.stdout.splitlines(True),
                                                        fromfile=os.path.relpath(path, ROOT), tofile="actual"))
                    self.fail(f"output differs (UPDATE_GOLDEN=1 rewrites it):\n{diff}")

    def test_markdown_plan_renders_as_commonmark(self):
        """Rendered by a CommonMark renderer, the plan keeps its statements in fenced SQL
        blocks: every statement of the text plan is in one, and no paragraph or list item
        holds a statement (three-space-indented lines after prose used to run together)."""
        cases = self.cases()
        md = pgconflint(*cases["plan-docs-example.markdown"]).stdout
        text = pgconflint(*cases["plan-docs-example.table"]).stdout
        code, prose = commonmark.blocks(md)
        self.assertEqual(commonmark.statements_in_prose(md), [])
        sql = [line for lang, block in code if lang == "sql" for line in block.splitlines()]
        statements = [line.strip() for line in text.splitlines() if line.startswith("     ")]
        self.assertGreater(len(statements), 10, text)
        self.assertEqual(sorted(set(statements) - set(sql)), [])
        self.assertIn("Rollout plan for docs/example", prose[0])

    def test_every_golden_is_produced(self):
        if os.path.isdir(GOLDEN):
            stale = sorted(set(os.listdir(GOLDEN)) - set(self.cases()))
            self.assertEqual(stale, [], "golden files no case produces: delete them")

    def test_json_parses_and_matches_the_profile(self):
        for name, args in PROFILES.items():
            with self.subTest(profile=name):
                rec = json.loads(recommend(args, "json"))
                self.assertEqual(rec["version"], 1)
                self.assertEqual(rec["profile"]["cpus"], int(arg(args, "--cpus")[0]))
                self.assertEqual(rec["profile"]["workload"], arg(args, "--workload")[0])
                self.assertEqual(rec["profile"]["storage"], arg(args, "--storage")[0])
                self.assertEqual([t["name"] for t in rec["tablespaces"]],
                                 sorted(t.split("=", 1)[0] for t in arg(args, "--tablespace")))


if __name__ == "__main__":
    unittest.main()
