"""Independent reference values for the metrics tests (test/unit/metrics/*.test.ts).

Run: python3 test/unit/metrics/reference_values.py   (needs scipy and numpy; not needed by the tests,
whose expected values were pasted from this script's output with scipy 1.17.1, numpy 2.4.6,
Python 3.11.7).
"""
import itertools
import json

import numpy as np
from scipy import stats

# Small graded sample with ties on both sides (human: half-point scale, judge: integer scale).
human_a = [3.5, 5, 4, 5, 2.5, 4, 5, 3, 4.5, 5, 1, 4]
judge_a = [6, 9, 7, 8, 5, 7, 9, 8, 6, 10, 2, 7]


def tied_series(n):
    """Deterministic heavily tied series; the TS test builds the same with the same integer formulas."""
    human = [(i * 7 % 11) / 2 for i in range(n)]
    judge = [(i * 5 % 13) % 6 + (i * 7 % 11) // 2 for i in range(n)]
    return judge, human


def show(name, judge, human):
    print(name, json.dumps({
        "pearson": stats.pearsonr(judge, human).statistic,
        "spearman": stats.spearmanr(judge, human).statistic,
        "kendallTauB": stats.kendalltau(judge, human, variant="b").statistic,
    }))


show("sample A", judge_a, human_a)
for n in (40, 300):
    judge, human = tied_series(n)
    show(f"tied series n={n}", judge, human)


def ranking_accuracy(judge, human, include_human_ties):
    agree = counted = 0
    for a, b in itertools.combinations(range(len(judge)), 2):
        hs, js = np.sign(human[a] - human[b]), np.sign(judge[a] - judge[b])
        if hs == 0 and not include_human_ties:
            continue
        counted += 1
        agree += int(hs == js)
    return agree, counted


print("ranking accuracy sample A, exclude", ranking_accuracy(judge_a, human_a, False))
print("ranking accuracy sample A, include", ranking_accuracy(judge_a, human_a, True))

# Percentiles by linear interpolation (numpy's default, Hyndman-Fan type 7).
values = [0.3, -0.1, 0.7, 0.2, 0.9, 0.4, 0.4]
print("percentiles", json.dumps([float(np.percentile(values, p)) for p in (2.5, 25, 50, 97.5)]))

# The graded-items fixture of report.test.ts / levels.test.ts / by-round.test.ts:
# question -> [(examinee, judge, human, eliminatedInRound)], D did not answer q3.
fixture = {
    "q1": [("A", 8, 4, None), ("B", 6, 3, 2), ("C", 3, 1, 1), ("D", 5, 3, 1)],
    "q2": [("A", 7, 5, 2), ("B", 7, 4, None), ("C", 2, 2, 1), ("D", 4, 3, 1)],
    "q3": [("A", 9, 5, None), ("B", 5, 2, 1), ("C", 6, 3, 2)],
}
rows = [r for q in fixture.values() for r in q]
totals = {}
for e, j, h, _ in rows:
    t = totals.setdefault(e, [0, 0])
    t[0] += j
    t[1] += h
print("fixture totals", totals)
tj = [t[0] for t in totals.values()]
th = [t[1] for t in totals.values()]
show("fixture exam level", tj, th)
show("fixture pooled", [r[1] for r in rows], [r[2] for r in rows])
for q, answers in fixture.items():
    show(f"fixture {q}", [r[1] for r in answers], [r[2] for r in answers])
first = [r for r in rows if r[3] == 1]
later = [r for r in rows if r[3] != 1]
print("fixture first round pearson", stats.pearsonr([r[1] for r in first], [r[2] for r in first]).statistic, len(first))
print("fixture later rounds pearson", stats.pearsonr([r[1] for r in later], [r[2] for r in later]).statistic, len(later))
print("fixture exam ranking accuracy exclude", ranking_accuracy(tj, th, False), "include", ranking_accuracy(tj, th, True))
