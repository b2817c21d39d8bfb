"""End-to-end in headless Neovim (Debian 12 ships 0.7.2): the plugin in
editors/nvim starts `pgconflint server` for a postgresql.conf, the
diagnostics arrive, a code action is applied and the buffer and the
diagnostics change; for a pg_hba.conf and a pg_ident.conf it detects their
own file types and the server's diagnostics arrive. The Lua side is
nvim_e2e.lua.

Run: PGCONFLINT=build/pgconflint /usr/bin/python3 -m pytest tests/lsp/test_nvim.py
"""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from lspclient import REPO, binary, rule_code

NVIM = shutil.which("nvim")


def run_nvim(tmp_path, conf, **expect):
    """Runs nvim_e2e.lua on `conf` in a headless Neovim with a clean home;
    `expect` are its PGC_* variables (filetype, diagnostics, action). Returns
    what it saw and the Neovim process."""
    assert NVIM, "nvim is not installed (scripts/setup.sh --tests installs Debian's neovim)"
    result_file = tmp_path / "result.json"
    env = dict(os.environ, PGC_REPO=str(REPO), PGCONFLINT=str(Path(binary()).resolve()), PGC_FILE=str(conf),
               PGC_RESULT=str(result_file), HOME=str(tmp_path), XDG_CACHE_HOME=str(tmp_path / "cache"),
               XDG_STATE_HOME=str(tmp_path / "state"), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    env.update({f"PGC_{key.upper()}": str(value) for key, value in expect.items()})
    run = subprocess.run([NVIM, "--headless", "--clean", "-n", "-c", "luafile " + str(REPO / "tests/lsp/nvim_e2e.lua")],
                         env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result_file.exists(), run.stderr + run.stdout
    return json.loads(result_file.read_text()), run


def test_headless_neovim_gets_diagnostics_and_applies_a_code_action(tmp_path):
    data = tmp_path / "etc" / "postgresql" / "17" / "main"
    data.mkdir(parents=True)
    conf = data / "postgresql.conf"
    conf.write_text("sort_mem = '4MB'\nwork_mem = 64 MB\n")
    result, run = run_nvim(tmp_path, conf, filetype="pgconf", diagnostics=2, action="Rename to work_mem")
    assert result["ok"], result
    assert result["filetype"] == "pgconf"
    assert result["before"] == sorted([rule_code("renamed-parameter"), rule_code("syntax-error")])
    assert "Rename to work_mem" in result["steps"]
    assert result["lines"] == ["work_mem = '4MB'", "work_mem = 64 MB"]
    assert result["after"] == [rule_code("syntax-error")]
    assert run.returncode == 0
    # The file on disk is untouched: the edit is in the buffer.
    assert conf.read_text() == "sort_mem = '4MB'\nwork_mem = 64 MB\n"


@pytest.mark.parametrize("name, text, filetype, rule", [
    # PostgreSQL refuses the file for this line: a /33 mask.
    ("pg_hba.conf", "host all all 10.0.0.0/33 trust\n", "pghba", "hba-line-refused"),
    # ... and this one: an unbalanced regular expression.
    ("pg_ident.conf", "admins /( postgres\n", "pgident", "ident-line-refused"),
])
def test_headless_neovim_attaches_the_server_to_the_authentication_files(tmp_path, name, text, filetype, rule):
    data = tmp_path / "etc" / "postgresql" / "17" / "main"
    data.mkdir(parents=True)
    conf = data / name
    conf.write_text(text)
    result, run = run_nvim(tmp_path, conf, filetype=filetype, diagnostics=1, action="")
    assert result["ok"], result
    assert result["filetype"] == filetype
    assert result["clients"] == ["pgconflint"]
    assert result["before"] == [rule_code(rule)]
    assert run.returncode == 0
    assert conf.read_text() == text


def test_headless_neovim_claims_fragments_by_their_data_directory(tmp_path):
    """deploy/db/conf.d/10-memory.conf, which deploy/db/postgresql.conf includes, is pgconf and
    gets the server's diagnostics; deploy/nginx/conf.d/default.conf is not PostgreSQL's; a first
    line `# pgconflint: file-type=hba` makes any .conf pg_hba.conf."""
    db = tmp_path / "deploy" / "db"
    (db / "conf.d").mkdir(parents=True)
    (db / "postgresql.conf").write_text("max_connections = 100\ninclude_dir = 'conf.d'\n")
    fragment = db / "conf.d" / "10-memory.conf"
    fragment.write_text("work_mem = 64 MB\n")
    result, run = run_nvim(tmp_path, fragment, filetype="pgconf", diagnostics=1, action="")
    assert result["ok"], result
    assert result["before"] == [rule_code("syntax-error")]
    nginx = tmp_path / "deploy" / "nginx" / "conf.d"
    nginx.mkdir(parents=True)
    (nginx / "default.conf").write_text("server { listen 80; }\n")
    result, run = run_nvim(tmp_path, nginx / "default.conf", filetype="nginx", diagnostics=0, action="")  # Neovim's own
    assert result["ok"], result
    web = tmp_path / "deploy" / "web" / "conf.d"  # a name Neovim does not know: no file type
    web.mkdir(parents=True)
    (web / "default.conf").write_text("server { listen 80; }\n")
    (web.parent / "app.conf").write_text("include conf.d/*.conf\n")
    result, run = run_nvim(tmp_path, web / "default.conf", filetype="", diagnostics=0, action="")
    assert result["ok"], result
    marked = tmp_path / "auth" / "clients.conf"
    marked.parent.mkdir()
    marked.write_text("# pgconflint: file-type=hba\nhost all all 0.0.0.0/0 trust\n")
    result, run = run_nvim(tmp_path, marked, filetype="pghba", diagnostics=0, action="")
    assert result["ok"], result
