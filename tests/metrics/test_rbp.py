"""RBP: the scalar against the formula written out, the batch kernel bit for bit, and its
tie-aware expectation against every order of the ties."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mapteach.metrics.batch import RankedEntries, batch_scores
from mapteach.metrics.names import parse_measure
from mapteach.metrics.rbp import batch_rbp, rank_biased_precision
from mapteach.metrics.ties import expected_scores

grades_st = st.lists(st.integers(0, 3), max_size=25)
p_st = st.sampled_from([0.5, 0.8, 0.95])


def reference_rbp(gains, p, k=None):
    """Moffat and Zobel's sum, rank by rank."""
    return (1 - p) * sum(g * p ** (i - 1) for i, g in enumerate(gains[:k] if k else gains, 1))


@given(grades_st, p_st, st.none() | st.integers(1, 30))
def test_the_scalar_is_the_sum(gains, p, k):
    assert rank_biased_precision(gains, p=p, k=k) == pytest.approx(
        reference_rbp(gains, p, k), abs=1e-12
    )


@given(st.lists(grades_st, min_size=1, max_size=6), p_st, st.none() | st.integers(1, 30))
def test_the_batch_kernel_equals_the_scalar_bit_for_bit(lists, p, k):
    entries = RankedEntries.from_lists(lists)
    scalar = [rank_biased_precision(grades, p=p, k=k) for grades in lists]
    np.testing.assert_array_equal(
        batch_rbp(entries, p=p, k=k, gains=entries.grade), np.array(scalar), strict=True
    )


def test_graded_without_rel_binary_with_it():
    entries = RankedEntries.from_lists([[2, 0, 1, 3]])
    names = ["RBP", "RBP(rel=2)", "RBP(p=0.5,rel=2)@2"]
    scores = batch_scores(entries, [parse_measure(name) for name in names])
    assert scores["RBP"][0] == pytest.approx(reference_rbp([2, 0, 1, 3], 0.8))
    assert scores["RBP(rel=2)"][0] == pytest.approx(reference_rbp([1, 0, 0, 1], 0.8))
    assert scores["RBP(p=0.5,rel=2)@2"][0] == pytest.approx(reference_rbp([1, 0], 0.5))
    assert parse_measure("RBP(p=0.5)").score([1, 0, 1]) == rank_biased_precision([1, 0, 1], p=0.5)


def test_the_expectation_is_the_mean_over_every_order_of_the_ties():
    grades = [3, 0, 1, 2, 0]
    score = np.array([5.0, 4.0, 4.0, 4.0, 1.0])  # ranks 2-4 tied
    orders = [[grades[0], *perm, grades[4]] for perm in itertools.permutations(grades[1:4])]
    for name, rel, p, k in [("RBP", None, 0.8, None), ("RBP(p=0.5,rel=2)@3", 2, 0.5, 3)]:
        gains = [[int(g >= rel) if rel else g for g in order] for order in orders]
        mean = np.mean([reference_rbp(g, p, k) for g in gains])
        entries = RankedEntries.from_lists([grades])
        got = expected_scores(entries, score, [parse_measure(name)])[name]
        assert got[0] == pytest.approx(mean, abs=1e-15)


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: rank_biased_precision([1], p=1.0), r"0 < p < 1; got 1.0"),
        (lambda: rank_biased_precision([1, -1]), r"gains\[1\]"),
        (lambda: parse_measure("RBP(p='x')"), r"RBP's parameter p must be a number; got \"'x'\""),
        (lambda: parse_measure("RBP(rel=0)"), r"RBP's parameter rel must be >= 1; got '0'"),
    ],
)
def test_errors_say_what_is_wrong(call, fragment):
    with pytest.raises(ValueError, match=fragment):
        call()
