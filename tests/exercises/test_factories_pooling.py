"""Pooling exercises: the pool's size, pooled AP and bpref, against trec_eval and counts here."""

from __future__ import annotations

import pytest

from mapteach.classroom.identity import forget_learner, learner
from mapteach.exercises import bpref_exercise, pool_exercise, pooled_ap_exercise

pytrec_eval = pytest.importorskip("pytrec_eval")

COMPLETE = {"u1": 1, "j1": 1, "j2": 1, "j3": 1, "n1": 0, "u2": 0}
JUDGED = {"j1": 1, "j2": 1, "j3": 1, "n1": 0}
RANKING = ["u1", "j1", "n1", "u2", "j2"]


@pytest.fixture(autouse=True)
def no_learner():
    forget_learner()
    yield
    forget_learner()


def _trec(qrels, ranking, measure):
    run = {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)}
    result = pytrec_eval.RelevanceEvaluator({"q": dict(qrels)}, {measure}).evaluate({"q": run})
    return result["q"][measure]


def _values(exercise):
    return {w.name: w.value for w in exercise.misconceptions}


def test_the_pool_is_the_union_of_the_runs_tops():
    exercise = pool_exercise(["d3", "d7", "d1", "d9"], ["d7", "d2", "d3", "d5"], 2)
    assert exercise.truth == 3  # {d3, d7} | {d7, d2}
    assert exercise.measure is None and exercise.mistake_kind == "pool"
    assert exercise.data == {
        "runs": [["d3", "d7", "d1", "d9"], ["d7", "d2", "d3", "d5"]],
        "depth": 2,
    }
    assert _values(exercise) == {
        "added the runs' depths": 4,
        "only documents every run found": 1,  # d7
        "pooled the whole lists": 6,
    }


def test_pooled_ap_is_trec_evals_with_the_pooled_qrels():
    exercise = pooled_ap_exercise(RANKING, COMPLETE, JUDGED)
    assert exercise.truth == pytest.approx(_trec(JUDGED, RANKING, "map"))
    assert exercise.truth == pytest.approx((1 / 2 + 2 / 5) / 3)  # [0, 1, 0, 0, 1], R = 3
    assert exercise.measure == "AP" and exercise.mistake_kind == "pooled AP"
    assert exercise.data["labels"] == [0, 1, 0, 0, 1]
    assert exercise.data["judged"] == [0, 1, 1, 0, 1]
    assert exercise.data["complete_labels"] == [1, 1, 0, 0, 1]
    assert (exercise.data["n_relevant"], exercise.data["complete_n_relevant"]) == (3, 4)
    assert exercise.data["missed"] == ["u1"] and exercise.data["k"] is None
    values = _values(exercise)
    assert values["counted the unjudged relevant document"] == pytest.approx(
        _trec(COMPLETE, RANKING, "map")
    )
    assert values["left the unjudged documents out (condensed list)"] == pytest.approx(
        _trec(JUDGED, ["j1", "n1", "j2"], "map")  # the condensed list
    )
    assert exercise.check("5/9").convention
    assert "with R = 3: AP = (1/2 + 2/5) / 3" in exercise.solution


def test_pooled_ap_refuses_judgments_it_cannot_score():
    with pytest.raises(ValueError, match="hold no relevant document"):
        pooled_ap_exercise(RANKING, COMPLETE, {"n1": 0})
    with pytest.raises(ValueError, match=r"judged\['j1'\] is 0 but complete\['j1'\] is 1"):
        pooled_ap_exercise(RANKING, COMPLETE, {"j1": 0, "j2": 1})
    with pytest.raises(ValueError, match="'z9' at rank 2 has no complete judgment"):
        pooled_ap_exercise(["u1", "z9"], COMPLETE, JUDGED)


BPREF_JUDGMENTS = {"a": 1, "b": 1, "c": 1, "d": 2, "x": 0, "y": 0, "z": 0}
BPREF_RANKING = ["a", "x", "u", "b", "y", "c", "v"]  # d relevant, z judged: not retrieved


def test_bpref_is_trec_evals_and_the_exercise_keeps_its_data():
    exercise = bpref_exercise(BPREF_RANKING, BPREF_JUDGMENTS)
    assert exercise.truth == pytest.approx(_trec(BPREF_JUDGMENTS, BPREF_RANKING, "bpref"))
    # R = 4, N = 3: (1 + (1 - 1/3) + (1 - 2/3)) / 4
    assert exercise.truth == pytest.approx((1 + 2 / 3 + 1 / 3) / 4)
    assert exercise.measure == "Bpref" and exercise.mistake_kind == "Bpref"
    assert exercise.data == {
        "ranking": BPREF_RANKING,
        "judgments": BPREF_JUDGMENTS,
        "labels": [1, 0, 0, 1, 0, 1, 0],
        "judged": [1, 1, 0, 1, 1, 1, 0],
        "n_relevant": 4,
        "n_nonrelevant": 3,
        "k": None,
    }
    paper = exercise.check(f"{(1 + 3 / 4 + 2 / 4) / 4:.4f}")
    assert paper.misconception == "n divided by R (Buckley and Voorhees' paper)"
    assert paper.convention
    assert "1 - min(n, R)/min(R, N)" in exercise.prompt
    assert "bpref = (1 + (1 − 1/3) + (1 − 2/3)) / 4 = 0.5000" in exercise.solution


def test_bpref_refuses_judgments_with_nothing_relevant():
    with pytest.raises(ValueError, match="hold no relevant document"):
        bpref_exercise(["a", "b"], {"a": 0})


def test_varied_pooling_exercises_reorder_the_same_documents():
    learner("ada")
    plain = pooled_ap_exercise(RANKING, COMPLETE, JUDGED, key="99.6")
    assert plain.data["ranking"] == RANKING  # no vary: as written
    mine = pooled_ap_exercise(RANKING, COMPLETE, JUDGED, key="99.6", vary=True)
    assert mine.data["ranking"] != RANKING and sorted(mine.data["ranking"]) == sorted(RANKING)
    assert mine.truth == pytest.approx(_trec(JUDGED, mine.data["ranking"], "map"))
    assert {w.name for w in mine.misconceptions} == {w.name for w in plain.misconceptions}
    bpref = bpref_exercise(BPREF_RANKING, BPREF_JUDGMENTS, key="99.5", vary=True)
    assert bpref.truth == pytest.approx(_trec(BPREF_JUDGMENTS, bpref.data["ranking"], "bpref"))
