"""Exercises give the right verdict and name the misconception behind known wrong answers."""

from __future__ import annotations

import pytest

from mapteach import average_precision, get_example
from mapteach.teaching.misconceptions import (
    final_hits_in_every_numerator,
    mean_precision_over_all_ranks,
)
from mapteach.views.exercises import (
    ArrangeExercise,
    ChoiceExercise,
    ap_exercise,
    map_exercise,
    parse_answer,
    precision_exercise,
)


def test_article_001_erratum_is_recognised():
    exercise = ap_exercise(get_example("001_legal_late").labels)
    for typed in ("0.48", "0.4790", 0.479):
        assert exercise.check(typed).misconception == "final hit count in every numerator"
    for typed in ("0.2815", "0.28155", 0.2815476190476, "28.15%"):
        assert exercise.check(typed).correct, typed
    assert round(final_hits_in_every_numerator(get_example("001_legal_late").labels), 4) == 0.4790


def test_divide_by_retrieved_is_recognised():
    exercise = ap_exercise([1, 0, 1, 0, 0, 0, 0, 0], n_relevant=3)  # article 003's query B
    feedback = exercise.check("0.8333")
    assert not feedback.correct
    assert feedback.misconception == "divide by retrieved hits"
    assert "shopping list" in feedback.message


def test_ap_at_k_over_hits_in_top_k_is_recognised():
    exercise = ap_exercise([1, 1, 0, 0, 0, 1, 1, 1, 0, 0], k=3)  # R = 5
    assert exercise.check("1").misconception == "divide AP@k by hits in the top k"
    assert exercise.check("0.4").correct
    assert "100 relevant" in exercise.check("1.0").message


def test_mean_of_precision_over_all_ranks_is_recognised():
    labels = [0, 1, 1, 0, 0]
    exercise = ap_exercise(labels)
    wrong = mean_precision_over_all_ranks(labels)
    assert exercise.check(f"{wrong:.4f}").misconception == "mean of P@k over all ranks"


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


def test_unclear_and_imprecise_answers_get_guidance():
    exercise = ap_exercise([1, 0, 1])
    assert "could not read 'abc'" in exercise.check("abc").message.lower()
    assert "at least 2 decimals" in exercise.check("0.8").message
    assert exercise.check("0.1234").message.startswith("Not quite.")
    with pytest.raises(ValueError, match="could not read '1/0'"):
        parse_answer("1/0")


def test_a_wrong_answer_equal_to_the_right_one_is_not_a_misconception():
    exercise = ap_exercise([1])  # every way of computing agrees here
    assert exercise.misconceptions == []


def test_choice_exercise():
    exercise = ChoiceExercise("Pick", {"a": "Right.", "b": "No."}, correct="a", solution_html="a")
    assert exercise.check("a").correct
    assert exercise.check("b").misconception == "b"
    assert "Choose one of: a, b" in exercise.check("c").message
    with pytest.raises(ValueError, match=r"correct='z' is not one of the options"):
        ChoiceExercise("Pick", {"a": ""}, correct="z", solution_html="")


def test_arrange_exercise_checks_the_board_and_knows_a_solution():
    task = ArrangeExercise("AP = 0.5, P@5 = 0.6", {"AP": 0.5, "P@5": 0.6}, 10, 4)
    assert not task.check().correct  # the board starts with the relevant results last
    solution = task.solve()
    assert average_precision(solution) == 0.5
    for rank, target in enumerate(solution, start=1):
        doc = next(i["doc"] for i in task.board.items[rank - 1 :] if i["relevant"] == bool(target))
        task.board.move(doc, rank)
    assert task.board.labels == solution
    assert task.check().correct
    assert "Use 10 results of which 4 are relevant" in task.check([1, 0]).message


def test_exercises_show_a_folded_solution_without_a_kernel():
    bundle = ap_exercise([0, 1])._repr_mimebundle_()
    assert "<details><summary>Show solution</summary>" in bundle["text/html"]
    assert "exercise.check(your_answer)" in bundle["text/html"]
    assert bundle["text/plain"].startswith("Exercise: ")


def test_check_button_and_solution_toggle_work():
    exercise = ap_exercise([0, 1])
    exercise.control.value = "0.5"
    exercise.children[1].children[1].click()
    assert "Correct" in exercise.feedback.value
    reveal = exercise.children[1].children[2]
    assert exercise.solution.layout.display == "none"
    reveal.value = True
    assert exercise.solution.layout.display is None
    assert reveal.description == "Hide solution"
