"""The arithmetic of pgbench_compare.py, kept apart from its servers so that a test can run it
(tests/integration/test_pgbench_stats.py): the order of the configurations in each round, the
exact two-sided sign test, and the per-round comparison tables of the report.

A comparison pairs the runs of one round: round i of configuration A against round i of B,
which ran minutes apart on the same machine. Each round gives a sign (A above B, below, or
equal); the sign test asks how likely a split at least that uneven is when either sign has
probability 1/2. It assumes nothing about the distribution of the measure, which suits runs on
a shared machine whose noise is neither normal nor steady. Equal rounds are left out (the usual
convention). With n rounds the smallest two-sided p is 2 / 2**n: 3 rounds can never reach
p < 0.05, 8 rounds only when all 8 agree (7 of 8 gives p = 0.070), 10 rounds at 9 of 10.
"""
import math
import statistics

ALPHA = 0.05
# recommend/stock, recommend/pgtune, pgtune/stock: the numerator first.
COMPARISONS = (("recommend", "stock"), ("recommend", "pgtune"), ("pgtune", "stock"))


def rotation(names, rounds):
    """The order of `names` in each of `rounds` rounds: rotated left by one more each round
    (A B C / B C A / C A B / A B C ...), so that every configuration runs first, second and
    last equally often over each len(names) rounds."""
    names = list(names)
    return [names[r % len(names):] + names[:r % len(names)] for r in range(rounds)]


def complete_rounds(runs, workloads, rounds, configs):
    """The runs of an earlier, interrupted run of the benchmark that a resumed run keeps: those of
    every (workload, round) that holds a run of each configuration in the rotation's order. A
    round left unfinished is run again whole, so that the runs a comparison pairs always ran
    minutes apart on the same pristine data."""
    order = rotation(configs, rounds)
    kept = []
    for w in workloads:
        for r in range(1, rounds + 1):
            got = [run for run in runs if run["workload"] == w and run["round"] == r]
            if [run["config"] for run in sorted(got, key=lambda run: run["position"])] == order[r - 1]:
                kept.extend(sorted(got, key=lambda run: run["position"]))
    return kept


def sign_test(plus, minus):
    """Exact two-sided p of the sign test for `plus` rounds above and `minus` below (ties left
    out): twice the binomial(n, 1/2) tail at the rarer sign, at most 1. No rounds: 1."""
    if plus < 0 or minus < 0:
        raise ValueError("sign_test: counts must not be negative")
    n = plus + minus
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(plus, minus) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


class Comparison:
    """Round-by-round comparison of measure values `a` against `b` (round i of each)."""

    def __init__(self, a, b):
        if len(a) != len(b):
            raise ValueError(f"compare: {len(a)} rounds against {len(b)}")
        self.ratios = [None if y == 0 else x / y for x, y in zip(a, b)]  # None: b is 0
        self.plus = sum(1 for x, y in zip(a, b) if x > y)
        self.minus = sum(1 for x, y in zip(a, b) if x < y)
        self.ties = len(a) - self.plus - self.minus
        self.p = sign_test(self.plus, self.minus)
        self.median_ratio = (statistics.median(a) / statistics.median(b)
                             if a and statistics.median(b) != 0 else None)

    @property
    def significant(self):
        return self.p < ALPHA

    def verdict(self):
        """"not significant", or the direction with its count: "higher in 8 of 8 rounds"."""
        if not self.significant:
            return "not significant"
        rounds = self.plus + self.minus + self.ties
        if self.plus > self.minus:
            return f"higher in {self.plus} of {rounds} rounds"
        return f"lower in {self.minus} of {rounds} rounds"


def fmt_value(v):
    if v is None:
        return "-"
    if float(v).is_integer() or abs(v) >= 100:
        return f"{v:.0f}"
    if abs(v) >= 1:
        return f"{v:.2f}"
    return f"{v:.4f}"


def fmt_ratio(r):
    return "-" if r is None else f"{r:.2f}"


def report_tables(values, measures, configs=("stock", "pgtune", "recommend"), comparisons=COMPARISONS):
    """Markdown lines for one workload. `values[config][measure]` is the list of per-round
    values; `measures` is [(measure, label)]. First the medians, then one row per measure and
    comparison: the per-round ratios, the signs (+ above, - below, = equal), p and the verdict.
    A measure missing from a configuration is left out; one that is 0 in every run is named
    once instead of compared."""
    measures = [(m, label) for m, label in measures if all(m in values[c] for c in configs)]
    lines = ["| measure | " + " | ".join(f"{c} (median)" for c in configs) + " |",
             "|---|" + "---|" * len(configs)]
    for m, label in measures:
        lines.append(f"| {label} | " + " | ".join(fmt_value(statistics.median(values[c][m])) for c in configs) + " |")
    zero = [label for m, label in measures if not any(v for c in configs for v in values[c][m])]
    lines += ["", "| measure | comparison | per-round ratios | + / - / = | sign test p | verdict |",
              "|---|---|---|---|---|---|"]
    for m, label in measures:
        if label in zero:
            continue
        for a, b in comparisons:
            c = Comparison(values[a][m], values[b][m])
            lines.append(f"| {label} | {a} / {b} | {' '.join(fmt_ratio(r) for r in c.ratios)} | "
                         f"{c.plus} / {c.minus} / {c.ties} | {c.p:.4f} | {c.verdict()} |")
    if zero:
        lines += ["", "0 in every run, not compared: " + "; ".join(zero) + "."]
    return lines
