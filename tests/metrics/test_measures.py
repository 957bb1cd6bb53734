"""Hand-computed values for every metric, and every named convention."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import mapteach
from mapteach import (
    average_precision,
    hit_at_k,
    mean_average_precision,
    mean_reciprocal_rank,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
)

A = [1, 0, 1, 1, 0, 0, 0, 0]
B = [1, 0, 1, 0, 0, 0, 0, 0]
C = [0, 0, 0, 1, 0, 1, 0, 1]
CUT = [1, 1, 0, 0, 0, 1, 1, 1, 0, 0]  # R = 5


def test_precision_divides_by_k_even_past_the_end():
    assert precision_at_k([1, 0, 1, 0], 10) == 2 / 10
    assert precision_at_k([], 3) == 0.0
    assert precision_at_k([0, 1, 1, 0, 0], 2) == 0.5


def test_recall_counts_unretrieved_relevant_documents():
    assert recall_at_k([1, 0, 1], 3) == 1.0
    assert recall_at_k([1, 0, 1], 3, n_relevant=4) == 0.5
    assert recall_at_k([1, 0, 1], 1, n_relevant=4) == 0.25
    assert recall_at_k([0, 0], 2) == 0.0  # R = 0 scores 0, as in trec_eval


def test_average_precision_by_hand():
    assert average_precision(A) == pytest.approx((1 + 2 / 3 + 3 / 4) / 3)
    assert average_precision(B, n_relevant=3) == pytest.approx((1 + 2 / 3) / 3)
    assert average_precision(C) == pytest.approx((1 / 4 + 2 / 6 + 3 / 8) / 3)
    assert average_precision([0, 0, 0]) == 0.0
    assert average_precision([0, 0, 0], n_relevant=2) == 0.0
    assert average_precision([]) == 0.0


def test_average_precision_accepts_bools_arrays_and_series():
    as_list = average_precision(A)
    assert average_precision([bool(x) for x in A]) == as_list
    assert average_precision(np.array(A)) == as_list
    assert average_precision(np.array(A, dtype=float)) == as_list
    assert average_precision(pd.Series(A)) == as_list
    assert average_precision(tuple(A)) == as_list
    assert isinstance(as_list, float)


@pytest.mark.parametrize(
    ("k", "relevant", "min_relevant_k", "retrieved"),
    # the peer-conventions table: R = 5, ranking [1,1,0,0,0,1,1,1,0,0]
    [
        (3, 2 / 5, 2 / 3, 1.0),
        (5, 2 / 5, 2 / 5, 1.0),
        (
            10,
            (1 + 1 + 3 / 6 + 4 / 7 + 5 / 8) / 5,
            (1 + 1 + 3 / 6 + 4 / 7 + 5 / 8) / 5,
            (1 + 1 + 3 / 6 + 4 / 7 + 5 / 8) / 5,
        ),
    ],
)
def test_cutoff_denominators(k, relevant, min_relevant_k, retrieved):
    assert average_precision(CUT, k=k) == pytest.approx(relevant)
    assert average_precision(CUT, k=k, denominator="min_relevant_k") == pytest.approx(
        min_relevant_k
    )
    assert average_precision(CUT, k=k, denominator="retrieved") == pytest.approx(retrieved)
    assert round(average_precision(CUT, k=10), 4) == 0.7393


def test_retrieved_denominator_hides_missed_documents():
    # sklearn / torchmetrics cannot see the relevant document B never retrieved
    assert average_precision(B, n_relevant=3, denominator="retrieved") == pytest.approx(5 / 6)
    assert average_precision(B, n_relevant=3, denominator="min_relevant_k") == pytest.approx(5 / 9)


def test_mean_average_precision_article_003():
    assert round(mean_average_precision([A, B, C], n_relevant=[3, 3, 3]), 4) == 0.5602
    assert mean_average_precision([A, B, C], n_relevant=[None, 3, None]) == pytest.approx(
        (average_precision(A) + average_precision(B, n_relevant=3) + average_precision(C)) / 3
    )


@pytest.mark.parametrize(("no_relevant", "expected"), [("zero", 0.5), ("skip", 1.0), ("one", 1.0)])
def test_no_relevant_conventions(no_relevant, expected):
    assert mean_average_precision([[1, 0], [0, 0]], no_relevant=no_relevant) == expected


def test_no_relevant_one_and_skip_differ_when_other_queries_are_imperfect():
    rankings = [[0, 1], [0, 0]]
    assert mean_average_precision(rankings, no_relevant="zero") == 0.25
    assert mean_average_precision(rankings, no_relevant="skip") == 0.5
    assert mean_average_precision(rankings, no_relevant="one") == 0.75


def test_no_relevant_error_names_the_query():
    with pytest.raises(ValueError, match=r"rankings\[1\]: the query has no relevant document"):
        mean_average_precision([[1, 0], [0, 0]], no_relevant="error")


def test_map_with_cutoff_and_denominator():
    assert mean_average_precision([CUT], n_relevant=[5], k=3) == pytest.approx(0.4)
    assert mean_average_precision([CUT], k=3, denominator="retrieved") == 1.0


def test_map_accepts_a_2d_array():
    assert mean_average_precision(np.array([A, C])) == pytest.approx(
        (average_precision(A) + average_precision(C)) / 2
    )


def test_reciprocal_rank_and_mrr():
    assert reciprocal_rank([0, 0, 1]) == pytest.approx(1 / 3)
    assert reciprocal_rank([0, 0, 1], k=2) == 0.0
    assert reciprocal_rank([0, 0]) == 0.0
    assert mean_reciprocal_rank([[1], [0, 1], [0, 0, 0, 1]]) == pytest.approx((1 + 0.5 + 0.25) / 3)


def test_hit_at_k():
    assert hit_at_k([0, 1], 1) == 0.0
    assert hit_at_k([0, 1], 2) == 1.0
    assert hit_at_k([], 5) == 0.0


def test_ndcg_by_hand():
    gains = [3, 2, 3, 0, 1, 2]  # the Wikipedia DCG example
    dcg = sum(g / np.log2(i + 2) for i, g in enumerate(gains))
    idcg = sum(g / np.log2(i + 2) for i, g in enumerate(sorted(gains, reverse=True)))
    assert ndcg_at_k(gains, 6) == pytest.approx(dcg / idcg)
    assert ndcg_at_k([0, 0], 2) == 0.0
    assert ndcg_at_k([1, 0], 1, ideal=[1, 1]) == 1.0  # ideal is cut at k too
    assert ndcg_at_k([0, 1], 2, ideal=[1, 1, 0]) == pytest.approx(
        (1 / np.log2(3)) / (1 + 1 / np.log2(3))
    )


def test_legal_models_ndcg_separates_them_more_than_ap():
    a = mapteach.get_example("001_model_a")
    b = mapteach.get_example("001_model_b")
    assert b.ap - a.ap == pytest.approx(0.065, abs=5e-4)
    assert b.score("nDCG@10") > a.score("nDCG@10")
