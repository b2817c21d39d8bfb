#!/usr/bin/env python3
"""Every CTest test carries exactly one of the labels unit, cli, server, fuzz, editor, and
the right one, so that a subset (`ctest -L 'unit|cli'`, scripts/test.sh --quick) runs
alone and nothing drifts out of it:

* unit: the GoogleTest cases (pgconflint_tests: one test each, two shards under the
  sanitizers) and unit.added_major;
* fuzz: the libFuzzer short runs (fuzz_*, in a PGCONFLINT_FUZZ=ON tree);
* editor: the editor server's suites (tests/lsp/test_*.py), which start no PostgreSQL server;
* server: an integration suite that starts a PostgreSQL server or runs a PostgreSQL binary,
  itself or through a module of tests/ it imports (a call of tests/support/pgtools.py's
  Server, initdb, pg_bin, pg_home or postgres_C, or an argv naming postgres, pg_ctl,
  initdb or psql: see server_use);
* cli: every other integration suite.

It reads the tests from `ctest --show-only=json-v1` of the build tree
($PGCONFLINT_BUILD_DIR, which CTest passes; else the directory of $PGCONFLINT; else build/).

Usage: python3 tests/integration/test_labels.py [-v]
"""
import ast
import json
import os
import re
import shutil
import subprocess
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LABELS = {"unit", "cli", "server", "fuzz", "editor"}
# What starts a server or runs a PostgreSQL binary, found in the syntax tree (so that
# comments, docstrings and text a test plants do not count): a call of one of these
# functions of tests/support/pgtools.py or its PSQL (importing pgtools alone, for TEST_USER or
# make_tempdir, is no use), or a list or tuple that starts with one of the programs (an
# argv; postgres only by a path: the bare word is also the superuser's name).
SERVER_FUNCTIONS = {"Server", "initdb", "pg_bin", "pg_home", "postgres_C", "PSQL"}
PROGRAM = re.compile(r"(?:.*/)?(?:pg_ctl|initdb|psql)|.*/bin/postgres")
# Where the modules the suites import live.
MODULE_DIRS = [HERE, os.path.join(ROOT, "tests", "support"), os.path.join(ROOT, "tests", "lsp")]


def server_use(source):
    """The first server use in `source` as text (`pgtools.Server`, `'psql'`), or None."""
    tree = ast.parse(source)
    from_pgtools = {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                    and n.module == "pgtools" for a in n.names if a.name in SERVER_FUNCTIONS}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "pgtools" \
                and node.attr in SERVER_FUNCTIONS:
            return f"pgtools.{node.attr} (line {node.lineno})"
        if isinstance(node, ast.Name) and node.id in from_pgtools and isinstance(node.ctx, ast.Load):
            return f"{node.id} from pgtools (line {node.lineno})"
        if isinstance(node, (ast.List, ast.Tuple)) and node.elts:
            e = node.elts[0]
            if isinstance(e, ast.Constant) and isinstance(e.value, str) and PROGRAM.fullmatch(e.value):
                return f"argv {e.value!r} (line {e.lineno})"
    return None


def build_dir():
    if os.environ.get("PGCONFLINT_BUILD_DIR"):
        return os.environ["PGCONFLINT_BUILD_DIR"]
    if os.environ.get("PGCONFLINT"):
        d = os.path.dirname(os.path.abspath(os.environ["PGCONFLINT"]))
        if os.path.exists(os.path.join(d, "CTestTestfile.cmake")):
            return d
    return os.path.join(ROOT, "build")


def local_imports(source):
    """The top-level module names `source` imports (import X, from X import Y)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def module_path(name, dirs=MODULE_DIRS):
    for d in dirs:
        p = os.path.join(d, name + ".py")
        if os.path.isfile(p):
            return p
    return None


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def uses_server(path, read=None, find=module_path):
    """(file, what) of the first server use in `path` or a module of tests/ it imports,
    directly or not; None when there is none."""
    read = read or _read
    seen, todo = set(), [path]
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        source = read(p)
        what = server_use(source)
        if what:
            return p, what
        todo += [m for m in (find(n) for n in local_imports(source)) if m]
    return None


def ctest_tests(directory):
    ctest = shutil.which("ctest")
    if not ctest:
        raise unittest.SkipTest("ctest is not installed")
    r = subprocess.run([ctest, "--test-dir", directory, "--show-only=json-v1"], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"ctest --show-only failed in {directory}: {r.stderr}")
    out = []
    for t in json.loads(r.stdout)["tests"]:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        out.append((t["name"], t.get("command", []), set(props.get("LABELS", []))))
    return out


def script_of(command):
    """The Python suite a test runs, or None."""
    return next((a for a in command if a.endswith(".py")), None)


def expected_label(name, command):
    """The label the test must carry, or None when nothing says (then it is a defect)."""
    exe = os.path.basename(command[0]) if command else ""
    if exe in ("pgconflint_tests", "pgconflint_added_major_tests"):
        return "unit"
    if exe.startswith("fuzz_"):
        return "fuzz"
    script = script_of(command)
    if script is None:
        return None
    if os.path.dirname(os.path.abspath(script)) == os.path.join(ROOT, "tests", "lsp"):
        return "editor"
    return "server" if uses_server(script) else "cli"


class ScannerTest(unittest.TestCase):
    """The detection on planted sources: a check that cannot fail is no check."""

    def scan(self, files, start):
        return uses_server(start, read=lambda p: files[p], find=lambda n: n + ".py" if n + ".py" in files else None)

    def test_direct_use(self):
        for text in ("with pgtools.Server(18) as s:\n    pass\n", "d = pgtools.initdb(m)\n",
                     "pgtools.pg_bin(m, 'x')\n", "home = pgtools.pg_home\n", "argv = ['pg_ctl', 'start']\n",
                     "subprocess.run(('psql', '-c', sql))\n", "run(['/opt/pg/bin/postgres', '-C', 'x'])\n",
                     "from pgtools import initdb as mk\nmk(18)\n"):
            found = self.scan({"a.py": "import pgtools\n" + text}, "a.py")
            self.assertIsNotNone(found, text)
            self.assertEqual(found[0], "a.py")

    def test_no_use(self):
        for text in ("import pgtools\nuser = pgtools.TEST_USER\nd = pgtools.make_tempdir()\n",
                     '"""Starts pgtools.Server(18) and runs pg_ctl and psql."""\n# pg_ctl start\n',
                     "argv = ['check', 'psql', 'deploy/postgres']\nname = 'psql'\nfor u in ('postgres', 'x'): pass\n",
                     "from pgtools import make_tempdir\n"):
            self.assertIsNone(self.scan({"a.py": text}, "a.py"), text)

    def test_use_through_an_import(self):
        files = {"a.py": "import b\n", "b.py": "from c import x\n", "c.py": "pgtools.Server(18)\n"}
        self.assertEqual(self.scan(files, "a.py")[0], "c.py")
        files["c.py"] = "x = 1\nimport a\n"  # a cycle, and no use
        self.assertIsNone(self.scan(files, "a.py"))

    def test_expected_labels(self):
        self.assertEqual(expected_label("x", ["/b/pgconflint_tests", "--gtest_filter=A.B"]), "unit")
        self.assertEqual(expected_label("x", ["/b/tests/fuzz/fuzz_hba", "-runs=1"]), "fuzz")
        self.assertEqual(expected_label("x", ["/usr/bin/python3", "-m", "pytest",
                                              os.path.join(ROOT, "tests", "lsp", "test_protocol.py")]), "editor")
        self.assertEqual(expected_label("x", ["python3", os.path.join(HERE, "test_golden.py")]), "cli")
        self.assertEqual(expected_label("x", ["python3", os.path.join(HERE, "test_hba_corpus.py")]), "server")
        self.assertIsNone(expected_label("x", ["/bin/true"]))


class LabelsTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.dir = build_dir()
        if not os.path.exists(os.path.join(cls.dir, "CTestTestfile.cmake")):
            raise unittest.SkipTest(f"{cls.dir} is no CTest build tree")
        cls.tests = ctest_tests(cls.dir)

    def test_every_test_has_exactly_one_label(self):
        bad = [f"{name}: {sorted(labels & LABELS) or 'none'}" for name, _, labels in self.tests
               if len(labels & LABELS) != 1]
        self.assertFalse(bad, "tests without exactly one of " + ", ".join(sorted(LABELS)) + ":\n" + "\n".join(bad))

    def test_every_label_is_the_right_one(self):
        bad = []
        for name, command, labels in self.tests:
            want = expected_label(name, command)
            if want is None:
                bad.append(f"{name}: nothing says which label its command {command[:3]} needs")
            elif labels & LABELS != {want}:
                why = uses_server(script_of(command)) if want == "server" else None
                bad.append(f"{name}: labelled {sorted(labels & LABELS)}, should be {want}"
                           + (f" ({os.path.relpath(why[0], ROOT)}: {why[1]})" if why else ""))
        self.assertFalse(bad, "\n".join(bad))

    def test_the_editor_suites_need_no_server(self):
        # scripts/test.sh --quick runs them without PostgreSQL.
        for name, command, labels in self.tests:
            if "editor" in labels:
                self.assertIsNone(uses_server(script_of(command)), name)

    def test_every_suite_is_a_test(self):
        scripts = {os.path.abspath(s) for _, c, _ in self.tests for s in [script_of(c)] if s}
        for d in (HERE, os.path.join(ROOT, "tests", "lsp")):
            for f in sorted(os.listdir(d)):
                if f.startswith("test_") and f.endswith(".py"):
                    self.assertIn(os.path.join(d, f), scripts, f"{f} is no CTest test")
        self.assertIn(os.path.join(HERE, "differential.py"), scripts)


if __name__ == "__main__":
    unittest.main()
