#!/usr/bin/env python3
"""shared_memory_size and shared_memory_size_in_huge_pages: `pgconflint show` against the
real servers, for every major the binary supports.

For each major, a grid of configurations (GRID_SIZE seeded random ones drawn as
scripts/harvest_shared_memory.py draws them, with another seed than its points, plus a few
chosen ones: the defaults, shared_buffers over orders of magnitude, wal_buffers explicit and
-1, huge process counts) is written to files and shown with `pgconflint show --format json
FILE shared_memory_size shared_memory_size_in_huge_pages --huge-page-size <host's>`:

  * 15 and later: each value within 1 (MB, page) of `postgres -C shared_memory_size` and
    `postgres -C shared_memory_size_in_huge_pages` (the host's huge page size, as the server
    takes it), and most of them equal;
  * 14, which has neither parameter: the size the single-user backend logs before it maps the
    area (tests/support/pgtools.py shared_memory_bytes, method "log"), rounded as 15 rounds it;
    on 15 and later that method gives exactly what -C computes, for a few configurations each;
  * shared_preload_libraries = pg_stat_statements: pgconflint says "at least", and the server's
    size is not below it;
  * huge_page_size set: the server and pgconflint count pages of that size.

Usage: python3 tests/integration/test_shared_memory.py [-v]
Environment: PGCONFLINT (binary); SHARED_MEMORY_MAJORS (default: every supported major).
Needs: .cache/postgres/<major> (scripts/fetch-postgres.sh), root or the test user.
"""
import importlib.util
import json
import math
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

PGCONFLINT = os.environ.get("PGCONFLINT", os.path.join(ROOT, "build", "pgconflint"))
MAJORS = supported.majors_from_env("SHARED_MEMORY_MAJORS", path=PGCONFLINT)
GRID_SIZE = 20
GRID_SEED = 7  # the harvest's points use another seed: these were not fitted on
MB = 1024 * 1024

_spec = importlib.util.spec_from_file_location("harvest", os.path.join(ROOT, "scripts", "harvest_shared_memory.py"))
harvest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(harvest)


def host_huge_page_size():
    """The host's default huge page size in bytes (/proc/meminfo), or None."""
    try:
        with open("/proc/meminfo") as f:
            m = re.search(r"^Hugepagesize:\s+(\d+) kB", f.read(), re.M)
    except OSError:
        return None
    return int(m.group(1)) * 1024 if m else None


def chosen(major):
    """Configurations picked by hand: sizes over orders of magnitude and the automatic values."""
    grid = [{}, {"shared_buffers": "1GB"}, {"shared_buffers": 16}, {"shared_buffers": "64GB", "wal_buffers": -1},
            {"shared_buffers": "100GB", "wal_buffers": 512, "max_connections": 1000},
            {"max_connections": 100000, "max_locks_per_transaction": 256},
            {"shared_buffers": "4GB", "max_prepared_transactions": 200, "max_pred_locks_per_transaction": 512}]
    if major >= 18:
        grid.append({"shared_buffers": "8GB", "io_max_concurrency": -1, "io_workers": 16, "io_method": "sync"})
    if major >= 17:
        grid.append({"shared_buffers": "2GB", "transaction_buffers": 0, "commit_timestamp_buffers": 256})
    return grid


def conf_text(settings):
    return "".join(f"{k} = '{v}'\n" for k, v in settings.items())


def show(major, path, page, extra=()):
    r = subprocess.run([PGCONFLINT, "show", "--no-config", "--pg-version", str(major), "--format", "json",
                        "--os", "linux", "--huge-page-size", f"{page // 1024}kB", *extra, path,
                        "shared_memory_size", "shared_memory_size_in_huge_pages"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError(f"pgconflint show failed: {r.stderr}")
    return {row["name"]: row for row in json.loads(r.stdout)}


def megabytes(text):
    """pgconflint's shared_memory_size ("1086MB", "1GB", "at least 150MB") in MB."""
    m = re.fullmatch(r"(at least )?(\d+)(MB|GB|TB)", text)
    if not m:
        raise AssertionError(f"unexpected shared_memory_size {text!r}")
    return int(m.group(2)) * {"MB": 1, "GB": 1024, "TB": 1024 * 1024}[m.group(3)]


def pages(text):
    m = re.fullmatch(r"(at least )?(-?\d+)", text)
    if not m:
        raise AssertionError(f"unexpected shared_memory_size_in_huge_pages {text!r}")
    return int(m.group(2))


def server_values(major, datadir, path, page):
    """(MB, huge pages) as the server shows them for the configuration file `path` (its
    config_file: the data directory's own postgresql.conf is not read, as pgconflint reads only
    `path`); 14 from the logged size."""
    if major < 15:
        size, why = pgtools.shared_memory_bytes(major, datadir, {"config_file": path}, "log")
        if size is None:
            raise AssertionError(f"pg{major} refused {path}: {why}")
        return math.ceil(size / MB), size // page + 1
    out = []
    for name in ("shared_memory_size", "shared_memory_size_in_huge_pages"):
        ok, value, err = pgtools.postgres_C(major, datadir, path, name)
        if not ok:
            raise AssertionError(f"pg{major} refused {path}: {err.strip()[-300:]}")
        out.append(int(value))
    return tuple(out)


def write_conf(directory, name, settings):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(conf_text(settings))
    pgtools.share_with_user(path)
    return path


class SharedMemoryTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(PGCONFLINT, os.X_OK):
            raise RuntimeError(f"pgconflint binary not found at {PGCONFLINT}: set PGCONFLINT")
        cls.page = host_huge_page_size()
        if cls.page is None:
            raise unittest.SkipTest("this host shows no Hugepagesize in /proc/meminfo")
        cls.tmp = pgtools.make_tempdir("pgconflint-shmem-test-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_grid(self):
        rows, problems = [], []
        for major in MAJORS:
            datadir = pgtools.initdb(major)
            grid = chosen(major) + harvest.configurations(major, GRID_SEED, GRID_SIZE)
            exact = 0
            for i, settings in enumerate(grid):
                path = write_conf(self.tmp, f"pg{major}-{i}.conf", settings)
                shown = show(major, path, self.page)
                mine = (megabytes(shown["shared_memory_size"]["effective"]),
                        pages(shown["shared_memory_size_in_huge_pages"]["effective"]))
                theirs = server_values(major, datadir, path, self.page)
                exact += mine == theirs
                if abs(mine[0] - theirs[0]) > 1 or abs(mine[1] - theirs[1]) > 1:
                    problems.append(f"pg{major} {settings}: pgconflint {mine}, server {theirs}")
            rows.append(f"pg{major}: {len(grid)} configurations, {exact} exactly equal, "
                        f"{len(grid) - exact} within 1")
            self.assertGreaterEqual(len(grid), 20)
            # Within 1 is the promise; most must be exact, or the model drifted.
            self.assertGreaterEqual(exact, len(grid) * 3 // 4, f"pg{major}: only {exact} of {len(grid)} exact")
        print("\n" + "\n".join(rows), file=sys.stderr)
        self.assertEqual(problems, [])

    def test_log_method_agrees_with_C(self):
        """The 14 method gives exactly what -C computes, where both exist."""
        for major in [m for m in MAJORS if m >= 15]:
            datadir = pgtools.initdb(major)
            for settings in chosen(major)[:3] + harvest.configurations(major, GRID_SEED, 2):
                a, _ = pgtools.shared_memory_bytes(major, datadir, settings, "C")
                b, _ = pgtools.shared_memory_bytes(major, datadir, settings, "log")
                self.assertIsNotNone(a)
                self.assertEqual(a, b, f"pg{major} {settings}")

    def test_preloaded_library_is_a_lower_bound(self):
        for major in [m for m in MAJORS if m >= 15]:
            datadir = pgtools.initdb(major)
            settings = {"shared_preload_libraries": "pg_stat_statements", "pg_stat_statements.max": 20000}
            path = write_conf(self.tmp, f"pg{major}-pgss.conf", settings)
            shown = show(major, path, self.page)
            text = shown["shared_memory_size"]["effective"]
            self.assertTrue(text.startswith("at least "), text)
            self.assertIn("pg_stat_statements", shown["shared_memory_size"]["effective_note"])
            theirs, _ = server_values(major, datadir, path, self.page)
            self.assertGreaterEqual(theirs, megabytes(text) - 1)

    def test_huge_page_size_parameter(self):
        for major in [m for m in MAJORS if m >= 15]:
            datadir = pgtools.initdb(major)
            settings = {"shared_buffers": "3GB", "huge_page_size": "1GB"}
            path = write_conf(self.tmp, f"pg{major}-1gb.conf", settings)
            shown = show(major, path, self.page)
            mine = pages(shown["shared_memory_size_in_huge_pages"]["effective"])
            _, theirs = server_values(major, datadir, path, self.page)
            self.assertLessEqual(abs(mine - theirs), 1, (mine, theirs))
            self.assertIn("huge_page_size", shown["shared_memory_size_in_huge_pages"]["effective_note"])


if __name__ == "__main__":
    unittest.main()
