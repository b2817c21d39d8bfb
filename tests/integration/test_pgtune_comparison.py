#!/usr/bin/env python3
"""docs/pgtune-comparison.md agrees with the binary.

Each profile section of the document ("## NAME: ...", NAME a key of
tests/fixtures/recommend/profiles.json) has a table whose second column is
pgconflint's value for the parameter. That value (its first word: "2GB (12.5%)" is
2GB) must equal what `pgconflint recommend --format json` gives for the profile, in the
machine cells, the selected storage row or the autovacuum cells; a dash means we do not
set it, and then no cell may set it either. A change to the recommender that moves a
number fails here until the document says the new number.

Usage: python3 tests/integration/test_pgtune_comparison.py [-v]
Environment: PGCONFLINT (binary, default build/pgconflint).
"""
import json
import os
import re
import subprocess
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DOC = os.path.join(ROOT, "docs", "pgtune-comparison.md")
PROFILES = os.path.join(ROOT, "tests", "fixtures", "recommend", "profiles.json")
PGCONFLINT = os.environ.get("PGCONFLINT", os.path.join(ROOT, "build", "pgconflint"))


def doc_tables():
    """{profile: [(line number, parameter, our value)]} from the profile sections."""
    with open(PROFILES, encoding="utf-8") as f:
        names = {k for k in json.load(f) if not k.startswith("_")}
    tables, current = {}, None
    with open(DOC, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            m = re.match(r"^## ([\w.-]+):", line)
            if m:
                current = m.group(1) if m.group(1) in names else None
                continue
            if line.startswith("## "):
                current = None
            if not current or not line.startswith("| ") or line.startswith("| parameter") or "---" in line:
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 3:
                continue
            # "min_wal_size / max_wal_size | 768MB / 3GB": one row per parameter.
            params = [x.strip().strip("`") for x in cells[0].split(" / ")]
            values = [x.strip().split(" ")[0] for x in cells[1].split(" / ")] if len(params) > 1 else \
                [cells[1].split(" ")[0]]
            for param, value in zip(params, values):
                tables.setdefault(current, []).append((n, param, value))
    return tables


def recommended(args):
    out = subprocess.run([PGCONFLINT, "recommend", "--no-config", *args, "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    j = json.loads(out)
    cells = {c["parameter"]: c["value"] for c in j["machine"]}
    for row in j["storage"]:
        if row.get("selected", len(j["storage"]) == 1):
            cells.update({c["parameter"]: c["value"] for c in row["settings"]})
    for c in j["autovacuum"]:
        cells.setdefault(c["parameter"], c["value"])
    return {k: v.strip("'") for k, v in cells.items()}


# The rows of the document's tables that name no one parameter ("parallel settings",
# "tablespaces"); every other row's parameter is one recommend prints, or "—" on both sides.
NOT_PARAMETERS = {"parallel", "tablespaces"}


class PgtuneComparisonTest(unittest.TestCase):
    def test_our_column_is_what_recommend_prints(self):
        with open(PROFILES, encoding="utf-8") as f:
            profiles = {k: v for k, v in json.load(f).items() if not k.startswith("_")}
        tables = doc_tables()
        self.assertEqual(set(tables), set(profiles), "a profile section is missing from the document")
        wrong = []
        for name, rows in tables.items():
            cells = recommended(profiles[name])
            for line, parameter, ours in rows:
                param = parameter.split(" ")[0]
                if parameter.split(" ")[0] in NOT_PARAMETERS:
                    continue  # a row about something else than one recommended parameter
                got = cells.get(param, "—")
                if ours != got and not (ours in ("—", "-") and got == "—"):
                    wrong.append(f"docs/pgtune-comparison.md:{line}: {name} {param}: the document says {ours}, "
                                 f"recommend gives {got}")
        self.assertEqual(wrong, [])


if __name__ == "__main__":
    unittest.main()
