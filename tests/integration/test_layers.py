#!/usr/bin/env python3
"""The layers of src/, read from the code: which module and which core folder
each #include reaches, folder sizes and file lengths.

src/core's folders are layered in the order src/core/README.md lists them: a
folder includes only itself and the folders before it. Outside core,
dependencies point inward: cli -> {lsp, live} -> report -> core (lsp reaches
report, live only core), and the build-time generator (src/gen) reaches only
the parts of core it links (base, knowledge, rules). No folder under src/ holds more than
30 source files directly (the generated grammar aside), no source file is
longer than 500 lines, and every core folder says in its README.md what lives
there and what it may include.
"""
import os
import re
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SRC = os.path.join(ROOT, "src")
CORE = os.path.join(SRC, "core")
SOURCE = re.compile(r"\.(cc|h|inc|c)$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
GENERATED = os.path.join(SRC, "grammar")  # the committed tree-sitter parser and its grammar

# What each module outside core may include, besides itself.
MODULES = {
    "core": set(),
    "report": {"core"},
    "live": {"core"},
    "lsp": {"report", "core"},
    "cli": {"lsp", "live", "report", "core"},
    "gen": {"core/base", "core/knowledge", "core/rules"},
}
MAX_FILES = 30
MAX_LINES = 500


def core_order():
    """The folders of src/core, bottom first, from src/core/README.md."""
    with open(os.path.join(CORE, "README.md"), encoding="utf-8") as f:
        text = f.read()
    return re.findall(r"^\d+\. `([a-z_]+)`", text, re.M)


def sources(top):
    for dirpath, dirnames, filenames in os.walk(top):
        if dirpath.startswith(GENERATED):
            continue
        for name in filenames:
            if SOURCE.search(name):
                yield os.path.join(dirpath, name)


def upward_includes(order, files):
    """The includes of FILES ((path under src/core, its includes)) that reach a
    folder after the file's own in ORDER; an include of an unlisted folder is
    one too."""
    rank = {d: i for i, d in enumerate(order)}
    bad = []
    for path, incs in files:
        folder = os.path.relpath(path, CORE).split(os.sep)[0]
        for inc in incs:
            parts = inc.split("/")
            if parts[0] != "core":
                continue
            if parts[1] not in rank or rank[parts[1]] > rank[folder]:
                bad.append(f"{os.path.relpath(path, ROOT)} ({folder}) includes {inc}")
    return bad


def includes(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return INCLUDE.findall(f.read())


class LayersTest(unittest.TestCase):
    def test_core_folders_are_the_listed_ones(self):
        order = core_order()
        self.assertGreaterEqual(len(order), 5, "src/core/README.md lists no layers")
        self.assertEqual(len(order), len(set(order)), order)
        folders = sorted(d for d in os.listdir(CORE) if os.path.isdir(os.path.join(CORE, d)))
        self.assertEqual(sorted(order), folders)
        loose = [n for n in os.listdir(CORE) if SOURCE.search(n)]
        self.assertEqual(loose, [], "source files directly in src/core: put them in a folder")
        for d in order:
            readme = os.path.join(CORE, d, "README.md")
            self.assertTrue(os.path.isfile(readme), readme)
            with open(readme, encoding="utf-8") as f:
                self.assertIn("includes only", f.read(), readme)

    def test_core_folders_include_only_those_below(self):
        bad = upward_includes(core_order(), ((p, includes(p)) for p in sources(CORE)))
        self.assertEqual(bad, [], "\n".join(bad))

    def test_modules_point_inward(self):
        bad = []
        for path in sources(SRC):
            module = os.path.relpath(path, SRC).split(os.sep)[0]
            allowed = MODULES.get(module)
            self.assertIsNotNone(allowed, f"{path}: module {module} is not in MODULES")
            for inc in includes(path):
                parts = inc.split("/")
                if len(parts) < 2 or parts[0] not in MODULES or parts[0] == module:
                    continue  # generated headers, third-party or the module's own
                target = parts[0] if parts[0] != "core" or module != "gen" else "/".join(parts[:2])
                if target not in allowed:
                    bad.append(f"{os.path.relpath(path, ROOT)} ({module}) includes {inc}")
        self.assertEqual(bad, [], "\n".join(bad))

    def test_folder_sizes(self):
        big = []
        for dirpath, dirnames, filenames in os.walk(SRC):
            if dirpath.startswith(GENERATED):
                continue
            n = sum(1 for name in filenames if SOURCE.search(name))
            if n > MAX_FILES:
                big.append(f"{os.path.relpath(dirpath, ROOT)}: {n} source files")
        self.assertEqual(big, [], "\n".join(big))

    def test_file_lengths(self):
        long = []
        for path in sources(SRC):
            with open(path, encoding="utf-8", errors="replace") as f:
                n = sum(1 for _ in f)
            if n > MAX_LINES:
                long.append(f"{os.path.relpath(path, ROOT)}: {n} lines")
        self.assertEqual(long, [], "\n".join(long))

    def test_the_check_sees_a_violation(self):
        # Planted files: an include of a higher folder and of an unlisted one
        # are reported, one of the same or a lower folder is not.
        order = ["base", "model", "workspace"]
        planted = [(os.path.join(CORE, "model", "a.cc"),
                    INCLUDE.findall('#include "core/base/limits.h"\n  #  include "core/model/b.h"\n'
                                    '#include "core/workspace/workspace.h"\n#include "core/nowhere/x.h"\n'
                                    '#include <vector>\n'))]
        self.assertEqual(upward_includes(order, planted),
                         ["src/core/model/a.cc (model) includes core/workspace/workspace.h",
                          "src/core/model/a.cc (model) includes core/nowhere/x.h"])

if __name__ == "__main__":
    unittest.main()
