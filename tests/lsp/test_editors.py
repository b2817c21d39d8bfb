"""The editor integrations in editors/: the VS Code extension compiles with
tsc against vscode-languageclient and its TextMate grammar tokenizes as
PostgreSQL does; the Helix, Emacs and Sublime files are well-formed and name
the server; every integration attaches the server to pg_hba.conf and
pg_ident.conf (as languages of their own) as well as to postgresql.conf;
editors/README.md covers each editor.

The npm packages are installed at test time into $PGCONFLINT_NPM_CACHE (CTest:
BUILD/npm-cache; by hand: build/npm-cache), never into the repository, at the
versions editors/vscode/package.json pins.

Run: /usr/bin/python3 -m pytest tests/lsp/test_editors.py
"""
import importlib.util
import json
import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml

from lspclient import REPO, binary, cli_env

EDITORS = REPO / "editors"
VSCODE = EDITORS / "vscode"
CACHE = Path(os.environ.get("PGCONFLINT_NPM_CACHE") or REPO / "build" / "npm-cache")
# The grammar test's packages (not the extension's own dependencies).
TEXTMATE = {"vscode-textmate": "9.3.2", "vscode-oniguruma": "2.0.1"}
# The language (file type) of each kind of file, in every integration that
# has one language per kind; the server tells the kinds apart by file name.
LANGUAGES = {"postgresql.conf": "pgconf", "postgresql.auto.conf": "pgconf", "pg_hba.conf": "pghba",
             "pg_ident.conf": "pgident"}


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


# The attach rules of the integrations that decide by the data directory around a file (VS Code's
# src/detect.ts, Sublime Text's plugin; Neovim and Emacs are run on a tree of their own): a fragment
# its data directory includes, a file beside a postgresql.conf, a first-line marker; not nginx's or
# another program's conf.d.
DETECTION_TREE = {
    "deploy/db/postgresql.conf": "max_connections = 100\ninclude_dir = 'conf.d'\n",
    "deploy/db/conf.d/10-memory.conf": "work_mem = '64MB'\n",
    "deploy/db/tuning.conf": "work_mem = '8MB'\n",
    "deploy/db/hba/pg_hba.conf": "include_dir hba.d\n", "deploy/db/hba/hba.d/10-app.conf": "local all all peer\n",
    "deploy/nginx/conf.d/default.conf": "server { listen 80; }\n",
    "deploy/web/app.conf": "include conf.d/*.conf\n", "deploy/web/conf.d/site.conf": "x = 1\n",
    "deploy/db/unrelated/x.conf": "a = 1\n",
    "deploy/db/d/y.conf": "a = 1\n",  # "d" is in `include_dir = 'conf.d'`, not a component of it
    "auth/clients.conf": "# pgconflint: file-type=hba\nhost all all 0.0.0.0/0 trust\n",
    "auth/users.conf": "# pgconflint: file-type=ident\nmymap alice alice\n",
}
DETECTED = {"deploy/db/conf.d/10-memory.conf": "pgconf", "deploy/db/tuning.conf": "pgconf",
            "deploy/db/hba/hba.d/10-app.conf": "pghba", "deploy/nginx/conf.d/default.conf": None,
            "deploy/web/conf.d/site.conf": None, "deploy/db/unrelated/x.conf": None, "deploy/db/d/y.conf": None,
            "deploy/web/app.conf": None, "auth/clients.conf": "pghba", "auth/users.conf": "pgident"}


def write_tree(root, tree):
    for name, text in tree.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_pgconflint_reads_marked_files_as_the_editors_do(tmp_path):
    """A `.conf` the editors open as pghba or pgident by its first line's marker is read by
    pgconflint (the CLI and the server share the classifier) as that file, and the marker is no
    malformed directive."""
    write_tree(tmp_path, DETECTION_TREE)
    marked = {name: DETECTED[name] for name, text in DETECTION_TREE.items() if "file-type=" in text}
    assert set(marked.values()) == {"pghba", "pgident"}
    for name, language in marked.items():
        kind = {"pgconf": "conf", "pghba": "hba", "pgident": "ident"}[language]
        run = subprocess.run([binary(), "check", "--verbose", "--format", "json", "--fail-on", "never", name],
                             cwd=tmp_path, capture_output=True, text=True, env=cli_env(), timeout=60)
        assert run.returncode == 0, run.stderr
        assert f"its first line says file-type={kind}" in run.stderr, run.stderr
        codes = [d["code"] for d in json.loads(run.stdout)["diagnostics"]]
        assert "PGC903" not in codes, codes
        if kind == "hba":
            assert "PGC835" in codes, codes  # its `trust` from 0.0.0.0/0, read as a pg_hba.conf line


def test_the_vscode_extension_compiles_with_tsc(node_modules, tmp_path):
    work = tmp_path / "vscode"
    shutil.copytree(VSCODE, work, ignore=shutil.ignore_patterns("node_modules", "out"))
    (work / "node_modules").symlink_to(node_modules)
    run = subprocess.run([str(node_modules / ".bin" / "tsc"), "-p", str(work)], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    compiled = (work / "out" / "extension.js").read_text()
    assert "vscode-languageclient/node" in compiled and ("'server'" in compiled or '"server"' in compiled)
    # The compiled detection (it needs no VS Code): DETECTION_TREE's files.
    write_tree(tmp_path, DETECTION_TREE)
    probe = ("const d = require(process.argv[1]); const out = {};"
             "for (const f of process.argv.slice(2)) out[f] = d.postgresLanguage(f) ?? null;"
             "console.log(JSON.stringify(out));")
    files = [str(tmp_path / name) for name in DETECTED]
    run = subprocess.run(["node", "-e", probe, str(work / "out" / "detect.js"), *files], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    found = {os.path.relpath(f, tmp_path): language for f, language in json.loads(run.stdout).items()}
    assert found == DETECTED


def test_the_vscode_manifest(node_modules):
    package = json.loads((VSCODE / "package.json").read_text())
    languages = {language["id"]: language for language in package["contributes"]["languages"]}
    assert set(languages) == {"pgconf", "pghba", "pgident"}
    # Each file name is claimed by exactly its language.
    for name, language in LANGUAGES.items():
        assert [lid for lid, entry in languages.items() if name in entry.get("filenames", [])] == [language], name
    for language in languages.values():
        configuration = json.loads((VSCODE / language["configuration"]).read_text())
        assert configuration["comments"]["lineComment"] == "#", language["id"]
    # The pgconf grammar describes postgresql.conf only.
    [grammar] = package["contributes"]["grammars"]
    assert grammar["language"] == "pgconf"
    assert (VSCODE / grammar["path"]).exists() and grammar["scopeName"] == "source.pgconf"
    # No claim by path pattern (every `**/conf.d/*.conf` took nginx's too): src/detect.ts decides.
    assert all("filenamePatterns" not in language for language in languages.values())
    assert languages["pgconf"]["firstLine"].startswith("^#")
    assert "workspaceContains:**/postgresql.conf" in package["activationEvents"]
    settings = package["contributes"]["configuration"]["properties"]
    assert {"pgconflint.serverPath", "pgconflint.path", "pgconflint.profile", "pgconflint.pgVersion", "pgconflint.run"} <= set(settings)
    assert package["main"] == "./out/extension.js"
    json.loads((VSCODE / "language-configuration.json").read_text())
    installed = json.loads((node_modules / "vscode-languageclient" / "package.json").read_text())
    assert installed["version"] == package["dependencies"]["vscode-languageclient"]


def test_the_vscode_client_selects_every_language():
    package = json.loads((VSCODE / "package.json").read_text())
    source = (VSCODE / "src/extension.ts").read_text()
    selector = re.search(r"documentSelector:\s*\[(.*?)\]", source, re.S).group(1)
    entries = re.findall(r"\{([^{}]*)\}", selector)
    assert all("scheme: 'file'" in entry for entry in entries), entries
    selected = [re.search(r"language: '([^']+)'", entry).group(1) for entry in entries]
    assert sorted(selected) == sorted(language["id"] for language in package["contributes"]["languages"])


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
    languages = {language["name"]: language for language in config["language"]}
    assert set(languages) == {"pgconf", "pghba", "pgident"}
    for name, language in LANGUAGES.items():
        claims = [n for n, entry in languages.items() if {"glob": name} in entry["file-types"]]
        assert claims == [language], name
    for language in languages.values():
        assert language["language-servers"] == ["pgconflint"], language["name"]
        assert language["comment-token"] == "#" and language["roots"] == languages["pgconf"]["roots"]
        assert language["scope"] == "source." + language["name"]
    # Only pgconf names a grammar: the pgconf grammar would misread the
    # records of pg_hba.conf and pg_ident.conf.
    assert languages["pgconf"]["grammar"] == "pgconf"
    assert "grammar" not in languages["pghba"] and "grammar" not in languages["pgident"]
    [grammar] = config["grammar"]
    assert grammar["name"] == "pgconf" and grammar["source"]["path"].endswith("/src/grammar")


def test_sample_configs_name_every_server_setting():
    """The Helix and Emacs samples list the initializationOptions keys in a comment: every key of
    the table in editors/README.md, so that none is known only to the VS Code users."""
    readme = (EDITORS / "README.md").read_text()
    table = readme[readme.index("| key | value | default |"):]
    table = table[:table.index("\n\n")]
    keys = re.findall(r"^\| `([\w-]+)` \|", table, re.M)
    assert len(keys) >= 6, keys
    helix = (EDITORS / "helix/languages.toml").read_text()
    comment = " ".join(l for l in helix.splitlines() if l.startswith("#"))
    emacs = (EDITORS / "emacs/pgconflint.el").read_text()
    docstring = re.search(r'pgconflint-initialization-options .*?\n  "((?:[^"\\]|\\.)*)"', emacs, re.S).group(1)
    for key in keys:
        assert re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", comment), f"Helix's comment lacks {key}"
        assert f":{key}" in docstring, f"pgconflint-initialization-options' docstring lacks :{key}"


def elisp_string(text):
    """The value of an Emacs Lisp string literal's contents."""
    return re.sub(r"\\(.)", r"\1", text)


def emacs_regexp(regexp):
    """An Emacs regexp (the subset auto-mode-alist entries use) as a Python one."""
    out, i = [], 0
    while i < len(regexp):
        c = regexp[i]
        if c == "\\" and i + 1 < len(regexp):
            n = regexp[i + 1]
            out.append({"(": "(", ")": ")", "|": "|", "'": r"\Z", "`": r"\A"}.get(n, "\\" + n))
            i += 2
            continue
        out.append("\\" + c if c in "(){}|" else c)
        i += 1
    return "".join(out)


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
    # Each file gets its mode (the first match in auto-mode-alist, to which
    # add-to-list prepends) ...
    entries = re.findall(r"""\(add-to-list 'auto-mode-alist '\("((?:[^"\\]|\\.)*)" \. ([\w-]+)\)\)""", text)
    assert entries
    alist = [(re.compile(emacs_regexp(elisp_string(regexp))), mode) for regexp, mode in reversed(entries)]

    def mode_of(path):
        return next((mode for regexp, mode in alist if regexp.search(path)), None)

    for name, language in LANGUAGES.items():
        assert mode_of("/etc/postgresql/17/main/" + name) == language + "-mode", name
        assert mode_of("/srv/" + name) == language + "-mode", name
    # A conf.d fragment is PostgreSQL's by the data directory around it, not by its name
    # (pgconflint-file-mode in magic-mode-alist; test_emacs.py runs it in a real Emacs).
    assert mode_of("/etc/postgresql/17/main/conf.d/tuning.conf") is None
    assert "magic-mode-alist" in text
    assert mode_of("/etc/postgresql/17/main/my_pg_hba.conf") is None
    parents = dict(re.findall(r"\(define-derived-mode ([\w-]+) ([\w-]+) ", text))

    def derives_from_prog_mode(mode):
        while mode in parents:
            mode = parents[mode]
        return mode == "prog-mode"

    for mode in ("pgconf-mode", "pghba-mode", "pgident-mode"):
        assert mode in parents and derives_from_prog_mode(mode), mode
    # ... and every mode gets the server: one eglot entry for the three modes,
    # and lsp-mode's language id of each mode activates the client.
    eglot_modes = re.search(r"eglot-server-programs\s+'\(\(([\w\s-]+)\)", text).group(1).split()
    assert sorted(eglot_modes) == ["pgconf-mode", "pghba-mode", "pgident-mode"]
    language_ids = dict(re.findall(r"""'lsp-language-id-configuration '\(([\w-]+) \. "(\w+)"\)""", text))
    assert language_ids == {"pgconf-mode": "pgconf", "pghba-mode": "pghba", "pgident-mode": "pgident"}
    activation = re.search(r"\(lsp-activate-on((?: \"\w+\")+)\)", text).group(1)
    assert sorted(re.findall(r"\w+", activation)) == ["pgconf", "pghba", "pgident"]
    emacs = shutil.which("emacs")
    if emacs:
        run = subprocess.run([emacs, "--batch", "-l", str(EDITORS / "emacs/pgconflint.el")], capture_output=True,
                             text=True, timeout=60)
        assert run.returncode == 0, run.stderr


def test_sublime_files():
    settings = (EDITORS / "sublime/LSP.sublime-settings").read_text()
    client = json.loads(re.sub(r"^\s*//.*$", "", settings, flags=re.M))["clients"]["pgconflint"]
    assert client["command"] == ["pgconflint", "server"]
    selected = {scope.strip() for scope in client["selector"].split("|")}
    assert selected == {"source.pgconf", "source.pgauth"}
    syntaxes = {path.name: yaml.safe_load(path.read_text())
                for path in sorted((EDITORS / "sublime").glob("*.sublime-syntax"))}
    assert syntaxes["pgconf.sublime-syntax"]["scope"] == "source.pgconf"
    assert syntaxes["pgauth.sublime-syntax"]["scope"] == "source.pgauth"
    # Sublime Text gives a file the syntax one of whose file_extensions is the
    # file's name or the end of it after a dot; the LSP client starts for the
    # syntaxes whose scope the selector takes.
    for name in LANGUAGES:
        claims = [syntax["scope"] for syntax in syntaxes.values()
                  if any(name == ext or name.endswith("." + ext) for ext in syntax["file_extensions"])]
        assert len(claims) == 1 and claims[0] in selected, (name, claims)
    for name in ("pg_hba.conf", "pg_ident.conf"):
        assert name in syntaxes["pgauth.sublime-syntax"]["file_extensions"]
    comment = syntaxes["pgauth.sublime-syntax"]["contexts"]["main"][0]
    assert re.fullmatch(comment["match"], "# TYPE  DATABASE  USER  ADDRESS  METHOD")
    assert comment["scope"].startswith("comment.line.")


def test_the_sublime_plugin_detects_by_the_data_directory(tmp_path):
    """pgconflint_detect.py's rules (imported without Sublime Text) give the same languages as
    VS Code's on the same tree; the syntaxes' first_line_match take the markers."""
    spec = importlib.util.spec_from_file_location("pgconflint_detect", EDITORS / "sublime/pgconflint_detect.py")
    detect = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(detect)
    write_tree(tmp_path, DETECTION_TREE)
    found = {name: detect.postgres_language(str(tmp_path / name)) for name in DETECTED}
    assert found == DETECTED
    assert detect.postgres_language(str(tmp_path / "deploy/db/missing.conf")) == "pgconf"  # beside postgresql.conf
    assert detect.postgres_language(str(tmp_path / "deploy/db/postgresql.conf.bak")) is None
    assert set(detect.SYNTAXES.values()) == {"Packages/User/" + p.name for p in (EDITORS / "sublime").glob("*.sublime-syntax")}
    syntaxes = {path.name: yaml.safe_load(path.read_text()) for path in (EDITORS / "sublime").glob("*.sublime-syntax")}
    marker = {"pgconf.sublime-syntax": ["conf"], "pgauth.sublime-syntax": ["hba", "ident"]}
    for name, kinds in marker.items():
        first_line = re.compile(syntaxes[name]["first_line_match"])
        for kind in ("conf", "hba", "ident"):
            for line in (f"# pgconflint: file-type={kind}", f"  #pgconflint:file-type = {kind}  "):
                assert bool(first_line.search(line)) == (kind in kinds), (name, line)
        assert not first_line.search("# pgconflint: file-type=confx")


def test_the_readme_says_how_to_use_each_editor():
    readme = (EDITORS / "README.md").read_text()
    for heading in ("## Neovim", "## VS Code", "## Helix", "## Emacs", "## Sublime Text"):
        assert heading in readme, heading
    for option in ("profile", "pg-version", "run", "extra-rules"):
        assert f"`{option}`" in readme, option
