#!/usr/bin/env python3
"""pgconflint over the real-world pg_hba.conf / pg_ident.conf corpus (../shared/corpus/hba).

* robustness: every file (templates included) is read with --file-type hba or ident, all at
  once and one by one: exit 0 or 1, valid JSON, every diagnostic inside its file;
* agreement: every non-template file is given to real servers (14-18) as their hba_file or
  ident_file, exactly as in test_hba_differential.py: pgconflint must report no difference
  from pg_hba_file_rules / pg_ident_file_mappings and refuse the file exactly when the server
  does, apart from methods the test build lacks (LDAP, PAM: `env`).

Prints the totals per major and how often each rule fires on the corpus (with
HBA_CORPUS_VERBOSE=1, every finding), which is how the rules' findings on real files are
reviewed.

Usage: python3 tests/integration/test_hba_corpus.py [-v]
Environment: PGCONFLINT (binary); HBA_CORPUS_MAJORS (default: every major the binary supports).
"""
import collections
import json
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import hba_cases  # noqa: E402
import test_hba_differential as diff  # noqa: E402

CORPUS = os.path.normpath(os.path.join(ROOT, "..", "shared", "corpus", "hba"))
PGCONFLINT = diff.PGCONFLINT
MAJORS = diff.supported.majors_from_env("HBA_CORPUS_MAJORS", path=PGCONFLINT)
VERBOSE = os.environ.get("HBA_CORPUS_VERBOSE") == "1"


def manifest():
    """{file: kind} from MANIFEST.tsv (hba, hba-template, ident, ident-template)."""
    kinds = {}
    with open(os.path.join(CORPUS, "MANIFEST.tsv"), encoding="utf-8") as f:
        for line in f.read().splitlines()[1:]:
            cols = line.split("\t")
            if len(cols) >= 5:
                kinds[cols[0]] = cols[4]
    return kinds


def run(kind, paths):
    # --allow-outside-includes: compared with a server, which reads included files anywhere.
    r = subprocess.run([PGCONFLINT, "check", "--no-config", "--format", "json", "--fail-on", "never", "--file-type",
                        kind, "--allow-outside-includes", *paths], capture_output=True, text=True, errors="replace",
                       timeout=300)
    return r.returncode, r.stdout, r.stderr


def findings_of(doc, path):
    """The findings of a `check --format json` document on the file at `path`."""
    return sorted((d["code"], d["line"], d["message"]) for d in doc["diagnostics"]
                  if d["file"] and os.path.abspath(d["file"]) == os.path.abspath(path))


class HbaCorpusTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.isdir(CORPUS):
            raise unittest.SkipTest(f"no corpus at {CORPUS}")
        cls.kinds = manifest()

    def test_every_file_is_read(self):
        counts = collections.Counter()
        findings = []
        for kind in ("hba", "ident"):
            files = sorted(f for f, k in self.kinds.items() if k.split("-")[0] == kind)
            paths = [os.path.join(CORPUS, f) for f in files]
            rc, out, err = run(kind, paths)
            self.assertEqual(rc, 0, err)  # --fail-on never
            doc = json.loads(out)
            self.assertEqual(len(doc["roots"]), len(files))
            for p in paths:
                rc1, out1, err1 = run(kind, [p])
                self.assertEqual(rc1, 0, f"{p}: {err1}")
                # Alone, a file has the findings it has among the others: which files are named
                # changes no file's findings.
                self.assertEqual(findings_of(json.loads(out1), p), findings_of(doc, p), p)
            lines = {}
            for p in paths:
                with open(p, "rb") as f:
                    lines[os.path.relpath(p)] = f.read().count(b"\n") + 1
            for d in doc["diagnostics"]:
                counts[(d["code"], d["name"])] += 1
                n = lines.get(os.path.relpath(d["file"]) if d["file"] else None)
                if n is not None:
                    self.assertTrue(1 <= d["line"] <= d["end_line"] <= n, d)
                findings.append(f"{os.path.basename(d['file'] or '')}:{d['line']}: {d['code']} {d['message']}")
        print(f"\nhba corpus: {len(self.kinds)} files read; findings by rule:")
        for (code, name), n in sorted(counts.items()):
            print(f"  {code} {name}: {n}")
        if VERBOSE:
            print("\n".join("  " + f for f in findings))
        sys.stdout.flush()

    def test_non_template_files_agree_with_servers(self):
        problems, summary = [], []
        files = sorted(f for f, k in self.kinds.items() if k in ("hba", "ident"))
        cases = []
        for name in files:
            with open(os.path.join(CORPUS, name), "rb") as f:
                cases.append((name, hba_cases.Case("corpus", self.kinds[name], f.read())))
        for major in MAJORS:
            counts, found = diff.judge_all(major, cases)
            problems += found
            summary.append(f"PostgreSQL {major}: {sum(counts.values())} files, {counts['agree']} agree, "
                           f"{counts['env']} env, {counts['DISAGREE']} disagree")
        print("\nhba corpus against real servers:\n  " + "\n  ".join(summary))
        for p in problems[:40]:
            print("  " + p)
        self.assertEqual(problems, [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
