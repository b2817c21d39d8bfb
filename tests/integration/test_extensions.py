#!/usr/bin/env python3
"""Module (extension) parameters: the embedded catalogs and pgconflint's claims, against
real servers.

1. Catalog check: for every major, one server starts with every module that defines
   parameters in shared_preload_libraries; its pg_settings rows of module parameters must
   equal `pgconflint params --extensions --format json` field by field (0 differences).
2. Claims (docs/postgresql-semantics.md#extension-parameters), each a real start:
   - an invalid value of a preloaded module's parameter is a WARNING and the default is
     used (the server starts), and pgconflint says so (PGC161, not fatal);
   - a misspelt name under a module's prefix is dropped with a WARNING in 15+ (the
     prefix is reserved), kept as an unused placeholder in 14 (PGC162);
   - a module parameter without its module loaded is never applied: pg_stat_statements
     says it is not loaded (PGC163);
   - pg_stat_statements in session_preload_libraries never defines its parameters: they
     stay placeholders (PGC164);
   - a library that does not exist in shared_preload_libraries stops the server (PGC165;
     which libraries exist is a fact of the installation);
   - archive_library loads its module: basic_archive archives into its directory (15+).

Usage: python3 tests/integration/test_extensions.py [-v]
Environment: PGCONFLINT (binary); EXTENSIONS_MAJORS (default: every major
the binary supports).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))

import pgtools  # noqa: E402
import supported  # noqa: E402

PGCONFLINT = os.environ.get("PGCONFLINT", os.path.join(ROOT, "build", "pgconflint"))
MAJORS = supported.majors_from_env("EXTENSIONS_MAJORS", path=PGCONFLINT)
FIELDS = ("vartype", "unit", "context", "min_val", "max_val", "enumvals", "boot_val", "category", "short_desc",
          "extra_desc")
LOG_PREFIX = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? \S+ \[\d+\] ")


def catalog(major):
    r = subprocess.run([PGCONFLINT, "params", "--extensions", "--pg-version", str(major), "--format", "json"],
                       capture_output=True, text=True, check=True)
    return {p["name"]: p for p in json.loads(r.stdout)}


def lint(major, text):
    """pgconflint's findings on a postgresql.conf: {line: [(code, message, fatal)]}."""
    base = pgtools.make_tempdir("pgconflint-ext-lint-")
    try:
        path = os.path.join(base, "postgresql.conf")
        with open(path, "w") as f:
            f.write(text)
        r = subprocess.run([PGCONFLINT, "check", "--no-config", "--pg-version", str(major), "--format", "json",
                            "--fail-on", "never", path], capture_output=True, text=True)
        found = {}
        for d in json.loads(r.stdout)["diagnostics"]:
            found.setdefault(d["line"], []).append((d["code"], d["message"], d["fatal"]))
        return found
    finally:
        shutil.rmtree(base, ignore_errors=True)


class Started:
    """A server started on a postgresql.conf of our own (config_file), stopped on exit."""

    def __init__(self, major, text):
        self.srv = pgtools.Server(major)
        self.conf = os.path.join(self.srv.base, "test.conf")
        with open(self.conf, "w") as f:
            f.write(text)
        os.chmod(self.conf, 0o644)
        self.srv.settings["config_file"] = self.conf
        self.srv.settings["hba_file"] = os.path.join(self.srv.datadir, "pg_hba.conf")
        self.srv.settings["ident_file"] = os.path.join(self.srv.datadir, "pg_ident.conf")
        self.started, self.error = True, ""
        try:
            self.srv.start()
        except RuntimeError as e:
            self.started, self.error = False, str(e)

    def log(self):
        path = os.path.join(self.srv.base, "server.log")
        if not os.path.exists(path):
            return []
        with open(path, errors="replace") as f:
            return [LOG_PREFIX.sub("", ln) for ln in f.read().splitlines()]

    def sql(self, q):
        return self.srv.psql(q, check=False)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.srv.stop()


class ExtensionCatalogTest(unittest.TestCase):
    def test_catalog_equals_pg_settings_with_the_modules_loaded(self):
        lines = []
        for major in MAJORS:
            ours = catalog(major)
            modules = sorted({p["module"] for p in ours.values()})
            with Started(major, f"shared_preload_libraries = '{','.join(modules)}'\n") as s:
                self.assertTrue(s.started, s.error)
                rc, out, err = s.sql("select json_agg(row_to_json(r)) from (select name, " + ", ".join(FIELDS) +
                                     " from pg_settings where name like '%.%') r")
                self.assertEqual(rc, 0, err)
                server = {r["name"]: r for r in json.loads(out)}
            self.assertEqual(sorted(ours), sorted(server), f"module parameters differ in {major}")
            diffs = [f"{n}.{f}: ours={ours[n][f]!r} server={server[n][f]!r}" for n in server for f in FIELDS
                     if ours[n][f] != server[n][f]]
            self.assertEqual(diffs, [], f"PostgreSQL {major}")
            lines.append(f"PostgreSQL {major}: {len(server)} module parameters of {len(modules)} modules, "
                         f"0 differences")
        print("\nextension catalog check:\n  " + "\n  ".join(lines))


class ExtensionClaimsTest(unittest.TestCase):
    EXAMPLE = ("shared_preload_libraries = 'pg_stat_statements,auto_explain'\n"
               "pg_stat_statements.max = 'lots'\n"
               "pg_stat_statements.track = sometimes\n"
               "auto_explain.log_analyz = on\n")

    def test_invalid_value_warns_and_keeps_the_default(self):
        for major in MAJORS:
            found = lint(major, self.EXAMPLE)
            self.assertEqual([c for c, _, _ in found.get(2, [])], ["PGC161"], found)
            self.assertEqual([c for c, _, _ in found.get(3, [])], ["PGC161"], found)
            self.assertFalse(any(f for v in found.values() for _, _, f in v), "nothing here is fatal")
            with Started(major, self.EXAMPLE) as s:
                self.assertTrue(s.started, s.error)
                log = "\n".join(s.log())
                self.assertIn('invalid value for parameter "pg_stat_statements.max": "lots"', log)
                self.assertEqual(s.sql("show pg_stat_statements.max")[1].strip(), "5000")
                self.assertEqual(s.sql("show pg_stat_statements.track")[1].strip(), "top")
                self.assertIn('uses the default "5000"', found[2][0][1])

    def test_misspelt_name_under_a_module_prefix(self):
        for major in MAJORS:
            found = lint(major, self.EXAMPLE)
            self.assertEqual([c for c, _, _ in found.get(4, [])], ["PGC162"], found)
            with Started(major, self.EXAMPLE) as s:
                self.assertTrue(s.started, s.error)
                kept = s.sql("select current_setting('auto_explain.log_analyz', true) is not null")[1].strip()
                log = "\n".join(s.log())
                if major >= 15:
                    self.assertEqual(kept, "f", "15+ removes the placeholder")
                    self.assertIn('invalid configuration parameter name "auto_explain.log_analyz", removing it', log)
                    self.assertIn("reserved prefix", found[4][0][1])
                else:
                    self.assertEqual(kept, "t", "14 keeps the placeholder")
                    self.assertIn('unrecognized configuration parameter "auto_explain.log_analyz"', log)

    def test_parameter_without_its_module_is_never_applied(self):
        for major in MAJORS:
            text = "pg_stat_statements.max = 10000\n"
            self.assertEqual([c for c, _, _ in lint(major, text).get(1, [])], ["PGC163"])
            with Started(major, text) as s:
                self.assertTrue(s.started, s.error)
                s.sql("create extension pg_stat_statements")
                rc, _, err = s.sql("select count(*) from pg_stat_statements")
                self.assertNotEqual(rc, 0)
                self.assertIn("shared_preload_libraries", err)

    def test_session_preload_never_defines_preload_only_parameters(self):
        for major in MAJORS:
            text = "session_preload_libraries = 'pg_stat_statements'\npg_stat_statements.max = 10000\n"
            self.assertEqual([c for c, _, _ in lint(major, text).get(2, [])], ["PGC164"])
            with Started(major, text) as s:
                self.assertTrue(s.started, s.error)
                # A placeholder: SHOW has the text, but pg_settings lists only defined
                # parameters (with shared_preload_libraries the row is there: the catalog test).
                self.assertEqual(s.sql("show pg_stat_statements.max")[1].strip(), "10000")
                rows = s.sql("select count(*) from pg_settings where name = 'pg_stat_statements.max'")[1].strip()
                self.assertEqual(rows, "0", "pg_stat_statements defined its parameter without shared_preload_libraries")

    def test_missing_library_stops_the_server(self):
        for major in MAJORS:
            text = "shared_preload_libraries = 'pg_stat_statement'\n"
            found = lint(major, text)
            self.assertEqual([c for c, _, _ in found.get(1, [])], ["PGC165"], found)
            with Started(major, text) as s:
                self.assertFalse(s.started)
                self.assertIn('could not access file "pg_stat_statement"', s.error)

    def test_archive_library_loads_its_module(self):
        for major in (m for m in MAJORS if m >= 15):
            archive = pgtools.make_tempdir("pgconflint-archive-")
            text = (f"archive_mode = on\narchive_library = 'basic_archive'\n"
                    f"basic_archive.archive_directory = '{archive}'\n")
            self.assertEqual(lint(major, text), {}, "archive_library loads basic_archive")
            self.assertIn("PGC163", str(lint(major, text.replace("archive_library", "#archive_library"))))
            try:
                with Started(major, text) as s:
                    self.assertTrue(s.started, s.error)
                    s.sql("select pg_switch_wal()")
                    for _ in range(100):
                        if os.listdir(archive):
                            break
                        time.sleep(0.1)
                    self.assertTrue(os.listdir(archive), "basic_archive archived nothing")
            finally:
                shutil.rmtree(archive, ignore_errors=True)


if __name__ == "__main__":
    unittest.main(verbosity=2)
