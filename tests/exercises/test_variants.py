"""Learner variants: only ``vary=True`` exercises vary; a learner (or a group) gets their
own data, as hard and as well checked, and the prompt states that data's own facts.

Each factory is built with and without a learner: with none it is as written (nbval
stays deterministic); with one, the same learner always gets the same variant, the
answer is recomputed here from the variant's data, the same mistakes are recognised,
and no two of them newly share a value.
"""

from __future__ import annotations

import math

import pytest

from mapteach import exercises as ex
from mapteach.classroom.identity import forget_learner, learner
from mapteach.exercises.answers import agrees_at
from mapteach.exercises.variants import variant_data, variant_orders, variant_rng
from tests.reference import reference_ap

RANKS = "{relevant_ranks}"
FACTORIES = {
    "ap": lambda **kw: ex.ap_exercise(
        [0, 1, 1, 0, 1, 0], n_relevant=4, prompt="AP of {labels} (" + RANKS + "), R = {r}?", **kw
    ),
    "ap@3": lambda **kw: ex.ap_exercise([1, 1, 0, 0, 0, 1, 1, 1, 0, 0], k=3, n_relevant=5, **kw),
    "p@k": lambda **kw: ex.precision_exercise([1, 0, 1, 0, 0, 1], 5, **kw),
    "r@k": lambda **kw: ex.recall_exercise([1, 0, 1, 0, 0, 1], 3, n_relevant=4, **kw),
    "map": lambda **kw: ex.map_exercise([[1, 0, 1, 0], [0, 0, 1], [0, 0, 0, 0]], **kw),
    "interpolated": lambda **kw: ex.interpolated_precision_exercise(
        [1, 0, 0, 1, 1, 0, 0, 1], "2/3", **kw
    ),
    "rprec": lambda **kw: ex.r_precision_exercise([0, 1, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0], 6, **kw),
    "gmap": lambda **kw: ex.gmap_exercise([2, 1, 4, None], **kw),
}


@pytest.fixture(autouse=True)
def no_learner():
    forget_learner()
    yield
    forget_learner()


def _recognised(exercise):
    """The mistakes the exercise tells apart, and the pairs of them sharing a value."""
    wrongs = exercise.misconceptions
    pairs = {
        frozenset((a.name, b.name))
        for a in wrongs
        for b in wrongs
        if a.name < b.name and agrees_at(a.value, b.value, exercise.decimals)
    }
    return {w.name for w in wrongs}, pairs


def _shape(data):
    """What a variant keeps: per list, its length, R, cutoff and hits in the top k."""
    queries = data.get("queries", [data])
    cutoff = data.get("k")
    return [
        (
            len(q["labels"]),
            q["n_relevant"],
            q["k"],
            sum(q["labels"]),
            sum(q["labels"][: cutoff or q["k"] or len(q["labels"])]),
        )
        for q in queries
    ]


@pytest.mark.parametrize("name", FACTORIES)
def test_a_learner_gets_a_variant_only_when_the_exercise_varies(name):
    make = FACTORIES[name]
    plain = make(key="99.1", vary=True)
    assert make(key=None).prompt == plain.prompt  # no learner: as written
    learner("ada")
    assert make(key="99.1").data == plain.data  # vary=False: as written, learner or not
    ada, again = make(key="99.1", vary=True), make(key="99.1", vary=True)
    assert ada.prompt == again.prompt and ada.data == again.data
    assert ada.data != plain.data and ada.prompt != plain.prompt
    assert _shape(ada.data) == _shape(plain.data)
    assert ada.check(f"{ada.truth:.{ada.decimals}f}").correct
    names, pairs = _recognised(ada)
    plain_names, plain_pairs = _recognised(plain)
    assert names == plain_names and pairs <= plain_pairs


def test_everyone_in_a_group_gets_the_groups_variant():
    make = FACTORIES["ap"]
    learner("ada", group="pair 3")
    ada = make(key="03.1", vary=True)
    learner("bo")  # still in pair 3
    assert make(key="03.1", vary=True).data == ada.data
    forget_learner()
    learner("bo")
    alone = [make(key=f"03.{i}", vary=True).data for i in range(5)]
    learner("bo", group="pair 3")
    grouped = [make(key=f"03.{i}", vary=True).data for i in range(5)]
    assert alone != grouped


def test_the_rng_is_the_groups_then_the_learners():
    assert variant_rng("03.1") is None
    learner("ada")
    mine = variant_rng("03.1").random()
    learner("ada", group="g")
    assert variant_rng("03.1").random() != mine
    assert variant_rng(None) is None


def _relevant_ranks(labels):
    """The English facts a prompt states, written out here."""
    ranks = [str(i + 1) for i, y in enumerate(labels) if y]
    if len(ranks) == 1:
        return f"one relevant result, at rank {ranks[0]}"
    return f"{len(ranks)} relevant results, at ranks {', '.join(ranks[:-1])} and {ranks[-1]}"


def test_two_hundred_learners_each_read_the_facts_of_their_own_data():
    plain = FACTORIES["ap"](key="03.1", vary=True)
    wanted = _recognised(plain)
    distinct = set()
    for number in range(200):
        learner(f"learner {number}")
        exercise = FACTORIES["ap"](key="03.1", vary=True)
        labels = exercise.data["labels"]
        assert exercise.prompt == f"AP of {labels} ({_relevant_ranks(labels)}), R = 4?"
        assert exercise.truth == pytest.approx(reference_ap(labels, 4))
        names, pairs = _recognised(exercise)
        assert names == wanted[0] and pairs <= wanted[1]
        distinct.add(tuple(labels))
    assert len(distinct) > 5  # learners really get different lists


def test_variant_data_keeps_the_hits_in_the_top_k_and_grades_alongside():
    learner("ada")
    data = {"labels": [1, 0, 1, 0, 0, 1], "grades": [2, 0, 1, 0, 0, 3], "n_relevant": 3, "k": 3}

    def truth(d):
        return sum(d["labels"][:3]) / 3

    for number in range(40):
        learner(f"learner {number}")
        mine = variant_data(data, kind="P@k", truth=truth, key="1.1", vary=True)
        assert sum(mine["labels"][:3]) == 2 and sorted(mine["grades"]) == [0, 0, 0, 1, 2, 3]
        pairs = zip(mine["grades"], mine["labels"], strict=True)
        assert all((grade > 0) == bool(label) for grade, label in pairs)


def test_variant_orders_vary_only_when_asked():
    learner("ada")

    def scores(order):
        return float(order.index("d1")), {}

    assert variant_orders([["d1", "d2", "d3"]], "14.1", scores, 0, vary=False) == [
        ["d1", "d2", "d3"]
    ]
    [order] = variant_orders([["d1", "d2", "d3"]], "14.1", scores, 0, vary=True)
    assert sorted(order) == ["d1", "d2", "d3"] and order != ["d1", "d2", "d3"]
    assert math.isfinite(scores(order)[0])
