"""The editor's door of the one-verdict property (tests/integration/test_verdicts.py has
the others): every file of every fixture tree and of the real-world corpus, opened alone in
`pgconflint server`, gets the findings `pgconflint check` reports for it (one run over the
files of its tree, which tests/integration/test_verdicts.py proves equal to `check FILE`), in
the context of the roots that read it; a file that is not PostgreSQL configuration gets none.

Run: PGCONFLINT=build/pgconflint /usr/bin/python3 -m pytest tests/lsp/test_verdicts.py
"""
import json
import subprocess
import sys
from pathlib import Path

from lspclient import REPO, binary, cli_env

sys.path.insert(0, str(REPO / "tests" / "support"))
from verdict_trees import trees  # noqa: E402


def check_findings(files):
    """(line, code) of the findings `check` reports in each of `files` (0-based lines, as LSP).
    One `check` names all the files of a tree: a file's findings do not depend on which files
    are named (tests/integration/test_verdicts.py proves that door against `check FILE`), and
    one run per tree instead of one per file took this test from 66 s to 35 s under ASan."""
    r = subprocess.run([binary(), "check", "--format", "json", "--fail-on", "never", *files], cwd=REPO,
                       capture_output=True, text=True, errors="replace", timeout=600, env=cli_env())
    assert r.returncode == 0, r.stderr
    out = {f: [] for f in files}
    for d in json.loads(r.stdout)["diagnostics"]:
        if d["file"] in out:
            out[d["file"]].append((d["line"] - 1, d["code"]))
    return {f: sorted(v) for f, v in out.items()}


def test_the_editor_gives_each_file_the_findings_check_gives_it(start):
    opened = with_findings = 0
    for name, _, files in trees():
        expected = check_findings(files)
        c = start(root=REPO)
        c.initialize()
        for rel in files:
            path = REPO / rel
            try:
                text = path.read_text()
            except UnicodeDecodeError:
                continue  # JSON-RPC carries text: a binary fixture cannot be opened
            c.open(path, text)
            published = c.diagnostics(path, 1)
            mine = sorted((d["range"]["start"]["line"], d["code"]) for d in published
                          if not d["message"].startswith("pgconflint cannot check"))
            assert mine == expected[rel], f"{rel}: the editor and check disagree"
            with_findings += bool(mine)
            c.notify("textDocument/didClose", {"textDocument": {"uri": Path(path).resolve().as_uri()}})
            opened += 1
        c.shutdown()
    assert opened > 200 and with_findings > 100, (opened, with_findings)


def test_another_programs_conf_gets_no_diagnostics(start, tmp_path):
    # nginx's conf.d/default.conf is not PostgreSQL configuration: the editor shows nothing, as check says nothing.
    (tmp_path / "conf.d").mkdir()
    path = tmp_path / "conf.d" / "default.conf"
    path.write_text("server {\n  listen 80;\n  location / { root /var/www; }\n}\n")
    c = start()
    c.initialize()
    c.open(path)
    assert c.diagnostics(path, 1) == []
    # Typed into a PostgreSQL fragment, it is checked.
    c.change(path, 2, "work_mem = 64 MB\n")
    assert [d["code"] for d in c.diagnostics(path, 2)] == ["PGC001"]
