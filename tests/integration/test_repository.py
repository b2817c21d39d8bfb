#!/usr/bin/env python3
"""The repository stands alone: what its files cite must be inside it.

* No tracked file (`git ls-files`) cites a path outside the repository: the sibling
  checkout `../shared`, the absolute `/work` tree, or the outside reference document by
  name (see OUTSIDE). One exception: under tests/, `../shared/corpus` names the real-world
  corpus, test data the suites read (tests/integration/README.md).
* Every link to a Markdown anchor of the repository (`docs/postgresql-semantics.md#units`,
  `grammar.md#1-tokens`) names a Markdown file of the repository and an anchor that exists
  in it: an `<a id="...">` or a heading of that file. Comments cite these anchors instead of the outside reference, so a renamed heading
  must not leave them dangling.

The allow-list below is empty on purpose; a file that must cite an outside path needs a
reason next to its entry.

Usage: python3 tests/integration/test_repository.py [-v]
Needs: git. Outside a git checkout (a source tarball) the checks are skipped: only git says
which files are tracked.
"""
import os
import re
import subprocess
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# Spelled in pieces so that this file does not cite them itself.
OUTSIDE = [
    ("../" + "shared/").encode(),
    ("/" + "work/").encode(),
    ("pg-config-" + "semantics").encode(),
]
# Test data the suites read (tests may name it; nothing else may).
CORPUS = ("../" + "shared/corpus").encode()

# path -> why it may cite an outside path. Keep empty.
ALLOWED = {}

THIS = os.path.relpath(os.path.abspath(__file__), ROOT).replace(os.sep, "/")
MD_LINK = re.compile(rb"([A-Za-z0-9_./-]*\.md)#([A-Za-z0-9_-]+)")
SAME_FILE_LINK = re.compile(rb"\]\(#([A-Za-z0-9_-]+)\)")
ANCHOR_ID = re.compile(rb"<a\s+(?:id|name)=\"([^\"]+)\"")
HEADING = re.compile(rb"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def tracked_files(root=ROOT):
    """Tracked paths (relative, '/'-separated), or None when `root` is no git checkout.
    Raises RuntimeError when it is one but git cannot list it."""
    if not os.path.exists(os.path.join(root, ".git")):
        return None
    try:
        r = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, check=False)
    except FileNotFoundError:
        raise RuntimeError("git is not installed") from None
    if r.returncode != 0:
        raise RuntimeError("git ls-files failed: " + r.stderr.decode("utf-8", "replace").strip())
    return [p.decode("utf-8", "surrogateescape") for p in r.stdout.split(b"\0") if p]


def outside_citations(path, data):
    """(line number, line) of each line of `data` (the bytes of `path`) that cites a path
    outside the repository."""
    found = []
    in_tests = path.startswith("tests/")
    for n, line in enumerate(data.split(b"\n"), 1):
        rest = line.replace(CORPUS, b"") if in_tests else line
        if any(p in rest for p in OUTSIDE):
            found.append((n, line.decode("utf-8", "replace").strip()))
    return found


def github_slug(heading):
    """The anchor GitHub gives a heading: lower case, punctuation dropped, blanks to '-'."""
    text = re.sub(r"<[^>]*>", "", heading)
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors_of(data):
    """Every anchor a Markdown file defines: explicit <a id> and heading slugs."""
    ids = {m.decode() for m in ANCHOR_ID.findall(data)}
    ids |= {github_slug(h.decode("utf-8", "replace")) for h in HEADING.findall(data)}
    return ids


def resolve_md(link, source, md_files):
    """The tracked Markdown file `link` (as written in `source`) names, or None."""
    if "://" in link:
        return None
    base = os.path.dirname(source)
    candidate = os.path.normpath(os.path.join(base, link)).replace(os.sep, "/")
    if candidate in md_files:
        return candidate
    candidate = os.path.normpath(link).replace(os.sep, "/")  # written from the repository root
    return candidate if candidate in md_files else None


def read(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


class ScannerTest(unittest.TestCase):
    """The checks themselves, on planted text: a test that cannot fail is no test."""

    def test_outside_paths_are_found(self):
        for text in (b"see " + OUTSIDE[0] + b"reference/x.md", b"in " + OUTSIDE[1] + b"notes/a.md",
                     b"(" + OUTSIDE[2] + b".md section 3)"):
            self.assertEqual(len(outside_citations("src/core/x.h", b"ok\n" + text + b"\n")), 1, text)
            self.assertEqual(outside_citations("src/core/x.h", b"ok\n" + text)[0][0], 2)

    def test_corpus_only_inside_tests(self):
        line = b"reads " + CORPUS + b"/real-world"
        self.assertEqual(outside_citations("tests/integration/test_x.py", line), [])
        self.assertEqual(len(outside_citations("README.md", line)), 1)
        other = b"reads " + OUTSIDE[0] + b"reference and " + CORPUS
        self.assertEqual(len(outside_citations("tests/integration/test_x.py", other)), 1)

    def test_anchors(self):
        doc = b'# Title\n<a id="units"></a>\n## 1. Tokens\n### include_dir `x`\n'
        self.assertEqual(anchors_of(doc), {"units", "title", "1-tokens", "include_dir-x"})
        md = {"docs/a.md", "README.md"}
        self.assertEqual(resolve_md(b"a.md".decode(), "docs/b.md", md), "docs/a.md")
        self.assertEqual(resolve_md("docs/a.md", "src/core/x.h", md), "docs/a.md")
        self.assertEqual(resolve_md("../README.md", "docs/b.md", md), "README.md")
        self.assertIsNone(resolve_md("https://example.org/a.md", "README.md", md))
        self.assertEqual(SAME_FILE_LINK.findall(b"see [units](#units) and [x](y.md#z)"), [b"units"])


class RepositoryTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        files = tracked_files()
        if files is None:
            raise unittest.SkipTest("not a git checkout: nothing says which files are tracked")
        cls.files = [f for f in files if os.path.isfile(os.path.join(ROOT, f))]

    def test_tracked_files_listed(self):
        self.assertIn("tests/integration/test_repository.py", self.files)
        self.assertIn("docs/postgresql-semantics.md", self.files)

    def test_no_citation_outside_the_repository(self):
        bad = []
        for path in self.files:
            if path in ALLOWED:
                continue
            bad += [f"{path}:{n}: {line}" for n, line in outside_citations(path, read(path))]
        if bad:
            self.fail("cite docs/postgresql-semantics.md#<anchor> (or the PostgreSQL documentation) "
                      "instead of a path outside the repository:\n" + "\n".join(bad))

    def test_allow_list_is_current(self):
        for path, why in ALLOWED.items():
            self.assertIn(path, self.files, f"allow-list entry for a file that is not tracked ({why})")
            self.assertTrue(outside_citations(path, read(path)), f"{path} no longer needs its allow-list entry")

    def test_markdown_anchors_exist(self):
        md_files = {f for f in self.files if f.endswith(".md")}
        anchors = {f: anchors_of(read(f)) for f in md_files}
        bad = []
        for path in self.files:
            data = read(path)
            if b".md#" not in data and b"](#" not in data:
                continue
            for n, line in enumerate(data.split(b"\n"), 1):
                if path in md_files:
                    bad += [f"{path}:{n}: #{a.decode()}" for a in SAME_FILE_LINK.findall(line)
                            if a.decode() not in anchors[path]]
                for link, anchor in MD_LINK.findall(line):
                    written = link.decode("utf-8", "replace")
                    target = resolve_md(written, path, md_files)
                    if target is None and "://" not in written and path != THIS:  # its examples
                        bad.append(f"{path}:{n}: {written}: no such Markdown file")
                    elif target and anchor.decode() not in anchors[target]:
                        bad.append(f"{path}:{n}: {target}#{anchor.decode()}")
        if bad:
            self.fail("links to anchors that do not exist:\n" + "\n".join(bad))


if __name__ == "__main__":
    unittest.main()
