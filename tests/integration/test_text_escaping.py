#!/usr/bin/env python3
"""Control characters from files never reach the terminal raw (issue 8, terminal injection).

A hostile file holds ESC sequences, BEL, DEL and a C1 control (U+009B) in its values, and
its name holds a newline and an ESC sequence. In every text output of `check` (the
reporter table's formats other than json, with colours on and off) and of `show`:

* no control byte from the file reaches stdout: with `--color always`, only pgconflint's own
  SGR sequences (ESC [ ... m) remain once they are removed, nothing else;
* the concise format keeps one line per diagnostic, each starting with the escaped file
  name, however many newlines that name holds;
* the JSON format still carries the exact name and values (JSON escapes them itself), and
  so do the JSON-based CI formats (sarif, gitlab, rdjson, rdjsonl) for the name, while
  their messages are escaped as in text; none writes a raw control byte;
* the markdown format shows the escaped name (written with markdown's own escapes).

Usage: python3 tests/integration/test_text_escaping.py [-v]
Environment: PGCONFLINT (binary, default /tmp/build-tmp/pgconflint).
"""
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

PGCONFLINT = os.environ.get("PGCONFLINT", "/tmp/build-tmp/pgconflint")

NAME = "evil\n\x1b[31mname\x07.conf"
ESCAPED_NAME = "evil\\x0a\\x1b[31mname\\x07.conf"
CONTENT = (b"work_mem = '4MB\x1b]0;pwned\x07'\n"
           b"wal_level = 'rep\x7flica\xc2\x9b'\n"
           b"cluster_name = '\x1b[2J' x\n"
           b"\x07max_connections = 100\n"
           b"log_line_prefix = 'tab\there\x1b[1m'\n"
           b"maintenance_work_mem =\t'64\x1b[1m'\n")
# Bytes a terminal acts on: C0 but tab and newline, DEL, and C1 as UTF-8 (C2 80-9F).
CONTROL = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")
# Formats that are JSON documents (rdjsonl: one per line): JSON escapes what they carry.
JSON_FORMATS = {"json", "sarif", "gitlab", "rdjson", "rdjsonl"}


def markdown(text):
    """`text` with the backslash escapes the markdown format adds to these strings."""
    return re.sub(r"([\\\[\]])", r"\\\1", text)


SGR = re.compile(rb"\x1b\[[0-9;]*m")


class TextEscapingTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(PGCONFLINT, os.X_OK):
            raise RuntimeError(f"pgconflint binary not found at {PGCONFLINT}: set PGCONFLINT")
        cls.dir = tempfile.mkdtemp(prefix="pgconflint-escaping-")
        with open(os.path.join(cls.dir, NAME), "wb") as f:
            f.write(CONTENT)
        r = subprocess.run([PGCONFLINT, "check", "--list-formats"], capture_output=True, text=True,
                           timeout=60, check=True)
        names = [line.split("\t")[0] for line in r.stdout.splitlines()]
        cls.text_formats = [n for n in names if n not in JSON_FORMATS]
        cls.json_formats = [n for n in names if n in JSON_FORMATS]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def pgconflint(self, *args):
        r = subprocess.run([PGCONFLINT, *args], cwd=self.dir, capture_output=True, timeout=60,
                           env=dict(os.environ, NO_COLOR=""))
        self.assertIn(r.returncode, (0, 1), r.stderr.decode("utf-8", "replace"))
        return r.stdout

    def json_diagnostics(self):
        out = json.loads(self.pgconflint("check", "--no-config", "--format", "json", NAME))
        return out["diagnostics"]

    def test_json_keeps_the_exact_name(self):
        diags = self.json_diagnostics()
        self.assertGreaterEqual(len(diags), 4)
        self.assertTrue(all(d["file"] == NAME for d in diags))
        self.assertIn("4MB\x1b]0;pwned\x07", "".join(d["message"] for d in diags))

    def test_text_formats_write_no_control_byte(self):
        self.assertIn("full", self.text_formats)
        self.assertIn("concise", self.text_formats)
        for fmt in self.text_formats:
            for color in ("never", "always"):
                with self.subTest(format=fmt, color=color):
                    out = self.pgconflint("check", "--no-config", "--format", fmt, "--color", color, NAME)
                    shown = markdown if fmt == "markdown" else (lambda text: text)
                    self.assertIn(shown(ESCAPED_NAME).encode(), out)
                    self.assertIn(shown("4MB\\x1b]0;pwned\\x07").encode(), out)
                    rest = SGR.sub(b"", out) if color == "always" else out
                    self.assertEqual(CONTROL.findall(rest), [], out)

    def test_json_formats_write_no_control_byte(self):
        self.assertLessEqual({"sarif", "gitlab", "rdjson", "rdjsonl"}, set(self.json_formats))
        for fmt in sorted(set(self.json_formats) - {"json"}):  # json's contract: the exact text
            with self.subTest(format=fmt):
                out = self.pgconflint("check", "--no-config", "--format", fmt, NAME)
                self.assertEqual(CONTROL.findall(out), [], out)
                docs = [json.loads(x) for x in out.splitlines()] if fmt == "rdjsonl" else [json.loads(out)]
                text = json.dumps(docs)
                # The exact name, JSON-escaped (SARIF: percent-encoded in its URI).
                self.assertTrue(json.dumps(NAME)[1:-1] in text or "evil%0A%1B%5B31mname%07.conf" in text, fmt)

    def test_concise_keeps_one_line_per_diagnostic(self):
        lines = self.pgconflint("check", "--no-config", "--format", "concise", NAME).decode().splitlines()
        # One line per diagnostic, then the summary line.
        self.assertEqual(len(lines), len(self.json_diagnostics()) + 1)
        self.assertTrue(lines[-1].startswith("Found "), lines[-1])
        for line in lines[:-1]:
            self.assertTrue(line.startswith(ESCAPED_NAME + ":"), line)
            self.assertTrue(re.search(r" \[PGC\d{3}\]$", line), line)

    def test_full_format_escapes_the_source_line(self):
        out = self.pgconflint("check", "--no-config", "--color", "never", NAME).decode()
        self.assertIn("| maintenance_work_mem =    '64\\x1b[1m'\n", out)
        self.assertIn("| cluster_name = '\\x1b[2J' x\n", out)
        # The caret stands under the x, after the 7 columns of the escaped text.
        lines = out.splitlines()
        i = next(k for k, line in enumerate(lines) if line.endswith("' x"))
        self.assertEqual(lines[i + 1].index("^"), lines[i].index("' x") + 2)

    def test_show_escapes_values_and_paths(self):
        out = self.pgconflint("show", "--no-config", NAME, "log_line_prefix")
        self.assertIn(b"tab\there\\x1b[1m", out)
        self.assertIn(ESCAPED_NAME.encode(), out)
        self.assertEqual(CONTROL.findall(out), [], out)


if __name__ == "__main__":
    unittest.main()
