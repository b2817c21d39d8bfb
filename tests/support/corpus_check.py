"""Helpers of the corpus suites (test_corpus.py, test_sql_corpus.py): reading expectation
lists, counting lines as PostgreSQL does, and checking a diagnostic's range."""
import collections
import json
import os


def expectation_lines(out):
    """`FILE:LINE: CODE name` per finding of a `check --format json` run, sorted."""
    return sorted(f"{d['file']}:{d['line']}: {d['code']} {d['name']}" for d in out["diagnostics"])


def read_expectations(path):
    """The finding lines of an expectation file (comments and blank lines skipped)."""
    with open(path, encoding="utf-8") as f:
        return [ln.rstrip("\n") for ln in f if ln.strip() and not ln.startswith("#")]


def file_lines(path):
    """The lines of `path` as PostgreSQL's lexer counts them: split at \\n only, decoded
    as UTF-8 (invalid bytes count one character each), a line's trailing \\r dropped."""
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


def range_problems(diag, lines):
    """What is wrong with the range of `diag` in a file with `lines` (empty when fine)."""
    problems = []
    for kline, kcol in (("line", "column"), ("end_line", "end_column")):
        line, col = diag.get(kline), diag.get(kcol)
        if not isinstance(line, int) or not isinstance(col, int):
            problems.append(f"{kline}:{kcol} is {line!r}:{col!r}")
            continue
        if not 1 <= line <= max(1, len(lines)):
            problems.append(f"{kline} {line} outside 1..{len(lines)}")
            continue
        width = len(lines[line - 1]) if lines else 0
        if not 1 <= col <= width + 1:
            problems.append(f"{kcol} {col} outside 1..{width + 1} on line {line}")
    if not problems and (diag["end_line"], diag["end_column"]) < (diag["line"], diag["column"]):
        problems.append("end before start")
    return problems


def describe(diag):
    return (f"{diag['file']}:{diag['line']}:{diag['column']}: {diag['severity']} "
            f"[{diag['code']}] {diag['message']}")


def assert_reviewed(test, got, path, root):
    """Asserts that the finding lines `got` are those listed in expectation file `path`.
    With UPDATE_CORPUS_EXPECTED set, first rewrites the list (keeping its # header) for a
    reviewer to read in the diff."""
    if os.environ.get("UPDATE_CORPUS_EXPECTED"):
        with open(path, encoding="utf-8") as f:
            header = [ln for ln in f if ln.startswith("#")]
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(header)
            f.write("\n".join(got) + "\n")
    expected = read_expectations(path)
    missing = sorted((collections.Counter(expected) - collections.Counter(got)).elements())
    new = sorted((collections.Counter(got) - collections.Counter(expected)).elements())
    test.assertEqual((missing, new), ([], []),
                     f"findings differ from {os.path.relpath(path, root)}: {len(missing)} listed but not reported, "
                     f"{len(new)} reported but not listed; review each, then UPDATE_CORPUS_EXPECTED=1 rewrites the list")


class CheckOutputMixin:
    """check_output() for a unittest.TestCase: one `check --format json` run is well-formed."""

    def lines_of(self, path):
        if not hasattr(self, "_lines"):
            self._lines = {}
        if path not in self._lines:
            self._lines[path] = file_lines(path)
        return self._lines[path]

    def check_output(self, proc, paths, cwd):
        """Asserts that one `check --format json` run is well-formed; returns its JSON."""
        what = f"pgconflint check over {len(paths)} file(s) ({paths[0]}...)"
        self.assertIn(proc.returncode, (0, 1), f"{what}: exit {proc.returncode}\n{proc.stderr}")
        try:
            out = json.loads(proc.stdout)
        except json.JSONDecodeError as e:
            self.fail(f"{what}: invalid JSON ({e})\n{proc.stdout[:2000]}")
        self.assertEqual(out.get("version"), 1, what)
        self.assertEqual([r["path"] for r in out["roots"]], list(paths), what)
        for root in out["roots"]:
            self.assertNotIn("error", root, f"{what}: {root['path']} could not be read")
        roots = set(paths)
        counts = collections.Counter()
        bad = []
        for d in out["diagnostics"]:
            self.assertIn(d["root"], roots, f"{what}: diagnostic of an unknown root: {d}")
            self.assertIn(d["severity"], ("error", "warning", "info"), what)
            counts[d["severity"]] += 1
            for problem in range_problems(d, self.lines_of(os.path.join(cwd, d["file"]))):
                bad.append(f"{describe(d)}: {problem}")
            for step in d["include_chain"]:
                n = len(self.lines_of(os.path.join(cwd, step["file"])))
                if not 1 <= step["line"] <= max(1, n):
                    bad.append(f"{describe(d)}: include_chain {step} outside 1..{n}")
        self.assertEqual(bad, [], f"{what}: diagnostics outside their file")
        self.assertEqual(out["summary"], {"roots": len(paths), "errors": counts["error"],
                                          "warnings": counts["warning"], "info": counts["info"]},
                         f"{what}: summary does not count the diagnostics")
        return out
