#!/usr/bin/env python3
"""The arithmetic of the pgbench benchmark (tests/bench/pgbench_stats.py), which decides what
docs/benchmarks.md may call a difference:

* the exact sign test agrees with counting every sequence of signs (an independent
  computation) and with known values (8 of 8: 2/256; 7 of 8: 18/256; 9 of 10: 22/1024);
* the rotation runs A B C / B C A / C A B, and over every three rounds each configuration
  once in each position;
* a comparison pairs rounds, leaves ties out, has no ratio where the divisor is 0, and names
  a direction only when p < 0.05;
* a resumed run keeps the complete rounds of an interrupted one and runs an unfinished
  round again whole;
* the report's tables hold one row per measure and comparison, with that verdict; a measure
  that is 0 in every run is named once instead.

The benchmark itself starts servers for hours and is no test (docs/benchmarks.md).

Usage: python3 tests/integration/test_pgbench_stats.py [-v]
"""
import itertools
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "bench"))
import pgbench_stats as stats  # noqa: E402


def sign_test_by_counting(plus, minus):
    """Two-sided p as the share of all 2**n sign sequences at least as uneven as plus:minus."""
    n = plus + minus
    if n == 0:
        return 1.0
    observed = abs(plus - minus)
    extreme = sum(1 for signs in itertools.product((1, -1), repeat=n) if abs(sum(signs)) >= observed)
    return extreme / 2 ** n


class SignTestTest(unittest.TestCase):

    def test_known_values(self):
        self.assertEqual(stats.sign_test(8, 0), 2 / 256)
        self.assertEqual(stats.sign_test(0, 8), 2 / 256)
        self.assertEqual(stats.sign_test(7, 1), 18 / 256)
        self.assertEqual(stats.sign_test(9, 1), 22 / 1024)
        self.assertEqual(stats.sign_test(3, 0), 0.25)
        self.assertEqual(stats.sign_test(4, 4), 1.0)
        self.assertEqual(stats.sign_test(0, 0), 1.0)

    def test_agrees_with_counting_every_sequence(self):
        for n in range(0, 13):
            for plus in range(n + 1):
                self.assertAlmostEqual(stats.sign_test(plus, n - plus), sign_test_by_counting(plus, n - plus),
                                       places=12, msg=f"{plus} of {n}")

    def test_what_eight_rounds_can_show(self):
        # The default 8 rounds: only a unanimous split is below 0.05.
        self.assertLess(stats.sign_test(8, 0), stats.ALPHA)
        self.assertGreaterEqual(stats.sign_test(7, 1), stats.ALPHA)
        self.assertGreaterEqual(stats.sign_test(3, 0), stats.ALPHA)  # 3 rounds never can

    def test_negative_counts_are_refused(self):
        with self.assertRaises(ValueError):
            stats.sign_test(-1, 3)


class RotationTest(unittest.TestCase):

    def test_the_three_orders(self):
        self.assertEqual(stats.rotation("ABC", 4), [list("ABC"), list("BCA"), list("CAB"), list("ABC")])

    def test_positions_balance_over_every_three_rounds(self):
        rounds = stats.rotation(("stock", "pgtune", "recommend"), 9)
        for order in rounds:
            self.assertEqual(sorted(order), ["pgtune", "recommend", "stock"])
        for position in range(3):
            firsts = [order[position] for order in rounds]
            self.assertEqual({c: firsts.count(c) for c in set(firsts)}, {"stock": 3, "pgtune": 3, "recommend": 3})


class ComparisonTest(unittest.TestCase):

    def test_pairs_rounds_and_leaves_ties_out(self):
        c = stats.Comparison([10, 20, 30, 5], [5, 20, 60, 0])
        self.assertEqual((c.plus, c.minus, c.ties), (2, 1, 1))
        self.assertEqual(c.ratios, [2.0, 1.0, 0.5, None])
        self.assertEqual(c.p, stats.sign_test(2, 1))

    def test_direction_only_when_significant(self):
        higher = stats.Comparison([1.1] * 8, [1.0] * 8)
        self.assertEqual(higher.verdict(), "higher in 8 of 8 rounds")
        seven = stats.Comparison([1.1] * 7 + [0.9], [1.0] * 8)
        self.assertEqual(seven.verdict(), "not significant")
        lower = stats.Comparison([0.9] * 9 + [1.0], [1.0] * 10)  # one tie: 9 of 9 signs
        self.assertEqual(lower.verdict(), "lower in 9 of 10 rounds")

    def test_rounds_must_pair(self):
        with self.assertRaises(ValueError):
            stats.Comparison([1, 2], [1])


class ResumeTest(unittest.TestCase):
    CONFIGS = ("stock", "pgtune", "recommend")

    def runs(self, workload, rounds, last_round_positions=3):
        out = []
        for r, order in enumerate(stats.rotation(self.CONFIGS, rounds)):
            n = 3 if r + 1 < rounds else last_round_positions
            out += [{"workload": workload, "round": r + 1, "position": i + 1, "config": c, "tps": 100 * r + i}
                    for i, c in enumerate(order[:n])]
        return out

    def test_complete_rounds_are_kept_in_order(self):
        runs = self.runs("select", 8) + self.runs("tpcb", 3)
        kept = stats.complete_rounds(list(reversed(runs)), ["select", "tpcb"], 8, self.CONFIGS)
        self.assertEqual(kept, runs)

    def test_an_unfinished_round_is_dropped_whole(self):
        runs = self.runs("tpcb", 3, last_round_positions=2)
        kept = stats.complete_rounds(runs, ["tpcb"], 8, self.CONFIGS)
        self.assertEqual([(r["round"], r["position"]) for r in kept], [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3)])

    def test_runs_of_another_order_or_workload_are_not_kept(self):
        runs = self.runs("tpcb", 2)
        runs[3]["config"], runs[4]["config"] = runs[4]["config"], runs[3]["config"]  # round 2 in another order
        self.assertEqual([r["round"] for r in stats.complete_rounds(runs, ["tpcb"], 8, self.CONFIGS)], [1, 1, 1])
        self.assertEqual(stats.complete_rounds(runs, ["hot"], 8, self.CONFIGS), [])


class ReportTest(unittest.TestCase):

    def test_one_row_per_measure_and_comparison(self):
        values = {"stock": {"tps": [100.0] * 8, "wal_mb": [50.0] * 8},
                  "pgtune": {"tps": [100.0 + i for i in range(8)], "wal_mb": [60.0, 40.0] * 4},
                  "recommend": {"tps": [200.0] * 8, "wal_mb": [45.0, 55.0] * 4}}
        lines = stats.report_tables(values, [("tps", "TPS"), ("wal_mb", "WAL (MB)"), ("missing", "absent")])
        rows = [line for line in lines if line.startswith("| TPS |") or line.startswith("| WAL (MB) |")]
        self.assertEqual(len(rows), 2 + 2 * 3)  # medians, then three comparisons per measure
        self.assertFalse(any("absent" in line for line in lines))
        verdicts = {tuple(c.strip() for c in r.split("|")[1:3]): r.split("|")[-2].strip() for r in rows[2:]}
        self.assertEqual(verdicts[("TPS", "recommend / stock")], "higher in 8 of 8 rounds")
        self.assertEqual(verdicts[("TPS", "recommend / pgtune")], "higher in 8 of 8 rounds")
        self.assertEqual(verdicts[("TPS", "pgtune / stock")], "higher in 7 of 8 rounds")  # p = 2/128, one tie
        self.assertEqual(verdicts[("WAL (MB)", "recommend / stock")], "not significant")
        self.assertEqual(verdicts[("WAL (MB)", "recommend / pgtune")], "not significant")

    def test_a_measure_at_zero_everywhere_is_named_not_compared(self):
        values = {c: {"tps": [1.0, 2.0, 3.0], "checkpoints": [0.0, 0.0, 0.0]} for c in ("stock", "pgtune", "recommend")}
        values["pgtune"]["checkpoints"] = [0.0, 1.0, 0.0]
        lines = stats.report_tables(values, [("tps", "TPS"), ("checkpoints", "checkpoints")])
        self.assertEqual(sum(1 for line in lines if line.startswith("| checkpoints | ")), 1 + 3)
        values["pgtune"]["checkpoints"] = [0.0, 0.0, 0.0]
        lines = stats.report_tables(values, [("tps", "TPS"), ("checkpoints", "checkpoints")])
        self.assertEqual(sum(1 for line in lines if line.startswith("| checkpoints | ")), 1)  # the medians only
        self.assertEqual(lines[-1], "0 in every run, not compared: checkpoints.")


if __name__ == "__main__":
    unittest.main()
