"""RR and MRR exercises: truths against trec_eval (pytrec_eval), data, prompts and errors."""

from __future__ import annotations

import pytest

from mapteach.classroom.identity import forget_learner, learner
from mapteach.exercises import mrr_exercise, rr_exercise
from mapteach.exercises.mistakes import wrong_answers

pytrec_eval = pytest.importorskip("pytrec_eval")


@pytest.fixture(autouse=True)
def no_learner():
    forget_learner()
    yield
    forget_learner()


def _trec_rr(labels, n_relevant):
    """trec_eval's recip_rank of one ranked list, R relevant in all."""
    docs = [f"d{i}" for i in range(len(labels))]
    qrels = {d: int(y) for d, y in zip(docs, labels, strict=True)}
    qrels |= {f"m{i}": 1 for i in range(n_relevant - sum(labels))}  # relevant, never retrieved
    run = {d: float(len(docs) - i) for i, d in enumerate(docs)}
    result = pytrec_eval.RelevanceEvaluator({"q": qrels}, {"recip_rank"}).evaluate({"q": run})
    return result["q"]["recip_rank"]


def test_rr_is_trec_evals_and_the_exercise_keeps_its_data():
    exercise = rr_exercise([0, 0, 1, 0, 1], n_relevant=3)
    assert exercise.truth == pytest.approx(_trec_rr([0, 0, 1, 0, 1], 3))
    assert exercise.measure == "RR" and exercise.mistake_kind == "RR"
    assert exercise.data == {"labels": [0, 0, 1, 0, 1], "n_relevant": 3, "k": None}
    assert exercise.check("1/5").misconception == "1/rank of the last relevant result"
    assert exercise.check("3").misconception == "the rank, not its reciprocal"
    assert "<code>[0, 0, 1, 0, 1]</code>" in exercise.prompt


def test_rr_at_k_and_its_cutoff_slip():
    exercise = rr_exercise([0, 0, 1], k=2)
    assert exercise.truth == 0.0 and exercise.measure == "RR@2"
    assert exercise.data["k"] == 2
    assert exercise.check("1/3").misconception == "ignored the cutoff"
    assert "RR@2" in exercise.prompt and "top 2" in exercise.prompt


def test_a_template_prompt_is_filled_from_the_data():
    exercise = rr_exercise([0, 1, 0, 1], prompt="RR of {labels} ({relevant_ranks}), R = {r}?")
    assert exercise.prompt == "RR of [0, 1, 0, 1] (2 relevant results, at ranks 2 and 4), R = 2?"
    with pytest.raises(ValueError, match=r"names \{list\}"):
        rr_exercise([0, 1], prompt="RR of {list}?")


def test_the_solution_shows_the_arithmetic_and_the_trace_without_tex():
    exercise = rr_exercise([0, 1, 0, 1])
    assert "RR = 1/2 = 0.5000" in exercise.solution and "<table" in exercise.solution
    assert "running RR" in exercise.solution
    assert "\\frac" not in exercise.solution and "$" not in exercise.solution
    assert "累计 RR" in rr_exercise([0, 1], lang="zh").solution


def test_bad_data_is_refused_by_name():
    with pytest.raises(ValueError, match="n_relevant=1 is smaller than the 2"):
        rr_exercise([1, 1], n_relevant=1)
    with pytest.raises(ValueError, match="k"):
        rr_exercise([1, 0], k=0)


def test_a_varied_exercise_gives_a_learner_their_own_list_only_when_asked():
    learner("ada")
    plain = rr_exercise([0, 0, 1, 0, 1, 0, 1], key="99.8")
    assert plain.data["labels"] == [0, 0, 1, 0, 1, 0, 1]
    mine = rr_exercise([0, 0, 1, 0, 1, 0, 1], key="99.8", vary=True)
    assert mine.data["labels"] != plain.data["labels"]
    assert sorted(mine.data["labels"]) == sorted(plain.data["labels"])
    assert str(mine.data["labels"]) in mine.prompt
    assert mine.truth == pytest.approx(_trec_rr(mine.data["labels"], 3))
    assert [w.name for w in mine.misconceptions] == [w.name for w in plain.misconceptions]


RANKINGS = [[0, 1, 0, 1], [0, 0, 0], [1, 0, 1]]


def test_mrr_is_the_mean_of_trec_evals_rr():
    exercise = mrr_exercise(RANKINGS, n_relevant=[3, 1, 2])
    expected = sum(_trec_rr(y, r) for y, r in zip(RANKINGS, [3, 1, 2], strict=True)) / 3
    assert exercise.truth == pytest.approx(expected)
    assert exercise.measure == "RR" and exercise.mistake_kind == "MRR"
    assert exercise.data == {
        "queries": [
            {"labels": [0, 1, 0, 1], "n_relevant": 3, "k": None},
            {"labels": [0, 0, 0], "n_relevant": 1, "k": None},
            {"labels": [1, 0, 1], "n_relevant": 2, "k": None},
        ],
        "k": None,
    }
    assert exercise.check("0.75").misconception == "skipped the queries with no relevant result"
    assert exercise.check("2/3").misconception == "reciprocal of the mean rank"
    assert "(R = 3)" in exercise.prompt
    assert "MRR = the mean of these 3 values = 0.5000" in exercise.solution


def test_mrr_at_k_cuts_every_query():
    exercise = mrr_exercise([[0, 0, 1], [1, 0]], k=2)
    assert exercise.truth == pytest.approx((0 + 1) / 2)  # query 1's hit is below rank 2
    assert exercise.measure == "RR@2"
    assert all(query["k"] == 2 for query in exercise.data["queries"])
    assert exercise.check(f"{(1 / 3 + 1) / 2:.4f}").misconception == "ignored the cutoff"


def test_mrr_refuses_an_r_per_query_of_the_wrong_length():
    with pytest.raises(ValueError, match="n_relevant has 2 entries for 3 rankings"):
        mrr_exercise(RANKINGS, n_relevant=[1, 2])


def test_outside_checks_recompute_the_mistakes_from_the_data():
    exercise = mrr_exercise(RANKINGS)
    again = wrong_answers(exercise.mistake_kind, exercise.data, exercise.truth)
    assert {w.name for w in exercise.misconceptions} <= {w.name for w in again}
