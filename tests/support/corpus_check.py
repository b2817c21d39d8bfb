"""Helpers of the corpus suites (test_corpus.py, test_sql_corpus.py): reading expectation
lists, counting lines as PostgreSQL does, and checking a diagnostic's range."""


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
