"""Exercises used the way a learner uses them: typing, Enter, arrow keys, clicks.

The test writes a three-exercise notebook beside the copied workbook, runs it in
JupyterLab and waits on the widgets' test hooks (``data-testid`` and ``data-status``):
the kernel judges every answer, and a changed answer clears the old verdict at once.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from tests.browser.harness import open_notebook

pytestmark = pytest.mark.browser

SLIP = "final hit count in every numerator"  # article 001's 0.48 (0.4790 to 4 decimals)

#: Three long labels: they must wrap, one per line, each beside its own radio.
OPTIONS = {
    "Dividing by the number of results in the list, ten here, instead of by R, the number of "
    "relevant documents the query has, whether or not the system retrieved them all": "No.",
    "Using the final hit count, four here, as the numerator at every relevant rank instead of "
    "the number of relevant results seen so far at that rank, which is what P@i counts": "Yes.",
    "Dividing by the relevant documents the system retrieved instead of by R, which makes no "
    "difference here because all four relevant documents of this query were retrieved": "No.",
}
CORRECT = 1

CELLS = [
    "from mapteach import get_example\n"
    "from mapteach.exercises import ArrangeExercise, ChoiceExercise, ap_exercise",
    'ap_exercise(get_example("001_legal_late").labels, key="99.1")',
    f"ChoiceExercise(\n    'Which slip gives article 001 its 0.48?',\n    {OPTIONS!r},\n"
    f"    correct={list(OPTIONS)[CORRECT]!r},\n    solution_html='<p>The hits so far.</p>',\n)",
    'ArrangeExercise("Put the relevant result first: AP = 1.", {"AP": 1.0}, 3, 1)',
]

#: True once the exercise's feedback shows ``status`` and contains ``text`` (none if empty).
FEEDBACK_IS = """([root, status, text]) => {
  const feedback = root.querySelector('[data-testid=feedback]');
  const shown = feedback?.textContent ?? null;
  if (feedback?.dataset.status !== status) return false;
  return status === 'empty' ? shown === '' : shown.includes(text);
}"""

#: Whether the radio at an element's centre is the element itself (nothing covers it).
UNCOVERED = """(radio) => {
  const box = radio.getBoundingClientRect();
  return document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2) === radio;
}"""


def write_notebook(path: Path) -> None:
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(source) for source in CELLS]
        + [nbformat.v4.new_markdown_cell("A cell below, for a stray arrow key to reach.")],
        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3"}},
    )
    nbformat.write(notebook, path)


def wait_for_feedback(page, exercise, status: str, text: str = "") -> str:
    page.wait_for_function(
        FEEDBACK_IS, arg=[exercise.element_handle(), status, text], timeout=15_000
    )
    return exercise.locator("[data-testid=feedback]").inner_text()


def overlap(a: dict, b: dict) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def test_number_and_choice_exercises_in_jupyterlab(browser, lab_url, workdir):
    write_notebook(workdir / "notebooks" / "exercise_hooks.ipynb")
    page = open_notebook(browser, lab_url, "exercise_hooks.ipynb")
    number = page.locator("[data-testid=exercise][data-kind=number]")
    number.wait_for(timeout=90_000)
    box = number.locator("[data-testid=answer-input]")
    assert box.get_attribute("placeholder") == "4 decimals or a fraction such as 2/3"
    assert number.locator("[data-testid=feedback]").get_attribute("data-status") == "empty"

    # Enter submits; 0.9 matches no mistake, so it is wrong without a name
    box.click()
    page.keyboard.type("0.9")
    page.keyboard.press("Enter")
    assert SLIP not in wait_for_feedback(page, number, "incorrect", "Not quite.")
    assert page.evaluate("document.activeElement?.dataset.testid") == "answer-input"

    # the article's printed 0.48 rounds to the slip, not to the truth: named, 4 decimals asked
    box.fill("0.48")
    page.keyboard.press("Enter")
    assert "give 4 decimals" in wait_for_feedback(page, number, "incorrect", SLIP)

    # the slip at the asked precision is named (the new answer first clears the old verdict)
    box.fill("0.4790")
    wait_for_feedback(page, number, "empty")
    page.keyboard.press("Enter")
    wait_for_feedback(page, number, "incorrect", SLIP)

    # one more character: the verdict is gone at once
    page.keyboard.type("1")
    wait_for_feedback(page, number, "empty")

    box.fill("0.28")
    page.keyboard.press("Enter")
    wait_for_feedback(page, number, "incomplete", "Right so far: give 4 decimals.")
    box.fill("0.2815")
    page.keyboard.press("Enter")
    wait_for_feedback(page, number, "correct", "Correct: 0.2815.")
    box.fill("0.5")  # a wrong answer typed after a right one: no stale "Correct"
    wait_for_feedback(page, number, "empty")

    # every check was appended to the learner's progress file, in order
    checks = [
        json.loads(line)
        for line in (workdir / "progress.jsonl").read_text(encoding="utf-8").splitlines()
        if json.loads(line)["notebook"] == "99"
    ]
    assert [(c["notebook"], c["exercise"], c["answer"], c["verdict"]) for c in checks] == [
        ("99", "1", "0.9", "incorrect"),
        ("99", "1", "0.48", "incorrect"),
        ("99", "1", "0.4790", "incorrect"),
        ("99", "1", "0.28", "incomplete"),
        ("99", "1", "0.2815", "correct"),
    ]

    # the choice exercise: long labels wrap, one per line, each radio in plain view
    choice = page.locator("[data-testid=exercise][data-kind=choice]")
    options = choice.locator("[data-testid=choice-option]")
    radios = options.locator("input[type=radio]")
    assert options.count() == radios.count() == len(OPTIONS)
    frame = choice.bounding_box()
    boxes = [options.nth(i).bounding_box() for i in range(len(OPTIONS))]
    for i, a in enumerate(boxes):
        assert a["x"] + a["width"] <= frame["x"] + frame["width"] + 0.5, "label overflows"
        assert a["height"] > 30, "a long label should wrap onto several lines"
        for b in boxes[i + 1 :]:
            assert not overlap(a, b), f"options overlap: {a} {b}"
    assert [b["y"] for b in boxes] == sorted(b["y"] for b in boxes)
    for i in range(len(OPTIONS)):
        radio = radios.nth(i)
        assert radio.is_visible()
        assert radio.bounding_box()["width"] >= 10
        assert radio.evaluate(UNCOVERED), f"radio {i} is covered"

    # the keyboard: arrows move within the group (not between notebook cells)
    cell = "window.jupyterapp.shell.currentWidget.content.activeCellIndex"
    radios.nth(0).focus()
    active_cell = page.evaluate(cell)  # the exercise's own cell
    page.keyboard.press("ArrowDown")
    page.wait_for_function(
        "(radio) => document.activeElement === radio && radio.checked",
        arg=radios.nth(1).element_handle(),
        timeout=15_000,
    )
    assert page.evaluate(cell) == active_cell
    page.keyboard.press("ArrowUp")
    assert radios.nth(0).is_checked()
    assert page.evaluate(cell) == active_cell
    radios.nth(2).focus()
    page.keyboard.press("Space")
    assert radios.nth(2).is_checked() and not radios.nth(0).is_checked()
    radios.nth(CORRECT).focus()
    page.keyboard.press("Enter")
    assert radios.nth(CORRECT).is_checked()

    choice.locator("[data-testid=check-button]").click()
    wait_for_feedback(page, choice, "correct", "Yes.")
    radios.nth(0).click()
    wait_for_feedback(page, choice, "empty")
    choice.locator("[data-testid=check-button]").click()
    wait_for_feedback(page, choice, "incorrect", "No.")

    toggle = choice.locator("[data-testid=solution-toggle]")
    solution = choice.locator("[data-testid=solution]")
    assert not solution.is_visible()
    toggle.click()
    solution.wait_for(state="visible", timeout=15_000)
    assert toggle.get_attribute("aria-expanded") == "true"
    assert solution.inner_text() == "The hits so far."

    # the arrangement exercise: help, its board, a live readout, Reset, the same hooks
    arrange = page.locator("[data-testid=exercise][data-kind=arrange]")
    items = arrange.locator("[data-testid=ranking-board] [data-testid=rank-item]")
    items.first.wait_for(timeout=15_000)
    assert "Check" in arrange.locator("[data-testid=arrange-help]").inner_text()
    readout = arrange.locator("[data-testid=arrange-readout]")
    wait_for_readout(page, readout, "AP = 0.3333 (target 1)")  # [0, 0, 1]: 1/3
    arrange.locator("[data-testid=check-button]").click()
    wait_for_feedback(page, arrange, "incorrect", "AP is 0.3333, below the target 1")
    arrange.locator('[data-doc="d3"]').focus()
    page.keyboard.press("Alt+ArrowUp")
    wait_for_feedback(page, arrange, "empty")  # moving a result clears the verdict
    wait_for_readout(page, readout, "AP = 0.5000 (target 1)")  # [0, 1, 0]: 1/2
    page.keyboard.press("Alt+ArrowUp")
    wait_for_readout(page, readout, "AP = 1.0000 (target 1) ✓")
    arrange.locator("[data-testid=check-button]").click()
    wait_for_feedback(page, arrange, "correct", "Correct: AP = 1.0000 (target 1).")

    # Reset: the starting order, its readout, no verdict
    arrange.locator("[data-testid=arrange-reset]").click()
    wait_for_readout(page, readout, "AP = 0.3333 (target 1)")
    wait_for_feedback(page, arrange, "empty")
    docs = items.evaluate_all("(nodes) => nodes.map((node) => node.dataset.doc)")
    assert docs == ["d1", "d2", "d3"]
    page.close()


def wait_for_readout(page, readout, text: str) -> None:
    page.wait_for_function(
        "([node, text]) => node.textContent.trim() === text",
        arg=[readout.element_handle(), text],
        timeout=15_000,
    )
