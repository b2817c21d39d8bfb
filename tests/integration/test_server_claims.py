#!/usr/bin/env python3
"""pgconflint's claims about the server, checked by really starting PostgreSQL.

Two parts, each against the binaries of .cache/postgres/<major> run as the unprivileged
test user (tests/support/pgtools.py), with the configuration given as `config_file` so
that the server reads exactly the file pgconflint checks (plus port and socket options
on the command line):

* derived values (PostgreSQL 18): for a table of shared_buffers / max_connections /
  worker settings, a server is started and `io_max_concurrency` and `wal_buffers` are read
  back (SHOW and pg_settings.setting); they must equal the `effective` value of
  `pgconflint show --format json` for the same file. MaxBackends is compared through
  `postgres -C num_os_semaphores` (= MaxBackends + 38 in 18), and the values the check hooks
  raise silently (wal_buffers below 4, autovacuum_work_mem below 64kB, below 1MB up to 16)
  through `postgres -C`, for every major in .cache/postgres.
  The VACUUM ring cap (vacuum_buffer_usage_limit) is not observable with SHOW: not checked.
* fatal claims: every cross-parameter rule with `outcome = "refuses-start"` (PGC403, PGC504, PGC511,
  PGC512, PGC513) has fixtures in tests/fixtures/server_claims/, firing and near-miss ones
  (except the claims about other operating systems in NOT_STARTABLE_HERE, each with its source).
  Each is started with pg_ctl (PostgreSQL 18 and 17, where the rule applies); the server
  must fail exactly when pgconflint's root is `fatal`, the rule itself must fire exactly
  then, and the server's log must hold the FATAL message of that rule (not, say, a shared
  memory allocation failure). A configuration whose shared memory would be too large to
  start here (MaxBackends near 2^18) is asked with `postgres -C shared_memory_size`
  instead, which runs the same MaxBackends check without allocating anything. PGC504 is
  also checked on a data directory made with initdb --wal-segsize=64 (wal_segsize_64/).

Disagreements that come from the server build (no liburing) are reported as "env" and not
counted. Known rule bugs are listed in KNOWN_DISAGREEMENTS, KNOWN_HOOK_DISAGREEMENTS and
KNOWN_SEGSIZE_DISAGREEMENTS, strictly: an entry that starts agreeing fails the test, so
that it is removed when the rule is fixed.

Usage: python3 tests/integration/test_server_claims.py [-v]
Environment: PGCONFLINT (binary, default /tmp/build-tmp/pgconflint);
             SERVER_CLAIMS_MAJORS (default: the two newest majors; any supported
             major for the fatal claims).
Needs: .cache/postgres/<major> (scripts/fetch-postgres.sh), psql, root or the test user.
"""
import atexit
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))

import pgtools  # noqa: E402
import supported  # noqa: E402

FIXTURES = os.path.join(ROOT, "tests", "fixtures", "server_claims")
PGCONFLINT = os.environ.get("PGCONFLINT", "/tmp/build-tmp/pgconflint")
EVERY_MAJOR = supported.majors(PGCONFLINT)
# The two newest majors, newest first.
MAJORS = supported.majors_from_env("SERVER_CLAIMS_MAJORS", (EVERY_MAJOR[-1], EVERY_MAJOR[-2]), path=PGCONFLINT)
ORACLE_ENV = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C"}
LOG_PREFIX = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? \S+ \[\d+\] ")
# Above this much shared memory a configuration that the server would accept is not
# started (MaxBackends near 2^18 needs about 12GB); `-C shared_memory_size` answers instead.
MAX_START_SHMEM_MB = 2048
PROCESS_COUNTS = ("max_connections", "max_worker_processes", "autovacuum_worker_slots",
                  "autovacuum_max_workers", "max_wal_senders")
UNITS = {"B": 1, "kB": 1024, "MB": 1024 ** 2, "GB": 1024 ** 3, "TB": 1024 ** 4}


# ---------------------------------------------------------------------------------------
# Running the two sides


def pgconflint(*args):
    r = subprocess.run([PGCONFLINT, *args], capture_output=True, text=True, errors="replace",
                       env=dict(os.environ, NO_COLOR="1"), timeout=120)
    if r.returncode not in (0, 1):
        raise AssertionError(f"pgconflint {' '.join(args)}: exit {r.returncode}\n{r.stderr}")
    return json.loads(r.stdout)


def lint(major, path, flags=()):
    """`check --format json` of one file: (root fatal, diagnostics, settings)."""
    # --server-host yes: the servers compared with run on this machine.
    out = pgconflint("check", "--pg-version", str(major), "--format", "json", "--fail-on", "never",
                     "--no-config", "--server-host", "yes", *flags, path)
    return out["roots"][0]["fatal"], out["diagnostics"], out["roots"][0]["settings"]


def show(major, path, names):
    out = pgconflint("show", "--pg-version", str(major), "--format", "json", "--no-config", path, *names)
    return {row["name"]: row for row in out}


def to_bytes(text):
    m = re.fullmatch(r"(-?\d+)\s*(B|kB|MB|GB|TB)", text.strip())
    if not m:
        raise ValueError(f"not a memory value: {text!r}")
    return int(m.group(1)) * UNITS[m.group(2)]


def log_lines(text):
    return [LOG_PREFIX.sub("", ln) for ln in text.splitlines() if ln.strip()]


def fatal_message(lines):
    """Why the server refused to start: the first FATAL line with its DETAIL; when that is
    only "configuration file ... contains errors", the lines that said which setting."""
    for i, ln in enumerate(lines):
        if ln.startswith(("FATAL:", "PANIC:")):
            msg = ln
            if i + 1 < len(lines) and lines[i + 1].startswith("DETAIL:"):
                msg += " " + lines[i + 1]
            if "contains errors" in ln:
                why = [x for x in lines[:i] if x.startswith(("LOG:", "DETAIL:", "HINT:"))]
                msg = " ".join(why) + " -> FATAL: configuration file contains errors"
            return re.sub(r"\s+", " ", msg)
    # The reserved-connections check writes to stderr without a log prefix.
    for ln in lines:
        if not ln.startswith(("LOG:", "HINT:", "DETAIL:", "WARNING:", "waiting", "pg_ctl", "Examine")):
            return ln
    return lines[0] if lines else "(no output)"


class Cluster:
    """One initdb'd data directory per major, started and stopped once per configuration."""

    def __init__(self, major):
        self.major = major
        self.datadir = pgtools.initdb(major)
        self.base = pgtools.make_tempdir(f"pgconflint-claims{major}-")
        self.sockdir = os.path.join(self.base, "sock")
        os.mkdir(self.sockdir)
        os.chmod(self.sockdir, 0o777)
        self.n = 0
        self.running = False

    def cleanup(self):
        self.stop()
        shutil.rmtree(self.base, ignore_errors=True)

    def place(self, path_or_text, name=None):
        """Copies a config file (or writes text) where the test user can read it; returns the path."""
        self.n += 1
        d = os.path.join(self.base, f"c{self.n:03d}")
        os.mkdir(d)
        dst = os.path.join(d, name or "postgresql.conf")
        if os.path.exists(path_or_text):
            shutil.copyfile(path_or_text, dst)
        else:
            with open(dst, "w") as f:
                f.write(path_or_text)
        pgtools.share_with_user(d)
        os.chmod(d, 0o777)  # the server writes its log next to the file
        return dst

    def run(self, argv, **kw):
        return pgtools.run_as_user(argv, capture_output=True, text=True, errors="replace",
                                   env=ORACLE_ENV, cwd="/", timeout=kw.pop("timeout", 120), **kw)

    def postgres_C(self, conf, name):
        r = self.run([pgtools.pg_bin(self.major), "-D", self.datadir, "-c", f"config_file={conf}", "-C", name])
        return r.returncode == 0, r.stdout.strip(), log_lines(r.stderr)

    def start(self, conf):
        """pg_ctl start with `conf` as config_file: (started, log lines)."""
        assert not self.running
        log = os.path.join(os.path.dirname(conf), "server.log")
        self.port = pgtools.free_port()
        opts = (f"-c config_file={conf} -c port={self.port} -c listen_addresses='' "
                f"-c unix_socket_directories={self.sockdir}")
        r = self.run([pgtools.pg_bin(self.major, "pg_ctl"), "-D", self.datadir, "-l", log, "-w", "-t", "60",
                      "-o", opts, "start"])
        text = ""
        if os.path.exists(log):
            with open(log, errors="replace") as f:
                text = f.read()
        self.running = r.returncode == 0
        return self.running, log_lines(text or r.stdout + r.stderr)

    def stop(self):
        if self.running:
            self.run([pgtools.pg_bin(self.major, "pg_ctl"), "-D", self.datadir, "-m", "fast", "-w", "stop"])
            self.running = False

    def psql(self, sql):
        r = subprocess.run([pgtools.PSQL, "-X", "-q", "-A", "-t", "-F", "|", "-v", "ON_ERROR_STOP=1", "-h", self.sockdir,
                            "-p", str(self.port), "-U", "postgres", "-d", "postgres", "-c", sql],
                           capture_output=True, text=True, errors="replace", timeout=60)
        if r.returncode != 0:
            raise AssertionError(f"psql failed: {r.stderr}")
        return [ln.split("|") for ln in r.stdout.splitlines() if ln]


_CLUSTERS = {}


def cluster(major):
    if major not in _CLUSTERS:
        _CLUSTERS[major] = Cluster(major)
    return _CLUSTERS[major]


def tearDownModule():
    for c in _CLUSTERS.values():
        c.cleanup()


atexit.register(tearDownModule)


# ---------------------------------------------------------------------------------------
# 1. Derived values (PostgreSQL 18)

# The first eight rows are ordinary configurations (docs/postgresql-semantics.md#io-max-concurrency);
# the rest probe the edges (64 exactly, 63, explicit values, the wal_buffers cap).
DERIVED_18 = [
    {"shared_buffers": "128MB", "max_connections": 100},
    {"shared_buffers": "1GB", "max_connections": 100},
    {"shared_buffers": "32MB", "max_connections": 100},
    {"shared_buffers": "128MB", "max_connections": 1000},
    {"shared_buffers": "16MB", "max_connections": 20},
    {"shared_buffers": "256MB", "max_connections": 500},
    {"shared_buffers": "64MB", "max_connections": 100, "max_worker_processes": 64,
     "autovacuum_worker_slots": 32, "max_wal_senders": 0},
    {"shared_buffers": "128kB", "max_connections": 5},
    {"shared_buffers": "87MB", "max_connections": 100},          # 11136 / 174 = 64 exactly
    {"shared_buffers": "86MB", "max_connections": 100},          # 11008 / 174 = 63
    {"shared_buffers": "48MB", "max_connections": 50, "autovacuum_worker_slots": 4,
     "max_worker_processes": 2, "max_wal_senders": 1},          # 6144 / 97 = 63
    {"shared_buffers": "100MB", "max_connections": 300, "autovacuum_worker_slots": 8},  # 400 pages = 3200kB
    {"shared_buffers": "512MB", "max_connections": 100},         # wal_buffers reaches the 16MB cap
    {"shared_buffers": "32MB", "io_max_concurrency": -1, "wal_buffers": -1},  # explicit -1: source override
    {"shared_buffers": "32MB", "io_max_concurrency": 8, "wal_buffers": 2},    # explicit: 8, and 2 -> 4
    {"shared_buffers": "2MB", "max_connections": 10, "max_worker_processes": 0, "max_wal_senders": 0,
     "autovacuum_worker_slots": 1},                               # 256 / (10+1+0+0+2+38) = 5; wal 8 pages
]

# Check-hook adjustments, through `postgres -C` (every major in MAJORS and 18):
# (setting line, parameter, pgconflint `show` field holding the comparable value).
HOOK_CASES = [
    ("wal_buffers = 2", "wal_buffers"),
    ("wal_buffers = 3", "wal_buffers"),
    ("wal_buffers = 4", "wal_buffers"),
    ("wal_buffers = 5", "wal_buffers"),
    ("autovacuum_work_mem = 10", "autovacuum_work_mem"),
    ("autovacuum_work_mem = 0", "autovacuum_work_mem"),
    ("autovacuum_work_mem = 63", "autovacuum_work_mem"),
    ("autovacuum_work_mem = '64kB'", "autovacuum_work_mem"),
    ("autovacuum_work_mem = 1000", "autovacuum_work_mem"),
    ("autovacuum_work_mem = '1MB'", "autovacuum_work_mem"),
]
# (line, major) -> why pgconflint differs; strict, like KNOWN_DISAGREEMENTS below.
# (Empty: autovacuum_work_mem's 1MB minimum before 17 is modelled.)
KNOWN_HOOK_DISAGREEMENTS = {}


def conf_text(settings):
    return "".join(f"{k} = {v!r}\n" if isinstance(v, str) else f"{k} = {v}\n" for k, v in settings.items())


SHORT = {"max_connections": "mc", "shared_buffers": "sb", "max_worker_processes": "mwp",
         "autovacuum_worker_slots": "av_slots", "max_wal_senders": "wal_senders"}


def label(settings):
    return " ".join(f"{SHORT.get(k, k)}={v}" for k, v in settings.items())


class DerivedValuesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(PGCONFLINT, os.X_OK):
            raise RuntimeError(f"pgconflint binary not found at {PGCONFLINT}: set PGCONFLINT")

    def test_io_max_concurrency_and_wal_buffers_18(self):
        c = cluster(18)
        rows, bad = [], []
        for settings in DERIVED_18:
            conf = c.place(conf_text(settings))
            lint_view = show(18, conf, ["io_max_concurrency", "wal_buffers"])
            _, diags, lint_settings = lint(18, conf)
            ok, sems, err = c.postgres_C(conf, "num_os_semaphores")
            self.assertTrue(ok, f"{label(settings)}: postgres -C num_os_semaphores failed: {err}")
            started, log = c.start(conf)
            self.assertTrue(started, f"{label(settings)}: server did not start:\n" + "\n".join(log))
            try:
                server = {name: (setting, shown, source) for name, setting, shown, source in c.psql(
                    "SELECT name, setting, current_setting(name), source FROM pg_settings "
                    "WHERE name IN ('io_max_concurrency', 'wal_buffers') ORDER BY name")}
            finally:
                c.stop()
            # pgconflint's check --format json "effective" of lines that set the parameter.
            checked = {s["name"]: s["effective"] for s in lint_settings if s["applied"]}
            imc_lint = lint_view["io_max_concurrency"]["effective"]
            wal_lint = lint_view["wal_buffers"]["effective"]
            # `show max_backends` is refused ("unknown parameter"): MaxBackends is read from
            # io_max_concurrency's note, present when it is automatic.
            m = re.search(r"MaxBackends (\d+)", lint_view["io_max_concurrency"]["effective_note"] or "")
            mb_lint = int(m.group(1)) if m else None
            imc_set, imc_show, imc_src = server["io_max_concurrency"]
            wal_set, wal_show, wal_src = server["wal_buffers"]
            verdicts = {
                "io_max_concurrency": imc_lint == imc_set == imc_show,
                "wal_buffers": to_bytes(wal_lint) == int(wal_set) * 8192 == to_bytes(wal_show),
                "wal_buffers SHOW text": wal_lint == wal_show,
            }
            if mb_lint is not None:
                verdicts["MaxBackends"] = mb_lint + 38 == int(sems)
            if "io_max_concurrency" in checked:
                verdicts["check effective io_max_concurrency"] = checked["io_max_concurrency"] == imc_set
            if "wal_buffers" in checked:
                verdicts["check effective wal_buffers"] = checked["wal_buffers"] == wal_set
            rows.append((label(settings), imc_lint, f"{imc_show} ({imc_src})", wal_lint, f"{wal_show} ({wal_src})",
                         f"{mb_lint}+38" if mb_lint else "-", sems, all(verdicts.values())))
            for what, good in verdicts.items():
                if not good:
                    bad.append(f"{label(settings)}: {what}: pgconflint io_max_concurrency={imc_lint} "
                               f"wal_buffers={wal_lint} max_backends={mb_lint} checked={checked}; server "
                               f"io_max_concurrency={imc_set}/{imc_show} wal_buffers={wal_set}/{wal_show} "
                               f"num_os_semaphores={sems}")
            # PGC404 must agree with the server's io_max_concurrency too.
            fired = any(d["code"] == "PGC404" for d in diags)
            self.assertEqual(fired, 16 > int(imc_set), f"{label(settings)}: PGC404 fired={fired} "
                             f"but effective_io_concurrency 16 vs io_max_concurrency {imc_set}")
        agree = sum(1 for r in rows if r[-1])
        print(f"\nPostgreSQL 18 derived values: pgconflint show vs a running server ({agree}/{len(rows)} agree)")
        hdr = ("settings", "imc lint", "imc server", "wal lint", "wal server", "MaxB lint", "semas", "ok")
        widths = (62, 8, 16, 8, 16, 10, 6, 3)
        print("  " + " ".join(h.ljust(w) for h, w in zip(hdr, widths)))
        for r in rows:
            print("  " + " ".join(str(v if not isinstance(v, bool) else ("yes" if v else "NO")).ljust(w)
                                  for v, w in zip(r, widths)))
        sys.stdout.flush()
        self.assertEqual(bad, [], "derived values differ from the running server")

    def test_check_hook_adjustments(self):
        rows, bad = [], []
        majors = [m for m in EVERY_MAJOR if os.access(os.path.join(pgtools.pg_home(m), "bin", "postgres"), os.X_OK)]
        self.assertIn(18, majors, "PostgreSQL 18 is missing from .cache/postgres")
        for major in majors:
            c = cluster(major)
            for line, name in HOOK_CASES:
                conf = c.place(line + "\n")
                ok, server, err = c.postgres_C(conf, name)
                self.assertTrue(ok, f"{major} {line}: {err}")
                view = show(major, conf, [name])[name]
                _, _, settings = lint(major, conf)
                value = next(s["value"] for s in settings if s["name"] == name)
                unit = 8192 if name == "wal_buffers" else 1024
                good = (value == server and view["configured"] == server
                        and to_bytes(view["effective"]) == int(server) * unit)
                known = KNOWN_HOOK_DISAGREEMENTS.get((line, major))
                rows.append((major, line, server, value, view["effective"],
                             ("known bug" if known else "DIFFERS") if not good else ("FIXED?" if known else "ok")))
                if known and good:
                    bad.append(f"{major} {line}: listed in KNOWN_HOOK_DISAGREEMENTS but now agrees; remove it")
                elif not good and not known:
                    bad.append(f"{major} {line}: server -C {server}, pgconflint value {value}, "
                               f"show configured {view['configured']} effective {view['effective']}")
        print(f"\ncheck-hook adjustments, postgres -C vs pgconflint "
              f"({sum(1 for r in rows if r[-1] == 'ok')}/{len(rows)} agree)")
        for r in rows:
            print(f"  PG{r[0]} {r[1]:32} server {r[2]:>4}  pgconflint value {r[3]:>4} effective {r[4]:>6}  {r[5]}")
        for (line, major), why in sorted(KNOWN_HOOK_DISAGREEMENTS.items(), key=lambda kv: kv[0][1])[:1]:
            print(f"  known bug: {why}")
        sys.stdout.flush()
        self.assertEqual(bad, [])


# ---------------------------------------------------------------------------------------
# 2. Fatal claims

Case = collections.namedtuple("Case", "fixture rule majors expect flags env")
# expect: {major: regex of the server's FATAL message, or None when it must start}. The
# regexes are matched against the log with double quotes removed (17 quotes names, 16 not).
WAL_SIZE = {m: r"max_wal_size must be at least twice wal_segment_size" for m in EVERY_MAJOR}
MIN_WAL = {m: r"min_wal_size must be at least twice wal_segment_size" for m in EVERY_MAJOR}
STREAMING = {m: r"WAL streaming \(max_wal_senders > 0\) requires wal_level (to be )?replica or logical"
             for m in EVERY_MAJOR}
ARCHIVAL = {m: r"WAL archival cannot be enabled when wal_level is minimal" for m in EVERY_MAJOR}


def free_huge_pages():
    """HugePages_Free of this host (0 when it shows none)."""
    try:
        with open("/proc/meminfo") as f:
            m = re.search(r"^HugePages_Free:\s+(\d+)", f.read(), re.M)
    except OSError:
        return 0
    return int(m.group(1)) if m else 0


# PGC516 against a host that has no huge pages: huge_pages = on cannot map the area. A host
# with free huge pages may start it (the profile says 0, the host decides): not counted there.
HUGE_PAGES_ENV = None if free_huge_pages() == 0 else f"this host has {free_huge_pages()} free huge pages"
HUGE_PAGES = ({m: r"could not map anonymous shared memory" for m in EVERY_MAJOR} if HUGE_PAGES_ENV is None
              else {m: None for m in EVERY_MAJOR})
SUMMARIZE = {m: r"WAL cannot be summarized when wal_level is minimal" for m in (17, 18)}
RESERVED = {m: r"superuser_reserved_connections \(\d+\)( plus reserved_connections \(\d+\))? must be less "
               r"than max_connections \(\d+\)" for m in EVERY_MAJOR}
# 18 checks MaxBackends once, after reading the file. Up to 17 each of max_connections,
# autovacuum_max_workers, max_worker_processes and max_wal_senders has a check hook that adds
# the others' current values (so the file order matters), and 17 checks again in
# InitializeMaxBackends counting one more special process than the hooks.
TOO_MANY_18 = r"too many server processes configured"
TOO_MANY_17 = r"too many backends configured"


def hook(param):
    return rf"invalid value for parameter {param}: \d+"


def same(regex, majors=EVERY_MAJOR):
    return {m: regex for m in majors}


ALL = EVERY_MAJOR
CASES = [
    Case("pgc504_max_wal_size_16MB", "PGC504", ALL, WAL_SIZE, (), None),
    Case("pgc504_max_wal_size_31MB", "PGC504", ALL, WAL_SIZE, (), None),
    Case("pgc504_max_wal_size_32255kB", "PGC504", ALL, WAL_SIZE, (), None),
    Case("pgc504_max_wal_size_32MB", "PGC504", ALL, same(None), (), None),
    Case("pgc504_max_wal_size_32767kB", "PGC504", ALL, same(None), (), None),
    Case("pgc504_min_wal_size_31MB", "PGC504", ALL, MIN_WAL, (), None),
    Case("pgc504_min_wal_size_32MB", "PGC504", ALL, same(None), (), None),
    Case("pgc511_minimal_default_senders", "PGC511", ALL, STREAMING, (), None),
    Case("pgc511_minimal_one_sender", "PGC511", ALL, STREAMING, (), None),
    Case("pgc511_minimal_no_senders", "PGC511", ALL, same(None), (), None),
    Case("pgc511_minimal_archive_on", "PGC511", ALL, ARCHIVAL, (), None),
    Case("pgc511_minimal_archive_always", "PGC511", ALL, ARCHIVAL, (), None),
    Case("pgc511_replica_archive_on", "PGC511", ALL, same(None), (), None),
    Case("pgc511_minimal_summarize_wal", "PGC511", (17, 18), SUMMARIZE, (), None),
    Case("pgc511_replica_summarize_wal", "PGC511", (17, 18), same(None), (), None),
    Case("pgc512_superuser_equal", "PGC512", ALL, RESERVED, (), None),
    Case("pgc512_superuser_one_less", "PGC512", ALL, same(None), (), None),
    Case("pgc512_default_superuser", "PGC512", ALL, RESERVED, (), None),
    Case("pgc512_default_superuser_near", "PGC512", ALL, same(None), (), None),
    Case("pgc512_sum_equal", "PGC512", (16, 17, 18), RESERVED, (), None),
    Case("pgc512_sum_one_less", "PGC512", (16, 17, 18), same(None), (), None),
    Case("pgc512_reserved_only", "PGC512", (16, 17, 18), RESERVED, (), None),
    Case("pgc513_max_connections_262143", "PGC513", ALL,
         {**same(hook("max_connections"), (14, 15, 16, 17)), 18: TOO_MANY_18}, (), None),
    Case("pgc513_max_connections_262108", "PGC513", ALL, {**same(None, (14, 15, 16, 17)), 18: TOO_MANY_18}, (), None),
    Case("pgc513_max_connections_262107", "PGC513", ALL, same(None), (), None),
    Case("pgc513_max_connections_262121", "PGC513", ALL,
         {**same(None, (14, 15, 16)), 17: TOO_MANY_17, 18: TOO_MANY_18}, (), None),
    Case("pgc513_max_connections_262120", "PGC513", ALL, {**same(None, (14, 15, 16, 17)), 18: TOO_MANY_18}, (), None),
    Case("pgc513_worker_processes", "PGC513", ALL,
         {**same(hook("max_worker_processes"), (14, 15, 16, 17)), 18: TOO_MANY_18}, (), None),
    Case("pgc513_worker_slots", "PGC513", (18,), {18: TOO_MANY_18}, (), None),
    Case("pgc513_order_senders_after", "PGC513", ALL,
         {**same(hook("max_connections"), (14, 15, 16, 17)), 18: TOO_MANY_18}, (), None),
    Case("pgc513_order_senders_first", "PGC513", ALL, {**same(None, (14, 15, 16, 17)), 18: TOO_MANY_18}, (), None),
    Case("pgc403_io_uring", "PGC403", (18,), {18: r"invalid value for parameter io_method: io_uring"},
         ("--os", "linux", "--io-uring", "no"), None),
    Case("pgc403_io_uring", "PGC403", (18,), {18: r"invalid value for parameter io_method: io_uring"},
         ("--os", "linux", "--container", "docker"), None),
    Case("pgc403_io_uring", "PGC403", (18,), {18: r"invalid value for parameter io_method: io_uring"},
         ("--os", "freebsd"), None),
    Case("pgc403_io_uring", "PGC403", (18,), {18: r"invalid value for parameter io_method: io_uring"},
         (), "no profile: pgconflint cannot know the build; this PostgreSQL 18 has no liburing"),
    Case("pgc403_io_uring", "PGC403", (18,), {18: r"invalid value for parameter io_method: io_uring"},
         ("--os", "linux", "--io-uring", "yes"),
         "the profile says io_uring works; this PostgreSQL 18 has no liburing"),
    Case("pgc403_worker", "PGC403", (18,), {18: None}, ("--os", "linux", "--io-uring", "no"), None),
    Case("pgc516_on_no_pages", "PGC516", ALL, HUGE_PAGES, ("--os", "linux", "--huge-pages", "0"), HUGE_PAGES_ENV),
    Case("pgc516_try_no_pages", "PGC516", ALL, same(None), ("--os", "linux", "--huge-pages", "0"), None),
]

# (fixture, major) -> why pgconflint disagrees with the server. These are rule bugs to fix
# in src/ or rules/, kept here so that the suite stays green meanwhile; an entry that
# starts agreeing fails the test (remove it then).
KNOWN_DISAGREEMENTS = {}  # PGC513's 17 count (+2) and the 14-17 order dependence are modelled

# wal_segsize_64/ snippet -> why pgconflint disagrees (strict, as above).
SEGSIZE_BUG = ("PGC504 compares with the 16MB default wal_segment_size even when it checks a data directory; "
               "the segment size of the cluster is in global/pg_control (initdb --wal-segsize)")
KNOWN_SEGSIZE_DISAGREEMENTS = {
    "max_wal_size_100MB.conf": SEGSIZE_BUG,
    "min_wal_size_80MB.conf": SEGSIZE_BUG,
}


def rule_fires(diags, rule):
    return [d for d in diags if d["code"] == rule]


# Fatal claims about platforms this host is not: no server of theirs can be started here, so
# they rest on the documentation named, and are listed so that a new one is a decision.
NOT_STARTABLE_HERE = {
    "PGC515": "huge_pages = on on macOS or FreeBSD (the profile's --os): the documentation of huge_pages says "
              "only Linux and Windows request huge pages and that with on a failure stops the start",
}


class FatalClaimsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(PGCONFLINT, os.X_OK):
            raise RuntimeError(f"pgconflint binary not found at {PGCONFLINT}: set PGCONFLINT")

    def test_fatal_rules_have_fixtures(self):
        """Every cross-parameter rule declared outcome = "refuses-start" has firing and near-miss cases."""
        fatal_rules = set()
        for name in os.listdir(os.path.join(ROOT, "rules")):
            # pg_hba.conf / pg_ident.conf rules: their fatal verdicts are checked against
            # the servers' views by test_hba_differential.py, not with postgresql.conf fixtures.
            if not name.endswith(".toml") or name == "hba.toml":
                continue
            with open(os.path.join(ROOT, "rules", name), encoding="utf-8") as f:
                text = f.read()
            for block in re.split(r"^\[\[rule\]\]", text, flags=re.M)[1:]:
                code = re.search(r'^code = "(PGC\d+)"', block, re.M)
                if code and re.search(r'^outcome = "refuses-start"', block, re.M) and code.group(1)[3] in "45678":
                    fatal_rules.add(code.group(1))
        self.assertLessEqual(set(NOT_STARTABLE_HERE), fatal_rules, "NOT_STARTABLE_HERE names no fatal rule")
        fatal_rules -= set(NOT_STARTABLE_HERE)
        covered = collections.defaultdict(set)
        for case in CASES:
            for m in case.majors:
                covered[case.rule].add(case.expect[m] is None)
        self.assertEqual(sorted(fatal_rules), sorted(covered), "fatal rules vs rules with fixtures")
        for rule in fatal_rules:
            self.assertEqual(covered[rule], {True, False}, f"{rule} needs firing and near-miss fixtures")
        on_disk = {n[:-5] for n in os.listdir(FIXTURES) if n.endswith(".conf")}
        self.assertEqual(on_disk, {c.fixture for c in CASES}, "fixtures without a case, or cases without a file")

    def test_server_fails_exactly_when_fatal(self):
        rows, problems = [], []
        seen_known = set()
        for major in MAJORS:
            try:
                pgtools.pg_bin(major)
            except RuntimeError as e:
                self.fail(str(e))
            c = cluster(major)
            for case in CASES:
                if major not in case.majors:
                    continue
                src = os.path.join(FIXTURES, case.fixture + ".conf")
                lint_fatal, diags, settings = lint(major, src, case.flags)
                fired = rule_fires(diags, case.rule)
                rule_fatal = any(d["fatal"] for d in fired)
                conf = c.place(src)
                started, how, message = self.oracle(c, conf, settings)
                expect = case.expect[major]
                name = case.fixture + (" " + " ".join(case.flags) if case.flags else "")
                key = (case.fixture, major)
                agrees = lint_fatal == (not started)
                verdict = "agree" if agrees else "DISAGREE"
                if case.env:
                    verdict = "env" if not agrees else "agree"
                elif key in KNOWN_DISAGREEMENTS:
                    seen_known.add(key)
                    verdict = "known bug" if not agrees else "FIXED?"
                rows.append((name, major, case.rule, "fatal" if lint_fatal else "-",
                             "yes" if fired else "-", how, message, verdict))
                where = f"PG{major} {name}"
                # The fixture must do what it was written for (else the test is wrong).
                if (expect is None) != started:
                    problems.append(f"{where}: fixture expects the server to "
                                    f"{'start' if expect is None else 'fail'}, it {how}: {message}")
                elif expect is not None and not re.search(expect, message.replace('"', "")):
                    problems.append(f"{where}: the server failed for another reason than {case.rule}'s "
                                    f"(expected /{expect}/): {message}")
                if case.env:
                    continue
                if key in KNOWN_DISAGREEMENTS:
                    if agrees:
                        problems.append(f"{where}: listed in KNOWN_DISAGREEMENTS but now agrees; remove the entry")
                    continue
                if not agrees:
                    problems.append(f"{where}: pgconflint fatal={lint_fatal} but the server {how}: {message}; "
                                    f"diagnostics: {[(d['code'], d['message']) for d in diags]}")
                elif fired and not rule_fatal:
                    problems.append(f"{where}: {case.rule} fired without fatal")
                elif (not fired and not started and major <= 17 and case.rule == "PGC513" and
                      "invalid value for parameter" in message and
                      any(d["code"] == "PGC201" and d["fatal"] for d in diags)):
                    # Up to 17 the process counts are refused by their check hooks
                    # ("invalid value for parameter"), which pgconflint reports as
                    # PGC201 on the line the server names.
                    continue
                elif bool(fired) != (not started):
                    problems.append(f"{where}: root fatal agrees, but {case.rule} fired={bool(fired)} "
                                    f"while the server {how}: {[(d['code'], d['message']) for d in diags]}")
        for key in sorted(set(KNOWN_DISAGREEMENTS) - seen_known):
            if key[1] in MAJORS:
                problems.append(f"KNOWN_DISAGREEMENTS entry {key} matches no case")
        print_table(rows)
        self.assertEqual(problems, [], "fatal claims disagree with the server")

    def test_wal_segment_size_of_data_directory(self):
        """PGC504 on a data directory made with initdb --wal-segsize=64 (PostgreSQL 18):
        each snippet of wal_segsize_64/ is appended to its postgresql.conf, the server is
        started with pg_ctl -D, and pgconflint checks the data directory."""
        base = pgtools.make_tempdir("pgconflint-segsize-")
        self.addCleanup(shutil.rmtree, base, True)
        datadir = os.path.join(base, "data")
        r = subprocess.run(pgtools.as_user([pgtools.pg_bin(18, "initdb"), "-D", datadir, "-A", "trust", "-U",
                                            "postgres", "--no-sync", "-E", "UTF8", "--locale=C",
                                            "--wal-segsize=64"]),
                           capture_output=True, text=True, env=ORACLE_ENV, cwd="/")
        self.assertEqual(r.returncode, 0, r.stderr)
        conf = os.path.join(datadir, "postgresql.conf")
        with open(conf) as f:
            stock = f.read()
        sock = os.path.join(base, "sock")
        os.mkdir(sock)
        os.chmod(sock, 0o777)
        rows, problems = [], []
        folder = os.path.join(FIXTURES, "wal_segsize_64")
        for name in sorted(os.listdir(folder)):
            with open(os.path.join(folder, name)) as f:
                snippet = f.read()
            with open(conf, "w") as f:
                f.write(stock + "\n" + snippet)
            lint_fatal, diags, _ = lint(18, datadir)
            log = os.path.join(base, name + ".log")
            opts = f"-c port={pgtools.free_port()} -c listen_addresses='' -c unix_socket_directories={sock}"
            r = subprocess.run(pgtools.as_user([pgtools.pg_bin(18, "pg_ctl"), "-D", datadir, "-l", log, "-w",
                                                "-t", "60", "-o", opts, "start"]),
                               capture_output=True, text=True, env=ORACLE_ENV, cwd="/")
            started = r.returncode == 0
            if started:
                subprocess.run(pgtools.as_user([pgtools.pg_bin(18, "pg_ctl"), "-D", datadir, "-m", "fast", "-w",
                                                "stop"]), capture_output=True, env=ORACLE_ENV, cwd="/")
            with open(log, errors="replace") as f:
                message = "" if started else fatal_message(log_lines(f.read()))
            fired = rule_fires(diags, "PGC504")
            agrees = lint_fatal == (not started)
            known = KNOWN_SEGSIZE_DISAGREEMENTS.get(name)
            rows.append((f"wal_segsize_64/{name}", 18, "PGC504", "fatal" if lint_fatal else "-",
                         "yes" if fired else "-", "started" if started else "failed", message,
                         ("known bug" if known else "DISAGREE") if not agrees else ("FIXED?" if known else "agree")))
            if not started and not re.search(r"(max|min)_wal_size must be at least twice", message.replace('"', "")):
                problems.append(f"{name}: the server failed for another reason: {message}")
            if known and agrees:
                problems.append(f"{name}: listed in KNOWN_SEGSIZE_DISAGREEMENTS but now agrees; remove it")
            elif not known and not agrees:
                problems.append(f"{name}: pgconflint fatal={lint_fatal}, server {'started' if started else message}")
        print_table(rows)
        self.assertEqual(problems, [])

    def oracle(self, c, conf, settings):
        """(started, how, message) for one configuration."""
        # A refusal while reading the file or sizing shared memory happens before anything
        # is allocated, so such files are started for real, to read the postmaster's log.
        if c.major >= 15:
            ok, size, _ = c.postgres_C(conf, "shared_memory_size")
            if ok and int(size) > MAX_START_SHMEM_MB:
                return True, "accepted by -C", f"not started: shared_memory_size = {size}MB"
        else:
            # 14 has no shared_memory_size: no start when a process count is huge.
            ok, _, _ = c.postgres_C(conf, "max_connections")
            huge = [s for s in settings if s["name"] in PROCESS_COUNTS and s["value"] and int(s["value"]) > 10000]
            if ok and huge:
                return True, "accepted by -C", f"not started: {huge[0]['name']} = {huge[0]['value']}"
        started, log = c.start(conf)
        if started:
            c.stop()
            return True, "started", ""
        return False, "failed", fatal_message(log)


def print_table(rows):
    print("\nfatal claims: pgconflint root fatal vs a real server start (pg_ctl)")
    hdr = ("case", "PG", "rule", "lint", "fired", "server", "server message", "verdict")
    widths = (58, 2, 6, 5, 5, 14, 0, 0)
    print("  " + " ".join(h.ljust(w) for h, w in zip(hdr, widths)))
    for r in rows:
        print("  " + " ".join(str(v).ljust(w) for v, w in zip(r[:6], widths))
              + f" {r[7]:9} {r[6][:150]}")
    counted = [r for r in rows if r[7] != "env"]
    print(f"  agreement: {sum(1 for r in counted if r[7] == 'agree')}/{len(counted)} "
          f"(+{len(rows) - len(counted)} env rows; "
          f"{sum(1 for r in counted if r[7] == 'known bug')} known rule bugs)")
    sys.stdout.flush()


if __name__ == "__main__":
    unittest.main()
