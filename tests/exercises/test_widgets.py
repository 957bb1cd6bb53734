"""Exercise widgets: the verdict follows the answer on screen, answering in code does what
the Check button does (and records the same), formulas render as MathML, and every id on a
page is unique however many exercises it holds. The view (``static/exercise.js``, the
bundle JupyterLab loads) runs in Chromium on models that keep anywidget's contract: an
arrangement's readout follows its board there, with nothing sent to the kernel."""

from __future__ import annotations

import json
import math
import re

import pytest
import traitlets
from hypothesis import assume, given
from hypothesis import strategies as st

from mapteach.classroom import forget_learner
from mapteach.exercises import ArrangeExercise, ChoiceExercise, NumberExercise
from mapteach.exercises.answer_table import answer_table
from mapteach.exercises.arrange_widget import arrangement_key
from mapteach.exercises.math_markup import MathMarkupError
from mapteach.exercises.widgets import UNRECORDED, Exercise, feedback_html
from mapteach.explain.ap_trace import explain_ap
from mapteach.metrics import average_precision
from mapteach.offline import as_classic
from tests.reference import reference_ap

HALVED = ("halved", 0.25, "You halved it.")


def number(key: str | None = "99.1", **kwargs) -> NumberExercise:
    return NumberExercise("1/2?", 0.5, [HALVED], "1/2", key=key, **kwargs)


@pytest.fixture
def progress(tmp_path, monkeypatch):
    """The progress file this test's checks go to; read back as a list of records."""
    path = tmp_path / "progress.jsonl"
    monkeypatch.setenv("MAPTEACH_PROGRESS", str(path))
    forget_learner()

    def records() -> list[dict[str, str]]:
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]

    return records


def without_time(records: list[dict[str, str]]) -> list[dict[str, str]]:
    return [{key: value for key, value in r.items() if key != "time"} for r in records]


def static_part(html: str) -> str:
    """What an exercise's fallback shows where nothing runs (beside its state as JSON)."""
    return html.split('<div class="mapteach-offline-static">', 1)[1]


# ------------------------------------------------------------- the verdict on screen


def test_feedback_follows_checks_and_clears_when_the_answer_changes():
    exercise = number()
    assert (exercise.kind, exercise.status, exercise.feedback) == ("number", "empty", "")
    exercise.answer = "0.25"
    exercise.check_request += 1
    assert exercise.status == "incorrect"
    assert "halved" in exercise.feedback and "halved" in exercise.feedback_html
    exercise.answer = "0.251"  # one more keystroke
    assert (exercise.status, exercise.feedback, exercise.feedback_html) == ("empty", "", "")
    exercise.answer = "0.5"
    exercise.check_request += 1
    assert (exercise.status, exercise.feedback) == ("correct", "Correct: 0.5000.")


def test_a_check_from_the_browser_judges_the_answer_it_arrived_after():
    exercise = number()
    exercise.set_state({"answer": "0.5"})  # as the browser's messages arrive
    exercise.set_state({"check_request": 1})
    assert exercise.status == "correct"
    exercise.set_state({"answer": "0.50001"})
    assert exercise.status == "empty"
    for message in ({"answer": "0.5", "check_request": 2}, {"check_request": 3, "answer": "1"}):
        exercise.set_state(message)  # one message with both: the verdict is the new answer's
        assert exercise.status == ("correct" if message["answer"] == "0.5" else "incorrect")


def test_widget_traits_are_validated():
    exercise = number()
    with pytest.raises(traitlets.TraitError, match="status must be one of correct, incorrect"):
        exercise.status = "right"
    exercise.check_request = 3
    with pytest.raises(traitlets.TraitError, match="only goes up; got 2 after 3"):
        exercise.check_request = 2
    with pytest.raises(traitlets.TraitError):
        exercise.kind = "choice"
    with pytest.raises(ValueError, match="decimals must be >= 0; got -1"):
        number(decimals=-1)
    with pytest.raises(ValueError, match=r"key must look like '03\.2'"):
        number(key="03")


def test_a_wrong_answer_equal_to_the_right_one_is_not_recognised():
    close = NumberExercise("?", 0.28154, [("near", 0.28151, ""), ("far", 0.3, "")], "")
    assert [wrong.name for wrong in close.misconceptions] == ["far"]


# ------------------------------------------------------------- answering in code


def test_submit_shows_the_answer_and_its_verdict_and_records_it_once(progress):
    exercise = number()
    feedback = exercise.submit("0.25")
    assert feedback == exercise.check("0.25")
    assert (exercise.answer, exercise.status, exercise.feedback) == (
        "0.25",
        "incorrect",
        feedback.message,
    )
    assert without_time(progress()) == [
        {
            "learner": "",
            "notebook": "99",
            "exercise": "1",
            "answer": "0.25",
            "verdict": "incorrect",
            "mistake": feedback.misconception,
        }
    ]
    assert feedback.misconception is not None
    assert exercise.submit(0.5).correct and exercise.answer == "0.5"
    assert [r["verdict"] for r in progress()] == ["incorrect", "correct"]


@pytest.mark.parametrize("typed", ["", "   ", "abc", "0.5.5"])
def test_empty_and_unreadable_answers_are_shown_but_never_recorded(progress, typed):
    exercise = number()
    for feedback in (exercise.submit(typed), exercise.check(typed)):
        assert feedback.status in UNRECORDED
    exercise.answer = typed
    exercise.check_request += 1  # the button, too
    assert exercise.status in UNRECORDED and exercise.feedback
    assert progress() == []
    exercise.submit("0.5")
    assert len(progress()) == 1


def test_the_button_and_submit_record_the_same(progress):
    for answer in ("0.25", "1/2", "0.3"):
        exercise = number()
        exercise.answer = answer
        exercise.check_request += 1
        by_button = exercise.status, exercise.feedback
        assert (exercise.submit(answer).status, exercise.feedback) == by_button
    records = without_time(progress())
    assert records[0::2] == records[1::2] and len(records) == 6
    choice = ChoiceExercise(
        "?", {"a": "Yes.", "b": "No."}, correct="a", solution_html="", key="99.2"
    )
    choice.answer = "b"
    choice.check_request += 1
    choice.submit("b")
    assert [(r["exercise"], r["answer"]) for r in progress()[-2:]] == [("2", "b")] * 2


def test_an_exercise_without_a_key_records_nothing(progress):
    assert number(key=None).submit("0.5").correct
    assert progress() == []


def test_a_choice_answered_in_code(progress):
    choice = ChoiceExercise(
        "?", {"a": "Yes.", "b": "No."}, correct="a", solution_html="", key="9.1"
    )
    assert choice.submit("a").correct and choice.answer == "a"
    unknown = choice.submit("c")  # not an option: nothing is picked, nothing recorded
    assert (unknown.status, choice.answer, choice.status) == ("unreadable", "", "unreadable")
    assert "Choose one of: a, b" in unknown.message
    assert [r["answer"] for r in progress()] == ["a"]


def test_the_static_text_and_the_repr_say_to_submit():
    for exercise in (
        number(),
        ChoiceExercise("Pick", {"a <b>": "Yes."}, correct="a <b>", solution_html="a"),
        ArrangeExercise("AP = 1", {"AP": 1.0}, 3, 1),
    ):
        data, _ = exercise._repr_mimebundle_()
        assert "<details><summary>Show solution</summary>" in data["text/html"]
        assert "<code>exercise.submit(your_answer)</code>" in data["text/html"]
        assert ".check(" not in data["text/html"]
        assert "exercise.submit(your_answer)" in repr(exercise)
        assert data["text/plain"].startswith("Exercise: ")
        assert "application/vnd.jupyter.widget-view+json" in data
    data, _ = number()._repr_mimebundle_()
    assert "Answer with 4 decimals or a fraction such as 2/3." in data["text/html"]
    data, _ = ChoiceExercise(
        "P", {"a <b>": ""}, correct="a <b>", solution_html=""
    )._repr_mimebundle_()
    assert "<li>a &lt;b&gt;</li>" in data["text/html"]


def test_the_static_text_speaks_the_exercises_language():
    data, _ = number(lang="zh")._repr_mimebundle_()
    assert re.search(r"[\u4e00-\u9fff]", static_part(data["text/html"]).split("<details>")[0])
    assert "<code>exercise.submit(你的答案)</code>" in data["text/html"]  # one form in Chinese
    assert "exercise.submit(你的答案)" in repr(number(lang="zh"))


def test_the_static_text_says_the_answer_format_once():
    asked = NumberExercise("What is AP? Give 4 decimals or a fraction.", 0.5, [], "1/2")
    unasked = NumberExercise("How many documents?", 3, [], "3", decimals=0)
    for exercise, said in ((asked, "decimals or a fraction"), (unasked, "a whole number")):
        static = static_part(exercise._repr_mimebundle_()[0]["text/html"]).split("<details>")[0]
        assert static.count(said) == 1
    chinese = NumberExercise("它的 AP 是多少？请给出 4 位小数。", 0.5, [], "1/2", lang="zh")
    static = static_part(chinese._repr_mimebundle_()[0]["text/html"]).split("<details>")[0]
    assert static.count("位小数") == 1
    whole = NumberExercise("要标注多少篇文档？", 3, [], "3", decimals=0, lang="zh")
    static = static_part(whole._repr_mimebundle_()[0]["text/html"]).split("<details>")[0]
    assert "<p>请用一个整数作答。</p>" in static  # spaced by the rule: no space beside it


def test_an_exercise_asking_for_decimals_only_does_not_offer_a_fraction():
    exercise = NumberExercise("nDCG? Give 4 decimals.", 0.5249, [], "s", fraction=False)
    assert exercise.placeholder == "4 decimals"
    assert NumberExercise("AP?", 0.5, [], "s").placeholder == "4 decimals or a fraction such as 2/3"
    assert exercise.check("2/3").status == "incorrect"  # a typed fraction is still read


def live_state(html: str) -> dict:
    """The state a page without a kernel runs an exercise's fallback with."""
    found = re.search(r"<script type=\"application/json\" data-mapteach-state>(.*?)</script>", html)
    assert found, html[:200]
    return json.loads(found[1])


def test_the_fallback_carries_the_state_and_answer_table_a_page_runs_live():
    for exercise in three_exercises():
        html = exercise._repr_mimebundle_()[0]["text/html"]
        assert html.startswith('<div class="mapteach-offline" data-module="exercise" lang="en">')
        assert html == exercise._repr_mimebundle_()[0]["text/html"]  # nbval compares it
        state = live_state(html)
        model = state["model"]
        assert state["module"] == "exercise" and model["kind"] == exercise.kind
        assert model["answer_table"] == json.loads(json.dumps(answer_table(exercise)))
        assert (model["prompt"], model["solution"]) == (exercise.prompt, exercise.solution)
        assert "_esm" not in model and "layout" not in model
        assert 'class="mapteach-exercise-static"' in static_part(html)
    arrange = three_exercises()[2]
    state = live_state(arrange._repr_mimebundle_()[0]["text/html"])
    assert state["model"]["board"] == "IPY_MODEL_c0"
    assert state["children"]["c0"]["module"] == arrange.board.offline_module
    assert state["children"]["c0"]["model"]["items"] == arrange.board.items
    assert (
        live_state(number(lang="zh")._repr_mimebundle_()[0]["text/html"])["model"]["texts"]["lang"]
        == "zh-Hans"
    )


# ------------------------------------------------------------------------ math


def test_a_solution_in_tex_is_shown_as_mathml_everywhere():
    top = [1, 1, 1, 0, 0, 0, 0, 0]  # notebook 06's exercise 06.2
    markdown = explain_ap(top, n_relevant=5).markdown
    assert "$$" in markdown and "\\frac" in markdown  # what the learner saw as text
    exercise = NumberExercise("R = 5?", average_precision(top, n_relevant=5), [], markdown)
    static = static_part(exercise._repr_mimebundle_()[0]["text/html"])
    for shown in (exercise.solution, static):
        assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">' in shown
        assert "$" not in shown and "\\frac" not in shown and "\\mathrm" not in shown
    assert shown.count("<mfrac>") == markdown.count("\\frac")


def test_formulas_in_prompts_replies_and_explanations_render():
    choice = ChoiceExercise(
        "Is $P@3 = \\frac{2}{3}$?",
        {"yes": "Yes: $\\frac{2}{3}$.", "no": "No."},
        correct="yes",
        solution_html="",
    )
    assert "<math" in choice.prompt and "$" not in choice.prompt
    assert "$" in repr(choice)  # the plain text keeps the TeX source
    choice.submit("yes")
    assert choice.feedback == "Yes: $\\frac{2}{3}$."  # the text, as given
    assert choice.feedback_html.startswith("Yes: <math") and "\\frac" not in choice.feedback_html
    exercise = NumberExercise("?", 0.5, [("halved", 0.25, "You took $\\frac{1}{4}$.")], "")
    exercise.submit("0.25")
    assert "<mfrac>" in exercise.feedback_html and "$" not in exercise.feedback_html


def test_a_formula_that_cannot_be_shown_fails_when_the_exercise_is_made():
    broken = "$\\frac{1}{$"
    with pytest.raises(MathMarkupError, match=re.escape("'\\\\frac{1}{'")):
        NumberExercise("?", 0.5, [], broken)
    with pytest.raises(MathMarkupError):
        NumberExercise("?", 0.5, [("halved", 0.25, broken)], "")
    with pytest.raises(MathMarkupError):
        ChoiceExercise("?", {"a": broken}, correct="a", solution_html="")


def test_what_the_learner_typed_is_escaped_and_never_breaks_the_verdict():
    exercise = number()
    feedback = exercise.submit("<b>$x^$</b>")  # not a number, and no formula either
    assert feedback.status == "unreadable"
    assert "<b>" not in exercise.feedback_html and "&lt;b&gt;" in exercise.feedback_html
    assert feedback_html("a < b") == "a &lt; b"


# ----------------------------------------------------------------- ids on a page


def ids_in(markup: str) -> list[str]:
    return re.findall(r'\bid="([^"]*)"', markup)


def three_exercises() -> list:
    top = [1, 1, 1, 0, 0, 0, 0, 0]
    return [
        NumberExercise("?", 0.6, [], explain_ap(top, n_relevant=5).markdown, key="99.1"),
        ChoiceExercise("?", {"a": "Yes.", "b": "No."}, correct="a", solution_html="a"),
        ArrangeExercise("AP = 0.5", {"AP": 0.5}, 8, 3),
    ]


def test_the_static_pages_of_three_exercises_share_no_id():
    page = "".join(exercise._repr_mimebundle_()[0]["text/html"] for exercise in three_exercises())
    ids = ids_in(page)
    assert len(ids) == len(set(ids))


#: Renders exercise views on models that keep anywidget's contract (``get``, ``set`` firing
#: ``change:name``, ``save_changes``, ``on``/``off``, ``widget_manager``); every board is
#: one model, shown by a stand-in view. ``window.views`` holds each model, its board and
#: its host; ``window.saved`` the names each exercise sent to the kernel.
VIEW_HARNESS = """
class Model {
  constructor(attributes, key) {
    Object.assign(this, { attributes: { ...attributes }, key, handlers: {}, pending: [] });
    this.widget_manager = window.manager;
  }
  get(name) { return this.attributes[name]; }
  set(name, value) {
    this.attributes[name] = value;
    this.pending.push(name);
    for (const handler of this.handlers[`change:${name}`] ?? []) handler(this, value);
  }
  save_changes() { (window.saved[this.key] ??= []).push(...this.pending.splice(0)); }
  on(events, handler) {
    for (const event of events.split(" ")) (this.handlers[event] ??= []).push(handler);
  }
  off(events, handler) {
    for (const event of events.split(" ")) {
      this.handlers[event] = (this.handlers[event] ?? []).filter((h) => h !== handler);
    }
  }
}
window.saved = {};
window.boards = {};
window.manager = {
  get_model: async (id) => window.boards[id],
  create_view: async (board) => {
    const el = document.createElement("div");
    el.dataset.testid = "ranking-board";
    return { el, remove() { el.remove(); } };
  },
};
window.showViews = async (states) => {
  window.views = [];
  for (const [index, state] of states.entries()) {
    if (state.board) {
      const id = state.board.slice("IPY_MODEL_".length);
      window.boards[id] = new Model({ items: state.board_items }, id);
    }
    const model = new Model(state, `exercise${index}`);
    const host = document.createElement("div");
    document.body.append(host);
    window.mapteachModules.exercise.default.render({ model, el: host });
    window.views.push({ model, host });
  }
  await new Promise((resolve) => setTimeout(resolve, 0));
};
"""

#: What each view shows: its ids, the ids it refers to, its hooks and what they hold.
READ_VIEWS = """() => window.views.map(({ host }) => {
  const nodes = [...host.querySelectorAll("*")];
  const hook = (id) => host.querySelector(`[data-testid=${id}]`);
  return {
    ids: nodes.map((n) => n.id).filter(Boolean),
    controls: nodes.map((n) => n.getAttribute("aria-controls")).filter(Boolean),
    radio_names: [...new Set([...host.querySelectorAll("input[type=radio]")].map((n) => n.name))],
    testids: nodes.map((n) => n.dataset.testid).filter(Boolean),
    feedback_html: hook("feedback").innerHTML,
    feedback_status: hook("feedback").dataset.status,
    readout: hook("arrange-readout")?.textContent ?? null,
    help: hook("arrange-help")?.textContent ?? null,
  };
})"""


def view_state(exercise: Exercise) -> dict:
    """The exercise's state as the kernel sends it, with its board's items (if it has one)."""
    state = exercise.get_state()
    state.pop("_esm", None), state.pop("_css", None)
    board = getattr(exercise, "board", None)
    return {**state, "board_items": board.items if board is not None else None}


@pytest.fixture(scope="module")
def view_page(chromium):
    """A page with the exercise view as JupyterLab loads it (its ``_esm`` bundle)."""
    context = chromium.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    view = as_classic(str(Exercise._esm), "exercise")
    page.set_content(f"<!DOCTYPE html><html><head><script>{view}</script></head><body></body>")
    page.add_script_tag(content=VIEW_HARNESS)
    yield page
    context.close()
    assert errors == []


def show_views(page, exercises: list[Exercise], **changes) -> list[dict]:
    states = [view_state(exercise) for exercise in exercises]
    states[0].update(changes)
    page.evaluate("document.body.replaceChildren(); window.saved = {}")
    page.evaluate("(states) => window.showViews(states)", states)
    views: list[dict] = page.evaluate(READ_VIEWS)
    return views


@pytest.mark.browser
def test_the_views_of_three_exercises_share_no_id(view_page):
    exercises = three_exercises()
    views = show_views(
        view_page, exercises, status="unreadable", feedback_html="Type <math></math>"
    )
    ids = [i for view in views for i in view["ids"]]
    assert len(ids) == len(set(ids)) == 3  # one solution panel each, unique on the page
    for view in views:
        assert set(view["controls"]) <= set(ids)
        assert "feedback" in view["testids"] and "check-button" in view["testids"]
    names = [name for view in views for name in view["radio_names"]]
    assert len(names) == len(set(names)) == 1
    assert (views[0]["feedback_status"], views[0]["feedback_html"]) == (
        "unreadable",
        "Type <math></math>",
    )
    arrange = views[2]
    assert {"arrange-help", "arrange-readout", "arrange-reset", "ranking-board"} <= set(
        arrange["testids"]
    )
    assert arrange["readout"] == exercises[2].readout and "AP = " in arrange["readout"]
    assert arrange["help"].startswith("Drag a result")
    view_page.locator("[data-testid=arrange-reset]").click()
    assert view_page.evaluate("window.saved.exercise2") == ["reset_request"]


@pytest.mark.browser
def test_the_readout_follows_the_board_in_the_browser_alone(view_page):
    task = ArrangeExercise("AP = 0.5", {"AP": 0.5, "P@2": 0.5}, 6, 2)
    show_views(view_page, [task])
    relevant = [item for item in task.board.items if item["relevant"]]
    other = [item for item in task.board.items if not item["relevant"]]
    for labels in ([1, 0, 0, 0, 0, 1], [0, 1, 1, 0, 0, 0], [1, 1, 0, 0, 0, 0]):
        mine, theirs = iter(relevant), iter(other)
        items = [next(mine) if label else next(theirs) for label in labels]
        view_page.evaluate(  # as a drag sets the board's items
            "(items) => window.boards[Object.keys(window.boards).at(-1)].set('items', items)",
            items,
        )
        shown = view_page.locator("[data-testid=arrange-readout]").inner_text()
        ap, p2 = reference_ap(labels), sum(labels[:2]) / 2
        expected = f"AP = {ap:.4f} (target 0.5)" + (" ✓" if ap == 0.5 else "")
        expected += f" · P@2 = {p2:.4f} (target 0.5)" + (" ✓" if p2 == 0.5 else "")
        assert shown == expected == task.readouts[arrangement_key(labels)]
    assert view_page.evaluate("window.saved") == {}  # nothing sent to the kernel


# ---------------------------------------------- the exercise's check, as properties

UNIT = st.floats(min_value=0, max_value=1, allow_nan=False)
ASKED = st.integers(min_value=1, max_value=7)


@given(
    truth=UNIT,
    wrongs=st.lists(st.floats(min_value=0, max_value=2), max_size=4),
    value=st.floats(min_value=0, max_value=2),
    asked=ASKED,
    given_decimals=st.integers(min_value=1, max_value=9),
)
def test_a_number_far_from_every_known_value_is_never_named(
    truth, wrongs, value, asked, given_decimals
):
    typed = f"{value:.{given_decimals}f}"
    # an under-precise answer of 2 decimals or more is read at its own decimals
    own = given_decimals if 2 <= given_decimals < asked else asked
    assume(all(abs(float(typed) - x) > 10.0**-own for x in [truth, *wrongs]))
    wrong = [(f"m{i}", w, "") for i, w in enumerate(wrongs)]
    feedback = NumberExercise("?", truth, wrong, "", decimals=asked).check(typed)
    assert feedback.misconception is None
    assert feedback.status in {"incorrect", "incomplete"}


@given(
    truth=UNIT,
    wrongs=st.lists(UNIT, max_size=4),
    value=UNIT,
    asked=ASKED,
    given_decimals=st.integers(min_value=0, max_value=9),
)
def test_a_named_mistake_matches_at_the_asked_precision_and_the_truth_does_not(
    truth, wrongs, value, asked, given_decimals
):
    typed = f"{value:.{given_decimals}f}"
    wrong = [(f"m{i}", w, "") for i, w in enumerate(wrongs)]
    feedback = NumberExercise("?", truth, wrong, "", decimals=asked).check(typed)
    half = 0.5 * 10.0**-asked
    for name in feedback.mistakes:
        if name == "truncated instead of rounded":  # the truth's digits, cut off
            cut = math.floor(truth * 10**given_decimals + 1e-9) / 10**given_decimals
            assert float(typed) == pytest.approx(cut, abs=1e-12)
            continue
        distance = abs(float(typed) - wrongs[int(name[1:])])
        under = 2 <= given_decimals < asked and distance <= 0.5 * 10.0**-given_decimals + 1e-12
        assert distance <= half + 1e-12 or under
        assert abs(float(typed) - truth) > half


@given(truth=UNIT, asked=ASKED)
def test_the_truth_rounded_to_the_asked_decimals_is_correct(truth, asked):
    assert NumberExercise("?", truth, [], "", decimals=asked).submit(f"{truth:.{asked}f}").correct


def test_a_hand_written_exercise_exposes_its_measure_and_data():
    data = {"labels": [0, 1], "n_relevant": 1, "k": None}
    exercise = NumberExercise("AP of [0, 1]?", 0.5, [], "1/2", measure="AP", data=data)
    assert (exercise.measure, exercise.data, exercise.mistake_kind) == ("AP", data, None)
    assert exercise.data is not data  # a copy: the caller's dict may change
    assert "AP lies between 0 and 1" in exercise.check("-0.5").message
    plain = NumberExercise("How many documents?", 12, [], "12", decimals=0)
    assert (plain.measure, plain.data) == (None, None)
    assert "lies between" not in plain.check("-3").message


def test_the_key_is_the_pages_data_key_hook():
    from mapteach.exercises import ap_exercise

    assert ap_exercise([0, 1], key="99.1").exercise_key == "99.1"
    assert ap_exercise([0, 1]).exercise_key == ""
