"""An exercise's answer table holds what its own ``check`` says, in its language, as JSON.

Each part of a table is compared with the exercise itself: the fixed sentences with the
verdicts ``check`` gives, the templates (filled here with
:func:`~mapteach.i18n.spacing.spaced_format`, as ``tr`` and the browser fill them:
``str.format``, a Chinese template's values spaced by the edition's rule) with the
messages ``check`` writes, the mistakes with the exercise's
``misconceptions``, a choice's and an arrangement's verdicts with ``check`` on each.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest

from mapteach.exercises import ArrangeExercise, ChoiceExercise, NumberExercise
from mapteach.exercises.answer_table import answer_table, piece
from mapteach.exercises.answers import TRUNCATED
from mapteach.exercises.widgets import UNRECORDED, feedback_html
from mapteach.i18n import tr
from mapteach.i18n.spacing import spaced_format as fill

DATA = {"labels": [1, 0, 1, 0, 0, 1], "n_relevant": 4, "k": None}
TRUTH = (1 / 1 + 2 / 3 + 3 / 6) / 4  # AP of DATA: precisions at the relevant ranks, over R


def ap_exercise(lang: str = "en", key: str | None = "03.1") -> NumberExercise:
    return NumberExercise.from_data(
        "AP?", TRUTH, "", kind="AP", measure="AP", data=DATA, key=key, lang=lang
    )


def the_mistake(exercise: NumberExercise, name: str):
    return next(wrong for wrong in exercise.misconceptions if wrong.name == name)


# ------------------------------------------------------------------------ numbers


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_number_table_holds_the_truth_the_precision_and_every_mistake(lang):
    exercise = ap_exercise(lang)
    table = answer_table(exercise)
    assert (table["kind"], table["truth"], table["decimals"]) == ("number", TRUTH, 4)
    assert table["measure"] == "AP" and table["truncated"] == TRUNCATED
    assert [(w["key"], w["value"]) for w in table["mistakes"]] == [
        (wrong.name, wrong.value) for wrong in exercise.misconceptions
    ]
    for entry, wrong in zip(table["mistakes"], exercise.misconceptions, strict=True):
        assert entry["name"]["text"] == tr(wrong.name, lang=lang)
        assert entry["explanation"]["text"] == wrong.explanation
        convention = entry["convention"]
        assert (convention is None) == (not wrong.convention)
    assert json.loads(json.dumps(table, allow_nan=False)) == table
    assert answer_table(exercise) == table  # the same exercise, the same table


def test_a_table_speaks_the_exercises_language_whatever_the_session_speaks():
    table = answer_table(ap_exercise("zh"))
    assert table["said"]["correct"]["text"] == fill(
        tr("Correct: {truth}.", lang="zh"), truth=f"{TRUTH:.4f}"
    )
    assert table["mistakes"][0]["name"]["text"] != table["mistakes"][0]["key"]
    assert table["templates"]["cut_off"]["one"] == table["templates"]["cut_off"]["other"]
    english = answer_table(ap_exercise("en"))["templates"]["cut_off"]
    assert english["one"] != english["other"]


def test_the_tolerances_are_the_precision_check_number_allows():
    tolerances = answer_table(ap_exercise())["tolerances"]
    assert len(tolerances) == 5
    for places, allowed in enumerate(tolerances):
        half = Fraction(1, 2 * 10**places)
        assert abs(Fraction(allowed) - half) < Fraction(1, 10**11)  # half a unit, and a hair


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_fixed_sentences_are_what_check_says(lang):
    exercise = ap_exercise(lang)
    said = answer_table(exercise)["said"]
    assert said["empty"]["text"] == exercise.check("").message
    assert said["correct"]["text"] == exercise.check(f"{TRUTH:.4f}").message
    assert said["incomplete"]["text"] == exercise.check(f"{TRUTH:.2f}").message
    unknown = exercise.check("0.0123")
    assert unknown.status == "incorrect" and not unknown.mistakes
    assert said["not_quite"]["text"] == unknown.message
    rounded_to_a_mistake = exercise.check(
        f"{the_mistake(exercise, 'forgot the missed relevant results').value:.2f}"
    )
    assert rounded_to_a_mistake.message.endswith(said["tell_apart"]["text"])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_decimals_only_table_says_what_check_says(lang):
    exercise = NumberExercise("nDCG?", 0.5249, [], "s", fraction=False, lang=lang)
    table = answer_table(exercise)
    assert table["asked"] == exercise.placeholder
    assert table["said"]["empty"]["text"] == exercise.check("").message
    assert table["said"]["not_quite"]["text"] == exercise.check("0.0123").message


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_templates_filled_give_checks_messages(lang):
    exercise = ap_exercise(lang)
    table = answer_table(exercise)
    templates = table["templates"]
    wrong = the_mistake(exercise, "forgot the missed relevant results")
    typed = f"{wrong.value:.4f}"
    lead = fill(templates["lead_slip"], answer=typed, name=tr(wrong.name, lang=lang))
    joined = fill(table["joiner"], sentence=lead, then=wrong.explanation)
    assert exercise.check(typed).message == joined
    outside = fill(
        templates["outside"],
        measure="AP",
        answer="1.5",
        hint=table["hint"]["text"],
        asked=table["asked"],
    )
    assert exercise.check("1.5").message == outside
    cut = f"{math.floor(TRUTH * 1000) / 1000:.3f}"  # 0.541: cut off, not rounded (0.542)
    sentence = fill(templates["cut_off"]["other"], answer=cut, n=3)
    assert exercise.check(cut).message == fill(
        table["joiner"], sentence=sentence, then=table["said"]["give"]["text"]
    )
    assert exercise.check(cut).mistakes == (table["truncated"],)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_reading_templates_give_what_an_unreadable_answer_is_told(lang):
    exercise = ap_exercise(lang)
    reading = answer_table(exercise)["reading"]
    cases = {
        "abc": fill(reading["unreadable"], answer="abc"),
        "三分之二": fill(reading["in_digits"], answer="三分之二"),
        "0.5,1": fill(reading["both_marks"], answer="0.5,1"),
        "1,234": fill(reading["ambiguous_comma"], answer="1,234", point="1.234", thousands="1234"),
        "1/0": fill(reading["divides_by_zero"], answer="1/0"),
    }
    long = "1" * 201
    cases[long] = fill(
        reading["too_long"],
        answer=long[: reading["shown_length"] - 1] + "…",
        n=201,
        longest=reading["longest"],
    )
    for typed, message in cases.items():
        feedback = exercise.check(typed)
        assert (feedback.status, feedback.message) == ("unreadable", message), typed


def test_a_piece_carries_html_only_where_a_formula_needs_it():
    assert piece("AP < 0.5 & more") == {"text": "AP < 0.5 & more"}
    text = "You took $\\frac{1}{4}$."
    assert piece(text) == {"text": text, "html": feedback_html(text)}
    assert "<mfrac>" in piece(text)["html"]
    exercise = NumberExercise("?", 0.5, [("quartered", 0.25, text)], "")
    (entry,) = answer_table(exercise)["mistakes"]
    assert entry["explanation"]["html"] == feedback_html(text)


def test_a_mistake_whose_value_is_not_a_number_is_left_out():
    exercise = NumberExercise("?", 0.5, [("nothing", math.nan, "No."), ("halved", 0.25, "")], "")
    assert [entry["key"] for entry in answer_table(exercise)["mistakes"]] == ["halved"]


def test_the_key_is_where_the_progress_file_records_a_check():
    table = answer_table(ap_exercise(key="03.1"))
    assert table["key"] == {"notebook": "03", "exercise": "1"}
    assert table["unrecorded"] == list(UNRECORDED)
    assert answer_table(ap_exercise(key=None))["key"] is None


def test_only_exercises_have_a_table():
    with pytest.raises(TypeError, match="number, choice or arrangement exercise; got object"):
        answer_table(object())  # type: ignore[arg-type]


# ----------------------------------------------------------------- choices, orders


def test_a_choice_table_holds_the_verdict_on_every_option_none_and_anything_else():
    exercise = ChoiceExercise(
        "Which?", {"AP": "Yes.", "P@3": "No: $\\frac{2}{3}$."}, correct="AP", solution_html=""
    )
    table = answer_table(exercise)
    assert (table["options"], table["correct"]) == (["AP", "P@3"], "AP")
    for option in exercise.options:
        feedback = exercise.check(option)
        assert table["verdicts"][option] == {
            "status": feedback.status,
            "message": piece(feedback.message),
            "mistakes": list(feedback.mistakes),
        }
    assert table["verdicts"]["P@3"]["mistakes"] == ["P@3"]
    assert table["empty"]["message"]["text"] == exercise.check("").message
    assert table["unreadable"]["status"] == "unreadable"
    assert table["unreadable"]["message"]["text"] == exercise.check("F1").message


def test_an_arrangement_table_holds_every_arrangement_and_its_verdict():
    exercise = ArrangeExercise("AP = 0.5", {"AP": 0.5, "P@2": 0.5}, 6, 2, key="06.1")
    start = [dict(item) for item in exercise.board.items]
    exercise.submit([1, 1, 0, 0, 0, 0])  # the board moves; the table's start stays
    table = answer_table(exercise)
    assert table["start"] == start and table["n_results"] == 6
    assert len(table["arrangements"]) == math.comb(6, 2)
    for key, entry in table["arrangements"].items():
        labels = [int(label) for label in key]
        assert len(labels) == 6 and sum(labels) == 2
        feedback = exercise.check(labels)
        assert (entry["status"], entry["message"]["text"]) == (feedback.status, feedback.message)
        assert set(entry) == {"status", "message", "mistakes"}  # the readouts are the widget's
    solved = "".join(map(str, exercise.solve() or []))
    assert table["arrangements"][solved]["status"] == "correct"
    wrong = fill(table["wrong_size"], n_results=6, n_relevant=2, n_got=3, n_got_relevant=1)
    assert exercise.check([1, 0, 0]).message == wrong
