#!/usr/bin/env python3
"""pgconflint over the real-world corpus (../shared/corpus/real-world, 122 files).

Three properties, on configuration files people actually wrote:

* robustness: `check --format json` reads every file, all at once and one by one, exits
  0 or 1, prints valid JSON with one root per file, and every diagnostic's range lies
  inside its file (lines and columns are 1-based and count characters);
* agreement with PostgreSQL 18: each file is copied into a directory of its own and given
  to `postgres -C work_mem` as its config_file; the server's verdict (accepted or refused)
  must equal pgconflint's root "fatal" under --pg-version 18. Includes of files that do
  not exist fail on both sides. Files whose verdict depends on the host or on the server
  build go in EXPECTED_DIFFERENCES, one reason each; nothing else may disagree.

* reviewed findings: under the acceptance profile of issue 9 (--ram 16GB --cpus 4 --storage
  sata-ssd --workload mixed) every finding is listed, with its line and code, in
  tests/corpus/expected-16GB-4cpu-sata-ssd-mixed.txt; any difference fails until reviewed.

The test prints the totals, every disagreement (first server error line and pgconflint's
fatal diagnostics) and how often each rule fires on the corpus.

Usage: python3 tests/integration/test_corpus.py [-v]
Environment: PGCONFLINT (binary, default /tmp/build-tmp/pgconflint).
Needs: .cache/postgres/18 (scripts/fetch-postgres.sh 18); root or a user allowed to run it.
"""
import collections
import os
import re
import shutil
import subprocess
import sys
import unittest
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))

import pgtools  # noqa: E402
from corpus_check import CheckOutputMixin, assert_reviewed, describe, expectation_lines  # noqa: E402

CORPUS = os.path.normpath(os.path.join(ROOT, "..", "shared", "corpus", "real-world"))
PGCONFLINT = os.environ.get("PGCONFLINT", "/tmp/build-tmp/pgconflint")
PG_MAJOR = 18
# The server's environment is pinned so that its answer does not depend on the caller's
# (an empty lc_* value means "from the environment").
ORACLE_ENV = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C"}
NOT_CORPUS = {"README.md", "MANIFEST.tsv"}
LOG_PREFIX = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? \S+ \[\d+\] ")

# Corpus file -> why the server and pgconflint may disagree on it. Only differences that
# come from the host or the server build (locales, optional libraries) belong here; a
# disagreement caused by pgconflint is a bug to fix, not an entry. pgconflint accepts
# build-optional values, since the server the file is meant for may have the library; the
# PostgreSQL 18 of .cache/postgres is built without lz4, zstd and liburing. An entry may
# also agree, when another line makes both sides refuse the file.
EXPECTED_DIFFERENCES = {
    "chaorenex1__pgvecto-rs-zh__postgresql.conf":
        "wal_compression = lz4: the test server is built without lz4",
    "cybertec-postgresql__pgwatch__docker_demo_postgresql.conf":
        "wal_compression=zstd: the test server is built without zstd",
    "instituutnederlandsetaal__woordpeiler__database_postgresql.conf":
        "default_toast_compression = 'lz4': the test server is built without lz4",
    "kafaat__sahool-unified-v15-idp__config_postgres_postgresql-replica.conf":
        "include '/etc/postgresql/postgresql.conf': a file of the server's host, which pgconflint does not read "
        "(nor asks whether this machine has one)",
    "jacar-javi__jacker__config_postgres_postgresql.conf":
        "default_toast_compression = 'lz4': the test server is built without lz4",
    "miharekar__visualizer__infrastructure_postgres_postgresql.conf":
        "wal_compression = lz4, io_method = io_uring: the test server has neither lz4 nor liburing",
}


# The acceptance profile of issue 9 (a typical DBA's machine) and the reviewed
# list of every finding pgconflint reports on the corpus under it.
EXPECTED_PROFILE = ["--ram", "16GB", "--cpus", "4", "--storage", "sata-ssd", "--workload", "mixed"]
EXPECTED_FILE = os.path.join(ROOT, "tests", "corpus", "expected-16GB-4cpu-sata-ssd-mixed.txt")


def corpus_files():
    """The corpus file names listed in MANIFEST.tsv, sorted."""
    with open(os.path.join(CORPUS, "MANIFEST.tsv"), encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    return sorted(row[0] for row in rows[1:])


def run_check(paths, cwd, major=None, flags=()):
    """Runs `pgconflint check --format json`; returns the CompletedProcess (text)."""
    argv = [PGCONFLINT, "check", "--no-config", "--format", "json", *flags]
    if major is not None:
        # Compared with a server on this machine: its locales are the server's.
        argv += ["--pg-version", str(major), "--server-host", "yes"]
    argv += list(paths)
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, errors="replace",
                          env=dict(os.environ, NO_COLOR="1"), timeout=300)


class CorpusTest(CheckOutputMixin, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.isfile(os.path.join(CORPUS, "MANIFEST.tsv")):
            raise RuntimeError(f"corpus not found at {CORPUS} (the shared corpus checkout)")
        if not os.access(PGCONFLINT, os.X_OK):
            raise RuntimeError(f"pgconflint binary not found at {PGCONFLINT}: set PGCONFLINT")
        cls.files = corpus_files()

    def test_manifest_lists_every_file(self):
        on_disk = sorted(set(os.listdir(CORPUS)) - NOT_CORPUS)
        self.assertEqual(on_disk, self.files)

    def test_all_files_at_once(self):
        out = self.check_output(run_check(self.files, CORPUS), self.files, CORPUS)
        print_rule_frequencies(out)

    def test_reviewed_findings_under_the_acceptance_profile(self):
        """Every finding under EXPECTED_PROFILE is listed, reviewed, in EXPECTED_FILE: a
        change must be reviewed and the file updated with it (UPDATE_CORPUS_EXPECTED=1
        rewrites the list and keeps the header), never accepted silently."""
        out = self.check_output(run_check(self.files, CORPUS, flags=EXPECTED_PROFILE), self.files, CORPUS)
        assert_reviewed(self, expectation_lines(out), EXPECTED_FILE, ROOT)

    def test_each_file(self):
        for name in self.files:
            with self.subTest(file=name):
                self.check_output(run_check([name], CORPUS), [name], CORPUS)

    def test_agreement_with_postgresql_18(self):
        try:
            postgres = pgtools.pg_bin(PG_MAJOR)
        except RuntimeError as e:
            self.fail(str(e))
        datadir = pgtools.initdb(PG_MAJOR)
        work = pgtools.make_tempdir("pgconflint-corpus-")
        self.addCleanup(shutil.rmtree, work, True)
        # One directory per file, so that relative includes resolve next to it (and miss).
        copies = []
        for i, name in enumerate(self.files):
            d = os.path.join(work, f"{i:03d}")
            os.mkdir(d)
            shutil.copyfile(os.path.join(CORPUS, name), os.path.join(d, name))
            copies.append(os.path.join(f"{i:03d}", name))
        pgtools.share_with_user(work)

        def server(rel):
            argv = [postgres, "-D", datadir, "-c", f"config_file={os.path.join(work, rel)}", "-C", "work_mem"]
            r = pgtools.run_as_user(argv, capture_output=True, text=True, errors="replace",
                               env=ORACLE_ENV, cwd="/", timeout=60)
            return r.returncode == 0, [ln for ln in r.stderr.splitlines() if ln.strip()]

        with ThreadPoolExecutor(max_workers=4) as pool:
            verdicts = dict(zip(copies, pool.map(server, copies)))
        out = self.check_output(run_check(copies, work, PG_MAJOR), copies, work)
        # `postgres -C` reads and validates the files but stops before the
        # postmaster's start-up cross-checks, so only the front-end rules
        # (PGC0xx-PGC3xx) decide the verdict compared here; the start-up rules
        # are held to real server starts by test_server_claims.py and
        # test_stock_samples.py.
        def front_end(d):
            return d["code"][:4] in ("PGC0", "PGC1", "PGC2", "PGC3")
        fatal_diags = collections.defaultdict(list)
        for d in out["diagnostics"]:
            if d["fatal"] and front_end(d):
                fatal_diags[d["root"]].append(d)
        fatal = {r["path"]: bool(fatal_diags[r["path"]]) for r in out["roots"]}

        rows = []
        for rel, name in zip(copies, self.files):
            accepted, stderr = verdicts[rel]
            if accepted == (not fatal[rel]):
                continue
            rows.append((name, accepted, stderr, fatal_diags[rel]))
        accepted_n = sum(1 for a, _ in verdicts.values() if a)
        agree = len(copies) - len(rows)
        print(f"\ncorpus {CORPUS}: PostgreSQL {PG_MAJOR} vs pgconflint --pg-version {PG_MAJOR}")
        print(f"  files                {len(copies):4d}")
        print(f"  accepted by PG{PG_MAJOR}       {accepted_n:4d}")
        print(f"  refused by PG{PG_MAJOR}        {len(copies) - accepted_n:4d}")
        print(f"  pgconflint agrees    {agree:4d}/{len(copies)}")
        print(f"  expected differences {len(rows) - len(unexpected_of(rows)):4d}")
        print(f"  unexpected           {len(unexpected_of(rows)):4d}")
        unexpected = unexpected_of(rows)
        for name, accepted, stderr, diags in rows:
            reason = EXPECTED_DIFFERENCES.get(name)
            print(f"\n  {'expected' if reason else 'DISAGREES'}: {name}"
                  + (f" ({reason})" if reason else ""))
            print(f"    server: {'accepted' if accepted else 'refused'}"
                  + (f": {first_error(stderr)}" if not accepted else ""))
            print(f"    pgconflint: {'fatal' if diags else 'not fatal'}")
            for d in diags:
                print(f"      {describe(d)}")
        # An entry may agree (e.g. another line of the file is fatal on both sides).
        for name in sorted(set(EXPECTED_DIFFERENCES) - {name for name, *_ in rows}):
            print(f"\n  note: {name} is in EXPECTED_DIFFERENCES but agrees")
        sys.stdout.flush()
        if unexpected:
            self.fail(f"pgconflint disagrees with PostgreSQL {PG_MAJOR} on {len(unexpected)} "
                      f"file(s) (see the list above): " + ", ".join(unexpected))


def unexpected_of(rows):
    return [name for name, *_ in rows if name not in EXPECTED_DIFFERENCES]


def first_error(stderr):
    """The first line the server logged, without its timestamp and pid prefix."""
    for line in stderr:
        return LOG_PREFIX.sub("", line)
    return "(no output)"


def print_rule_frequencies(out):
    hits = collections.Counter(d["code"] for d in out["diagnostics"])
    files = collections.defaultdict(set)
    names = {}
    for d in out["diagnostics"]:
        files[d["code"]].add(d["root"])
        names[d["code"]] = (d["name"], d["severity"])
    print(f"\nrules firing on the corpus ({len(out['roots'])} files, "
          f"{sum(1 for r in out['roots'] if r['fatal'])} fatal):")
    print(f"  {'code':7} {'name':32} {'severity':8} {'hits':>5} {'files':>5}")
    for code, n in sorted(hits.items(), key=lambda kv: (-kv[1], kv[0])):
        name, severity = names[code]
        print(f"  {code:7} {name:32} {severity:8} {n:5d} {len(files[code]):5d}")
    sys.stdout.flush()


if __name__ == "__main__":
    unittest.main()
