"""Each batch kernel equals its scalar measure to the last bit, query by query."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mapteach.metrics import (
    average_precision,
    hit_at_k,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
)
from mapteach.metrics.batch import (
    RankedEntries,
    batch_average_precision,
    batch_hit,
    batch_ndcg,
    batch_precision,
    batch_recall,
    batch_reciprocal_rank,
    batch_scores,
)
from mapteach.metrics.names import Measure, parse_measure
from mapteach.metrics.options import DENOMINATORS
from mapteach.metrics.ties import expected_scores

grades_st = st.lists(st.sampled_from([0, 0, 0, 1, 1, 2, 3]), max_size=40)
k_st = st.integers(1, 45)


@st.composite
def runs(draw):
    """Up to 8 queries: graded lists (some empty or with nothing relevant), a relevance
    threshold, and relevant documents the run never retrieved (with their gains)."""
    threshold = draw(st.integers(1, 2))
    lists = draw(st.lists(grades_st, min_size=1, max_size=8))
    unretrieved = [
        draw(st.lists(st.integers(threshold, 3), max_size=3)) if draw(st.booleans()) else []
        for _ in lists
    ]
    return threshold, lists, unretrieved


def entries_of(threshold, lists, unretrieved, *, positive=False):
    """The run as RankedEntries, and each query's 0/1 labels and R as the scalars see them."""
    labels = [[int(g >= threshold) for g in grades] for grades in lists]
    r = [sum(y) + len(extra) for y, extra in zip(labels, unretrieved, strict=True)]
    ideal = [grades + extra for grades, extra in zip(lists, unretrieved, strict=True)]
    entries = RankedEntries.from_lists(lists, n_relevant=r, ideal=ideal)
    return (entries.positive() if positive else entries), labels, r


def assert_bit_identical(batch, scalar):
    """``==`` on every query: no tolerance."""
    np.testing.assert_array_equal(batch, np.array(scalar, dtype=float), strict=True)


@given(runs(), st.none() | k_st, st.sampled_from(DENOMINATORS), st.booleans())
def test_average_precision(run, k, denominator, positive):
    threshold, lists, unretrieved = run
    entries, labels, r = entries_of(threshold, lists, unretrieved, positive=positive)
    batch = batch_average_precision(entries, k=k, threshold=threshold, denominator=denominator)
    scalar = [
        average_precision(y, n_relevant=total, k=k, denominator=denominator)
        for y, total in zip(labels, r, strict=True)
    ]
    assert_bit_identical(batch, scalar)


@given(runs(), k_st, st.booleans())
def test_precision_recall_and_hit(run, k, positive):
    threshold, lists, unretrieved = run
    entries, labels, r = entries_of(threshold, lists, unretrieved, positive=positive)
    assert_bit_identical(
        batch_precision(entries, k, threshold=threshold), [precision_at_k(y, k) for y in labels]
    )
    assert_bit_identical(
        batch_recall(entries, k, threshold=threshold),
        [recall_at_k(y, k, n_relevant=total) for y, total in zip(labels, r, strict=True)],
    )
    assert_bit_identical(
        batch_hit(entries, k, threshold=threshold), [hit_at_k(y, k) for y in labels]
    )


@given(runs(), st.none() | k_st, st.booleans())
def test_reciprocal_rank(run, k, positive):
    threshold, lists, unretrieved = run
    entries, labels, _ = entries_of(threshold, lists, unretrieved, positive=positive)
    assert_bit_identical(
        batch_reciprocal_rank(entries, k=k, threshold=threshold),
        [reciprocal_rank(y, k=k) for y in labels],
    )


@given(runs(), st.none() | k_st, st.booleans())
def test_ndcg_with_graded_judgments(run, k, positive):
    threshold, lists, unretrieved = run
    entries, _, _ = entries_of(threshold, lists, unretrieved, positive=positive)
    scalar = []
    for grades, extra in zip(lists, unretrieved, strict=True):
        ideal = grades + extra
        scalar.append(ndcg_at_k(grades, k or max(len(grades), len(ideal), 1), ideal=ideal))
    assert_bit_identical(batch_ndcg(entries, k=k), scalar)


@given(runs(), st.sampled_from(["AP", "AP@5", "P@3", "R@10", "RR", "RR@2", "nDCG", "Success@2"]))
def test_batch_scores_equal_measure_score_on_binary_labels(run, name):
    threshold, lists, unretrieved = run
    labels = [[int(g >= threshold) for g in grades] for grades in lists]
    r = [sum(y) + len(extra) for y, extra in zip(labels, unretrieved, strict=True)]
    entries = RankedEntries.from_lists(labels, n_relevant=r, ideal=[[1] * total for total in r])
    measure = parse_measure(name)
    assert_bit_identical(
        batch_scores(entries, [measure])[name],
        [measure.score(y, n_relevant=total) for y, total in zip(labels, r, strict=True)],
    )


@given(runs(), st.sampled_from(["relevant", "min_relevant_k"]))
def test_without_ties_the_expectation_is_the_plain_value(run, denominator):
    threshold, lists, unretrieved = run
    entries, _, _ = entries_of(threshold, lists, unretrieved)
    names = ("AP", "AP@3", "P@2", "R@4", "RR", "RR@2", "nDCG@5", "Success@3")
    measures = [parse_measure(name) for name in names]
    distinct = -entries.rank.astype(float)  # every score different: nothing is tied
    expected = expected_scores(
        entries, distinct, measures, threshold=threshold, denominator=denominator
    )
    plain = batch_scores(entries, measures, threshold=threshold, denominator=denominator)
    for measure in measures:
        assert_bit_identical(expected[measure.name], plain[measure.name])


# --- hand cases ----------------------------------------------------------------------

ARTICLE_003 = [[1, 0, 1, 1, 0, 0, 0, 0], [1, 0, 1, 0, 0, 0, 0, 0], [0, 0, 0, 1, 0, 1, 0, 1]]


def test_article_003_queries():
    entries = RankedEntries.from_lists(ARTICLE_003, n_relevant=[3, 3, 3])
    assert batch_average_precision(entries).round(4).tolist() == [0.8056, 0.5556, 0.3194]
    assert_bit_identical(
        batch_average_precision(entries), [average_precision(y, n_relevant=3) for y in ARTICLE_003]
    )


def test_queries_with_no_relevant_document_and_empty_lists_score_zero():
    entries = RankedEntries.from_lists([[0, 0, 0], [], [1]], n_relevant=[0, 2, 1])
    for denominator in DENOMINATORS:
        assert batch_average_precision(entries, denominator=denominator).tolist() == [0, 0, 1]
    assert batch_recall(entries, 3).tolist() == [0.0, 0.0, 1.0]
    assert batch_precision(entries, 2).tolist() == [0.0, 0.0, 0.5]
    assert batch_ndcg(entries).tolist() == [0.0, 0.0, 1.0]


def test_unretrieved_relevant_documents_count_in_r_and_the_ideal_ranking():
    entries = RankedEntries.from_lists([[1, 0, 1]], n_relevant=[4], ideal=[[1, 0, 1, 3, 1]])
    assert batch_average_precision(entries).tolist() == [average_precision([1, 0, 1], n_relevant=4)]
    assert batch_ndcg(entries, k=3).tolist() == [ndcg_at_k([1, 0, 1], 3, ideal=[1, 0, 1, 3, 1])]


def test_long_graded_lists_sum_in_rank_order():
    """Past eight entries numpy.sum adds in pairs; both forms add rank by rank instead."""
    grades = np.random.default_rng(7).choice([0, 1, 2, 3], 200).tolist()
    entries = RankedEntries.from_lists([grades])
    for k in (None, 10, 57, 200):
        expected = ndcg_at_k(grades, k or 200)
        assert batch_ndcg(entries, k=k).tolist() == [expected], k


@pytest.mark.parametrize("family", ["P", "R", "Success"])
def test_a_required_cutoff_is_enforced(family):
    with pytest.raises(TypeError, match=r"k must be a positive integer"):
        batch_scores(RankedEntries.from_lists([[1]]), [Measure(family)])
