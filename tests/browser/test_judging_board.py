"""The judging board as an annotator uses it: grade with reasons, clear, resume, calibrate."""

from __future__ import annotations

import json

import pytest

from mapteach import average_precision
from mapteach.judging.guideline import load_judging_set
from mapteach.judging.judgments import load_judgments
from tests.browser.harness import open_notebook

pytestmark = pytest.mark.browser

FIRST = load_judging_set().queries[0]

#: The annotator's grades for the first query: r3 and r6 cross the relevance line the
#: other way from the reference (1 -> 2, 2 -> 1); r10 is left for later.
GRADES = {"r1": 3, "r2": 0, "r3": 2, "r4": 3, "r5": 0, "r6": 1, "r7": 1, "r8": 0, "r9": 3}


def _item(board, doc):
    return board.locator(f'[data-testid=label-item][data-doc="{doc}"]')


def _wait_for_item(page, doc, attribute, value):
    """Wait until the (re-rendered) item of ``doc`` carries ``attribute=value``."""
    page.wait_for_function(
        "([doc, attribute, value]) => document.querySelector("
        '`[data-testid=judging-board] [data-testid=label-item][data-doc="${doc}"]`'
        ")?.getAttribute(attribute) === value",
        arg=[doc, attribute, value],
        timeout=15_000,
    )


def _judge(page, board, doc, grade, reason=""):
    _item(board, doc).locator(f'[data-testid=grade-button][data-grade="{grade}"]').click()
    _wait_for_item(page, doc, "data-grade", str(grade))
    if reason:
        field = _item(board, doc).locator("[data-testid=reason-input]")
        field.fill(reason)
        field.press("Enter")  # a text input commits on change
    _wait_for_item(page, doc, "data-complete", "true")


def test_grading_two_results_updates_ap(browser, lab_url):
    page = open_notebook(browser, lab_url, "12_judging_relevance.ipynb")
    board = page.locator("[data-testid=judging-board]")
    board.locator("[data-testid=grade-button]").first.wait_for(timeout=90_000)
    readout = board.locator("[data-testid=ap-value]")
    assert readout.get_attribute("data-value") == "0"
    for doc, grade, reason, labels in (
        ("r1", 3, "", [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        ("r4", 2, "R-PART", [1, 0, 0, 1, 0, 0, 0, 0, 0, 0]),  # AP = (1/1 + 2/4) / 2
    ):
        _judge(page, board, doc, grade, reason)
        page.wait_for_function(  # the readout is re-rendered on each update: query it fresh
            "(v) => Number(document.querySelector("
            "'[data-testid=judging-board] [data-testid=ap-value]').dataset.value) === v",
            arg=average_precision(labels),
            timeout=15_000,
        )
    assert _item(board, "r4").get_attribute("data-grade") == "2"
    assert _item(board, "r4").get_attribute("data-rank") == "4"
    board.locator("[data-testid=reveal-reference]").check()
    page.wait_for_function(
        "(root) => root.querySelectorAll('[data-disagrees=true]').length === 2",
        arg=board.element_handle(),
        timeout=15_000,
    )
    disagree = board.locator("[data-disagrees=true]")
    assert sorted(disagree.nth(i).get_attribute("data-doc") for i in range(2)) == ["r6", "r9"]
    page.close()


def _write_notebook(workdir, save_to):
    source = (
        "from mapteach.judging import JudgingBoard\n"
        f"board = JudgingBoard(annotator='alice', save_to={str(save_to)!r})\n"
        "board"
    )
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "metadata": {},
                "execution_count": None,
                "outputs": [],
                "source": source,
            }
        ],
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (workdir / "notebooks" / "judging_resume.ipynb").write_text(json.dumps(notebook))


def _restart_and_run_all(page):
    page.evaluate("() => { window.jupyterapp.commands.execute('kernelmenu:restart'); }")
    accept = page.locator(".jp-Dialog .jp-mod-accept")
    accept.wait_for(timeout=15_000)
    accept.click()
    page.wait_for_function(
        """() => {
          const kernel = window.jupyterapp.shell.currentWidget?.sessionContext?.session?.kernel;
          return kernel?.status === 'idle';
        }""",
        timeout=60_000,
    )
    page.evaluate(
        """async () => {
          await window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs');
          await window.jupyterapp.commands.execute('notebook:run-all-cells');
        }"""
    )


def test_judgments_survive_a_kernel_restart_and_calibrate(browser, lab_url, workdir):
    save_to = workdir / "judgments" / "alice.jsonl"
    _write_notebook(workdir, save_to)
    page = open_notebook(browser, lab_url, "judging_resume.ipynb")
    board = page.locator("[data-testid=judging-board]")
    board.locator("[data-testid=grade-button]").first.wait_for(timeout=90_000)
    reasons = {doc: f"R-TEST: why {doc}" for doc, grade in GRADES.items() if 0 < grade < 3}
    for doc, grade in GRADES.items():
        _judge(page, board, doc, grade, reasons.get(doc, ""))
    # a middle grade without its reason is shown as incomplete
    _item(board, "r10").locator('[data-testid=grade-button][data-grade="1"]').click()
    _wait_for_item(page, "r10", "data-grade", "1")
    assert _item(board, "r10").get_attribute("data-complete") == "false"
    assert _item(board, "r10").locator("[data-testid=incomplete]").count() == 1
    # clear two grades and re-grade one of them
    for doc in ("r10", "r2"):
        _item(board, doc).locator("[data-testid=clear-grade]").click()
        _wait_for_item(page, doc, "data-grade", "-1")
    _judge(page, board, "r2", 0)
    query = FIRST.query
    assert load_judgments(save_to) == {query: GRADES}
    assert board.locator("[data-testid=reason-ref]").count() == 0  # not revealed yet

    _restart_and_run_all(page)
    _wait_for_item(page, "r1", "data-grade", "3")  # restored from the file
    board = page.locator("[data-testid=judging-board]")
    for doc in [r.doc for r in FIRST.results]:
        assert _item(board, doc).get_attribute("data-grade") == str(GRADES.get(doc, -1))
    assert _item(board, "r6").locator("[data-testid=reason-input]").input_value() == reasons["r6"]

    board.locator("[data-testid=reveal-reference]").check()
    page.wait_for_function(
        "(root) => root.querySelectorAll('[data-testid=rule-ref]').length === 10",
        arg=board.element_handle(),
        timeout=15_000,
    )
    marked = board.locator("[data-disagrees=true]")
    assert sorted(marked.nth(i).get_attribute("data-doc") for i in range(marked.count())) == [
        "r3",
        "r6",
    ]
    for result in FIRST.results:
        item = _item(board, result.doc)
        assert item.locator("[data-testid=rule-ref]").inner_text() == result.rule
        assert item.locator("[data-testid=reason-ref]").inner_text() == result.reason
    assert _item(board, "r4").get_attribute("data-differs") == "false"  # 3 = 3
    assert _item(board, "r7").get_attribute("data-differs") == "false"  # 1 = 1
    # the next query starts unrevealed, with nothing judged
    board.locator("[data-testid=next-query]").click()
    _wait_for_item(page, "j1", "data-grade", "-1")
    assert board.locator("[data-testid=reason-ref]").count() == 0
    page.close()
