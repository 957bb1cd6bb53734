"""AP and AP@k mistakes: each value against a formula written out here, each explanation in
the learner's own numbers."""

from __future__ import annotations

import pytest

from mapteach.exercises.mistakes import wrong_answers
from mapteach.exercises.mistakes_ranking import Ranking, final_hits_in_every_numerator
from mapteach.i18n import language
from tests.reference import reference_ap

CASES = [
    ([1, 0, 1], 3, None),  # one relevant result missed
    ([0, 1, 1, 0, 1, 0], 4, None),  # 03.1
    ([0, 0, 0, 0, 0, 0, 1, 1, 1, 1], 4, None),  # article 001's late list
    ([0, 1], 1, None),  # 00.1
    ([1, 1, 0, 0, 0, 1, 1, 1, 0, 0], 5, 3),  # 03.3: k < R
    ([0, 1, 0, 1, 0, 0], 2, 5),  # k > R
    ([1, 0, 1, 1, 0], 3, 3),  # k = R: min(k, R) is R
    ([0, 0, 1, 0, 1, 1, 0], 6, 4),
]


def _expected(labels, r, k):
    """Each mistake's value by its formula, written rank by rank; absent where it cannot
    be made or where it is the truth by construction."""
    n = len(labels)
    top = labels if k is None else labels[:k]
    ranks = [i + 1 for i, y in enumerate(top) if y]
    h, found = len(ranks), sum(labels)
    total = sum((j + 1) / p for j, p in enumerate(ranks))
    values = {
        "divided by the list's length": total / n,
        "mean of P@i over every rank": sum(sum(top[:i]) / i for i in range(1, len(top) + 1))
        / len(top),
        "counted the hits before the current one": sum(j / p for j, p in enumerate(ranks)) / r,
        "gave the reciprocal rank": 1 / ranks[0],
    }
    if k is None and 0 < h < r:
        values["forgot the missed relevant results"] = total / h
    if h > 1:
        values["final hit count in every numerator"] = sum(h / p for p in ranks) / r
        values["1/rank at every relevant rank"] = sum(1 / p for p in ranks) / r
    if r > 1:
        values["forgot to divide the sum"] = total
    if ranks[0] > 1:
        values["counted ranks from 0"] = sum((j + 1) / (p - 1) for j, p in enumerate(ranks)) / r
    if k is not None:
        values["gave P@k"] = h / k
        if 0 < h < r:
            values["divided AP@k by the hits in the top k"] = total / h
        if k < r:
            values["divided AP@k by min(k, R)"] = total / k
        if k > r:
            values["divided by k"] = total / k
        if found > h:
            values["ignored the cutoff"] = reference_ap(labels, r)
    if n in (r, k):  # the truth, or the sum divided by k
        del values["divided by the list's length"]
    return values


@pytest.mark.parametrize(("labels", "r", "k"), CASES)
def test_each_mistake_is_its_formula(labels, r, k):
    data = {"labels": labels, "n_relevant": r, "k": k}
    truth = reference_ap(labels, r, k)
    found = {w.name: w.value for w in wrong_answers("AP" if k is None else "AP@k", data, truth)}
    assert found == pytest.approx(_expected(labels, r, k))


@pytest.mark.parametrize(("labels", "r", "k"), CASES)
def test_each_explanation_shows_the_learners_value_and_the_right_arithmetic(labels, r, k):
    data = {"labels": labels, "n_relevant": r, "k": k}
    truth = reference_ap(labels, r, k)
    for wrong in wrong_answers("AP" if k is None else "AP@k", data, truth):
        assert f"{wrong.value:.4f}" in wrong.explanation, wrong.name
        assert f"{truth:.4f}" in wrong.explanation and f" {r}" in wrong.explanation


def test_the_issues_own_sentence():
    data = {"labels": [1, 0, 1], "n_relevant": 3, "k": None}
    [wrong] = [w for w in wrong_answers("AP", data, 5 / 9) if w.name.startswith("forgot the")]
    assert wrong.explanation == (
        "You divided by the relevant results the list found (2): (1/1 + 2/3) / 2 = 0.8333. "
        "R = 3 counts the ones it missed too, and each still costs, so "
        "AP = (1/1 + 2/3) / 3 = 0.5556."
    )


def test_the_relevant_ranks_are_listed_as_the_explanations_language_lists_them():
    data = {"labels": [0, 1, 1, 0, 1], "n_relevant": 3, "k": None}
    truth = reference_ap(data["labels"], 3, None)
    with language("zh"):
        [wrong] = [w for w in wrong_answers("AP", data, truth) if w.name.startswith("mean of P@i")]
    assert "只在相关文档所在的第 2、3、5 位上累加精确率" in wrong.explanation
    [wrong] = [w for w in wrong_answers("AP", data, truth) if w.name.startswith("mean of P@i")]
    assert "only at the relevant ranks (2, 3, 5)" in wrong.explanation


def test_issue_03_3_names_k_and_the_list_length_apart():
    # 0.6667 is the sum over k = 3 = min(k, R): Kaggle's apk; 0.2000 is the list's length
    data = {"labels": [1, 1, 0, 0, 0, 1, 1, 1, 0, 0], "n_relevant": 5, "k": 3}
    by_value = {}
    for wrong in wrong_answers("AP@k", data, 0.4):
        by_value.setdefault(round(wrong.value, 4), set()).add(wrong.name)
    assert by_value[0.6667] == {"divided AP@k by min(k, R)", "gave P@k"}
    assert by_value[0.2] == {"divided by the list's length"}


def test_final_hits_is_article_001s_048():
    late = [0] * 6 + [1] * 4
    assert round(final_hits_in_every_numerator(late), 4) == round(
        (4 / 7 + 4 / 8 + 4 / 9 + 4 / 10) / 4, 4
    )
    assert final_hits_in_every_numerator([1, 0, 1, 1], k=2, n_relevant=5) == pytest.approx(1 / 5)


def test_a_ranking_is_checked_at_the_boundary():
    with pytest.raises(ValueError, match=r"data\['n_relevant'\]=1 is smaller than the 2"):
        Ranking.of({"labels": [1, 1], "n_relevant": 1, "k": None})
    with pytest.raises(ValueError, match=r"data\['labels'\]"):
        Ranking.of({"labels": [2], "n_relevant": 1})
    assert wrong_answers("AP", {"labels": [0, 0], "n_relevant": 0, "k": None}, 0.0) == []
