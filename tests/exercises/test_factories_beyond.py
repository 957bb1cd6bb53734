"""R-precision and GMAP exercises: each number against a computation written out here."""

from __future__ import annotations

import math

import pytest

from mapteach.exercises.factories_beyond import gmap_exercise, r_precision_exercise


def _values(exercise) -> dict[str, float]:
    return {name: value for name, value, _ in exercise.misconceptions}


def test_r_precision_and_its_mistakes():
    labels = [0, 1, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0]  # 5 found of R = 6
    exercise = r_precision_exercise(labels, 6)
    assert exercise.truth == 3 / 6  # 3 relevant in the top 6
    assert _values(exercise) == pytest.approx(
        {
            "P@10 for R-precision": 4 / 10,
            "cut at the hits found, not at R": 3 / 5,  # P@5, the 5 found
            "precision at the last relevant result": 5 / 11,
        }
    )
    assert "R = 6" in exercise.prompt and "(1 of its relevant documents" in exercise.prompt


def test_gmap_floors_each_one_relevant_ap_and_shows_the_aps():
    exercise = gmap_exercise([2, 1, 4, None])
    aps = [1 / 2, 1, 1 / 4, 0.0]  # one relevant document each: AP = 1 / its rank
    floored = [max(ap, 1e-5) for ap in aps]
    assert exercise.truth == pytest.approx(math.exp(sum(map(math.log, floored)) / 4))
    assert _values(exercise) == pytest.approx(
        {
            "the arithmetic mean (MAP)": sum(aps) / 4,
            "no floor under a zero AP": 0.0,
            "mean of the logs, not exponentiated": sum(map(math.log, floored)) / 4,
        }
    )
    assert "Its APs are 0.5, 1, 0.25, 0." in exercise.prompt
    assert "0.5 × 1 × 0.25 × 1e-05" in exercise.solution


def test_gmap_rejects_a_rank_past_the_depth():
    with pytest.raises(ValueError, match=r"ranks\[1\] is 6; a rank must be a whole number"):
        gmap_exercise([1, 6], depth=5)
