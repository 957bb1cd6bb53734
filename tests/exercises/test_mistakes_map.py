"""MAP and GMAP mistakes, each against a formula written out here."""

from __future__ import annotations

import math

import pytest

from mapteach.exercises.mistakes import wrong_answers
from mapteach.exercises.mistakes_map import queries_of
from mapteach.i18n import language
from tests.reference import reference_ap


def _query(labels, r=None):
    return {"labels": labels, "n_relevant": sum(labels) if r is None else r, "k": None}


def _values(kind, data, truth):
    found = wrong_answers(kind, data, truth)
    for wrong in found:
        assert f"{wrong.value:.4f}" in wrong.explanation, wrong.name
        assert f"{truth:.4f}" in wrong.explanation, wrong.name
    return {wrong.name: wrong.value for wrong in found}


def test_map_with_an_empty_query():  # 04.1
    lists = [[1, 0, 1, 0], [0, 0, 1], [0, 0, 0, 0]]
    aps = [(1 + 2 / 3) / 2, 1 / 3, 0.0]
    data = {"queries": [_query(y) for y in lists], "k": None}
    values = _values("MAP", data, sum(aps) / 3)
    assert values == pytest.approx(
        {
            "skip instead of zero": (aps[0] + aps[1]) / 2,
            "counted an empty query as 1": (aps[0] + aps[1] + 1) / 3,
            "mean of each list's precision": (2 / 4 + 1 / 3 + 0) / 3,
            "mean of P@i over every rank": (
                (1 + 1 / 2 + 2 / 3 + 2 / 4) / 4 + (0 + 0 + 1 / 3) / 3 + 0
            )
            / 3,
            "averaged over all relevant results, not per query": ((1 + 2 / 3) + 1 / 3) / 3,
            "final hit count in every numerator": ((2 / 1 + 2 / 3) / 2 + 1 / 3 + 0) / 3,
            "added the APs without dividing": sum(aps),
        }
    )


def test_map_with_a_missed_relevant_result_and_a_failed_query():
    lists, rs = [[1, 0, 1], [0, 0, 0], [0, 1]], [3, 2, 1]
    aps = [reference_ap(y, r) for y, r in zip(lists, rs, strict=True)]
    data = {"queries": [_query(y, r) for y, r in zip(lists, rs, strict=True)], "k": None}
    values = _values("MAP", data, sum(aps) / 3)
    assert values["forgot the missed relevant results"] == pytest.approx(
        ((1 + 2 / 3) / 2 + 0 + 1 / 2) / 3
    )
    assert values["left out a query that found nothing"] == pytest.approx((aps[0] + aps[2]) / 2)
    assert "skip instead of zero" not in values  # no query without relevant results


def test_gmap():  # 13.2: one relevant document each, at ranks 2, 1, 4 and nowhere
    lists = [[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 0]]
    aps, floored = [1 / 2, 1, 1 / 4, 0.0], [1 / 2, 1, 1 / 4, 1e-5]
    data = {"queries": [_query(y, 1) for y in lists], "k": None}
    truth = math.prod(floored) ** (1 / 4)
    values = _values("GMAP", data, truth)
    assert values == pytest.approx(
        {
            "the arithmetic mean (MAP)": sum(aps) / 4,
            "no floor under a zero AP": 0.0,
            "mean of the logs, not exponentiated": sum(map(math.log, floored)) / 4,
            "left out the failed query": (1 / 2 * 1 * 1 / 4) ** (1 / 3),
        }
    )  # the product, 1.25e-06, is 0.0000 too: forgetting the floor explains that answer
    explanation = wrong_answers("GMAP", data, truth)[0].explanation
    assert "0.5, 1, 0.25, 0" in explanation
    with language("zh"):
        explanation = wrong_answers("GMAP", data, truth)[0].explanation
    assert "（0.5、1、0.25、0）" in explanation  # the Chinese list separator, as in the prompt


def test_gmap_without_a_failed_query_offers_the_product_mistakes():
    lists = [[0, 1, 0], [1, 0, 0], [0, 0, 1]]  # APs 1/2, 1, 1/3
    data = {"queries": [_query(y, 1) for y in lists], "k": None}
    values = _values("GMAP", data, (1 / 6) ** (1 / 3))
    assert values["multiplied the APs without the root"] == pytest.approx(1 / 6)
    assert values["divided the product by the number of queries"] == pytest.approx(1 / 18)
    explanations = {w.name: w.explanation for w in wrong_answers("GMAP", data, 0.55)}
    assert "0.5 × 1 × 1/3" in explanations["multiplied the APs without the root"]


def test_gmap_without_the_floor_of_an_ap_below_it():
    tiny = {"labels": [1], "n_relevant": 200_000, "k": None}  # AP 1/200000, below 0.00001
    data = {"queries": [tiny, _query([0, 1], 1)], "k": None}
    truth = (1e-5 * 1 / 2) ** (1 / 2)
    values = _values("GMAP", data, truth)
    assert values["no floor under a zero AP"] == pytest.approx((1 / 200_000 * 1 / 2) ** (1 / 2))


def test_queries_are_checked():
    with pytest.raises(ValueError, match=r"data\['queries'\] must be a non-empty list"):
        queries_of({"queries": [], "k": None})
    assert [q.k for q in queries_of({"queries": [_query([1, 0])], "k": 1})] == [1]


def test_an_empty_query_counted_as_one_shows_the_mean_it_took():  # 04.1
    lists = [[1, 0, 1, 0], [0, 0, 1], [0, 0, 0, 0]]
    data = {"queries": [_query(y) for y in lists], "k": None}
    aps = [(1 + 2 / 3) / 2, 1 / 3, 1.0]
    with language("en"):
        found = {wrong.name: wrong for wrong in wrong_answers("MAP", data, 0.0)}
    shown_sum = " + ".join(f"{ap:.4f}" for ap in aps)
    assert f"MAP = ({shown_sum}) / 3 = {sum(aps) / 3:.4f}" in (
        found["counted an empty query as 1"].explanation
    )
