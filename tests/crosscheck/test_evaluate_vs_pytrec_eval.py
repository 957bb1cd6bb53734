"""evaluate() against trec_eval (pytrec-eval-terrier) on 1,000 random qrels/run pairs.

The pairs have graded judgments, relevant documents never retrieved,
unjudged retrieved documents, many tied scores (trec_eval breaks them by document
id, descending, as strings: d9 before d10), and queries that only one side has.
Scores are multiples of 1/4, so trec_eval's float32 keeps them exactly.

Negative grades are checked apart, one small case per fresh process: in
pytrec-eval-terrier 0.5.11 they corrupt memory, and after a few hundred
evaluations in one process the next evaluate() call never returns.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import numpy as np
import pytest

from mapteach.runs.evaluation import evaluate

pytrec_eval = pytest.importorskip("pytrec_eval")

N_PAIRS = 1000
MEASURES = {
    "AP": "map",
    "AP@5": "map_cut_5",
    "AP@10": "map_cut_10",
    "P@5": "P_5",
    "P@10": "P_10",
    "R@5": "recall_5",
    "R@10": "recall_10",
    "RR": "recip_rank",
    "nDCG": "ndcg",
    "nDCG@5": "ndcg_cut_5",
    "nDCG@10": "ndcg_cut_10",
    "Success@1": "success_1",
    "Success@5": "success_5",
}
TREC_MEASURES = {"map", "map_cut", "P", "recall", "recip_rank", "ndcg", "ndcg_cut", "success"}


def random_pair(rng: np.random.Generator):
    qrels, run = {}, {}
    for q in range(int(rng.integers(1, 5))):
        qid = f"q{q}"
        n_docs = int(rng.integers(1, 30))
        docs = [f"d{i}" for i in rng.permutation(40)[:n_docs]]
        if rng.random() < 0.9:  # some queries only in the qrels
            levels = int(rng.integers(1, 8))
            run[qid] = {doc: float(rng.integers(0, levels)) / 4 for doc in docs}
        if rng.random() < 0.9:  # some queries only in the run
            judged = {}
            for doc in [*docs, *(f"u{i}" for i in range(int(rng.integers(0, 4))))]:
                if rng.random() < 0.7:
                    judged[doc] = int(rng.choice([0, 0, 1, 1, 2, 3]))
            qrels[qid] = judged or {"u_nonrelevant": 0}
    if not set(qrels) & set(run):  # at least one common query
        qrels["q0"], run["q0"] = {"d1": 1}, {"d1": 1.0, "d2": 1.0}
    return qrels, run


@pytest.fixture(scope="module")
def pairs():
    rng = np.random.default_rng(11)
    return [random_pair(rng) for _ in range(N_PAIRS)]


def compare(pairs, threshold: int) -> list:
    mismatches = []
    for qrels, run in pairs:
        evaluator = pytrec_eval.RelevanceEvaluator(qrels, TREC_MEASURES, relevance_level=threshold)
        expected = evaluator.evaluate(run)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            ours = evaluate(
                qrels, run, list(MEASURES), relevance_threshold=threshold, missing="ignore"
            )  # pytrec_eval leaves out the judged queries a run lacks
        assert sorted(ours.index) == sorted(expected), (qrels, run)
        for qid, row in ours.iterrows():
            for name, trec_name in MEASURES.items():
                if abs(row[name] - expected[qid][trec_name]) > 1e-9:
                    mismatches.append((name, qid, row[name], expected[qid][trec_name], qrels, run))
    return mismatches


def test_pairs_cover_the_edge_cases(pairs):
    queries_only_in_qrels = sum(bool(set(q) - set(r)) for q, r in pairs)
    queries_only_in_run = sum(bool(set(r) - set(q)) for q, r in pairs)
    tied = sum(len(set(s.values())) < len(s) for _, r in pairs for s in r.values())
    assert queries_only_in_qrels > 100 and queries_only_in_run > 100 and tied > 500


@pytest.mark.parametrize("threshold", [1, 2])
def test_every_measure_equals_trec_eval(pairs, threshold):
    mismatches = compare(pairs, threshold)
    assert not mismatches, f"{len(mismatches)} differ; first: {mismatches[0]}"


def test_mean_is_trec_eval_map(pairs):
    qrels, run = {}, {}
    for i, (q, r) in enumerate(pairs[:200]):
        qrels.update({f"{i}-{k}": v for k, v in q.items()})
        run.update({f"{i}-{k}": v for k, v in r.items()})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ours = evaluate(qrels, run, ["AP"], missing="ignore")
    expected = pytrec_eval.RelevanceEvaluator(qrels, {"map"}).evaluate(run)
    assert ours["AP"].mean() == pytest.approx(
        np.mean([v["map"] for v in expected.values()]), abs=1e-12
    )


NEGATIVE_CASES = [
    ({"q": {"d1": 2, "d2": -1, "d3": 1}}, {"q": {"d2": 3.0, "d1": 2.0, "d3": 1.0}}),
    ({"q": {"d1": -2, "d2": 1}}, {"q": {"d1": 1.0, "d2": 0.5, "d3": 0.25}}),
    ({"q": {"d1": -1, "d2": 0, "u": 3}}, {"q": {"d1": 1.0, "d2": 1.0}}),
]
TREC_IN_A_FRESH_PROCESS = """
import json, sys, pytrec_eval
qrels, run = json.loads(sys.argv[1])
measures = {"map", "ndcg", "ndcg_cut", "P", "recip_rank"}
print(json.dumps(pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)))
"""


@pytest.mark.parametrize(("qrels", "run"), NEGATIVE_CASES)
def test_negative_grades_count_as_non_relevant_zero_gain(qrels, run):
    output = subprocess.run(
        [sys.executable, "-c", TREC_IN_A_FRESH_PROCESS, json.dumps([qrels, run])],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    expected = json.loads(output)["q"]
    ours = evaluate(qrels, run, ["AP", "nDCG", "nDCG@5", "P@5", "RR"]).loc["q"]
    for name, trec_name in [
        ("AP", "map"),
        ("nDCG", "ndcg"),
        ("nDCG@5", "ndcg_cut_5"),
        ("P@5", "P_5"),
        ("RR", "recip_rank"),
    ]:
        assert ours[name] == pytest.approx(expected[trec_name], abs=1e-9), name
