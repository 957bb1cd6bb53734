"""The judging board as annotators use it, and nothing they do is lost.

One JupyterLab server and one Chromium for the module (the server's judgments folder,
``MAPTEACH_JUDGMENTS``, is a temporary one). Each journey is one test, waiting on the
board's hooks (``data-saved``, ``data-testid``), never on fixed sleeps:

- grade, kill the kernel, grade again: the row is unsaved and the board says the
  kernel is gone; restart and run the cell again: every earlier judgment is there
  and the unsaved one is replayed;
- two boards on one file: the second one, writing after the first, says so and turns
  read-only; an older board that only looks on is told too, within seconds, when a
  newer one writes, and shows what the file holds;
- reveal, then change a grade: the change is ``after_reveal`` in the file, and the
  calibration report (blind judgments only) does not move;
- type a reason and stop the server without pressing Enter: the reason is in the file
  (last, since it stops the server).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from mapteach import average_precision
from mapteach.judging.calibration import calibration_report
from mapteach.judging.guideline import load_judging_set
from mapteach.judging.judgments import (
    judgments_file,
    load_judgments,
    read_events,
    read_records,
    record_of,
)
from tests.browser import harness

pytestmark = pytest.mark.browser

FIRST = load_judging_set().queries[0]

#: The annotator's grades for the first query: r3 and r6 cross the relevance line the
#: other way from the reference (1 -> 2, 2 -> 1); r10 is left for later.
GRADES = {"r1": 3, "r2": 0, "r3": 2, "r4": 3, "r5": 0, "r6": 1, "r7": 1, "r8": 0, "r9": 3}
BOARD = "[data-testid=judging-board]"


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return harness.make_workdir(tmp_path_factory.mktemp("lab-judging"))


@pytest.fixture(scope="module")
def lab(workdir: Path) -> Iterator[harness.Lab]:
    harness.require_browser()
    with harness.running_jupyterlab(workdir) as running:
        yield running


@pytest.fixture(scope="module")
def context(browser) -> Iterator:
    """One browser context for the module (the session's Chromium: Playwright's sync API runs
    one at a time); its pages share local storage, as a browser's tabs do."""
    shared = browser.new_context(viewport=harness.VIEWPORT, accept_downloads=True)
    yield shared
    shared.close()


def _folder(workdir: Path) -> Path:
    return workdir / "judgments"


def _item(board, doc):
    return board.locator(f'[data-testid=label-item][data-doc="{doc}"]')


def _wait_for_item(page, doc, attribute, value, timeout=15_000):
    """Wait until the item of ``doc`` on the (first) board carries ``attribute=value``."""
    page.wait_for_function(
        "([doc, attribute, value]) => document.querySelector("
        '`[data-testid=judging-board] [data-testid=label-item][data-doc="${doc}"]`'
        ")?.getAttribute(attribute) === value",
        arg=[doc, attribute, value],
        timeout=timeout,
    )


def _judge(page, board, doc, grade, reason=""):
    """Grade (and give a reason), then wait until the kernel has written it."""
    _item(board, doc).locator(f'[data-testid=grade-button][data-grade="{grade}"]').click()
    _wait_for_item(page, doc, "data-grade", str(grade))
    if reason:
        field = _item(board, doc).locator("[data-testid=reason-input]")
        field.fill(reason)
        field.press("Enter")
    _wait_for_item(page, doc, "data-complete", "true")
    _wait_for_item(page, doc, "data-saved", "true")


def _write_notebook(workdir: Path, name: str, annotator: str) -> str:
    source = (
        "from mapteach.judging import JudgingBoard\n"
        f"board = JudgingBoard(annotator={annotator!r})\n"
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
    (workdir / "notebooks" / f"{name}.ipynb").write_text(json.dumps(notebook))
    return f"{name}.ipynb"


def _open_board(context, lab, workdir, annotator, name, workspace=None):
    notebook = _write_notebook(workdir, name, annotator)
    page = harness.open_notebook(context, lab.url, notebook, workspace=workspace)
    board = page.locator(BOARD)
    board.locator("[data-testid=grade-button]").first.wait_for(timeout=90_000)
    return page, board


def test_grading_two_results_updates_ap(context, lab):
    page = harness.open_notebook(context, lab.url, "12_judging_relevance.ipynb")
    board = page.locator(BOARD).first
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


def _grade_the_first_query(page, board):
    reasons = {doc: f"R-TEST: why {doc}" for doc, grade in GRADES.items() if 0 < grade < 3}
    for doc, grade in GRADES.items():
        _judge(page, board, doc, grade, reasons.get(doc, ""))
    # a new grade clears the old reason and asks for one again
    _item(board, "r7").locator('[data-testid=grade-button][data-grade="2"]').click()
    _wait_for_item(page, "r7", "data-complete", "false")
    field = _item(board, "r7").locator("[data-testid=reason-input]")
    assert field.input_value() == ""
    assert field.evaluate("(node) => node === document.activeElement")
    field.fill(reasons["r7"])
    field.press("Enter")
    _wait_for_item(page, "r7", "data-saved", "true")
    _judge(page, board, "r7", 1, reasons["r7"])
    return reasons


def _download(page, board) -> list[dict]:
    """The board's download of unsaved judgments: a judgments file like any other."""
    with page.expect_download() as caught:
        board.locator("[data-testid=judging-download]").first.click()
    path = Path(caught.value.path())
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [record_of(event) for _, event in read_events(path)] == records
    return records


def test_a_dead_kernel_loses_nothing(context, lab, workdir):
    """Grade, kill the kernel, grade again; restart and run: all there, the rest replayed."""
    annotator = "Mei Lin / 李梅"
    path = judgments_file(annotator, _folder(workdir))
    page, board = _open_board(context, lab, workdir, annotator, "judging_kernel")
    assert board.locator("[data-testid=judging-path]").inner_text().endswith(str(path))
    reasons = _grade_the_first_query(page, board)
    assert load_judgments(path) == {FIRST.query: GRADES}

    harness.kill_kernel(page)
    _item(board, "r10").locator('[data-testid=grade-button][data-grade="0"]').click()
    _wait_for_item(page, "r10", "data-grade", "0")
    assert _item(board, "r10").get_attribute("data-saved") == "false"
    board.locator("[data-testid=judging-offline]").wait_for(timeout=30_000)
    _item(board, "r10").locator("[data-testid=row-unsaved]").wait_for(timeout=5_000)
    assert _item(board, "r1").get_attribute("data-saved") == "true"
    kept = _download(page, board)
    assert [(r["doc"], r["grade"], r["phase"]) for r in kept] == [("r10", 0, "blind")]
    assert load_judgments(path) == {FIRST.query: GRADES}  # the file never saw it

    harness.restart_and_run_all(page)
    _wait_for_item(page, "r1", "data-grade", "3", timeout=90_000)  # resumed from the file
    board = page.locator(BOARD)
    for result in FIRST.results:
        assert _item(board, result.doc).get_attribute("data-grade") == str(
            GRADES.get(result.doc, -1)
        )
    assert _item(board, "r6").locator("[data-testid=reason-input]").input_value() == reasons["r6"]
    board.locator("[data-testid=judging-replay]").click()
    _wait_for_item(page, "r10", "data-grade", "0")
    _wait_for_item(page, "r10", "data-saved", "true")
    assert load_judgments(path) == {FIRST.query: {**GRADES, "r10": 0}}
    replayed = read_events(path)[-1][1]
    assert (replayed.doc, replayed.time, replayed.annotator) == ("r10", kept[0]["time"], annotator)
    board.locator("[data-testid=judging-notice]").wait_for(timeout=15_000)
    assert board.locator("[data-testid=judging-replay]").count() == 0

    _check_the_reference_is_shown(page, board)
    page.close()


def _check_the_reference_is_shown(page, board):
    """Every result is judged: the reference is shown, and where the annotator disagrees."""
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
    board.locator("[data-testid=next-query]").click()  # the next query starts unrevealed
    _wait_for_item(page, "j1", "data-grade", "-1")
    assert board.locator("[data-testid=reason-ref]").count() == 0


#: True once the current notebook's kernel is running code.
KERNEL_BUSY = """() => {
  const kernel = window.jupyterapp?.shell?.currentWidget?.sessionContext?.session?.kernel;
  return kernel?.status === 'busy';
}"""


def _keep_kernel_busy(page, seconds):
    """Keep the page's kernel busy for ``seconds``, as a long cell does: its board's
    questions wait, so a change made meanwhile reaches the kernel before it looks again."""
    page.evaluate(
        """(seconds) => {
          const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
          kernel.requestExecute({ code: `import time; time.sleep(${seconds})` });
        }""",
        seconds,
    )
    page.wait_for_function(KERNEL_BUSY, timeout=15_000)


def test_a_second_board_on_one_file_says_so(context, lab, workdir):
    path = judgments_file("two tabs", _folder(workdir))
    first, first_board = _open_board(context, lab, workdir, "two tabs", "judging_tab_a")
    second, second_board = _open_board(
        context, lab, workdir, "two tabs", "judging_tab_b", workspace="second"
    )
    _keep_kernel_busy(second, 10)  # so the second's click, not its next look, finds out
    _judge(first, first_board, "r1", 3)
    _item(second_board, "r2").locator('[data-testid=grade-button][data-grade="0"]').click()
    second_board.locator("[data-testid=judging-conflict]").wait_for(timeout=30_000)
    _wait_for_item(second, "r1", "data-grade", "3")  # it shows what the file holds
    _wait_for_item(second, "r2", "data-grade", "-1")
    assert second_board.get_attribute("data-read-only") == "true"
    assert second_board.locator("[data-testid=grade-button]").first.is_disabled()
    assert [(r["doc"], r["grade"]) for r in _download(second, second_board)] == [("r2", 0)]
    _judge(first, first_board, "r3", 1, "R-PART")  # the first board goes on writing
    assert load_judgments(path) == {FIRST.query: {"r1": 3, "r3": 1}}
    assert first_board.locator("[data-testid=judging-conflict]").count() == 0
    assert [record.seq for _, record in read_records(path)] == [1, 2, 3]  # r3: grade, reason
    first.close()
    second.close()


def test_an_older_board_is_told_when_a_newer_one_writes(context, lab, workdir):
    """The older board only looks on: within seconds it says so, shows the newer
    board's grade and takes no edit."""
    path = judgments_file("old and new", _folder(workdir))
    older, older_board = _open_board(context, lab, workdir, "old and new", "judging_older")
    _judge(older, older_board, "r1", 3)
    newer, newer_board = _open_board(
        context, lab, workdir, "old and new", "judging_newer", workspace="newer"
    )
    _wait_for_item(newer, "r1", "data-grade", "3")  # it has read the file
    _judge(newer, newer_board, "r1", 0)  # the first write since both are open
    older_board.locator("[data-testid=judging-conflict]").wait_for(timeout=10_000)
    _wait_for_item(older, "r1", "data-grade", str(load_judgments(path)[FIRST.query]["r1"]))
    assert _item(older_board, "r1").get_attribute("data-saved") == "true"
    assert older_board.get_attribute("data-read-only") == "true"
    buttons = older_board.locator("[data-testid=grade-button]")
    assert all(buttons.nth(i).is_disabled() for i in range(buttons.count()))
    assert _item(older_board, "r1").locator("[data-testid=reason-input]").is_disabled()
    before = path.read_bytes()
    _item(older_board, "r2").locator('[data-testid=grade-button][data-grade="3"]').click(force=True)
    assert _item(older_board, "r2").get_attribute("data-grade") == "-1"
    assert path.read_bytes() == before
    assert newer_board.locator("[data-testid=judging-conflict]").count() == 0
    older.close()
    newer.close()


def test_a_change_after_the_reveal_is_marked_so(context, lab, workdir):
    path = judgments_file("revealer", _folder(workdir))
    page, board = _open_board(context, lab, workdir, "revealer", "judging_reveal")
    _judge(page, board, "r1", 1, "R-PART: the amount only")
    assert board.get_attribute("data-phase") == "blind"
    board.locator("[data-testid=reveal-reference]").check()
    page.wait_for_function(
        "(root) => root.dataset.phase === 'after_reveal'", arg=board.element_handle()
    )
    board.locator("[data-testid=judging-phase]").wait_for()
    gold = load_judging_set().gold()
    blind = calibration_report(path, gold)
    _judge(page, board, "r1", 3)
    phases = [
        (type(record).__name__, getattr(record, "grade", None), getattr(record, "phase", None))
        for _, record in read_records(path)
    ]
    assert phases == [
        ("Event", 1, "blind"),  # the grade
        ("Event", 1, "blind"),  # its reason
        ("Reveal", None, None),
        ("Event", 3, "after_reveal"),
    ]
    assert load_judgments(path, phase="blind") == {FIRST.query: {"r1": 1}}
    assert load_judgments(path) == {FIRST.query: {"r1": 3}}
    report = calibration_report(path, gold)  # blind judgments only: the peek does not count
    assert report.accuracy == float(gold[FIRST.query]["r1"] == 1)
    assert (blind.after_reveal, report.after_reveal) == (0, 1)
    scores = [{k: v for k, v in r.row().items() if k != "after_reveal"} for r in (blind, report)]
    assert pd.Series(scores[0]).equals(pd.Series(scores[1]))
    assert report.confusion.equals(blind.confusion) and report.recheck.equals(blind.recheck)
    page.close()


def test_a_reason_typed_without_enter_survives_the_server(context, lab, workdir):
    """Last: it stops the server."""
    path = judgments_file("typist", _folder(workdir))
    page, board = _open_board(context, lab, workdir, "typist", "judging_reason")
    _item(board, "r4").locator('[data-testid=grade-button][data-grade="2"]').click()
    _wait_for_item(page, "r4", "data-grade", "2")
    reason = "R-PART: 只有金额, not my case"
    field = _item(board, "r4").locator("[data-testid=reason-input]")
    field.press_sequentially(reason, delay=30)  # no Enter, no blur
    assert field.evaluate("(node) => node === document.activeElement")
    _wait_for_item(page, "r4", "data-saved", "true")
    lab.stop()
    assert load_judgments(path) == {FIRST.query: {"r4": 2}}
    assert read_events(path)[-1][1].reason == reason
    page.close()
