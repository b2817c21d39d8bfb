#!/usr/bin/env python3
"""pgconflint's claims about pg_hba.conf and pg_ident.conf, checked by starting and
reloading real servers (docs/postgresql-semantics.md#hba-files).

- a pg_hba.conf with a refused line stops the start (`could not load pg_hba.conf`) and
  pgconflint calls the data directory fatal; so does one without rules;
- on reload a refused line, even one the view shows without an error (clientcert=1),
  keeps the old rules (`pg_hba.conf was not reloaded`);
- a hostssl rule while ssl is off loads (and cannot match);
- a refused pg_ident.conf does not stop the start;
- a relative hba_file is resolved against the directory the server is started from,
  not the data directory (pgconflint reports it, PGC844).

Usage: python3 tests/integration/test_hba.py [-v]
Environment: PGCONFLINT (binary); HBA_MAJORS (default: the oldest and the newest major).
"""
import json
import os
import shutil
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))

sys.path.insert(0, HERE)

import pgtools  # noqa: E402
import supported  # noqa: E402
import hba_cases  # noqa: E402

PGCONFLINT = os.environ.get("PGCONFLINT", os.path.join(ROOT, "build", "pgconflint"))
# The oldest and the newest major.
_EVERY = supported.majors(PGCONFLINT)
MAJORS = supported.majors_from_env("HBA_MAJORS", (_EVERY[0], _EVERY[-1]), path=PGCONFLINT)
GOOD = "local all all trust\n"


def check(major, path):
    r = subprocess.run([PGCONFLINT, "check", "--no-config", "--pg-version", str(major), "--format", "json",
                        "--fail-on", "never", path], capture_output=True, text=True)
    out = json.loads(r.stdout)
    return out["roots"][0]["fatal"], [d["code"] for d in out["diagnostics"]]


class DataDir:
    """An initdb'd data directory of our own whose files the test rewrites."""

    def __init__(self, major):
        self.major = major
        self.srv = pgtools.Server(major)
        self.log = os.path.join(self.srv.base, "server.log")

    def write(self, name, text):
        path = os.path.join(self.srv.datadir, name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o644)

    def start(self):
        try:
            self.srv.start()
            return True, ""
        except RuntimeError as e:
            return False, str(e)

    def reload_log(self):
        """Reloads (a second reload marks the end) and returns the log of the first."""
        return hba_cases.reload_log(self.srv, self.log)

    def stop(self):
        self.srv.stop()


class HbaClaimsTest(unittest.TestCase):
    def test_refused_file_stops_the_start(self):
        for major in MAJORS:
            # A refused line is hba-line-refused (PGC831); a file without rules is hba-no-rules (PGC832).
            for text, code, not_code in (("local all all trust\nhost all all 10.0.0.1 md5\n", "PGC831", "PGC832"),
                                         ("# no rules\n", "PGC832", "PGC831")):
                d = DataDir(major)
                try:
                    d.write("pg_hba.conf", text)
                    fatal, codes = check(major, d.srv.datadir)
                    started, error = d.start()
                    self.assertFalse(started, f"PG{major} started with {text!r}")
                    self.assertIn("could not load", error)
                    self.assertTrue(fatal, f"PG{major} {text!r}: pgconflint {codes}")
                    self.assertIn(code, codes)
                    self.assertNotIn(not_code, codes)
                finally:
                    d.stop()

    def test_reload_keeps_the_old_rules(self):
        for major in MAJORS:
            d = DataDir(major)
            try:
                d.write("postgresql.conf", "ssl = off\n")
                d.write("pg_hba.conf", GOOD)
                self.assertTrue(d.start()[0])
                cases = {
                    "local all all trust\nlocal all all bogus\n": True,
                    "hostssl all all all trust clientcert=1\n" + GOOD: True,   # refused, yet no view error
                    "hostssl all all all trust\n" + GOOD: False,               # loads, cannot match
                    GOOD + "host all all 127.0.0.1/32 md5\n": False,
                }
                for text, refused in cases.items():
                    d.write("pg_hba.conf", text)
                    _, codes = check(major, d.srv.datadir)
                    log = d.reload_log()
                    self.assertEqual("pg_hba.conf was not reloaded" in log, refused, f"PG{major} {text!r}:\n{log}")
                    self.assertEqual("PGC831" in codes, refused, f"PG{major} {text!r}: {codes}")
                d.write("pg_hba.conf", GOOD)
            finally:
                d.stop()

    def test_refused_ident_file_does_not_stop_the_start(self):
        for major in MAJORS:
            d = DataDir(major)
            try:
                d.write("pg_ident.conf", "admins alice\n")
                fatal, codes = check(major, d.srv.datadir)
                self.assertIn("PGC833", codes)
                self.assertFalse(fatal)
                self.assertTrue(d.start()[0])
            finally:
                d.stop()

    def test_relative_hba_file_follows_the_starting_directory(self):
        major = MAJORS[-1]
        d = DataDir(major)
        cwd = pgtools.make_tempdir("pgconflint-cwd-")
        try:
            for where in (cwd, d.srv.datadir):
                with open(os.path.join(where, "rel_hba.conf"), "w") as f:
                    f.write(GOOD)
                os.chmod(os.path.join(where, "rel_hba.conf"), 0o644)
            d.write("postgresql.conf", "hba_file = 'rel_hba.conf'\n")
            _, codes = check(major, d.srv.datadir)
            self.assertIn("PGC844", codes)
            old = os.getcwd()
            os.chdir(cwd)
            try:
                self.assertTrue(d.start()[0])
                self.assertEqual(d.srv.psql("show hba_file").strip(), os.path.join(cwd, "rel_hba.conf"))
            finally:
                os.chdir(old)
        finally:
            d.stop()
            shutil.rmtree(cwd, ignore_errors=True)


if __name__ == "__main__":
    unittest.main(verbosity=2)
