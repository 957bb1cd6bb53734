"""A comparison's per-query table: keyed for code, shown with translated headers."""

from __future__ import annotations

import numpy as np
import pandas as pd

from mapteach.analysis import DeltaTable, compare_scores
from mapteach.i18n import language
from tests.analysis.display_checks import english_headers, same_values

QUERIES = pd.Index(["q1", "q2", "q3", "q4"], name="query_id")
A = pd.Series([0.2, 0.4, 0.5, 0.3], index=QUERIES)
B = pd.Series([0.3, 0.6, 0.4, 0.3], index=QUERIES)


def test_per_query_improved_and_declined_are_delta_tables_of_b_minus_a():
    comparison = compare_scores(A, B)
    for table in (comparison.per_query, comparison.improved(2), comparison.declined(2)):
        assert isinstance(table, DeltaTable)
        np.testing.assert_allclose(table["delta"], (B - A)[table.index])
    assert comparison.improved(2).index.tolist() == ["q2", "q1"]
    assert comparison.declined(2).index.tolist() == ["q3"]


def test_a_chinese_page_shows_the_delta_and_query_headers_in_chinese():
    rows = compare_scores(A, B).improved(2).round(4)
    shown = rows.display(lang="zh")
    assert english_headers(shown) == []
    assert shown.columns.tolist() == ["A", "B", "差值（B − A）"] and shown.index.name == "查询"
    same_values(shown, rows)
    with language("zh"):
        printed = rows.to_string()
    assert "delta" not in printed and "query_id" not in printed and "差值（B − A）" in printed


def test_an_english_page_prints_the_keys_as_it_always_has():
    rows = compare_scores(A, B).improved(2).round(4)
    printed = rows.to_string().splitlines()
    assert printed[0].split() == ["A", "B", "delta"] and printed[1].strip() == "query_id"
