"""nDCG@k mistakes of the registry, against DCGs written out here by hand."""

from __future__ import annotations

import math

import pytest

from mapteach.exercises.mistakes import wrong_answers
from mapteach.i18n import language

GRADES = [1, 3, 0, 0, 1, 0, 0, 1, 0, 0]  # notebook 05's graded model B
IDEAL = [3, 2, 1, 1, 1, 0, 0]  # a grade-2 document the list missed


def _dcg(gains, discount=lambda i: math.log2(i + 1)):
    return sum(g / discount(i) for i, g in enumerate(gains, start=1))


def _data(k):
    return {
        "labels": [int(g > 0) for g in GRADES],
        "grades": GRADES,
        "ideal_grades": IDEAL,
        "n_relevant": 5,
        "k": k,
    }


def _found(k):
    truth = _dcg(GRADES[:k]) / _dcg(sorted(IDEAL, reverse=True)[:k])
    return {w.name: w for w in wrong_answers("nDCG@k", _data(k), truth)}


def test_each_ndcg_mistake_gives_the_learners_number():
    best = sorted(IDEAL, reverse=True)[:5]  # 3, 2, 1, 1, 1
    jk = lambda i: max(1.0, math.log2(i))  # noqa: E731 (Järvelin and Kekäläinen, b = 2)
    exp = lambda grades: [2**g - 1 for g in grades]  # noqa: E731
    expected = {
        "exponential gain 2^grade - 1": _dcg(exp(GRADES[:5])) / _dcg(exp(best)),
        "discount log2(rank), rank 1 undiscounted": _dcg(GRADES[:5], jk) / _dcg(best, jk),
        "DCG not normalised": _dcg(GRADES[:5]),
        "ideal ranking from the retrieved list only": _dcg(GRADES[:5]) / _dcg([3, 1, 1, 1, 0]),
        "binary gains instead of the grades": _dcg([1, 1, 0, 0, 1]) / _dcg([1] * 5),
        "discount by the rank": _dcg(GRADES[:5], float) / _dcg(best, float),
        "ignored the cutoff": _dcg(GRADES) / _dcg(sorted(IDEAL, reverse=True)),
    }
    found = _found(5)
    assert {name: w.value for name, w in found.items()} == pytest.approx(expected)
    conventions = {name for name, w in found.items() if w.convention}
    assert conventions == {
        "exponential gain 2^grade - 1",
        "discount log2(rank), rank 1 undiscounted",
    }


def test_the_ideal_is_cut_at_k_too():
    found = _found(3)  # five relevant judged documents, k = 3
    uncut = _dcg(GRADES[:3]) / _dcg([3, 2, 1, 1, 1])
    assert found["ideal ranking not cut at k"].value == pytest.approx(uncut)
    assert "all 5 relevant documents" in found["ideal ranking not cut at k"].explanation
    assert "ideal ranking not cut at k" not in _found(5)  # five of them fit in the top 5


def test_explanations_use_the_learners_numbers_and_name_conventions():
    found = _found(5)
    dcg, idcg = _dcg(GRADES[:5]), _dcg([3, 2, 1, 1, 1])
    text = found["DCG not normalised"].explanation
    assert f"DCG@5 = {dcg:.4f}" in text and f"IDCG@5 = {idcg:.4f}" in text
    ideal = found["ideal ranking from the retrieved list only"].explanation
    assert "(grades 3, 1, 1, 1)" in ideal and "grades 3, 2, 1, 1, 1" in ideal
    assert "Burges et al. 2005" in found["exponential gain 2^grade - 1"].explanation
    assert "counts 7" in found["exponential gain 2^grade - 1"].explanation
    assert "Järvelin and Kekäläinen" in (
        found["discount log2(rank), rank 1 undiscounted"].explanation
    )


def test_grades_in_chinese_are_listed_with_the_enumeration_comma():
    with language("zh"):
        ideal = _found(5)["ideal ranking from the retrieved list only"].explanation
    assert "（等级 3、1、1、1）" in ideal and "等级 3、2、1、1、1" in ideal, ideal


def test_natural_logarithms_are_no_mistake():
    ln = lambda i: math.log(i + 1)  # noqa: E731
    best = sorted(IDEAL, reverse=True)[:5]
    assert _dcg(GRADES[:5], ln) / _dcg(best, ln) == pytest.approx(_dcg(GRADES[:5]) / _dcg(best))
    assert not any("ln" in name or "natural" in name for name in _found(5))


def test_binary_grades_drop_the_mistakes_they_cannot_show():
    data = {"labels": [1, 0, 1], "grades": [1, 0, 1], "ideal_grades": [1, 1], "n_relevant": 2}
    found = {w.name for w in wrong_answers("nDCG@k", {**data, "k": 3}, 1.0)}
    assert "exponential gain 2^grade - 1" not in found  # 2^1 - 1 = 1
    assert "binary gains instead of the grades" not in found
