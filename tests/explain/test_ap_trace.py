"""The trace table and the written-out arithmetic."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mapteach import average_precision, explain_ap, reciprocal_rank, trace_ap
from mapteach.explain.ap_trace import TRACE_COLUMNS
from mapteach.explain.rr_trace import RR_TRACE_COLUMNS, explain_rr, trace_rr


def test_trace_table_for_article_003_query_b():
    table = trace_ap([1, 0, 1, 0, 0], n_relevant=3)
    assert tuple(table.columns) == TRACE_COLUMNS
    assert table["fraction"].tolist() == ["1/1", "1/2", "2/3", "2/4", "2/5"]
    assert table["hits"].tolist() == [1, 1, 2, 2, 2]
    assert table["relevant"].dtype == bool
    assert table["contribution"].round(4).tolist() == [1.0, 0.0, 0.6667, 0.0, 0.0]
    assert table["running_ap"].round(4).tolist() == [0.3333, 0.3333, 0.5556, 0.5556, 0.5556]
    ap = average_precision([1, 0, 1, 0, 0], n_relevant=3)  # (1/1 + 2/3) / 3
    assert table.attrs == {"n_relevant": 3, "k": None, "ap": ap}
    assert table["running_ap"].iloc[-1] == ap


def test_trace_with_cutoff_stops_at_k():
    table = trace_ap([1, 0, 1, 1], k=2)
    assert table["rank"].tolist() == [1, 2]
    assert table.attrs["k"] == 2
    assert round(table.attrs["ap"], 4) == 0.3333  # (1/1) / 3


def test_trace_of_empty_and_all_irrelevant_lists():
    assert trace_ap([]).empty
    assert trace_ap([0, 0])["running_ap"].tolist() == [0.0, 0.0]


def test_explanations():
    assert explain_ap([1, 0, 1, 1, 0, 0, 0, 0]) == "AP = (1/1 + 2/3 + 3/4) / 3 = 0.8056"
    assert explain_ap([0, 0, 0, 0, 0, 0, 1, 1, 1, 1]) == (
        "AP = (1/7 + 2/8 + 3/9 + 4/10) / 4 = 0.2815"
    )
    assert explain_ap([0, 0], n_relevant=2) == "AP = 0 / 2 = 0.0000"
    assert explain_ap([0, 0]) == "AP = 0 (R = 0: the query has no relevant document)"
    assert explain_ap([1, 1], decimals=2) == "AP = (1/1 + 2/2) / 2 = 1.00"


def test_explanation_forms():
    explanation = explain_ap([1, 0, 1], n_relevant=4)
    assert explanation.latex == r"\mathrm{AP} = \frac{\frac{1}{1} + \frac{2}{3}}{4} = 0.4167"
    assert explanation.markdown.startswith("$$")
    assert explanation._repr_markdown_() == explanation.markdown
    assert "2 of them are not in the ranks that count and add 0" in explanation.note
    assert explanation.value == pytest.approx(5 / 12)


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
