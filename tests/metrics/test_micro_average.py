"""Micro-averaged P@k and R@k against counts added up by hand, and the macro mean beside them."""

from __future__ import annotations

import pytest

from mapteach.metrics import micro_precision_at_k, micro_recall_at_k
from mapteach.metrics.micro_average import hits_and_relevant

QUERIES = [[1, 1, 1, 1, 0, 1, 1, 1, 0, 1], [0, 0, 0, 0, 1]]  # notebook 04's easy and hard


def _pooled(rankings, k, totals):
    """Hits in every top k and every R, added up one query at a time."""
    hits = sum(sum(labels[:k]) for labels in rankings)
    return hits, sum(totals), len(rankings) * k


@pytest.mark.parametrize("k", [1, 3, 5, 10, 20])
def test_micro_recall_pools_the_hits_over_all_relevant_results(k):
    hits, total, _ = _pooled(QUERIES, k, [8, 1])
    assert micro_recall_at_k(QUERIES, k) == pytest.approx(hits / total)


def test_micro_recall_differs_from_the_macro_mean_when_the_queries_r_differ():
    macro = (4 / 8 + 1 / 1) / 2
    micro = (4 + 1) / (8 + 1)
    assert micro_recall_at_k(QUERIES, 5) == pytest.approx(micro)
    assert micro != pytest.approx(macro)


def test_with_equal_r_micro_and_macro_recall_agree():
    lists = [[1, 0, 1, 1, 0], [1, 0, 1, 0, 0], [0, 0, 0, 1, 0]]  # article 003's, each R = 3
    macro = sum(sum(y[:4]) / 3 for y in lists) / 3
    assert micro_recall_at_k(lists, 4, n_relevant=[3, 3, 3]) == pytest.approx(macro)


@pytest.mark.parametrize("k", [1, 3, 5, 10, 20])
def test_micro_precision_counts_k_results_per_query_so_it_is_the_macro_mean(k):
    hits, _, counted = _pooled(QUERIES, k, [8, 1])
    macro = sum(sum(y[:k]) / k for y in QUERIES) / len(QUERIES)
    assert micro_precision_at_k(QUERIES, k) == pytest.approx(hits / counted)
    assert micro_precision_at_k(QUERIES, k) == pytest.approx(macro)


def test_r_given_per_query_counts_the_missed_relevant_results():
    hits, totals = hits_and_relevant([[1, 0], [0, 1, 1]], 2, n_relevant=[3, None])
    assert (hits.tolist(), totals.tolist()) == ([1, 1], [3, 2])
    assert micro_recall_at_k([[1, 0], [0, 1, 1]], 2, n_relevant=[3, None]) == pytest.approx(2 / 5)


def test_no_relevant_result_anywhere_scores_zero_as_recall_does():
    assert micro_recall_at_k([[0, 0], [0]], 2) == 0.0


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: micro_recall_at_k([], 3), ValueError, "rankings is empty"),
        (lambda: micro_recall_at_k([[1]], 0), ValueError, "k must be >= 1"),
        (lambda: micro_recall_at_k([[1], [0]], 1, n_relevant=[1]), ValueError, "1 entries"),
        (lambda: micro_recall_at_k([[1], [2]], 1), ValueError, r"rankings\[1\]"),
        (lambda: micro_recall_at_k([[1, 1]], 1, n_relevant=[1]), ValueError, r"n_relevant\[0\]"),
        (lambda: micro_precision_at_k([[1]], 1.5), TypeError, "positive integer"),
    ],
)
def test_bad_input_is_named(call, error, match):
    with pytest.raises(error, match=match):
        call()
