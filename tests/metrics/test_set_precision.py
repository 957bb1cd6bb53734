"""SetP (trec_eval's set_P): relevant retrieved over retrieved, by hand and as fractions."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mapteach.metrics.batch import RankedEntries, batch_scores
from mapteach.metrics.names import parse_measure
from mapteach.metrics.set_precision import SET_PRECISION, batch_set_precision, set_precision
from mapteach.metrics.ties import expected_scores

grades = st.lists(st.sampled_from([0, 0, 1, 2, 3]), max_size=30)


@given(st.lists(grades, min_size=1, max_size=6), st.integers(1, 3))
def test_is_the_fraction_of_the_set_that_is_relevant(lists, threshold):
    expected = [
        float(Fraction(sum(g >= threshold for g in gs), len(gs))) if gs else 0.0 for gs in lists
    ]
    entries = RankedEntries.from_lists(lists, threshold=threshold)
    assert batch_set_precision(entries, threshold=threshold).tolist() == expected
    assert batch_set_precision(entries.sparse(), threshold=threshold).tolist() == expected
    labels = [[int(g >= threshold) for g in gs] for gs in lists]
    assert [set_precision(y) for y in labels] == expected


def test_by_hand_and_unlike_p_at_k():
    assert set_precision([1, 0, 0, 1]) == 0.5
    assert set_precision([1]) == 1.0  # P@5 would be 1/5: the set is not padded
    assert set_precision([]) == 0.0


def test_name_and_ties():
    measure = parse_measure("set_P")
    assert measure.declaration is SET_PRECISION and measure.name == "SetP"
    entries = RankedEntries.from_lists([[1, 0, 2]])
    tied = expected_scores(entries, np.ones(3), [measure])["SetP"]
    assert tied.tolist() == batch_scores(entries, [measure])["SetP"].tolist() == [2 / 3]


def test_labels_are_checked():
    with pytest.raises(ValueError):
        set_precision([0, 2])
