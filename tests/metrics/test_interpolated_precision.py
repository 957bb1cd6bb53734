"""IPrec@level and ElevenPt (trec_eval's iprec_at_recall and 11pt_avg) against a transcription
of trec_eval 10's loop (m_iprec_at_recall.c, m_11pt_avg.c), hand-computed cases and the
11-point values trec_eval 10 printed for the articles' examples (test_curves_eleven_point)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mapteach import get_example
from mapteach.metrics.batch import RankedEntries, batch_scores
from mapteach.metrics.curves import eleven_point_average_precision
from mapteach.metrics.interpolated_precision import (
    ELEVEN_PT,
    IPREC,
    batch_interpolated_precision,
    batch_levels_average,
    interpolated_precision_at,
    levels_average_precision,
    recall_levels,
)
from mapteach.metrics.names import parse_measure
from mapteach.metrics.ties import expected_scores

LEVELS = [0.0, 0.05, 0.1, 0.2, 0.25, 0.3, 1 / 3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.9, 1.0, 1.5]


def lround(value: float) -> int:
    """C's lround of a double, exactly: halves away from zero."""
    return int(Decimal(value).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def trec_eval_iprec(labels: list[int], r: int, levels: list[float]) -> list[float]:
    """m_iprec_at_recall.c's loop, line by line (levels ascending, lists not empty)."""
    cutoffs = [lround(level * r) for level in levels]
    values = [0.0] * len(levels)
    num_ret, num_rel_ret = len(labels), sum(labels)
    current = len(levels) - 1
    while current >= 0 and cutoffs[current] > num_rel_ret:
        current -= 1
    int_precis = num_rel_ret / num_ret
    rel_so_far = num_rel_ret
    i = num_ret
    while i > 0 and rel_so_far > 0:
        int_precis = max(int_precis, rel_so_far / i)
        if labels[i - 1]:
            while current >= 0 and rel_so_far == cutoffs[current]:
                values[current] = int_precis
                current -= 1
            rel_so_far -= 1
        i -= 1
    while current >= 0:
        values[current] = int_precis
        current -= 1
    return values


@st.composite
def lists(draw):
    labels = draw(st.lists(st.sampled_from([0, 0, 1]), min_size=1, max_size=40))
    return labels, sum(labels) + draw(st.integers(0, 5))


@given(lists(), st.lists(st.sampled_from(LEVELS), min_size=1, max_size=6, unique=True))
def test_iprec_equals_trec_evals_loop(query, levels):
    labels, r = query
    levels = sorted(levels)
    expected = trec_eval_iprec(labels, r, levels)
    assert [interpolated_precision_at(labels, level, n_relevant=r) for level in levels] == expected
    entries = RankedEntries.from_lists([labels], n_relevant=[r])
    batch = [batch_interpolated_precision(entries, level).item() for level in levels]
    assert batch == expected


@given(st.lists(lists(), min_size=1, max_size=6), st.sampled_from(LEVELS))
def test_batch_iprec_of_many_queries_equals_the_scalar(queries, level):
    entries = RankedEntries.from_lists([y for y, _ in queries], n_relevant=[r for _, r in queries])
    expected = [interpolated_precision_at(y, level, n_relevant=r) for y, r in queries]
    assert batch_interpolated_precision(entries, level).tolist() == expected


@given(lists(), st.none() | st.lists(st.sampled_from(LEVELS), min_size=1, max_size=5))
def test_levels_average_is_trec_evals_sum_from_the_top(query, levels):
    labels, r = query
    at = [i / 10 for i in range(11)] if levels is None else sorted(set(levels))
    total = 0.0
    for point in reversed(trec_eval_iprec(labels, r, at)):  # m_11pt_avg.c: from the top down
        total += point
    given = None if levels is None else at
    assert levels_average_precision(labels, given, n_relevant=r) == total / len(at)
    entries = RankedEntries.from_lists([labels], n_relevant=[r])
    assert batch_levels_average(entries, given).tolist() == [total / len(at)]


@pytest.mark.parametrize("name", ["003_a", "003_b", "001_legal"])
def test_eleven_pt_is_the_trec_eval_10_eleven_point_average(name):
    example = get_example(name)
    expected = eleven_point_average_precision(
        example.labels, n_relevant=example.n_relevant, convention="trec_eval_10"
    )
    measure = parse_measure("11pt_avg")
    assert measure.score(example.labels, n_relevant=example.n_relevant) == expected


def test_by_hand():
    # relevant at ranks 1 and 3 of R = 4: P = 1, 2/3; lround(0.25 x 4) = 1, lround(0.5 x 4) = 2
    labels = [1, 0, 1, 0, 0]
    assert interpolated_precision_at(labels, 0.25, n_relevant=4) == 1.0
    assert interpolated_precision_at(labels, 0.5, n_relevant=4) == 2 / 3
    assert interpolated_precision_at(labels, 0.75, n_relevant=4) == 0.0  # 3 never found
    assert interpolated_precision_at([0, 1], 0.0) == 0.5  # level 0: the best precision
    assert interpolated_precision_at([0, 0], 0.0) == 0.0  # nothing relevant: 0


def test_an_empty_list_scores_zero_where_trec_eval_divides_0_by_0():
    # trec_eval -J prints nan for a list it emptied; mapteach scores 0.0, as trec_eval
    # scores a query -c adds (a list of one non-relevant document)
    entries = RankedEntries.from_lists([[]], n_relevant=[2])
    assert batch_interpolated_precision(entries, 0.0).tolist() == [0.0]
    assert batch_levels_average(entries).tolist() == [0.0]
    assert interpolated_precision_at([], 0.0, n_relevant=2) == 0.0


def test_measure_names_and_parameters():
    measure = parse_measure("IPrec@0.5")
    assert (measure.declaration, measure.trec_name) == (IPREC, "iprec_at_recall_0.50")
    assert IPREC.cutoff_kind == "level"
    assert IPREC.trec_eval_cutoffs == tuple(i / 10 for i in range(11))
    average = parse_measure("11pt_avg")
    assert (average.declaration, average.trec_name) == (ELEVEN_PT, "11pt_avg")
    entries = RankedEntries.from_lists([[1, 0, 1, 1]], n_relevant=[4])
    own = parse_measure("ElevenPt(levels='.75,.25,.5')")
    assert batch_scores(entries, [own])[own.name].tolist() == [
        levels_average_precision([1, 0, 1, 1], [0.25, 0.5, 0.75], n_relevant=4)
    ]


def test_rel_counts_r_at_the_measures_own_grade():
    entries = RankedEntries.from_lists([[2, 1, 0, 2]])  # R = 3 at grade 1, 2 at grade 2
    measure = parse_measure("IPrec(rel=2)@0.5")
    assert batch_scores(entries, [measure])[measure.name].tolist() == [
        interpolated_precision_at([1, 0, 0, 1], 0.5, n_relevant=2)
    ]


def test_recall_levels_are_checked():
    assert recall_levels("1,.5").tolist() == [0.5, 1.0]
    for text in ("", ".5,x", "-0.1", "nan"):
        with pytest.raises(ValueError, match="levels must be recall levels >= 0"):
            recall_levels(text)
    with pytest.raises(ValueError, match="recall levels must be finite numbers >= 0"):
        levels_average_precision([1, 0], [-1.0])


@pytest.mark.parametrize("name", ["IPrec@0.5", "11pt_avg"])
def test_no_tie_aware_expectation(name):
    entries = RankedEntries.from_lists([[1, 0]])
    with pytest.raises(ValueError, match="interpolated precision has no tie-aware expectation"):
        expected_scores(entries, np.ones(2), [parse_measure(name)])
