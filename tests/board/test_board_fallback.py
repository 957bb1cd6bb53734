"""What a board writes for a page without a kernel: its state as JSON, with the origin and
presets its stand-in needs, and a still picture; the same every time it is shown."""

from __future__ import annotations

import json
import re

from mapteach import average_precision, get_example
from mapteach.board import MultiQueryBoard, RankingBoard, RankingList, live_readout
from mapteach.board.board_fallback import (
    map_board_fallback,
    preset_states,
    ranking_fallback,
    readout_fallback,
)
from mapteach.board.list_widget import PRESETS
from mapteach.i18n import tr

#: The traits Reset restores.
RESTORED = ("items", "n_unretrieved", "k", "interpolated", "query_name", "preset")


def state_of(html: str) -> dict:
    payload = re.search(r"data-mapteach-state>(.*?)</script>", html).group(1)
    return json.loads(payload.replace("<\\/", "</"))


def static_part(html: str) -> str:
    return html.partition('<div class="mapteach-offline-static">')[2]


def test_a_boards_state_holds_every_trait_and_what_reset_restores():
    board = RankingBoard(example="003_a")
    ranking = board.ranking
    ranking.interpolated = True
    ranking.preset = "003_b"  # the origin is now query B
    ranking.move("d3", 1)
    ranking.k = 2
    state = state_of(ranking_fallback(ranking))
    assert state["module"] == "ranking_list" and state["children"] == {}
    model = state["model"]
    assert model["items"] == ranking.items and model["view"] == "board"
    assert model["heading"].endswith("(edited)")
    ranking.reset()
    assert {name: model["origin"][name] for name in RESTORED} == {
        name: getattr(ranking, name) for name in RESTORED
    }


def test_every_preset_is_in_the_state_as_loading_it_shows_it():
    ranking = RankingList([1], lang="zh")
    states = state_of(ranking_fallback(ranking))["model"]["preset_states"]
    assert sorted(states) == sorted(name for name, _ in PRESETS)
    for name, state in states.items():
        example = get_example(name)
        assert [item["relevant"] for item in state["items"]] == [bool(v) for v in example.labels]
        assert state["n_unretrieved"] == example.n_relevant - sum(example.labels)
        ranking.load(name)
        assert (state["items"], state["query_name"]) == (ranking.items, ranking.query_name)
    assert (
        "preset_states" not in state_of(ranking_fallback(RankingList([1], compact=True)))["model"]
    )
    assert preset_states("en")["003_a"]["query_name"] != preset_states("zh")["003_a"]["query_name"]


def test_the_fallback_is_the_same_every_time_and_names_nothing_at_random():
    board = RankingBoard(example="003_b")
    html = ranking_fallback(board.ranking)
    assert ranking_fallback(board.ranking) == html
    other = RankingBoard(example="003_b")  # made alike: only its page id differs
    page_id = re.compile(r'"id": "w\d+"')
    assert page_id.sub("ID", ranking_fallback(other.ranking)) == page_id.sub("ID", html)


def test_the_static_parts():
    board = static_part(ranking_fallback(RankingBoard(example="003_b", lang="zh").ranking))
    assert board.count("data:image/png;base64,") == 1 and 'data-testid="trace-table"' in board
    assert tr("the board's initial state", lang="zh") in board
    listed = static_part(ranking_fallback(RankingList([1, 0, 1], query_name="</script> q")))
    assert "<ol><li>✔ doc 1</li><li>✘ doc 2</li><li>✔ doc 3</li></ol>" in listed
    assert "&lt;/script&gt; q" in listed and "data:image" not in listed
    assert f"R = 2 · AP = {average_precision([1, 0, 1]):.4f}" in listed


def test_a_map_board_and_a_printout_carry_their_lists():
    board = MultiQueryBoard("003_abc")
    state = state_of(map_board_fallback(board))
    assert state["module"] == "map_board"
    assert state["model"]["rankings"] == ["IPY_MODEL_c0", "IPY_MODEL_c1", "IPY_MODEL_c2"]
    children = [state["children"][f"c{i}"] for i in range(3)]
    assert [child["module"] for child in children] == ["ranking_list"] * 3
    # the printout's lists are the board's: the same page ids, so one model on the page
    readout_state = state_of(readout_fallback(live_readout(board)))
    assert [child["id"] for child in children] == [
        readout_state["children"][f"c{i}"]["id"] for i in range(3)
    ]
    assert "MAP = 0.5602" in static_part(map_board_fallback(board))
    readout = live_readout(board)
    html = readout_fallback(readout)
    assert state_of(html)["model"]["kind"] == "map"
    assert static_part(html) == readout.html + "</div></div>"


def test_a_chinese_map_board_lists_each_query_in_chinese_punctuation():
    board = MultiQueryBoard("003_abc", lang="zh")
    listed = re.findall(r"<li>(.*?)</li>", static_part(map_board_fallback(board)))
    assert len(listed) == len(board.rankings)
    for line, ranking in zip(listed, board.rankings, strict=True):
        expected = f"{ranking.labels}，R = {ranking.n_relevant}，AP = {ranking.ap:.4f}"
        assert line.endswith(expected), line
        assert " — " not in line and ", R" not in line, line
