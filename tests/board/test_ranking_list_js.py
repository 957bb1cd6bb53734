"""The ranking list's browser view (ranking_list.js, board_view.js, board_plots.js) in
Chromium, with a model standing in for the kernel's.

In the board view every change of the model repaints the trace table and both plots at
once, once, before the browser paints the frame; each draws exactly what Python draws
for the same list: the trace table is mapteach.explain.trace_html's (compared after the
browser has parsed both), the P@k bars and the curves are the still picture's
(BoardFigure) data, and the text alternatives say R, AP and every point.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from mapteach import average_precision
from mapteach.board import BoardFigure, RankingBoard, RankingList
from mapteach.explain import explain_table, trace_ap, trace_html
from mapteach.i18n import language, tr
from tests.board.js_page import synced_state

pytestmark = pytest.mark.browser

#: Set one state on the board's model (as the kernel would, all at once), let the
#: repaint's microtask run, and read back everything drawn.
SHOW_STATES = """async (states) => {
  const read = (id) => document.querySelector(`[data-testid=${id}]`);
  const normal = document.createElement("template");
  const seen = [];
  for (const state of states) {
    const drawn = Number(read("pr-curve").dataset.drawn);
    for (const [name, value] of Object.entries(state)) window.board.set(name, value);
    await null;
    seen.push({
      drawn: [Number(read("pr-curve").dataset.drawn) - drawn,
              Number(read("pk-bars").dataset.drawn) - drawn],
      curve: JSON.parse(read("pr-curve").dataset.points),
      bars: JSON.parse(read("pk-bars").dataset.points),
      curveText: read("pr-curve-text").textContent,
      barsText: read("pk-bars-text").textContent,
      ap: Number(read("ap-value").dataset.value),
      apRepr: read("ap-value").dataset.value,
      apText: read("ap-value").textContent,
      trace: document.querySelector(".mt-trace").innerHTML,
      steps: [...document.querySelectorAll("[data-role=interpolated]")].length,
      cutoffLines: [...document.querySelectorAll("[data-role=cutoff]")].length,
    });
  }
  return seen;
}"""


def show_board(page, ranking: RankingList) -> None:
    page.evaluate(
        "(s) => { window.board = fakeModel('ranking_list', s); showModel(window.board); }",
        synced_state(ranking),
    )


def parsed(page, html: str) -> str:
    """``html`` as the browser serialises it once parsed (so both sides compare alike)."""
    return page.evaluate(
        "(h) => { const t = document.createElement('template');"
        " t.innerHTML = h; return t.innerHTML; }",
        html,
    )


def random_states(n: int, seed: int = 3) -> list[dict]:
    rng = np.random.default_rng(seed)
    states = []
    for _ in range(n):
        size = int(rng.integers(0, 25))
        labels = (rng.random(size) < rng.random()).tolist()
        items = [
            {"doc": f"d{i}", "title": f"doc {i}", "relevant": bool(v)}
            for i, v in enumerate(labels, 1)
        ]
        states.append(
            {
                "items": items,
                "n_unretrieved": int(rng.integers(0, 4)),
                "k": int(rng.integers(0, size + 3)) if rng.random() < 0.6 else 0,
                "interpolated": bool(rng.random() < 0.5),
            }
        )
    return states


def expected_drawing(state: dict) -> dict:
    """What the still picture (BoardFigure) draws for ``state``, and its R and AP."""
    labels = [int(item["relevant"]) for item in state["items"]]
    r = sum(labels) + state["n_unretrieved"]
    k = state["k"] or None
    figure = BoardFigure()
    figure.update(labels, n_relevant=r, k=k, interpolated=state["interpolated"])
    curve = np.column_stack(figure.sawtooth.get_data()).tolist()
    steps = np.column_stack(figure.interpolated.get_data()).tolist()
    bars = [float(path.vertices[1, 1]) for path in figure.bars.get_paths()]
    return {"labels": labels, "r": r, "k": k, "curve": curve, "steps": steps, "bars": bars}


def test_the_board_view_draws_what_python_draws(page):
    show_board(page, RankingBoard([1, 0, 1]).ranking)
    states = random_states(40)
    seen = page.evaluate(SHOW_STATES, states)
    for state, drawn in zip(states, seen, strict=True):
        want = expected_drawing(state)
        labels, r, k = want["labels"], want["r"], want["k"]
        assert drawn["drawn"] == [1, 1], state  # one repaint for the four traits set
        assert drawn["curve"] == want["curve"], state
        assert drawn["bars"] == want["bars"], state
        assert drawn["steps"] == int(state["interpolated"])
        assert drawn["cutoffLines"] == int(k is not None and k <= len(labels))
        ap = average_precision(labels, n_relevant=r, k=k)
        assert drawn["ap"] == ap and drawn["apRepr"] == repr(ap)
        name = "AP" if k is None else f"AP@{k}"
        assert drawn["apText"] == f"{name} = {ap:.4f}"
        table = trace_ap(labels, n_relevant=r, k=k)
        assert drawn["trace"] == parsed(page, trace_html(table, caption=str(explain_table(table))))
        assert f"R = {r}, {name} = {drawn['ap']:.4f}" in drawn["curveText"]
        points = [f"({x:.4f}, {y:.4f})" for x, y in want["curve"]]
        assert ", ".join(points) in drawn["curveText"]
        assert f"R = {r}: " in drawn["barsText"]
        bars = [f"P@{rank} = {p:.4f}" for rank, p in enumerate(want["bars"], 1)]
        assert re.findall(r"P@\d+ = \d\.\d{4}", drawn["barsText"]) == bars


PRESS = """([doc, key]) => {
  const item = document.querySelector(`[data-doc="${doc}"]`);
  const drawn = () => Number(document.querySelector("[data-testid=pr-curve]").dataset.drawn);
  const before = drawn();
  item.dispatchEvent(new KeyboardEvent("keydown", { key, altKey: true, bubbles: true }));
  const readout = Number(document.querySelector("[data-testid=ap-value]").dataset.value);
  return Promise.resolve().then(() => ({
    readout, repaints: drawn() - before, saved: window.board.saved.length,
    announced: document.querySelector("[data-testid=announcer]").textContent,
    order: [...document.querySelectorAll("[data-testid=rank-item]")].map((li) => li.dataset.doc),
  }));
}"""


def test_a_key_move_updates_the_readout_at_once_and_repaints_before_the_frame(page):
    ranking = RankingBoard(example="003_a").ranking
    relevant = {item["doc"]: int(item["relevant"]) for item in ranking.items}
    show_board(page, ranking)
    seen = page.evaluate(PRESS, ["d5", "ArrowUp"])
    assert seen["order"][:5] == ["d1", "d2", "d3", "d5", "d4"]
    # the readout changed before any task or frame: in the same call as the key press
    labels = [relevant[doc] for doc in seen["order"]]
    assert seen["readout"] == average_precision(labels) != ranking.ap
    assert seen["repaints"] == 1 and seen["saved"] == 1
    assert seen["announced"] == "Moved doc 5 to rank 4 of 8."


def test_the_list_view_draws_no_plot(page):
    page.evaluate(
        "(s) => showModel(fakeModel('ranking_list', s))", synced_state(RankingList([1, 0, 1]))
    )
    assert page.locator("[data-testid=rank-item]").count() == 3
    assert page.locator("[data-testid=pr-curve], [data-testid=trace-table]").count() == 0


def test_the_chinese_board_draws_in_chinese(page):
    board = RankingBoard(example="003_b", lang="zh")
    board.ranking.k = 3
    show_board(page, board.ranking)
    titles = page.locator(".mt-plot-title").all_text_contents()
    with language("zh"):
        assert titles == [tr("P@k at every rank (green: relevant)"), tr("Precision-recall curve")]
        svg_texts = page.locator("[data-testid=pr-curve] text").all_text_contents()
        assert tr("recall") in svg_texts and tr("precision") in svg_texts
        assert tr("rank k") in page.locator("[data-testid=pk-bars] text").all_text_contents()
        legend = page.locator(".mt-legend").all_text_contents()
        assert tr("cutoff k") in legend[0] and tr("shaded area = AP") in legend[1]
        alternative = page.locator("[data-testid=pr-curve-text]").text_content()
        assert (
            alternative.startswith(tr("Precision-recall curve")) and "AP@3 = 0.5556" in alternative
        )
        caption = page.locator("[data-testid=trace-table] caption").text_content()
        assert caption == str(explain_table(trace_ap([1, 0, 1, 0, 0, 0, 0, 0], n_relevant=3, k=3)))


def test_every_text_is_legible_from_the_back_of_the_room(page):
    show_board(page, RankingBoard(example="003_a").ranking)
    sizes = page.evaluate(
        "() => [...document.querySelectorAll('.mt-plot text, .mt-plot li, .mt-plot-title')]"
        ".map((node) => parseFloat(getComputedStyle(node).fontSize))"
    )
    assert sizes and min(sizes) >= 14
    labelled = page.evaluate(
        "() => [...document.querySelectorAll('svg[role=img]')].map((svg) => "
        "document.getElementById(svg.getAttribute('aria-labelledby'))?.dataset.testid)"
    )
    assert labelled == ["pk-bars-text", "pr-curve-text"]


def test_an_exact_half_is_rounded_as_python_rounds_it(page):
    """(1/1 + 2/8) / 8 = 0.15625 exactly: Python writes 0.1562 (half to even), toFixed 0.1563."""
    ranking = RankingList([1, 0, 0, 0, 0, 0, 0, 1], n_relevant=8)
    show_board(page, ranking)
    readout = page.locator("[data-testid=ap-value]")
    assert ranking.ap == 0.15625
    assert readout.text_content() == f"AP = {ranking.ap:.4f}" == "AP = 0.1562"
    assert readout.get_attribute("data-value") == repr(ranking.ap)


#: Two quick moves (each saved), then the kernel's replies, in order: the first lands late.
LATE_REPLY = """([first, second, replies]) => {
  window.board.set("items", first);
  window.board.save_changes();
  window.board.set("items", second);
  window.board.save_changes();
  const readout = document.querySelector("[data-testid=ap-value]");
  const seen = [readout.textContent];
  for (const reply of replies) {
    for (const [name, value] of Object.entries(reply)) window.board.set(name, value);
    seen.push(readout.textContent, readout.dataset.value);
  }
  return seen;
}"""


def test_a_late_ap_from_the_kernel_never_changes_the_screen(page):
    ranking = RankingBoard(example="003_a").ranking
    show_board(page, ranking)
    ranking.move("d4", 1)
    first = {"items": ranking.items, "ap": ranking.ap, "ap_label": ranking.ap_label}
    ranking.move("d8", 1)
    second = {"items": ranking.items, "ap": ranking.ap, "ap_label": ranking.ap_label}
    assert first["ap"] != second["ap"]
    shown = f"AP = {second['ap']:.4f}"
    replies = [{"ap": first["ap"]}, {"ap": second["ap"]}, {"ap": first["ap"]}]
    seen = page.evaluate(LATE_REPLY, [first["items"], second["items"], replies])
    assert seen == [shown, *[shown, repr(second["ap"])] * 3]
