"""The features of `pgconflint server` with a real JSON-RPC client: the
diagnostics' fields, hover, completion, every code action applied and
re-linted, fix-all, the documentation command, inlay hints, document links,
definition, document symbols, references, rename and formatting.

Run: PGCONFLINT=build/pgconflint /usr/bin/python3 -m pytest tests/lsp/test_features.py
"""
import subprocess
from pathlib import Path

from lspclient import apply_edits, at, binary, catalog, cli_env, codes, rule_code, span, uri, write

RENAMED = rule_code("renamed-parameter")
OVERRIDDEN = rule_code("setting-overridden")
SYNTAX = rule_code("syntax-error")
UNUSED = rule_code("unused-suppression")


def test_diagnostic_fields(start, tmp_path):
    c = start()
    c.initialize()
    path = write(tmp_path, "postgresql.conf", "sort_mem = '4MB'\nport = 5432\nport = 5433\n")
    c.open(path)
    diags = {d["code"]: d for d in c.diagnostics(path, 1)}
    renamed, overridden = diags[RENAMED], diags[OVERRIDDEN]
    for d in (renamed, overridden):
        assert d["source"] == "pgconflint" and "data" in d
        page = Path(d["codeDescription"]["href"].removeprefix("file://"))
        assert page.name.endswith(".md")
    # A warning (2) and an information (3), as rules/core.toml grades them.
    assert (renamed["severity"], overridden["severity"]) == (2, 3)
    assert renamed["tags"] == [2] and overridden["tags"] == [1]
    assert renamed["range"] == span(0, 0, 0, len("sort_mem"))
    assert overridden["relatedInformation"][0]["location"]["range"]["start"]["line"] == 2
    # The page behind the link is the rule's documentation.
    page = Path(renamed["codeDescription"]["href"].removeprefix("file://"))
    c.wait_for(lambda c: page.exists(), what="the rule page")
    assert page.read_text().startswith("# renamed-parameter (" + RENAMED + ")")


def test_hover_on_a_parameter_and_on_a_rule_code(start, tmp_path):
    c = start()
    c.initialize()
    path = write(tmp_path, "postgresql.conf",
                 "io_max_concurrency = -1\nshared_buffers = 64kB  # pgconflint: disable=PGC202\n"
                 "wal_level = replica\nwal_level = logical\n")
    c.open(path)
    c.diagnostics(path, 1)
    facts = catalog("io_max_concurrency")
    text = c.request("textDocument/hover", at(path, 0, 3))["contents"]["value"]
    assert text.startswith("### io_max_concurrency")
    assert facts["short_desc"] in text
    assert f"`{facts['min_val']}` to `{facts['max_val']}`" in text
    assert f"**context**: {facts['context']}" in text
    assert "PostgreSQL " + ", ".join(str(m) for m in facts["majors"]) in text
    assert "**Effective**:" in text and "shared_buffers" in text  # -1: derived from shared_buffers
    rule = c.request("textDocument/hover", at(path, 1, 47))["contents"]["value"]
    assert rule.startswith("**PGC202** `value-out-of-range`")
    dead = c.request("textDocument/hover", at(path, 2, 2))["contents"]["value"]
    assert "**Overridden** by postgresql.conf:4" in dead
    enum = catalog("wal_level")
    assert all(f"`{v}`" in dead for v in enum["enumvals"])
    assert c.request("textDocument/hover", at(path, 2, 14)) is None  # on a value


def labels(result):
    return [i["label"] for i in result["items"]]


def test_completion_in_each_position(start, tmp_path):
    c = start()
    c.initialize()
    write(tmp_path, "conf.d/01.conf", "")
    write(tmp_path, "tuning.conf", "")
    write(tmp_path, ".hidden.conf", "")  # offered only after a '.' 
    path = write(tmp_path, "postgresql.conf",
                 "wor\nwal_level = \nwork_mem = 64\nwork_mem = 64M\n# pgconflint: disable=PGC2\n"
                 "include_dir 'co\ninclude 't\nfsync = \n")
    c.open(path)
    names = c.request("textDocument/completion", at(path, 0, 3))["items"]
    by_label = {i["label"]: i for i in names}
    assert "work_mem" in by_label and "include_dir" in by_label
    assert by_label["sort_mem"]["tags"] == [1]  # an old name, deprecated
    assert by_label["work_mem"]["textEdit"]["range"] == span(0, 0, 0, 3)
    assert "io_method" in by_label  # the file's major: 18 by default
    assert set(labels(c.request("textDocument/completion", at(path, 1, 12)))) == set(catalog("wal_level")["enumvals"])
    units = c.request("textDocument/completion", at(path, 2, 13))["items"]
    assert {u["textEdit"]["newText"] for u in units} == {"64B", "64kB", "64MB", "64GB", "64TB"}
    units = c.request("textDocument/completion", at(path, 3, 14))["items"]
    assert "64MB" in {u["textEdit"]["newText"] for u in units}
    assert units[0]["textEdit"]["range"] == span(3, 11, 3, 14)
    rules = labels(c.request("textDocument/completion", at(path, 4, 26)))
    assert "PGC201" in rules and "invalid-value" in rules and UNUSED not in rules
    assert labels(c.request("textDocument/completion", at(path, 5, 15))) == ["conf.d/"]
    assert labels(c.request("textDocument/completion", at(path, 6, 10))) == ["conf.d/", "postgresql.conf", "tuning.conf"]
    assert labels(c.request("textDocument/completion", at(path, 7, 8))) == ["on", "off"]


def test_build_dependent_values_in_completion_and_hover(start, tmp_path):
    # io_method's io_uring exists only in a server built with liburing: the
    # catalog (pg_settings of a build without it) lists it apart; completion
    # and hover offer it, saying what it needs, as `params` does.
    io_method = catalog("io_method")
    assert io_method["build_dependent_enumvals"] == ["io_uring"]
    c = start()
    c.initialize()
    path = write(tmp_path, "postgresql.conf", "io_method = \nio_method = io_uring\n")
    c.open(path)
    items = {i["label"]: i for i in c.request("textDocument/completion", at(path, 0, 12))["items"]}
    assert set(items) == set(io_method["enumvals"]) | {"io_uring"}
    assert "liburing" in items["io_uring"]["detail"] and "liburing" not in items["worker"]["detail"]
    hover = c.request("textDocument/hover", at(path, 1, 3))["contents"]["value"]
    values = next(line for line in hover.splitlines() if line.startswith("- **values**"))
    assert "`io_uring`" in values and "liburing" in values and "`worker`" in values


def actions_at(c, path, line, only=None):
    context = {"diagnostics": []}
    if only:
        context["only"] = only
    return c.request("textDocument/codeAction", {"textDocument": {"uri": uri(path)}, "range": span(line, 0),
                                                 "context": context})


def test_every_code_action_applied_and_relinted(start, tmp_path):
    c = start()
    c.initialize()
    text = "port = 5432\nsort_mem = '4MB'\nwork_mem = 64 MB\nport = 5433\n"
    write(tmp_path, "PG_VERSION", "18\n")  # the major is named: a rename is safe
    path = write(tmp_path, "postgresql.conf", text)
    c.open(path)
    before = c.diagnostics(path, 1)
    assert codes(before) == sorted([OVERRIDDEN, RENAMED, SYNTAX])
    version = 1

    def edit(new_text):
        nonlocal version
        version += 1
        c.change(path, version, new_text)
        return c.diagnostics(path, version)
    applied = 0
    for d in before:
        edit(text)  # each action starts from the original text
        actions = actions_at(c, path, d["range"]["start"]["line"])
        mine = [a for a in actions if a.get("diagnostics") and a["diagnostics"][0]["code"] == d["code"]]
        titles = [a["title"] for a in mine]
        assert f"Disable {d['code']} for this line" in titles
        assert f"Disable {d['code']} for this file" in titles
        assert f"Show documentation for {d['code']} ({a_name(d['code'])})" in titles
        for action in mine:
            if "edit" not in action:
                continue
            edit(text)
            after = edit(apply_edits(text, action["edit"]["changes"][uri(path)]))
            applied += 1
            assert UNUSED not in codes(after), action["title"]
            assert d["code"] not in codes(after), action["title"]
        if d["code"] == RENAMED:
            fix = next(a for a in mine if a["title"] == "Rename to work_mem")
            assert fix["isPreferred"] is True and fix["kind"] == "quickfix"
        if d["code"] == OVERRIDDEN:
            assert any(a["title"] == "Delete the overridden line" and a.get("isPreferred") for a in mine)
    assert applied >= 8  # three findings, each with two suppressions and its fixes


def a_name(code):
    names = {RENAMED: "renamed-parameter", OVERRIDDEN: "setting-overridden", SYNTAX: "syntax-error"}
    return names[code]


def test_fix_all_applies_every_safe_fix(start, tmp_path):
    c = start()
    c.initialize()
    text = "sort_mem = '4MB'\nport = 5432\nport = 5433\n"
    write(tmp_path, "PG_VERSION", "18\n")  # the major is named: a rename is safe
    path = write(tmp_path, "postgresql.conf", text)
    c.open(path)
    c.diagnostics(path, 1)
    actions = actions_at(c, path, 0, only=["source.fixAll"])
    assert [a["kind"] for a in actions] == ["source.fixAll.pgconflint"]
    fixed = apply_edits(text, actions[0]["edit"]["changes"][uri(path)])
    assert fixed == "work_mem = '4MB'\nport = 5433\n"
    c.change(path, 2, fixed)
    assert c.diagnostics(path, 2) == []
    assert actions_at(c, path, 0, only=["source.fixAll"]) == []


def test_a_unit_in_the_wrong_case_or_after_a_space_is_a_quick_fix(start, tmp_path):
    # The server refuses each of these lines (unit names are case-sensitive;
    # an unquoted value ends at the space); the quick fix spells the value as
    # `check --fix` does, and fix-all makes the three edits at once.
    c = start()
    c.initialize()
    text = "shared_buffers = '2gb'\nwork_mem = 64 MB\nmaintenance_work_mem = 512mb\nport = 5432\n"
    expected = "shared_buffers = '2GB'\nwork_mem = '64MB'\nmaintenance_work_mem = 512MB\nport = 5432\n"
    path = write(tmp_path, "postgresql.conf", text)
    c.open(path)
    assert sorted(d["range"]["start"]["line"] for d in c.diagnostics(path, 1)) == [0, 1, 2]
    fixed = text
    for line in range(3):
        quick = [a for a in actions_at(c, path, line) if a.get("kind") == "quickfix" and a.get("isPreferred")]
        assert len(quick) == 1 and "edit" in quick[0], [a["title"] for a in quick]
        fixed = apply_edits(fixed, quick[0]["edit"]["changes"][uri(path)])
        assert fixed.splitlines()[line] == expected.splitlines()[line]
        c.change(path, line + 2, fixed)
        c.diagnostics(path, line + 2)
    assert fixed == expected
    assert [d["message"] for d in c.diagnostics(path, 4) if d["severity"] == 1] == []  # no error left
    c.change(path, 5, text)
    c.diagnostics(path, 5)
    fix_all = actions_at(c, path, 0, only=["source.fixAll"])
    assert apply_edits(text, fix_all[0]["edit"]["changes"][uri(path)]) == expected


def test_show_documentation_opens_the_rule_page(start, tmp_path):
    c = start()
    c.initialize()
    path = write(tmp_path, "postgresql.conf", "sort_mem = '4MB'\n")
    c.open(path)
    c.diagnostics(path, 1)
    action = next(a for a in actions_at(c, path, 0) if a["title"].startswith("Show documentation"))
    assert c.request("workspace/executeCommand", action["command"]) is None
    shown = c.wait_for(lambda c: c.shown("window/showDocument"), what="showDocument")[0]
    page = Path(shown["uri"].removeprefix("file://"))
    assert page.read_text().startswith("# renamed-parameter")
    error = c.request_error("workspace/executeCommand", {"command": "pgconflint.showDocumentation",
                                                         "arguments": ["PGC999"]})
    assert error["code"] == -32602


def human(size):
    """Bytes in the largest unit that divides them, as pgconflint displays sizes."""
    for unit, factor in (("TB", 1 << 40), ("GB", 1 << 30), ("MB", 1 << 20), ("kB", 1 << 10)):
        if size >= factor and size % factor == 0:
            return f"{size // factor}{unit}"
    return f"{size}B"


def test_inlay_hints_links_definition_and_symbols(start, tmp_path):
    c = start()
    c.initialize()
    write(tmp_path, "conf.d/a.conf", "port = 5433\n")
    path = write(tmp_path, "postgresql.conf",
                 "port = 5432\ninclude_dir 'conf.d'\nio_combine_limit = 1MB\ninclude_if_exists 'missing.conf'\n")
    c.open(path)
    c.diagnostics(path, 1)
    hints = c.request("textDocument/inlayHint", {"textDocument": {"uri": uri(path)}, "range": span(0, 0, 4, 0)})
    # 1MB is over io_max_combine_limit's default, which caps it.
    cap = catalog("io_max_combine_limit")
    cap_bytes = int(cap["boot_val"]) * int(cap["unit"].removesuffix("kB")) * 1024
    assert [h["label"] for h in hints] == ["overridden by conf.d/a.conf:1", f"{human(cap_bytes)} effective"]
    assert hints[1]["position"] == {"line": 2, "character": len("io_combine_limit = 1MB")}
    links = c.request("textDocument/documentLink", {"textDocument": {"uri": uri(path)}})
    assert [(l["range"], l["target"]) for l in links] == [(span(1, 13, 1, 19), uri(tmp_path / "conf.d"))]
    definition = c.request("textDocument/definition", at(path, 0, 2))
    assert definition["uri"] == uri(tmp_path / "conf.d/a.conf")
    assert definition["range"]["start"] == {"line": 0, "character": 0}
    into = c.request("textDocument/definition", at(path, 1, 15))
    assert [d["uri"] for d in into] == [uri(tmp_path / "conf.d/a.conf")]
    symbols = c.request("textDocument/documentSymbol", {"textDocument": {"uri": uri(path)}})
    assert [(s["name"], s["detail"]) for s in symbols] == [
        ("port", "5432"), ("include_dir", "'conf.d'"), ("io_combine_limit", "1MB"),
        ("include_if_exists", "'missing.conf'")]


HBA = "local all all peer\nhost all all 0.0.0.0/0 md5\nhost all all 10.0.0.0/8 ident map=m\nhos\n" \
      "hostssl all all 10.0.0.0/8 cert clientc\n"


def hover_text(c, path, line, character):
    result = c.request("textDocument/hover", at(path, line, character))
    return result and result["contents"]["value"]


def test_pg_hba_and_pg_ident_hover_completion_symbols_and_actions(start, tmp_path):
    c = start()
    c.initialize()
    write(tmp_path, "pg_ident.conf", "sso  alice  bob\nsso  carol  carol\nlocal  /^(.*)$  \\1\n")
    path = write(tmp_path, "pg_hba.conf", HBA)
    c.open(path)
    hba_codes = codes(c.diagnostics(path, 1))
    assert rule_code("hba-trust") not in hba_codes and rule_code("hba-md5-method") in hba_codes
    # Hover: the field's meaning and the word's, over the word's range.
    method = c.request("textDocument/hover", at(path, 1, 24))
    assert method["range"] == span(1, 23, 1, 26)
    assert method["contents"]["value"].startswith("**authentication method**: `md5`\n\n")
    assert hover_text(c, path, 1, 15).startswith("**client address**: `0.0.0.0/0`")
    assert hover_text(c, path, 0, 2).startswith("**connection type**: `local`\n\n")
    assert hover_text(c, path, 0, 6).startswith("**database**: `all`")
    assert hover_text(c, path, 2, 32).startswith("**option**")
    # Completion: by the field at the cursor, replacing the token typed so far.
    first = c.request("textDocument/completion", at(path, 3, 3))["items"]
    assert {"local", "host", "hostssl", "hostnossl"} <= set(labels({"items": first}))
    assert all(i["textEdit"]["range"] == span(3, 0, 3, 3) for i in first)
    methods = labels(c.request("textDocument/completion", at(path, 1, 24)))
    assert {"scram-sha-256", "md5", "trust", "reject", "cert"} <= set(methods) and "local" not in methods
    databases = labels(c.request("textDocument/completion", at(path, 1, 6)))
    assert {"all", "replication", "sameuser"} <= set(databases) and "md5" not in databases
    maps = c.request("textDocument/completion", at(path, 2, 35))["items"]
    assert sorted(i["label"] for i in maps) == ["map=local", "map=sso"]
    assert maps[0]["textEdit"]["range"] == span(2, 30, 2, 35)
    options = labels(c.request("textDocument/completion", at(path, 4, 40)))
    assert "clientcert=" in options and "map=" in options and "ldapserver=" not in options
    # Document symbols: one per record, its fields as one line.
    symbols = c.request("textDocument/documentSymbol", {"textDocument": {"uri": uri(path)}})
    assert [s["name"] for s in symbols] == [line.strip() for line in HBA.splitlines()]
    # The code actions of an hba finding: its fix applies and the finding goes.
    md5 = next(a for a in actions_at(c, path, 1) if a["title"] == "Use scram-sha-256")
    c.change(path, 2, apply_edits(HBA, md5["edit"]["changes"][uri(path)]))
    assert rule_code("hba-md5-method") not in codes(c.diagnostics(path, 2))
    # pg_ident.conf: the map field completes to the file's maps.
    ident = tmp_path / "pg_ident.conf"
    c.open(ident)
    c.diagnostics(ident, 1)
    assert set(labels(c.request("textDocument/completion", at(ident, 0, 2)))) == {"sso", "local"}
    assert hover_text(c, ident, 0, 1).startswith("**map name**: `sso`")


def test_module_parameters_hover_and_complete(start, tmp_path):
    c = start()
    c.initialize()
    text = "shared_preload_libraries = 'pg_stat_statements'\npg_stat_statements.max = 'lots'\n" \
           "pg_stat_statements.track = t\nauto_explain.log_min_duration = 1\npg_stat\n"
    path = write(tmp_path, "postgresql.conf", text)
    c.open(path)
    c.diagnostics(path, 1)
    facts = catalog("pg_stat_statements.max", module=True)
    hover = hover_text(c, path, 1, 5)
    assert hover.startswith("### pg_stat_statements.max\n\n" + facts["short_desc"])
    assert "Defined by the module `pg_stat_statements`, which `shared_preload_libraries` loads" in hover
    assert f"`{facts['min_val']}` to `{facts['max_val']}`" in hover and f"**context**: {facts['context']}" in hover
    assert "PostgreSQL " + ", ".join(str(m) for m in facts["majors"]) in hover
    assert "**Refused** by the server" in hover  # 'lots' is not an integer: the server warns and keeps the default
    unloaded = hover_text(c, path, 3, 3)
    assert "module `auto_explain`, which no `*_preload_libraries` setting of this configuration loads" in unloaded
    track = catalog("pg_stat_statements.track", module=True)
    assert labels(c.request("textDocument/completion", at(path, 2, 28))) == track["enumvals"]
    names = c.request("textDocument/completion", at(path, 4, 7))["items"]
    module_names = [i for i in names if i["label"].startswith("pg_stat_statements.")]
    assert "pg_stat_statements.max" in [i["label"] for i in module_names]
    assert all(i["detail"].endswith(" · module pg_stat_statements") for i in module_names)


def test_references_and_rename_of_a_user_name_map(start, tmp_path):
    """A map name: its map= options in pg_hba.conf and its lines in pg_ident.conf, from either
    file; rename edits them all; another map and a method are not renamed."""
    c = start()
    caps = {"textDocument": {"publishDiagnostics": {"relatedInformation": True}, "rename": {"prepareSupport": True}}}
    result = c.initialize(capabilities=caps)
    assert result["capabilities"]["referencesProvider"] is True
    assert result["capabilities"]["renameProvider"] == {"prepareProvider": True}
    write(tmp_path, "postgresql.conf", "listen_addresses = '*'\n")
    ident = write(tmp_path, "pg_ident.conf", "sso  alice  bob\nother  carol  carol\nsso  dave  dave\n")
    hba = write(tmp_path, "pg_hba.conf", "local all all peer map=sso\nhost all all 10.0.0.0/8 cert map=other\n"
                                         "hostssl all all 10.1.0.0/16 cert map=sso\n")
    c.open(hba)
    c.diagnostics(hba, 1)
    refs = c.request("textDocument/references", dict(at(hba, 0, 24), context={"includeDeclaration": True}))
    found = sorted((r["uri"].rsplit("/", 1)[1], r["range"]["start"]["line"], r["range"]["start"]["character"],
                    r["range"]["end"]["character"]) for r in refs)
    assert found == [("pg_hba.conf", 0, 23, 26), ("pg_hba.conf", 2, 37, 40), ("pg_ident.conf", 0, 0, 3),
                     ("pg_ident.conf", 2, 0, 3)]
    uses = c.request("textDocument/references", dict(at(hba, 0, 24), context={"includeDeclaration": False}))
    assert sorted(r["uri"].rsplit("/", 1)[1] for r in uses) == ["pg_hba.conf", "pg_hba.conf"]
    # From pg_ident.conf: the same four.
    c.open(ident)
    c.diagnostics(ident, 1)
    assert len(c.request("textDocument/references", dict(at(ident, 2, 1), context={"includeDeclaration": True}))) == 4
    prepared = c.request("textDocument/prepareRename", at(hba, 2, 38))
    assert prepared == {"range": span(2, 37, 2, 40), "placeholder": "sso"}
    edit = c.request("textDocument/rename", dict(at(hba, 0, 24), newName="corp-sso"))
    assert apply_edits(hba.read_text(), edit["changes"][uri(hba)]) == (
        "local all all peer map=corp-sso\nhost all all 10.0.0.0/8 cert map=other\n"
        "hostssl all all 10.1.0.0/16 cert map=corp-sso\n")
    assert apply_edits(ident.read_text(), edit["changes"][uri(ident)]) == (
        "corp-sso  alice  bob\nother  carol  carol\ncorp-sso  dave  dave\n")
    # Not a map name; a name the server would read otherwise.
    assert c.request("textDocument/prepareRename", at(hba, 0, 15)) is None
    assert c.request("textDocument/references", dict(at(hba, 0, 15), context={"includeDeclaration": True})) == []
    assert c.request_error("textDocument/rename", dict(at(hba, 0, 15), newName="x"))["code"] == -32803
    assert c.request_error("textDocument/rename", dict(at(hba, 0, 24), newName="two words"))["code"] == -32803


def test_formatting_gives_the_layout_of_pgconflint_format(start, tmp_path):
    """textDocument/formatting: one edit per changed line (the others untouched), the same text
    as `pgconflint format`, [format] align from .pgconflint.toml; pg_hba.conf gets no edits and a
    file with a syntax error an error answer."""
    c = start()
    assert c.initialize()["capabilities"]["documentFormattingProvider"] is True
    text = "# memory  \nshared_buffers 128MB   # min 128kB\n\nwork_mem=4MB\nlog_line_prefix = '%m \\'x\\' '\n"
    conf = write(tmp_path, "postgresql.conf", text)
    hba = write(tmp_path, "pg_hba.conf", "local   all   all   peer\n")
    c.open(conf)
    c.diagnostics(conf, 1)
    edits = c.request("textDocument/formatting", {"textDocument": {"uri": uri(conf)},
                                                 "options": {"tabSize": 4, "insertSpaces": True}})
    assert sorted(e["range"]["start"]["line"] for e in edits) == [0, 1, 3, 4]
    formatted = apply_edits(text, edits)
    assert formatted == ("# memory\nshared_buffers = '128MB'   # min 128kB\n\nwork_mem = '4MB'\n"
                         "log_line_prefix = '%m ''x'' '\n")
    cli = subprocess.run([binary(), "format", "-"], input=text, capture_output=True, text=True, env=cli_env())
    assert cli.returncode == 0 and cli.stdout == formatted
    # Formatting the formatted text changes nothing.
    c.change(conf, 2, formatted)
    assert c.request("textDocument/formatting", {"textDocument": {"uri": uri(conf)}, "options": {}}) == []
    write(tmp_path, ".pgconflint.toml", "[format]\nalign = true\n")
    c.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": uri(tmp_path / ".pgconflint.toml"), "type": 1}]})
    aligned = apply_edits(formatted, c.request("textDocument/formatting", {"textDocument": {"uri": uri(conf)},
                                                                          "options": {}}))
    assert "work_mem        = '4MB'\nlog_line_prefix = " in aligned
    c.open(hba)
    assert c.request("textDocument/formatting", {"textDocument": {"uri": uri(hba)}, "options": {}}) is None
    c.change(conf, 3, "work_mem = = 4MB\n")
    error = c.request_error("textDocument/formatting", {"textDocument": {"uri": uri(conf)}, "options": {}})
    assert error["code"] == -32803 and "line 1" in error["message"] and "syntax error" in error["message"]


def test_references_of_a_parameter_and_of_an_include_directive(start, tmp_path):
    """A parameter: every line of the root that sets it, the winning one first (the declaration);
    an include directive: the files it reads and every directive that reads them; an included
    file, from a line that is not a setting: the directives that read it."""
    c = start()
    c.initialize()
    conf = write(tmp_path, "postgresql.conf", "work_mem = '4MB'\ninclude_dir = 'conf.d'\n"
                                              "include 'conf.d/10-memory.conf'\nWORK_MEM = '32MB'\n")
    frag = write(tmp_path, "conf.d/10-memory.conf", "work_mem = '16MB'\nshared_buffers = '1GB'\n# memory\n")
    write(tmp_path, "postgresql.auto.conf", "work_mem = '64MB'\n")
    c.open(frag)
    c.diagnostics(frag, 1)

    def refs(path, line, character, declarations=True):
        found = c.request("textDocument/references", dict(at(path, line, character),
                                                          context={"includeDeclaration": declarations}))
        return [(r["uri"].rsplit("/", 1)[1], r["range"]["start"]["line"]) for r in found]

    # postgresql.auto.conf wins; then the lines in the server's reading order.
    winner = ("postgresql.auto.conf", 0)
    uses = refs(frag, 0, 2)
    assert uses[0] == winner
    assert uses[1:] == [("postgresql.conf", 0), ("10-memory.conf", 0), ("postgresql.conf", 3)]
    assert winner not in refs(frag, 0, 2, declarations=False)
    assert refs(frag, 1, 3) == [("10-memory.conf", 1)]  # read twice: one place
    # An include directive: the file it reads, then both directives that read it.
    c.open(conf)
    c.diagnostics(conf, 1)
    assert refs(conf, 2, 12) == [("10-memory.conf", 0), ("postgresql.conf", 1), ("postgresql.conf", 2)]
    assert refs(conf, 2, 12, declarations=False) == [("postgresql.conf", 1), ("postgresql.conf", 2)]
    # Elsewhere in an included file (its comment): the file, then the directives that read it.
    assert refs(frag, 2, 3) == [("10-memory.conf", 0), ("postgresql.conf", 1), ("postgresql.conf", 2)]
    # Not on a name or a directive of the root: nothing.
    assert refs(conf, 0, 13) == []
