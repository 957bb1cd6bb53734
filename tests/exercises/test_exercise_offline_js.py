"""The exercise's stand-in for the kernel (``static/exercise_offline.js``) does what the
kernel does: a new answer clears the verdict, Check shows the verdict Python gives and
records the check as Python records it, a move of an arrangement's board clears its verdict
(and sets no readout: the view shows it from ``readouts``), and Reset brings the starting
order back.

The stand-in runs in headless Chromium, loaded as the site loads it (a classic script
registering ``window.mapteachModules.exercise_offline``), on models that keep the shim's
contract (``get``, ``set`` firing ``change:name``, ``save_changes`` calling the stand-in
with the names the view set, ``widget_manager.get_model``), made from the exercise's own
state as the page holds it (``offline_state`` with its answer table); each step's traits
and the checks recorded come back as JSON and are compared with the Python exercise.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mapteach.exercises import ArrangeExercise, ChoiceExercise, NumberExercise
from mapteach.exercises.answer_table import answer_table
from mapteach.exercises.widgets import feedback_html
from mapteach.offline import as_classic, bundle_imports, offline_state

pytestmark = pytest.mark.browser

STATIC = Path(__file__).parents[2] / "mapteach" / "exercises" / "static"
STAND_IN = as_classic(bundle_imports(STATIC / "exercise_offline.js"), "exercise_offline")

#: Runs steps on an exercise's models: each step sets traits on a model as a view does
#: (then saves them) and reports the exercise's verdict, readout and the checks recorded.
_DRIVER = r"""async ({ state, steps, refusal }) => {
  const standIn = window.mapteachModules.exercise_offline;
  const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

  class Model {
    constructor(attributes, manager, module) {
      Object.assign(this, { attributes: { ...attributes }, handlers: {}, pending: new Set() });
      Object.assign(this, { widget_manager: manager, module });
    }
    get(name) { return this.attributes[name]; }
    set(name, value) {
      const changes = typeof name === "object" ? name : { [name]: value };
      for (const [trait, value] of Object.entries(changes)) {
        if (JSON.stringify(this.attributes[trait]) === JSON.stringify(value)) continue;
        this.attributes[trait] = value;
        this.pending.add(trait);
        for (const handler of this.handlers[`change:${trait}`] ?? []) handler(this, value);
      }
    }
    save_changes() {
      const names = [...this.pending];
      this.pending.clear();
      if (this.module === "exercise") standIn.standIn(this, names, context);
    }
    on(events, callback) {
      for (const event of events.split(" ")) (this.handlers[event] ??= []).push(callback);
    }
  }

  const records = [];
  const context = {
    texts: {},
    record(check) {
      records.push(check);
      return refusal ? { saved: false, message: refusal } : { saved: true, message: "" };
    },
  };
  const models = {};
  const manager = { get_model: async (id) => models[id] };
  for (const [id, child] of Object.entries(state.children)) {
    models[id] = new Model(child.model, manager, child.module);
  }
  const exercise = new Model(state.model, manager, state.module);
  standIn.attach(exercise, context);
  await turn();

  const report = [];
  for (const step of steps) {
    const model = step.board ? models[exercise.get("board").slice("IPY_MODEL_".length)] : exercise;
    const changes = { ...step.set };
    for (const name of step.count ?? []) changes[name] = model.get(name) + 1;
    model.set(changes);
    model.save_changes();
    await turn();
    const board = models.c0;
    report.push({
      status: exercise.get("status"),
      feedback: exercise.get("feedback"),
      feedback_html: exercise.get("feedback_html"),
      set: Object.keys(exercise.attributes).filter((name) => !(name in state.model)),
      labels: board ? board.get("items").map((item) => (item.relevant ? 1 : 0)) : null,
      records: records.splice(0),
    });
  }
  return report;
}"""


@pytest.fixture(scope="module")
def page(chromium):
    """A blank page with the stand-in on it, as the site's page runtime inlines it."""
    page = chromium.new_page()
    page.set_content(f"<!DOCTYPE html><html><head><script>{STAND_IN}</script></head></html>")
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    page.close()
    assert errors == []


def run(page, exercise, steps: list[dict[str, Any]], refusal: str = "") -> list[dict[str, Any]]:
    """Each step's result (see ``_DRIVER``) on ``exercise``'s state as the page holds it."""
    state = offline_state(exercise, answer_table=answer_table(exercise))
    steps_done: list[dict[str, Any]] = page.evaluate(
        _DRIVER, {"state": state, "steps": steps, "refusal": refusal}
    )
    return steps_done


def shown(exercise, answer) -> dict[str, str]:
    feedback = exercise.check(answer)
    return {
        "status": feedback.status,
        "feedback": feedback.message,
        "feedback_html": feedback_html(feedback.message),
    }


EMPTY = {"status": "empty", "feedback": "", "feedback_html": ""}


def verdict(step: dict[str, Any]) -> dict[str, str]:
    return {name: step[name] for name in ("status", "feedback", "feedback_html")}


def test_a_number_exercise_is_judged_recorded_and_cleared_as_the_kernel_does(page):
    exercise = NumberExercise(
        "1/2?", 0.5, [("halved", 0.25, "You took $\\frac{1}{4}$.")], "", key="99.1"
    )
    steps = [
        {"set": {"answer": "0.25"}},
        {"count": ["check_request"]},
        {"set": {"answer": "0.2"}},
        {"set": {"answer": "1/2"}, "count": ["check_request"]},
        {"set": {"answer": "abc"}, "count": ["check_request"]},
        {"set": {"answer": ""}, "count": ["check_request"]},
    ]
    typed, checked, changed, right, unreadable, empty = run(page, exercise, steps)
    assert verdict(typed) == EMPTY and typed["records"] == []
    assert verdict(checked) == shown(exercise, "0.25")
    assert "<mfrac>" in checked["feedback_html"]
    mistake = exercise.check("0.25").misconception
    assert mistake == "halved"
    assert checked["records"] == [
        {
            "notebook": "99",
            "exercise": "1",
            "answer": "0.25",
            "verdict": "incorrect",
            "mistake": mistake,
        }
    ]
    assert verdict(changed) == EMPTY and changed["records"] == []
    assert verdict(right) == shown(exercise, "1/2")
    assert right["records"] == [
        {"notebook": "99", "exercise": "1", "answer": "1/2", "verdict": "correct"}
    ]
    assert verdict(unreadable) == shown(exercise, "abc") and unreadable["records"] == []
    assert verdict(empty) == shown(exercise, "") and empty["records"] == []


def test_a_check_the_browser_could_not_keep_says_so_after_the_verdict(page):
    exercise = NumberExercise("1/2?", 0.5, [], "", key="99.1")
    refusal = "Type your name at the top of the page to keep your checks."
    (checked,) = run(
        page, exercise, [{"set": {"answer": "0.5"}, "count": ["check_request"]}], refusal
    )
    assert checked["status"] == "correct"
    assert checked["feedback"] == f"Correct: 0.5000. {refusal}"
    assert checked["feedback_html"] == checked["feedback"]
    assert len(checked["records"]) == 1


def test_an_exercise_without_a_key_records_nothing(page):
    exercise = NumberExercise("1/2?", 0.5, [], "")
    (checked,) = run(page, exercise, [{"set": {"answer": "0.5"}, "count": ["check_request"]}])
    assert checked["status"] == "correct" and checked["records"] == []


def test_a_choice_is_judged_and_recorded_by_its_option(page):
    exercise = ChoiceExercise(
        "Which?", {"AP": "Yes.", "P@3": "No."}, correct="AP", solution_html="", key="99.2"
    )
    steps = [{"set": {"answer": "P@3"}, "count": ["check_request"]}, {"set": {"answer": "AP"}}]
    wrong, changed = run(page, exercise, steps)
    assert verdict(wrong) == shown(exercise, "P@3")
    named = exercise.check("P@3").misconception
    assert wrong["records"] == [
        {
            "notebook": "99",
            "exercise": "2",
            "answer": "P@3",
            "verdict": "incorrect",
            "mistake": named,
        }
    ]
    assert verdict(changed) == EMPTY


def test_an_arrangement_is_cleared_by_its_board_judged_and_reset(page):
    exercise = ArrangeExercise("AP = 1", {"AP": 1.0, "P@1": 1.0}, 4, 1, key="99.3")
    start = exercise.board.labels
    items = [dict(item) for item in exercise.board.items]
    top = [items[-1], *items[:-1]]  # the relevant result dragged to the top
    steps = [
        {"count": ["check_request"]},
        {"board": True, "set": {"items": top}},
        {"count": ["check_request"]},
        {"count": ["reset_request"]},
    ]
    at_start, moved, checked, reset = run(page, exercise, steps)
    assert verdict(at_start) == shown(exercise, start)
    assert at_start["records"] == [
        {"notebook": "99", "exercise": "3", "answer": str(start), "verdict": "incorrect"}
    ]
    assert verdict(moved) == EMPTY and moved["labels"] == [1, 0, 0, 0]
    assert moved["set"] == []  # the stand-in sets no trait the kernel does not (no readout)
    assert verdict(checked) == shown(exercise, [1, 0, 0, 0])
    assert checked["status"] == "correct"
    assert checked["records"][0]["answer"] == "[1, 0, 0, 0]"
    assert reset["labels"] == start and verdict(reset) == EMPTY
