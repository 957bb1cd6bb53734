"""The Chinese playground in JupyterLab, used as a Chinese-speaking learner uses it.

notebooks/zh/06_playground.ipynb runs in a fresh kernel; the board's labels,
announcements and plots (titles, axes, legends, text alternatives) are Chinese, a real
drag changes AP and the plots exactly as mapteach computes them, and a known
misconception's feedback arrives in Chinese, worded as the catalogue words it.
"""

from __future__ import annotations

import re

import pytest

from mapteach import average_precision
from mapteach.i18n import tr
from tests.browser.harness import open_notebook
from tests.browser.test_board import SINGLE, assert_readout_matches

pytestmark = pytest.mark.browser

CJK = re.compile(r"[\u4e00-\u9fff]")
#: The playground's number exercise: the highest AP with 2 relevant results never retrieved.
MISSED = "forgot the missed relevant results"


def test_chinese_playground_in_jupyterlab(browser, lab_url):
    page = open_notebook(browser, lab_url, "zh/06_playground.ipynb")
    board = page.locator(SINGLE)
    items = board.locator("[data-testid=rank-item]")
    items.first.wait_for(timeout=90_000)
    state = assert_readout_matches(page, board)

    # every label and button of the board speaks Chinese
    texts = board.locator("label, [data-testid=reset-button]").evaluate_all(
        "(nodes) => nodes.map((node) => node.textContent.trim())"
    )
    assert texts and all(CJK.search(text) for text in texts), texts

    # and so do the plots: titles, axis labels, legends and text alternatives
    plotted = board.locator(
        ".mt-plot-title, .mt-legend li, [data-testid=pr-curve-text], [data-testid=pk-bars-text]"
    ).all_text_contents()
    assert len(plotted) >= 6 and all(CJK.search(text) for text in plotted), plotted
    axes = board.locator("[data-testid=pr-curve] text").all_text_contents()
    assert tr("recall", lang="zh") in axes and tr("precision", lang="zh") in axes

    # a real drag: rank 4 onto rank 1; AP follows, as average_precision computes it
    before = average_precision(state["labels"])
    items.nth(3).drag_to(items.nth(0), target_position={"x": 30, "y": 3})
    state = assert_readout_matches(page, board)
    assert state["docs"][:4] == ["d4", "d1", "d2", "d3"]
    assert average_precision(state["labels"]) > before

    # a keyboard move is announced in Chinese
    board.locator('[data-doc="d3"]').focus()
    page.keyboard.press("Alt+ArrowUp")
    assert_readout_matches(page, board)
    page.wait_for_function(
        "(root) => /[\\u4e00-\\u9fff]/.test("
        "root.querySelector('[data-testid=announcer]')?.textContent ?? '')",
        arg=board.element_handle(),
        timeout=15_000,
    )

    # the misconception exercise: answering as if R were only the results on screen
    exercise = page.locator("[data-testid=exercise][data-kind=number]").first
    box = exercise.locator("[data-testid=answer-input]")
    assert CJK.search(box.get_attribute("placeholder") or "")
    box.fill("1")
    box.press("Enter")
    named = tr(MISSED, lang="zh")
    page.wait_for_function(
        "([root, text]) => {"
        "  const feedback = root.querySelector('[data-testid=feedback]');"
        "  return feedback?.dataset.status === 'incorrect' && feedback.textContent.includes(text);"
        "}",
        arg=[exercise.element_handle(), named],
        timeout=15_000,
    )
    assert CJK.search(named) and named != MISSED
    page.close()
