#!/usr/bin/env python3
"""Unity batches stay safe: no file of a batched target uses a name another file of that
target keeps in its anonymous namespace.

CMakeLists.txt and tests/CMakeLists.txt compile some targets in unity batches
(`pgc_unity`): the files of a batch
become one translation unit, and a name in one file's anonymous namespace is then visible
to the files after it. It can hide the name another file means (an LSP diagnostic tag of 1
instead of 2 was one such case) or join its overloads, with no error. This suite reads the
sources of every batched target and fails when a name declared at the top of one file's
anonymous namespace (a function, constant, type or alias) appears as a word in the code of
another file of the same target: rename one of them, or move a shared helper into a header
(the unit tests': tests/unit/test_support.h). GoogleTest's PrintTo is exempt: each file
overloads it for its own parameter type, which argument-dependent lookup tells apart.

Usage: python3 tests/integration/test_unity_names.py [-v]
"""
import glob
import os
import re
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# Batched target -> its sources (the globs CMakeLists.txt gives it). A target
# batched by folder (`pgc_unity_by_folder`) is one batch per folder of the
# sources its add_library lists.
BY_FOLDER = {"pgconflint_core"}
TARGETS = {
    "pgconflint_cli": ["src/cli/*.cc"],
    "pgconflint_lsp": ["src/lsp/*.cc"],
    "pgconflint_report": ["src/report/*.cc", "src/report/formats/*.cc"],
    "pgconflint_live": ["src/live/*.cc"],
    "pgconflint_tests": ["tests/unit/*_test.cc"],
}

NAME = r"([A-Za-z_]\w*)"
DECLARATIONS = [
    re.compile(r"^(?:struct|class|union|enum(?:\s+class)?|using)\s+" + NAME),
    re.compile(r"^(?:static\s+)?(?:inline\s+)?(?:constexpr|const)\s+[\w:<>,\s*&]+?\s+\*?" + NAME + r"(?:\[\])?\s*[={\[]"),
    re.compile(r"^(?:static\s+|inline\s+|constexpr\s+|const\s+)*[\w:<>,\s*&]+?\s+[*&]?" + NAME + r"\s*\("),
]
KEYWORDS = {"if", "for", "while", "return", "switch", "operator"}
# GoogleTest finds PrintTo by argument-dependent lookup: one overload per test
# file, each for that file's own parameter type, is the intended use.
OVERLOADS_BY_TYPE = {"PrintTo"}


def anonymous_names(text):
    """Names declared at the top level of the file's anonymous namespaces, each with its
    declaration when it is an alias (`using json = nlohmann::json;`: the same alias in two
    files names the same type, which is no clash)."""
    names, inside = {}, False
    for line in text.split("\n"):
        if line.startswith("namespace {"):
            inside = True
        elif inside and line.startswith("}  // namespace"):
            inside = False
        elif inside and line and line[0] not in " \t#/}" and not re.match(r"using\s+(namespace\s|[\w:]+;)", line):
            for rx in DECLARATIONS:
                m = rx.match(line)
                if m:
                    if m.group(1) not in KEYWORDS and m.group(1) not in OVERLOADS_BY_TYPE:
                        names[m.group(1)] = line.strip() if line.startswith("using ") else None
                    break
    return names


def words(text):
    """The identifiers the code looks up unqualified: without comments, string literals,
    qualified names (`nlohmann::json`) and members (`a.size`, `p->name`)."""
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return set(re.findall(r"(?<![\w:.>])[A-Za-z_]\w*", text))


def clashes(sources):
    """(name, declaring file, using file) for every name at risk in a batch of `sources`
    (path -> text)."""
    declared = {p: anonymous_names(t) for p, t in sources.items()}
    used = {p: words(t) for p, t in sources.items()}
    return sorted((name, a, b) for a in sources for name, alias in declared[a].items() for b in sources
                  if b != a and name in used[b] and not (alias and declared[b].get(name) == alias))


def read(patterns):
    out = {}
    for pattern in patterns:
        for path in sorted(glob.glob(os.path.join(ROOT, pattern))):
            with open(path, encoding="utf-8", errors="replace") as f:
                out[os.path.relpath(path, ROOT)] = f.read()
    return out


class UnityNamesTest(unittest.TestCase):
    def test_the_check_finds_a_hidden_name(self):
        a = "namespace pgconflint {\nnamespace {\n\nconstexpr int kTagDeprecated = 1;\n\n}  // namespace\n}\n"
        b = "namespace pgconflint {\nint Tag() { return kTagDeprecated; }  // kOther\n}\n"
        self.assertEqual(clashes({"a.cc": a, "b.cc": b}), [("kTagDeprecated", "a.cc", "b.cc")])
        self.assertEqual(clashes({"a.cc": a, "c.cc": b.replace("return kTagDeprecated", "return 2")}), [])

    def test_the_batched_targets_are_the_ones_checked(self):
        batched, by_folder = set(), set()
        for cmake in ("CMakeLists.txt", "tests/CMakeLists.txt"):
            with open(os.path.join(ROOT, cmake), encoding="utf-8") as f:
                text = f.read()
            batched |= set(re.findall(r"^pgc_unity\((\w+)\)", text, re.M))
            by_folder |= set(re.findall(r"^pgc_unity_by_folder\((\w+)\)", text, re.M))
        self.assertEqual(batched, set(TARGETS))
        self.assertEqual(by_folder, BY_FOLDER)

    def test_no_name_crosses_files_of_a_batched_target(self):
        for target, patterns in TARGETS.items():
            with self.subTest(target=target):
                sources = read(patterns)
                self.assertTrue(sources, patterns)
                self.assertEqual(clashes(sources), [])

    def test_no_name_crosses_files_of_a_folder_batch(self):
        with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
            cmake = f.read()
        for target in sorted(BY_FOLDER):
            listed = re.search(r"^add_library\(" + target + r" STATIC\s(.*?)\)", cmake, re.M | re.S)
            self.assertIsNotNone(listed, target)
            folders = {}
            for source in listed.group(1).split():
                if source.startswith("src/") and source.endswith(".cc"):
                    folders.setdefault(os.path.dirname(source), []).append(source)
            self.assertGreater(len(folders), 1, target)
            for folder, files in sorted(folders.items()):
                with self.subTest(target=target, folder=folder):
                    self.assertEqual(clashes(read(files)), [])


if __name__ == "__main__":
    unittest.main()
