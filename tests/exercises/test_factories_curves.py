"""The interpolated-precision exercise, against the PR curve worked out here."""

from __future__ import annotations

import pytest

from mapteach.exercises.factories_curves import interpolated_precision_exercise


def test_interpolated_precision_at_a_recall_level():
    # R = 3; precision after each rank 1, 1/2, 1/3, 1/2, 3/5, 1/2; recall reaches 2/3 at rank 4
    exercise = interpolated_precision_exercise([1, 0, 0, 1, 1, 0], "2/3")
    assert exercise.truth == pytest.approx(3 / 5)  # the best precision at recall >= 2/3
    values = {name: value for name, value, _ in exercise.misconceptions}
    assert values == pytest.approx(
        {
            "gave the raw precision at the rank where recall reaches the level": 1 / 2,
            "took the best precision anywhere in the list": 1.0,
        }
    )
    explanations = [text for _, _, text in exercise.misconceptions]
    assert explanations[0].startswith("That is the raw precision at rank 4, where recall first")
    assert "(R = 3)" in exercise.prompt and "recall 2/3" in exercise.prompt
