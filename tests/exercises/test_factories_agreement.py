"""Kappa exercises: truths against scikit-learn, data, prompts and errors."""

from __future__ import annotations

import pytest
from sklearn.metrics import cohen_kappa_score

from mapteach.classroom.identity import forget_learner, learner
from mapteach.exercises import kappa_exercise

A = [0, 1, 2, 3, 2, 1, 0, 3, 2, 0]
B = [0, 2, 2, 3, 1, 1, 0, 3, 3, 1]


@pytest.fixture(autouse=True)
def no_learner():
    forget_learner()
    yield
    forget_learner()


def test_binary_kappa_after_the_threshold():
    exercise = kappa_exercise(A, B, threshold=2)
    binary_a, binary_b = [int(g >= 2) for g in A], [int(g >= 2) for g in B]
    assert exercise.truth == pytest.approx(cohen_kappa_score(binary_a, binary_b))
    assert exercise.truth == pytest.approx((0.8 - 0.5) / (1 - 0.5))  # p_o 8/10, p_e 1/2
    assert exercise.measure is None and exercise.mistake_kind == "kappa"
    assert exercise.data == {
        "judge_a": A,
        "judge_b": B,
        "threshold": 2,
        "labels_a": binary_a,
        "labels_b": binary_b,
        "categories": [0, 1],
    }
    assert exercise.check("0.8").misconception == "observed agreement given as kappa"
    assert "Grade 2 or more counts as relevant" in exercise.prompt
    assert "each judge's own frequencies" in exercise.prompt


def test_graded_kappa_names_iirs_pooled_marginals_as_a_convention():
    exercise = kappa_exercise(A, B)
    assert exercise.truth == pytest.approx(cohen_kappa_score(A, B))
    assert "(unweighted)" in exercise.prompt
    pooled = sum(((A.count(g) + B.count(g)) / 20) ** 2 for g in range(4))
    p_o = sum(a == b for a, b in zip(A, B, strict=True)) / 10
    feedback = exercise.check(f"{(p_o - pooled) / (1 - pooled):.4f}")
    assert "chance agreement from the pooled frequencies (IIR, Scott's pi)" in feedback.mistakes
    assert "chance agreement 1/(number of categories)" in feedback.mistakes  # same value here


def test_the_solution_counts_p_o_and_p_e_without_tex():
    solution = kappa_exercise(A, B, threshold=2).solution
    assert "p_o = 8/10 = 0.8000" in solution
    assert "(5/10)(5/10) + (5/10)(5/10) = 0.5000" in solution
    assert "not relevant" in solution and "<table" in solution
    assert "\\frac" not in solution and "$" not in solution


def test_bad_judgments_are_refused_by_name():
    with pytest.raises(ValueError, match="judge_a has 3 grades and judge_b 2"):
        kappa_exercise([0, 1, 2], [0, 1])
    with pytest.raises(ValueError, match="kappa is undefined"):
        kappa_exercise([0, 1, 1], [0, 1, 1], threshold=3)  # everyone "not relevant"
    with pytest.raises(ValueError, match=r"judge_b\[1\] is 0.5"):
        kappa_exercise([0, 1], [0, 0.5])
    with pytest.raises(ValueError, match="threshold"):
        kappa_exercise([0, 1], [0, 1], threshold=0)


def test_a_varied_exercise_reorders_the_items_keeping_each_pair_of_grades():
    learner("ada")
    plain = kappa_exercise(A, B, threshold=2, key="99.7")
    mine = kappa_exercise(A, B, threshold=2, key="99.7", vary=True)
    pairs = sorted(zip(mine.data["judge_a"], mine.data["judge_b"], strict=True))
    assert pairs == sorted(zip(A, B, strict=True)) and mine.data["judge_a"] != A
    assert str(mine.data["judge_a"]) in mine.prompt and str(mine.data["judge_b"]) in mine.prompt
    assert mine.truth == pytest.approx(
        cohen_kappa_score(mine.data["labels_a"], mine.data["labels_b"])
    )
    assert mine.truth == pytest.approx(plain.truth)  # the same lesson, other lists shown
    assert {(w.name, round(w.value, 12)) for w in mine.misconceptions} == {
        (w.name, round(w.value, 12)) for w in plain.misconceptions
    }
