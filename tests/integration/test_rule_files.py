#!/usr/bin/env python3
"""User rule files through the CLI (`check --rules`, `extra-rules`, `explain --rules`).

A rule with an unknown function, profile fact, placeholder or anchor, or a condition nested too
deep, is refused when it loads: exit code 2 and one line on stderr naming FILE:LINE of the
offending key. Long `or` and `+` chains load and evaluate. The rule files are generated here,
so that the reproducers (10,000 parentheses, 200,000 `not`, 300,000 terms...) need no fixtures.

Usage: python3 tests/integration/test_rule_files.py [-v]
Environment: PGCONFLINT (binary, default build/pgconflint).
"""
import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PGCONFLINT = os.environ.get("PGCONFLINT", os.path.join(ROOT, "build", "pgconflint"))
TIMEOUT = 60  # generous: each case takes well under a second


def rule(when, message="m", extra=""):
    """A [[rule]] entry: `when` on line 4, `message` on line 5, `extra` from line 6."""
    return (f'[[rule]]\ncode = "ORG001"\nname = "org-rule"\nwhen = "{when}"\n'
            f'message = "{message}"\n{extra}')


# Refused at load: (name, rule file text, line of the offending key, a fragment of the message).
REFUSED = [
    ("unknown-function", rule("is_flase(fsync)"), 4, 'unknown function "is_flase" (did you mean "is_false"?)'),
    ("unknown-profile-fact", rule("work_mem > profile.rma * 0.1"), 4,
     'unknown profile fact "profile.rma" (did you mean "profile.ram"?)'),
    ("unknown-placeholder", rule("fsync == false", "fsync is {fsycn}"), 5,
     'placeholder {fsycn}: unknown name "fsycn" (did you mean "fsync"?)'),
    ("unknown-anchor", rule("fsync == false", extra='anchor = ["fsnyc"]\n'), 6, 'unknown name "fsnyc"'),
    ("unknown-key", rule("fsync == false", extra='mesage = "x"\n'), 6, 'unknown key "mesage"'),
    ("deep-parentheses", rule("(" * 10000 + "work_mem > 0" + ")" * 10000), 4, "nested deeper than 256 levels"),
    ("many-nots", rule("not " * 200000 + "fsync"), 4, "nested deeper than 256 levels"),
    ("nested-abs", rule("abs(" * 50000 + "work_mem" + ")" * 50000 + " > 0"), 4, "nested deeper than 256 levels"),
    ("deep-placeholder", rule("fsync == false", "{" + "(" * 10000 + "1" + ")" * 10000 + "}"), 5,
     "nested deeper than 256 levels"),
    ("absurd-versions", rule("fsync == false", extra='versions = "99999999999999999999-1"\n'), 6,
     "versions must look like"),
]

# Loaded and evaluated: (name, rule file text). Each fires on CONF.
CONF = "work_mem = '4MB'\nfsync = off\n"
ACCEPTED = [
    ("or-chain", rule("work_mem < 0" + " or work_mem < 0" * 39999 + " or fsync == false")),
    ("plus-chain", rule("work_mem" + " + 1" * 300000 + " > 0", "sum {1" + " + 1" * 99999 + "}")),
    ("versions-range", rule("fsync == false", extra='versions = "14-18"\n')),
]


class RuleFileTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(PGCONFLINT, os.X_OK):
            raise RuntimeError(f"pgconflint binary not found at {PGCONFLINT}: set PGCONFLINT")
        cls.dir = tempfile.mkdtemp(prefix="pgconflint-rule-files-")
        cls.conf = cls.write("postgresql.conf", CONF)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    @classmethod
    def write(cls, name, text):
        path = os.path.join(cls.dir, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def run_cli(self, *args, cwd=None):
        r = subprocess.run([PGCONFLINT, *args], capture_output=True, timeout=TIMEOUT, cwd=cwd)
        return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")

    def assert_refused(self, args, path, line, fragment, cwd=None):
        code, out, err = self.run_cli(*args, cwd=cwd)
        self.assertEqual(code, 2, f"{args}: exit {code}\n{err[:500]}")
        self.assertEqual(out, "")
        lines = err.splitlines()
        self.assertEqual(len(lines), 1, err[:500])
        self.assertTrue(lines[0].startswith(f"pgconflint: error: {path}:{line}: "), lines[0][:300])
        self.assertIn(fragment, lines[0])
        self.assertLess(len(lines[0]), 400, "the message quotes no huge expression")

    def test_refused_at_load_with_the_key_line(self):
        for name, text, line, fragment in REFUSED:
            path = self.write(f"{name}.toml", text)
            with self.subTest(case=name, via="check --rules"):
                self.assert_refused(["check", self.conf, "--no-config", "--rules", path], path, line, fragment)
            with self.subTest(case=name, via="explain CODE --rules"):
                self.assert_refused(["explain", "ORG001", "--rules", path], path, line, fragment)
            with self.subTest(case=name, via="explain --rules FILE CODE"):
                self.assert_refused(["explain", "--rules", path, "ORG001"], path, line, fragment)

    def test_refused_through_extra_rules(self):
        project = os.path.join(self.dir, "project")
        os.makedirs(os.path.join(project, "policy"), exist_ok=True)
        name, text, line, fragment = REFUSED[5]  # deep parentheses: crashed CI before
        rules = os.path.join(project, "policy", "org.toml")
        with open(rules, "w", encoding="utf-8") as f:
            f.write(text)
        with open(os.path.join(project, ".pgconflint.toml"), "w", encoding="utf-8") as f:
            f.write('extra-rules = ["policy"]\n')
        with open(os.path.join(project, "postgresql.conf"), "w", encoding="utf-8") as f:
            f.write(CONF)
        self.assert_refused(["check", "postgresql.conf"], rules, line, fragment, cwd=project)

    def test_long_chains_load_and_evaluate(self):
        for name, text in ACCEPTED:
            path = self.write(f"{name}.toml", text)
            with self.subTest(case=name):
                code, out, err = self.run_cli("check", self.conf, "--no-config", "--format", "concise",
                                              "--select", "ORG001", "--rules", path)
                self.assertEqual(err, "")
                self.assertEqual(code, 1, out)
                self.assertIn("[ORG001]", out)
        code, out, _ = self.run_cli("check", self.conf, "--no-config", "--format", "concise", "--select", "ORG001",
                                    "--rules", os.path.join(self.dir, "plus-chain.toml"))
        self.assertIn("sum 100000 [ORG001]", out)

    def test_explain_takes_the_code_before_or_after_rules(self):
        path = self.write("good.toml", rule("fsync == false", extra='summary = "fsync is off"\n'))
        for args in (["explain", "ORG001", "--rules", path], ["explain", "--rules", path, "ORG001"]):
            with self.subTest(args=args[1:]):
                code, out, err = self.run_cli(*args)
                self.assertEqual((code, err), (0, ""))
                self.assertTrue(out.startswith("# org-rule (ORG001)\n"), out[:200])
                self.assertIn("fsync is off", out)
        # --rules is repeatable; a code declared twice is refused at the second file's key.
        again = self.write("again.toml", rule("fsync == true"))
        code, out, err = self.run_cli("explain", "--rules", path, "--rules", again, "ORG001")
        self.assertEqual(code, 2, out)
        self.assertEqual(err, f"pgconflint: error: {again}:2: code ORG001 is already used by rule ORG001\n")


if __name__ == "__main__":
    unittest.main()
