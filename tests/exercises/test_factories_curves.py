"""The interpolated-precision exercise, against the PR curve worked out here."""

from __future__ import annotations

import pytest

from mapteach.exercises.factories_curves import interpolated_precision_exercise


def test_interpolated_precision_at_a_recall_level():
    # R = 3; precision after each rank 1, 1/2, 1/3, 1/2, 3/5, 1/2; recall reaches 2/3 at rank 4
    exercise = interpolated_precision_exercise([1, 0, 0, 1, 1, 0], "2/3")
    assert exercise.truth == pytest.approx(3 / 5)  # the best precision at recall >= 2/3
    assert exercise.data["recall"] == 2 / 3 and exercise.mistake_kind == "IPrec"
    assert exercise.measure == "IPrec@0.6667"  # ir_measures passes trec_eval 0.67
    assert interpolated_precision_exercise([1, 0, 1], "1/2", n_relevant=2).measure == "IPrec@0.5"
    raw = "gave the raw precision at the rank where recall reaches the level"
    assert exercise.check("0.5").misconception == raw
    assert set(exercise.check("1").mistakes) == {
        "took the best precision anywhere in the list",
        "looked at recall below the level",
    }
    explanation = {w.name: w.explanation for w in exercise.misconceptions}[raw]
    assert explanation.startswith("That is the raw precision at rank 4, where recall first")
    assert "(R = 3)" in exercise.prompt and "recall 2/3 or higher" in exercise.prompt


@pytest.mark.parametrize("level", ["1/2", 0.5, "1"])
def test_an_unreachable_level_names_the_level_and_the_top_recall(level):
    with pytest.raises(
        ValueError,
        match=r"never reaches recall (1/2|1): it finds 1 of its R = 3 "
        r"relevant results, so its top recall is 1/3",
    ):
        interpolated_precision_exercise([1, 0, 0], level, n_relevant=3)


def test_a_level_that_is_not_a_number_is_refused():
    with pytest.raises(ValueError, match="recall must be a number or a fraction"):
        interpolated_precision_exercise([1, 0], "half")
