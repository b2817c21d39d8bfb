"""Emacs (Debian 12: 28.2 with elpa-eglot 1.9) in batch mode with editors/emacs/pgconflint.el:
the modes it gives *.conf files (by name, by a first-line marker, by the data directory
around them; never another program's conf.d), and a real eglot session started after
eglot was loaded first and the options set after the file: the server receives the
configured profile (it used to get the defaults) and its diagnostics reach flymake.
The Lisp side is emacs_e2e.el.

Run: PGCONFLINT=build/pgconflint /usr/bin/python3 -m pytest tests/lsp/test_emacs.py
"""
import json
import os
import shutil
import subprocess
from pathlib import Path

from lspclient import REPO, binary

EMACS = shutil.which("emacs")


def run_emacs(tmp_path, mode, files, **extra):
    assert EMACS, "emacs is not installed (scripts/setup.sh --tests installs Debian's emacs-nox and elpa-eglot)"
    result = tmp_path / "result.json"
    env = dict(os.environ, HOME=str(tmp_path), PGC_REPO=str(REPO), PGC_MODE=mode, PGC_RESULT=str(result),
               PGC_FILES="\n".join(str(f) for f in files), **extra)
    run = subprocess.run([EMACS, "--batch", "--no-init-file", "-l", str(REPO / "tests/lsp/emacs_e2e.el")], env=env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert result.exists(), run.stderr + run.stdout
    return json.loads(result.read_text())


def messages(stream):
    """The JSON-RPC messages of a Content-Length framed byte stream."""
    out = []
    while stream:
        header, _, rest = stream.partition(b"\r\n\r\n")
        length = int(next(line.split(b":")[1] for line in header.split(b"\r\n")
                          if line.lower().startswith(b"content-length")))
        out.append(json.loads(rest[:length]))
        stream = rest[length:]
    return out


def tree(tmp_path, files):
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return [tmp_path / rel for rel in files]


def test_the_modes_follow_the_data_directory(tmp_path):
    files = {
        "deploy/db/postgresql.conf": "include_dir = 'conf.d'\n",
        "deploy/db/conf.d/10-memory.conf": "work_mem = '64MB'\n",     # the data directory includes conf.d
        "deploy/db/replica.conf": "hot_standby = on\n",                 # beside a postgresql.conf
        "deploy/db/pg_hba.conf": "local all all peer\n",
        "deploy/nginx/conf.d/default.conf": "server { listen 80; }\n",  # no postgresql.conf above
        "deploy/web/postgresql.conf": "port = 5433\n",                  # does not include conf.d
        "deploy/web/conf.d/site.conf": "server { listen 81; }\n",
        "notes/auth.conf": "# pgconflint: file-type=hba\nlocal all all peer\n",
    }
    modes = run_emacs(tmp_path, "modes", tree(tmp_path, files))
    got = {os.path.relpath(path, tmp_path): mode for path, mode in modes.items()}
    assert got["deploy/db/postgresql.conf"] == "pgconf-mode"
    assert got["deploy/db/conf.d/10-memory.conf"] == "pgconf-mode"
    assert got["deploy/db/replica.conf"] == "pgconf-mode"
    assert got["deploy/db/pg_hba.conf"] == "pghba-mode"
    assert got["notes/auth.conf"] == "pghba-mode"
    for other in ("deploy/nginx/conf.d/default.conf", "deploy/web/conf.d/site.conf"):
        assert not got[other].startswith("pg"), (other, got[other])


def test_eglot_loaded_first_keeps_the_configured_options(tmp_path):
    [conf] = tree(tmp_path, {"db/postgresql.conf": "work_mem = = 4MB\n"})
    log = tmp_path / "client.log"
    result = run_emacs(tmp_path, "eglot", [conf], PGCONFLINT=str(Path(binary()).resolve()), PGC_LOG=str(log))
    assert result["mode"] == "pgconf-mode"
    initialize = messages(log.read_bytes())[0]
    assert initialize["method"] == "initialize"
    assert initialize["params"]["initializationOptions"] == {"profile": {"ram": "1GB", "cpus": 2}, "run": "onType"}
    assert any("syntax error" in d for d in result["diagnostics"]), result
