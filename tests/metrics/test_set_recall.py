"""SetR (trec_eval's set_recall): relevant retrieved over R, by hand and as fractions."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mapteach.metrics.batch import RankedEntries, batch_scores
from mapteach.metrics.names import parse_measure
from mapteach.metrics.set_recall import SET_RECALL, batch_set_recall, set_recall
from mapteach.metrics.ties import expected_scores

labels_st = st.lists(st.sampled_from([0, 0, 1]), max_size=30)


@given(st.lists(st.tuples(labels_st, st.integers(0, 4)), min_size=1, max_size=6))
def test_is_the_share_of_r_retrieved(queries):
    r = [sum(y) + extra for y, extra in queries]
    expected = [
        float(Fraction(sum(y), n)) if n else 0.0 for (y, _), n in zip(queries, r, strict=True)
    ]
    entries = RankedEntries.from_lists([y for y, _ in queries], n_relevant=r)
    assert batch_set_recall(entries).tolist() == expected
    assert batch_set_recall(entries.sparse()).tolist() == expected
    assert [set_recall(y, n_relevant=n) for (y, _), n in zip(queries, r, strict=True)] == expected


def test_by_hand():
    assert set_recall([1, 0, 1], n_relevant=4) == 0.5
    assert set_recall([0, 0]) == 0.0  # R = 0
    assert set_recall([], n_relevant=3) == 0.0


def test_name_and_ties():
    measure = parse_measure("set_recall")
    assert measure.declaration is SET_RECALL and measure.name == "SetR"
    entries = RankedEntries.from_lists([[1, 0, 1]], n_relevant=[4])
    tied = expected_scores(entries, np.ones(3), [measure])["SetR"]
    assert tied.tolist() == batch_scores(entries, [measure])["SetR"].tolist() == [0.5]


def test_r_is_checked():
    with pytest.raises(ValueError):
        set_recall([1, 1], n_relevant=1)
