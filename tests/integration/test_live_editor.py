#!/usr/bin/python3
"""A live server in the editor: `pgconflint server` with live.conninfo, driven by the
project's JSON-RPC client (tests/lsp/lspclient.py) against a real PostgreSQL 18 that logs
every statement (log_statement = all) and asks the connecting role for its password
(scram-sha-256 on the socket).

* read only (live.conninfo alone): hover shows the running value, an inlay hint the server's
  value where the open text says another, the server's pg_file_settings and
  pg_hba_file_rules errors are diagnostics at their lines, pg_hba.conf completes the
  server's roles and databases; no write action is offered, and the server's log shows that
  only the snapshot's read-only transaction reached it (the number of statements per
  refresh is printed);
* writes (live.allowWrites): "Apply with ALTER SYSTEM" and "Reload configuration" carry
  their statement in their title, ask with window/showMessageRequest, and change the
  server: work_mem runs the new value after the reload, shared_buffers waits for a
  restart and hover says so;
* a server that is not there (a port nobody listens on) is one error message, and the
  files are still checked;
* the password of the connection string is in no message the client received, in the
  editor server's standard error, nor in the PostgreSQL log.

It also prints the time of a hover with and without live data (from the cached snapshot:
no round trip), not asserted.

Usage: /usr/bin/python3 tests/integration/test_live_editor.py [-v]
Environment: PGCONFLINT (the binary). Needs: .cache/postgres/18, Debian's python3-pylsp-jsonrpc
(hence /usr/bin/python3), root or the test user.
"""
import json
import os
import re
import statistics
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
sys.path.insert(0, os.path.join(ROOT, "tests", "lsp"))
os.environ.setdefault("PGCONFLINT", os.path.join(ROOT, "build", "pgconflint"))
import pgtools  # noqa: E402
from lspclient import Client, at, codes, span, uri  # noqa: E402

PASSWORD = "Edit0r-S3cret-pw"
SERVER = None
T0 = time.monotonic()


def setUpModule():
    global SERVER
    SERVER = pgtools.Server(18).start()
    SERVER.psql(f"CREATE ROLE editor LOGIN SUPERUSER PASSWORD '{PASSWORD}'; CREATE ROLE alice LOGIN; "
                "CREATE ROLE readers NOLOGIN")
    SERVER.psql("CREATE DATABASE appdb")
    # The editor's role must give its password; the test's psql (postgres) keeps trust. Every
    # statement is logged from now on (not the one above, which holds the password), with the
    # application name (%a) to tell pgconflint's statements from the test's own psql.
    SERVER.write("pg_hba.conf", "local all editor scram-sha-256\nlocal all all trust\n")
    with open(os.path.join(SERVER.datadir, "postgresql.conf")) as f:
        SERVER.write("postgresql.conf", f.read() + "log_statement = 'all'\nlog_line_prefix = '%a:'\n")
    SERVER.psql("SELECT pg_reload_conf()")


def tearDownModule():
    SERVER.stop()
    print(f"test_live_editor: {time.monotonic() - T0:.1f}s", file=sys.stderr)


def conninfo(port=None):
    return f"host={SERVER.sockdir} port={port or SERVER.port} user=editor password={PASSWORD} dbname=postgres"


def read(path):
    with open(path) as f:
        return f.read()


def log_text():
    with open(os.path.join(SERVER.base, "server.log"), errors="replace") as f:
        return f.read()


def pgconflint_statements(log):
    """The statements pgconflint sent (application_name pgconflint), in order."""
    return re.findall(r"^pgconflint:LOG:  statement: (.*)$", log, re.M)


def hover_text(client, path, line, character):
    result = client.request("textDocument/hover", at(path, line, character))
    return result["contents"]["value"] if result else ""


def wait_for_read(client, count=1):
    """Waits until the editor server has logged `count` snapshots."""
    def ready(c):
        n = sum("read" in p["message"] and "parameters" in p["message"] for p in c.shown("window/logMessage"))
        return n >= count
    client.wait_for(ready, what=f"{count} live snapshots")


def shown_messages(client):
    return [p["message"] for p in client.shown()]


class LiveEditorTest(unittest.TestCase):

    def setUp(self):
        self.clients = []
        self.conf = os.path.join(SERVER.datadir, "postgresql.conf")
        self.hba = os.path.join(SERVER.datadir, "pg_hba.conf")

    def tearDown(self):
        for c in self.clients:
            self.assert_no_password(c)
            c.close()
        self.assertNotIn(PASSWORD, log_text())

    def start(self, live=None):
        options = {} if live is None else {"live": live}
        c = Client(SERVER.datadir)
        self.clients.append(c)
        c.initialize(options=options, capabilities={
            "textDocument": {"publishDiagnostics": {"relatedInformation": True}},
            "workspace": {"inlayHint": {"refreshSupport": True}},
            "window": {"showMessage": {"messageActionItem": {"additionalPropertiesSupport": False}}},
        })
        return c

    def assert_no_password(self, client):
        for m in client.messages:
            self.assertNotIn(PASSWORD, json.dumps(m))
        self.assertNotIn(PASSWORD, client.stderr())

    def line_of(self, text, start):
        return next(i for i, line in enumerate(text.split("\n")) if line.startswith(start))

    def test_read_only(self):
        SERVER.write("postgresql.conf", read(self.conf) + "work_mem = 8MB\nmaintenance_work_mem = 'lots'\n")
        SERVER.write("pg_hba.conf", "local all editor scram-sha-256\nlocal all all trust\nhost all all 0.0.0.0/0 trusted\n")
        SERVER.psql("SELECT pg_reload_conf()")
        before = len(pgconflint_statements(log_text()))
        c = self.start({"conninfo": conninfo()})
        wait_for_read(c)
        text = read(self.conf)
        # The editor's text says 12MB; the server runs 8MB.
        edited = text.replace("work_mem = 8MB", "work_mem = 12MB")
        c.open(self.conf, edited)
        line = self.line_of(edited, "work_mem = 12MB")
        bad = self.line_of(edited, "maintenance_work_mem = 'lots'")
        wait_for_read(c, 2)  # opening reads again
        hover = hover_text(c, self.conf, line, 2)
        self.assertIn("**Running** on `editor@", hover)
        self.assertIn("`8MB` (configuration file", hover)
        hints = c.request("textDocument/inlayHint", {"textDocument": {"uri": uri(self.conf)},
                                                     "range": span(0, 0, line + 5, 0)})
        labels = [h["label"] for h in hints]
        self.assertIn("server: 8MB", labels)
        diagnostics = c.diagnostics(self.conf, 1)
        refused = [d for d in diagnostics if d.get("code") == "PGC1102"]
        self.assertTrue(refused, diagnostics)
        self.assertEqual(refused[0]["range"]["start"]["line"], bad, refused)
        # pg_hba.conf: the server cannot load line 3; completion knows its roles and databases.
        hba_text = read(self.hba)
        c.open(self.hba, hba_text)
        hba_diagnostics = c.diagnostics(self.hba, 1)
        self.assertTrue([d for d in hba_diagnostics if d.get("code") == "PGC1104" and d["range"]["start"]["line"] == 2],
                        hba_diagnostics)
        database = [i["label"] for i in c.request("textDocument/completion", at(self.hba, 1, 7))["items"]]
        self.assertIn("appdb", database)
        user = [i["label"] for i in c.request("textDocument/completion", at(self.hba, 1, 11))["items"]]
        self.assertIn("alice", user)
        self.assertIn("+readers", user)
        # No write actions, and the command is refused.
        actions = c.request("textDocument/codeAction", {"textDocument": {"uri": uri(self.conf)},
                                                        "range": span(line, 0), "context": {"diagnostics": []}})
        titles = [a["title"] for a in actions]
        self.assertFalse([t for t in titles if "ALTER SYSTEM" in t or "Reload" in t], titles)
        error = c.request_error("workspace/executeCommand", {"command": "pgconflint.live.reload", "arguments": []})
        self.assertIn("allowWrites", error["message"])
        c.request("workspace/executeCommand", {"command": "pgconflint.live.refresh"})
        wait_for_read(c, 4)  # initialize, two opens, the command
        self.assertEqual(c.shutdown(), 0)
        statements = pgconflint_statements(log_text())[before:]
        refreshes = [s for s in statements if s.startswith("BEGIN")]
        self.assertEqual(len(refreshes), 4)
        for s in statements:
            self.assertRegex(s, r"^(BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL statement_timeout = \d+; "
                                r"SET LOCAL default_transaction_read_only = on|SELECT .*|COMMIT)$")
            self.assertNotRegex(s.upper(), r"\b(ALTER|PG_RELOAD_CONF|INSERT|UPDATE|DELETE|CREATE|DROP|GRANT)\b")
        print(f"\nread only: {len(statements)} statements for {len(refreshes)} refreshes "
              f"({len(statements) / len(refreshes):.0f} each)", file=sys.stderr)

    def test_writes(self):
        c = self.start({"conninfo": conninfo(), "allowWrites": True})
        c.answers["window/showMessageRequest"] = lambda params: {"title": "Run"}
        wait_for_read(c)
        base = read(self.conf)
        edited = base + "work_mem = 16MB\nshared_buffers = 64MB\n"  # the editor's text, not saved
        work_mem = base.count("\n")
        shared = work_mem + 1
        c.open(self.conf, edited)
        wait_for_read(c, 2)
        conf_uri = uri(self.conf)

        def run(line, contains):
            actions = c.request("textDocument/codeAction", {"textDocument": {"uri": conf_uri}, "range": span(line, 0),
                                                            "context": {"diagnostics": []}})
            chosen = [a for a in actions if contains in a["title"]]
            self.assertEqual(len(chosen), 1, [a["title"] for a in actions])
            asked = len(c.shown("window/showMessageRequest"))
            done = len(c.shown())
            c.request("workspace/executeCommand", chosen[0]["command"])
            c.wait_for(lambda cl: len(cl.shown("window/showMessageRequest")) > asked, what="the confirmation")
            question = c.shown("window/showMessageRequest")[-1]["message"]
            said = c.wait_for(lambda cl: cl.shown()[done:], what="the statement's outcome")[0]["message"]
            return question, said

        question, said = run(work_mem, "Apply with ALTER SYSTEM")
        self.assertIn("ALTER SYSTEM SET work_mem = '16MB';", question)
        self.assertIn("ran ALTER SYSTEM SET work_mem = '16MB';", said)
        question, said = run(work_mem, "Reload configuration")
        self.assertIn("SELECT pg_reload_conf()", question)
        self.assertIn("ran SELECT pg_reload_conf()", said)
        self.assertEqual(SERVER.psql("SHOW work_mem").strip(), "16MB")
        self.assertIn("`16MB`", hover_text(c, self.conf, work_mem, 2))
        # A postmaster parameter: after the reload it waits for a restart, and hover says so.
        run(shared, "Apply with ALTER SYSTEM")
        question, said = run(shared, "Reload configuration")
        self.assertIn("pending_restart): shared_buffers", said)
        hover = hover_text(c, self.conf, shared, 2)
        self.assertIn("**Pending restart**: the server's files say `64MB`", hover)
        self.assertIn("`128MB`", hover)
        statements = pgconflint_statements(log_text())
        self.assertIn("ALTER SYSTEM SET work_mem = '16MB';", statements)  # the log does show writes
        SERVER.psql("ALTER SYSTEM RESET ALL")
        SERVER.psql("SELECT pg_reload_conf()")

    def test_dead_server(self):
        port = pgtools.free_port()
        c = self.start({"conninfo": conninfo(port)})
        # An unsaved syntax error: its finding shows that the file is still checked.
        c.open(self.conf, open(self.conf).read() + "\nwork_mem = 64 MB\n")
        c.notify("textDocument/didSave", {"textDocument": {"uri": uri(self.conf)}})
        c.wait_for(lambda cl: cl.shown(), what="the error message")
        self.assertIn("PGC001", codes(c.diagnostics(self.conf, 1)))
        c.request("workspace/executeCommand", {"command": "pgconflint.live.refresh"})
        self.assertEqual(c.shutdown(), 0)
        errors = [m for m in shown_messages(c) if "live server" in m]
        self.assertEqual(len(errors), 1, errors)
        self.assertIn("cannot connect", errors[0])
        self.assertIn(str(port), errors[0])

    def test_hover_time(self):
        """Hover with live data is served from the snapshot: printed, not asserted."""
        times = {}
        for name, live in (("without live", None), ("with live", {"conninfo": conninfo()})):
            c = self.start(live)
            if live:
                wait_for_read(c)
            c.open(self.conf)
            c.diagnostics(self.conf, 1)
            hover_text(c, self.conf, 0, 0)
            samples = []
            for _ in range(40):
                t = time.perf_counter()
                hover_text(c, self.conf, self.line_of(read(self.conf), "max_connections"), 2)
                samples.append(time.perf_counter() - t)
            times[name] = statistics.median(samples) * 1000
            self.assertEqual(c.shutdown(), 0)
        print("\nhover median: " + ", ".join(f"{k} {v:.2f} ms" for k, v in times.items()), file=sys.stderr)


if __name__ == "__main__":
    unittest.main()
