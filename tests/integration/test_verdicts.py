#!/usr/bin/env python3
"""One configuration, one verdict: a file's findings depend on its tree and the profile,
never on the door it comes through, and whatever the server refuses fails the gate.

Properties, over every fixture tree (tests/fixtures/golden, tests/fixtures/rules,
tests/fixtures/sql) and every file of the real-world corpus (../shared/corpus):

* every file gets the same findings from `check FILE`, from `check ROOT` (its data
  directory), from one `check` of all the files of its tree (what pre-commit passes), and
  from `diff` of an empty tree to its tree (the editor's side is tests/lsp/test_verdicts.py);
  a `check` of many files reports each finding once;
* no output says the server refuses while `--fail-on error` exits 0: a finding whose
  outcome is a refusal is an error, one that is not never says "refuse", and a summary that
  says PostgreSQL would refuse to start comes with exit code 1.

Then the reproducers of the bugs this fixed, through `check` and through Debian's
pre-commit 3.0.4 in a scratch repository (each file staged alone and all together).

Usage: python3 tests/integration/test_verdicts.py [-v]
Environment: PGCONFLINT (binary). Needs ../shared/corpus and pre-commit (scripts/setup.sh --tests).
"""
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
from scripted_repo import environment, git, write_tree  # noqa: E402
from verdict_trees import CORPUS, trees  # noqa: E402

PGCONFLINT = os.environ.get("PGCONFLINT", os.path.join(ROOT, "build", "pgconflint"))
PRE_COMMIT = shutil.which("pre-commit") or "/usr/bin/pre-commit"
REFUSALS = {"refuses-start", "refuses-reload", "errors-when-run"}


def check(*args, cwd=ROOT):
    r = subprocess.run([PGCONFLINT, "check", "--no-config", *args], cwd=cwd, capture_output=True, text=True,
                       errors="replace", timeout=300)
    if r.returncode not in (0, 1):
        raise AssertionError(f"check {' '.join(args)}: exit {r.returncode}: {r.stderr[-2000:]}")
    return r


def findings(out, key=lambda d: (d["file"], d["line"], d["column"], d["code"], d["message"])):
    """{file: sorted findings} of a `check --format json` run."""
    by_file = collections.defaultdict(list)
    for d in out["diagnostics"]:
        by_file[d["file"]].append(key(d))
    return {f: sorted(v) for f, v in by_file.items()}


class OneVerdictTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.exists(PGCONFLINT):
            raise RuntimeError(f"pgconflint binary not found at {PGCONFLINT}: set PGCONFLINT")
        if not os.path.isdir(CORPUS):
            raise RuntimeError(f"corpus not found at {CORPUS}")

    def test_every_door_gives_a_file_the_same_findings(self):
        checked = 0
        for name, root, files in trees():
            together = json.loads(check("--format", "json", "--fail-on", "never", *files).stdout)
            keys = [(d["file"], d["line"], d["column"], d["code"], d["message"]) for d in together["diagnostics"]]
            dupes = [k for k, n in collections.Counter(keys).items() if n > 1]
            self.assertEqual(dupes, [], f"{name}: a finding reported twice when all its files are checked")
            all_at_once = findings(together)
            whole = findings(json.loads(check("--format", "json", root).stdout)) if root else None
            for f in files:
                with self.subTest(file=f):
                    r = check("--format", "json", "--verbose", f)
                    alone = findings(json.loads(r.stdout))
                    mine = alone.get(f, [])
                    self.assertEqual(mine, all_at_once.get(f, []), f"{f}: alone vs with the rest of its tree")
                    # A file its root does not read (include_dir skips .99-local.conf) is checked alone.
                    if whole is not None and "checked alone" not in r.stderr:
                        self.assertEqual(mine, whole.get(f, []), f"{f}: alone vs its root {root}")
                    others = {k: v for k, v in alone.items() if k != f and k != root}
                    for other, found in others.items():
                        # Besides its own, only findings of the files it includes (a root file's tree).
                        self.assertTrue(all(x in all_at_once.get(other, []) for x in found), (f, other))
                    checked += 1
        self.assertGreater(checked, 200)

    def test_diff_from_an_empty_tree_introduces_the_same_findings(self):
        key = lambda d: (d["line"], d["column"], d["code"])  # noqa: E731  (diff's messages quote its side's paths)
        for name, root, files in trees():
            if root is None:
                continue
            with self.subTest(tree=name), tempfile.TemporaryDirectory() as t:
                empty, head = os.path.join(t, "empty"), os.path.join(t, "head")
                os.mkdir(empty)
                shutil.copytree(os.path.join(ROOT, name), os.path.join(head, "tree"))
                r = subprocess.run([PGCONFLINT, "diff", "--no-config", "--dirs", "--format", "json", "--fail-on",
                                    "never", empty, head], cwd=t, capture_output=True, text=True, timeout=300)
                self.assertEqual(r.returncode, 0, r.stderr)
                introduced = collections.defaultdict(list)
                for rc in json.loads(r.stdout)["roots"]:
                    for d in rc["introduced"]:
                        introduced[os.path.normpath(os.path.join(name, os.path.relpath(d["file"], "tree")))].append(
                            key(d))
                whole = json.loads(check("--format", "json", root).stdout)
                expected = findings(whole, key)
                for f in files:
                    if "checked alone" in check("--verbose", f).stderr:
                        continue  # not a file of the root: diff plans it as a root of its own
                    self.assertEqual(sorted(introduced.get(f, [])), expected.get(f, []), f)

    def test_no_output_says_refuse_while_fail_on_error_passes(self):
        inputs = [f for _, root, files in trees() for f in ([root] if root else files)]
        for path in inputs:
            with self.subTest(path=path):
                r = check("--format", "json", "--fail-on", "error", path)
                out = json.loads(r.stdout)
                refused = False
                for d in out["diagnostics"]:
                    if d["outcome"] in REFUSALS:
                        refused = True
                        self.assertEqual(d["severity"], "error", d)
                        continue
                    self.assertFalse(d["fatal"], d)
                    text = " ".join([d["message"], d["help"]] + [n["message"] for n in d["notes"]])
                    self.assertNotRegex(text, re.compile("refus", re.I), f"{d['code']} is {d['outcome']}")
                # The summary, the JSON and the exit code read the same findings.
                errors = sum(d["severity"] == "error" for d in out["diagnostics"])
                self.assertEqual(out["summary"]["errors"], errors, path)
                if refused:
                    self.assertEqual(r.returncode, 1, path)
                if not any("error" in x for x in out["roots"]):
                    self.assertEqual(r.returncode, 1 if errors else 0, path)
                self.assertEqual(any(root["fatal"] for root in out["roots"]),
                                 any(d["fatal"] for d in out["diagnostics"]) or any("error" in x for x in out["roots"]))
                summary = check("--format", "concise", "--fail-on", "error", path)
                if "refuse" in summary.stdout.splitlines()[-1]:
                    self.assertEqual(summary.returncode, 1, summary.stdout[-500:])


class ReproducerTest(unittest.TestCase):
    """Each bug of the issue, as a user met it, gets the server's verdict."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="pgconflint-verdicts-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def tree(self, files):
        write_tree(self.dir, files)

    def json(self, *args):
        r = check("--format", "json", *args, cwd=self.dir)
        return r.returncode, json.loads(r.stdout)

    def codes(self, out):
        return sorted(f"{d['file']}:{d['line']}:{d['code']}" for d in out["diagnostics"])

    def test_a_value_the_build_lacks_fails_fail_on_error(self):
        for line in ["io_method = io_uring", "wal_compression = lz4", "default_toast_compression = lz4"]:
            with self.subTest(line=line):
                self.tree({"c.conf": line + "\n"})
                rc, out = self.json("--build-features", "none", "--fail-on", "error", "c.conf")
                self.assertEqual(rc, 1)
                self.assertEqual([(d["code"], d["severity"], d["outcome"]) for d in out["diagnostics"]],
                                 [("PGC206", "error", "refuses-start")])

    def test_pg_hba_conf_reports_what_it_includes(self):
        self.tree({"d/postgresql.conf": "", "d/extra.conf": "host all all 10.0.0.0/33 md5\n",
                   "d/hba.d/10-app.conf": "host all all 10.0.0.0/33 md5\nhostt all all 1.2.3.4/32 md5\n",
                   "d/users": "@more\n", "d/more": "alice\n",
                   "d/pg_hba.conf": "local all all peer\ninclude \"extra.conf\"\ninclude_dir hba.d\n"
                                    "host all @users 10.0.0.0/8 scram-sha-256\n",
                   "d/pg_ident.conf": "include ident.d/x.conf\n", "d/ident.d/x.conf": "m /bad( alice\n"})
        rc, out = self.json("d/pg_hba.conf")
        self.assertEqual(rc, 1)
        self.assertEqual(self.codes(out), ["d/extra.conf:1:PGC831", "d/hba.d/10-app.conf:1:PGC831",
                                           "d/hba.d/10-app.conf:2:PGC831"])
        self.assertTrue(out["roots"][0]["fatal"])
        # An hba fragment alone: its real errors, never a postgresql.conf syntax error.
        rc, out = self.json("d/hba.d/10-app.conf")
        self.assertEqual(self.codes(out), ["d/hba.d/10-app.conf:1:PGC831", "d/hba.d/10-app.conf:2:PGC831"])
        rc, out = self.json("d/pg_ident.conf")
        self.assertEqual(self.codes(out), ["d/ident.d/x.conf:1:PGC833"])
        self.assertEqual(out["diagnostics"][0]["outcome"], "refuses-reload")

    def test_missing_optional_include_outside_the_tree_is_not_fatal(self):
        self.tree({"d/postgresql.conf": "", "d/pg_hba.conf": "local all all peer\n"
                                                               "include_if_exists /nonexistent/abs.conf\n"})
        rc, out = self.json("--fail-on", "error", "d")
        self.assertEqual(rc, 0)
        self.assertEqual([(d["code"], d["fatal"]) for d in out["diagnostics"]], [("PGC305", False)])

    def test_the_major_comes_from_where_the_files_live(self):
        self.tree({"etc/postgresql/16/main/postgresql.conf": "ssl_ecdh_curve = 'prime256v1'\n"})
        r = check("--diff", "etc/postgresql/16/main/postgresql.conf", cwd=self.dir)
        self.assertEqual(r.returncode, 0, r.stdout)  # nothing to fix: 16 calls it ssl_ecdh_curve
        r = check("--format", "concise", "etc/postgresql/16/main/postgresql.conf", cwd=self.dir)
        self.assertIn("PostgreSQL 16: from its location etc/postgresql/16/main", r.stdout)
        # Assumed, a rename is not safe.
        self.tree({"x/postgresql.conf": "ssl_ecdh_curve = 'prime256v1'\n"})
        r = check("--diff", "x/postgresql.conf", cwd=self.dir)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("rename to ssl_groups (if the server runs PostgreSQL 18)",
                      check("x/postgresql.conf", cwd=self.dir).stdout)

    def test_fix_keeps_comments(self):
        self.tree({"x/PG_VERSION": "18\n", "x/postgresql.conf": "work_mem = 32 MB   # keep me\nsort_mem = '8MB'\n"})
        r = check("--diff", "x/postgresql.conf", cwd=self.dir)
        # The value is quoted, the comment stays; deleting the commented dead line is left for review.
        self.assertIn("+work_mem = '32MB'   # keep me\n", r.stdout)
        self.assertIn("+work_mem = '8MB'\n", r.stdout)

    def test_every_repeatable_option_takes_one_value(self):
        self.tree({"c.conf": "work_mem = '4MB'\n"})
        for option, value in [("--tablespace", "cold=cold-object"), ("--rules", "r.toml"), ("--select", "PGC2"),
                              ("--ignore", "PGC303"), ("--extension-catalog", "cat.toml"), ("--output", "concise")]:
            with self.subTest(option=option):
                write_tree(self.dir, {"r.toml": '[[rule]]\ncode = "ACME001"\nname = "x"\nwhen = "false"\n'
                                                'message = "m"\n',
                                      "cat.toml": '[[module]]\nname = "acme"\n'})
                r = subprocess.run([PGCONFLINT, "check", "--no-config", option, value, "c.conf"], cwd=self.dir,
                                   capture_output=True, text=True)
                self.assertNotIn("PATH is required", r.stderr)
                self.assertIn("1 root", r.stdout + r.stderr, r.stderr)

    def test_a_user_rule_without_a_place_is_placed_not_dropped(self):
        self.tree({"c.conf": "work_mem = '4MB'\n",
                   "r.toml": '[[rule]]\ncode = "ACME001"\nname = "always"\nwhen = "true"\nmessage = "always fires"\n'})
        rc, out = self.json("--rules", "r.toml", "c.conf")
        self.assertEqual([(d["code"], d["line"]) for d in out["diagnostics"]], [("ACME001", 1)])

    def test_folded_findings_are_data(self):
        self.tree({"c.conf": "effective_io_concurrency = 200\n"})
        rc, out = self.json("--ram", "16GB", "--cpus", "4", "--storage", "sata-ssd", "c.conf")
        d = out["diagnostics"][0]
        self.assertEqual(d["code"], "PGC404")
        self.assertEqual([a["code"] for a in d["also"]], ["PGC701"])
        r = check("--ram", "16GB", "--cpus", "4", "--storage", "sata-ssd", "--format", "sarif", "c.conf", cwd=self.dir)
        result = json.loads(r.stdout)["runs"][0]["results"][0]
        self.assertEqual([a["ruleId"] for a in result["properties"]["also"]], ["PGC701"])
        self.assertTrue(any("PGC701" in x["message"]["text"] for x in result["relatedLocations"]))


    def test_diff_finds_a_root_of_any_name_and_two_directories_in_a_work_tree(self):
        self.tree({"old/prod-postgresql.conf": "work_mem = '4MB'\n", "new/prod-postgresql.conf": "work_mem = 4 MB\n"})
        git(self.dir, "init", "-q", "-b", "main")
        r = subprocess.run([PGCONFLINT, "diff", "--no-config", "--format", "json", "old", "new"], cwd=self.dir,
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 1, r.stderr)
        roots = json.loads(r.stdout)["roots"]
        self.assertEqual([x["root"] for x in roots], ["new/prod-postgresql.conf"])
        self.assertEqual([d["code"] for d in roots[0]["introduced"]], ["PGC001"])

    def test_hostgssenc_without_gssapi_is_a_line_the_server_skips(self):
        # Measured: 14, 16 and 18 without GSSAPI start with such a line and load the file; the
        # line never matches (pg_hba_file_rules shows why).
        sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
        import pgtools
        with pgtools.Server(18) as srv:
            with open(os.path.join(srv.datadir, "pg_hba.conf"), "a") as f:
                f.write("hostgssenc all all 10.0.0.0/8 scram-sha-256\n")
            srv.psql("SELECT pg_reload_conf()")
            rows = srv.psql("SELECT type, error FROM pg_hba_file_rules WHERE type = 'hostgssenc'").strip()
            self.assertIn("cannot match because GSSAPI is not supported by this build", rows)
            loaded = srv.psql("SELECT count(*) FROM pg_hba_file_rules WHERE error IS NULL").strip()
            self.assertGreater(int(loaded), 0)
        self.tree({"d/postgresql.conf": "", "d/pg_hba.conf": "local all all peer\n"
                                                               "hostgssenc all all 10.0.0.0/8 scram-sha-256\n"})
        rc, out = self.json("--gssapi", "no", "--fail-on", "error", "d")
        self.assertEqual(rc, 0)
        self.assertEqual([(d["code"], d["severity"], d["outcome"]) for d in out["diagnostics"]],
                         [("PGC839", "warning", "ignores-line")])


class PreCommitVerdictTest(unittest.TestCase):
    """Through Debian's pre-commit: each file staged alone, and all together, give one verdict."""

    @classmethod
    def setUpClass(cls):
        if not os.path.exists(PRE_COMMIT):
            raise RuntimeError("pre-commit missing: run scripts/setup.sh --tests (Debian's pre-commit)")
        cls.home = tempfile.mkdtemp(prefix="pgconflint-verdicts-home-")
        cls.bindir = os.path.join(cls.home, "bin")
        os.mkdir(cls.bindir)
        os.symlink(PGCONFLINT, os.path.join(cls.bindir, "pgconflint"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.home, ignore_errors=True)

    def run_hook(self, files, staged):
        repo = tempfile.mkdtemp(prefix="pgconflint-verdicts-repo-")
        self.addCleanup(shutil.rmtree, repo, True)
        write_tree(repo, files)
        git(repo, "init", "-q", "-b", "main")
        git(repo, "add", "-A")
        env = environment(PATH=self.bindir + os.pathsep + os.environ["PATH"], PRE_COMMIT_HOME=self.home,
                          PRE_COMMIT_COLOR="never")
        return subprocess.run([PRE_COMMIT, "try-repo", ROOT, "pgconflint", "--verbose", "--files", *staged],
                              cwd=repo, env=env, capture_output=True, text=True, timeout=600)

    def assert_verdicts(self, files, expect):
        """expect: {staged file: (exit code, [FILE:LINE:COL of its findings])}, staged alone and all together;
        a file's findings include those of the files it includes."""
        def count(out, where):  # the finding's header line, ` --> FILE:LINE:COL`
            return len(re.findall(r"^ --> " + re.escape(where) + "$", out, re.M))
        for staged, (rc, where) in expect.items():
            with self.subTest(staged=staged):
                r = self.run_hook(files, [staged])
                self.assertEqual(r.returncode, rc, r.stdout)
                for w in where:
                    self.assertEqual(count(r.stdout, w), 1, f"{w} in:\n{r.stdout}")
        r = self.run_hook(files, sorted(expect))
        self.assertEqual(r.returncode, max(rc for rc, _ in expect.values()), r.stdout)
        for w in {w for _, where in expect.values() for w in where}:
            self.assertEqual(count(r.stdout, w), 1, f"{w} in:\n{r.stdout}")

    def test_an_included_file_outside_conf_d(self):
        files = {"data/postgresql.conf": "include 'tuning.conf'\n", "data/tuning.conf": "work_mem = 32 MB\n",
                 "nginx/conf.d/default.conf": "server {\n  listen 80;\n  location / { root /var/www; }\n}\n"}
        self.assert_verdicts(files, {"data/tuning.conf": (1, ["data/tuning.conf:1:15"]),
                                     "nginx/conf.d/default.conf": (0, []),
                                     "data/postgresql.conf": (1, ["data/tuning.conf:1:15"])})

    def test_a_package_layout_hba_file(self):
        files = {"etc/postgresql/16/main/postgresql.conf": "hba_file = '/etc/postgresql/16/main/pg_hba.conf'\n",
                 "etc/postgresql/16/main/pg_hba.conf": "local all all peer\nhostt all all 1.2.3.4/32 md5\n"}
        self.assert_verdicts(files, {"etc/postgresql/16/main/pg_hba.conf":
                                     (1, ["etc/postgresql/16/main/pg_hba.conf:2:1"])})

    def test_a_line_postgresql_auto_conf_overrides_is_never_fatal(self):
        # PostgreSQL 18 starts: the earlier line of the same name is never validated.
        files = {"data/postgresql.conf": "include_dir 'conf.d'\n", "data/conf.d/10.conf": "work_mem = bogus\n",
                 "data/postgresql.auto.conf": "work_mem = '4MB'\n"}
        self.assert_verdicts(files, {"data/conf.d/10.conf": (0, ["data/conf.d/10.conf:1:1"]),
                                     "data/postgresql.conf": (0, [])})

    def test_forty_bad_fragments_forty_errors(self):
        files = {"data/postgresql.conf": "include_dir 'conf.d'\n"}
        for i in range(40):
            files[f"data/conf.d/{i:02d}.conf"] = "work_mem = 64 MB\n"
        r = self.run_hook(files, sorted(files))
        self.assertEqual(r.returncode, 1)
        self.assertEqual(len(re.findall(r"^ --> data/conf.d/\d\d.conf:1:15$", r.stdout, re.M)), 40, r.stdout[-3000:])


if __name__ == "__main__":
    unittest.main()
