"""What notebooks 06 (playground), 07 (PR curves) and 08 (choosing a metric) tell the learner,
checked as properties of the measures on random lists, against references written here.

- 06, "Things to try" 1: dragging a relevant result from rank j to the top changes no row
  below rank j in its hits, P@k or contribution; only the running totals move.
- 06, item 3 and the recap: with trec_eval's denominator R, AP@k <= AP (also held by
  ``test_properties.test_ap_at_k_never_exceeds_ap``); dividing by min(k, R) or by the hits in
  the top k can give more than AP.
- 06, recap: each of Q queries weighs 1/Q: a gain in one query's AP raises MAP by a Q-th of it,
  whichever query it is.
- 08, "One set of rankings": Hit@1 and RR look only at the first relevant result; nDCG@10
  scores every relevant result in the top 10.

07's floating-point count is held in ``tests/metrics/test_curves_eleven_point.py``
(``test_needed_relevant_documents_per_convention``: exact fractions give IIR's count; only
the doubles fall short, at (0.7, 3) among others).
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from mapteach import (
    average_precision,
    get_example,
    hit_at_k,
    mean_average_precision,
    ndcg_at_k,
    reciprocal_rank,
    trace_ap,
)

labels_st = st.lists(st.integers(0, 1), min_size=1, max_size=30)


def reference_rows(labels: list[int]) -> list[tuple[bool, int, Fraction, Fraction]]:
    """(relevant, hits so far, P@k, contribution) of each rank, counted by hand."""
    rows, hits = [], 0
    for rank, label in enumerate(labels, start=1):
        hits += label
        precision = Fraction(hits, rank)
        rows.append((bool(label), hits, precision, precision if label else Fraction(0)))
    return rows


def trace_rows(labels: list[int]) -> list[tuple[bool, int, float, float]]:
    """The same four columns, as the board's trace table shows them."""
    table = trace_ap(labels)
    return list(
        table[["relevant", "hits", "precision", "contribution"]].itertuples(index=False, name=None)
    )


@given(labels_st, st.data())
def test_dragging_a_result_to_the_top_changes_no_row_below_its_old_rank(labels, data):
    relevant_ranks = [rank for rank, label in enumerate(labels, start=1) if label]
    assume(relevant_ranks)
    source = data.draw(st.sampled_from(relevant_ranks))
    dragged = [1, *labels[: source - 1], *labels[source:]]
    before, after = reference_rows(labels), reference_rows(dragged)
    assert before[source:] == after[source:]
    for shown, counted in zip(trace_rows(dragged), after, strict=True):
        assert shown[:2] == counted[:2]
        assert shown[2:] == pytest.approx([float(value) for value in counted[2:]])


def test_the_playground_drag_changes_the_rows_at_ranks_two_and_three_only():
    query_a = list(get_example("003_a").labels)  # the board as it opens
    assert query_a == [1, 0, 1, 1, 0, 0, 0, 0]
    dragged = [1, 1, 0, 1, 0, 0, 0, 0]  # its rank 4 dragged to the top, by hand
    pairs = zip(trace_rows(query_a), trace_rows(dragged), strict=True)
    assert [rank for rank, (b, a) in enumerate(pairs, start=1) if b != a] == [2, 3]


def fraction_ap_at_k(labels: list[int], r: int, k: int, denominator: str) -> Fraction:
    """AP@k with exact fractions: the sum of P@i at relevant ranks i <= k over a denominator."""
    top = labels[:k]
    total = sum(
        (Fraction(sum(top[:rank]), rank) for rank, label in enumerate(top, start=1) if label),
        Fraction(0),
    )
    divide_by = {"relevant": r, "min_relevant_k": min(k, r), "retrieved": sum(top)}[denominator]
    return total / divide_by


@pytest.mark.parametrize(
    ("labels", "r", "k", "denominator"),
    [
        ([1, 0, 0, 0, 1], 2, 1, "min_relevant_k"),  # 1/1 over min(1, 2) = 1, AP = 7/10
        ([0, 1, 0, 0, 1], 2, 2, "retrieved"),  # (1/2) / 1 hit = 1/2, AP = 9/20
    ],
)
def test_other_denominators_can_raise_ap_at_k_above_ap(labels, r, k, denominator):
    full = fraction_ap_at_k(labels, r, len(labels), "relevant")
    cut = fraction_ap_at_k(labels, r, k, denominator)
    assert cut > full
    assert average_precision(labels, n_relevant=r, k=k, denominator=denominator) == pytest.approx(
        float(cut)
    )
    assert average_precision(labels, n_relevant=r) == pytest.approx(float(full))
    assert average_precision(labels, n_relevant=r, k=k) <= average_precision(labels, n_relevant=r)


@given(st.lists(labels_st, min_size=1, max_size=6), st.data())
def test_a_gain_in_one_query_raises_map_by_a_qth_of_it_whichever_query(queries, data):
    assume(any(any(labels) for labels in queries))
    which = data.draw(st.sampled_from([i for i, labels in enumerate(queries) if any(labels)]))
    improved = [list(labels) for labels in queries]
    improved[which] = sorted(improved[which], reverse=True)  # every relevant result on top
    totals = [sum(labels) for labels in queries]
    gain = average_precision(improved[which]) - average_precision(queries[which])
    moved = mean_average_precision(improved, n_relevant=totals) - mean_average_precision(
        queries, n_relevant=totals
    )
    assert moved == pytest.approx(gain / len(queries), abs=1e-12)


def reference_idcg(r: int, k: int) -> float:
    """The ideal DCG@k of R binary relevant documents, summed by hand."""
    return sum(1 / math.log2(rank + 1) for rank in range(1, min(k, r) + 1))


def reference_ndcg(labels: list[int], r: int, k: int) -> float:
    """Binary nDCG@k against the ideal ranking of R relevant documents."""
    dcg = sum(label / math.log2(rank + 1) for rank, label in enumerate(labels[:k], start=1))
    return dcg / reference_idcg(r, k)


@given(st.lists(st.integers(0, 1), min_size=10, max_size=20), st.data())
def test_only_ndcg_at_10_sees_a_relevant_result_after_the_first(labels, data):
    assume(1 in labels[:9])
    first = labels.index(1) + 1
    later = [rank for rank in range(first + 1, 11) if not labels[rank - 1]]
    assume(later)
    rank = data.draw(st.sampled_from(later))
    added = [*labels[: rank - 1], 1, *labels[rank:]]
    r = sum(added)
    assert hit_at_k(added, 1) == hit_at_k(labels, 1) == float(first == 1)
    assert reciprocal_rank(added) == reciprocal_rank(labels) == pytest.approx(1 / first)
    before = ndcg_at_k(labels, 10, ideal=[1] * r)
    after = ndcg_at_k(added, 10, ideal=[1] * r)
    assert after == pytest.approx(reference_ndcg(added, r, 10))
    assert after - before == pytest.approx(1 / math.log2(rank + 1) / reference_idcg(r, 10))
    assert after > before
