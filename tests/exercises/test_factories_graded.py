"""nDCG@k exercises: truths against trec_eval (pytrec_eval), data, prompts and errors."""

from __future__ import annotations

import math

import pytest

from mapteach.classroom.identity import forget_learner, learner
from mapteach.exercises import ndcg_exercise

pytrec_eval = pytest.importorskip("pytrec_eval")

GRADES = [1, 3, 0, 0, 1, 0, 0, 1, 0, 0]
IDEAL = [3, 2, 1, 1, 1, 0, 0]


@pytest.fixture(autouse=True)
def no_learner():
    forget_learner()
    yield
    forget_learner()


def _trec_ndcg(grades, ideal, k):
    """trec_eval's ndcg_cut_k: the retrieved documents' grades, the others judged apart."""
    retrieved = {f"d{i}": g for i, g in enumerate(grades)}
    missed = list(ideal)
    for grade in grades:
        if grade > 0:
            missed.remove(grade)
    qrels = retrieved | {f"m{i}": g for i, g in enumerate(missed)}
    run = {d: float(len(grades) - i) for i, d in enumerate(retrieved)}
    measure = f"ndcg_cut.{k}"
    result = pytrec_eval.RelevanceEvaluator({"q": qrels}, {measure}).evaluate({"q": run})
    return result["q"][f"ndcg_cut_{k}"]


def test_ndcg_is_trec_evals_and_the_exercise_keeps_its_data():
    exercise = ndcg_exercise(GRADES, 5, ideal_grades=IDEAL)
    assert exercise.truth == pytest.approx(_trec_ndcg(GRADES, IDEAL, 5))
    assert exercise.measure == "nDCG@5" and exercise.mistake_kind == "nDCG@k"
    assert exercise.data == {
        "labels": [1, 1, 0, 0, 1, 0, 0, 1, 0, 0],
        "grades": GRADES,
        "ideal_grades": IDEAL,
        "n_relevant": 5,
        "k": 5,
    }


def test_the_default_prompt_fixes_the_convention_it_asks():
    prompt = ndcg_exercise(GRADES, 5, ideal_grades=IDEAL).prompt
    assert "linear gain" in prompt and "log2(rank + 1)" in prompt
    assert "every judged document" in prompt and "graded 2" in prompt  # the one it missed
    assert "<code>[3, 2, 1, 1, 1, 0, 0]</code>" in prompt
    assert "retrieved every relevant" in ndcg_exercise([2, 0, 1], 3).prompt


def test_a_convention_is_named_as_one_and_a_slip_as_a_slip():
    exercise = ndcg_exercise(GRADES, 5, ideal_grades=IDEAL)
    best = [3, 2, 1, 1, 1]
    exp = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(GRADES[:5]))
    exp /= sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(best))
    feedback = exercise.check(f"{exp:.4f}")
    assert feedback.misconception == "exponential gain 2^grade - 1" and feedback.convention
    listed = _trec_ndcg(GRADES, [g for g in GRADES if g], 5)  # ideal from the list only
    slip = exercise.check(f"{listed:.4f}")
    assert slip.misconception == "ideal ranking from the retrieved list only"
    assert not slip.convention


def test_the_solution_shows_dcg_over_idcg_and_the_trace_without_tex():
    solution = ndcg_exercise(GRADES, 5, ideal_grades=IDEAL).solution
    assert "= 3.2796 / 5.5794 = 0.5878" in solution
    assert "running nDCG" in solution and "<table" in solution
    assert "\\frac" not in solution and "$" not in solution


def test_bad_grades_are_refused_by_name():
    with pytest.raises(ValueError, match=r"grades\[1\] is 1.5"):
        ndcg_exercise([1, 1.5], 2)
    with pytest.raises(ValueError, match="ideal must list every judged document's gain"):
        ndcg_exercise([3, 1], 2, ideal_grades=[1])
    with pytest.raises(ValueError, match="k"):
        ndcg_exercise([1], 0)


def test_a_varied_exercise_keeps_the_grades_and_the_mistakes():
    learner("ada")
    plain = ndcg_exercise(GRADES, 5, ideal_grades=IDEAL, key="99.9")
    mine = ndcg_exercise(GRADES, 5, ideal_grades=IDEAL, key="99.9", vary=True)
    assert mine.data["grades"] != GRADES and sorted(mine.data["grades"]) == sorted(GRADES)
    assert sorted(mine.data["grades"][:5]) == sorted(GRADES[:5])  # shuffled within the top k
    assert mine.data["labels"] == [int(g > 0) for g in mine.data["grades"]]
    assert mine.truth == pytest.approx(_trec_ndcg(mine.data["grades"], IDEAL, 5))
    assert {w.name for w in mine.misconceptions} == {w.name for w in plain.misconceptions}
