"""Every measure against trec_eval itself, through pytrec-eval-terrier.

2,500 random queries: lists of 1 to 150 results, relevant documents that were
never retrieved, judged and unjudged non-relevant documents, graded judgments
(for nDCG), and queries with no relevant document at all. Scores are distinct
integers (exact in trec_eval's float32), so the ranking is the list order.
"""

from __future__ import annotations

import numpy as np
import pytest

import mapteach

pytrec_eval = pytest.importorskip("pytrec_eval")

N_QUERIES = 2500
CUTOFFS = (5, 10, 100)


def _random_collection(seed: int = 20261130):
    rng = np.random.default_rng(seed)
    queries, qrels, run = [], {}, {}
    for q in range(N_QUERIES):
        qid = f"q{q}"
        length = int(rng.integers(1, 151)) if rng.random() < 0.3 else int(rng.integers(1, 25))
        no_relevant = rng.random() < 0.1
        p_rel = 0.0 if no_relevant else rng.random()
        grades = np.where(rng.random(length) < p_rel, rng.integers(1, 4, length), 0)
        unretrieved = [] if no_relevant else rng.integers(1, 4, int(rng.integers(0, 4))).tolist()
        docs = [f"d{i}" for i in range(length)]
        judgments = {}
        for doc, grade in zip(docs, grades, strict=True):
            if grade or rng.random() < 0.5:  # some non-relevant documents are unjudged
                judgments[doc] = int(grade)
        for i, grade in enumerate(unretrieved):
            judgments[f"u{i}"] = int(grade)
        judgments["never_retrieved_nonrelevant"] = 0  # every query is in the qrels
        qrels[qid] = judgments
        run[qid] = {doc: float(length - i) for i, doc in enumerate(docs)}
        queries.append(
            (
                qid,
                grades,
                grades > 0,
                int((grades > 0).sum()) + len(unretrieved),
                [g for g in (*grades, *unretrieved) if g > 0],
            )
        )
    return queries, qrels, run


@pytest.fixture(scope="module")
def collection():
    queries, qrels, run = _random_collection()
    measures = {"map", "map_cut", "P", "recall", "recip_rank", "ndcg_cut", "ndcg"}
    trec = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
    return queries, trec


@pytest.fixture(scope="module")
def binary_trec():
    """trec_eval on the same collection with every grade >= 1 turned into 1."""
    queries, qrels, run = _random_collection()
    binary = {q: {d: int(g > 0) for d, g in docs.items()} for q, docs in qrels.items()}
    measures = {"map", "map_cut", "P", "recall", "recip_rank", "ndcg_cut", "ndcg"}
    return queries, pytrec_eval.RelevanceEvaluator(binary, measures).evaluate(run)


def test_collection_covers_the_edge_cases(collection):
    queries, trec = collection
    assert len(trec) == N_QUERIES
    assert sum(r == 0 for _, _, _, r, _ in queries) > 100  # queries with no relevant doc
    assert sum(r > y.sum() for _, _, y, r, _ in queries) > 500  # unretrieved relevant docs
    assert sum(y.size > 100 for _, _, y, _, _ in queries) > 100  # lists past cutoff 100


CASES = [
    ("map", lambda y, r, g, ideal: mapteach.average_precision(y, n_relevant=r)),
    ("recip_rank", lambda y, r, g, ideal: mapteach.reciprocal_rank(y)),
    ("ndcg", lambda y, r, g, ideal: mapteach.ndcg_at_k(g, max(len(g), len(ideal), 1), ideal=ideal)),
]
for k in CUTOFFS:
    CASES += [
        (
            f"map_cut_{k}",
            lambda y, r, g, ideal, k=k: mapteach.average_precision(y, n_relevant=r, k=k),
        ),
        (f"P_{k}", lambda y, r, g, ideal, k=k: mapteach.precision_at_k(y, k)),
        (f"recall_{k}", lambda y, r, g, ideal, k=k: mapteach.recall_at_k(y, k, n_relevant=r)),
        (f"ndcg_cut_{k}", lambda y, r, g, ideal, k=k: mapteach.ndcg_at_k(g, k, ideal=ideal)),
    ]


@pytest.mark.parametrize(("trec_measure", "ours"), CASES, ids=[name for name, _ in CASES])
def test_equals_trec_eval(collection, trec_measure, ours):
    queries, trec = collection
    mismatches = []
    for qid, grades, labels, r, ideal in queries:
        expected = trec[qid][trec_measure]
        got = ours(labels, r, grades, ideal)
        if abs(got - expected) > 1e-9:
            mismatches.append((qid, labels.astype(int).tolist()[:20], r, got, expected))
    assert not mismatches, f"{len(mismatches)} queries differ, first: {mismatches[:3]}"


def test_mean_average_precision_equals_trec_eval_mean(collection):
    queries, trec = collection
    ours = mapteach.mean_average_precision(
        [labels for _, _, labels, _, _ in queries], n_relevant=[r for *_, r, _ in queries]
    )
    assert ours == pytest.approx(np.mean([trec[qid]["map"] for qid, *_ in queries]), abs=1e-12)


@pytest.mark.parametrize(
    ("name", "trec_name"),
    [
        ("AP", "map"),
        ("AP@10", "map_cut_10"),
        ("P@5", "P_5"),
        ("R@100", "recall_100"),
        ("RR", "recip_rank"),
        ("nDCG@10", "ndcg_cut_10"),
        ("nDCG@5", "ndcg_cut_5"),
        ("nDCG", "ndcg"),
    ],
)
def test_measure_names_equal_trec_eval(binary_trec, name, trec_name):
    queries, trec = binary_trec
    measure = mapteach.parse_measure(name)
    for qid, _, labels, r, _ in queries:
        got = measure.score(labels, n_relevant=r)
        assert got == pytest.approx(trec[qid][trec_name], abs=1e-9), (qid, name)
