"""SetF (trec_eval's set_F): (beta + 1) P R / (beta P + R), by hand and as fractions."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mapteach.metrics.batch import RankedEntries, batch_scores
from mapteach.metrics.names import parse_measure
from mapteach.metrics.set_f import SET_F, batch_set_f, set_f

labels_st = st.lists(st.sampled_from([0, 0, 1]), max_size=30)


def exact_f(labels: list[int], r: int, beta: Fraction) -> float:
    found = sum(labels)
    if not found:
        return 0.0
    p, recall = Fraction(found, len(labels)), Fraction(found, r)
    return float((beta + 1) * p * recall / (beta * p + recall))


@given(
    st.lists(st.tuples(labels_st, st.integers(0, 4)), min_size=1, max_size=6),
    st.sampled_from([Fraction(1), Fraction(1, 2), Fraction(2), Fraction(0), Fraction(1, 4)]),
)
def test_is_the_weighted_harmonic_mean(queries, beta):
    r = [sum(y) + extra for y, extra in queries]
    expected = [exact_f(y, n, beta) for (y, _), n in zip(queries, r, strict=True)]
    entries = RankedEntries.from_lists([y for y, _ in queries], n_relevant=r)
    assert batch_set_f(entries, beta=float(beta)).tolist() == pytest.approx(expected, abs=1e-15)
    scalar = [
        set_f(y, n_relevant=n, beta=float(beta)) for (y, _), n in zip(queries, r, strict=True)
    ]
    assert scalar == batch_set_f(entries, beta=float(beta)).tolist()


def test_by_hand():
    assert set_f([1, 1, 0, 0], n_relevant=2) == 2 * 0.5 * 1.0 / 1.5  # P = 1/2, R = 1
    assert set_f([1, 0], n_relevant=4, beta=0.0) == 0.5  # beta 0: set precision
    assert set_f([0, 0], n_relevant=2) == 0.0


def test_names_and_beta():
    assert parse_measure("set_F").declaration is SET_F
    half = parse_measure("set_F.0.5")
    assert (half.name, half.trec_name) == ("SetF(beta=0.5)", "set_F_0.5")
    entries = RankedEntries.from_lists([[1, 1, 0, 0]], n_relevant=[2])
    assert batch_scores(entries, [half])[half.name].tolist() == [
        set_f([1, 1, 0, 0], n_relevant=2, beta=0.5)
    ]


@pytest.mark.parametrize("beta", [-1.0, float("nan")])
def test_beta_is_checked(beta):
    with pytest.raises(ValueError, match="beta must be a number >= 0"):
        set_f([1], beta=beta)
