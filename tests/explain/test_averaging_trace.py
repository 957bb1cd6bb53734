"""The macro/micro table: each row against counts and means worked out here, shown in Chinese."""

from __future__ import annotations

import pytest

from mapteach.explain import AveragingTable, trace_averaging

EASY = [1, 1, 1, 1, 0, 1, 1, 1, 0, 1]
HARD = [0, 0, 0, 0, 1]


def test_each_query_row_then_the_mean_of_the_rows_then_the_pooled_counts():
    table = trace_averaging(
        {"easy": EASY, "hard": HARD, "missed": [0, 1]}, 5, n_relevant={"missed": 3}
    )
    assert isinstance(table, AveragingTable)
    assert list(table.index) == ["easy", "hard", "missed", "macro", "micro"]
    assert list(table.columns) == ["hits", "counted", "R", "P@5", "R@5"]
    assert table.loc["easy", ["hits", "counted", "R"]].tolist() == [4, 5, 8]
    assert table.loc["missed", ["hits", "counted", "R"]].tolist() == [1, 5, 3]
    recalls, precisions = [4 / 8, 1 / 1, 1 / 3], [4 / 5, 1 / 5, 1 / 5]
    assert table["R@5"].iloc[:3].tolist() == pytest.approx(recalls)
    assert table.loc["macro", "R@5"] == pytest.approx(sum(recalls) / 3)
    assert table.loc["macro", "P@5"] == pytest.approx(sum(precisions) / 3)
    assert table.loc["macro", ["hits", "counted", "R"]].tolist() == ["", "", ""]
    assert table.loc["micro", ["hits", "counted", "R"]].tolist() == [6, 15, 12]
    assert table.loc["micro", "R@5"] == pytest.approx(6 / 12)
    assert table.loc["micro", "P@5"] == pytest.approx(6 / 15)


def test_the_chinese_display_translates_headers_and_the_average_rows():
    shown = trace_averaging({"a": [1, 0], "b": [0, 1]}, 2).display(lang="zh")
    assert "命中数" in shown.columns and "相关文档数 R" in shown.columns
    assert not any("macro" in label or "micro" in label for label in shown.index)
    assert shown.index.name is None  # no header row stands empty


@pytest.mark.parametrize(
    ("rankings", "n_relevant", "match"),
    [
        ({}, None, "at least one query"),
        ({"macro": [1]}, None, "may not be named"),
        ({"a": [1]}, {"b": 2}, "unknown queries"),
        ({"a": [1, 2]}, None, r"trace_averaging: rankings\[0\]"),
    ],
)
def test_bad_input_is_named(rankings, n_relevant, match):
    with pytest.raises(ValueError, match=match):
        trace_averaging(rankings, 2, n_relevant=n_relevant)
