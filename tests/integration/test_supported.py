#!/usr/bin/env python3
"""`pgconflint params --supported`: the one list of majors and of storage types the suites
read (tests/support/supported.py) is what the binary accepts and what the knowledge says.

* the majors and the default are knowledge/majors.json's, in its order; the storage types
  are knowledge/storage.toml's [[storage]] names, in its order;
* every listed major is accepted by `--pg-version`, the majors just outside are refused;
  every listed storage type is accepted by `--storage`, and the --storage help lists them;
* the text form says the same as the JSON; NAME or --extensions with it is a usage error.

Usage: python3 tests/integration/test_supported.py [-v]
Environment: PGCONFLINT (binary, default build/pgconflint).
"""
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
        self.assertNotEqual(run("recommend", "--no-config", "--ram", "4GB", "--cpus", "2", "--storage",
                                "floppy").returncode, 0)
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
