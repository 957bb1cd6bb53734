"""R-precision and GMAP exercises: each number against a computation written out here."""

from __future__ import annotations

import math

import pytest

from mapteach.exercises.factories_beyond import gmap_exercise, r_precision_exercise


def test_r_precision_exercise():
    labels = [0, 1, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0]  # 5 found of R = 6
    exercise = r_precision_exercise(labels, 6)
    assert exercise.truth == 3 / 6  # 3 relevant in the top 6
    assert (exercise.measure, exercise.mistake_kind) == ("Rprec", "R-precision")
    assert exercise.data == {"labels": labels, "n_relevant": 6, "k": None}
    assert exercise.check("0.4").misconception == "P@10 for R-precision"
    assert exercise.check("5/11").misconception == "precision at the last relevant result"
    assert "R = 6 relevant documents" in exercise.prompt
    assert "(1 of them was never retrieved)" in exercise.prompt


def test_r_precision_prompts_count_in_words():
    one = r_precision_exercise([0, 1, 0], 1)
    assert "R = 1 relevant document;" in one.prompt
    assert "every one of them was retrieved" in one.prompt
    two = r_precision_exercise([0, 1, 0], 3)
    assert "(2 of them were never retrieved)" in two.prompt


def test_gmap_floors_each_one_relevant_ap_and_shows_the_aps():
    exercise = gmap_exercise([2, 1, 4, None])
    aps = [1 / 2, 1, 1 / 4, 0.0]  # one relevant document each: AP = 1 / its rank
    floored = [max(ap, 1e-5) for ap in aps]
    assert exercise.truth == pytest.approx(math.exp(sum(map(math.log, floored)) / 4))
    assert exercise.measure == "GMAP" and len(exercise.data["queries"]) == 4
    assert all(q["n_relevant"] == 1 and len(q["labels"]) == 10 for q in exercise.data["queries"])
    assert exercise.check(f"{sum(aps) / 4:.4f}").misconception == "the arithmetic mean (MAP)"
    assert "Its APs are 0.5, 1, 0.25, 0." in exercise.prompt
    assert "0.5 × 1 × 0.25 × 1e-05" in exercise.solution


def test_gmap_shows_an_ap_that_has_no_short_decimal_as_its_fraction():
    exercise = gmap_exercise([7, 9, 1], key="99.3")
    assert "Its APs are 1/7, 1/9, 1." in exercise.prompt  # not 0.142857, 0.111111
    assert "1/7 × 1/9 × 1" in exercise.solution


def test_gmap_rejects_a_rank_past_the_depth():
    with pytest.raises(ValueError, match=r"ranks\[1\] is 6; a rank must be a whole number"):
        gmap_exercise([1, 6], depth=5)


def test_gmap_lists_the_ranks_and_aps_with_chinese_commas_in_chinese():
    english, chinese = gmap_exercise([2, None]), gmap_exercise([2, None], lang="zh")
    assert "ranks 2 (q1), nowhere (q2). Its APs are 0.5, 0." in english.prompt
    assert "、" in chinese.prompt and ", " not in chinese.prompt
    assert "0.5、0" in chinese.prompt
