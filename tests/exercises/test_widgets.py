"""Exercises judge answers by one rule, name only the mistakes an answer really matches,
and their widgets keep the verdict in step with the answer on screen."""

from __future__ import annotations

from decimal import Decimal

import pytest
import traitlets
from hypothesis import assume, given
from hypothesis import strategies as st

from mapteach import average_precision, get_example
from mapteach.exercises.answers import Feedback, check_number, parse_answer
from mapteach.exercises.factories_ap import ap_exercise, map_exercise, precision_exercise
from mapteach.exercises.misconceptions import (
    ap_sum_over_list_length,
    final_hits_in_every_numerator,
    mean_precision_over_all_ranks,
)
from mapteach.exercises.widgets import ArrangeExercise, ChoiceExercise, NumberExercise

LATE = get_example("001_legal_late").labels  # AP 0.2815; article 001 printed 0.48
SLIP = "final hit count in every numerator"

# ---------------------------------------------------------------- the rule


def test_article_001_erratum_is_recognised_at_the_asked_precision():
    exercise = ap_exercise(LATE)
    assert round(final_hits_in_every_numerator(LATE), 4) == 0.4790
    for typed in ("0.4790", "0.479", 0.479, "0.47897", "47.90%"):  # 0.479 is 0.4790
        feedback = exercise.check(typed)
        assert (feedback.status, feedback.misconception) == ("incorrect", SLIP), typed
    feedback = exercise.check("0.48")  # under-precise: matches the slip only loosely
    assert (feedback.status, feedback.misconception) == ("incorrect", None)
    for typed in ("0.2815", "0.28155", 0.2815476190476, "28.15%", "0.28150"):
        assert exercise.check(typed).correct, typed


def test_the_learners_reports():
    exercise = ap_exercise(LATE)
    wrong = exercise.check("0.5")  # exact and wrong: not "not precise enough"
    assert wrong.status == "incorrect"
    assert "precise" not in wrong.message
    assert wrong.message.startswith("Not quite. Trace it rank by rank")
    assert exercise.check("1.0").status == "incorrect"
    short = exercise.check("0.28")  # right so far, but 4 decimals were asked for
    assert (short.status, short.message) == ("incomplete", "Right so far: give 4 decimals.")
    assert exercise.check("0.3").status == "incomplete"
    assert exercise.check("0.2816").status == "incorrect"  # 0.28155 rounds to 0.2815
    assert exercise.check("0.11").misconception is None  # near 0.1126, but under-precise


def test_the_asked_precision_is_the_exercises_own():
    exercise = ap_exercise(LATE, decimals=2)
    assert exercise.check("0.28").correct
    assert exercise.check("0.3").status == "incomplete"
    assert exercise.check("0.48").misconception == SLIP
    assert "Give 2 decimals or a fraction." in exercise.prompt
    assert exercise.placeholder == "2 decimals or a fraction such as 2/3"
    assert check_number("0.3", 0.2815, decimals=1).correct
    with pytest.raises(ValueError, match="decimals must be >= 0; got -1"):
        ap_exercise(LATE, decimals=-1)


def test_padded_and_exact_answers():
    assert check_number("0.5", 0.5).correct  # trailing zeros may be left out
    assert check_number("0.5", 0.500001).correct  # 0.5000 at 4 decimals
    assert check_number("2/3", 2 / 3).correct
    assert check_number("0.6667", 2 / 3).correct
    assert check_number("1", 0.99999).status == "incorrect"  # whole numbers are exact
    assert check_number("1", 1.0).correct


def test_empty_and_unreadable_answers():
    for typed in ("", "   ", None):
        feedback = check_number(typed, 0.5)
        assert feedback.status == "empty"
        assert feedback.message == "Type an answer: 4 decimals or a fraction such as 2/3."
    unreadable = check_number("abc", 0.5)
    assert unreadable.status == "incorrect"
    assert unreadable.message.startswith("Could not read 'abc' as a number")
    with pytest.raises(ValueError, match="could not read '1/0'"):
        parse_answer("1/0")
    with pytest.raises(ValueError, match="status must be one of"):
        Feedback("right", "no such status")  # type: ignore[arg-type]


def test_a_misconception_is_named_at_the_asked_precision_or_exactly():
    wrongs = [("halved", 0.25, "Do not halve."), ("doubled", 1.0, "Do not double.")]
    assert check_number("0.2500", 0.5, misconceptions=wrongs).misconception == "halved"
    assert check_number("0.25", 0.5, misconceptions=wrongs).misconception == "halved"  # exact
    assert check_number("1", 0.5, misconceptions=wrongs).misconception == "doubled"
    assert check_number("0.2", 0.5, misconceptions=wrongs).misconception is None
    assert check_number("0.2501", 0.5, misconceptions=wrongs).misconception is None


def test_answers_two_mistakes_give_name_both():
    # article 001's late list: dividing AP's sum by the list's length gives the same
    # value as averaging P@i over every rank, since all misses come before all hits
    exercise = ap_exercise(LATE)
    assert ap_sum_over_list_length(LATE) == pytest.approx(mean_precision_over_all_ranks(LATE))
    feedback = exercise.check("0.1126")
    assert feedback.misconception == "divide by the list's length"
    assert "any of these mistakes: divide by the list's length; mean of P@i" in feedback.message


def test_each_misconception_label_says_what_its_value_is():
    labels = [1, 0, 1, 0, 0]  # AP 0.8333; the two mistakes differ here
    exercise = ap_exercise(labels)
    by_name = {name: value for name, value, _ in exercise.misconceptions}
    assert by_name["divide by the list's length"] == pytest.approx((1 + 2 / 3) / 5)
    assert by_name["mean of P@i over every rank"] == pytest.approx(
        (1 / 1 + 1 / 2 + 2 / 3 + 2 / 4 + 2 / 5) / 5
    )
    assert by_name[SLIP] == pytest.approx((2 / 1 + 2 / 3) / 2)
    for name, value in by_name.items():
        assert exercise.check(f"{value:.4f}").misconception == name


def test_divide_by_retrieved_is_recognised():
    exercise = ap_exercise([1, 0, 1, 0, 0, 0, 0, 0], n_relevant=3)  # article 003's query B
    feedback = exercise.check("0.8333")
    assert feedback.status == "incorrect"
    assert feedback.misconception == "divide by retrieved hits"
    assert "shopping list" in feedback.message


def test_ap_at_k_over_hits_in_top_k_is_recognised():
    exercise = ap_exercise([1, 1, 0, 0, 0, 1, 1, 1, 0, 0], k=3)  # R = 5
    assert exercise.check("1").misconception == "divide AP@k by hits in the top k"
    assert exercise.check("0.4").correct
    assert "100 relevant" in exercise.check("1.0").message


def test_skipping_an_empty_query_is_recognised():
    exercise = map_exercise([[1, 0, 1], [0, 1], [0, 0, 0]])
    skipped = (average_precision([1, 0, 1]) + average_precision([0, 1])) / 2
    assert exercise.check(f"{skipped:.4f}").misconception == "skip instead of zero"
    assert exercise.check(f"{skipped * 2 / 3:.4f}").correct


def test_precision_misconceptions():
    exercise = precision_exercise([1, 0, 1, 0, 1, 1], 3, n_relevant=6)
    assert exercise.check("2/3").correct
    assert exercise.check("1/3").misconception == "divided by R"
    assert exercise.check("4/3").misconception == "counted hits below rank k"
    short = precision_exercise([1, 1], 4, n_relevant=3)
    assert short.check("1").misconception == "divided by the list's length"
    assert short.check("0.5").correct


def test_a_wrong_answer_equal_to_the_right_one_is_not_a_misconception():
    exercise = ap_exercise([1])  # every way of computing agrees here
    assert exercise.misconceptions == []
    close = NumberExercise("?", 0.28154, [("near", 0.28151, ""), ("far", 0.3, "")], "")
    assert [name for name, _, _ in close.misconceptions] == ["far"]


# ------------------------------------------------------- the rule, as properties

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
    known = [truth, *wrongs]
    assume(all(abs(float(typed) - x) > 10.0**-asked for x in known))
    misconceptions = [(f"m{i}", wrong, "") for i, wrong in enumerate(wrongs)]
    feedback = check_number(typed, truth, decimals=asked, misconceptions=misconceptions)
    assert feedback.misconception is None
    assert feedback.status in {"incorrect", "incomplete"}


@given(
    truth=UNIT,
    wrongs=st.lists(UNIT, max_size=4),
    value=UNIT,
    asked=ASKED,
    given_decimals=st.integers(min_value=0, max_value=9),
)
def test_a_named_misconception_matches_at_the_asked_precision_and_the_truth_does_not(
    truth, wrongs, value, asked, given_decimals
):
    typed = f"{value:.{given_decimals}f}"
    misconceptions = [(f"m{i}", wrong, "") for i, wrong in enumerate(wrongs)]
    feedback = check_number(typed, truth, decimals=asked, misconceptions=misconceptions)
    if feedback.misconception is not None:
        wrong = wrongs[int(feedback.misconception[1:])]
        half = 0.5 * 10.0**-asked
        assert abs(float(typed) - wrong) <= half + 1e-12
        assert abs(float(typed) - truth) > half


@given(truth=UNIT, asked=ASKED)
def test_the_truth_rounded_to_the_asked_decimals_is_correct(truth, asked):
    assert check_number(f"{truth:.{asked}f}", truth, decimals=asked).status == "correct"


@given(truth=UNIT, asked=st.integers(min_value=2, max_value=7), data=st.data())
def test_the_truth_rounded_to_fewer_decimals_is_incomplete(truth, asked, data):
    fewer = data.draw(st.integers(min_value=1, max_value=asked - 1))
    typed = f"{truth:.{fewer}f}"
    assume(Decimal(typed) != Decimal(f"{truth:.{asked}f}"))  # not the same number padded
    assert check_number(typed, truth, decimals=asked).status == "incomplete"


# ------------------------------------------------------------------ widgets


def test_feedback_follows_checks_and_clears_when_the_answer_changes():
    exercise = ap_exercise(LATE)
    assert (exercise.kind, exercise.status, exercise.feedback) == ("number", "empty", "")
    exercise.answer = "0.4790"
    exercise.check_request += 1
    assert exercise.status == "incorrect"
    assert SLIP in exercise.feedback
    exercise.answer = "0.47901"  # one more keystroke
    assert (exercise.status, exercise.feedback) == ("empty", "")
    exercise.answer = "0.2815"
    exercise.check_request += 1
    assert (exercise.status, exercise.feedback) == ("correct", "Correct: 0.2815.")
    exercise.answer = "0.5"
    assert (exercise.status, exercise.feedback) == ("empty", "")
    exercise.check_request += 1
    assert exercise.status == "incorrect"


def test_a_check_from_the_browser_judges_the_answer_it_arrived_after():
    exercise = ap_exercise(LATE)
    exercise.set_state({"answer": "0.28"})  # as the browser's messages arrive
    exercise.set_state({"check_request": 1})
    assert exercise.status == "incomplete"
    exercise.set_state({"answer": "0.281"})
    assert exercise.status == "empty"
    for message in ({"answer": "0.2815", "check_request": 2}, {"check_request": 3, "answer": "1"}):
        exercise.set_state(message)  # one message with both: the verdict is the new answer's
        assert exercise.status == ("correct" if message["answer"] == "0.2815" else "incorrect")


def test_widget_traits_are_validated():
    exercise = ap_exercise(LATE)
    with pytest.raises(traitlets.TraitError, match="status must be one of correct, incorrect"):
        exercise.status = "right"
    exercise.check_request = 3
    with pytest.raises(traitlets.TraitError, match="only goes up; got 2 after 3"):
        exercise.check_request = 2
    with pytest.raises(traitlets.TraitError):
        exercise.kind = "choice"
    choice = ChoiceExercise("Pick", {"a": "Right.", "b": "No."}, correct="a", solution_html="")
    with pytest.raises(traitlets.TraitError, match=r"answer must be one of 'a', 'b'"):
        choice.answer = "c"
    with pytest.raises(traitlets.TraitError, match="options must be distinct"):
        ChoiceExercise("Pick", {"": "Blank."}, correct="", solution_html="")


def test_choice_exercise():
    exercise = ChoiceExercise("Pick", {"a": "Right.", "b": "No."}, correct="a", solution_html="a")
    assert (exercise.kind, exercise.options) == ("choice", ["a", "b"])
    assert exercise.check("a") == Feedback("correct", "Right.")
    assert exercise.check("b") == Feedback("incorrect", "No.", "b")
    assert exercise.check("").status == "empty"
    assert "Choose one of: a, b" in exercise.check("c").message
    exercise.answer = "b"
    exercise.check_request += 1
    assert (exercise.status, exercise.feedback) == ("incorrect", "No.")
    exercise.answer = "a"
    assert exercise.status == "empty"
    with pytest.raises(ValueError, match=r"correct='z' is not one of the options"):
        ChoiceExercise("Pick", {"a": ""}, correct="z", solution_html="")


def test_arrange_exercise_checks_the_board_and_knows_a_solution():
    task = ArrangeExercise("AP = 0.5, P@5 = 0.6", {"AP": 0.5, "P@5": 0.6}, 10, 4)
    assert task.kind == "arrange"
    assert not task.check().correct  # the board starts with the relevant results last
    task.check_request += 1
    assert task.status == "incorrect"
    solution = task.solve()
    assert average_precision(solution) == 0.5
    for rank, target in enumerate(solution, start=1):
        doc = next(i["doc"] for i in task.board.items[rank - 1 :] if i["relevant"] == bool(target))
        task.board.move(doc, rank)
    assert task.status == "empty"  # moving results cleared the verdict
    assert task.board.labels == solution
    task.check_request += 1
    assert task.status == "correct"
    assert task.feedback == "Correct: AP = 0.5000 (target 0.5), P@5 = 0.6000 (target 0.6)."
    assert "Use 10 results of which 4 are relevant" in task.check([1, 0]).message


def test_exercises_show_a_folded_solution_without_a_kernel():
    for exercise in (
        ap_exercise([0, 1]),
        ChoiceExercise("Pick", {"a <b>": "Yes."}, correct="a <b>", solution_html="a"),
        ArrangeExercise("AP = 1", {"AP": 1.0}, 3, 1),
    ):
        data, _ = exercise._repr_mimebundle_()
        assert "<details><summary>Show solution</summary>" in data["text/html"]
        assert "exercise.check(your_answer)" in data["text/html"]
        assert data["text/plain"].startswith("Exercise: ")
        assert "application/vnd.jupyter.widget-view+json" in data
    data, _ = ap_exercise([0, 1])._repr_mimebundle_()
    assert "Answer with 4 decimals or a fraction such as 2/3." in data["text/html"]
    data, _ = ChoiceExercise(
        "P", {"a <b>": ""}, correct="a <b>", solution_html=""
    )._repr_mimebundle_()
    assert "<li>a &lt;b&gt;</li>" in data["text/html"]


def test_from_scores_keeps_the_mistakes_in_the_order_scored():
    scores = (0.5, {"halved": 0.25, "same as the answer": 0.5, "doubled": 1.0})
    explanations = {"doubled": "x2", "same as the answer": "=", "halved": "/2"}
    exercise = NumberExercise.from_scores("1/2?", scores, explanations, "1/2", decimals=2)
    assert exercise.truth == 0.5 and exercise.decimals == 2
    # a mistake equal to the answer cannot be told from it, so it is dropped
    assert exercise.misconceptions == [("halved", 0.25, "/2"), ("doubled", 1.0, "x2")]
    assert exercise.check("0.25").misconception == "halved"
    with pytest.raises(KeyError, match="halved"):
        NumberExercise.from_scores("1/2?", scores, {"doubled": "x2"}, "1/2")
