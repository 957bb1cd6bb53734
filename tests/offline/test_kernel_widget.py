"""The boards' widgets take from a page only the traits their views change: whatever else a
page sends (a forged AP, heading, fixed relevance, MAP, ...) is dropped, and the kernel's
value is sent back to the page."""

from __future__ import annotations

from typing import Any

import pytest

from mapteach import average_precision, mean_average_precision
from mapteach.board import LiveReadout, MultiQueryBoard, RankingBoard, RankingList, live_readout
from mapteach.offline.kernel_widget import KernelOwnedWidget


def sent_back(widget: KernelOwnedWidget, sync_data: dict[str, Any]) -> dict[str, Any]:
    """``widget.set_state(sync_data)``, as a page's update does; every trait the kernel then
    sends the page (its updates, not the echo of what the page sent), as last sent."""
    sent: dict[str, Any] = {}

    def send(msg: dict[str, Any], buffers: Any = None) -> None:
        if msg["method"] == "update":
            sent.update(msg["state"])

    widget._send = send  # type: ignore[method-assign]
    widget.set_state(sync_data)
    return sent


def test_a_ranking_list_takes_its_views_changes_and_nothing_else():
    ranking = RankingList([0, 1, 1], fixed_relevance=True, query_name="q")
    forged = {
        "ap": 0.99,
        "ap_label": "AP@9",
        "heading": "forged",
        "fixed_relevance": False,
        "presets": [],
        "texts": {},
        "query_name": "forged",
        "view": "board",
        "origin": {},
    }
    items = [ranking.items[2], ranking.items[0], ranking.items[1]]
    sent = sent_back(ranking, {**forged, "items": items, "k": 2, "interpolated": True})
    assert ranking.labels == [1, 0, 1] and ranking.k == 2 and ranking.interpolated
    assert ranking.ap == average_precision([1, 0, 1], k=2) == 0.5
    assert (ranking.ap_label, ranking.heading, ranking.query_name) == ("AP@2", "q", "q")
    assert ranking.fixed_relevance and ranking.view == "list" and ranking.texts["reset"]
    with pytest.raises(ValueError, match="relevance is fixed"):
        ranking.toggle("d1")
    # every synced trait forged is sent back as the kernel holds it ("origin" is not synced)
    synced = [name for name in forged if name != "origin"]
    assert {name: sent[name] for name in synced} == ranking.get_state(synced)


def test_a_ranking_lists_preset_and_reset_still_come_from_the_page():
    ranking = RankingList.from_example("003_b")
    ranking.set_state({"preset": "003_a"})
    assert ranking.labels == [1, 0, 1, 1, 0, 0, 0, 0]
    ranking.move("d1", 8)
    ranking.set_state({"reset_request": 1, "n_unretrieved": 4})
    assert ranking.labels == [1, 0, 1, 1, 0, 0, 0, 0] and ranking.n_unretrieved == 0


def test_a_multi_query_board_takes_nothing_from_the_page():
    board = MultiQueryBoard("003_abc")
    before = board.map_value
    sent = sent_back(board, {"map_value": 1.0, "bar_labels": ["x"], "texts": {}})
    assert (
        board.map_value
        == before
        == mean_average_precision(
            [r.labels for r in board.rankings], n_relevant=[r.n_relevant for r in board.rankings]
        )
    )
    assert board.bar_labels == ["Query A", "Query B", "Query C"] and board.texts["ap_title"]
    assert sent == board.get_state(["map_value", "bar_labels", "texts"])


def test_a_live_readout_takes_nothing_from_the_page():
    readout = live_readout(RankingBoard(example="003_a"))
    assert isinstance(readout, LiveReadout)
    text = readout.text
    sent = sent_back(readout, {"kind": "map", "texts": {}, "rankings": []})
    assert readout.kind == "board" and readout.text == text and len(readout.rankings) == 1
    assert sent == readout.get_state(["kind", "texts", "rankings"])


def test_a_change_the_view_may_make_is_not_sent_back():
    ranking = RankingList([1, 0])
    sent = sent_back(ranking, {"k": 1, "not_a_trait": 3})
    assert ranking.k == 1 and sent == {"ap_label": "AP@1"}  # the kernel's reply; AP stays 1


def test_an_exercise_takes_its_views_changes_and_nothing_else():
    from mapteach.exercises import NumberExercise

    exercise = NumberExercise("1/2 + 1/4?", 0.75, [], "3/4")
    sent = sent_back(exercise, {"status": "correct", "feedback": "forged", "solution": ""})
    assert (exercise.status, exercise.feedback) == ("empty", "")
    assert exercise.solution == "3/4"
    assert {"status", "feedback", "solution"} <= set(sent)
    exercise.set_state({"answer": "0.5", "check_request": 1})
    assert (exercise.answer, exercise.status) == ("0.5", "incorrect")
