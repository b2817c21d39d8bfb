#!/usr/bin/env python3
"""pgconflint over the real SQL corpus (../shared/corpus/sql, 76 files from 72 repositories).

The files change configuration from SQL (ALTER SYSTEM, ALTER ROLE/DATABASE ... SET, SET,
tablespace and table options, pg_reload_conf()); among them are CRLF files, files without
a final newline, one file in a single-byte Cyrillic encoding and pasted psql transcripts.

* robustness: `check --format json` reads every file, all at once and one by one, exits 0
  or 1, prints valid JSON with one root per file, and every diagnostic's range lies inside
  its file;
* reviewed findings: every finding of `check --no-config` is listed, with its line and
  code, in tests/corpus/expected-sql.txt; any difference fails until it is reviewed
  (UPDATE_CORPUS_EXPECTED=1 rewrites the list and keeps its header).

Usage: python3 tests/integration/test_sql_corpus.py [-v]
Environment: PGCONFLINT (binary, default build/pgconflint).
"""
import collections
import json
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))

from corpus_check import describe, expectation_lines, file_lines, range_problems, read_expectations  # noqa: E402

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


class SqlCorpusTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.isfile(os.path.join(CORPUS, "MANIFEST.tsv")):
            raise RuntimeError(f"SQL corpus not found at {CORPUS} (the shared corpus checkout)")
        if not os.access(PGCONFLINT, os.X_OK):
            raise RuntimeError(f"pgconflint binary not found at {PGCONFLINT}: set PGCONFLINT")
        cls.files = corpus_files()

    def checked(self, paths):
        proc = run_check(paths)
        what = f"pgconflint check over {len(paths)} file(s) ({paths[0]}...)"
        self.assertIn(proc.returncode, (0, 1), f"{what}: exit {proc.returncode}\n{proc.stderr}")
        try:
            out = json.loads(proc.stdout)
        except json.JSONDecodeError as e:
            self.fail(f"{what}: invalid JSON ({e})\n{proc.stdout[:2000]}")
        self.assertEqual([r["path"] for r in out["roots"]], list(paths), what)
        bad = [f"{describe(d)}: {p}" for d in out["diagnostics"]
               for p in range_problems(d, file_lines(os.path.join(CORPUS, d["file"])))]
        self.assertEqual(bad, [], f"{what}: diagnostics outside their file")
        counts = collections.Counter(d["severity"] for d in out["diagnostics"])
        self.assertEqual(out["summary"], {"roots": len(paths), "errors": counts["error"],
                                          "warnings": counts["warning"], "info": counts["info"]}, what)
        return out

    def test_manifest_lists_every_file(self):
        self.assertEqual(sorted(set(os.listdir(CORPUS)) - NOT_CORPUS), self.files)

    def test_each_file(self):
        for name in self.files:
            with self.subTest(file=name):
                self.checked([name])

    def test_reviewed_findings(self):
        got = expectation_lines(self.checked(self.files))
        if os.environ.get("UPDATE_CORPUS_EXPECTED"):
            with open(EXPECTED_FILE, encoding="utf-8") as f:
                header = [ln for ln in f if ln.startswith("#")]
            with open(EXPECTED_FILE, "w", encoding="utf-8") as f:
                f.writelines(header)
                f.write("\n".join(got) + "\n")
        expected = read_expectations(EXPECTED_FILE)
        missing = sorted((collections.Counter(expected) - collections.Counter(got)).elements())
        new = sorted((collections.Counter(got) - collections.Counter(expected)).elements())
        self.assertEqual((missing, new), ([], []),
                         f"findings differ from {os.path.relpath(EXPECTED_FILE, ROOT)}: {len(missing)} listed but "
                         f"not reported, {len(new)} reported but not listed; review each, then "
                         "UPDATE_CORPUS_EXPECTED=1 rewrites the list")


if __name__ == "__main__":
    unittest.main()
