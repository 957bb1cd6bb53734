"""P@k, R@k, R-precision and interpolated-precision mistakes, each against a formula
written out here."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from mapteach.exercises.mistakes import wrong_answers
from mapteach.exercises.mistakes_precision import (
    iir_hits_needed,
    interpolated_at_level,
    reached_level,
)


def _hits(labels, depth):
    return sum(labels[:depth])


def _values(kind, data, truth):
    found = wrong_answers(kind, data, truth)
    for wrong in found:
        assert f"{wrong.value:.4f}" in wrong.explanation, wrong.name
        assert f"{truth:.4f}" in wrong.explanation, wrong.name
    return {wrong.name: wrong.value for wrong in found}


def test_precision_at_k_of_a_short_list():  # 02.2: 3 results, k = 10, R = 6
    labels, k, r = [1, 0, 1, 1], 10, 6
    values = _values("P@k", {"labels": labels, "n_relevant": r, "k": k}, 3 / 10)
    assert values == pytest.approx({"divided by R": 3 / 6, "divided by the list's length": 3 / 4})


def test_precision_at_k_inside_a_long_list():  # 02.1: article 001's list, P@3
    labels, k = [1, 0, 0, 1, 0, 1, 0, 0, 1, 0], 3
    values = _values("P@k", {"labels": labels, "n_relevant": 4, "k": k}, 1 / 3)
    assert values == pytest.approx(
        {
            "divided by R": 1 / 4,
            "counted hits below rank k": 4 / 3,
            "precision of the whole list": 4 / 10,
            "stopped one rank early": _hits(labels, 2) / 2,
            "went one rank too far": _hits(labels, 4) / 4,
        }
    )


def test_recall_at_k():
    labels, k, r = [0, 1, 1, 0, 1, 0], 3, 5
    values = _values("R@k", {"labels": labels, "n_relevant": r, "k": k}, 2 / 5)
    assert values == pytest.approx(
        {
            "divided by k": 2 / 3,
            "forgot the missed relevant results": 2 / 3,  # 3 found
            "ignored the cutoff": 3 / 5,
            "stopped one rank early": 1 / 5,
            "went one rank too far": 2 / 5,  # rank 4 is not relevant: the truth
        }
    )


def test_r_precision():  # 13.1: 5 found of R = 6, the last at rank 11
    labels, r = [0, 1, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0], 6
    values = _values("R-precision", {"labels": labels, "n_relevant": r, "k": None}, 3 / 6)
    assert values == pytest.approx(
        {
            "P@10 for R-precision": 4 / 10,
            "cut at the hits found, not at R": _hits(labels, 5) / 5,
            "precision at the last relevant result": 5 / 11,
            "gave the list's recall": 5 / 6,
            "stopped one rank early": _hits(labels, 5) / 5,
            "went one rank too far": _hits(labels, 7) / 7,
        }
    )


def test_r_precision_of_a_list_shorter_than_r():
    values = _values("R-precision", {"labels": [1, 0, 1], "n_relevant": 5, "k": None}, 2 / 5)
    assert values["divided by the list's length"] == pytest.approx(2 / 3)
    assert "went one rank too far" not in values  # no rank 6 to read


def test_interpolated_precision():  # 07.1: precision 1, 1/2, 1/3, 1/2, 3/5, 1/2; R = 3
    data = {"labels": [1, 0, 0, 1, 1, 0], "n_relevant": 3, "k": None, "recall": 2 / 3}
    values = _values("IPrec", data, 3 / 5)
    assert values == pytest.approx(
        {
            "gave the raw precision at the rank where recall reaches the level": 1 / 2,
            "took the best precision anywhere in the list": 1.0,
            "looked at recall below the level": 1.0,  # ranks 1 to 4
            "left out the level itself": 3 / 5,  # ranks 5, 6: the truth here
        }
    )
    assert reached_level(data) == 4


def test_trec_eval_recall_levels_are_conventions_where_they_differ():
    # R = 3, level 0.4: IIR needs ceil(1.2) = 2 hits, trec_eval 10 lround(1.2) = 1,
    # trec_eval 9 (long)(2.1) = 2 (the same as IIR, so not listed)
    # precision after each rank: 1, 1/2, 1/3, 1/4, 2/5, 1/2
    data = {"labels": [1, 0, 0, 0, 1, 1], "n_relevant": 3, "k": None, "recall": 0.4}
    found = {w.name: w for w in wrong_answers("IPrec", data, max(2 / 5, 3 / 6))}
    assert "trec_eval 9's recall levels" not in found
    trec10 = found["trec_eval 10's recall levels"]
    assert trec10.convention and trec10.value == 1.0  # from rank 1, one hit in
    assert "lround(0.4 × 3) = 1" in trec10.explanation and "IIR" in trec10.explanation


def test_a_half_rounds_up_in_trec_eval_10_as_in_iir():
    # R = 3, level 0.5: IIR ceil(1.5) = 2, trec_eval 10 lround(1.5) = 2, trec_eval 9 (long)(2.4) = 2
    data = {"labels": [1, 0, 0, 0, 1, 1], "n_relevant": 3, "k": None, "recall": 0.5}
    names = {w.name for w in wrong_answers("IPrec", data, 1 / 2)}
    assert not names & {"trec_eval 9's recall levels", "trec_eval 10's recall levels"}


def test_levels_and_hits_needed():
    assert [iir_hits_needed(level, 3) for level in (0.0, 0.3, 1 / 3, 0.4, 1.0)] == [0, 1, 1, 2, 3]
    for r in range(1, 13):  # ceil(L x R), computed exactly, at IIR's 11 levels and at 1/3, 2/3
        for level in [Fraction(i, 10) for i in range(11)] + [Fraction(1, 3), Fraction(2, 3)]:
            assert iir_hits_needed(float(level), r) == math.ceil(level * r), (level, r)


def test_the_truth_is_the_best_precision_at_the_level_or_higher():
    labels = [0, 1, 0, 1, 1, 0, 0, 1]  # precision after each rank, and recall out of R = 5
    precision = [sum(labels[:rank]) / rank for rank in range(1, 9)]
    for level in (0.2, 0.4, 0.6, 0.8, 1.0):
        reached = [p for rank, p in enumerate(precision, 1) if sum(labels[:rank]) / 5 >= level]
        data = {"labels": labels, "n_relevant": 5, "k": None, "recall": level}
        assert interpolated_at_level(data) == pytest.approx(max(reached, default=0.0)), level


def test_trec_eval_conventions_only_at_the_levels_trec_eval_computes():
    # R = 5, level 0.25: IIR needs ceil(1.25) = 2 hits and lround(1.25) = 1 would differ,
    # but trec_eval's iprec_at_recall computes 0.0, 0.1, ..., 1.0 only
    data = {"labels": [1, 0, 0, 0, 1, 1], "n_relevant": 5, "k": None, "recall": 0.25}
    names = {w.name for w in wrong_answers("IPrec", data, 1 / 2)}
    assert "trec_eval 10's recall levels" not in names
    data["recall"] = 0.3  # IIR ceil(1.5) = 2; trec_eval 10 lround(1.5) = 2; 9 (long)(2.4) = 2
    names = {w.name for w in wrong_answers("IPrec", data, 1 / 2)}
    assert not names & {"trec_eval 9's recall levels", "trec_eval 10's recall levels"}


def test_micro_recall_mistakes_on_a_map_exercises_queries():  # 04.3, counted by hand
    lists, totals, k = [[1, 1, 1, 0, 0], [0, 1, 0], [0, 0, 1, 1]], [5, 1, 2], 3
    data = {
        "queries": [
            {"labels": y, "n_relevant": r, "k": None} for y, r in zip(lists, totals, strict=True)
        ],
        "k": k,
    }
    values = _values("micro R@k", data, (3 + 1 + 1) / (5 + 1 + 2))
    assert values == pytest.approx(
        {
            "took the macro average": (3 / 5 + 1 / 1 + 1 / 2) / 3,
            "divided by the results counted": (3 + 1 + 1) / (3 * 3),
            "ignored the cutoff": (3 + 1 + 2) / (5 + 1 + 2),
        }
    )
    explanation = wrong_answers("micro R@k", data, 5 / 8)[0].explanation
    assert (
        "(0.6000 + 1.0000 + 0.5000) / 3" in explanation
        and "(3 + 1 + 1) / (5 + 1 + 2)" in explanation
    )
