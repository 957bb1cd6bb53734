"""AP, AP@k, P@k, R@k and MAP exercises: built from their data, against formulas written
out here, with prompts filled from that data."""

from __future__ import annotations

import pytest

from mapteach.exercises.factories_ap import (
    ap_exercise,
    map_exercise,
    precision_exercise,
    queries_text,
    recall_exercise,
)
from mapteach.i18n import language
from tests.reference import reference_ap


def test_ap_exercise_exposes_its_measure_and_data():
    exercise = ap_exercise([0, 1, 1, 0, 1, 0], n_relevant=4)
    assert exercise.truth == pytest.approx(reference_ap([0, 1, 1, 0, 1, 0], 4))
    assert (exercise.measure, exercise.mistake_kind) == ("AP", "AP")
    assert exercise.data == {"labels": [0, 1, 1, 0, 1, 0], "n_relevant": 4, "k": None}
    assert exercise.check("0.5889").misconception == "forgot the missed relevant results"


def test_ap_at_k_states_trec_evals_convention_and_names_kaggles():
    exercise = ap_exercise([1, 1, 0, 0, 0, 1, 1, 1, 0, 0], k=3, n_relevant=5)
    assert exercise.truth == pytest.approx((1 / 1 + 2 / 2) / 5)
    assert (exercise.measure, exercise.mistake_kind) == ("AP@3", "AP@k")
    assert "trec_eval's AP@k" in exercise.prompt and "divided by R" in exercise.prompt
    feedback = exercise.check("0.6667")  # (1/1 + 2/2) / 3: Kaggle's apk, and P@3 = 2/3
    assert set(feedback.mistakes) == {"divided AP@k by min(k, R)", "gave P@k"}
    assert exercise.check("0.2000").mistakes == ("divided by the list's length",)


def test_a_prompt_is_a_template_filled_from_the_data():
    exercise = ap_exercise(
        [0, 1, 0, 1],
        prompt="AP of <code>{labels}</code> ({relevant_ranks}), R = {r}, {measure}, {decimals}?",
    )
    assert exercise.prompt == (
        "AP of <code>[0, 1, 0, 1]</code> (2 relevant results, at ranks 2 and 4), R = 2, AP, 4?"
    )
    with language("zh"):
        one = ap_exercise([0, 1], prompt="{relevant_ranks}", lang="zh")
    assert "2" in one.prompt and "relevant" not in one.prompt


def test_a_literal_prompt_still_builds():  # today's notebooks
    prompt = "Compute system B's AP, <code>[0, 0, 0, 1, 1]</code>, by hand."
    assert ap_exercise([0, 0, 0, 1, 1], prompt=prompt, key="01.2").prompt == prompt


def test_an_unknown_placeholder_is_named():
    with pytest.raises(ValueError, match=r"names \{list\}, which this exercise does not fill"):
        ap_exercise([0, 1], prompt="AP of {list}?")
    with pytest.raises(ValueError, match="must show its data through a placeholder"):
        ap_exercise([0, 1], prompt="AP of [0, 1]?", vary=True, key="00.1")


def test_precision_exercise():
    exercise = precision_exercise([1, 0, 1, 1], 10, n_relevant=6)
    assert exercise.truth == 3 / 10 and exercise.measure == "P@10"
    assert exercise.data == {"labels": [1, 0, 1, 1], "n_relevant": 6, "k": 10}
    assert exercise.check("0.75").misconception == "divided by the list's length"
    assert exercise.check("0.5").misconception == "divided by R"
    assert "R = 6" in exercise.prompt
    one = precision_exercise([0, 1, 0], 2)
    assert "hold one relevant result, so P@2 = 1/2" in one.solution


def test_recall_exercise():
    exercise = recall_exercise([0, 1, 1, 0, 1, 0], 3, n_relevant=5)
    assert exercise.truth == 2 / 5 and exercise.measure == "R@3"
    assert exercise.mistake_kind == "R@k"
    assert exercise.check("3/5").misconception == "ignored the cutoff"
    assert "hold 2 of the R = 5 relevant results, so R@3 = 2/5" in exercise.solution


def test_map_exercise():
    lists = [[1, 0, 1, 0], [0, 0, 1], [0, 0, 0, 0]]
    exercise = map_exercise(lists)
    aps = [(1 + 2 / 3) / 2, 1 / 3, 0.0]
    assert exercise.truth == pytest.approx(sum(aps) / 3) and exercise.measure == "MAP"
    assert [q["labels"] for q in exercise.data["queries"]] == lists
    assert "scores 0 and stays in the mean, as in trec_eval" in exercise.prompt
    feedback = exercise.check(f"{(aps[0] + aps[1]) / 2:.4f}")
    assert feedback.misconception == "skip instead of zero" and feedback.convention
    filled = map_exercise(lists, n_relevant=[2, 2, 0], prompt="{n_queries}: {queries}")
    assert filled.prompt == (
        "3: <code>[1, 0, 1, 0]</code> (R = 2), <code>[0, 0, 1]</code> (R = 2) and "
        "<code>[0, 0, 0, 0]</code> (R = 0)"
    )
    with pytest.raises(ValueError, match="n_relevant has 1 entries for 3 rankings"):
        map_exercise(lists, n_relevant=[2])


def test_queries_text_gives_each_r_in_the_current_languages_parentheses():
    data = {"queries": [{"labels": [1, 0], "n_relevant": 2}, {"labels": [0, 1], "n_relevant": 1}]}
    english = queries_text(data, with_r=True)
    with language("zh"):
        chinese = queries_text(data, with_r=True)
    assert "<code>[1, 0]</code> (R = 2)" in english
    assert "<code>[1, 0]</code>（R = 2）" in chinese and "<code>[0, 1]</code>（R = 1）" in chinese
    assert "(" not in chinese
    assert queries_text(data, with_r=False).count("R =") == 0
