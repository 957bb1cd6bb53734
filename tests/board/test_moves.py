"""Single drags: every move tried, against a brute-force reference."""

from __future__ import annotations

import pytest

from mapteach import average_precision
from mapteach.board.moves import best_single_moves, single_moves


def test_every_move_is_tried_and_scored():
    labels = [0, 1, 0, 1, 1]
    table = single_moves(labels, n_relevant=4)
    assert len(table) == 5 * 4
    for row in table.itertuples():
        moved = list(labels)
        moved.insert(row.to_rank - 1, moved.pop(row.from_rank - 1))
        assert row.ap == average_precision(moved, n_relevant=4)
    assert table["gain"].is_monotonic_decreasing


def test_the_best_drag_of_article_003_query_c_brings_its_last_hit_to_the_top():
    c = [0, 0, 0, 1, 0, 1, 0, 1]
    table = best_single_moves([c, [1]], names=["C", "one"], n_relevant=[3, None])
    assert table.loc["C", "best_ap"] == single_moves(c, n_relevant=3)["ap"].max()
    assert (table.loc["C", "from_rank"], table.loc["C", "to_rank"]) == (8, 1)
    assert table.loc["C", "map_gain"] == pytest.approx(
        (table.loc["C", "best_ap"] - table.loc["C", "ap"]) / 2
    )
    assert table.loc["one", "map_gain"] == 0.0 and table.loc["one", "best_ap"] == 1.0


def test_mismatched_lengths_name_the_counts():
    with pytest.raises(ValueError, match="got 2, 1 and 2"):
        best_single_moves([[1], [0]], names=["a"], n_relevant=[1, 1])
