"""Bad input never ends a session: malformed JSON-RPC, unknown methods,
requests before initialize, invalid ranges and positions, a document of
hundreds of megabytes, binary bytes. Each gets an error answer or is ignored
as the protocol says, and the server keeps serving.

Run: PGCONFLINT=build/pgconflint /usr/bin/python3 -m pytest tests/lsp/test_robustness.py
"""
import json

from lspclient import at, codes, rule_code, span, uri, write

SYNTAX = rule_code("syntax-error")


def still_serving(c, path):
    """The server answers a hover on work_mem in `path` (line 0)."""
    hover = c.request("textDocument/hover", at(path, 0, 1))
    assert hover["contents"]["value"].startswith("### work_mem")


def errors_for(c, ident):
    return c.wait_for(lambda c: [m for m in c.messages if m.get("id", "absent") == ident and "error" in m],
                      what=f"an error answer to {ident!r}")


def test_requests_before_initialize_are_refused(start, tmp_path):
    c = start()
    error = c.request_error("textDocument/hover", at(tmp_path / "x.conf", 0, 0))
    assert error["code"] == -32002
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri(tmp_path / "x.conf"), "languageId": "pgconf",
                                                       "version": 1, "text": "x"}})
    c.initialize()
    # A document opened now is linted and published; by then the early one would have been too.
    later = write(tmp_path, "postgresql.conf", "work_mem = 64 MB\n")
    c.open(later)
    assert SYNTAX in codes(c.diagnostics(later, 1))
    assert c.published(tmp_path / "x.conf") == []  # the early notification was dropped


def test_malformed_json_rpc(start, tmp_path):
    c = start()
    c.initialize()
    path = write(tmp_path, "postgresql.conf", "work_mem = 64MB\n")
    c.open(path)
    c.send_body(b"{this is not json")
    assert errors_for(c, None)[-1]["error"]["code"] == -32700
    c.send_body(b'{"jsonrpc":"2.0","id":5,"method":42}')
    assert errors_for(c, 5)[-1]["error"]["code"] == -32600
    c.send_body(b'{"jsonrpc":"2.0","id":6,"method":"textDocument/hover","params":"nonsense"}')
    assert errors_for(c, 6)[-1]["error"]["code"] == -32602
    c.send_body(b'{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{"textDocument":{"uri":1}}}')
    assert errors_for(c, 7)[-1]["error"]["code"] == -32602
    c.send_body(b'[1,2,3]')
    c.send_body(b'"just a string"')
    # Framing errors: a header block without Content-Length, a bad length.
    c.send_raw(b"Content-Type: text/plain\r\n\r\n")
    c.send_raw(b"Content-Length: lots\r\n\r\n")
    # Notifications that fail are logged, never answered.
    c.notify("textDocument/didChange", {"textDocument": {"uri": 3}})
    still_serving(c, path)


def test_deeply_nested_json_is_a_parse_error(start, tmp_path):
    """Copying or writing a nested value recurses once per level: a message of a million
    brackets (2 MB) ended the server with SIGSEGV. Nesting deeper than 64 is refused while parsing;
    real messages nest far less and pass."""
    c = start()
    c.initialize()
    path = write(tmp_path, "postgresql.conf", "work_mem = 64MB\n")
    c.open(path)
    deep = "[" * 1_000_000 + "]" * 1_000_000
    for body in ('{"jsonrpc":"2.0","id":%s,"method":"textDocument/hover"}' % deep,
                 '{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":%s}}' % deep):
        def parse_errors(c):
            return [m for m in c.messages if m.get("id", "absent") is None and "error" in m]
        before = len(parse_errors(c))
        c.send_body(body.encode())
        answers = c.wait_for(lambda c: parse_errors(c)[before:], what="the parse error")
        assert answers[0]["error"]["code"] == -32700
        assert "nested deeper than 64" in answers[0]["error"]["message"]
    nested = "[" * 60 + "]" * 60
    c.send_body(('{"jsonrpc":"2.0","id":8,"method":"textDocument/hover","params":{"textDocument":{"uri":"%s"},'
                 '"position":{"line":0,"character":1},"extra":%s}}' % (uri(path), nested)).encode())
    hover = c.wait_for(lambda c: [m for m in c.messages if m.get("id") == 8], what="the hover")[0]
    assert hover["result"]["contents"]["value"].startswith("### work_mem"), hover
    still_serving(c, path)


def test_bad_headers_with_their_bodies(start, tmp_path):
    # A malformed header block's body (length unknown) is read as the next header block: the
    # server never answered again. Each bad message is reported once, and the next is served.
    c = start()
    c.initialize()
    path = write(tmp_path, "postgresql.conf", "work_mem = 64MB\n")
    c.open(path)
    body = b'{"jsonrpc":"2.0","id":900,"method":"textDocument/hover","params":{}}'
    for header in [b"Content-Length: lots\r\n", b"Content-Length: 99999999999999999999999\r\n",
                   b"Content-Type: text/plain\r\n", b"a header line without a colon\r\nContent-Length: 4x\r\n",
                   b"Content-Length: 7\x00\r\n"]:
        c.send_raw(header + b"\r\n" + body)
        still_serving(c, path)
    assert not [m for m in c.messages if m.get("id") == 900]  # the bad messages were not read
    assert c.shutdown() == 0


def test_unknown_methods(start, tmp_path):
    c = start()
    c.initialize()
    path = write(tmp_path, "postgresql.conf", "work_mem = 64MB\n")
    c.open(path)
    assert c.request_error("pgconflint/nothing", {})["code"] == -32601
    c.notify("$/unknownNotification", {"x": 1})
    c.notify("workspace/whatever", None)
    still_serving(c, path)


def test_invalid_ranges_and_positions(start, tmp_path):
    c = start()
    c.initialize()
    path = write(tmp_path, "postgresql.conf", "work_mem = 64MB\n")
    c.open(path)
    c.diagnostics(path, 1)
    assert c.request("textDocument/hover", at(path, 999999, 999999)) is None
    assert c.request("textDocument/hover", at(path, -3, -7))["contents"]["value"].startswith("### work_mem")
    assert c.request_error("textDocument/hover", at(path, "one", 0))["code"] == -32602
    # Ranges past the end, reversed, negative: clamped (and ordered) as editors do.
    c.change(path, 2, (span(50, 0, 60, 0), "# appended\n"))
    c.change(path, 3, (span(0, 15, 0, 11), "4MB"))  # end before start: 64MB -> 4MB
    c.change(path, 4, ({"start": {"line": -1, "character": -1}, "end": {"line": 0, "character": 0}}, ""))
    assert c.diagnostics(path, 4) == []
    hints = c.request("textDocument/inlayHint", {"textDocument": {"uri": uri(path)}, "range": span(9, 9, 0, 0)})
    assert hints == []
    assert c.request("textDocument/codeAction", {"textDocument": {"uri": uri(path)}, "range": span(-5, 0, 99, 0),
                                                 "context": {"diagnostics": []}}) == []
    still_serving(c, path)


def test_a_document_of_hundreds_of_megabytes_is_refused(start, tmp_path):
    c = start()
    c.initialize()
    small = write(tmp_path, "postgresql.conf", "work_mem = 64MB\n")
    c.open(small)
    big = tmp_path / "big.conf"
    line = "# " + "x" * 98 + "\n"
    text = line * (300 * 1024 * 1024 // len(line))  # 300 MiB
    body = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri(big), "languageId": "pgconf", "version": 1, "text": text}}}).encode()
    del text
    c.send_body(body)
    del body
    message = c.wait_for(lambda c: [m for m in c.shown() if "over the limit" in m["message"]], timeout=120,
                         what="the refusal")[0]
    assert message["type"] == 1
    assert str(big) in message["message"] and "18446744073709551615" not in message["message"], message
    assert c.request_error("textDocument/hover", at(big, 0, 0))["code"] == -32602
    still_serving(c, small)
    rss = [line for line in open(f"/proc/{c.process.pid}/status") if line.startswith("VmHWM")][0]
    assert int(rss.split()[1]) < 64 * 1024, rss  # the body streamed past: never held (kB)


def test_binary_bytes(start, tmp_path):
    c = start()
    c.initialize()
    path = write(tmp_path, "postgresql.conf", "work_mem = 64MB\n")
    c.open(path)
    binary = tmp_path / "binary.conf"
    # NUL, control characters and lone surrogates' worth of junk, as JSON allows them.
    c.open(binary, "\x00\x01\x02work_mem\x00 = \x7f\x1b[31m\n\ud7ff\ufffe\n")
    c.diagnostics(binary, 1)
    # Invalid UTF-8 inside a JSON string: a parse error, and nothing else breaks.
    c.send_body(b'{"jsonrpc":"2.0","id":77,"method":"textDocument/hover","params":{"textDocument":{"uri":"\xff\xfe"}}}')
    assert errors_for(c, None)
    c.send_raw(b"\x00\xff\xfe\r\n\r\n")
    still_serving(c, path)
    assert c.shutdown() == 0


def test_syntax_errors_everywhere_keep_positions_inside_the_file(start, tmp_path):
    c = start()
    c.initialize(encodings=["utf-16"])
    lines = ["= = =", "'unterminated", "😀😀 = 1", "a.b.c.d = x y z", "\t\tinclude", "é = 'é"]
    text = "\n".join(lines) + "\n"
    path = write(tmp_path, "postgresql.conf", text)
    c.open(path)
    diags = c.diagnostics(path, 1)
    assert SYNTAX in codes(diags)
    for d in diags:
        for end in ("start", "end"):
            pos = d["range"][end]
            assert 0 <= pos["line"] <= len(lines)
            width = len(lines[pos["line"]].encode("utf-16-le")) // 2 if pos["line"] < len(lines) else 0
            assert 0 <= pos["character"] <= width, d


def test_a_project_configuration_the_toml_reader_cannot_take(start, tmp_path):
    # A key of a million dotted parts crashed the server as soon as a document of the project opened.
    (tmp_path / ".pgconflint.toml").write_text(".".join(["a"] * 1000000) + " = 1\n")
    path = write(tmp_path, "postgresql.conf", "work_mem = '64MB'\n")
    c = start()
    c.initialize()
    c.open(path)
    diags = c.diagnostics(path, 1)
    assert len(diags) == 1 and "a key of more than 64 dotted parts" in diags[0]["message"], diags
    assert c.request("textDocument/hover", at(path, 0, 1)) is None  # answered: nothing to show without an analysis
    assert c.shutdown() == 0
