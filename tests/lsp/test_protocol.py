"""The protocol of `pgconflint server` with a real JSON-RPC client: lifecycle
and exit codes, position encodings, text synchronisation, debouncing, several
files (a fragment within its root, unsaved buffers overlaid on the disk),
reloading .pgconflint.toml, rule files and included files, pulled
diagnostics, initializationOptions, cancellation.

Run: PGCONFLINT=build/pgconflint /usr/bin/python3 -m pytest tests/lsp/test_protocol.py
"""
import json
import time

import pytest

from lspclient import at, codes, rule_code, span, uri, write

SYNTAX = rule_code("syntax-error")
OVERRIDDEN = rule_code("setting-overridden")
NOT_IN_VERSION = rule_code("parameter-not-in-version")
INVALID = rule_code("invalid-value")


def test_initialize_negotiates_and_shutdown_then_exit_is_code_0(start, tmp_path):
    c = start()
    result = c.initialize()
    caps = result["capabilities"]
    assert caps["positionEncoding"] == "utf-16"  # the client offered nothing
    assert caps["textDocumentSync"]["change"] == 2 and caps["textDocumentSync"]["openClose"]
    for feature in ("hoverProvider", "completionProvider", "codeActionProvider", "inlayHintProvider",
                    "documentLinkProvider", "definitionProvider", "documentSymbolProvider"):
        assert caps[feature], feature
    assert "diagnosticProvider" not in caps  # the client does not pull
    assert result["serverInfo"]["name"] == "pgconflint"
    # The watched files are registered dynamically.
    registration = c.wait_for(lambda c: c.shown("client/registerCapability"), what="registerCapability")[0]
    entry = registration["registrations"][0]
    assert entry["method"] == "workspace/didChangeWatchedFiles"
    assert {"globPattern": "**/*.toml"} in entry["registerOptions"]["watchers"]
    assert c.shutdown() == 0


def test_exit_without_shutdown_is_code_1(start):
    c = start()
    c.initialize()
    c.notify("exit")
    assert c.process.wait(30) == 1


def test_end_of_input_ends_the_server(start):
    c = start()
    c.initialize()
    c.process.stdin.close()
    assert c.process.wait(30) == 1


@pytest.mark.parametrize("encoding,offered", [("utf-8", ["utf-8", "utf-16"]), ("utf-16", ["utf-16"]),
                                               ("utf-32", ["utf-32", "utf-16"])])
def test_each_position_encoding_after_e_acute_and_an_emoji(start, tmp_path, encoding, offered):
    c = start()
    assert c.initialize(encodings=offered)["capabilities"]["positionEncoding"] == encoding
    line = "search_path = 'é😀' oops   # é😀 work_mem"
    path = write(tmp_path, "postgresql.conf", line + "\n")
    c.open(path)
    diags = [d for d in c.diagnostics(path, 1) if d["code"] == SYNTAX]
    assert len(diags) == 1

    def units(s):
        if encoding == "utf-8":
            return len(s.encode("utf-8"))
        if encoding == "utf-16":
            return len(s.encode("utf-16-le")) // 2
        return len(s)
    start_char = units(line[:line.index("oops")])
    assert diags[0]["range"] == span(0, start_char, 0, start_char + 4)
    # The reverse: a position in the same unit, after the emoji in the comment.
    hover = c.request("textDocument/hover", at(path, 0, units(line[:line.rindex("work_mem")]) + 2))
    assert hover["contents"]["value"].startswith("### work_mem")
    begin = units(line[:line.rindex("work_mem")])
    assert hover["range"] == span(0, begin, 0, begin + len("work_mem"))


def test_incremental_edits_fix_and_rebreak_a_value(start, tmp_path):
    c = start()
    c.initialize()
    path = write(tmp_path, "postgresql.conf", "# é😀\nmaintenance_work_mem = 64 MB\n")
    c.open(path)
    assert codes(c.diagnostics(path, 1)) == [SYNTAX]
    c.change(path, 2, (span(1, 25, 1, 26), ""))  # delete the space: 64MB
    assert codes(c.diagnostics(path, 2)) == []
    c.change(path, 3, (span(1, 27), "x"))        # 64MBx: no such unit
    assert codes(c.diagnostics(path, 3)) == [INVALID]
    c.change(path, 4, (span(1, 27, 1, 28), ""), (span(0, 0), "shared_buffers = '1GB'\n"))
    assert codes(c.diagnostics(path, 4)) == []


def test_a_burst_of_fifty_changes_is_linted_after_its_last_change(start, tmp_path):
    # A change is linted at once unless a lint is already due: the changes
    # that arrive meanwhile (a burst) wait until none has come for
    # debounce-ms. The fifty are written at once, so all but the first few
    # arrive while a lint is due; which of the first are linted alone is the
    # scheduler's race between the server's reader and its worker.
    c = start()
    c.initialize(options={"debounce-ms": 300})
    path = write(tmp_path, "postgresql.conf", "work_mem = '4MB'\n")
    c.open(path)
    assert codes(c.diagnostics(path, 1)) == []
    before = len(c.published(path))
    burst = b""
    for version in range(2, 52):
        # Every other text is broken; the last one (51) is.
        body = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri(path), "version": version},
            "contentChanges": [{"text": "work_mem = 4 MB\n" if version % 2 else "work_mem = '4MB'\n"}]}})
        burst += b"Content-Length: %d\r\n\r\n" % len(body) + body.encode()
    c.send_raw(burst)
    assert codes(c.diagnostics(path, 51)) == [SYNTAX]
    time.sleep(1.0)
    versions = [p["version"] for p in c.published(path)[before:]]
    assert versions[-1] == 51 and versions == sorted(versions)
    assert len(versions) <= 3, versions


def test_rapid_changes_with_the_default_debounce_end_with_the_last_version(start, tmp_path):
    c = start()
    c.initialize()
    path = write(tmp_path, "postgresql.conf", "work_mem = '4MB'\n")
    c.open(path)
    c.diagnostics(path, 1)
    before = len(c.published(path))
    for version in range(2, 52):
        c.change(path, version, "work_mem = 4 MB\n" if version % 2 else "work_mem = '4MB'\n")
    assert codes(c.diagnostics(path, 51)) == [SYNTAX]
    time.sleep(0.5)
    versions = [p["version"] for p in c.published(path)[before:]]
    assert versions[-1] == 51 and versions == sorted(versions) and len(versions) < 50


def test_a_fragment_is_linted_within_its_root_with_unsaved_buffers_overlaid(start, tmp_path):
    c = start()
    c.initialize()
    main = write(tmp_path, "pg/postgresql.conf", "include_dir 'conf.d'\nport = 5432\n")
    fragment = write(tmp_path, "pg/conf.d/10-port.conf", "port = 5433\n")
    c.open(fragment)
    diags = c.diagnostics(fragment, 1)
    assert codes(diags) == [OVERRIDDEN]
    related = {(r["location"]["uri"], r["location"]["range"]["start"]["line"], r["message"])
               for r in diags[0]["relatedInformation"]}
    # One finding per overridden file; its note is the dead line, naming the line that wins.
    assert any(u == uri(fragment) and line == 0 and "postgresql.conf:2 sets" in m for u, line, m in related), related
    # An unsaved edit of the root (never written to disk) changes the fragment's findings.
    c.open(main)
    c.diagnostics(main, 1)
    n = len(c.published(fragment))
    c.change(main, 2, "include_dir 'conf.d'\n")
    assert codes(c.next_diagnostics(fragment, n)) == []
    assert main.read_text() == "include_dir 'conf.d'\nport = 5432\n"


def changed(c, *paths):
    c.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": uri(p), "type": 2} for p in paths]})


def test_project_configuration_rule_files_and_included_files_reload_without_restart(start, tmp_path):
    c = start()
    c.initialize()
    config = write(tmp_path, ".pgconflint.toml", "")
    policy = write(tmp_path, "policy/org.toml", "")
    main = write(tmp_path, "postgresql.conf", "port = 5432\nport = 5433\nfsync = off\ninclude 'extra.conf'\n")
    extra = write(tmp_path, "extra.conf", "")
    c.open(main)
    assert OVERRIDDEN in codes(c.diagnostics(main, 1))
    # .pgconflint.toml: ignore a rule, use a rule file.
    config.write_text('ignore = ["setting-overridden"]\nextra-rules = ["policy"]\n')
    n = len(c.published(main))
    changed(c, config)
    assert OVERRIDDEN not in codes(c.next_diagnostics(main, n))
    # The rule file: a new policy appears.
    policy.write_text('[[rule]]\ncode = "ORG001"\nname = "fsync-must-stay-on"\nseverity = "error"\n'
                      'when = "fsync == false"\nmessage = "fsync must stay on"\nsummary = "fsync is off"\n'
                      'why = "w"\nbad = "fsync = off"\ngood = "fsync = on"\n')
    n = len(c.published(main))
    changed(c, policy)
    org = [d for d in c.next_diagnostics(main, n) if d["code"] == "ORG001"]
    assert len(org) == 1 and org[0]["message"].startswith("fsync must stay on")
    # An included file that is not open.
    extra.write_text("fsync = on\n")
    n = len(c.published(main))
    changed(c, extra)
    assert "ORG001" not in codes(c.next_diagnostics(main, n))


def test_a_broken_rule_file_is_shown_and_the_server_keeps_serving(start, tmp_path):
    c = start()
    c.initialize()
    write(tmp_path, ".pgconflint.toml", 'extra-rules = ["bad.toml"]\n')
    write(tmp_path, "bad.toml", "[[rule]]\ncode = 'lower'\n")
    main = write(tmp_path, "postgresql.conf", "port = 5432\n")
    c.open(main)
    diags = c.diagnostics(main, 1)
    assert len(diags) == 1 and "bad.toml" in diags[0]["message"]
    assert any("bad.toml" in m["message"] and m["type"] == 1 for m in c.shown())
    assert c.request("textDocument/documentSymbol", {"textDocument": {"uri": uri(main)}}) == []


def test_a_client_that_pulls_gets_diagnostics_on_request_and_none_pushed(start, tmp_path):
    c = start()
    caps = {"textDocument": {"diagnostic": {"dynamicRegistration": False}}}
    result = c.initialize(capabilities=caps)
    assert result["capabilities"]["diagnosticProvider"]["interFileDependencies"] is True
    path = write(tmp_path, "postgresql.conf", "maintenance_work_mem = 64 MB\n")
    c.open(path)
    report = c.request("textDocument/diagnostic", {"textDocument": {"uri": uri(path)}})
    assert report["kind"] == "full" and codes(report["items"]) == [SYNTAX]
    c.change(path, 2, "maintenance_work_mem = '64MB'\n")
    assert c.request("textDocument/diagnostic", {"textDocument": {"uri": uri(path)}})["items"] == []
    assert c.published(path) == []


def test_initialization_options_major_profile_and_run_on_save(start, tmp_path):
    c = start()
    c.initialize(options={"pg-version": 17, "extra-rules": ["no-such-rules"]})
    path = write(tmp_path, "postgresql.conf", "io_method = worker\n")
    c.open(path)
    diags = c.diagnostics(path, 1)
    # The rule path does not exist: a configuration error.
    assert len(diags) == 1 and "no-such-rules" in diags[0]["message"]
    c2 = start()
    c2.initialize(options={"pg-version": 17, "run": "onSave", "profile": {"ram": "4GB", "cpus": 4}})
    c2.open(path)
    # io_method is 18 only; with the RAM known, shared_buffers' share of it is judged.
    share = rule_code("shared-buffers-share")
    assert codes(c2.diagnostics(path, 1)) == sorted([NOT_IN_VERSION, share])
    before = len(c2.published(path))
    c2.change(path, 2, "io_method = worker\nwork_mem = 64 MB\n")
    time.sleep(0.5)
    assert len(c2.published(path)) == before  # onSave: nothing while typing
    c2.notify("textDocument/didSave", {"textDocument": {"uri": uri(path)}})
    assert codes(c2.diagnostics(path, 2)) == sorted([NOT_IN_VERSION, share, SYNTAX])


def test_bad_initialization_options_are_reported_and_ignored(start, tmp_path):
    c = start()
    c.initialize(options={"pg-version": 13, "profile": {"ram": "16gb"}, "run": "sometimes", "debounce-ms": -1})
    message = c.wait_for(lambda c: c.shown(), what="showMessage")[0]
    assert message["type"] == 2
    for key in ("pg-version", "profile.ram", "run", "debounce-ms"):
        assert key in message["message"], key
    path = write(tmp_path, "postgresql.conf", "work_mem = 64 MB\n")
    c.open(path)
    assert codes(c.diagnostics(path, 1)) == [SYNTAX]


def test_a_pg_version_that_wraps_to_a_major_is_refused(start, tmp_path):
    # 4294967314 is 18 modulo 2^32: refused, not read as 18.
    c = start()
    c.initialize(options={"pg-version": 4294967314})
    message = c.wait_for(lambda c: c.shown(), what="showMessage")[0]
    assert "pg-version" in message["message"]


def test_a_cancelled_request_is_answered_once(start, tmp_path):
    c = start()
    c.initialize()
    path = write(tmp_path, "postgresql.conf", "work_mem = 64MB\n")
    c.open(path)
    c.diagnostics(path, 1)
    hover = b'{"jsonrpc":"2.0","id":"h1","method":"textDocument/hover","params":{"textDocument":{"uri":"%s"},' \
            b'"position":{"line":0,"character":1}}}' % uri(path).encode()
    cancel = b'{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"h1"}}'
    c.send_raw(b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(m), m) for m in (hover, cancel)))
    answers = c.wait_for(lambda c: [m for m in c.messages if m.get("id") == "h1"], what="the answer")
    time.sleep(0.3)
    answers = [m for m in c.messages if m.get("id") == "h1"]
    assert len(answers) == 1
    assert "result" in answers[0] or answers[0]["error"]["code"] == -32800
    assert c.request("textDocument/hover", at(path, 0, 1))["contents"]["value"].startswith("### work_mem")
