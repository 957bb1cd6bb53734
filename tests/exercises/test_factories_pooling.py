"""Pooling exercises: the pool's size and the pooled AP, against counts written out here."""

from __future__ import annotations

import pytest

from mapteach.exercises.factories_pooling import pool_exercise, pooled_ap_exercise


def _values(exercise) -> dict[str, float]:
    return {name: value for name, value, _ in exercise.misconceptions}


def test_the_pool_is_the_union_of_the_runs_tops():
    exercise = pool_exercise(["d3", "d7", "d1", "d9"], ["d7", "d2", "d3", "d5"], 2)
    assert exercise.truth == 3  # {d3, d7} | {d7, d2}
    assert _values(exercise) == {
        "added the runs' depths": 4,
        "only documents every run found": 1,  # d7
        "pooled the whole lists": 6,
    }


def test_pooled_ap_counts_the_unjudged_as_not_relevant():
    complete = {"u1": 1, "j1": 1, "j2": 1, "j3": 1, "n1": 0, "u2": 0}
    judged = {"j1": 1, "j2": 1, "j3": 1, "n1": 0}
    exercise = pooled_ap_exercise(["u1", "j1", "n1", "u2", "j2"], complete, judged)
    pooled = (1 / 2 + 2 / 5) / 3  # [0, 1, 0, 0, 1], R = 3 judged relevant
    assert exercise.truth == pytest.approx(pooled)
    assert _values(exercise) == pytest.approx(
        {
            "counted the unjudged relevant document": (1 + 2 / 2 + 3 / 5) / 4,
            "left the unjudged documents out (condensed list)": (1 + 2 / 3) / 3,  # j1 n1 j2
            "divided by the true R": pooled * 3 / 4,
        }
    )
    explanations = {name: text for name, _, text in exercise.misconceptions}
    assert "nobody judged u1" in explanations["counted the unjudged relevant document"]
    assert "You divided by 4" in explanations["divided by the true R"]
    assert "qrels know only 3" in explanations["divided by the true R"]
    assert "with R = 3: AP = (1/2 + 2/5) / 3" in exercise.solution
