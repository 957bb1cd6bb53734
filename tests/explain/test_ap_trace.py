"""The AP trace table and its written-out arithmetic, and the decimals check every trace shares."""

from __future__ import annotations

import re

import pytest

from mapteach import average_precision, explain_ap, explain_ndcg, explain_rr, trace_ap
from mapteach.explain.ap_trace import TRACE_COLUMNS, check_decimals


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


@pytest.mark.parametrize("decimals", [-1, 1.5, True, "4"])
def test_every_explanation_checks_its_decimals_the_same_way(decimals):
    message = f"decimals must be an integer >= 0; got {decimals!r}."
    for explain in (check_decimals, lambda d: explain_ap([1], decimals=d)):
        with pytest.raises(ValueError, match=re.escape(message)):
            explain(decimals)
    with pytest.raises(ValueError, match=re.escape(message)):
        explain_ndcg([1], decimals=decimals)
    with pytest.raises(ValueError, match=re.escape(message)):
        explain_rr([1], decimals=decimals)
    check_decimals(0)
