#!/usr/bin/env python3
"""`check --fix` over the real-world corpus, against a real PostgreSQL 18.

Each corpus file is copied into a directory of its own, then `pgconflint check --fix`
applies the safe fixes to the copies. For every file it changed:
  * PostgreSQL 18 (`postgres -C`) accepts the fixed file whenever it accepted the
    original;
  * every parameter the file sets that no fix targeted has the same value before and after
    (`postgres -C NAME` on both);
  * the lines that changed all set a parameter some fix targeted (no other byte moved),
    and line endings are kept;
  * a second `--fix` changes nothing, and `--diff` then shows nothing;
  * `--diff` on the original shows exactly the change `--fix` made (applied with patch).
Then, without --pg-version, each copy fixed with the major pgconflint infers for it: the
real server of that major accepts the fixed file whenever it accepted the original, and
whenever pgconflint says nothing in it refuses to start (but for the expected differences
of tests/integration/test_corpus.py: builds without lz4, zstd or liburing, host files).

Usage: python3 tests/integration/test_fix.py [-v]
Environment: PGCONFLINT (binary). Needs: ../shared/corpus, .cache/postgres/18, patch.
"""
import collections
import difflib
import json
import os
import shutil
import subprocess
import sys
import unittest
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
sys.path.insert(0, HERE)

import pgtools  # noqa: E402
from test_corpus import CORPUS, EXPECTED_DIFFERENCES, ORACLE_ENV, corpus_files  # noqa: E402

PGCONFLINT = os.environ.get("PGCONFLINT", os.path.join(ROOT, "build", "pgconflint"))
PG_MAJOR = 18


def lint_json(paths, cwd):
    r = subprocess.run([PGCONFLINT, "check", "--no-config", "--pg-version", str(PG_MAJOR), "--format", "json",
                        "--fail-on", "never", *paths], cwd=cwd, capture_output=True, text=True, errors="replace")
    if r.returncode != 0:
        raise AssertionError(f"check exit {r.returncode}: {r.stderr}")
    return json.loads(r.stdout)


def fix(paths, cwd, *extra):
    return subprocess.run([PGCONFLINT, "check", "--no-config", "--pg-version", str(PG_MAJOR), "--fail-on", "never",
                           "--format", "concise", *extra, *paths], cwd=cwd, capture_output=True)


def read(path):
    with open(path, "rb") as f:
        return f.read()


class UnitCaseFixTest(unittest.TestCase):
    """A unit in the wrong letter case is refused by the server; the safe fix spells it as the
    server does, and PostgreSQL 18 then reads each value as if it had been written so."""

    def test_fixed_units_are_what_the_server_reads(self):
        lines = {"shared_buffers": ("'2gb'", "'2GB'"), "work_mem": ("512mb", "512MB"),
                 "checkpoint_timeout": ("'10MIN'", "'10min'"), "statement_timeout": ("'5 S'", "'5 s'"),
                 "maintenance_work_mem": ("'1Gb'", "'1GB'")}
        datadir = pgtools.initdb(PG_MAJOR)
        work = pgtools.make_tempdir("pgconflint-unitfix-")
        try:
            written = {}
            for side, pick in (("wrong", 0), ("right", 1), ("fixed", 0)):
                os.makedirs(os.path.join(work, side))
                written[side] = os.path.join(work, side, "postgresql.conf")
                with open(written[side], "w") as f:
                    f.write("".join(f"{n} = {v[pick]}\n" for n, v in lines.items()))
            r = fix(["postgresql.conf"], os.path.join(work, "fixed"), "--fix")
            self.assertEqual(r.returncode, 0, r.stdout.decode() + r.stderr.decode())
            self.assertEqual(read(written["fixed"]), read(written["right"]))
            pgtools.share_with_user(work)
            postgres = pgtools.pg_bin(PG_MAJOR)
            for name in lines:
                results = {}
                for side, path in written.items():
                    argv = [postgres, "-D", datadir, "-c", f"config_file={path}", "-C", name]
                    rr = pgtools.run_as_user(argv, capture_output=True, text=True, env=ORACLE_ENV, cwd="/", timeout=60)
                    results[side] = (rr.returncode == 0, rr.stdout.strip())
                self.assertFalse(results["wrong"][0], f"the server accepted the wrong-case {name}")
                self.assertEqual(results["fixed"], results["right"], name)
                self.assertTrue(results["fixed"][0], name)
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def test_sql_literals_are_fixed_as_literals(self):
        work = pgtools.make_tempdir("pgconflint-unitfix-sql-")
        try:
            path = os.path.join(work, "raise.sql")
            with open(path, "w") as f:
                f.write("ALTER SYSTEM SET shared_buffers = '2gb';\nALTER SYSTEM SET work_mem = E'64mb';\n"
                        "ALTER SYSTEM SET maintenance_work_mem TO '1 GB', '2gb';\n")
            r = fix(["raise.sql"], work, "--fix")
            self.assertEqual(r.returncode, 0, r.stdout.decode() + r.stderr.decode())
            self.assertIn("raise.sql:3:42: error: SET maintenance_work_mem takes only one argument", r.stdout.decode())
            self.assertEqual(read(path), b"ALTER SYSTEM SET shared_buffers = '2GB';\nALTER SYSTEM SET work_mem = '64MB';\n"
                                         b"ALTER SYSTEM SET maintenance_work_mem TO '1 GB', '2gb';\n")
        finally:
            shutil.rmtree(work, ignore_errors=True)


class FixTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.isfile(os.path.join(CORPUS, "MANIFEST.tsv")):
            raise RuntimeError(f"corpus not found at {CORPUS}")
        cls.postgres = pgtools.pg_bin(PG_MAJOR)
        cls.datadir = pgtools.initdb(PG_MAJOR)
        cls.work = pgtools.make_tempdir("pgconflint-fix-")
        cls.files = corpus_files()
        cls.copies = []
        for i, name in enumerate(cls.files):
            for side in ("before", "after", "diff"):
                os.makedirs(os.path.join(cls.work, side, f"{i:03d}"))
                shutil.copyfile(os.path.join(CORPUS, name), os.path.join(cls.work, side, f"{i:03d}", name))
            cls.copies.append(os.path.join(f"{i:03d}", name))
        pgtools.share_with_user(cls.work)
        cls.report = lint_json(cls.copies, os.path.join(cls.work, "before"))
        r = fix(cls.copies, os.path.join(cls.work, "after"), "--fix")
        if r.returncode not in (0, 1):
            raise AssertionError(f"--fix exit {r.returncode}: {r.stderr.decode()}")
        cls.fix_log = r.stderr.decode("utf-8", "replace")
        pgtools.share_with_user(cls.work)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def changed(self):
        return [c for c in self.copies
                if read(os.path.join(self.work, "before", c)) != read(os.path.join(self.work, "after", c))]

    def server(self, path, name):
        argv = [self.postgres, "-D", self.datadir, "-c", f"config_file={path}", "-C", name]
        r = pgtools.run_as_user(argv, capture_output=True, text=True, errors="replace", env=ORACLE_ENV, cwd="/",
                           timeout=60)
        return r.returncode == 0, r.stdout.rstrip("\n")

    def targets_and_settings(self, copy):
        """Parameters the safe fixes of `copy` target, and every parameter it sets."""
        targets, settings = set(), set()
        for d in self.report["diagnostics"]:
            if d["root"] == copy and any(f["safety"] == "safe" for f in d["fixes"]) and d["parameter"]:
                targets.add(d["parameter"].lower())
        for root in self.report["roots"]:
            if root["path"] == copy:
                for s in root["settings"]:
                    settings.add((s.get("parameter") or s["name"]).lower())
                    if s.get("parameter") and s["parameter"].lower() in targets:
                        targets.add(s["name"].lower())  # a renamed old name
        return targets, settings

    def test_fixes_apply_somewhere(self):
        changed = self.changed()
        print(f"\n--fix changed {len(changed)} of {len(self.copies)} corpus files "
              f"({len(self.fix_log.splitlines())} fixes)")
        self.assertGreater(len(changed), 0)
        self.assertIn("fixed ", self.fix_log)

    def test_postgresql_18_agrees(self):
        before, after = os.path.join(self.work, "before"), os.path.join(self.work, "after")

        def judge(c):
            """Problems of one fixed file, and how many values were compared."""
            ok_before, _ = self.server(os.path.join(before, c), "work_mem")
            ok_after, _ = self.server(os.path.join(after, c), "work_mem")
            if not ok_before:
                return [], 0
            if not ok_after:
                return [f"{c}: PostgreSQL {PG_MAJOR} accepted it before --fix and refuses it after"], 0
            targets, settings = self.targets_and_settings(c)
            problems = []
            names = sorted(settings - targets)
            for name in names:
                (ok_b, v_b), (ok_a, v_a) = (self.server(os.path.join(before, c), name),
                                            self.server(os.path.join(after, c), name))
                if (ok_b, v_b) != (ok_a, v_a):
                    problems.append(f"{c}: {name} was {v_b!r}, is {v_a!r} after --fix (no fix targets it)")
            return problems, len(names)
        changed = self.changed()
        with ThreadPoolExecutor(max_workers=4) as pool:
            results = list(pool.map(judge, changed))
        problems = [p for ps, _ in results for p in ps]
        compared = sum(n for _, n in results)
        print(f"\nPostgreSQL {PG_MAJOR}: {len(changed)} fixed files, {compared} untargeted values compared")
        self.assertGreater(compared, 0)
        self.assertEqual(problems, [])

    def test_only_targeted_lines_change_and_line_endings_stay(self):
        for c in self.changed():
            with self.subTest(file=c):
                a = read(os.path.join(self.work, "before", c)).decode("utf-8", "surrogateescape")
                b = read(os.path.join(self.work, "after", c)).decode("utf-8", "surrogateescape")
                targets, _ = self.targets_and_settings(c)
                la, lb = a.splitlines(keepends=True), b.splitlines(keepends=True)
                for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, la, lb, autojunk=False).get_opcodes():
                    if tag == "equal":
                        continue
                    for line in la[i1:i2] + lb[j1:j2]:
                        name = line.split("=")[0].split()[0].lower() if line.strip() else ""
                        self.assertIn(name, targets, f"{c}: changed line {line!r}")
                self.assertEqual(a.count("\r\n") > 0, b.count("\r\n") > 0 or not b, f"{c}: line endings")

    def test_second_fix_changes_nothing(self):
        after = os.path.join(self.work, "after")
        snapshot = {c: read(os.path.join(after, c)) for c in self.copies}
        r = fix(self.copies, after, "--fix")
        self.assertEqual(r.returncode, 0, r.stderr)  # --fail-on never
        self.assertEqual(r.stderr.decode(), "")
        self.assertEqual({c: read(os.path.join(after, c)) for c in self.copies}, snapshot)
        r = fix(self.copies, after, "--diff")
        self.assertEqual((r.returncode, r.stdout.decode()), (0, ""))

    def test_with_the_major_inferred_the_matching_server_accepts_the_fix(self):
        work = pgtools.make_tempdir("pgconflint-fix-inferred-")
        self.addCleanup(shutil.rmtree, work, True)
        majors, before = {}, {}
        for i, name in enumerate(self.files):
            d = os.path.join(work, f"{i:03d}")
            os.makedirs(d)
            shutil.copyfile(os.path.join(CORPUS, name), os.path.join(d, name))
            before[name] = read(os.path.join(d, name))
            # --server-host yes: the servers that judge the files run on this machine.
            r = subprocess.run([PGCONFLINT, "check", "--no-config", "--server-host", "yes", "--fix", "--fail-on",
                                "never", "--format", "json", name], cwd=d, capture_output=True, text=True,
                               errors="replace")
            self.assertEqual(r.returncode, 0, r.stderr)  # --fail-on never
            out = json.loads(r.stdout)
            majors[name] = (out["pg_version"], any(root["fatal"] for root in out["roots"]))
        pgtools.share_with_user(work)
        datadirs = {m: pgtools.initdb(m) for m, _ in majors.values()}

        def judge(item):
            i, name = item
            major, fatal = majors[name]
            fixed = os.path.join(work, f"{i:03d}", name)
            original = os.path.join(work, f"{i:03d}", "original.conf")
            with open(original, "wb") as f:
                f.write(before[name])
            os.chmod(original, 0o644)
            accepted = []
            for path in (original, fixed):
                argv = [pgtools.pg_bin(major), "-D", datadirs[major], "-c", f"config_file={path}", "-C", "work_mem"]
                accepted.append(pgtools.run_as_user(argv, capture_output=True, env=ORACLE_ENV, cwd="/",
                                                    timeout=60).returncode == 0)
            problems = []
            if accepted[0] and not accepted[1]:
                problems.append(f"{name}: PostgreSQL {major} accepted it before --fix and refuses it after")
            if not fatal and not accepted[1] and name not in EXPECTED_DIFFERENCES:
                problems.append(f"{name}: after --fix pgconflint (major {major}) finds nothing fatal, "
                                f"PostgreSQL {major} refuses it")
            return problems
        with ThreadPoolExecutor(max_workers=4) as pool:
            problems = [p for ps in pool.map(judge, enumerate(self.files)) for p in ps]
        inferred = collections.Counter(m for m, _ in majors.values())
        print(f"\n--fix with the major inferred: {dict(sorted(inferred.items()))} (major: files)")
        self.assertGreater(len(inferred), 1, "some corpus files name their major")
        self.assertEqual(problems, [])

    def test_diff_shows_what_fix_does(self):
        d = os.path.join(self.work, "diff")
        r = fix(self.copies, d, "--diff")
        self.assertEqual(r.returncode, 1 if self.changed() else 0, r.stderr)
        self.assertEqual({c: read(os.path.join(d, c)) for c in self.copies},
                         {c: read(os.path.join(self.work, "before", c)) for c in self.copies}, "--diff wrote")
        p = subprocess.run(["patch", "-p1", "-s", "--binary"], cwd=d, input=r.stdout, capture_output=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        for c in self.copies:
            self.assertEqual(read(os.path.join(d, c)), read(os.path.join(self.work, "after", c)), c)


if __name__ == "__main__":
    unittest.main()
