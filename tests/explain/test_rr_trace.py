"""The reciprocal-rank trace table and its written-out arithmetic."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mapteach import reciprocal_rank
from mapteach.explain.rr_trace import RR_TRACE_COLUMNS, explain_rr, trace_rr


def test_rr_trace_stops_at_the_first_relevant_result():
    table = trace_rr([0, 0, 1, 1, 0])
    assert tuple(table.columns) == RR_TRACE_COLUMNS
    assert table["first_relevant"].tolist() == [False, False, True, False, False]
    assert table["running_rr"].tolist() == [0.0, 0.0, 1 / 3, 1 / 3, 1 / 3]
    assert table.attrs == {"k": None, "first_rank": 3, "rr": 1 / 3}
    assert trace_rr([0, 0, 1], k=2).attrs == {"k": 2, "first_rank": None, "rr": 0.0}
    assert trace_rr([]).empty


@given(st.lists(st.integers(0, 1), max_size=40), st.none() | st.integers(1, 50))
def test_rr_trace_reproduces_reciprocal_rank_bit_for_bit(labels, k):
    table = trace_rr(labels, k=k)
    expected = reciprocal_rank(labels, k=k)
    assert table.attrs["rr"] == expected
    if labels:
        assert table["running_rr"].iloc[-1] == expected
    else:
        assert table.empty
    assert table["first_relevant"].sum() == (expected > 0)
    assert explain_rr(labels, k=k).value == expected


def test_rr_explanations():
    assert explain_rr([0, 0, 1, 1]) == "RR = 1/3 = 0.3333"
    assert explain_rr([1, 0], k=1, decimals=1) == "RR@1 = 1/1 = 1.0"
    assert explain_rr([0, 0, 1], k=2) == "RR@2 = 0 (no relevant result in the top 2)"
    assert explain_rr([0, 0]) == "RR = 0 (no relevant result in the list)"
    explanation = explain_rr([0, 1])
    assert explanation.latex == r"\mathrm{RR} = \frac{1}{2} = 0.5000"
    assert explanation.note == (
        "The first relevant result is at rank 2; the results after it do not count."
    )
    assert explain_rr([0]).latex == r"\mathrm{RR} = 0"
    with pytest.raises(ValueError, match="decimals must be an integer >= 0"):
        explain_rr([1], decimals=True)
