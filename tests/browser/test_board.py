"""The ranking board used the way a learner uses it: real drags, keys and clicks.

After every action the test reads the list on screen, computes AP with
mapteach.average_precision and the curve with mapteach.metrics.curves.curve_arrays,
and waits until the readout's data-value, the trace table's caption and the two
plots' data-points (drawn by the board itself, in the browser) equal them exactly.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from mapteach import average_precision, get_example, mean_average_precision, tr
from mapteach.metrics.curves import curve_arrays
from tests.browser.harness import open_notebook

pytestmark = pytest.mark.browser

#: The playground's first board: the single-query one (its title changes with presets).
SINGLE = "[data-testid=ranking-board] >> nth=0"

READ_BOARD = """(root) => {
  const items = [...root.querySelectorAll('[data-testid=rank-item]')];
  const number = (id) => Number(root.querySelector(`[data-testid=${id}]`)?.value ?? 0);
  return {
    docs: items.map((li) => li.dataset.doc),
    ranks: items.map((li) => Number(li.dataset.rank)),
    labels: items.map((li) => (li.dataset.relevant === 'true' ? 1 : 0)),
    unretrieved: number('unretrieved-input'),
    cutoff: number('cutoff-input'),
    focused: document.activeElement?.dataset?.doc ?? null,
  };
}"""


def read(board) -> dict:
    state = board.evaluate(READ_BOARD)
    assert state["ranks"] == list(range(1, len(state["docs"]) + 1))
    return state


def expected_ap(state: dict) -> float:
    return average_precision(
        state["labels"],
        n_relevant=sum(state["labels"]) + state["unretrieved"],
        k=state["cutoff"] or None,
    )


def wait_for_value(page, locator, expected: float) -> None:
    """Wait until the readout's full-precision data-value equals ``expected`` exactly."""
    page.wait_for_function(
        "([el, v]) => Number(el.dataset.value) === v",
        arg=[locator.element_handle(), expected],
        timeout=15_000,
    )


def expected_plots(state: dict) -> dict[str, list]:
    """What the plots must draw for ``state``: the PR curve's points from recall 0 (up to
    the cutoff) and P@k at every rank, computed here with mapteach's curve arrays."""
    y = np.array(state["labels"], dtype=bool)
    recall, precision = curve_arrays(y, int(y.sum()) + state["unretrieved"])
    shown = y.size if not state["cutoff"] else min(state["cutoff"], y.size)
    start = float(precision[0]) if shown else 0.0
    points = [[float(r), float(p)] for r, p in zip(recall[:shown], precision[:shown], strict=True)]
    return {"pr-curve": [[0.0, start], *points], "pk-bars": precision.tolist()}


def drawn(board, testid: str) -> int:
    """How many times the plot ``testid`` has been painted."""
    return int(board.locator(f"[data-testid={testid}]").get_attribute("data-drawn") or 0)


def wait_for_plots(page, board, state: dict) -> None:
    """Wait until both plots show what Python computes for ``state``, exactly."""
    for testid, points in expected_plots(state).items():
        page.wait_for_function(
            "([svg, points]) => svg.dataset.points === JSON.stringify(points)",
            arg=[board.locator(f"[data-testid={testid}]").element_handle(), points],
            timeout=15_000,
        )
        got = board.locator(f"[data-testid={testid}]").get_attribute("data-points") or ""
        assert json.loads(got) == points  # the same doubles, not only the same text


def assert_readout_matches(page, board) -> dict:
    """The readout, the trace table and both plots show the list on screen."""
    state = read(board)
    expected = expected_ap(state)
    wait_for_value(page, board.locator("[data-testid=ap-value]"), expected)
    page.wait_for_function(
        "([root, v]) => root.querySelector('[data-testid=trace-table] caption')"
        "?.textContent.endsWith(v)",
        arg=[board.element_handle(), f"= {expected:.4f}"],
        timeout=15_000,
    )
    if board.locator("[data-testid=pr-curve]").count():
        wait_for_plots(page, board, state)
        name = f"AP@{state['cutoff']}" if state["cutoff"] else "AP"
        r = sum(state["labels"]) + state["unretrieved"]
        text = board.locator("[data-testid=pr-curve-text]").text_content() or ""
        assert f"R = {r}" in text and f"{name} = {expected:.4f}" in text
    return state


def wait_for_repaint(page, board, before: int) -> None:
    """Wait until both plots have been painted since they had been ``before`` times."""
    page.wait_for_function(
        "([root, n]) => ['pr-curve', 'pk-bars'].every((id) => "
        "Number(root.querySelector(`[data-testid=${id}]`).dataset.drawn) > n)",
        arg=[board.element_handle(), before],
        timeout=15_000,
    )


def wait_for_order(page, board, docs: list[str]) -> None:
    """Wait until the list on screen holds ``docs``, in that order."""
    page.wait_for_function(
        "([root, docs]) => [...root.querySelectorAll('[data-testid=rank-item]')]"
        ".map((li) => li.dataset.doc).join() === docs",
        arg=[board.element_handle(), ",".join(docs)],
        timeout=15_000,
    )


def overlap(a: dict, b: dict) -> bool:
    """Whether two bounding boxes intersect."""
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def test_playground_in_jupyterlab(browser, lab_url):
    page = open_notebook(browser, lab_url, "06_playground.ipynb")
    board = page.locator(SINGLE)
    items = board.locator("[data-testid=rank-item]")
    items.first.wait_for(timeout=90_000)

    state = assert_readout_matches(page, board)
    assert state["docs"] == [f"d{i}" for i in range(1, 9)]
    assert state["labels"] == [1, 0, 1, 1, 0, 0, 0, 0]  # article 003, query A

    # a real mouse drag: the relevant result at rank 4 onto the top of rank 1
    paints = drawn(board, "pr-curve")
    bars_text = board.locator("[data-testid=pk-bars-text]").text_content()
    items.nth(3).drag_to(items.nth(0), target_position={"x": 30, "y": 3})
    state = assert_readout_matches(page, board)
    assert state["docs"][:4] == ["d4", "d1", "d2", "d3"]
    assert state["labels"] == [1, 1, 0, 1, 0, 0, 0, 0]
    wait_for_repaint(page, board, paints)
    assert board.locator("[data-testid=pk-bars-text]").text_content() != bars_text
    assert "P@2 = 1.0000 (relevant)" in (board.locator("[data-testid=pk-bars-text]").text_content())

    # a keyboard move: focus d3 (now rank 4), Alt+ArrowUp; focus follows the item
    paints = drawn(board, "pr-curve")
    board.locator('[data-doc="d3"]').focus()
    page.keyboard.press("Alt+ArrowUp")
    state = assert_readout_matches(page, board)
    assert state["docs"][:4] == ["d4", "d1", "d3", "d2"]
    assert state["focused"] == "d3"
    assert board.locator("[data-testid=announcer]").inner_text().startswith("Moved doc 3 to rank 3")
    wait_for_repaint(page, board, paints)

    # a click toggles relevance, and Space toggles it back
    board.locator('[data-doc="d2"]').click()
    state = assert_readout_matches(page, board)
    assert state["labels"][3] == 1
    page.keyboard.press("Space")
    state = assert_readout_matches(page, board)
    assert state["labels"][3] == 0

    # the denominator control: two relevant results the system never retrieved
    board.locator("[data-testid=unretrieved-input]").fill("2")
    board.locator("[data-testid=unretrieved-input]").press("Tab")
    state = assert_readout_matches(page, board)
    assert state["unretrieved"] == 2

    # the cutoff control: AP@3, and its line on the P@k bars
    paints = drawn(board, "pr-curve")
    board.locator("[data-testid=cutoff-input]").fill("3")
    board.locator("[data-testid=cutoff-input]").press("Tab")
    state = assert_readout_matches(page, board)
    assert board.locator("[data-testid=ap-value]").inner_text().startswith("AP@3 = ")
    wait_for_repaint(page, board, paints)
    assert board.locator("[data-testid=pk-bars] [data-role=cutoff]").count() == 1

    # a preset: article 001's late-relevant list, whose AP the article misprinted as 0.48
    board.locator("[data-testid=preset-select]").select_option("001_legal_late")
    page.wait_for_function(
        "(root) => root.querySelectorAll('[data-testid=rank-item]').length === 10",
        arg=board.element_handle(),
    )
    state = assert_readout_matches(page, board)
    assert state["labels"] == [0] * 6 + [1] * 4
    assert board.locator("[data-testid=ap-value]").inner_text() == "AP = 0.2815"

    # multi-query mode, each list under its query's title: pull query C's last relevant
    # result to the top; MAP follows
    query_c = page.locator('[data-testid=ranking-board][data-query^="Query C"]')
    assert query_c.locator(".mt-query").text_content() == get_example("003_c").title
    c_items = query_c.locator("[data-testid=rank-item]")
    c_items.nth(7).drag_to(c_items.nth(0), target_position={"x": 30, "y": 3})
    states = [
        read(page.locator(f'[data-testid=ranking-board][data-query^="Query {name}"]'))
        for name in "ABC"
    ]
    assert states[2]["docs"][0] == "d8"
    wait_for_value(page, query_c.locator("[data-testid=ap-value]"), expected_ap(states[2]))
    assert_map_board_matches(page, states)

    # the inverse exercise: move relevant d7, d8, d9 to ranks 2, 4, 5 by keyboard, then Check
    task = page.locator(
        '[data-testid=ranking-board][data-query="Drag the results, then Check"]'
    ).last
    for doc, steps in (("d7", 5), ("d8", 4), ("d9", 4)):
        task.locator(f'[data-doc="{doc}"]').focus()
        for _ in range(steps):
            page.keyboard.press("Alt+ArrowUp")
    assert read(task)["labels"] == [0, 1, 0, 1, 1, 0, 0, 0, 0, 1]
    wait_for_value(page, task.locator("[data-testid=ap-value]"), 0.5)
    page.locator(".mapteach-check").last.click()
    page.get_by_text("Correct: AP = 0.5000 (target 0.5), P@5 = 0.6000 (target 0.6).").wait_for()
    page.close()


def test_enter_commits_reset_restores_and_nothing_overlaps(browser, lab_url):
    page = open_notebook(browser, lab_url, "06_playground.ipynb")
    board = page.locator(SINGLE)
    items = board.locator("[data-testid=rank-item]")
    items.first.wait_for(timeout=90_000)
    preset = get_example("003_a")
    heading = board.locator(".mt-query")
    heading_text = f"Article 003 · {preset.title}"
    select = board.locator("[data-testid=preset-select]")
    readout = board.locator("[data-testid=ap-value]")
    wait_for_value(page, readout, preset.ap)

    # the preset menu and Reset sit clear of the trace table's header, wide and narrow
    header = page.locator("[data-testid=trace-table]").first.locator("thead")
    reset = board.locator("[data-testid=reset-button]")
    for width in (1400, 800):
        page.set_viewport_size({"width": width, "height": 1000})
        inside = board.bounding_box()
        for control in (select, reset):
            box = control.bounding_box()
            assert not overlap(box, header.bounding_box()), width
            assert box["x"] + box["width"] <= inside["x"] + inside["width"] + 0.5, width
    page.set_viewport_size({"width": 1400, "height": 1000})

    # Enter commits "missed relevant": R = 3 + 2, and the focus stays in the input
    unretrieved = board.locator("[data-testid=unretrieved-input]")
    unretrieved.fill("2")
    unretrieved.press("Enter")
    wait_for_value(page, readout, average_precision(preset.labels, n_relevant=5))
    assert page.evaluate("document.activeElement.dataset.testid") == "unretrieved-input"
    page.wait_for_function(  # the heading says so, the menu shows "custom ranking"
        "([heading, select, text]) => heading.textContent === text && select.value === ''",
        arg=[heading.element_handle(), select.element_handle(), f"{heading_text} (edited)"],
    )

    # Enter commits the cutoff: AP@3
    cutoff = board.locator("[data-testid=cutoff-input]")
    cutoff.fill("3")
    cutoff.press("Enter")
    wait_for_value(page, readout, average_precision(preset.labels, n_relevant=5, k=3))
    assert readout.inner_text().startswith("AP@3 = ")

    # Reset, after a drag: the preset's order, R, k and AP are back
    items.nth(3).drag_to(items.nth(0), target_position={"x": 30, "y": 3})
    assert_readout_matches(page, board)
    reset.click()
    original = [f"d{i}" for i in range(1, 9)]
    wait_for_order(page, board, original)
    wait_for_value(page, readout, preset.ap)
    state = assert_readout_matches(page, board)
    assert (state["unretrieved"], state["cutoff"]) == (0, 0)
    assert heading.inner_text() == heading_text  # reset arrives as one message
    assert select.input_value() == "003_a"
    select.select_option("")  # "custom ranking" for an unedited list: the menu goes back
    page.wait_for_function("(el) => el.value === '003_a'", arg=select.element_handle())

    # choosing the same example again after an edit restores it too
    items.nth(2).drag_to(items.nth(0), target_position={"x": 30, "y": 3})
    wait_for_order(page, board, ["d3", "d1", "d2", *original[3:]])
    page.wait_for_function("(el) => el.value === ''", arg=select.element_handle())
    select.select_option("003_a")
    wait_for_order(page, board, original)
    wait_for_value(page, readout, preset.ap)
    page.close()


def assert_map_board_matches(page, states: list[dict]) -> None:
    """MAP and the AP bars show the lists on screen, as mapteach computes them."""
    rankings = [state["labels"] for state in states]
    totals = [sum(state["labels"]) + state["unretrieved"] for state in states]
    expected = mean_average_precision(rankings, n_relevant=totals)
    wait_for_value(page, page.locator("[data-testid=map-value]"), expected)
    aps = [expected_ap(state) for state in states]
    bars = page.locator("[data-testid=ap-bars]")
    page.wait_for_function(
        "([svg, points]) => svg.dataset.points === JSON.stringify(points)",
        arg=[bars.element_handle(), aps],
        timeout=15_000,
    )
    assert json.loads(bars.get_attribute("data-points") or "") == aps
    text = page.locator("[data-testid=ap-bars-text]").text_content() or ""
    assert text.endswith(f"MAP = {expected:.4f}.")


#: The top of each board's list, in page coordinates.
LIST_TOPS = """(boards) => boards.map(
  (board) => board.querySelector('[data-testid=rank-list]').getBoundingClientRect().top
)"""


def test_level_lists_a_rejected_cutoff_said_and_k_all(browser, lab_url):
    """The MAP board's lists start level; a cutoff refused is said; k = 0 reads "k = all"."""
    page = open_notebook(browser, lab_url, "06_playground.ipynb")
    board = page.locator(SINGLE)
    board.locator("[data-testid=rank-item]").first.wait_for(timeout=90_000)
    readout = board.locator("[data-testid=ap-value]")
    labels = list(get_example("003_a").labels)

    # the MAP board: query B's long title takes no more room than A's and C's
    queries = page.locator('[data-testid=ranking-board][data-query^="Query "]')
    page.locator("[data-testid=live-readout][data-kind=map]").wait_for(timeout=90_000)
    for width in (1400, 900):
        page.set_viewport_size({"width": width, "height": 1000})
        tops = queries.evaluate_all(LIST_TOPS)  # one layout, read at once
        assert len(tops) == 3 and max(tops) - min(tops) <= 1, (width, tops)
    for query in queries.all():  # a title cut short keeps its whole text as its tooltip
        heading = query.locator(".mt-query")
        assert heading.get_attribute("title") == query.get_attribute("data-query")
    page.set_viewport_size({"width": 1400, "height": 1000})

    # a cutoff of -1 is refused on the board, and the cutoff stays 3
    cutoff = board.locator("[data-testid=cutoff-input]")
    rejected = board.locator("[data-testid=count-rejected]")
    cutoff.fill("3")
    cutoff.press("Enter")
    wait_for_value(page, readout, average_precision(labels, n_relevant=3, k=3))
    assert rejected.is_hidden()
    for typed in ("-1", "2.5"):
        cutoff.fill(typed)
        cutoff.press("Enter")
        rejected.wait_for(state="visible", timeout=5_000)
        assert rejected.text_content() == tr(
            "Cutoff k must be a whole number, 0 or more (0 for the whole list); "
            "it stays at {value}.",
            value=3,
        )
        assert cutoff.input_value() == "3" and readout.inner_text().startswith("AP@3 = ")

    # the cutoff 0 is the whole list: the message goes, and the printout says "k = all"
    cutoff.fill("0")
    cutoff.press("Enter")
    wait_for_value(page, readout, average_precision(labels, n_relevant=3))
    rejected.wait_for(state="hidden", timeout=5_000)
    head = page.locator("[data-testid=live-readout][data-kind=board] [data-testid=live-labels]")
    expected = tr("labels on screen: {labels}   R = {r}   k = all", labels=labels, r=3)
    page.wait_for_function(
        "([el, text]) => el.textContent === text", arg=[head.element_handle(), expected]
    )
    page.close()


#: Code as a notebook shows it (Voila keeps markdown cells' input areas, and marks code
#: cells jp-mod-noInput); none of it may appear in the app.
CODE_ON_PAGE = (
    ".jp-CodeCell:not(.jp-mod-noInput), .jp-CodeCell .jp-InputArea, .jp-InputPrompt,"
    " .cm-editor, .CodeMirror"
)


def wait_for_printout(page, kind: str, expected: float, labels: list[int]) -> None:
    """Wait until the live printout of ``kind`` ("board" or "map") states ``expected``
    at full precision and shows ``labels``, as the list on screen holds them."""
    printout = page.locator(f"[data-testid=live-readout][data-kind={kind}]")
    page.wait_for_function(
        "([el, v, labels]) => Math.abs(Number(el.dataset.value) - v) < 1e-12"
        " && el.textContent.includes(labels)",
        arg=[printout.element_handle(), expected, str(labels)],
        timeout=15_000,
    )


def test_playground_in_voila(browser, voila_url):
    """The classroom app: no code shows, and the printouts follow every drag."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(voila_url, timeout=90_000)
    board = page.locator(SINGLE)
    items = board.locator("[data-testid=rank-item]")
    items.first.wait_for(timeout=90_000)
    state = assert_readout_matches(page, board)
    wait_for_printout(page, "board", expected_ap(state), state["labels"])

    paints = drawn(board, "pr-curve")
    items.nth(2).drag_to(items.nth(0), target_position={"x": 30, "y": 3})
    state = assert_readout_matches(page, board)  # the plots too: the board draws in Voila
    assert state["docs"][:3] == ["d3", "d1", "d2"]
    wait_for_repaint(page, board, paints)
    # the printout under the board says the same, not what it said when the notebook ran
    wait_for_printout(page, "board", expected_ap(state), state["labels"])
    printout = page.locator("[data-testid=live-readout][data-kind=board]")
    ap = printout.locator("[data-testid=live-ap]")
    assert float(ap.get_attribute("data-value") or "nan") == expected_ap(state)
    assert ap.inner_text().endswith(f"= {expected_ap(state):.4f}")

    board.locator('[data-doc="d8"]').focus()
    page.keyboard.press("Alt+ArrowUp")
    state = assert_readout_matches(page, board)
    assert state["docs"][6] == "d8"
    wait_for_printout(page, "board", expected_ap(state), state["labels"])

    # the MAP printout follows a drag in query C
    query_c = page.locator('[data-testid=ranking-board][data-query^="Query C"]')
    c_items = query_c.locator("[data-testid=rank-item]")
    c_items.nth(7).drag_to(c_items.nth(0), target_position={"x": 30, "y": 3})
    states = [
        read(page.locator(f'[data-testid=ranking-board][data-query^="Query {name}"]'))
        for name in "ABC"
    ]
    assert states[2]["docs"][0] == "d8"
    aps = [expected_ap(state) for state in states]
    assert_map_board_matches(page, states)
    wait_for_printout(page, "map", sum(aps) / 3, states[2]["labels"])
    lines = page.locator("[data-testid=live-readout][data-kind=map] [data-testid=live-ap]")
    assert [float(v) for v in lines.evaluate_all("(els) => els.map((e) => e.dataset.value)")] == aps
    map_line = page.locator("[data-testid=live-map]").inner_text()
    assert map_line == f"MAP = {sum(aps) / 3:.4f}"

    # the exercises are there, and no code is shown anywhere
    assert page.locator("[data-testid=exercise]").count() >= 4
    assert page.locator(CODE_ON_PAGE).count() == 0
    text = page.locator("body").inner_text()
    for code in ("live_readout(", "import mapteach", "RankingBoard(", "set_language("):
        assert code not in text
    page.close()
