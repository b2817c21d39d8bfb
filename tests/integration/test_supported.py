#!/usr/bin/env python3
"""`pgconflint params --supported`: the one list of majors and of storage types the suites
read (tests/support/supported.py) is what the binary accepts and what the knowledge says.

* the majors and the default are knowledge/majors.json's, in its order; the storage types
  are knowledge/storage.toml's [[storage]] names, in its order;
* every listed major is accepted by `--pg-version`, the majors just outside are refused;
  every listed storage type is accepted by `--storage`, and the --storage help lists them;
* the text form says the same as the JSON; NAME or --extensions with it is a usage error;
* no suite types the lists by hand (a literal list, tuple or set holding every supported major,
  as numbers or strings, or three or more storage types): it would drift from the binary, as
  test_recommend.py's storage types once did (cloud-block missing). A literal with some majors
  (the majors a server claim holds for) is a fact about PostgreSQL, not a copy of the list.

Usage: python3 tests/integration/test_supported.py [-v]
Environment: PGCONFLINT (binary, default build/pgconflint).
"""
import ast
import glob
import json
import os
import re
import subprocess
import sys
import tomllib
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PGCONFLINT = os.environ.get("PGCONFLINT", os.path.join(ROOT, "build", "pgconflint"))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
import supported  # noqa: E402


def hand_typed_lists(source, majors, storage_types):
    """(line, text) of each literal list, tuple or set in `source` that copies the supported
    majors (all of them) or the storage types (three or more)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            continue
        values = [e.value for e in node.elts if isinstance(e, ast.Constant)]
        if len(values) != len(node.elts) or not values:
            continue
        as_majors = {int(v) for v in values if isinstance(v, int) or (isinstance(v, str) and v.isdigit())}
        if set(majors) <= as_majors:
            found.append((node.lineno, ast.unparse(node)))
        elif len({v for v in values if isinstance(v, str) and v in storage_types}) >= 3:
            found.append((node.lineno, ast.unparse(node)))
    return found


def suites():
    files = glob.glob(os.path.join(ROOT, "tests", "integration", "*.py"))
    files += glob.glob(os.path.join(ROOT, "tests", "lsp", "*.py"))
    files += glob.glob(os.path.join(ROOT, "tests", "support", "*.py"))
    return sorted(files)


def run(*args):
    return subprocess.run([PGCONFLINT, *args], capture_output=True, text=True, timeout=60, cwd=ROOT)


class SupportedTest(unittest.TestCase):

    def test_the_knowledge_lists(self):
        with open(os.path.join(ROOT, "knowledge", "majors.json")) as f:
            doc = json.load(f)
        with open(os.path.join(ROOT, "knowledge", "storage.toml"), "rb") as f:
            storage = tomllib.load(f)
        self.assertEqual(supported.majors(PGCONFLINT), tuple(m["major"] for m in doc["majors"]))
        self.assertEqual(supported.default_major(PGCONFLINT), doc["default"])
        self.assertEqual(supported.storage_types(PGCONFLINT), tuple(s["name"] for s in storage["storage"]))
        self.assertIn(supported.default_major(PGCONFLINT), supported.majors(PGCONFLINT))

    def test_what_the_options_accept(self):
        majors = supported.majors(PGCONFLINT)
        for m in majors:
            self.assertEqual(run("params", "--pg-version", str(m), "work_mem").returncode, 0, m)
        for m in (majors[0] - 1, majors[-1] + 1):
            r = run("params", "--pg-version", str(m), "work_mem")
            self.assertEqual(r.returncode, 2, m)
            self.assertIn("supported: " + ", ".join(map(str, majors)), r.stderr)
        for s in supported.storage_types(PGCONFLINT):
            r = run("recommend", "--no-config", "--ram", "4GB", "--cpus", "2", "--storage", s, "--format", "json")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(json.loads(r.stdout)["profile"]["storage"], s)
        r = run("recommend", "--no-config", "--ram", "4GB", "--cpus", "2", "--storage", "floppy")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn('invalid storage "floppy" (expected ' + ", ".join(supported.storage_types(PGCONFLINT)) + ")",
                      r.stderr)
        help_text = run("recommend", "--help").stdout
        listed = re.search(r"--storage TEXT +Storage of the data directory: (.*)", help_text)
        self.assertIsNotNone(listed, help_text)
        self.assertEqual(tuple(listed.group(1).split(", ")), supported.storage_types(PGCONFLINT))

    def test_text_and_usage(self):
        r = run("params", "--supported")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, "majors: " + " ".join(map(str, supported.majors(PGCONFLINT)))
                         + f" (default {supported.default_major(PGCONFLINT)})\n"
                         + "storage types: " + " ".join(supported.storage_types(PGCONFLINT)) + "\n")
        for extra in (["work_mem"], ["--extensions"]):
            r = run("params", "--supported", *extra)
            self.assertEqual((r.returncode, r.stdout), (2, ""), extra)
            self.assertIn("--supported takes no NAME", r.stderr)

    def test_no_suite_types_the_lists(self):
        majors, storage_types = supported.majors(PGCONFLINT), supported.storage_types(PGCONFLINT)
        bad = []
        for path in suites():
            with open(path, encoding="utf-8") as f:
                bad += [f"{os.path.relpath(path, ROOT)}:{n}: {text}"
                        for n, text in hand_typed_lists(f.read(), majors, storage_types)]
        self.assertFalse(bad, "read these from tests/support/supported.py:\n" + "\n".join(bad))

    def test_the_scanner_finds_planted_lists(self):
        # Made-up lists, so that this file types no real one.
        majors, storage = (1, 2, 3, 4, 5), ("disk-a", "disk-b", "disk-c", "disk-d", "disk-e")
        for text in ("M = (1, 2, 3, 4, 5)\n", "for m in ['1', '2', '3', '4', '5', '6']: pass\n",
                     "S = {'disk-a', 'disk-c', 'disk-e'}\n", "x = f(('disk-b', 'disk-a', 'disk-d', 'x'))\n"):
            self.assertEqual(len(hand_typed_lists(text, majors, storage)), 1, text)
        for text in ("M = (3, 4, 5)\n", "a = ['--storage', 'disk-a']\n", "S = ('disk-a', 'disk-b')\n",
                     "M = (1, 2, 3, 4, x)\n", "# (1, 2, 3, 4, 5)\n"):
            self.assertEqual(hand_typed_lists(text, majors, storage), [], text)

    def test_majors_from_env(self):
        majors = supported.majors(PGCONFLINT)
        old = os.environ.pop("SUPPORTED_TEST_MAJORS", None)
        try:
            self.assertEqual(supported.majors_from_env("SUPPORTED_TEST_MAJORS", path=PGCONFLINT), majors)
            self.assertEqual(supported.majors_from_env("SUPPORTED_TEST_MAJORS", (majors[-1],), path=PGCONFLINT),
                             (majors[-1],))
            os.environ["SUPPORTED_TEST_MAJORS"] = f"{majors[0]}, {majors[-1]}"
            self.assertEqual(supported.majors_from_env("SUPPORTED_TEST_MAJORS", path=PGCONFLINT),
                             (majors[0], majors[-1]))
            os.environ["SUPPORTED_TEST_MAJORS"] = str(majors[-1] + 1)
            with self.assertRaises(RuntimeError):
                supported.majors_from_env("SUPPORTED_TEST_MAJORS", path=PGCONFLINT)
        finally:
            os.environ.pop("SUPPORTED_TEST_MAJORS", None)
            if old is not None:
                os.environ["SUPPORTED_TEST_MAJORS"] = old


if __name__ == "__main__":
    unittest.main()
