"""Micro-averaged R@k exercise: its truth and each wrong answer against counts added up here."""

from __future__ import annotations

import pytest

from mapteach.exercises import micro_recall_exercise

LISTS = [[1, 1, 1, 0, 0], [0, 1, 0], [0, 0, 1, 1]]  # exercise 04.3
TOTALS = [5, 1, 2]
K = 3


def _reference():
    """Every value by hand: the hits in each top 3, each R, and the averages built from them."""
    hits = [sum(y[:K]) for y in LISTS]
    return {
        "truth": sum(hits) / sum(TOTALS),
        "took the macro average": sum(h / r for h, r in zip(hits, TOTALS, strict=True)) / 3,
        "divided by the results counted": sum(hits) / (len(LISTS) * K),
        "ignored the cutoff": sum(sum(y) for y in LISTS) / sum(TOTALS),
    }


def test_the_truth_is_the_hits_added_up_over_the_relevant_results_added_up():
    exercise = micro_recall_exercise(LISTS, K, n_relevant=TOTALS)
    assert exercise.truth == pytest.approx(_reference()["truth"])
    assert exercise.check("5/8").correct
    assert exercise.measure is None
    assert exercise.data == {
        "queries": [
            {"labels": y, "n_relevant": r, "k": None} for y, r in zip(LISTS, TOTALS, strict=True)
        ],
        "k": K,
    }


@pytest.mark.parametrize(
    "name", ["took the macro average", "divided by the results counted", "ignored the cutoff"]
)
def test_each_wrong_answer_is_recognised_and_explained_in_the_learners_numbers(name):
    exercise = micro_recall_exercise(LISTS, K, n_relevant=TOTALS)
    value = _reference()[name]
    feedback = exercise.check(f"{value:.4f}")
    assert feedback.misconception == name
    assert f"{value:.4f}" in feedback.message and "(3 + 1 + 1) / (5 + 1 + 2)" in feedback.message


def test_a_wrong_answer_equal_to_the_truth_is_left_out():
    # every R equals k and every hit is in the top k: the three averages all agree
    exercise = micro_recall_exercise([[1, 1, 0], [1, 0, 1]], 3, n_relevant=[3, 3])
    assert [wrong.name for wrong in exercise.misconceptions] == []


def test_the_prompt_lists_every_query_with_its_r_and_the_solution_writes_the_division_out():
    exercise = micro_recall_exercise(LISTS, K, n_relevant=TOTALS)
    assert "<code>[0, 1, 0]</code> (R = 1)" in exercise.prompt_source
    assert "micro-averaged R@3" in exercise.prompt_source
    assert "(3 + 1 + 1) / (5 + 1 + 2) = 0.6250" in exercise.solution


def test_in_chinese():
    exercise = micro_recall_exercise(LISTS, K, n_relevant=TOTALS, lang="zh")
    assert "微平均" in exercise.prompt_source
    assert "宏平均" in exercise.check("0.7000").message


def test_no_relevant_result_anywhere_is_refused():
    with pytest.raises(ValueError, match="0 / 0"):
        micro_recall_exercise([[0, 0], [0]], 2)
