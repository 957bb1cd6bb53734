"""The multi-query board's browser view (map_board.js) in Chromium, with models standing in
for the kernel's: it shows every query's list, and after a change of any list, in the
same call, MAP and the AP bars as Python computes them (mapteach.metrics)."""

from __future__ import annotations

import pytest

from mapteach import average_precision, mean_average_precision
from mapteach.board import MultiQueryBoard
from mapteach.i18n import tr
from tests.board.js_page import synced_state

pytestmark = pytest.mark.browser

SHOW = """async ([lists, board]) => {
  lists.forEach((state, i) => fakeModel("ranking_list", state, `q${i}`));
  window.mapBoard = fakeModel("map_board", board);
  showModel(window.mapBoard);
  await new Promise((done) => setTimeout(done, 0));
}"""

#: Give list ``index`` new items (as its view does on a drop) and read MAP and the bars.
CHANGE = """([index, items]) => {
  const bars = document.querySelector("[data-testid=ap-bars]");
  const before = Number(bars.dataset.drawn);
  window.fakeModels[`q${index}`].set("items", items);
  const readout = document.querySelector("[data-testid=map-value]");
  return {
    map: Number(readout.dataset.value), shown: readout.textContent,
    points: JSON.parse(bars.dataset.points), repaints: Number(bars.dataset.drawn) - before,
    text: document.querySelector("[data-testid=ap-bars-text]").textContent,
  };
}"""


def show(page, board: MultiQueryBoard) -> None:
    state = synced_state(board)
    state["rankings"] = [f"IPY_MODEL_q{i}" for i in range(len(board.rankings))]
    page.evaluate(SHOW, [[synced_state(r) for r in board.rankings], state])


def test_map_and_the_ap_bars_follow_every_list(page):
    board = MultiQueryBoard("003_abc")
    show(page, board)
    assert page.locator("[data-testid=ranking-board]").count() == 3
    assert page.locator("[data-testid=map-value]").get_attribute("data-value") == repr(
        board.map_value
    )
    rankings = [r.labels for r in board.rankings]
    totals = [r.n_relevant for r in board.rankings]
    for index, doc, rank in ((2, "d8", 1), (0, "d1", 8), (1, "d3", 1), (2, "d6", 2)):
        board.rankings[index].move(doc, rank)  # the kernel's list, for the items to send
        rankings[index] = board.rankings[index].labels
        seen = page.evaluate(CHANGE, [index, board.rankings[index].items])
        aps = [average_precision(y, n_relevant=r) for y, r in zip(rankings, totals, strict=True)]
        expected = mean_average_precision(rankings, n_relevant=totals)
        assert seen["map"] == expected == board.map_value
        assert seen["shown"] == f"MAP = {expected:.4f}"
        assert seen["points"] == aps and seen["repaints"] == 1
        assert seen["text"] == tr(
            "Bar chart of AP per query: {bars}; the line is MAP = {map}.",
            bars=", ".join(
                tr("{name}: AP = {value}", name=name, value=f"{ap:.4f}")
                for name, ap in zip(board.bar_labels, aps, strict=True)
            ),
            map=f"{expected:.4f}",
        )


def test_a_late_map_from_the_kernel_never_changes_the_screen(page):
    """Two quick moves, then the kernel's reply to the first: the MAP of lists gone."""
    board = MultiQueryBoard("000_two_queries", lang="zh")
    show(page, board)
    board.rankings[0].move("d2", 1)
    stale = board.map_value
    first = board.rankings[0].items
    board.rankings[1].move("d4", 1)
    page.evaluate(CHANGE, [0, first])
    seen = page.evaluate(CHANGE, [1, board.rankings[1].items])
    assert seen["map"] == board.map_value != stale
    page.evaluate("(stale) => window.mapBoard.set('map_value', stale)", stale)
    readout = page.locator("[data-testid=map-value]")
    assert readout.get_attribute("data-value") == repr(board.map_value)
    assert readout.text_content() == f"MAP = {board.map_value:.4f}"
    ticks = page.locator("[data-testid=ap-bars] text").all_text_contents()
    assert all(label in ticks for label in board.bar_labels)
    assert tr("query", lang="zh") in ticks


def test_removing_the_view_lets_go_of_the_lists(page):
    show(page, MultiQueryBoard("003_abc"))
    count = "() => [0, 1, 2].map((i) => window.fakeModels[`q${i}`].handlerCount())"
    watching = page.evaluate(count)
    page.evaluate("() => window.mapBoard.cleanup()")
    page.wait_for_timeout(50)
    assert page.evaluate(count) == [0, 0, 0] != watching
