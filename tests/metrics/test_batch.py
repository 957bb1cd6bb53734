"""Each batch kernel equals its scalar measure to the last bit, query by query.

The kernels live beside their scalar measures, one module per measure; their shared
machinery is :mod:`mapteach.metrics.batch`."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mapteach.metrics import (
    average_precision,
    bpref,
    hit_at_k,
    judged_at_k,
    ndcg_at_k,
    num_relevant,
    num_relevant_retrieved,
    num_retrieved,
    precision_at_k,
    r_precision,
    recall_at_k,
    reciprocal_rank,
)
from mapteach.metrics.average_precision import batch_average_precision
from mapteach.metrics.batch import RankedEntries, SetRatio, batch_scores
from mapteach.metrics.bpref import batch_bpref
from mapteach.metrics.counts import (
    batch_num_relevant,
    batch_num_relevant_retrieved,
    batch_num_retrieved,
)
from mapteach.metrics.hit import batch_hit
from mapteach.metrics.judged import batch_judged
from mapteach.metrics.names import FAMILIES, Measure, parse_measure
from mapteach.metrics.ndcg import batch_ndcg
from mapteach.metrics.options import DENOMINATORS
from mapteach.metrics.precision import batch_precision
from mapteach.metrics.r_precision import batch_r_precision
from mapteach.metrics.recall import batch_recall
from mapteach.metrics.reciprocal_rank import batch_reciprocal_rank
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


@st.composite
def judged_runs(draw):
    """Up to 8 queries for Bpref and Judged@k: grades from -1 (judged, but trec_eval's
    "ignore") to 3, whether each grade-0 document was judged, and relevant and judged
    non-relevant documents the run never retrieved."""
    threshold = draw(st.integers(1, 2))
    lists = draw(
        st.lists(
            st.lists(st.sampled_from([-1, 0, 0, 0, 1, 2, 3]), max_size=30), min_size=1, max_size=8
        )
    )
    judged = [[g != 0 or draw(st.booleans()) for g in grades] for grades in lists]
    unretrieved = [draw(st.integers(0, 3)) for _ in lists]
    unretrieved_nonrelevant = [draw(st.integers(0, 3)) for _ in lists]
    return threshold, lists, judged, unretrieved, unretrieved_nonrelevant


def entries_of(threshold, lists, unretrieved, *, sparse=False, judged=None):
    """The run as RankedEntries, and each query's 0/1 labels and R as the scalars see them.

    With ``judged`` (one flag per grade) the entries carry it, and every judged grade
    below the threshold is one of the query's N."""
    labels = [[int(g >= threshold) for g in grades] for grades in lists]
    r = [sum(y) + len(extra) for y, extra in zip(labels, unretrieved, strict=True)]
    ideal = [grades + extra for grades, extra in zip(lists, unretrieved, strict=True)]
    entries = RankedEntries.from_lists(
        lists, n_relevant=r, ideal=ideal, judged=judged, threshold=threshold
    )
    return (entries.sparse() if sparse else entries), labels, r


def judged_entries_of(run, *, sparse=False):
    """RankedEntries of a ``judged_runs`` draw, with the scalars' view of each query:
    labels, R, the flags Bpref reads (judged, grade >= 0), the flags Judged reads (any
    judgment) and N."""
    threshold, lists, judged, unretrieved, unretrieved_nonrelevant = run
    labels = [[int(g >= threshold) for g in grades] for grades in lists]
    r = [sum(y) + extra for y, extra in zip(labels, unretrieved, strict=True)]
    bpref_judged = [
        [j and g >= 0 for g, j in zip(grades, flags, strict=True)]
        for grades, flags in zip(lists, judged, strict=True)
    ]
    n = [
        sum(j and 0 <= g < threshold for g, j in zip(grades, flags, strict=True)) + extra
        for grades, flags, extra in zip(lists, judged, unretrieved_nonrelevant, strict=True)
    ]
    entries = RankedEntries.from_lists(
        lists, n_relevant=r, judged=judged, n_nonrelevant=n, threshold=threshold
    )
    return (entries.sparse() if sparse else entries), labels, r, bpref_judged, judged, n


def assert_bit_identical(batch, scalar):
    """``==`` on every query: no tolerance."""
    np.testing.assert_array_equal(batch, np.array(scalar, dtype=float), strict=True)


@given(runs(), st.none() | k_st, st.sampled_from(DENOMINATORS), st.booleans())
def test_average_precision(run, k, denominator, sparse):
    threshold, lists, unretrieved = run
    entries, labels, r = entries_of(threshold, lists, unretrieved, sparse=sparse)
    batch = batch_average_precision(entries, k=k, threshold=threshold, denominator=denominator)
    scalar = [
        average_precision(y, n_relevant=total, k=k, denominator=denominator)
        for y, total in zip(labels, r, strict=True)
    ]
    assert_bit_identical(batch, scalar)


@given(runs(), k_st, st.booleans())
def test_precision_recall_and_hit(run, k, sparse):
    threshold, lists, unretrieved = run
    entries, labels, r = entries_of(threshold, lists, unretrieved, sparse=sparse)
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
def test_reciprocal_rank(run, k, sparse):
    threshold, lists, unretrieved = run
    entries, labels, _ = entries_of(threshold, lists, unretrieved, sparse=sparse)
    assert_bit_identical(
        batch_reciprocal_rank(entries, k=k, threshold=threshold),
        [reciprocal_rank(y, k=k) for y in labels],
    )


@given(runs(), st.none() | k_st, st.booleans())
def test_ndcg_with_graded_judgments(run, k, sparse):
    threshold, lists, unretrieved = run
    entries, _, _ = entries_of(threshold, lists, unretrieved, sparse=sparse)
    scalar = []
    for grades, extra in zip(lists, unretrieved, strict=True):
        ideal = grades + extra
        scalar.append(ndcg_at_k(grades, k or max(len(grades), len(ideal), 1), ideal=ideal))
    assert_bit_identical(batch_ndcg(entries, k=k), scalar)


@given(runs(), st.booleans())
def test_r_precision_and_counts(run, sparse):
    threshold, lists, unretrieved = run
    entries, labels, r = entries_of(threshold, lists, unretrieved, sparse=sparse)
    assert_bit_identical(
        batch_r_precision(entries, threshold=threshold),
        [r_precision(y, n_relevant=total) for y, total in zip(labels, r, strict=True)],
    )
    assert_bit_identical(batch_num_retrieved(entries), [num_retrieved(y) for y in labels])
    assert_bit_identical(
        batch_num_relevant(entries),
        [num_relevant(y, n_relevant=total) for y, total in zip(labels, r, strict=True)],
    )
    assert_bit_identical(
        batch_num_relevant_retrieved(entries, threshold=threshold),
        [num_relevant_retrieved(y) for y in labels],
    )


@given(judged_runs(), st.booleans())
def test_bpref_with_unjudged_and_negative_grades(run, sparse):
    threshold = run[0]
    entries, labels, r, bpref_judged, _, n = judged_entries_of(run, sparse=sparse)
    scalar = [
        bpref(y, judged=flags, n_relevant=total, n_nonrelevant=nonrelevant)
        for y, flags, total, nonrelevant in zip(labels, bpref_judged, r, n, strict=True)
    ]
    assert_bit_identical(batch_bpref(entries, threshold=threshold), scalar)


@given(judged_runs(), st.none() | k_st, st.booleans())
def test_judged(run, k, sparse):
    entries, _, _, _, judged, _ = judged_entries_of(run, sparse=sparse)
    assert_bit_identical(batch_judged(entries, k=k), [judged_at_k(f, k) for f in judged])


NAMES = [name if family.cutoff != "required" else f"{name}@3" for name, family in FAMILIES.items()]
NAMES += ["AP@5", "P@1", "R@10", "RR@2", "nDCG@4", "Success@10", "Judged@2", "GMAP@3"]


@given(runs(), st.sampled_from(NAMES))
def test_batch_scores_equal_measure_score_on_binary_labels(run, name):
    threshold, lists, unretrieved = run
    labels = [[int(g >= threshold) for g in grades] for grades in lists]
    r = [sum(y) + len(extra) for y, extra in zip(labels, unretrieved, strict=True)]
    entries = RankedEntries.from_lists(
        labels,
        n_relevant=r,
        ideal=[[1] * total for total in r],
        judged=[[1] * len(y) for y in labels],  # labels are judgments: every rank is judged
    )
    measure = parse_measure(name)
    assert_bit_identical(
        batch_scores(entries, [measure])[name],
        [measure.score(y, n_relevant=total) for y, total in zip(labels, r, strict=True)],
    )


def test_every_family_has_a_batch_kernel():
    entries = RankedEntries.from_lists([[1, 0]], judged=[[1, 1]])
    measures = [parse_measure(name) for name in NAMES]
    assert list(batch_scores(entries, measures)) == [m.name for m in measures]


@given(runs(), st.sampled_from(["relevant", "min_relevant_k"]), st.data())
def test_without_ties_the_expectation_is_the_plain_value(run, denominator, data):
    threshold, lists, unretrieved = run
    judged = [[g > 0 or data.draw(st.booleans()) for g in grades] for grades in lists]
    entries, _, _ = entries_of(threshold, lists, unretrieved, judged=judged)
    names = ("AP", "AP@3", "P@2", "R@4", "RR", "RR@2", "nDCG@5", "Success@3", "Rprec", "Judged")
    names += ("Judged@3", "NumRet", "NumRel", "NumRelRet", "GMAP")
    measures = [parse_measure(name) for name in names]
    distinct = -entries.rank.astype(float)  # every score different: nothing is tied
    expected = expected_scores(
        entries, distinct, measures, threshold=threshold, denominator=denominator
    )
    plain = batch_scores(entries, measures, threshold=threshold, denominator=denominator)
    for measure in measures:
        assert_bit_identical(expected[measure.name], plain[measure.name])


def test_tied_r_precision_and_judged_expectations_by_hand():
    # ranks 1-4 tied: 2 relevant of 4, R = 2, so E[hits in the top 2] = 2 * 2/4 = 1
    entries = RankedEntries.from_lists([[1, 1, 0, 0]], judged=[[1, 1, 1, 0]])
    names = [parse_measure(name) for name in ("Rprec", "Judged@2", "Judged")]
    expected = expected_scores(entries, np.ones(4), names)
    assert expected["Rprec"].tolist() == [0.5]
    assert expected["Judged@2"].tolist() == [0.75]  # each rank judged with chance 3/4
    assert expected["Judged"].tolist() == [0.75]


def test_bpref_has_no_tie_aware_expectation():
    entries = RankedEntries.from_lists([[1, 0]], judged=[[1, 1]])
    with pytest.raises(ValueError, match=r"Bpref has no tie-aware expectation"):
        expected_scores(entries, np.ones(2), [parse_measure("Bpref")])


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


def test_bpref_by_hand():
    # trec_eval: relevant at 1, 3, 5; judged non-relevant at 2 and 4; unjudged at 6; R = 3, N = 2
    entries = RankedEntries.from_lists([[1, 0, 1, 0, 1, 0]], judged=[[1, 1, 1, 1, 1, 0]])
    assert batch_bpref(entries).tolist() == [(1 + (1 - 1 / 2) + (1 - 2 / 2)) / 3]
    # N = 0: nothing judged non-relevant, so every relevant document retrieved scores 1
    none_judged = RankedEntries.from_lists([[0, 1, 0]], judged=[[0, 1, 0]], n_relevant=[2])
    assert batch_bpref(none_judged).tolist() == [1 / 2]
    # min(N, R) caps the penalty: 5 non-relevant above, N = 9, R = 1 -> 1 - min(5, 1) / 1
    capped = RankedEntries.from_lists([[0, 0, 0, 0, 0, 1]], judged=[[1] * 6], n_nonrelevant=[9])
    assert batch_bpref(capped).tolist() == [0.0]


@pytest.mark.parametrize("family", ["Bpref", "Judged"])
def test_bpref_and_judged_need_judged_entries(family):
    with pytest.raises(ValueError, match=rf"{family} needs to know which entries are judged"):
        batch_scores(RankedEntries.from_lists([[1, 0]]), [Measure(family)])


def test_judged_and_n_nonrelevant_go_together():
    with pytest.raises(ValueError, match=r"judged and n_nonrelevant go together"):
        RankedEntries.from_sorted_rows(np.array([0]), [1], [1], [0], [1], judged=np.ones(1, bool))


@given(
    st.lists(st.lists(st.sampled_from([0, 1, 2]), max_size=12), min_size=1, max_size=5),
    st.lists(st.integers(0, 6), min_size=5, max_size=5),
    st.integers(1, 2),
)
def test_set_ratio_divides_the_relevant_entries_by_its_divisor(lists, extra, threshold):
    hits = [sum(g >= threshold for g in gs) for gs in lists]
    totals = [h + e for h, e in zip(hits, extra, strict=False)]
    entries = RankedEntries.from_lists(lists, n_relevant=totals, threshold=threshold)
    by_divisor = {"retrieved": [len(gs) for gs in lists], "relevant": totals}
    for divisor, counts in by_divisor.items():
        expected = [h / c if c else 0.0 for h, c in zip(hits, counts, strict=True)]
        ratio = SetRatio(divisor)
        assert ratio.batch(entries, threshold=threshold).tolist() == expected
        labels = [np.array([int(g >= threshold) for g in gs]) for gs in lists]
        assert [ratio.score(y, r, None) for y, r in zip(labels, totals, strict=True)] == expected


def test_set_ratio_names_a_wrong_divisor():
    with pytest.raises(ValueError, match="divisor must be one of 'retrieved', 'relevant'"):
        SetRatio("length")  # type: ignore[arg-type]
