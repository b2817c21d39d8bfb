"""The editor integrations in editors/: the VS Code extension compiles with
tsc against vscode-languageclient and its TextMate grammar tokenizes as
PostgreSQL does; the Helix, Emacs and Sublime files are well-formed and name
the server; editors/README.md covers each editor.

The npm packages are installed at test time into $PGCONFLINT_NPM_CACHE (CTest:
BUILD/npm-cache; by hand: build/npm-cache), never into the repository, at the
versions editors/vscode/package.json pins.

Run: /usr/bin/python3 -m pytest tests/lsp/test_editors.py
"""
import json
import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from lspclient import REPO

EDITORS = REPO / "editors"
VSCODE = EDITORS / "vscode"
CACHE = Path(os.environ.get("PGCONFLINT_NPM_CACHE") or REPO / "build" / "npm-cache")
# The grammar test's packages (not the extension's own dependencies).
TEXTMATE = {"vscode-textmate": "9.3.2", "vscode-oniguruma": "2.0.1"}


@pytest.fixture(scope="module")
def node_modules():
    """The extension's dependencies and the grammar test's, installed once."""
    npm = shutil.which("npm")
    assert npm, "npm is required (scripts/setup.sh --tests installs it)"
    package = json.loads((VSCODE / "package.json").read_text())
    wanted = {**package["dependencies"], **package["devDependencies"], **TEXTMATE}
    CACHE.mkdir(parents=True, exist_ok=True)
    stamp = CACHE / "installed.json"
    if not stamp.exists() or json.loads(stamp.read_text()) != wanted:
        (CACHE / "package.json").write_text(json.dumps({"name": "pgconflint-editor-tests", "private": True}))
        subprocess.run([npm, "install", "--no-audit", "--no-fund", "--loglevel=error",
                        *[f"{name}@{version}" for name, version in sorted(wanted.items())]],
                       cwd=CACHE, check=True, timeout=600)
        stamp.write_text(json.dumps(wanted))
    return CACHE / "node_modules"


def test_the_vscode_extension_compiles_with_tsc(node_modules, tmp_path):
    work = tmp_path / "vscode"
    shutil.copytree(VSCODE, work, ignore=shutil.ignore_patterns("node_modules", "out"))
    (work / "node_modules").symlink_to(node_modules)
    run = subprocess.run([str(node_modules / ".bin" / "tsc"), "-p", str(work)], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    compiled = (work / "out" / "extension.js").read_text()
    assert "vscode-languageclient/node" in compiled and ("'server'" in compiled or '"server"' in compiled)


def test_the_vscode_manifest(node_modules):
    package = json.loads((VSCODE / "package.json").read_text())
    language = package["contributes"]["languages"][0]
    assert language["id"] == "pgconf"
    assert {"postgresql.conf", "postgresql.auto.conf"} <= set(language["filenames"])
    grammar = package["contributes"]["grammars"][0]
    assert (VSCODE / grammar["path"]).exists() and grammar["scopeName"] == "source.pgconf"
    settings = package["contributes"]["configuration"]["properties"]
    assert {"pgconflint.path", "pgconflint.profile", "pgconflint.pgVersion", "pgconflint.run"} <= set(settings)
    assert package["main"] == "./out/extension.js"
    json.loads((VSCODE / "language-configuration.json").read_text())
    installed = json.loads((node_modules / "vscode-languageclient" / "package.json").read_text())
    assert installed["version"] == package["dependencies"]["vscode-languageclient"]


def tokenize(node_modules, lines):
    run = subprocess.run(["node", str(REPO / "tests/lsp/tm_tokenize.js"), str(VSCODE / "syntaxes/pgconf.tmLanguage.json"),
                          str(node_modules)], input="\n".join(lines), capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def scope_of(tokens, text):
    return next(scope for t, scope in tokens if t == text)


def test_the_textmate_grammar_tokenizes_as_postgresql(node_modules):
    lines = ["shared_buffers = 128MB\t\t# min 128kB",
             "include_if_exists 'extra.conf'",
             "INCLUDE_DIR conf.d",
             "my.custom = .5",
             "jit = off",
             "wal_level = replica",
             "search_path = '\"$user\", public'",
             "  work_mem 64kB",
             "port = 0x10",
             "data_directory = /srv"]
    t = tokenize(node_modules, lines)
    assert scope_of(t[0], "shared_buffers") == "variable.other.property.pgconf"
    assert scope_of(t[0], "=") == "keyword.operator.assignment.pgconf"
    assert scope_of(t[0], "128MB") == "constant.numeric.pgconf"
    assert scope_of(t[0], "# min 128kB") == "comment.line.number-sign.pgconf"
    assert scope_of(t[1], "include_if_exists") == "keyword.control.import.pgconf"
    assert scope_of(t[1], "'extra.conf'") == "string.quoted.single.pgconf"
    assert scope_of(t[2], "INCLUDE_DIR") == "keyword.control.import.pgconf"
    assert scope_of(t[3], "my.custom") == "variable.other.property.pgconf"
    assert scope_of(t[3], ".5") == "constant.numeric.pgconf"
    assert scope_of(t[4], "off") == "constant.language.boolean.pgconf"
    assert scope_of(t[5], "replica") == "string.unquoted.pgconf"
    assert scope_of(t[6], "'\"$user\", public'") == "string.quoted.single.pgconf"
    assert scope_of(t[7], "work_mem") == "variable.other.property.pgconf"
    assert scope_of(t[8], "0x10") == "constant.numeric.pgconf"
    assert scope_of(t[9], "/") == "invalid.illegal.pgconf"  # guc-file.l: '/' cannot start a token


def test_helix_languages_toml():
    config = tomllib.loads((EDITORS / "helix/languages.toml").read_text())
    server = config["language-server"]["pgconflint"]
    assert server["command"] == "pgconflint" and server["args"] == ["server"]
    language = config["language"][0]
    assert language["name"] == "pgconf" and language["language-servers"] == ["pgconflint"]
    assert {"glob": "postgresql.conf"} in language["file-types"]
    grammar = config["grammar"][0]
    assert grammar["name"] == "pgconf" and grammar["source"]["path"].endswith("/src/grammar")


def test_emacs_snippet_is_balanced_and_registers_the_server():
    text = (EDITORS / "emacs/pgconflint.el").read_text()
    # Strip strings and comments, then count parentheses.
    code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)
    code = re.sub(r";[^\n]*", "", code)
    code = re.sub(r"\?\\?.", "", code)  # character literals such as ?# and ?\n
    depth = 0
    for ch in code:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        assert depth >= 0
    assert depth == 0
    assert "eglot-server-programs" in text and "lsp-register-client" in text and '"server"' in text
    emacs = shutil.which("emacs")
    if emacs:
        run = subprocess.run([emacs, "--batch", "-l", str(EDITORS / "emacs/pgconflint.el")], capture_output=True,
                             text=True, timeout=60)
        assert run.returncode == 0, run.stderr


def test_sublime_files():
    settings = (EDITORS / "sublime/LSP.sublime-settings").read_text()
    client = json.loads(re.sub(r"^\s*//.*$", "", settings, flags=re.M))["clients"]["pgconflint"]
    assert client["command"] == ["pgconflint", "server"] and client["selector"] == "source.pgconf"
    assert "scope: source.pgconf" in (EDITORS / "sublime/pgconf.sublime-syntax").read_text()


def test_the_readme_says_how_to_use_each_editor():
    readme = (EDITORS / "README.md").read_text()
    for heading in ("## Neovim", "## VS Code", "## Helix", "## Emacs", "## Sublime Text"):
        assert heading in readme, heading
    for option in ("profile", "pg-version", "run", "extra-rules"):
        assert f"`{option}`" in readme, option
