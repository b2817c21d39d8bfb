#!/usr/bin/env python3
"""Hostile input: every case ends with its documented exit code and a clear message,
within a generous timeout (never a timed assertion) and bounded peak memory.

The classes of issue 8: include cycles and fan-outs, special files (FIFOs, devices),
symbolic-link loops, files outside the checked tree (never read, never echoed), huge
and deep inputs (directive scans, suppressions, unknown names, rule conditions, JSON),
absurd numbers, malformed configuration and rule files, control bytes, CLI typos.
docs/robustness.md lists the limits and exit codes these cases prove.

Peak memory is the child's maximum resident set size, as /usr/bin/time reports it.

Usage:
    python3 tests/integration/test_hostile.py [-v]
Environment: PGCONFLINT (binary, default build/pgconflint); PGCONFLINT_SANITIZED=1 for an
ASan build (memory bounds times 4, no address-space limit).
"""
import glob
import json
import os
import re
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PGCONFLINT = os.environ.get("PGCONFLINT", os.path.join(ROOT, "build", "pgconflint"))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
import supported  # noqa: E402
EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
TIMEOUT = 120  # seconds: a hang fails the case; the expected runs take well under one
MIB = 1024
# PGCONFLINT_SANITIZED=1: the binary is an ASan build, whose shadow memory and quarantine
# multiply the resident set and which cannot run under an address-space limit.
SANITIZED = os.environ.get("PGCONFLINT_SANITIZED") == "1"
# The inputs that prove linear time and bounded memory are that large on the Release binary
# (scripts/test.sh runs this suite on both); under ASan, which is here for memory errors, a
# fifth of their size (the three took 87 of the suite's 138 s there).
SCALE = 5 if SANITIZED else 1


class Run:
    def __init__(self, proc, peak_kib):
        self.returncode, self.stdout, self.stderr, self.peak_kib = proc.returncode, proc.stdout, proc.stderr, peak_kib


def run(*args, cwd=None, input_text=None):
    """Runs pgconflint under /usr/bin/time; the peak RSS of the child in KiB."""
    with tempfile.NamedTemporaryFile("r") as peak:
        proc = subprocess.run(["/usr/bin/time", "-q", "-f", "%M", "-o", peak.name, PGCONFLINT, *args],
                              capture_output=True, timeout=TIMEOUT, cwd=cwd, input=input_text)
        text = peak.read().strip().splitlines()
    proc.stdout = proc.stdout.decode("utf-8", "replace")
    proc.stderr = proc.stderr.decode("utf-8", "replace")
    return Run(proc, int(text[-1]) if text and text[-1].isdigit() else 0)


class HostileTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w" if isinstance(text, str) else "wb") as f:
            f.write(text)
        return path

    def check(self, *args, **kw):
        return run("check", "--no-config", *args, cwd=self.dir, **kw)

    def assertBounded(self, r, peak_mib=200):
        self.assertLess(r.peak_kib, peak_mib * MIB * (4 if SANITIZED else 1), f"peak RSS {r.peak_kib} KiB")

    def assertOneLineError(self, r, code, *fragments):
        self.assertEqual(r.returncode, code, r.stderr)
        lines = r.stderr.splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertTrue(lines[0].startswith("pgconflint: error: "), lines[0])
        for fragment in fragments:
            self.assertIn(fragment, lines[0])

    def concise(self, *args):
        r = self.check("--format", "concise", *args)
        self.assertIn(r.returncode, (EXIT_OK, EXIT_FINDINGS), r.stderr)
        self.assertBounded(r)
        return r

    # Item 1: includes that fan out expand to 10^10 loads; each file is read once.
    def test_include_fan_out_and_cycles(self):
        self.write("a.conf", "include 'b.conf'\n" * 10)
        self.write("b.conf", "include 'a.conf'\n" * 10)
        r = self.concise("a.conf")
        self.assertEqual(r.returncode, EXIT_FINDINGS)
        self.assertIn("include cycle", r.stdout)
        self.assertIn("[PGC302]", r.stdout)
        # A fan-out without a cycle: ten levels of ten includes of the next file.
        for level in range(11):
            self.write(f"f{level}.conf", f"include 'f{level + 1}.conf'\n" * 10 if level < 10 else "work_mem = '4MB'\n")
        r = self.concise("f0.conf")
        self.assertIn("file loads", r.stdout)
        self.assertIn("[PGC302]", r.stdout)
        # The include_dir version.
        self.write("d/x.conf", "include_dir '.'\n" * 10)
        self.write("d/y.conf", "include_dir '.'\n" * 10)
        r = self.concise("d/x.conf")
        self.assertIn("[PGC302]", r.stdout)
        self.assertIn("error:", r.stdout)
        # Many distinct files, each read once: PostgreSQL starts (postgres -C 18.4 takes 12,000),
        # so it is pgconflint's limit, stated as such, not a fatal finding.
        for i in range(10050):
            self.write(f"many/conf.d/f{i:05d}.conf", f"# {i}\n")
        self.write("many/postgresql.conf", "include_dir 'conf.d'\n")
        r = self.concise("many/postgresql.conf")
        self.assertEqual(r.returncode, EXIT_FINDINGS, r.stderr)
        self.assertIn("warning: the configuration includes more than 10000 files; pgconflint reads at most", r.stdout)
        self.assertNotIn("again and again", r.stdout)
        self.assertNotIn("would refuse to start", r.stdout)

    # The same class in pg_hba.conf: includes (16+) and @files (every major) that fan out
    # over a large file. The expansion budget counts bytes as well as reads: one finding
    # where it ran out, each repeated finding once, the rest of pg_hba.conf still checked.
    def test_auth_file_fan_out(self):
        self.write("data/postgresql.conf", "")
        filler = ("# " + "y" * 98 + "\n") * 10000  # 1 MB
        self.write("data/extra.conf", "include extra.conf\n" * 3 + filler)
        self.write("data/users", "@users,@users,@users\n" + filler)
        for major, hba, stopped in (("18", "include extra.conf\n", "extra.conf:"),
                                    ("14", "host all @users 127.0.0.1/32 md5\n", "pg_hba.conf:1:")):
            with self.subTest(major=major):
                self.write("data/pg_hba.conf", hba + "host all all 0.0.0.0/0 trust\n")
                r = self.concise("--pg-version", major, "data")
                self.assertEqual(r.returncode, EXIT_FINDINGS, r.stderr)
                lines = r.stdout.splitlines()
                self.assertLess(len(lines), 10, r.stdout)
                self.assertEqual(len(lines[:-1]), len(set(lines[:-1])), r.stdout)  # no finding twice
                self.assertTrue(any(stopped in x and "pgconflint stopped expanding" in x and "[PGC831]" in x
                                    for x in lines), r.stdout)
                self.assertIn("pg_hba.conf:2:", r.stdout)  # the line after it is still checked: trust
                self.assertIn("[PGC835]", r.stdout)

    # Item 4: FIFOs and devices are never read.
    def test_special_files(self):
        os.makedirs(os.path.join(self.dir, "d"))
        fifo = os.path.join(self.dir, "d", "fifo.conf")
        os.mkfifo(fifo)
        self.write("inc.conf", "include 'd/fifo.conf'\n")
        self.write("opt.conf", "include_if_exists 'd/fifo.conf'\n")
        self.write("dir.conf", "include_dir 'd'\n")
        for root in ["inc.conf", "opt.conf", "dir.conf"]:
            with self.subTest(root=root):
                r = self.concise(root)
                self.assertEqual(r.returncode, EXIT_FINDINGS)
                self.assertIn("is a FIFO, not a regular file", r.stdout)
        r = self.check("d/fifo.conf")
        self.assertOneLineError(r, EXIT_USAGE, "not a regular file")
        conf = self.write("postgresql.conf", "work_mem = '4MB'\n")
        for flag in ["--config", "--rules", "--running"]:
            with self.subTest(flag=flag):
                r = run("check", flag, fifo, conf, cwd=self.dir)
                self.assertOneLineError(r, EXIT_USAGE, "not a regular file")
        # Item 16: /dev/zero is a device, not a missing file, even for include_if_exists.
        self.write("zero.conf", "include_if_exists '/dev/zero'\n")
        r = self.concise("--allow-outside-includes", "zero.conf")
        self.assertIn("character device, not a regular file", r.stdout)
        self.assertNotIn("skipping missing", r.stdout)

    # Item 16: an unreadable postgresql.auto.conf is skipped as PostgreSQL does (the
    # same as include_if_exists), never an exit 3 without findings. Needs a user that
    # permissions apply to (root reads everything).
    @unittest.skipUnless(os.geteuid() == 0 and subprocess.run(["id", "pgconflint-test"], capture_output=True)
                         .returncode == 0, "needs root and the pgconflint-test user")
    def test_unreadable_auto_conf(self):
        os.chmod(self.dir, 0o755)
        self.write("postgresql.conf", "work_mem = '4MB'\n")
        os.chmod(self.write("postgresql.auto.conf", "work_mem = '8MB'\n"), 0)
        self.write("opt.conf", "include_if_exists 'postgresql.auto.conf'\n")
        for root in [self.dir, os.path.join(self.dir, "opt.conf")]:
            with self.subTest(root=root):
                # --fail-on error: opt.conf's include of postgresql.auto.conf is also PGC306, a warning.
                proc = subprocess.run(["runuser", "-u", "pgconflint-test", "--", PGCONFLINT, "check", "--no-config",
                                       "--format", "concise", "--fail-on", "error", root], capture_output=True,
                                      text=True, timeout=TIMEOUT)
                self.assertEqual(proc.returncode, EXIT_OK, proc.stderr)
                self.assertIn("skipping missing configuration file", proc.stdout)
                self.assertIn("(Permission denied) [PGC304]", proc.stdout)

    def test_symlink_loop(self):
        os.symlink("loop.conf", os.path.join(self.dir, "loop.conf"))
        self.write("root.conf", "include 'loop.conf'\n")
        r = self.concise("root.conf")
        self.assertEqual(r.returncode, EXIT_FINDINGS)
        self.assertIn("[PGC301]", r.stdout)

    # Item 13: host files are never read, so never echoed; symbolic links are resolved.
    def test_outside_the_tree(self):
        secret = self.write("outside/secret.conf", "password_encryption = 'SECRET-VALUE'\n")
        os.makedirs(os.path.join(self.dir, "tree"))
        os.symlink(secret, os.path.join(self.dir, "tree", "link.conf"))  # inside, pointing outside
        self.write("tree/abs.conf", f"include '{secret}'\n")
        self.write("tree/rel.conf", "include '../outside/secret.conf'\n")
        self.write("tree/link_root.conf", "include 'link.conf'\n")
        self.write("tree/dir.conf", "include_dir '../outside'\n")
        for root in ["tree/abs.conf", "tree/rel.conf", "tree/link_root.conf", "tree/dir.conf"]:
            for fmt in ["full", "concise", "json"]:
                with self.subTest(root=root, format=fmt):
                    r = self.check("--format", fmt, root)
                    self.assertEqual(r.returncode, EXIT_FINDINGS, r.stderr)
                    self.assertIn("PGC305", r.stdout)
                    self.assertIn("outside the tree being checked", r.stdout)
                    self.assertNotIn("SECRET-VALUE", r.stdout + r.stderr)
        # Allowed by the flag: read. The repository's .pgconflint.toml cannot allow it.
        r = self.check("--format", "full", "--allow-outside-includes", "tree/abs.conf")
        self.assertIn("SECRET-VALUE", r.stdout)
        self.assertNotIn("PGC305", r.stdout)
        self.write("tree/.pgconflint.toml", "allow-outside-includes = true\n")
        r = run("check", "--format", "full", "tree/abs.conf", cwd=self.dir)
        self.assertNotIn("SECRET-VALUE", r.stdout + r.stderr)
        self.assertIn("PGC305", r.stdout)
        self.assertIn("allow-outside-includes = true in", r.stderr)
        # /etc/passwd: its lines never appear.
        self.write("tree/etc.conf", "include '/etc/passwd'\n")
        r = self.check("--format", "full", "tree/etc.conf")
        self.assertIn("PGC305", r.stdout)
        self.assertNotIn("root:", r.stdout)

    # A data directory's pg_hba.conf or pg_ident.conf that is a link leading out of the tree is
    # PGC305, as postgresql.auto.conf is (it was skipped without a word, its trust line unseen);
    # named as the root, it is a usage error.
    def test_auth_files_leaving_the_tree(self):
        self.write("outside/hba", "host all all 0.0.0.0/0 trust # OUTSIDE-LINE\n")
        self.write("data/PG_VERSION", "18\n")
        self.write("data/postgresql.conf", "work_mem = '4MB'\n")
        for name in ["pg_hba.conf", "pg_ident.conf"]:
            os.symlink("../outside/hba", os.path.join(self.dir, "data", name))
        r = self.check("--format", "concise", "data")
        self.assertEqual(r.returncode, EXIT_FINDINGS, r.stderr)
        for name in ["pg_hba.conf", "pg_ident.conf"]:
            self.assertIn(f'"data/{name}" (resolving to "{self.dir}/outside/hba") is outside the tree', r.stdout)
        self.assertNotIn("OUTSIDE-LINE", r.stdout + r.stderr)
        r = self.check("data/pg_hba.conf")
        self.assertOneLineError(r, EXIT_USAGE, "outside the tree being checked")
        r = self.check("--format", "concise", "--allow-outside-includes", "data")
        self.assertIn("trust", r.stdout)
        self.assertNotIn("PGC305", r.stdout)

    # --stdin-filename names standard input; it does not choose what may be read: its tree is
    # its directory inside the current directory, else the current directory (/etc/x.conf with
    # `include 'shadow'` printed /etc/shadow's first tokens; /x.conf made the tree /).
    def test_stdin_filename_does_not_choose_the_tree(self):
        cases = [("/etc/x.conf", "include 'shadow'\n"), ("/x.conf", "include 'etc/shadow'\n"),
                 ("../../../../etc/x.conf", "include 'shadow'\n"), ("/etc/pg_hba.conf", "include shadow\n")]
        for name, text in cases:
            with self.subTest(name=name):
                r = self.check("--format", "concise", "--stdin-filename", name, "-", input_text=text.encode())
                self.assertEqual(r.returncode, EXIT_FINDINGS, r.stderr)
                self.assertIn('"/etc/shadow" is outside the tree being checked', r.stdout)
                self.assertNotIn("root:", r.stdout + r.stderr)
        # Inside the current directory, its directory is its tree, as for the file on disk.
        self.write("sub/inc.conf", "work_mem = 1\n")
        r = self.check("--format", "concise", "--stdin-filename", "sub/x.conf", "-", input_text=b"include 'inc.conf'\n")
        self.assertIn("sub/inc.conf:1:12: error:", r.stdout)

    # A pull request cannot lift its own confinement: the Action's command over a repository
    # whose .pgconflint.toml says allow-outside-includes = true and whose postgresql.conf
    # includes /etc/shadow and /proc/self/environ prints neither, in any output.
    def test_a_repository_cannot_lift_its_confinement(self):
        self.write("repo/.pgconflint.toml", "allow-outside-includes = true\n")
        self.write("repo/deploy/postgres/postgresql.conf",
                   "include '/etc/shadow'\ninclude_if_exists '/proc/self/environ'\nwork_mem = '4MB'\n")
        summary = os.path.join(self.dir, "summary.md")
        env = dict(os.environ, PGC_TEST_SECRET="hunter2-in-the-environment", GITHUB_STEP_SUMMARY=summary)
        proc = subprocess.run([PGCONFLINT, "check", "--fail-on", "warning", "--output", "sarif=x.sarif",
                               "--output", "github", "deploy/postgres"], cwd=os.path.join(self.dir, "repo"),
                              capture_output=True, text=True, env=env, timeout=TIMEOUT)
        self.assertEqual(proc.returncode, EXIT_FINDINGS, proc.stderr)
        with open(os.path.join(self.dir, "repo", "x.sarif")) as f:
            sarif = f.read()
        with open(summary) as f:
            everything = proc.stdout + proc.stderr + sarif + f.read()
        self.assertIn("PGC305", proc.stdout)
        self.assertIn("is ignored", proc.stderr)
        self.assertNotIn("hunter2-in-the-environment", everything)
        self.assertNotIn("PATH=", everything)
        self.assertNotIn("root:", everything)

    # Passwords in connection strings (primary_conninfo, an extension's conninfo, a URI) never
    # reach an output: not in a message, a note ("set again here"), a fix, a rendered source
    # line, a value (show, diff) or a diff of fixes; a password echoed without its keyword is
    # masked too. --fix itself writes the file as it is.
    def test_passwords_are_never_printed(self):
        conf = ("primary_conninfo = 'host=a user=r password=hunter2 sslmode=require'\n"
                "primary_conninfo = 'host=b PASSWORD=hunter3'\n"  # set again: PGC303 quotes both
                "primary_slot_name = 'postgres://u:hunter4@db/x'\n"
                "work_mem = '4MB'\n"
                "primary_conninfo = 'host=c sslpassword=''hunter5'' password=hunter6'\n")
        self.write("pw/postgresql.conf", conf)
        secrets = ["hunter2", "hunter3", "hunter4", "hunter5", "hunter6"]
        outputs = []
        for fmt in ["full", "concise", "json", "sarif", "github", "gitlab", "markdown", "junit", "checkstyle",
                    "rdjson", "rdjsonl"]:
            r = self.check("--format", fmt, "--fail-on", "never", "pw")
            self.assertEqual(r.returncode, EXIT_OK, fmt + r.stderr)
            outputs.append((fmt, r.stdout + r.stderr))
        full = dict(outputs)["full"]
        self.assertIn("PGC303", full)  # the duplicate is reported, its value masked
        self.assertIn("password=*****", full)
        r = self.check("--diff", "pw")
        self.assertEqual(r.returncode, EXIT_FINDINGS, r.stderr)
        self.assertIn("-primary_conninfo = 'host=a", r.stdout)  # the overridden lines go, in context
        outputs.append(("--diff", r.stdout + r.stderr))
        r = run("show", "--no-config", "--format", "json", os.path.join(self.dir, "pw"), "primary_conninfo")
        self.assertEqual(r.returncode, EXIT_OK, r.stderr)
        self.assertIn("*****", r.stdout)
        outputs.append(("show", r.stdout + r.stderr))
        for fmt, text in outputs:
            for secret in secrets:
                self.assertNotIn(secret, text, f"{fmt} prints {secret}")
        # --fix writes the real file: its passwords stay.
        r = self.check("--fix", "pw")
        with open(os.path.join(self.dir, "pw", "postgresql.conf")) as f:
            fixed = f.read()
        self.assertEqual(fixed, "".join(conf.splitlines(True)[2:]))
        for secret in secrets:
            self.assertNotIn(secret, r.stdout + r.stderr)

    # `sudo pgconflint check --fix DATADIR` keeps the owner, group and mode of what it fixes
    # (the server, running as its own user, must still read its 0600 file), refuses to split
    # hard links, and an unprivileged user cannot replace a read-only file through it.
    def test_fix_keeps_what_the_file_is(self):
        if os.geteuid() != 0:
            self.skipTest("needs root, as CI runs the suites")
        sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
        import pgtools
        import pwd
        user = pwd.getpwnam(pgtools.ensure_user())
        data = os.path.join(self.dir, "data")
        conf = self.write("data/postgresql.conf", "work_mem = 32 MB\n")
        self.write("data/PG_VERSION", "18\n")
        os.chown(data, user.pw_uid, user.pw_gid)
        os.chown(conf, user.pw_uid, user.pw_gid)
        os.chmod(conf, 0o600)
        r = run("check", "--no-config", "--fix", "--format", "concise", "data", cwd=self.dir)
        self.assertIn(r.returncode, (EXIT_OK, EXIT_FINDINGS), r.stderr)
        st = os.stat(conf)
        self.assertEqual((st.st_uid, st.st_gid, st.st_mode & 0o7777), (user.pw_uid, user.pw_gid, 0o600))
        with open(conf) as f:
            self.assertEqual(f.read(), "work_mem = '32MB'\n")
        # Hard links: not written, exit 3, the file as it was.
        os.link(conf, os.path.join(self.dir, "data", "also.conf"))
        self.write("data/postgresql.conf", "work_mem = 32 MB\n")
        r = run("check", "--no-config", "--fix", "data", cwd=self.dir)
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertIn("hard links", r.stderr)
        with open(conf) as f:
            self.assertEqual(f.read(), "work_mem = 32 MB\n")
        os.unlink(os.path.join(self.dir, "data", "also.conf"))
        # Read-only to its unprivileged owner: not replaced through a writable directory.
        os.chmod(conf, 0o444)
        os.chmod(self.dir, 0o777)
        proc = subprocess.run(pgtools.as_user([PGCONFLINT, "check", "--no-config", "--fix", "data"]), cwd=self.dir,
                              capture_output=True, text=True, timeout=TIMEOUT)
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertIn("not writable", proc.stderr)

    # Items 5, 6, 12: scans that were quadratic.
    def test_large_inputs_stay_linear(self):
        cases = {
            "directives.conf": "a.b = 'pgconflint:'\n" * (100000 // SCALE),
            "suppressions.conf": "# pgconflint: disable=PGC202\nwork_mem = 1\n" * (26000 // SCALE),
            "comments.conf": "# pgconflint: disable=PGC202\n" * (29000 // SCALE),
            "unknown.conf": "".join(f"unknown_name_{i} = 1\n" for i in range(100000 // SCALE)),
        }
        for name, text in cases.items():
            with self.subTest(name=name):
                self.write(name, text)
                # --file-type conf: a file of comments only is otherwise not PostgreSQL
                # configuration, skipped without the scan this bounds.
                r = self.concise("--file-type", "conf", name)
                self.assertBounded(r, 400)
                self.assertNotIn("not PostgreSQL configuration", r.stderr)
                if name == "comments.conf":  # every suppression is scanned and unused
                    self.assertEqual(r.returncode, EXIT_FINDINGS, r.stderr)
                    self.assertIn("[PGC901]", r.stdout)

    # Issue 22: SQL scripts naming many roles, databases or tablespaces took quadratic time
    # (16,000 ALTER ROLE 3.7 s, 100,000 killed at 90 s); each statement is now O(1) on average.
    # The times are bench_cost's (tests/bench/cost_scaling.py); here each script must end with
    # its findings within the timeout.
    def test_sql_scripts_of_many_scopes(self):
        n = 100000 // SCALE
        cases = {
            "roles.sql": ("".join(f"ALTER ROLE r{i} SET work_mem = '4MB';\n" for i in range(n)), 0),
            "in_database.sql": ("".join(f"ALTER ROLE r{i} IN DATABASE d{i} SET work_mem = '4MB';\n"
                                        for i in range(n // 2)), 0),
            "blocks.sql": ("".join(f"BEGIN; ALTER ROLE r{i} SET work_mem = '4MB'; ROLLBACK;\n"
                                   for i in range(n // 2)), 0),
            "tablespaces.sql": ("".join(f"ALTER TABLESPACE t{i} SET (random_page_cost = 1.1);\n"
                                        for i in range(n)), 0),
            "alter_system.sql": ("".join(f"ALTER SYSTEM SET my.p{i} = 1;\n" for i in range(n)), 0),
            "reset_all.sql": ("".join(f"ALTER ROLE r{i} SET work_mem = '4MB'; ALTER ROLE r{i} RESET ALL;\n"
                                      for i in range(n // 2)), 0),
            "one_role_again.sql": ("".join(f"ALTER ROLE r{i} SET work_mem = '4MB';\n" for i in range(n // 2)) +
                                   "".join(f"ALTER ROLE r0 SET work_mem = '{i + 64}kB';\n" for i in range(n // 2)), 0),
        }
        for name, (text, code) in cases.items():
            with self.subTest(name=name):
                self.write(name, text)
                r = self.check("--pg-version", "18", "--format", "concise", name)
                self.assertEqual(r.returncode, code, r.stdout[-500:] + r.stderr)
                self.assertBounded(r, 400)

    # Issue 22: one number in a snapshot allocated gigabytes (a file_settings row at line
    # 1,000,000,000: 6 GB, 38 s); a snapshot of the wrong shape or of a major without
    # knowledge ended with exit 0 and nothing checked.
    def snapshot(self, name, **fields):
        doc = {"pgconflint_snapshot": 1, "server": "example",
               "info": {"server_version_num": 180004, "superuser": True}, "settings": [],
               "file_settings": [{"sourcefile": "/srv/pg/postgresql.conf", "sourceline": 1000000000, "seqno": 1,
                                  "name": "work_mem", "setting": "64mb", "applied": False,
                                  "error": "invalid value for parameter \"work_mem\": \"64mb\""}]}
        doc.update(fields)
        return self.write(name, json.dumps(doc))

    # A name cannot start a CI workflow command nor show other text than it holds: a directory
    # named "::error title=Fake::injected" began each concise line with a workflow command (the
    # README pairs concise with GitHub's problem matcher), a snapshot's "server" likewise; bidi
    # overrides, BOMs and invalid UTF-8 in names passed unchanged into full, concise and github.
    def test_names_cannot_inject_commands_or_hide_text(self):
        evil = "::error title=Fake::injected"
        self.write(f"{evil}/postgresql.conf", "work_mem = 1\n")
        self.snapshot("evil.json", server=evil + "::x")
        hidden = "a\u202eb\ufeffc\u2066d"
        self.write(f"{hidden}/postgresql.conf", "work_mem = 1\n")
        bad_bytes = os.path.join(os.fsencode(self.dir), b"bad\xff\xfe")
        os.makedirs(bad_bytes)
        with open(os.path.join(bad_bytes, b"postgresql.conf"), "w") as f:
            f.write("work_mem = 1\n")
        cases = [[f"{evil}/postgresql.conf"], ["--snapshot", "evil.json"], [f"{hidden}/postgresql.conf"],
                 [os.fsdecode(b"bad\xff\xfe/postgresql.conf")]]
        for args in cases:
            for fmt in ["concise", "full", "github"]:
                with self.subTest(args=args[-1], format=fmt):
                    r = self.check("--format", fmt, "--fail-on", "never", *args)
                    self.assertEqual(r.returncode, EXIT_OK, r.stderr)
                    self.assertIn("PGC", r.stdout)
                    for line in r.stdout.splitlines():
                        # The github format's own annotations, whose properties are escaped.
                        if fmt != "github" or not re.match(r"::(error|warning|notice) (file=|title=)", line):
                            self.assertFalse(line.lstrip().startswith(("::", "##[")), line)
                    for ch in "\u202e\ufeff\u2066\ufffd":
                        self.assertNotIn(ch, r.stdout)
                    if "a\u202e" in args[-1]:
                        self.assertIn("a\\xe2\\x80\\xaeb", r.stdout)
                    if "bad" in args[-1]:
                        self.assertIn("bad\\xff\\xfe", r.stdout)
        r = self.check("--format", "concise", f"{evil}/postgresql.conf")
        self.assertTrue(r.stdout.startswith(f"./{evil}/postgresql.conf:1:12: error:"), r.stdout)

    def test_snapshot_line_numbers_cost_nothing(self):
        self.snapshot("far.json")
        for fmt in ["concise", "json", "full", "sarif"]:
            with self.subTest(format=fmt):
                r = self.check("--snapshot", "far.json", "--format", fmt)
                self.assertEqual(r.returncode, EXIT_FINDINGS, r.stderr)
                self.assertIn("1000000000", r.stdout)
                self.assertBounded(r, 50)

    def test_snapshot_of_the_wrong_shape_or_an_unknown_major(self):
        cases = {
            "settings-object.json": ({"settings": {"a": 1}}, "settings: expected an array of rows, got an object"),
            "row-types.json": ({"settings": [{"name": "work_mem", "sourceline": "7"}]},
                               "settings[0].sourceline: expected an integer, got a string"),
            "sections.json": ({"db_role_settings": "x"}, "db_role_settings: expected an array of rows, got a string"),
            "hba.json": ({"hba_rules": {"a": 1}}, "hba_rules: expected a JSON array of rows"),
        }
        for name, (fields, message) in cases.items():
            with self.subTest(name=name):
                self.snapshot(name, **fields)
                for fmt in ["concise", "json"]:
                    r = self.check("--snapshot", name, "--format", fmt)
                    self.assertOneLineError(r, EXIT_USAGE, name, message)
                    self.assertEqual(r.stdout, "")
        for version in (90624, 130010):
            with self.subTest(version=version):
                self.snapshot("old.json", info={"server_version_num": version})
                self.snapshot("good.json")
                r = self.check("--snapshot", "old.json", "--snapshot", "good.json", "--format", "concise")
                self.assertEqual(r.returncode, EXIT_USAGE, r.stderr)
                self.assertIn(f"no knowledge of PostgreSQL {version // 10000} (supported: ", r.stderr)
                self.assertIn("PGC1102", r.stdout)  # the other server is still checked
                self.assertRegex(r.stdout, r"not checked: no knowledge of PostgreSQL")
                r = self.check("--snapshot", "old.json", "--format", "json")
                self.assertEqual(r.returncode, EXIT_USAGE, r.stderr)
                self.assertTrue(json.loads(r.stdout)["roots"][0]["fatal"])

    # Item 7: memory stays a small multiple of input + output.
    def test_memory_of_a_large_file(self):
        lines = (1 << 16) // SCALE
        self.write("big.conf", "work_mem = 4MB\n" * lines)  # 1 MiB (Release), a finding per line
        for fmt in ["concise", "json", "full"]:
            with self.subTest(format=fmt):
                r = self.check("--format", fmt, "big.conf")
                self.assertIn(r.returncode, (EXIT_OK, EXIT_FINDINGS), r.stderr)
                self.assertIn("work_mem", r.stdout)
                # 64 MiB, 4 times the output, and 2 KiB per line for the analysis held
                # until it is written (measured: ~0.55 KiB per setting plus ~0.9 KiB per
                # finding; 65,535 PGC303 here, each with a note and a fix).
                self.assertBounded(r, 64 + 4 * len(r.stdout) // (1 << 20) + lines * 2 // 1024)

    # A tablespace name (from --tablespace or a script's CREATE TABLESPACE) cannot forge a line
    # of recommend's SQL or plan: "evil\nDROP DATABASE prod; --" made line 2 of --format sql
    # `DROP DATABASE prod; -- on nvme.`, run when piped to psql. test_recommend.py runs the
    # statements on PostgreSQL 18.
    def test_names_cannot_forge_lines(self):
        evil = "evil\nDROP DATABASE prod; --"
        self.write("ts.sql", 'CREATE TABLESPACE "evil\nDROP DATABASE prod; --" LOCATION \'/x\';\n')
        base = ["recommend", "--no-config", "--ram", "16GB", "--cpus", "4"]
        for args in (["--format", "sql", "--tablespace", evil + "=nvme"],
                     ["--plan", "ts.sql", "--tablespace", evil + "=nvme"], ["--plan", "ts.sql"]):
            with self.subTest(args=args):
                r = run(*base, *args, cwd=self.dir)
                self.assertEqual(r.returncode, EXIT_OK, r.stderr)
                self.assertIn("evil", r.stdout)
                self.assertNotRegex(r.stdout, r"(?m)^\s*DROP")

    # One huge line costs a bounded multiple of its size, and no output echoes more than 1 KiB
    # of it: 64 MiB of NUL bytes after a setting took 924 MB and wrote 268 MB in full (each
    # NUL a token held, each echoed as \x00); a 64 MiB value was quoted whole in every format.
    def test_one_huge_line(self):
        size = (4 if SANITIZED else 16) << 20  # ASan: a quarter, for time
        cases = {"nul": b"work_mem = 1\n" + b"\0" * size,
                 "value": b"work_mem = '" + b"x" * size + b"'\n",
                 "tokens": b"a = b " + b"c " * (size // 2) + b"\n"}
        for name, text in cases.items():
            self.write(f"{name}/huge.conf", text)  # a directory each: the tree index reads its .conf files
            for fmt in ["concise", "full", "json", "sarif", "github"]:
                with self.subTest(case=name, format=fmt):
                    r = self.check("--format", fmt, "--file-type", "conf", f"{name}/huge.conf")
                    self.assertEqual(r.returncode, EXIT_FINDINGS, r.stderr)
                    self.assertLess(len(r.stdout) + len(r.stderr), 16 << 10)
                    # Measured on 64 MiB lines: 8.3 times the line for a value (its raw text,
                    # value and message each hold it), 2.1 times for NUL bytes.
                    self.assertBounded(r, 10 * size // (1 << 20) + 16)

    # Item 7: allocation failure anywhere is exit 3 with one line, never a signal.
    @unittest.skipIf(SANITIZED, "ASan reserves more address space than the limit")
    def test_out_of_memory(self):
        import resource
        self.write("big.conf", "work_mem = 4MB\n" * (1 << 18))  # 4 MiB, a finding per line

        def limit():
            resource.setrlimit(resource.RLIMIT_AS, (200 << 20, 200 << 20))
        for fmt in ["concise", "json"]:
            with self.subTest(format=fmt):
                proc = subprocess.run([PGCONFLINT, "check", "--no-config", "--format", fmt, "big.conf"],
                                      capture_output=True, text=True, timeout=TIMEOUT, cwd=self.dir,
                                      preexec_fn=limit)
                self.assertEqual(proc.returncode, 3, proc.stderr[-500:])
                self.assertEqual(proc.stderr, "pgconflint: error: out of memory\n")

    def test_too_large_file(self):
        path = os.path.join(self.dir, "huge.conf")
        with open(path, "wb") as f:
            f.truncate(300 << 20)  # sparse: larger than the file size limit
        r = self.check("huge.conf")
        self.assertOneLineError(r, EXIT_USAGE, "huge.conf")
        self.assertBounded(r, 50)

    # Items 2, 3: rule conditions and templates deep or long; absurd version ranges.
    def rule_file(self, when, message="x", versions="14-18"):
        return self.write("rules.toml", "[[rule]]\ncode = \"X001\"\nname = \"x-rule\"\nseverity = \"warning\"\n"
                          "category = \"custom\"\nsummary = \"s\"\n"
                          f"when = \"{when}\"\nmessage = \"{message}\"\nversions = \"{versions}\"\n")

    def test_deep_and_long_rule_conditions(self):
        conf = self.write("postgresql.conf", "work_mem = '4MB'\n")
        deep = {"parentheses": "(" * 10000 + "work_mem > 0" + ")" * 10000,
                "not": "not " * 200000 + "true",
                "abs": "abs(" * 50000 + "work_mem" + ")" * 50000 + " > 0"}
        for name, when in deep.items():
            with self.subTest(deep=name):
                rules = self.rule_file(when)
                r = run("check", "--no-config", "--rules", rules, conf, cwd=self.dir)
                self.assertOneLineError(r, EXIT_USAGE, "rules.toml")
                r = run("explain", "--rules", rules, "X001", cwd=self.dir)
                self.assertOneLineError(r, EXIT_USAGE, "rules.toml")
        long_chains = {"or": " or ".join(["work_mem < 0"] * 40000) + " or work_mem > 0",
                       "plus": " + ".join(["work_mem"] * 300000) + " > 0"}
        for name, when in long_chains.items():
            with self.subTest(chain=name):
                r = run("check", "--no-config", "--format", "concise", "--rules", self.rule_file(when), conf,
                        cwd=self.dir)
                self.assertEqual(r.returncode, EXIT_FINDINGS, r.stderr)
                self.assertIn("[X001]", r.stdout)
                self.assertBounded(r)
        r = run("check", "--no-config", "--rules", self.rule_file("true", "{" + "(" * 10000 + "1" + ")" * 10000 + "}"),
                conf, cwd=self.dir)
        self.assertOneLineError(r, EXIT_USAGE, "rules.toml")
        for versions in ["14-18", "99999999999999999999-1", "-", "18-14"]:
            with self.subTest(versions=versions):
                # A condition on a setting of the file: a warning at its line (a condition
                # on nothing the file sets would be an info finding, exit 0).
                r = run("check", "--no-config", "--rules", self.rule_file("work_mem > 0", versions=versions), conf,
                        cwd=self.dir)
                if versions == "14-18":
                    self.assertEqual(r.returncode, EXIT_FINDINGS, r.stderr)
                else:  # an overflowing major, no major, a range backwards
                    self.assertOneLineError(r, EXIT_USAGE, "rules.toml", "versions must look like")

    # Item 11: deep --running JSON.
    def test_deep_running_json(self):
        conf = self.write("postgresql.conf", "work_mem = '4MB'\n")
        deep = self.write("deep.json", '{"a":' * 200000 + "1" + "}" * 200000)
        r = run("check", "--no-config", "--running", deep, conf, cwd=self.dir)
        self.assertOneLineError(r, EXIT_USAGE, "nested deeper than")
        for text in ['{"work_mem": {"x": 1}}', "[1]", "{", '{"work_mem": null}']:
            with self.subTest(running=text):
                r = run("check", "--no-config", "--running", self.write("r.json", text), conf, cwd=self.dir)
                self.assertOneLineError(r, EXIT_USAGE, "r.json")
        ok = self.write("ok.json", json.dumps({"work_mem": "4096", "max_connections": 100}))
        r = run("check", "--no-config", "--running", ok, conf, cwd=self.dir)
        self.assertEqual(r.returncode, EXIT_OK, r.stderr)
        # A snapshot's format field and an hba row nested a million deep (copied or written
        # when refused, which recursed once per level): refused while parsing.
        brackets = "[" * 1000000 + "]" * 1000000
        for name, text in [("deep-snapshot.json", '{"pgconflint_snapshot": ' + brackets + "}"),
                           ("deep-hba.json", "[{\"type\": " + brackets + "}]")]:
            with self.subTest(file=name):
                path = self.write(name, text)
                args = ["--snapshot", path] if name == "deep-snapshot.json" else ["--server-hba", path, conf]
                r = run("check", "--no-config", *args, cwd=self.dir)
                self.assertOneLineError(r, EXIT_USAGE, "nested deeper than 64 levels")

    # Item 9: recommend never prints what its own check calls fatal.
    def test_recommend_huge_ram_is_clamped(self):
        for ram in ["24TB", "40TB", "1000000TB"]:
            with self.subTest(ram=ram):
                r = run("recommend", "--no-config", "--cpus", "4", "--storage", "nvme", "--ram", ram,
                        "--format", "conf", cwd=self.dir)
                self.assertEqual(r.returncode, EXIT_OK, r.stderr)
                path = self.write(f"rec-{ram}.conf", r.stdout)
                c = self.check("--format", "concise", "--fail-on", "error", path)
                self.assertEqual(c.returncode, EXIT_OK, c.stdout)

    # Items 8, 10: absurd numbers are refused or named, never wrapped; show follows each major.
    def test_absurd_numbers(self):
        self.write("pv.conf", "# pgconflint: pg-version=4294967310\nwork_mem = '4MB'\n")
        r = self.concise("pv.conf")
        self.assertIn("pg-version=4294967310 names no supported major [PGC903]", r.stdout)
        self.assertNotIn("PostgreSQL 14", r.stdout)
        conf = self.write("postgresql.conf", "work_mem = '4MB'\n")
        for flag, value in [("--ram", "nan"), ("--ram", "1e999GB"), ("--headroom", "inf"),
                            ("--nodes-per-query", "nan")]:
            with self.subTest(flag=flag, value=value):
                self.assertOneLineError(run("check", "--no-config", flag, value, conf, cwd=self.dir), EXIT_USAGE)
        for major in map(str, supported.majors(PGCONFLINT)):
            with self.subTest(show=major):
                r = run("show", "--no-config", "--pg-version", major, conf, cwd=self.dir)
                self.assertEqual(r.returncode, EXIT_OK, r.stderr)
                self.assertIn("work_mem", r.stdout)

    # Item 17: CLI errors name what is wrong.
    def test_cli_errors(self):
        conf = self.write("postgresql.conf", "work_mem = '4MB'\n")
        cases = [(["check", "-x.conf"], "unknown option -x.conf"),
                 (["check", "--select", ",,,", conf], "--select: the selector list is empty"),
                 (["check", "--ignore", ",", conf], "--ignore: the selector list is empty"),
                 (["check", "--select", "PGC0O1", conf], '"PGC0O1" selects no rule (did you mean "PGC001"?)'),
                 (["check", "--pg-version", "0", conf], "no knowledge of PostgreSQL \"0\""),
                 (["check", "--pg-version", "4294967314", conf], "no knowledge of PostgreSQL"),
                 (["check", "--config", "/nonexistent", conf], "--config /nonexistent: no such file"),
                 (["check", "--config", self.dir, conf], "a directory, not a .pgconflint.toml file"),
                 (["check", "--config", "/dev/null", conf], "not a regular file"),
                 (["check"], "PATH is required")]
        for args, fragment in cases:
            with self.subTest(args=args):
                r = run(*args, cwd=self.dir)
                self.assertOneLineError(r, EXIT_USAGE, fragment)
                self.assertEqual(r.stdout, "")
        # explain --rules FILE CODE: the CODE is explained, not swallowed by --rules.
        rules = self.rule_file("work_mem > 0")
        r = run("explain", "--rules", rules, "X001", cwd=self.dir)
        self.assertEqual(r.returncode, EXIT_OK, r.stderr)
        self.assertTrue(r.stdout.startswith("# x-rule (X001)"), r.stdout[:200])
        self.assertOneLineError(run("explain", "--rules", rules, "X0O1", cwd=self.dir), EXIT_USAGE, 'no rule "X0O1"')

    # Item 14: control bytes in contents and file names are escaped.
    def test_control_bytes(self):
        name = "e\x1b]0;x\x07\nname.conf"
        self.write(name, "wrok_mem = '\x1b[31mred\x07'\n")
        for fmt in ["full", "concise"]:
            with self.subTest(format=fmt):
                r = self.check("--format", fmt, "--color", "never", name)
                self.assertEqual(r.returncode, EXIT_FINDINGS, r.stderr)
                self.assertNotIn("\x1b", r.stdout)
                self.assertNotIn("\x07", r.stdout)
        r = self.check("--format", "concise", name)
        self.assertEqual(len([l for l in r.stdout.splitlines() if "[PGC101]" in l]), 1, r.stdout)

    # The fixtures and the real-world corpus, every file in one run per major: exits 0 or 1
    # (run under the sanitizer build by scripts/test.sh, where any report aborts).
    def test_corpus_under_every_major(self):
        files = sorted(glob.glob(os.path.join(ROOT, "tests", "fixtures", "rules", "*.conf")))
        files += sorted(glob.glob(os.path.join(ROOT, "..", "shared", "corpus", "real-world", "*")))
        for major in map(str, supported.majors(PGCONFLINT)):
            with self.subTest(major=major):
                # --file-type conf: every file is linted, the corpus's README and MANIFEST too.
                r = run("check", "--no-config", "--file-type", "conf", "--pg-version", major, "--format", "json",
                        *files, cwd=self.dir)
                self.assertIn(r.returncode, (EXIT_OK, EXIT_FINDINGS), r.stderr[-2000:])
                self.assertEqual(len(json.loads(r.stdout)["roots"]), len(files))

    def test_malformed_files(self):
        conf = self.write("postgresql.conf", "work_mem = '4MB'\n")
        # j=1e3И: the fuzzer's finding, a code point toml++ 3.3 has undefined behaviour on.
        # A million dotted parts (2 MB): toml++ recursed once per part and overflowed the stack.
        deep_key, deep_header = ".".join(["a"] * 1000000) + " = 1\n", "[" + ".".join(["a"] * 1000000) + "]\n"
        for text in ["[[rule]\n", "\x00\xff", "[[rule]]\ncode = 1\n", "a = " + "[" * 100000, "j=1e3\u0418", deep_key,
                     deep_header]:
            with self.subTest(rules=text[:20]):
                r = run("check", "--no-config", "--rules", self.write("bad.toml", text), conf, cwd=self.dir)
                self.assertOneLineError(r, EXIT_USAGE, "bad.toml")
        for text in ["pg-version = 1e300\n", "pg-version = 4294967314\n", "[profile]\nram = nan\n",
                     "x = " + "[" * 100000, "pg-version = 18\u00e9\n", deep_key, deep_header]:
            with self.subTest(config=text[:20]):
                self.write("proj/.pgconflint.toml", text)
                p = self.write("proj/postgresql.conf", "work_mem = '4MB'\n")
                r = run("check", p, cwd=self.dir)
                self.assertOneLineError(r, EXIT_USAGE, ".pgconflint.toml")
        for text in [deep_key, deep_header]:
            with self.subTest(catalog=text[:10]):
                r = run("check", "--no-config", "--extension-catalog", self.write("cat.toml", text), conf,
                        cwd=self.dir)
                self.assertOneLineError(r, EXIT_USAGE, "cat.toml", "dotted parts")
        # Read as configuration whatever they look like: a syntax error each, and the byte
        # order mark is part of the first name (the server reads it so too).
        for text, code in [("\x00\x01\x02", "PGC001"), (b"\xef\xbb\xbfwork_mem = 1\n", "PGC101"),
                           ("= = =\n" * 1000, "PGC001"), ("'" * 100000, "PGC001")]:
            with self.subTest(conf=text[:10]):
                self.write("weird.conf", text)
                r = self.concise("--file-type", "conf", "weird.conf")
                self.assertEqual(r.returncode, EXIT_FINDINGS, r.stderr)
                self.assertIn(f"[{code}]", r.stdout)


class StallingProxy:
    """A TCP proxy in front of a real server's Unix socket that passes the start-up through and
    then stops forwarding what the client sends: a server (or network) that stalls once connected."""

    def __init__(self, socket_path):
        self.socket_path = socket_path
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(8)
        self.port = self.listener.getsockname()[1]
        self.held = []
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                server.connect(self.socket_path)
            except OSError:
                client.close()
                continue
            self.held += [client, server]
            threading.Thread(target=self.pump, args=(server, client, False), daemon=True).start()
            threading.Thread(target=self.pump, args=(client, server, True), daemon=True).start()

    @classmethod
    def pump(cls, src, dst, from_client):
        try:
            cls.forward(src, dst, from_client)
        except OSError:
            pass  # either side closed (the test is over)

    @staticmethod
    def forward(src, dst, from_client):
        # From the client: the SSL request and the start-up message (untyped), then typed
        # messages until the first query ('Q'), which is held and never sent.
        buf, typed = b"", False
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                return
            if not data:
                return
            if not from_client:
                dst.sendall(data)
                continue
            buf += data
            while True:
                if not typed:
                    if len(buf) < 8:
                        break
                    n = struct.unpack("!I", buf[:4])[0]
                    if len(buf) < n:
                        break
                    code = struct.unpack("!I", buf[4:8])[0]
                    dst.sendall(buf[:n])
                    buf = buf[n:]
                    typed = code not in (80877103, 80877104)  # SSLRequest, GSSENCRequest: a start-up follows
                    continue
                if len(buf) < 5:
                    break
                if buf[0:1] == b"Q":
                    return  # stall: the query is never forwarded
                n = struct.unpack("!I", buf[1:5])[0] + 1
                if len(buf) < n:
                    break
                dst.sendall(buf[:n])
                buf = buf[n:]

    def close(self):
        self.listener.close()
        for s in self.held:
            s.close()


class LiveDeadlineTest(unittest.TestCase):
    """A server that stalls once connected ends the snapshot after the statement timeout and a
    margin (exit 3, naming the server); a fleet goes on with the others."""

    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
        import pgtools
        cls.srv = pgtools.Server(18).start()
        cls.proxy = StallingProxy(os.path.join(cls.srv.sockdir, f".s.PGSQL.{cls.srv.port}"))
        cls.stalled = f"host=127.0.0.1 port={cls.proxy.port} user=postgres dbname=postgres sslmode=disable"
        cls.healthy = f"host={cls.srv.sockdir} port={cls.srv.port} user=postgres dbname=postgres"

    @classmethod
    def tearDownClass(cls):
        cls.proxy.close()
        cls.srv.stop()

    def test_check_snapshot_and_recommend_end(self):
        for args in (["check", "--no-config", "--statement-timeout", "1000", "--live", self.stalled],
                     ["snapshot", "--statement-timeout", "1000", self.stalled],
                     ["recommend", "--no-config", "--ram", "16GB", "--cpus", "4", "--statement-timeout", "1000",
                      "--live", self.stalled]):
            with self.subTest(command=args[0]):
                r = run(*args)
                self.assertEqual(r.returncode, 3, r.stdout + r.stderr)
                self.assertIn("no answer within 3000 ms", r.stderr)
                self.assertIn(f":{self.proxy.port}/postgres", r.stderr)

    def test_a_fleet_reports_the_healthy_server(self):
        r = run("check", "--no-config", "--statement-timeout", "1000", "--format", "concise", "--fail-on", "never",
                "--live", self.stalled, "--live", self.healthy)
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertIn("no answer within", r.stderr)
        self.assertIn("Found", r.stdout)


class LivePasswordTest(unittest.TestCase):
    """A server's primary_conninfo holds a password: snapshot and check --live mask it in every
    output; libpq's messages that echo a connection string are scrubbed."""

    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
        import pgtools
        cls.srv = pgtools.Server(18).start()
        cls.conninfo = f"host={cls.srv.sockdir} port={cls.srv.port} user=postgres dbname=postgres"
        subprocess.run([pgtools.PSQL, "-X", "-q", "-v", "ON_ERROR_STOP=1", cls.conninfo, "-c",
                        "ALTER SYSTEM SET primary_conninfo = 'host=up user=r password=hunter7'"],
                       check=True, capture_output=True, timeout=TIMEOUT)
        subprocess.run([pgtools.PSQL, "-X", "-q", cls.conninfo, "-c", "SELECT pg_reload_conf()"],
                       check=True, capture_output=True, timeout=TIMEOUT)

    @classmethod
    def tearDownClass(cls):
        cls.srv.stop()

    def test_snapshot_and_check_live(self):
        r = run("snapshot", self.conninfo)
        self.assertEqual(r.returncode, EXIT_OK, r.stderr)
        self.assertIn("password=*****", r.stdout)
        self.assertNotIn("hunter7", r.stdout + r.stderr)
        with tempfile.TemporaryDirectory() as tmp:
            snap = os.path.join(tmp, "s.json")
            with open(snap, "w") as f:
                f.write(r.stdout)
            for fmt in ["full", "json", "sarif"]:
                for source in (["--live", self.conninfo], ["--snapshot", snap]):
                    with self.subTest(format=fmt, source=source[0]):
                        c = run("check", "--no-config", "--fail-on", "never", "--format", fmt, *source)
                        self.assertEqual(c.returncode, EXIT_OK, c.stderr)
                        self.assertNotIn("hunter7", c.stdout + c.stderr)
            # The snapshot holds the password masked: the repository's same value is no drift.
            data = os.path.join(tmp, "data")
            os.makedirs(data)
            with open(os.path.join(data, "PG_VERSION"), "w") as f:
                f.write("18\n")
            with open(os.path.join(data, "postgresql.conf"), "w") as f:
                f.write("primary_conninfo = 'host=up user=r password=hunter7'\nwork_mem = '1MB'\n")
            c = run("check", "--no-config", "--fail-on", "never", "--format", "concise", data, "--snapshot", snap)
            self.assertEqual(c.returncode, EXIT_OK, c.stderr)
            self.assertIn("PGC1103", c.stdout)  # drift is compared (work_mem differs)
            self.assertNotRegex(c.stdout, r"primary_conninfo.*PGC1103")
            self.assertNotIn("hunter7", c.stdout + c.stderr)

    def test_libpq_messages_are_scrubbed(self):
        for conninfo in ["postgresql://u:hunter8%zz@127.0.0.1:1/x",
                         f"host=127.0.0.1 port=1 user=u PASSWORD=hunter8 connect_timeout=2",
                         "postgresql://u:hunter8@[::1/x", "host=x password=hunter8 bogus_option=1"]:
            with self.subTest(conninfo=conninfo):
                r = run("check", "--no-config", "--live", conninfo)
                self.assertEqual(r.returncode, 3, r.stdout + r.stderr)
                self.assertIn("pgconflint: error:", r.stderr)
                self.assertNotIn("hunter8", r.stdout + r.stderr)


if __name__ == "__main__":
    unittest.main()
