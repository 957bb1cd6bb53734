"""Invariants of the metrics, checked with hypothesis against a loop-by-loop reference."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from mapteach import (
    average_precision,
    mean_average_precision,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
    trace_ap,
)
from tests.reference import reference_ap

labels_st = st.lists(st.integers(0, 1), max_size=60)
k_st = st.integers(1, 70)


@st.composite
def query(draw):
    """A ranked list and an R that counts some unretrieved relevant documents."""
    labels = draw(labels_st)
    return labels, sum(labels) + draw(st.integers(0, 5))


@given(query(), st.none() | k_st)
def test_matches_the_reference_loop(q, k):
    labels, r = q
    assert average_precision(labels, n_relevant=r, k=k) == pytest.approx(
        reference_ap(labels, r, k), abs=1e-12
    )


@given(query(), st.none() | k_st)
def test_ap_is_between_zero_and_one(q, k):
    labels, r = q
    assert 0.0 <= average_precision(labels, n_relevant=r, k=k) <= 1.0


@given(query())
def test_ap_is_one_iff_all_relevant_are_at_the_top(q):
    labels, r = q
    assume(r > 0)
    at_top = labels[:r] == [1] * r
    assert (average_precision(labels, n_relevant=r) == 1.0) == at_top


@given(query(), st.data())
def test_moving_a_relevant_item_up_never_lowers_ap(q, data):
    labels, r = q
    relevant = [i for i, label in enumerate(labels) if label]
    assume(relevant)
    source = data.draw(st.sampled_from(relevant))
    target = data.draw(st.integers(0, source))
    moved = labels[:source] + labels[source + 1 :]
    moved.insert(target, 1)
    assert average_precision(moved, n_relevant=r) >= average_precision(labels, n_relevant=r)


@given(query(), k_st)
def test_ap_at_k_never_exceeds_ap(q, k):
    labels, r = q
    assert average_precision(labels, n_relevant=r, k=k) <= average_precision(labels, n_relevant=r)


@given(st.integers(1, 50), st.integers(0, 20))
def test_single_relevant_item_ap_is_one_over_rank(rank, tail):
    labels = [0] * (rank - 1) + [1] + [0] * tail
    assert average_precision(labels) == pytest.approx(1 / rank)
    assert average_precision(labels) == reciprocal_rank(labels)


@given(query(), st.none() | k_st)
def test_map_of_one_query_is_its_ap(q, k):
    labels, r = q
    assert mean_average_precision([labels], n_relevant=[r], k=k) == average_precision(
        labels, n_relevant=r, k=k
    )


@given(st.lists(query(), min_size=1, max_size=8))
def test_map_is_the_mean_of_aps_and_order_free(queries):
    aps = [average_precision(labels, n_relevant=r) for labels, r in queries]
    rankings, totals = [labels for labels, _ in queries], [r for _, r in queries]
    assert mean_average_precision(rankings, n_relevant=totals) == pytest.approx(sum(aps) / len(aps))
    assert mean_average_precision(rankings[::-1], n_relevant=totals[::-1]) == pytest.approx(
        sum(aps) / len(aps)
    )


@given(query())
def test_appending_non_relevant_results_changes_nothing(q):
    labels, r = q
    assert average_precision(labels + [0] * 5, n_relevant=r) == average_precision(
        labels, n_relevant=r
    )


@given(query(), st.none() | k_st)
def test_denominators_are_ordered(q, k):
    # R >= min(R, k) >= hits within the cutoff, so AP grows as the denominator shrinks
    labels, r = q
    by_r = average_precision(labels, n_relevant=r, k=k)
    by_min = average_precision(labels, n_relevant=r, k=k, denominator="min_relevant_k")
    by_hits = average_precision(labels, n_relevant=r, k=k, denominator="retrieved")
    assert by_r <= by_min + 1e-15
    assert by_min <= by_hits + 1e-15 or not any(labels[:k])


@given(query(), k_st)
def test_precision_and_recall_count_the_same_hits(q, k):
    labels, r = q
    hits = sum(labels[:k])
    assert precision_at_k(labels, k) * k == pytest.approx(hits)
    if r:
        assert recall_at_k(labels, k, n_relevant=r) * r == pytest.approx(hits)


@given(query(), st.none() | k_st)
def test_trace_ends_at_ap(q, k):
    labels, r = q
    table = trace_ap(labels, n_relevant=r, k=k)
    assert len(table) == len(labels[:k] if k else labels)
    if len(table):
        assert table["running_ap"].iloc[-1] == pytest.approx(
            average_precision(labels, n_relevant=r, k=k), abs=1e-12
        )
    assert table.attrs["ap"] == average_precision(labels, n_relevant=r, k=k)


@given(st.lists(st.integers(0, 3), max_size=30), k_st)
def test_ndcg_is_one_for_the_ideal_order_and_bounded(gains, k):
    assert 0.0 <= ndcg_at_k(gains, k) <= 1.0 + 1e-12
    if any(gains[:k]):
        assert ndcg_at_k(sorted(gains, reverse=True), k) == pytest.approx(1.0)
