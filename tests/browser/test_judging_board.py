"""The judging board as an annotator uses it: grade two results, read the AP."""

from __future__ import annotations

import pytest

from mapteach import average_precision
from tests.browser.harness import open_notebook

pytestmark = pytest.mark.browser


def test_grading_two_results_updates_ap(browser, lab_url):
    page = open_notebook(browser, lab_url, "12_judging_relevance.ipynb")
    board = page.locator("[data-testid=judging-board]")
    board.locator("[data-testid=grade-button]").first.wait_for(timeout=90_000)
    readout = board.locator("[data-testid=ap-value]")
    assert readout.get_attribute("data-value") == "0"
    for doc, grade, labels in (
        ("r1", 3, [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        ("r4", 2, [1, 0, 0, 1, 0, 0, 0, 0, 0, 0]),  # AP = (1/1 + 2/4) / 2
    ):
        board.locator(f'[data-testid=grade-button][data-doc="{doc}"][data-grade="{grade}"]').click()
        page.wait_for_function(  # the readout is re-rendered on each update: query it fresh
            "(v) => Number(document.querySelector("
            "'[data-testid=judging-board] [data-testid=ap-value]').dataset.value) === v",
            arg=average_precision(labels),
            timeout=15_000,
        )
    assert (
        board.locator('[data-testid=label-item][data-doc="r4"]').get_attribute("data-grade") == "2"
    )
    board.locator("[data-testid=reveal-reference]").check()
    page.wait_for_function(
        "(root) => root.querySelectorAll('[data-disagrees=true]').length === 2",
        arg=board.element_handle(),
        timeout=15_000,
    )
    disagree = board.locator("[data-disagrees=true]")
    assert [disagree.nth(i).get_attribute("data-doc") for i in range(2)] == ["r6", "r9"]
    page.close()
