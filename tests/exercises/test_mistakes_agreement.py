"""Kappa mistakes of the registry, against p_o and p_e counted here by hand."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

from mapteach.exercises.mistakes import wrong_answers

A = [0, 1, 2, 3, 2, 1, 0, 3, 2, 0]
B = [0, 2, 2, 3, 1, 1, 0, 3, 3, 1]
#: Binary calls with other frequencies: A calls 6 of 10 relevant, B 3 (grade >= 2).
BINARY_GRADES_A = [0, 1, 2, 3, 2, 1, 0, 3, 2, 2]
BINARY_GRADES_B = [0, 2, 2, 3, 1, 1, 0, 1, 1, 1]
BINARY_A = [int(g >= 2) for g in BINARY_GRADES_A]  # 0 0 1 1 1 0 0 1 1 1
BINARY_B = [int(g >= 2) for g in BINARY_GRADES_B]  # 0 1 1 1 0 0 0 0 0 0


def _data(threshold):
    a, b = (BINARY_A, BINARY_B) if threshold else (A, B)
    return {
        "judge_a": BINARY_GRADES_A if threshold else A,
        "judge_b": BINARY_GRADES_B if threshold else B,
        "threshold": threshold,
        "labels_a": a,
        "labels_b": b,
        "categories": sorted(set(a) | set(b)),
    }


def _found(threshold):
    data = _data(threshold)
    truth = cohen_kappa_score(data["labels_a"], data["labels_b"])
    return {w.name: w for w in wrong_answers("kappa", data, truth)}


def test_binary_kappa_mistakes():
    p_o = 5 / 10  # they agree on items 1, 3, 4, 6 and 7
    p_e = (6 / 10) * (3 / 10) + (4 / 10) * (7 / 10)  # relevant, then not relevant
    assert cohen_kappa_score(BINARY_A, BINARY_B) == pytest.approx((p_o - p_e) / (1 - p_e))
    both_relevant = (6 / 10) * (3 / 10)
    pooled = ((6 + 3) / 20) ** 2 + ((4 + 7) / 20) ** 2
    found = _found(2)
    assert {name: w.value for name, w in found.items()} == pytest.approx(
        {
            "observed agreement given as kappa": p_o,
            "chance agreement 1/(number of categories)": (p_o - 1 / 2) / (1 - 1 / 2),
            "chance agreement from the pooled frequencies (IIR, Scott's pi)": (p_o - pooled)
            / (1 - pooled),
            "forgot the 1 - p_e denominator": p_o - p_e,
            "divided by p_e, not 1 - p_e": (p_o - p_e) / p_e,
            "chance agreement on 'relevant' only": (p_o - both_relevant) / (1 - both_relevant),
            "forgot the relevance threshold": cohen_kappa_score(BINARY_GRADES_A, BINARY_GRADES_B),
        }
    )
    text = found["forgot the 1 - p_e denominator"].explanation
    assert "0.5000 - 0.4600 = 0.0400" in text and f"= {(p_o - p_e) / (1 - p_e):.4f}" in text
    assert "p_e = 0.1800" in found["chance agreement on 'relevant' only"].explanation


def test_graded_kappa_mistakes_and_iirs_pooled_marginals():
    counts_a = {g: A.count(g) / 10 for g in range(4)}  # 0.3 0.2 0.3 0.2
    counts_b = {g: B.count(g) / 10 for g in range(4)}  # 0.2 0.3 0.2 0.3
    p_o = np.mean(np.array(A) == np.array(B))
    p_e = sum(counts_a[g] * counts_b[g] for g in range(4))
    pooled = sum(((counts_a[g] + counts_b[g]) / 2) ** 2 for g in range(4))
    found = _found(None)
    assert {name: w.value for name, w in found.items()} == pytest.approx(
        {
            "observed agreement given as kappa": p_o,
            "chance agreement 1/(number of categories)": (p_o - 1 / 4) / (1 - 1 / 4),
            "chance agreement from the pooled frequencies (IIR, Scott's pi)": (p_o - pooled)
            / (1 - pooled),
            "forgot the 1 - p_e denominator": p_o - p_e,
            "divided by p_e, not 1 - p_e": (p_o - p_e) / p_e,
        }
    )
    scott = fleiss_kappa(aggregate_raters(np.array([A, B]).T)[0])  # Fleiss for two = Scott's pi
    iir = found["chance agreement from the pooled frequencies (IIR, Scott's pi)"]
    assert iir.value == pytest.approx(scott) and iir.convention
    assert "Table 8.2" in iir.explanation and "cohen_kappa_score" in iir.explanation
    assert sum(bool(w.convention) for w in found.values()) == 1
