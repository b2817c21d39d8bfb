#!/usr/bin/env python3
"""`pgconflint format`: the canonical layout keeps what PostgreSQL reads.

* Corpus (../shared/corpus/real-world): every file is formatted (`format -`); formatting the
  result again changes nothing; the line count is kept; and a real server of the file's major
  (MANIFEST.tsv's pg_major_guess, else the default) reads the same settings from the original
  and the formatted file: pg_file_settings (which parses the files anew at each query) lists,
  line by line, the same name, value and error for both. Only files with a syntax error may be
  refused, and the server must agree that they have one.
* The command: files are written atomically with their mode kept, --check and --diff write
  nothing and exit 1 when a file would change, a file with a syntax error is left as it is
  (exit 2, its line and column named), a data directory formats the postgresql.conf-format
  files it reads but not pg_hba.conf, other programs' files are skipped, and [format] align
  in .pgconflint.toml lines up the '=' signs; a FIFO or a binary file gets one line, never a write.

Usage: python3 tests/integration/test_format.py [-v]
Environment: PGCONFLINT (binary, default build/pgconflint).
Needs: .cache/postgres (scripts/fetch-postgres.sh), the shared corpus, root or the test user.
"""
import collections
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))

import pgtools  # noqa: E402
import supported  # noqa: E402

PGCONFLINT = supported.binary()
CORPUS = os.path.normpath(os.path.join(ROOT, "..", "shared", "corpus", "real-world"))


def run(*args, stdin=None, cwd=None):
    return subprocess.run([PGCONFLINT, *args], input=stdin, capture_output=True, cwd=cwd, timeout=120)


def corpus_majors():
    """File name -> the major to read it with."""
    with open(os.path.join(CORPUS, "MANIFEST.tsv"), encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    head = rows[0]
    majors = supported.majors(PGCONFLINT)
    out = {}
    for row in rows[1:]:
        entry = dict(zip(head, row))
        guess = entry.get("pg_major_guess", "")
        out[entry["file"]] = int(guess) if guess.isdigit() and int(guess) in majors else supported.default_major(
            PGCONFLINT)
    return out


def file_settings(server, case_dir):
    """pg_file_settings rows of the files under case_dir, by (case, kind): (line, name, value, error)."""
    out = server.psql("SELECT json_agg(json_build_array(sourcefile, sourceline, name, setting, error) "
                      "ORDER BY seqno) FROM pg_file_settings")
    rows = collections.defaultdict(list)
    for sourcefile, line, name, setting, error in json.loads(out) or []:
        if sourcefile is None or not sourcefile.startswith(case_dir + "/"):
            continue
        kind, case = os.path.relpath(sourcefile, case_dir).split("/", 1)
        # The server names the file in its errors: the two copies differ only there.
        if error:
            error = error.replace(os.path.join(case_dir, kind), "DIR")
        rows[(case, kind)].append((line, name, setting, error))
    return rows


class CorpusTest(unittest.TestCase):
    def test_every_corpus_file_reads_the_same_to_the_server_after_formatting(self):
        majors = corpus_majors()
        files = sorted(f for f in os.listdir(CORPUS) if f in majors)
        self.assertGreater(len(files), 100)
        work = pgtools.make_tempdir("pgconflint-format-")
        by_major = collections.defaultdict(list)
        refused = []
        changed = 0
        for name in files:
            with open(os.path.join(CORPUS, name), "rb") as f:
                original = f.read()
            once = run("format", "-", stdin=original)
            if once.returncode == 2:
                self.assertIn(b"syntax error", once.stderr, name)
                refused.append(name)
                continue
            self.assertEqual(once.returncode, 0, (name, once.stderr))
            twice = run("format", "-", stdin=once.stdout)
            self.assertEqual(twice.stdout, once.stdout, f"{name}: formatting twice changed it")
            self.assertEqual(run("format", "--check", "-", stdin=once.stdout).returncode, 0, name)
            self.assertEqual(once.stdout.count(b"\n"), original.count(b"\n") + (not original.endswith(b"\n")), name)
            changed += once.stdout != original
            for kind, text in (("original", original), ("formatted", once.stdout)):
                os.makedirs(os.path.join(work, kind), exist_ok=True)
                with open(os.path.join(work, kind, name), "wb") as f:
                    f.write(text)
            by_major[majors[name]].append(name)
        pgtools.share_with_user(work)
        self.assertGreater(changed, 50)
        # A refused file: PostgreSQL finds a syntax error too.
        os.makedirs(os.path.join(work, "refused"), exist_ok=True)
        for name in refused:
            shutil.copy(os.path.join(CORPUS, name), os.path.join(work, "refused", name))
        pgtools.share_with_user(work)
        compared = 0
        for major, names in sorted(by_major.items()):
            with pgtools.Server(major) as server:
                includes = "".join(f"include_if_exists = '{os.path.join(work, kind, n)}'\n"
                                   for n in names for kind in ("original", "formatted"))
                includes += "".join(f"include_if_exists = '{os.path.join(work, 'refused', n)}'\n"
                                    for n in refused if major == max(by_major))
                with open(os.path.join(server.datadir, "postgresql.conf"), "a") as f:
                    f.write(includes)
                rows = file_settings(server, work)
                for name in names:
                    before, after = rows.get((name, "original"), []), rows.get((name, "formatted"), [])
                    self.assertEqual(after, before, f"PostgreSQL {major} reads {name} otherwise once formatted")
                    compared += len(before)
                if major == max(by_major):
                    for name in refused:
                        errors = [r[3] for r in rows.get((name, "refused"), []) if r[3]]
                        self.assertTrue(any(e.startswith("syntax error") for e in errors), (name, errors))
        print(f"format: {len(files)} corpus files, {changed} reformatted, {len(refused)} refused "
              f"(syntax errors), {compared} server lines compared on {len(by_major)} majors", file=sys.stderr)
        self.assertGreater(compared, 1000)
        shutil.rmtree(work, ignore_errors=True)


class CommandTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="pgconflint-format-cli-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def write(self, rel, text, mode=0o644):
        path = os.path.join(self.dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, mode)
        return path

    def read(self, rel):
        with open(os.path.join(self.dir, rel)) as f:
            return f.read()

    def test_a_data_directory_formats_what_the_server_reads_and_nothing_else(self):
        self.write("data/postgresql.conf", "work_mem 4MB  # per sort  \ninclude_dir = 'conf.d'\n", 0o600)
        self.write("data/conf.d/10-memory.conf", "shared_buffers=1GB\n")
        hba = "local   all   all   peer  \n"
        self.write("data/pg_hba.conf", hba)
        self.write("data/notes.conf", "server_names   x\n")  # read by nothing: not formatted as part of data/
        check = run("format", "--check", "data", cwd=self.dir)
        self.assertEqual(check.returncode, 1, check.stderr)
        self.assertEqual(check.stdout.decode(), "Would reformat: data/postgresql.conf\n"
                                                "Would reformat: data/conf.d/10-memory.conf\n")
        diff = run("format", "--diff", "data", cwd=self.dir)
        self.assertEqual(diff.returncode, 1)
        self.assertIn("+work_mem = '4MB'  # per sort\n", diff.stdout.decode())
        self.assertEqual(self.read("data/postgresql.conf"), "work_mem 4MB  # per sort  \ninclude_dir = 'conf.d'\n")
        done = run("format", "data", cwd=self.dir)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(b"2 files reformatted, 0 files already formatted", done.stderr)
        self.assertEqual(self.read("data/postgresql.conf"), "work_mem = '4MB'  # per sort\ninclude_dir = 'conf.d'\n")
        self.assertEqual(self.read("data/conf.d/10-memory.conf"), "shared_buffers = '1GB'\n")
        self.assertEqual(stat.S_IMODE(os.stat(os.path.join(self.dir, "data/postgresql.conf")).st_mode), 0o600)
        self.assertEqual(self.read("data/pg_hba.conf"), hba)
        self.assertEqual(self.read("data/notes.conf"), "server_names   x\n")
        self.assertEqual(sorted(os.listdir(os.path.join(self.dir, "data"))),
                         ["conf.d", "notes.conf", "pg_hba.conf", "postgresql.conf"])  # no temp file left
        again = run("format", "--check", "data", cwd=self.dir)
        self.assertEqual((again.returncode, again.stdout), (0, b""))

    def test_a_syntax_error_leaves_the_file_as_it_is(self):
        text = "work_mem = 4MB\nshared_buffers = = 1GB\n"
        self.write("postgresql.conf", text)
        r = run("format", "postgresql.conf", cwd=self.dir)
        self.assertEqual(r.returncode, 2)
        self.assertIn(b'postgresql.conf:2:18: pgconflint: cannot format: syntax error near token "="', r.stderr)
        self.assertEqual(self.read("postgresql.conf"), text)

    def test_other_files_are_skipped_and_align_comes_from_the_project(self):
        self.write("deploy/nginx/conf.d/default.conf", "server { listen 80; }\n")
        self.write("deploy/db/postgresql.conf", "a.b = 1\nlonger.name = 2\n")
        self.write(".pgconflint.toml", "[format]\nalign = true\n")
        r = run("format", "deploy/nginx/conf.d/default.conf", "deploy/db/postgresql.conf", cwd=self.dir)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(b"not PostgreSQL configuration", r.stderr)
        self.assertEqual(self.read("deploy/nginx/conf.d/default.conf"), "server { listen 80; }\n")
        self.assertEqual(self.read("deploy/db/postgresql.conf"), "a.b         = '1'\nlonger.name = '2'\n")
        r = run("format", "--no-align", "deploy/db/postgresql.conf", "--force-exclude",
                "deploy/nginx/conf.d/default.conf", cwd=self.dir)
        self.assertEqual((r.returncode, self.read("deploy/db/postgresql.conf")), (0, "a.b = '1'\nlonger.name = '2'\n"))
        self.assertNotIn(b"not PostgreSQL", r.stderr)
        self.write(".pgconflint.toml", "[format]\nalign = 1\n")
        bad = run("format", "deploy/db/postgresql.conf", cwd=self.dir)
        self.assertEqual(bad.returncode, 2)
        self.assertIn(b"format.align must be true or false", bad.stderr)

    def test_standard_input_and_a_missing_path(self):
        r = run("format", "-", stdin=b"a.b 'it\\'s'")
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, b"a.b = 'it''s'\n", b""))
        r = run("format", "--check", "-", stdin=b"a.b 1\n")
        self.assertEqual((r.returncode, r.stdout), (1, b"Would reformat: -\n"))
        r = run("format", "missing.conf", cwd=self.dir)
        self.assertEqual(r.returncode, 2)
        self.assertIn(b"missing.conf: no such file or directory", r.stderr.lower())

    def test_hostile_inputs_get_one_line_and_are_never_written(self):
        os.mkfifo(os.path.join(self.dir, "fifo.conf"))
        r = run("format", "fifo.conf", cwd=self.dir)
        self.assertEqual(r.returncode, 2)
        self.assertIn(b"not a regular file (a FIFO)", r.stderr)
        binary = bytes(range(256)) * 8
        path = os.path.join(self.dir, "data", "postgresql.conf")
        os.makedirs(os.path.dirname(path))
        with open(path, "wb") as f:
            f.write(binary)
        r = run("format", "data/postgresql.conf", cwd=self.dir)
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr.count(b"\n"), 1, r.stderr)
        with open(path, "rb") as f:
            self.assertEqual(f.read(), binary)


if __name__ == "__main__":
    unittest.main()
