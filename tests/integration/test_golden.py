#!/usr/bin/env python3
"""Golden outputs of `pgconflint check` in every format (ruff's snapshots).

Each fixture is a small, realistic configuration under tests/fixtures/golden/<name>/.
For each fixture and each format F that `pgconflint check --list-formats` names (the
reporter table), the output of

    pgconflint check --fail-on never --format F --color never [ARGS] PATH...

run from tests/fixtures/golden (so paths are relative) must equal
tests/golden/<name>.<F> byte for byte, after two normalisations: the tool version in
JSON becomes "X", and the absolute path of tests/fixtures/golden (which some messages
quote, and SARIF's %SRCROOT% as a file URI) becomes [FIXTURES]. A mismatch prints a unified diff.

Usage:
    python3 tests/integration/test_golden.py [-v]
    UPDATE_GOLDEN=1 python3 tests/integration/test_golden.py   # rewrite, then review the diff
Environment: PGCONFLINT (binary, default /tmp/build-tmp/pgconflint).
"""
import difflib
import json
import os
import re
import subprocess
import unittest
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "golden")
GOLDEN = os.path.join(ROOT, "tests", "golden")
PGCONFLINT = os.environ.get("PGCONFLINT", "/tmp/build-tmp/pgconflint")
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"

# Fixture name -> (extra arguments, PATHs relative to tests/fixtures/golden).
CASES = {
    # A tuned OLTP postgresql.conf with a few mistakes (octal, bad unit, typo, range).
    "oltp-tuned": ([], ["oltp-tuned/postgresql.conf"]),
    # A data directory: postgresql.conf, conf.d/ (with files include_dir skips) and
    # postgresql.auto.conf overriding both.
    "data-directory": ([], ["data-directory"]),
    # include -> include chain, a missing include and include_dir, an optional
    # include, a self-include two levels down.
    "include-chain": ([], ["include-chain/postgresql.conf"]),
    # CRLF line endings and no final newline.
    "crlf-no-final-newline": ([], ["crlf-no-final-newline/postgresql.conf"]),
    # Every class of syntax error, and a file that starts with a UTF-8 BOM.
    "syntax-errors": ([], ["syntax-errors/postgresql.conf", "syntax-errors/bom.conf"]),
    # A PostgreSQL 17 server given a configuration that uses PostgreSQL 18 names.
    "pg17-with-pg18-names": (["--pg-version", "17"], ["pg17-with-pg18-names/postgresql.conf"]),
    # ESC, BEL, DEL and a C1 control in values, comments and names: escaped in text output.
    "control-characters": ([], ["control-characters/postgresql.conf"]),
    # A comment and values with é and emoji before findings: columns in every unit.
    "non-ascii": ([], ["non-ascii/postgresql.conf"]),
    # A data directory with pg_hba.conf and pg_ident.conf (shadowed rules, md5, hostssl
    # without ssl, an address without a mask, an undefined map) and a module parameter.
    "auth-files": ([], ["auth-files"]),
}

DIAGNOSTIC_KEYS = ["root", "file", "line", "column", "end_line", "end_column", "severity", "fatal",
                   "outcome", "code", "name", "parameter", "message", "help", "include_chain", "notes",
                   "also", "fixes"]
TOOL_VERSION = re.compile(r'("tool":\s*\{[^{}]*?"version":\s*)"[^"]*"')


def formats():
    """The --format names of the binary's reporter table."""
    r = subprocess.run([PGCONFLINT, "check", "--list-formats"], capture_output=True, text=True,
                       timeout=60, check=True)
    names = [line.split("\t")[0] for line in r.stdout.splitlines()]
    if not names or not all(names):
        raise AssertionError(f"check --list-formats printed no format names:\n{r.stdout}")
    return names


def run(name, fmt):
    """The normalised output of pgconflint for fixture `name` in format `fmt`."""
    args, paths = CASES[name]
    argv = [PGCONFLINT, "check", "--fail-on", "never", "--format", fmt, "--color", "never"]
    argv += args + paths
    # A CI job's variables (the commit under review) would change the SARIF goldens.
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_REPOSITORY", "CI_PROJECT_URL")}
    env["NO_COLOR"] = "1"
    r = subprocess.run(argv, cwd=FIXTURES, capture_output=True, env=env, timeout=60)
    out = r.stdout.decode("utf-8", "surrogateescape")
    err = r.stderr.decode("utf-8", "replace")
    if r.returncode != 0 or err:
        raise AssertionError(f"{' '.join(argv)}: exit {r.returncode} (expected 0 with "
                             f"--fail-on never)\n{err}")
    for prefix in {os.path.realpath(FIXTURES), os.path.abspath(FIXTURES)}:
        # SARIF's %SRCROOT% is a file URI of the directory it ran in.
        out = out.replace("file://" + urllib.parse.quote(prefix) + "/", "file://[FIXTURES]/")
        out = out.replace(prefix + os.sep, "[FIXTURES]/")
    if fmt == "json":
        out, n = TOOL_VERSION.subn(r'\1"X"', out, count=1)
        if n != 1:
            raise AssertionError(f"{name}.json: no \"tool\" version to normalise")
    return out


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def read(path):
    return read_bytes(path).decode("utf-8", "surrogateescape")


def write(path, text):
    with open(path, "wb") as f:
        f.write(text.encode("utf-8", "surrogateescape"))


class GoldenTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(PGCONFLINT, os.X_OK):
            raise RuntimeError(f"pgconflint binary not found at {PGCONFLINT}: set PGCONFLINT")
        cls.formats = formats()

    def test_formats_include_the_published_ones(self):
        # Formats are added to the table, never taken away.
        self.assertLessEqual({"full", "concise", "json"}, set(self.formats))

    def test_default_format_is_the_first(self):
        args, paths = CASES["oltp-tuned"]
        r = subprocess.run([PGCONFLINT, "check", "--fail-on", "never", "--color", "never"] + args + paths,
                           cwd=FIXTURES, capture_output=True, timeout=60)
        self.assertEqual(r.stdout.decode("utf-8", "surrogateescape"), run("oltp-tuned", self.formats[0]))

    def test_outputs(self):
        for name in CASES:
            for fmt in self.formats:
                with self.subTest(golden=f"{name}.{fmt}"):
                    self.check_golden(name, fmt)

    def check_golden(self, name, fmt):
        actual = run(name, fmt)
        path = os.path.join(GOLDEN, f"{name}.{fmt}")
        if UPDATE:
            if not os.path.exists(path) or read(path) != actual:
                os.makedirs(GOLDEN, exist_ok=True)
                write(path, actual)
                print(f"updated {os.path.relpath(path, ROOT)}")
            return
        if not os.path.exists(path):
            self.fail(f"{os.path.relpath(path, ROOT)} missing: run with UPDATE_GOLDEN=1 and "
                      f"review it")
        expected = read(path)
        if expected != actual:
            diff = "".join(difflib.unified_diff(
                expected.splitlines(keepends=True), actual.splitlines(keepends=True),
                fromfile=os.path.relpath(path, ROOT), tofile="actual"))
            self.fail(f"output differs from {os.path.relpath(path, ROOT)} (UPDATE_GOLDEN=1 "
                      f"rewrites it):\n{diff}")

    def test_json_follows_the_contract(self):
        for name in CASES:
            with self.subTest(fixture=name):
                out = json.loads(run(name, "json"))
                self.assertEqual(out["version"], 1)
                self.assertEqual(out["tool"], {"name": "pgconflint", "version": "X"})
                # A postgresql.conf is linted as its directory's (with postgresql.auto.conf).
                roots = [os.path.dirname(p) if os.path.basename(p) == "postgresql.conf" else p
                         for p in CASES[name][1]]
                self.assertEqual([r["path"] for r in out["roots"]], roots)
                for d in out["diagnostics"]:
                    self.assertEqual(list(d), DIAGNOSTIC_KEYS, d)
                    self.assertFalse(os.path.isabs(d["file"]), d)

    def test_every_fixture_and_golden_is_used(self):
        fixtures = sorted(os.listdir(FIXTURES))
        self.assertEqual(fixtures, sorted(CASES), "fixture directories without a CASES entry")
        expected = sorted(f"{name}.{fmt}" for name in CASES for fmt in self.formats)
        if os.path.isdir(GOLDEN):
            # Subdirectories belong to other suites (tests/golden/recommend).
            files = {f for f in os.listdir(GOLDEN) if os.path.isfile(os.path.join(GOLDEN, f))}
            stale = sorted(files - set(expected) - {".gitattributes"})
            self.assertEqual(stale, [], "golden files no fixture produces: delete them")

    def test_fixture_bytes_survived_checkout(self):
        # Editors and git eol conversion must not "fix" these fixtures.
        data = read_bytes(os.path.join(FIXTURES, "crlf-no-final-newline", "postgresql.conf"))
        self.assertNotIn(b"\n", data.replace(b"\r\n", b""), "every line must end with CRLF")
        self.assertFalse(data.endswith(b"\n"), "the file must not end with a newline")
        bom = read_bytes(os.path.join(FIXTURES, "syntax-errors", "bom.conf"))
        self.assertTrue(bom.startswith(b"\xef\xbb\xbf"), "bom.conf must start with a UTF-8 BOM")


if __name__ == "__main__":
    unittest.main()
