"""RprecMult@m (trec_eval's Rprec_mult) against a transcription of m_Rprec_mult.c's loop,
hand-computed cases, and its tie-aware expectation against every order of the ties."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mapteach.metrics.batch import RankedEntries, batch_scores
from mapteach.metrics.names import parse_measure
from mapteach.metrics.rprec_mult import (
    RPREC_MULT,
    batch_rprec_mult,
    rprec_mult,
    rprec_mult_rank,
)
from mapteach.metrics.ties import expected_scores

MULTIPLES = [0.2, 0.35, 0.4, 0.5, 0.6, 1.0, 1.4, 2.0, 5.0]


def trec_eval_rprec_mult(labels: list[int], r: int, multiples: list[float]) -> list[float]:
    """m_Rprec_mult.c's loop, line by line (multiples ascending, lists not empty)."""
    cutoffs = [int(m * r + 0.9) for m in multiples]  # C's (long) truncates
    values = [0.0] * len(multiples)
    num_ret, num_rel_ret = len(labels), sum(labels)
    current = len(multiples) - 1
    while current >= 0 and cutoffs[current] > num_ret:
        values[current] = num_rel_ret / cutoffs[current]
        current -= 1
    rel_so_far = num_rel_ret
    i = num_ret
    while i > 0 and rel_so_far > 0:
        while current >= 0 and i == cutoffs[current]:
            values[current] = rel_so_far / i
            current -= 1
        if labels[i - 1]:
            rel_so_far -= 1
        i -= 1
    return values


@st.composite
def lists(draw):
    labels = draw(st.lists(st.sampled_from([0, 0, 1]), min_size=1, max_size=40))
    return labels, sum(labels) + draw(st.integers(0, 5))


@given(lists(), st.lists(st.sampled_from(MULTIPLES), min_size=1, max_size=4, unique=True))
def test_equals_trec_evals_loop(query, multiples):
    labels, r = query
    multiples = sorted(multiples)
    expected = trec_eval_rprec_mult(labels, r, multiples)
    assert [rprec_mult(labels, m, n_relevant=r) for m in multiples] == expected
    entries = RankedEntries.from_lists([labels], n_relevant=[r])
    assert [batch_rprec_mult(entries, m).item() for m in multiples] == expected


def test_by_hand():
    # R = 3: 0.2 x 3 + 0.9 = 1.5, rank 1; 0.6 x 3 + 0.9 = 2.7, rank 2; 2 x 3 + 0.9, rank 6
    labels = [0, 1, 1, 0]
    assert rprec_mult_rank(0.2, 3) == 1 and rprec_mult(labels, 0.2, n_relevant=3) == 0.0
    assert rprec_mult(labels, 0.6, n_relevant=3) == 1 / 2
    assert rprec_mult(labels, 2.0, n_relevant=3) == 2 / 6  # past the list's end, as P@6
    assert rprec_mult(labels, 1.0, n_relevant=3) == 2 / 3  # R-precision
    assert rprec_mult([0, 0], 1.0) == 0.0  # R = 0: rank 0


def test_names_and_rel():
    measure = parse_measure("Rprec_mult_0.20")
    assert measure.declaration is RPREC_MULT and measure.name == "RprecMult@0.2"
    assert RPREC_MULT.trec_eval_cutoffs == (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)
    entries = RankedEntries.from_lists([[2, 1, 0, 2]])  # R = 2 at grade 2: rank 2
    own = parse_measure("RprecMult(rel=2)@1.0")
    assert batch_scores(entries, [own])[own.name].tolist() == [1 / 2]


@pytest.mark.parametrize("multiple", [0.0, -1.0, float("inf")])
def test_a_multiple_must_be_positive(multiple):
    with pytest.raises(ValueError, match="multiple must be a number > 0"):
        rprec_mult([1, 0], multiple)


@given(
    st.lists(st.sampled_from([0, 1]), min_size=1, max_size=7),
    st.lists(st.integers(0, 2), min_size=7, max_size=7),
    st.integers(0, 3),
    st.sampled_from(MULTIPLES),
)
def test_expectation_is_the_mean_over_every_order_of_the_ties(labels, scores, extra, multiple):
    scores = sorted(scores[: len(labels)], reverse=True)
    r = sum(labels) + extra
    entries = RankedEntries.from_lists([labels], n_relevant=[r])
    measure = parse_measure(f"RprecMult@{multiple}")
    expected = expected_scores(entries, np.array(scores, dtype=float), [measure])[measure.name]
    orders = []
    groups = [list(g) for _, g in itertools.groupby(range(len(labels)), key=lambda i: scores[i])]
    for order in itertools.product(*(itertools.permutations(g) for g in groups)):
        ranked = [labels[i] for group in order for i in group]
        orders.append(rprec_mult(ranked, multiple, n_relevant=r))
    assert expected.tolist() == pytest.approx([np.mean(orders)], abs=1e-12)
