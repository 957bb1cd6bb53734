"""RR and MRR mistakes of the registry, against values written out here by hand."""

from __future__ import annotations

import pytest

from mapteach.exercises.mistakes import mistakes_for, wrong_answers

LIST = {"labels": [0, 1, 0, 1], "n_relevant": 3, "k": None}  # first hit at rank 2, last at 4
QUERIES = {
    "queries": [
        {"labels": [0, 1, 0, 1], "n_relevant": 3, "k": None},  # RR 1/2
        {"labels": [0, 0, 0], "n_relevant": 1, "k": None},  # RR 0
        {"labels": [1, 0, 1], "n_relevant": 2, "k": None},  # RR 1
    ],
    "k": None,
}


def _found(kind, data, truth):
    return {w.name: w for w in wrong_answers(kind, data, truth)}


def test_each_rr_slip_gives_the_learners_number_on_one_list():
    found = _found("RR", LIST, 1 / 2)
    assert {name: w.value for name, w in found.items()} == pytest.approx(
        {
            "1/rank of the last relevant result": 1 / 4,
            "rank counted from 0": 1 / 1,  # rank 2 read as index 1
            "one past the rank": 1 / 3,
            "1/R instead of 1/rank": 1 / 3,
            "the rank, not its reciprocal": 2,
            "AP, not RR": (1 / 2 + 2 / 4) / 3,
        }
    )
    assert not any(w.convention for w in found.values())


def test_an_rr_explanation_uses_the_learners_own_numbers():
    found = _found("RR", LIST, 1 / 2)
    assert "You took 1/4" in found["1/rank of the last relevant result"].explanation
    assert "RR = 1/2 = 0.5000" in found["1/rank of the last relevant result"].explanation
    assert "R = 3" in found["1/R instead of 1/rank"].explanation
    assert "0.3333" in found["AP, not RR"].explanation


def test_a_cutoff_brings_its_own_slips_and_removes_the_others():
    data = {"labels": [0, 0, 1], "n_relevant": 1, "k": 2}  # the hit is below the cutoff
    found = _found("RR", data, 0.0)
    assert {name: w.value for name, w in found.items()} == pytest.approx(
        {"ignored the cutoff": 1 / 3, "a list that found nothing counted as 1": 1.0}
    )
    assert "RR@2 = 0" in found["ignored the cutoff"].explanation
    nothing = found["a list that found nothing counted as 1"]
    assert not nothing.convention and "R = 1 relevant results" in nothing.explanation
    assert "nothing relevant to find" not in nothing.explanation  # R = 1: it missed it


def test_a_query_with_nothing_to_find_counted_as_1_is_torchmetrics_convention():
    data = {"queries": [{"labels": [0, 1], "n_relevant": 1}, {"labels": [0, 0], "n_relevant": 0}]}
    found = _found("MRR", {**data, "k": None}, 1 / 4)
    pos = found["a query with no relevant result counted as 1"]
    assert pos.value == pytest.approx((1 / 2 + 1) / 2)
    assert pos.convention and 'empty_target_action="pos"' in pos.convention
    assert "torchmetrics" in pos.explanation and "trec_eval" in pos.explanation
    assert "a list that found nothing counted as 1" not in found  # R = 0: nothing to miss


def test_a_slip_that_cannot_be_made_is_left_out():
    top = {"labels": [1, 0], "n_relevant": 1, "k": None}  # RR 1: rank 1 from 0 divides by 0
    assert "rank counted from 0" not in _found("RR", top, 1.0)


def test_each_slip_is_made_on_every_query_of_an_mrr_exercise():
    found = _found("MRR", QUERIES, 1 / 2)
    ap = [(1 / 2 + 2 / 4) / 3, 0.0, (1 + 2 / 3) / 2]
    assert {name: w.value for name, w in found.items()} == pytest.approx(
        {
            "1/rank of the last relevant result": (1 / 4 + 0 + 1 / 3) / 3,
            "one past the rank": (1 / 3 + 0 + 1 / 2) / 3,
            "1/R instead of 1/rank": (1 / 3 + 0 + 1 / 2) / 3,
            "the rank, not its reciprocal": (2 + 0 + 1) / 3,
            "a list that found nothing counted as 1": (1 / 2 + 1 + 1) / 3,
            "AP, not RR": sum(ap) / 3,
            "reciprocal of the mean rank": 1 / ((2 + 1) / 2),
            "skipped the queries with no relevant result": (1 / 2 + 1) / 2,
        }
    )
    assert "rank counted from 0" not in found  # query 3's first hit is at rank 1


def test_mrr_explanations_write_out_each_query():
    found = _found("MRR", QUERIES, 1 / 2)
    assert "(1/4 + 0 + 1/3) / 3 = 0.1944" in found["1/rank of the last relevant result"].explanation
    skipped = found["skipped the queries with no relevant result"].explanation
    assert "(1/2 + 1/1) / 2 = 0.7500" in skipped and "all 3 queries" in skipped
    assert "You left out the query" in skipped  # one query: the singular
    mean_rank = found["reciprocal of the mean rank"].explanation
    assert "(2 + 1) / 2 = 1.5" in mean_rank
    assert mean_rank.endswith("(1/2 + 0 + 1/1) / 3 = 0.5000.")


def test_no_mistake_is_registered_twice_for_a_kind():
    for kind in ("RR", "MRR"):
        names = [mistake.name for mistake in mistakes_for(kind)]
        assert len(names) == len(set(names))
