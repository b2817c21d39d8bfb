#!/usr/bin/env python3
"""Live servers over libpq: `check --live`, `snapshot`, `check --snapshot`, drift and fleets.

One server per major 14-18 is started for the whole suite (as the unprivileged test user,
trust authentication on a private Unix socket) and shared by the cases:

* fleet (FleetTest): the five servers and one unreachable address at once, with --jobs 3:
  a row per server with its version, the unreachable one reported with its error, the rest
  checked; the password of a connection string is never printed.
* privileges (PrivilegeTest, on each major 14-18): a superuser sees pg_file_settings and
  pg_hba_file_rules; a member of pg_monitor (pg_read_all_settings) and a plain role see less,
  and the output names the grant that would show it (PGC1105), matching what the role may
  select on the server itself.
* server state (ServerStateTest, on 17): a pending restart (ALTER SYSTEM of a postmaster
  parameter, then a reload) is PGC1101; a line the server refused to apply is PGC1102; a
  pg_hba.conf line it cannot load is PGC1104; a
  role and a database override are read from pg_db_role_setting and linted for their scope;
  a tablespace's options are read from pg_tablespace, and `recommend --live` plans them.
* snapshots (SnapshotTest, on each major): `pgconflint snapshot` then `check --snapshot` gives
  the findings of `check --live`, and scripts/snapshot.sql run by psql gives the same findings too.
* pg_hba.conf advice (HbaAdviceTest, on 14 and 18): `check --live` gives the advice findings
  `check DATADIR` gives for the same pg_hba.conf.
* rollouts (RolloutTest, a server of 18 of its own): diff's plans applied step by step (a
  reload-only change, a restart change, a pg_hba.conf change) with the plans' own queries, the
  server's state checked against what each plan predicts; a refused value's plan has no step.
* per-table autovacuum (TableAutovacuumTest, on each major): `recommend --live` gives a large
  updated table the options of its size class as an ALTER TABLE the server accepts, and no
  statement once it holds them.
* drift (DriftTest): `check PATH --live` reports the parameters PATH sets to another value
  than the server runs (PGC1103), and the pg_hba.conf / pg_ident.conf lines that differ from
  the rules and mappings in force (PGC845).

Usage: python3 tests/integration/test_live.py [-v]
Environment: PGCONFLINT (the binary).
Needs: .cache/postgres/<major>, psql, root or the test user.
"""
import json
import re
import os
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
import supported  # noqa: E402

PGCONFLINT = os.environ.get("PGCONFLINT", os.path.join(ROOT, "build", "pgconflint"))
MAJORS = supported.majors(PGCONFLINT)
SERVERS = {}
T0 = time.monotonic()


def setUpModule():
    for major in MAJORS:
        SERVERS[major] = pgtools.Server(major).start()
    for srv in SERVERS.values():
        srv.psql("CREATE ROLE plain LOGIN; CREATE ROLE monitor LOGIN IN ROLE pg_monitor")


def tearDownModule():
    for srv in SERVERS.values():
        srv.stop()
    print(f"test_live: {time.monotonic() - T0:.1f}s", file=sys.stderr)


def conninfo(srv, user="postgres", extra=""):
    return f"host={srv.sockdir} port={srv.port} user={user} dbname=postgres {extra}".strip()


def run(*args, input_text=None):
    r = subprocess.run([PGCONFLINT, *args], capture_output=True, text=True, input=input_text)
    return r.returncode, r.stdout, r.stderr


def findings(*args):
    """(code, message) of every finding of `check ... --format json`."""
    rc, out, err = run("check", "--no-config", "--format", "json", "--fail-on", "never", *args)
    if rc not in (0, 1):
        raise AssertionError(f"check {args} exited {rc}: {err}")
    doc = json.loads(out)
    got = []
    for root in doc.get("files", doc.get("roots", [])):
        for d in root.get("diagnostics", []):
            got.append((d["code"], d["message"]))
    if not got and "diagnostics" in doc:
        got = [(d["code"], d["message"]) for d in doc["diagnostics"]]
    return sorted(got)


def codes(*args):
    return {c for c, _ in findings(*args)}


class DriftStateTest(unittest.TestCase):
    """Drift against servers in a bad-but-running state (14 and 18): an ALTER SYSTEM value
    waiting for a restart, a database setting and a role setting, each against a repository
    that says otherwise; the state is undone afterwards."""

    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="pgconflint-drift-state-")

    def tearDown(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def drift(self, srv, shared_buffers):
        conf = os.path.join(self.work, "postgresql.conf")
        with open(conf, "w") as f:
            f.write(f"shared_buffers = '{shared_buffers}'\nstatement_timeout = '30s'\nwork_mem = '64MB'\n"
                    f"port = {srv.port}\n")
        return [m for c, m in findings(conf, "--live", conninfo(srv)) if c == "PGC1103"]

    def test_pending_alter_system_and_database_and_role_settings(self):
        for major in (14, 18):
            if major not in SERVERS:
                continue
            srv = SERVERS[major]
            with self.subTest(major=major):
                srv.psql("ALTER SYSTEM SET shared_buffers = '256MB'")
                srv.psql("CREATE DATABASE appdb")
                srv.psql("CREATE ROLE app")
                srv.psql("ALTER DATABASE appdb SET statement_timeout = 0")
                srv.psql("ALTER ROLE app SET work_mem = '2GB'")
                srv.psql("SELECT pg_reload_conf()")
                try:
                    deadline = time.monotonic() + 10
                    while srv.psql("SELECT pending_restart FROM pg_settings WHERE name = 'shared_buffers'").strip() != "t":
                        self.assertLess(time.monotonic(), deadline, "the reload did not mark shared_buffers pending")
                        time.sleep(0.1)
                    running = srv.psql("SHOW shared_buffers").strip()
                    drift = self.drift(srv, "512MB")
                    self.assertTrue(any(m.startswith(f"shared_buffers is '512MB' here but '{running}' on ")
                                        and "its files say '256MB'" in m and "written by ALTER SYSTEM" in m
                                        and "the next restart applies" in m for m in drift), drift)
                    self.assertFalse(any("already say so" in m for m in drift), drift)
                    self.assertTrue(any(m.startswith("statement_timeout is '30s' here but '0' for database appdb")
                                        and "ALTER DATABASE appdb SET statement_timeout" in m for m in drift), drift)
                    self.assertTrue(any(m.startswith("work_mem is '64MB' here but '2GB' for role app")
                                        for m in drift), drift)
                    # The repository at the pending value: the restart is what is missing.
                    drift = self.drift(srv, "256MB")
                    self.assertTrue(any(m.startswith("shared_buffers is '256MB' here") and "already say so" in m
                                        for m in drift), drift)
                    # At the running value: the next restart changes it away from the repository.
                    drift = self.drift(srv, running)
                    self.assertTrue(any(m.startswith(f"shared_buffers is '{running}' here and on ")
                                        and "the next restart changes it" in m for m in drift), drift)
                finally:
                    srv.psql("ALTER SYSTEM RESET shared_buffers")
                    srv.psql("DROP DATABASE appdb")
                    srv.psql("DROP ROLE app")
                    srv.psql("SELECT pg_reload_conf()")


class FleetTest(unittest.TestCase):
    def test_five_majors_and_an_unreachable_server(self):
        dead = f"host=127.0.0.1 port={pgtools.free_port()} user=postgres password=s3cr3t-value connect_timeout=2"
        args = ["check", "--no-config", "--jobs", "3", "--summary", "json", "--fail-on", "never"]
        for major in MAJORS:
            args += ["--live", conninfo(SERVERS[major])]
        args += ["--live", dead]
        start = time.monotonic()
        rc, out, err = run(*args)
        elapsed = time.monotonic() - start
        self.assertNotIn("s3cr3t-value", out + err)
        self.assertEqual(rc, 3, err)  # a server could not be checked: internal error, after the others
        rows = json.loads(out)["servers"]
        self.assertEqual(len(rows), 6, out)
        versions = [r["version"] for r in rows[:5]]
        for major, v in zip(MAJORS, versions):
            self.assertTrue(v.startswith(f"{major}."), versions)
        self.assertTrue(all(r["reachable"] for r in rows[:5]), rows)
        self.assertFalse(rows[5]["reachable"])
        self.assertIn("*****", rows[5]["server"])
        self.assertRegex(err, r"6/6 servers")  # more than four servers: progress on stderr
        self.assertLess(elapsed, 60)

    def test_every_location_names_its_server(self):
        """Two servers' findings never print alike: each location starts with its server, and
        the summary names both majors."""
        lives = []
        for major in (MAJORS[0], MAJORS[-1]):
            lives += ["--live", conninfo(SERVERS[major])]
        rc, out, err = run("check", "--no-config", "--summary", "json", "--fail-on", "never", *lives)
        self.assertEqual(rc, 0, err)
        labels = [r["server"] for r in json.loads(out)["servers"]]
        rc, out, err = run("check", "--no-config", "--format", "concise", "--fail-on", "never", *lives)
        self.assertEqual(rc, 0, err)
        located = [line for line in out.splitlines() if ": info: " in line or ": warning: " in line
                   or ": error: " in line]
        self.assertTrue(located, out)
        for line in located:
            self.assertTrue(any(line.startswith(label) for label in labels), (line, labels))
        self.assertIn(f"(PostgreSQL {MAJORS[0]} and {MAJORS[-1]})", out)

    def test_version_of_a_snapshot_without_its_string(self):
        """A hand-written snapshot may give only server_version_num: the table spells it."""
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for name, num in (("a", 180004), ("b", 140023)):
                path = os.path.join(d, f"{name}.json")
                with open(path, "w") as f:
                    json.dump({"pgconflint_snapshot": 1, "server": name,
                               "info": {"server_version_num": num, "superuser": True}, "settings": []}, f)
                paths += ["--snapshot", path]
            rc, out, err = run("check", "--no-config", "--summary", "json", "--fail-on", "never", *paths)
        self.assertEqual(rc, 0, err)
        self.assertEqual([r["version"] for r in json.loads(out)["servers"]], ["18.4", "14.23"])

    def test_markdown_summary(self):
        rc, out, err = run("check", "--no-config", "--summary", "markdown", "--fail-on", "never",
                           "--live", conninfo(SERVERS[18]))
        self.assertEqual(rc, 0, err)
        self.assertTrue(out.startswith("| server |"), out)
        self.assertIn("| 18.", out)


class HbaAdviceTest(unittest.TestCase):
    def test_live_pg_hba_advice_matches_the_data_directory(self):
        """check --live runs the pg_hba.conf advice rules over the server's rules
        (pg_hba_file_rules) and says what `check DATADIR` says of the same file (initdb -A trust
        writes trust lines); it found nothing before."""
        for major in (14, 18):
            if major not in SERVERS:
                continue
            with self.subTest(major=major):
                srv = SERVERS[major]

                def hba(*args):
                    rc, out, err = run("check", "--no-config", "--format", "json", "--fail-on", "never", *args)
                    self.assertEqual(rc, 0, err)
                    return sorted((d["code"], d["line"], d["message"]) for d in json.loads(out)["diagnostics"]
                                  if d["file"].endswith("pg_hba.conf"))

                live = hba("--live", conninfo(srv))
                files = hba("--pg-version", str(major), srv.datadir)
                self.assertTrue(any(c == "PGC835" for c, _, _ in files), files)  # hba-trust
                self.assertEqual(live, files)


class RolloutTest(unittest.TestCase):
    """diff's rollouts applied step by step to a real 18 (a server of its own: the steps restart
    it): a reload-only change, a restart change and a pg_hba.conf change, each checked after
    every step with the plan's own queries against what the plan predicts; and a refused value,
    whose plan offers no step at all."""

    @classmethod
    def setUpClass(cls):
        if 18 not in MAJORS:
            raise unittest.SkipTest("PostgreSQL 18 is not supported by this build")
        cls.srv = pgtools.Server(18).start()
        cls.work = tempfile.mkdtemp(prefix="pgconflint-rollout-")
        with open(os.path.join(cls.srv.datadir, "postgresql.conf")) as f:
            cls.conf = f.read()
        with open(os.path.join(cls.srv.datadir, "pg_hba.conf")) as f:
            cls.hba = f.read()

    @classmethod
    def tearDownClass(cls):
        cls.srv.stop()
        shutil.rmtree(cls.work, ignore_errors=True)

    def plan(self, before, after):
        """diff --dirs of two copies of the data directory's files: the one root's JSON."""
        for side, files in (("base", before), ("head", after)):
            d = os.path.join(self.work, side)
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
            for name, text in files.items():
                with open(os.path.join(d, name), "w") as f:
                    f.write(text)
        r = subprocess.run([PGCONFLINT, "diff", "--no-config", "--pg-version", "18", "--format", "json",
                            "--fail-on", "never", "--dirs", "base", "head"], cwd=self.work, capture_output=True,
                           text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        [root] = json.loads(r.stdout)["roots"]
        return root

    @staticmethod
    def steps(rollout):
        """{heading: [SQL statements]} of a rollout's text, in order."""
        out, current = {}, None
        for line in rollout.splitlines():
            m = re.match(r"^\d+\. (.*):$", line)
            if m:
                current = out.setdefault(m.group(1), [])
            elif current is not None:
                m = re.search(r"((?:SELECT|SHOW) .*;)", line)
                if m:
                    current.append(m.group(1))
        return out

    def wait_for(self, sql, expected):
        deadline = time.monotonic() + 10  # a reload is asynchronous
        while True:
            got = self.srv.psql(sql).strip()
            if got == expected or time.monotonic() > deadline:
                return got
            time.sleep(0.1)

    def test_reload_then_restart_then_pg_hba(self):
        srv = self.srv
        # 1. A reload-only change: checkpoint_timeout and work_mem.
        reload_conf = self.conf + "\ncheckpoint_timeout = 15min\nwork_mem = '64MB'\n"
        root = self.plan({"postgresql.conf": self.conf}, {"postgresql.conf": reload_conf})
        values = {v["parameter"]: v for v in root["values"]}
        self.assertEqual(set(values), {"checkpoint_timeout", "work_mem"})
        steps = self.steps(root["rollout"])
        self.assertEqual(list(steps), ["Deploy the changed files, then reload"])
        srv.write("postgresql.conf", reload_conf)
        for sql in steps["Deploy the changed files, then reload"]:
            if sql == "SELECT pg_reload_conf();":
                self.assertEqual(srv.psql(sql).strip(), "t")
            elif "pg_file_settings" in sql:
                self.assertEqual(srv.psql(sql).strip(), "", "the server reports the deployed file in error")
            else:  # verify: the plan's query names each planned parameter, now from the file
                for name, v in values.items():  # the values the plan predicts, as SHOW spells them
                    self.assertEqual(self.wait_for(f"SHOW {name}", v["after"]), v["after"], name)
                rows = [line.split("|") for line in srv.psql(sql).splitlines() if line]
                self.assertEqual(sorted(r[0] for r in rows), sorted(values), sql)
                self.assertEqual({r[3] for r in rows}, {"configuration file"}, rows)
        self.assertEqual(srv.psql("SELECT name FROM pg_settings WHERE pending_restart").strip(), "")

        # 2. A restart change: shared_buffers waits for the restart window.
        restart_conf = reload_conf + "shared_buffers = '256MB'\n"
        root = self.plan({"postgresql.conf": reload_conf}, {"postgresql.conf": restart_conf})
        values = {v["parameter"]: v for v in root["values"]}
        sb = values.pop("shared_buffers")
        self.assertEqual(sb["applies"], "restart")
        for v in values.values():  # what the server derives from it (wal_buffers = -1 follows it)
            self.assertEqual(v["before"], v["after"], v)
        steps = self.steps(root["rollout"])
        self.assertEqual(list(steps), ["In a restart window (context postmaster)"])
        before_restart, *verify = steps["In a restart window (context postmaster)"]
        self.assertEqual(verify[0], "SHOW shared_buffers;")
        srv.write("postgresql.conf", restart_conf)
        srv.psql("SELECT pg_reload_conf()")  # a reload alone leaves it pending, as the plan says
        self.assertEqual(self.wait_for(before_restart, "shared_buffers|t"), "shared_buffers|t")
        self.assertEqual(srv.psql("SHOW shared_buffers").strip(), sb["before"])
        srv.restart()
        self.assertEqual(srv.psql(verify[0]).strip(), sb["after"])  # SHOW shared_buffers;
        self.assertEqual(srv.psql(before_restart).strip(), "", "nothing is pending after the restart")

        # 3. A pg_hba.conf change: a rule that rejects role blocked, checked before the reload.
        srv.psql("CREATE ROLE blocked LOGIN")
        ok = subprocess.run([pgtools.PSQL, "-X", "-h", srv.sockdir, "-p", str(srv.port), "-U", "blocked",
                             "-d", "postgres", "-c", "SELECT 1"], capture_output=True, text=True)
        self.assertEqual(ok.returncode, 0, ok.stderr)
        hba = "local all blocked reject\n" + self.hba
        root = self.plan({"postgresql.conf": restart_conf, "pg_hba.conf": self.hba},
                         {"postgresql.conf": restart_conf, "pg_hba.conf": hba})
        self.assertEqual(root["values"], [])
        steps = self.steps(root["rollout"])
        [(heading, sql)] = steps.items()
        self.assertTrue(heading.startswith("Deploy the changed ") and heading.endswith("pg_hba.conf, check that the "
                                                                                      "server can load it, then reload"),
                        heading)
        self.assertEqual(sql, ["SELECT line_number, error FROM pg_hba_file_rules WHERE error IS NOT NULL;",
                               "SELECT pg_reload_conf();"])
        srv.write("pg_hba.conf", hba)
        self.assertEqual(srv.psql(sql[0]).strip(), "", "the server would not load the deployed pg_hba.conf")
        srv.psql(sql[1])
        deadline = time.monotonic() + 10
        while True:  # verify: a new session for the rule that changed
            r = subprocess.run([pgtools.PSQL, "-X", "-h", srv.sockdir, "-p", str(srv.port), "-U", "blocked",
                                "-d", "postgres", "-c", "SELECT 1"], capture_output=True, text=True)
            if r.returncode != 0 or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("pg_hba.conf rejects connection", r.stderr)

    def test_a_refused_value_offers_no_restart(self):
        """shared_buffers = '2gb' (unit names are case-sensitive): the server refuses to start with the
        file (postgres -C), and the plan blocks: no step, no restart."""
        head = self.conf + "\nshared_buffers = '2gb'\n"
        path = os.path.join(self.work, "refused.conf")
        with open(path, "w") as f:
            f.write(head)
        os.chmod(path, 0o644)
        os.chmod(self.work, 0o755)
        ok, _, err = pgtools.postgres_C(18, self.srv.datadir, path, "shared_buffers")
        self.assertFalse(ok, "postgres -C accepted shared_buffers = '2gb'")
        root = self.plan({"postgresql.conf": self.conf}, {"postgresql.conf": head})
        [sb] = root["values"]
        self.assertEqual((sb["parameter"], sb["refused"]), ("shared_buffers", "'2gb'"))
        self.assertTrue(root["blocked_by"], root)
        self.assertEqual(root["rollout"], "")


class PrivilegeTest(unittest.TestCase):
    def snapshot(self, srv, user):
        rc, out, err = run("snapshot", conninfo(srv, user))
        self.assertEqual(rc, 0, err)
        return json.loads(out)

    def test_each_privilege_level(self):
        for major in MAJORS:
            srv = SERVERS[major]
            for user in ("postgres", "monitor", "plain"):
                with self.subTest(major=major, user=user):
                    snap = self.snapshot(srv, user)
                    self.assertEqual(snap["info"]["user"], user)
                    visible = srv.psql(
                        f"SET ROLE {user}; SELECT has_table_privilege('pg_catalog.pg_file_settings', 'SELECT') "
                        "AND has_function_privilege('pg_catalog.pg_show_all_file_settings()', 'EXECUTE')").strip()
                    self.assertEqual(snap["file_settings"] is not None, visible == "t")
                    self.assertEqual(snap["info"]["superuser"], user == "postgres")
                    self.assertEqual(snap["info"]["pg_read_all_settings"], user != "plain")
                    found = codes("--live", conninfo(srv, user))
                    self.assertEqual("PGC1105" in found, user != "postgres", found)
                    # 14 has no pg_ident_file_mappings: it is neither read nor missed.
                    ident_visible = srv.psql(
                        f"SET ROLE {user}; SELECT CASE WHEN to_regclass('pg_catalog.pg_ident_file_mappings') IS NULL "
                        "THEN false ELSE has_table_privilege('pg_catalog.pg_ident_file_mappings', 'SELECT') END"
                    ).strip() == "t"
                    self.assertEqual(snap["ident_mappings"] is not None, ident_visible)
                    # On every major that has it: only a superuser reads it without a grant (pg_monitor does not).
                    self.assertEqual(ident_visible, major >= 15 and user == "postgres")
                    missed = [m for c, m in findings("--live", conninfo(srv, user))
                              if c == "PGC1105" and "pg_ident_file_mappings" in m]
                    self.assertEqual(bool(missed), major >= 15 and not ident_visible, missed)
                    if user == "plain":
                        # A plain role cannot read the file locations of pg_settings.
                        paths = [s for s in snap["settings"] if s["sourcefile"]]
                        self.assertEqual(paths, [])


class ServerStateTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.srv = srv = SERVERS[17]
        cls.tsdir = pgtools.make_tempdir("pgconflint-ts-")
        if os.geteuid() == 0:
            shutil.chown(cls.tsdir, pgtools.TEST_USER, pgtools.TEST_USER)
        srv.psql("ALTER SYSTEM SET max_connections = 150")
        srv.psql(f"CREATE TABLESPACE fast LOCATION '{cls.tsdir}' WITH (random_page_cost = 1.1)")
        srv.psql("ALTER ROLE plain SET work_mem = '1GB'")
        srv.psql("ALTER DATABASE postgres SET statement_timeout = '5s'")
        srv.psql("ALTER DATABASE postgres SET lock_timeout = '10s'")
        with open(os.path.join(srv.datadir, "postgresql.conf"), "a") as f:
            f.write("\nwork_mem = 'lots'\n")
        with open(os.path.join(srv.datadir, "pg_hba.conf"), "a") as f:
            f.write("\nhost all all 10.0.0.0/33 trust\n")
        with open(os.path.join(srv.datadir, "pg_ident.conf"), "a") as f:
            f.write("\nsso /bad( alice\n")
        srv.psql("SELECT pg_reload_conf()")
        time.sleep(1)
        cls.found = findings("--live", conninfo(srv))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tsdir, ignore_errors=True)

    def test_pending_restart(self):
        pending = self.srv.psql("SELECT name FROM pg_settings WHERE pending_restart").split()
        self.assertIn("max_connections", pending)
        self.assertTrue(any(c == "PGC1101" and "max_connections" in m for c, m in self.found), self.found)

    def test_refused_file_line(self):
        err = self.srv.psql("SELECT error FROM pg_file_settings WHERE name = 'work_mem'").strip()
        self.assertTrue(err, "the server accepted work_mem = 'lots'")
        self.assertTrue(any(c == "PGC1102" and "work_mem" in m for c, m in self.found), self.found)

    def test_a_refused_line_fails_the_next_start(self):
        """The next restart fails with the file (postgres -C on the same configuration says so): the finding is
        fatal, an error, and the fleet's table says so."""
        ok, _, err = pgtools.postgres_C(self.srv.major, self.srv.datadir,
                                        os.path.join(self.srv.datadir, "postgresql.conf"), "work_mem")
        self.assertFalse(ok, "postgres -C accepted work_mem = 'lots'")
        rc, out, _ = run("check", "--no-config", "--format", "json", "--fail-on", "error", "--live", conninfo(self.srv))
        refused = [d for d in json.loads(out)["diagnostics"] if d["code"] == "PGC1102"]
        self.assertEqual([(d["fatal"], d["severity"], d["outcome"]) for d in refused],
                         [(True, "error", "refuses-start")])
        self.assertEqual(rc, 1)
        rc, out, _ = run("check", "--no-config", "--summary", "json", "--fail-on", "never", "--live",
                         conninfo(self.srv))
        self.assertTrue(json.loads(out)["servers"][0]["fatal"], out)

    def test_hba_rule_the_server_cannot_load(self):
        err = self.srv.psql("SELECT error FROM pg_hba_file_rules WHERE error IS NOT NULL").strip()
        self.assertTrue(err)
        self.assertTrue(any(c == "PGC1104" and err in m for c, m in self.found), self.found)

    def test_ident_mapping_the_server_cannot_load(self):
        err = self.srv.psql("SELECT error FROM pg_ident_file_mappings WHERE error IS NOT NULL").strip()
        self.assertTrue(err)
        self.assertTrue(any(c == "PGC1104" and m == "the server cannot load this pg_ident.conf mapping: " + err
                            for c, m in self.found), self.found)

    def test_role_and_database_overrides(self):
        # lock_timeout 10s >= statement_timeout 5s, both for the database only.
        self.assertTrue(any(c == "PGC1011" and "database postgres" in m for c, m in self.found), self.found)

    def test_tablespace_options(self):
        snap = json.loads(run("snapshot", conninfo(self.srv))[1])
        fast = [t for t in snap["tablespaces"] if t["name"] == "fast"]
        self.assertEqual(fast[0]["options"], ["random_page_cost=1.1"])
        found = codes("--live", conninfo(self.srv), "--tablespace", "fast=cold-object")
        self.assertIn("PGC1012", found)
        self.assertNotIn("PGC1012", codes("--live", conninfo(self.srv), "--tablespace", "fast=nvme"))


    def test_recommend_plans_the_server_tablespaces(self):
        """`recommend --live`: the server's tablespaces, the options each lacks for its storage."""
        base = ["recommend", "--no-config", "--ram", "16GB", "--cpus", "4", "--storage", "nvme",
                "--live", conninfo(self.srv)]
        rc, out, err = run(*base)
        self.assertEqual(rc, 0, err)
        self.assertIn("PostgreSQL 17", out)  # the server's major, as no --pg-version names one
        self.assertIn("no storage type for tablespace fast (", out)
        self.assertNotIn("pg_default", out)
        rec = json.loads(run("recommend", "--no-config", "--ram", "16GB", "--cpus", "4", "--pg-version", "17",
                             "--tablespace", "fast=hdd", "--tablespace", "fast2=nvme", "--format", "json")[1])
        want = {t["name"]: {o["parameter"]: o["value"] for o in t["options"]} for t in rec["tablespaces"]}
        self.assertNotEqual(float(want["fast"]["random_page_cost"]), 1.1)
        rc, out, err = run(*base, "--tablespace", "fast=hdd")
        self.assertEqual(rc, 0, err)
        stmt = next(line.strip() for line in out.splitlines() if line.strip().startswith('ALTER TABLESPACE "fast"'))
        for option, value in want["fast"].items():
            self.assertIn(f"{option} = {value}", stmt)
        # On nvme the server's random_page_cost = 1.1 is within range: that option is left alone.
        rc, out, err = run(*base, "--tablespace", "fast=nvme", "--tablespace", "fast2=nvme")
        self.assertEqual(rc, 0, err)
        stmt = next(line.strip() for line in out.splitlines() if line.strip().startswith('ALTER TABLESPACE "fast"'))
        self.assertNotIn("random_page_cost", stmt)
        self.assertIn("effective_io_concurrency = ", stmt)
        self.assertIn("tablespace fast2 (--tablespace) is not in", out)
        # The same plan from the server's snapshot file.
        with tempfile.NamedTemporaryFile("w", suffix=".json") as snap:
            snap.write(run("snapshot", conninfo(self.srv))[1])
            snap.flush()
            args = [a for a in base if a not in ("--live", conninfo(self.srv))]
            rc, from_file, err = run(*args, "--snapshot", snap.name, "--tablespace", "fast=nvme",
                                     "--tablespace", "fast2=nvme")
            self.assertEqual((rc, from_file), (0, out), err)
        # A profile without RAM is refused before any connection; a server that is down is exit 3.
        rc, out, err = run("recommend", "--no-config", "--live", "host=/nonexistent port=1")
        self.assertEqual((rc, out), (2, ""), err)
        self.assertIn("needs the machine's RAM", err)
        rc, out, err = run("recommend", "--no-config", "--ram", "8GB", "--cpus", "2", "--live", "host=/nonexistent port=1")
        self.assertEqual((rc, out), (3, ""), err)
        self.assertIn("cannot connect", err)


class TableAutovacuumTest(unittest.TestCase):
    """`recommend --live` on each major 14-18: a table of 400,000 rows with updates gets the
    autovacuum storage parameters of its size class as an ALTER TABLE statement; the server
    accepts the statement as printed and pg_class.reloptions holds it, after which the plan
    has no statement for the table; a plain role's snapshot carries the table's statistics too."""

    def test_a_large_updated_table_gets_its_options(self):
        for major in MAJORS:
            with self.subTest(major=major):
                self.check_major(SERVERS[major])

    def check_major(self, srv):
        srv.psql("CREATE TABLE pgc_orders (id int PRIMARY KEY, v int); "
                 "INSERT INTO pgc_orders SELECT g, 0 FROM generate_series(1, 400000) g; "
                 "UPDATE pgc_orders SET v = 1 WHERE id <= 50000; ANALYZE pgc_orders")
        try:
            deadline = time.monotonic() + 15
            while srv.psql("SELECT n_tup_upd FROM pg_stat_user_tables WHERE relname = 'pgc_orders'").strip() in ("", "0"):
                self.assertLess(time.monotonic(), deadline, "the statistics never showed the updates")
                time.sleep(0.2)
            base = ["recommend", "--no-config", "--ram", "16GB", "--cpus", "4", "--workload", "oltp",
                    "--live", conninfo(srv)]
            rc, out, err = run(*base)
            self.assertEqual(rc, 0, err)
            stmts = [line.strip() for line in out.splitlines() if line.strip().startswith("ALTER TABLE ")]
            self.assertEqual(len(stmts), 1, out)
            self.assertTrue(stmts[0].startswith('ALTER TABLE "public"."pgc_orders" SET (autovacuum_vacuum_scale_factor = '),
                            stmts[0])
            self.assertIn("400000 rows", stmts[0])
            srv.psql(stmts[0].split("  -- ")[0])
            options = srv.psql("SELECT array_to_string(reloptions, ',') FROM pg_class WHERE relname = 'pgc_orders'")
            self.assertIn("autovacuum_vacuum_scale_factor=", options)
            self.assertIn("autovacuum_vacuum_threshold=", options)
            rc, out, err = run(*base)
            self.assertEqual(rc, 0, err)
            self.assertNotIn("ALTER TABLE ", out)
            self.assertIn("largest tables of the database needs its own settings", out)
            rc, snap, err = run("snapshot", conninfo(srv, user="plain"))
            self.assertEqual(rc, 0, err)
            tables = {t["name"]: t for t in json.loads(snap)["tables"]}
            self.assertIn("pgc_orders", tables)
            self.assertGreaterEqual(tables["pgc_orders"]["live"], 400000)
            self.assertGreater(tables["pgc_orders"]["bytes"], 0)
        finally:
            srv.psql("DROP TABLE pgc_orders")


class SnapshotTest(unittest.TestCase):
    def test_snapshot_file_and_psql_script_give_the_live_findings(self):
        work = tempfile.mkdtemp(prefix="pgconflint-snap-")
        try:
            for major in MAJORS:
                srv = SERVERS[major]
                with self.subTest(major=major):
                    live = findings("--live", conninfo(srv))
                    rc, out, err = run("snapshot", conninfo(srv))
                    self.assertEqual(rc, 0, err)
                    a = os.path.join(work, f"libpq-{major}.json")
                    with open(a, "w") as f:
                        f.write(out)
                    self.assertEqual(findings("--snapshot", a), live)
                    r = subprocess.run([pgtools.PSQL, "-X", "-q", "-f", os.path.join(ROOT, "scripts", "snapshot.sql"),
                                        conninfo(srv)], capture_output=True, text=True)
                    self.assertEqual(r.returncode, 0, r.stderr)
                    b = os.path.join(work, f"psql-{major}.json")
                    with open(b, "w") as f:
                        f.write(r.stdout)
                    self.assertEqual(findings("--snapshot", b), live)
                    via_psql = json.loads(r.stdout)
                    self.assertEqual(sorted(via_psql), sorted(json.loads(out)))
        finally:
            shutil.rmtree(work, ignore_errors=True)


class DriftTest(unittest.TestCase):
    def test_repository_configuration_against_the_server(self):
        srv = SERVERS[16]
        work = tempfile.mkdtemp(prefix="pgconflint-drift-")
        try:
            conf = os.path.join(work, "postgresql.conf")
            running = srv.psql("SHOW work_mem").strip()
            with open(conf, "w") as f:
                f.write("work_mem = '64MB'\n" if running != "64MB" else "work_mem = '32MB'\n")
                f.write(f"port = {srv.port}\n")
            found = findings(conf, "--live", conninfo(srv))
            drift = [m for c, m in found if c == "PGC1103"]
            self.assertTrue(any("work_mem" in m for m in drift), found)
            self.assertFalse(any(m.startswith("port") for m in drift), found)
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def test_authentication_files_against_the_rules_in_force(self):
        """PGC845 in drift mode: the repository's pg_hba.conf / pg_ident.conf against the server's views,
        by content (the repository's copies have other file names; comments do not count)."""
        srv = SERVERS[18]
        work = tempfile.mkdtemp(prefix="pgconflint-drift-auth-")
        try:
            for name in ("pg_hba.conf", "pg_ident.conf"):
                shutil.copy(os.path.join(srv.datadir, name), os.path.join(work, name))
            with open(os.path.join(work, "postgresql.conf"), "w") as f:
                f.write(f"port = {srv.port}\n# a comment the server's copy lacks\n")
            with open(os.path.join(work, "pg_hba.conf"), "a") as f:
                f.write("# another comment\n")
            auth = [(c, m) for c, m in findings(work, "--live", conninfo(srv)) if c == "PGC845"]
            self.assertEqual(auth, [])
            with open(os.path.join(work, "pg_hba.conf"), "a") as f:
                f.write("host all all 10.0.0.0/8 scram-sha-256\n")
            with open(os.path.join(work, "pg_ident.conf"), "a") as f:
                f.write("sso alice app\n")
            auth = sorted(m for c, m in findings(work, "--live", conninfo(srv)) if c == "PGC845")
            self.assertEqual(auth, ["the running server has no mapping like this line (pg_ident_file_mappings)",
                                    "the running server has no rule like this line (pg_hba_file_rules)"])
            # A rule only the server has is reported at the file, with the server's file and line.
            with open(os.path.join(work, "pg_hba.conf")) as f:
                ours = f.read()
            with open(os.path.join(work, "pg_hba.conf"), "w") as f:
                f.write(ours.replace("host all all 10.0.0.0/8 scram-sha-256\n", ""))
            with open(os.path.join(work, "pg_ident.conf"), "w") as f:
                with open(os.path.join(srv.datadir, "pg_ident.conf")) as g:
                    f.write(g.read())
            with open(os.path.join(work, "pg_hba.conf")) as f:
                lines = f.read().splitlines()
            rules = [i for i, l in enumerate(lines) if l.strip() and not l.lstrip().startswith("#")]
            del lines[rules[0]]
            with open(os.path.join(work, "pg_hba.conf"), "w") as f:
                f.write("\n".join(lines) + "\n")
            auth = [m for c, m in findings(work, "--live", conninfo(srv)) if c == "PGC845"]
            self.assertEqual(len(auth), 1, auth)
            self.assertTrue(auth[0].startswith(
                f"the running server has a rule this file lacks: line {rules[0] + 1} of "
                f"{os.path.join(srv.datadir, 'pg_hba.conf')}: "), auth)
        finally:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
