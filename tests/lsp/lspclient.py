"""A real JSON-RPC client for `pgconflint server`, over its stdin and stdout.

It is Debian's python3-pylsp-jsonrpc (the JSON-RPC layer of the Python LSP
server): its stream reader and writer frame the messages, its Endpoint matches
responses to requests and answers the server's own requests. This module only
records what the server sends and waits for it.

Run with /usr/bin/python3: Debian's Python packages are visible to it only.
"""
import json
import os
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from pylsp_jsonrpc.endpoint import Endpoint
from pylsp_jsonrpc.exceptions import JsonRpcException
from pylsp_jsonrpc.streams import JsonRpcStreamReader, JsonRpcStreamWriter

REPO = Path(__file__).resolve().parents[2]
TIMEOUT = float(os.environ.get("PGCONFLINT_LSP_TIMEOUT", "30"))
# PGCONFLINT_SANITIZED=1: the binary is an ASan+UBSan build (scripts/test.sh runs these suites
# with leak detection on): every session ends with `exit` and its stderr is checked.
SANITIZED = os.environ.get("PGCONFLINT_SANITIZED") == "1"


def binary():
    path = os.environ.get("PGCONFLINT") or str(REPO / "build" / "pgconflint")
    if not Path(path).exists():
        raise RuntimeError(f"no pgconflint binary at {path}: build it, or set PGCONFLINT")
    return path


def cli_env():
    """The environment of a CLI run beside the server: under sanitizers without the leak check,
    as `check` exits without freeing its workspace on purpose (the server's sessions keep it)."""
    env = dict(os.environ)
    if SANITIZED:
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
    return env


def uri(path):
    """A file URI as editors write it (percent-encoded)."""
    return Path(path).resolve().as_uri()


class Dispatcher:
    """The server's notifications and requests to the client."""

    def __init__(self, client):
        self.client = client

    def __getitem__(self, method):
        def handler(params):
            self.client._record(method, params)
            if method in self.client.answers:
                return self.client.answers[method](params)
            if method == "window/showDocument":
                return {"success": True}
            return None
        return handler


class Client:
    """One server process and its conversation.

    `messages` holds every message the server sent, in order (dicts);
    `notifications` the (method, params) of its notifications and requests;
    `answers` maps a method of the server's requests to a function of its params
    that gives the client's result (window/showMessageRequest: the button chosen).
    """

    def __init__(self, root, args=(), env=None, cache=None):
        self.root = Path(root)
        self.messages = []
        self.notifications = []
        self.answers = {}
        self._cond = threading.Condition()
        environment = dict(os.environ)
        # Rule pages are written to the cache: keep them out of the project.
        self._cache = tempfile.TemporaryDirectory(prefix="pgconflint-lsp-cache-")
        environment["XDG_CACHE_HOME"] = str(cache or self._cache.name)
        environment.update(env or {})
        self.process = subprocess.Popen([binary(), "server", *args], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        cwd=self.root, env=environment)
        self._writer = JsonRpcStreamWriter(self.process.stdin)
        self.endpoint = Endpoint(Dispatcher(self), self._writer.write, max_workers=2)
        self._reader = JsonRpcStreamReader(self.process.stdout)
        self._thread = threading.Thread(target=self._reader.listen, args=(self._consume,), daemon=True)
        self._thread.start()
        self._stderr = []
        self._stderr_thread = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_thread.start()

    # --- plumbing -------------------------------------------------------------

    def _drain_stderr(self):
        for line in self.process.stderr:
            self._stderr.append(line.decode("utf-8", "replace"))

    def _consume(self, message):
        with self._cond:
            self.messages.append(message)
            self._cond.notify_all()
        self.endpoint.consume(message)

    def _record(self, method, params):
        with self._cond:
            self.notifications.append((method, params))
            self._cond.notify_all()

    def stderr(self):
        return "".join(self._stderr)

    # --- the conversation --------------------------------------------------------

    def request(self, method, params=None, timeout=TIMEOUT):
        """The result; raises JsonRpcException for an error answer."""
        return self.endpoint.request(method, params).result(timeout=timeout)

    def request_error(self, method, params=None, timeout=TIMEOUT):
        """The error object of a request that must fail."""
        try:
            result = self.request(method, params, timeout)
        except JsonRpcException as e:
            return e.to_dict()
        raise AssertionError(f"{method} succeeded: {result!r}")

    def notify(self, method, params=None):
        self.endpoint.notify(method, params)

    def send_raw(self, data):
        """Bytes written as they are, framing and all."""
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send_body(self, body):
        """One framed message with any body (bytes)."""
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def wait_for(self, predicate, timeout=TIMEOUT, what="a message"):
        """Waits until predicate(self) is true; returns its value."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                value = predicate(self)
                if value:
                    return value
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out waiting for {what}; stderr: {self.stderr()}")
                self._cond.wait(min(left, 0.5))

    def initialize(self, capabilities=None, options=None, encodings=None):
        caps = capabilities if capabilities is not None else {
            "textDocument": {"publishDiagnostics": {"relatedInformation": True, "versionSupport": True}},
            "workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}},
            "window": {"showDocument": {"support": True}},
        }
        if encodings is not None:
            caps = dict(caps, general={"positionEncodings": encodings})
        params = {"processId": os.getpid(), "rootUri": uri(self.root), "capabilities": caps}
        if options is not None:
            params["initializationOptions"] = options
        result = self.request("initialize", params)
        self.notify("initialized", {})
        return result

    def shutdown(self, timeout=TIMEOUT):
        """shutdown then exit; the process exit code."""
        self.request("shutdown")
        self.notify("exit")
        return self.process.wait(timeout)

    def close(self):
        """Ends the server. Under sanitizers (PGCONFLINT_SANITIZED=1) it is asked to exit, so that
        LeakSanitizer checks the whole session at exit, and any sanitizer report fails the test."""
        if SANITIZED and self.process.poll() is None:
            try:
                self.notify("exit")  # without shutdown: exit code 1, the leak check all the same
                self.process.wait(60)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.endpoint.shutdown()
        self._cache.cleanup()
        if SANITIZED:
            self._stderr_thread.join(10)
            report = self.stderr()
            if "Sanitizer" in report:
                raise AssertionError("the editor server's sanitizer report:\n" + report[-20000:])

    # --- documents -----------------------------------------------------------------

    def open(self, path, text=None, version=1):
        path = Path(path)
        if text is None:
            text = path.read_text()
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri(path), "languageId": "pgconf", "version": version, "text": text}})

    def change(self, path, version, *changes):
        """Each change is a whole text (str) or (range, text)."""
        content = [{"text": c} if isinstance(c, str) else {"range": c[0], "text": c[1]} for c in changes]
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri(path), "version": version},
                                               "contentChanges": content})

    def published(self, path):
        """Every publishDiagnostics params for `path`, in order."""
        with self._cond:
            return [p for m, p in self.notifications
                    if m == "textDocument/publishDiagnostics" and p["uri"] == uri(path)]

    def diagnostics(self, path, version, timeout=TIMEOUT):
        """The diagnostics of the first publication for `path` at `version`."""
        def ready(c):
            return next((p for p in c.published(path) if p.get("version") == version), None)
        return self.wait_for(ready, timeout, f"diagnostics of {path} at version {version}")["diagnostics"]

    def next_diagnostics(self, path, since, timeout=TIMEOUT):
        """The diagnostics of the first publication for `path` after the first
        `since` ones (take len(published(path)) before the action)."""
        def ready(c):
            later = c.published(path)[since:]
            return later[0] if later else None
        return self.wait_for(ready, timeout, f"a new publication for {path}")["diagnostics"]

    def shown(self, method="window/showMessage"):
        with self._cond:
            return [p for m, p in self.notifications if m == method]


def at(path, line, character):
    return {"textDocument": {"uri": uri(path)}, "position": {"line": line, "character": character}}


def span(line, start, end_line=None, end=None):
    return {"start": {"line": line, "character": start},
            "end": {"line": line if end_line is None else end_line, "character": start if end is None else end}}


def apply_edits(text, edits, encoding="utf-16"):
    """Applies LSP TextEdits to `text` as an editor does (from the last one)."""
    lines = text.split("\n")

    def offset(pos):
        line = pos["line"]
        if line >= len(lines):
            return len(text)
        start = sum(len(l) + 1 for l in lines[:line])
        col = character_to_index(lines[line], pos["character"], encoding)
        return start + col

    # Offsets in characters of `text` (a Python str).
    spans = sorted(((offset(e["range"]["start"]), offset(e["range"]["end"]), e["newText"]) for e in edits),
                   reverse=True)
    for begin, end, new in spans:
        text = text[:begin] + new + text[end:]
    return text


def character_to_index(line, character, encoding):
    """The str index of an LSP character offset in `line`."""
    count = 0
    for i, ch in enumerate(line):
        if count >= character:
            return i
        if encoding == "utf-8":
            count += len(ch.encode("utf-8"))
        elif encoding == "utf-16":
            count += 2 if ord(ch) > 0xFFFF else 1
        else:
            count += 1
    return len(line)


def write(root, rel, text):
    path = Path(root) / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def codes(diagnostics):
    return sorted(d.get("code") for d in diagnostics)


def rule_code(name):
    """The code of a rule by its name, from `pgconflint explain --list`."""
    out = subprocess.run([binary(), "explain", "--list"], check=True, capture_output=True, text=True,
                         env=cli_env()).stdout
    for line in out.splitlines():
        fields = line.split()
        if len(fields) > 1 and fields[1] == name:
            return fields[0]
    raise KeyError(name)


def catalog(name, major=18, module=False):
    """One parameter of the harvested catalog (`pgconflint params --format json`;
    module: of the modules' catalog, `--extensions`)."""
    out = subprocess.run([binary(), "params", "--pg-version", str(major), "--format", "json", name]
                         + (["--extensions"] if module else []), check=True, capture_output=True, text=True,
                         env=cli_env()).stdout
    data = json.loads(out)
    return data[0] if isinstance(data, list) else data


