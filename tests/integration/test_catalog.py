"""The catalog check: `pgconflint params --format json` equals pg_settings of a
real server, for every supported major (14-18), with zero differences.

Runs one server per major (tests/support/pgtools.py), reads pg_settings, and
compares every field pg_settings has. Parameters the catalog knows but
pg_settings hides (GUC_NO_SHOW_ALL, in_pg_settings=false) are checked to be
absent from pg_settings instead.
"""
import json
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
import pgtools  # noqa: E402
import supported  # noqa: E402

PGCONFLINT = os.environ.get("PGCONFLINT", os.path.join(pgtools.ROOT, "build", "pgconflint"))
FIELDS = ("vartype", "unit", "context", "min_val", "max_val", "enumvals", "boot_val", "category",
          "short_desc", "extra_desc")


def server_settings(major):
    with pgtools.Server(major) as srv:
        out = srv.psql("select json_agg(row_to_json(s)) from (select name, "
                       + ", ".join(FIELDS) + " from pg_settings) s")
    return {row["name"]: row for row in json.loads(out)}


def catalog(major):
    r = subprocess.run([PGCONFLINT, "params", "--pg-version", str(major), "--format", "json"],
                       capture_output=True, text=True, check=True)
    return {p["name"]: p for p in json.loads(r.stdout)}


class CatalogTest(unittest.TestCase):
    def test_params_equal_pg_settings(self):
        total = 0
        for major in supported.majors(PGCONFLINT):
            with self.subTest(major=major):
                server = server_settings(major)
                ours = catalog(major)
                shown = {n: p for n, p in ours.items() if p["in_pg_settings"]}
                self.assertEqual(sorted(shown), sorted(server), f"parameter names differ in {major}")
                diffs = []
                for name, row in server.items():
                    for f in FIELDS:
                        if shown[name][f] != row[f]:
                            diffs.append(f"{name}.{f}: ours={shown[name][f]!r} server={row[f]!r}")
                self.assertEqual(diffs, [], f"PostgreSQL {major}")
                for name, p in ours.items():
                    self.assertIn(major, p["majors"], name)
                    if not p["in_pg_settings"]:
                        self.assertNotIn(name, server)
                total += len(server)
                print(f"PostgreSQL {major}: {len(server)} parameters, 0 differences "
                      f"({len(ours) - len(shown)} more known but hidden from pg_settings)")
        print(f"catalog check: {total} parameters compared across {len(supported.majors(PGCONFLINT))} majors")


if __name__ == "__main__":
    unittest.main(verbosity=2)
