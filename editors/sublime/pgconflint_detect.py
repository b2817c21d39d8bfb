"""pgconflint for Sublime Text: gives a PostgreSQL .conf file its syntax when its name does not.

The syntaxes claim postgresql.conf, postgresql.auto.conf, pg_hba.conf and pg_ident.conf by name
and any file whose first line is `# pgconflint: file-type=conf|hba|ident` (first_line_match).
This plugin adds the files that only their place makes PostgreSQL's, by the rules of the Neovim
plugin and the VS Code extension:
  - a .conf beside a postgresql.conf (its data or configuration directory);
  - a .conf in a directory that the postgresql.conf (or pg_hba.conf) of the directory above names
    as a path component of an include line (conf.d/10-memory.conf with `include_dir = 'conf.d'`).
Another program's conf.d (nginx's) has no such postgresql.conf: it keeps its syntax.

Put this file in your Packages/User folder beside pgconf.sublime-syntax and pgauth.sublime-syntax.
"""
import os
import re

try:
    import sublime_plugin
except ImportError:  # outside Sublime Text: the detection alone (the tests import it so)
    sublime_plugin = None

SYNTAXES = {
    "pgconf": "Packages/User/pgconf.sublime-syntax",
    "pghba": "Packages/User/pgauth.sublime-syntax",
    "pgident": "Packages/User/pgauth.sublime-syntax",
}
MARKER = re.compile(r"^\s*#\s*pgconflint:\s*file-type\s*=\s*([A-Za-z]+)")
MARKER_TYPES = {"conf": "pgconf", "hba": "pghba", "ident": "pgident"}
INCLUDE = re.compile(r"^\s*include\w*(?:\s*=\s*|\s+)'?([^'#]*)")


def _lines(path, limit):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            out = []
            for line in f:
                out.append(line.rstrip("\r\n"))
                if len(out) >= limit:
                    break
            return out
    except OSError:
        return []


def _includes(conf, name):
    """Whether an include line of `conf` names `name` as a component of its path."""
    for line in _lines(conf, 5000):
        m = INCLUDE.match(line)
        if m and name in [part for part in m.group(1).strip().split("/") if part]:
            return True
    return False


def postgres_language(path):
    """'pgconf', 'pghba' or 'pgident' when `path` is a PostgreSQL .conf file by its marker or its
    place; None otherwise (the file names themselves are the syntaxes' own)."""
    if not path or not path.endswith(".conf"):
        return None
    first = _lines(path, 1)
    m = MARKER.match(first[0]) if first else None
    if m:
        return MARKER_TYPES.get(m.group(1))
    directory = os.path.dirname(path)
    if os.path.isfile(os.path.join(directory, "postgresql.conf")):
        return "pgconf"
    parent, sub = os.path.dirname(directory), os.path.basename(directory)
    for name, language in (("postgresql.conf", "pgconf"), ("pg_hba.conf", "pghba")):
        conf = os.path.join(parent, name)
        if os.path.isfile(conf) and _includes(conf, sub):
            return language
    return None


if sublime_plugin:

    class PgconflintDetect(sublime_plugin.EventListener):
        def on_load(self, view):
            language = postgres_language(view.file_name())
            syntax = view.settings().get("syntax") or ""
            if language and not syntax.endswith(("pgconf.sublime-syntax", "pgauth.sublime-syntax")):
                view.assign_syntax(SYNTAXES[language])
