#!/usr/bin/env python3
"""pgconflint's reading of pg_hba.conf and pg_ident.conf against real servers 14-18.

For each major one server runs with hba_file and ident_file pointing into a case
directory. Each case of hba_cases.py is written there (with the files beside it), and:

* the server reads it: `pg_hba_file_rules` (14+) or `pg_ident_file_mappings` (15+) reads
  the file afresh on every query, nothing is reloaded. pg_ident.conf on 14 has no view:
  the file is reloaded (with a second reload as the end marker) and the log says whether
  the server refused it;
* pgconflint reads the same path with the server's rows given (--server-hba /
  --server-ident), a postgresql.conf beside it with the server's `ssl = off`, and the
  facts of this build (--gssapi no --os linux);
* they agree when pgconflint reports no difference (PGC845: every row equal, error text
  included) and refuses the file (PGC831/PGC832/PGC833) exactly when the server would not
  load it (a row without a type, or no rule at all).

The only differences allowed are those of the build: the test servers lack LDAP and PAM,
which pgconflint assumes (another build has them); the server then answers "not
supported by this build", counted as `env`. Anything else fails the test.

Prints per major: cases, agreements, env, disagreements (with the first few).

Usage: python3 tests/integration/test_hba_differential.py [-v]
Environment: PGCONFLINT (binary); HBA_DIFF_MAJORS (default: every major the binary supports);
HBA_DIFF_SAMPLE=N: a seeded sample of N cases, the same every run (CTest's run, to keep
the test suite short; every case takes about 0.25 s per major on a busy 2-core machine).
"""
import json
import os
import random
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
SAMPLE = int(os.environ.get("HBA_DIFF_SAMPLE", "0"))
BUILD_FLAGS = ("--gssapi", "no", "--os", "linux")
VALID_HBA = "local all all trust\n"
REFUSALS = {"PGC831", "PGC832", "PGC833"}


class CaseServer:
    """A server whose hba_file and ident_file are in a case directory."""

    def __init__(self, major):
        self.major = major
        self.srv = pgtools.Server(major)
        self.dir = os.path.join(self.srv.base, "case")
        os.mkdir(self.dir)
        os.chmod(self.dir, 0o777)
        self.hba = os.path.join(self.dir, "pg_hba.conf")
        self.ident = os.path.join(self.dir, "pg_ident.conf")
        self.reset()
        self.srv.settings.update(hba_file=self.hba, ident_file=self.ident)
        self.srv.start()
        self.log = os.path.join(self.srv.base, "server.log")

    def reset(self):
        for name in os.listdir(self.dir):
            p = os.path.join(self.dir, name)
            shutil.rmtree(p) if os.path.isdir(p) and not os.path.islink(p) else os.unlink(p)
        self.write("pg_hba.conf", VALID_HBA)
        self.write("pg_ident.conf", "")
        # What pgconflint reads beside the case: the server's ssl (off, the default).
        self.write("postgresql.conf", "ssl = off\n")

    def write(self, rel, text):
        path = os.path.join(self.dir, rel)
        if text is None:
            os.makedirs(path, exist_ok=True)
            os.chmod(path, 0o755)
            return
        with open(path, "wb") as f:
            f.write(text if isinstance(text, bytes) else text.encode("utf-8"))
        os.chmod(path, 0o644)

    def rows(self, view):
        rc, out, err = self.srv.psql(f"select coalesce(json_agg(row_to_json(r)), '[]') from {view} r", check=False)
        if rc != 0:
            raise AssertionError(f"{view}: {err}")
        return json.loads(out)

    def reload_refuses_ident(self):
        """14 has no pg_ident_file_mappings: reload, and read the log up to a second reload."""
        return "pg_ident.conf was not reloaded" in hba_cases.reload_log(self.srv, self.log)

    def stop(self):
        self.srv.stop()


def pgconflint(major, kind, path, rows_file, binary):
    argv = [binary, "check", "--no-config", "--pg-version", str(major), "--format", "json", "--fail-on", "never",
            "--file-type", kind, "--allow-outside-includes", *BUILD_FLAGS]  # the server reads files anywhere
    if rows_file:
        argv += ["--server-hba" if kind == "hba" else "--server-ident", rows_file]
    r = subprocess.run(argv + [path], capture_output=True, text=True, errors="replace", timeout=60)
    if r.returncode not in (0, 1):
        raise AssertionError(f"pgconflint exit {r.returncode}: {r.stderr}")
    return json.loads(r.stdout)["diagnostics"]


def server_refuses_hba(rows):
    return not rows or any(r["type"] is None for r in rows)


def judge(server, case, binary=PGCONFLINT):
    """(verdict, detail): agree / env / DISAGREE for one case, read by `binary`."""
    rows, refused, rows_file = None, None, None
    if case.kind == "hba":
        server.write("pg_hba.conf", case.text)
        try:
            rows = server.rows("pg_hba_file_rules")
            refused = server_refuses_hba(rows)
        except AssertionError as e:
            # The view itself fails: on 14 and 15 an @file that names itself recurses until
            # the server runs out of file descriptors (ERROR: exceeded maxAllocatedDescs).
            # A reload fails alike, so the file is not loaded: refused, with no rows.
            if "exceeded maxAllocatedDescs" not in str(e):
                raise
            rows, refused = None, True
    elif server.major >= 15:
        server.write("pg_ident.conf", case.text)
        rows = server.rows("pg_ident_file_mappings")
        refused = any(r["map_name"] is None for r in rows)
    else:
        server.write("pg_ident.conf", case.text)
        refused = server.reload_refuses_ident()
    if rows is not None:
        rows_file = os.path.join(server.srv.base, "rows.json")
        with open(rows_file, "w") as f:
            json.dump(rows, f)
    path = server.hba if case.kind == "hba" else server.ident
    diags = pgconflint(server.major, case.kind, path, rows_file, binary)
    differs = [d for d in diags if d["code"] == "PGC845"]
    ours = any(d["code"] in REFUSALS for d in diags)
    env = differs and all("by this build" in d["message"] for d in differs)
    if ours != refused and not env:
        return "DISAGREE", f"server refuses={refused}, pgconflint refuses={ours}: " + \
            "; ".join(f"{d['code']} {d['message']}" for d in diags[:3])
    if differs:
        return ("env" if env else "DISAGREE"), "; ".join(f"line {d['line']}: {d['message']}" for d in differs[:2])
    return "agree", ""


def judge_all(major, labelled):
    """Judges (label, case) pairs on one server of `major`: (counts, disagreements)."""
    server = CaseServer(major)
    counts, problems = {"agree": 0, "env": 0, "DISAGREE": 0}, []
    try:
        for label, case in labelled:
            server.reset()
            for rel, text in case.files.items():
                server.write(rel, text)
            verdict, detail = judge(server, case)
            counts[verdict] += 1
            if verdict == "DISAGREE":
                problems.append(f"PG{major} {label}: {detail}")
    finally:
        server.reset()
        server.stop()
    return counts, problems


class HbaDifferentialTest(unittest.TestCase):
    def test_agrees_with_servers(self):
        if not os.access(PGCONFLINT, os.X_OK):
            self.fail(f"pgconflint binary not found at {PGCONFLINT}: set PGCONFLINT")
        cases = hba_cases.build_cases()
        if SAMPLE and SAMPLE < len(cases):
            cases = [cases[i] for i in sorted(random.Random(13).sample(range(len(cases)), SAMPLE))]
        problems, summary = [], []
        for major in supported.majors_from_env("HBA_DIFF_MAJORS", path=PGCONFLINT):
            counts, found = judge_all(major, [(f"{c.id} {c.text[:120]!r}", c) for c in cases if major in c.majors])
            problems += found
            total = sum(counts.values())
            summary.append(f"PostgreSQL {major}: {total} cases, {counts['agree']} agree, {counts['env']} env "
                           f"(build lacks the method), {counts['DISAGREE']} disagree")
        print("\npg_hba.conf / pg_ident.conf differential:\n  " + "\n  ".join(summary))
        for p in problems[:60]:
            print("  " + p)
        sys.stdout.flush()
        self.assertEqual(problems, [], f"{len(problems)} disagreements")


if __name__ == "__main__":
    unittest.main(verbosity=2)
