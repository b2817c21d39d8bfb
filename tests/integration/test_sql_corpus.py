#!/usr/bin/env python3
"""pgconflint over the real SQL corpus (../shared/corpus/sql, 76 files from 72 repositories).

The files change configuration from SQL (ALTER SYSTEM, ALTER ROLE/DATABASE ... SET, SET,
tablespace and table options, pg_reload_conf()); among them are CRLF files, files without
a final newline, one file in a single-byte Cyrillic encoding and pasted psql transcripts.

* robustness: `check --format json` reads every file, all at once and one by one, exits 0
  or 1, prints valid JSON with one root per file and no unreadable root, every diagnostic's
  range lies inside its file, and the summary counts the diagnostics;
* reviewed findings: every finding of `check --no-config` is listed, with its line and
  code, in tests/corpus/expected-sql.txt; any difference fails until it is reviewed
  (UPDATE_CORPUS_EXPECTED=1 rewrites the list and keeps its header).

Usage: python3 tests/integration/test_sql_corpus.py [-v]
Environment: PGCONFLINT (binary, default build/pgconflint).
"""
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))

from corpus_check import CheckOutputMixin, assert_reviewed, expectation_lines  # noqa: E402

CORPUS = os.path.normpath(os.path.join(ROOT, "..", "shared", "corpus", "sql"))
PGCONFLINT = os.path.abspath(os.environ.get("PGCONFLINT", os.path.join(ROOT, "build", "pgconflint")))
EXPECTED_FILE = os.path.join(ROOT, "tests", "corpus", "expected-sql.txt")
NOT_CORPUS = {"README.md", "MANIFEST.tsv"}


def corpus_files():
    with open(os.path.join(CORPUS, "MANIFEST.tsv"), encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    return sorted(row[0] for row in rows[1:])


def run_check(paths):
    return subprocess.run([PGCONFLINT, "check", "--no-config", "--format", "json", *paths], cwd=CORPUS,
                          capture_output=True, text=True, errors="replace", env=dict(os.environ, NO_COLOR="1"),
                          timeout=300)


class SqlCorpusTest(CheckOutputMixin, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.isfile(os.path.join(CORPUS, "MANIFEST.tsv")):
            raise RuntimeError(f"SQL corpus not found at {CORPUS} (the shared corpus checkout)")
        if not os.access(PGCONFLINT, os.X_OK):
            raise RuntimeError(f"pgconflint binary not found at {PGCONFLINT}: set PGCONFLINT")
        cls.files = corpus_files()

    def test_manifest_lists_every_file(self):
        self.assertEqual(sorted(set(os.listdir(CORPUS)) - NOT_CORPUS), self.files)

    def test_each_file(self):
        for name in self.files:
            with self.subTest(file=name):
                self.check_output(run_check([name]), [name], CORPUS)

    def test_reviewed_findings(self):
        out = self.check_output(run_check(self.files), self.files, CORPUS)
        assert_reviewed(self, expectation_lines(out), EXPECTED_FILE, ROOT)


if __name__ == "__main__":
    unittest.main()
