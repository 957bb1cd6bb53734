"""Rprec, bpref, the counts, gm_map, -M and -J against trec_eval; Judged@k against ir_measures.

1,200 random queries per collection: lists of 1 to 150 results whose document ids
do not follow the scores, graded judgments (0 to 3), unjudged retrieved documents,
relevant and judged non-relevant documents never retrieved, queries with no
relevant document (R = 0), queries with no judged non-relevant one (bpref's N = 0),
and queries that only the run or only the qrels has. Scores are distinct integers
within a query, exact in trec_eval's float32.

Grades are >= 0 in bulk: in pytrec-eval-terrier 0.5.11 negative grades corrupt
memory, so they are checked on one small case in a fresh process.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import warnings

import numpy as np
import pytest

from mapteach.cli import main
from mapteach.runs.evaluation import evaluate, summarize

pytrec_eval = pytest.importorskip("pytrec_eval")
ir_measures = pytest.importorskip("ir_measures")

N_QUERIES = 1200
TREC_MEASURES = {
    "map",
    "map_cut",
    "P",
    "recall",
    "recip_rank",
    "ndcg",
    "ndcg_cut",
    "success",
    "Rprec",
    "bpref",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "gm_map",
}
#: Measures named as trec_eval names them; the columns keep these names.
NAMES = [
    "map",
    "map_cut.10",
    "P_10",
    "recall.100",
    "recip_rank",
    "ndcg",
    "ndcg_cut_10",
    "success.10",
    "Rprec",
    "bpref",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "gm_map",
]


def random_collection(seed: int, *, negative: bool = False):
    """Qrels and run dicts; with ``negative``, some grades are -1 (for ir_measures only)."""
    rng = np.random.default_rng(seed)
    grades = [-1, 0, 0, 1, 2, 3] if negative else [0, 0, 1, 1, 2, 3]
    qrels, run = {}, {}
    for q in range(N_QUERIES):
        qid = f"q{q:04d}"
        length = int(rng.integers(1, 151)) if rng.random() < 0.2 else int(rng.integers(1, 40))
        docs = [f"d{i}" for i in rng.choice(400, length, replace=False)]
        kind = rng.random()  # 10% with no relevant document, 10% with no judged non-relevant one
        allowed = [g for g in grades if g < 1] if kind < 0.1 else grades
        allowed = [g for g in allowed if g != 0] if 0.1 <= kind < 0.2 else allowed
        p_judged = rng.random()
        judged = {doc: int(rng.choice(allowed)) for doc in docs if rng.random() < p_judged}
        for i in range(int(rng.integers(0, 4))):  # judged documents never retrieved
            judged[f"u{i}"] = int(rng.choice(allowed))
        if q % 50 != 7:  # some queries only in the run
            qrels[qid] = judged or {"u_only": int(rng.choice(allowed))}
        if q % 50 != 11:  # some only in the qrels
            scores = rng.choice(1_000_000, length, replace=False)
            run[qid] = {doc: float(score) for doc, score in zip(docs, scores, strict=True)}
    return qrels, run


def trec_order(scores: dict[str, float]) -> list[str]:
    """trec_eval's ranking: score descending, then docno descending."""
    by_docno = sorted(scores, reverse=True)
    return sorted(by_docno, key=lambda doc: -scores[doc])


def top(run: dict, n: int) -> dict:
    """Each query's first ``n`` results in trec_eval's order (what -M n keeps)."""
    return {q: {d: scores[d] for d in trec_order(scores)[:n]} for q, scores in run.items()}


def ours(qrels, run, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # queries only one side has
        return evaluate(qrels, run, NAMES, **{"missing": "ignore", **options})  # as pytrec_eval


def trec(qrels, run, *, threshold: int = 1, judged_only: bool = False) -> dict:
    evaluator = pytrec_eval.RelevanceEvaluator(
        qrels, TREC_MEASURES, relevance_level=threshold, judged_docs_only_flag=judged_only
    )
    return evaluator.evaluate(run)


def mismatches(table, expected: dict) -> dict[str, int]:
    """For each measure, the queries that differ from trec_eval by more than 1e-9.

    trec_eval's per-query gm_map is log(max(AP, 1e-5)); ours is the AP itself.
    """
    assert sorted(table.index) == sorted(expected)
    found = {}
    for name in NAMES:
        key = name.replace(".", "_")
        got = table[name].to_numpy()
        if name == "gm_map":
            got = np.log(np.maximum(got, 1e-5))
        want = np.array([expected[q][key] for q in table.index])
        found[name] = int((np.abs(got - want) > 1e-9).sum())
    return found


@pytest.fixture(scope="module")
def collection():
    return random_collection(2024)


def test_collection_covers_the_edge_cases(collection):
    qrels, run = collection
    common = set(qrels) & set(run)
    n_rel = {q: sum(g >= 1 for g in qrels[q].values()) for q in common}
    n_nonrel = {q: sum(g == 0 for g in qrels[q].values()) for q in common}
    assert len(common) > 1000
    assert sum(r == 0 for r in n_rel.values()) > 80
    assert sum(n == 0 for n in n_nonrel.values()) > 80
    assert sum(any(d not in qrels[q] for d in run[q]) for q in common) > 500  # unjudged
    assert sum(any(d.startswith("u") and g == 0 for d, g in qrels[q].items()) for q in common) > 200
    assert sum(len(run[q]) > 100 for q in common) > 30


@pytest.mark.parametrize("threshold", [1, 2])
def test_every_measure_equals_trec_eval(collection, threshold):
    qrels, run = collection
    table = ours(qrels, run, relevance_threshold=threshold)
    assert len(table) > 1000
    assert mismatches(table, trec(qrels, run, threshold=threshold)) == dict.fromkeys(NAMES, 0)


def test_gm_map_over_queries_equals_trec_eval(collection):
    qrels, run = collection
    table = ours(qrels, run)
    logs = [values["gm_map"] for values in trec(qrels, run).values()]
    expected = math.exp(math.fsum(logs) / len(logs))
    assert summarize(table)["gm_map"] == pytest.approx(expected, rel=1e-12)
    assert summarize(table, "map", aggregate="gm")["map"] == summarize(table)["gm_map"]
    assert summarize(table)["num_ret"] == table["num_ret"].sum()  # trec_eval totals counts


@pytest.mark.parametrize("depth", [1, 3, 10])
def test_max_results_is_trec_eval_dash_big_m(collection, depth):
    qrels, run = collection
    table = ours(qrels, run, max_results=depth)
    assert table["retrieved"].max() == depth
    assert mismatches(table, trec(qrels, top(run, depth))) == dict.fromkeys(NAMES, 0)


@pytest.mark.parametrize("depth", [None, 5])
def test_judged_only_is_trec_eval_dash_big_j(collection, depth):
    qrels, run = collection
    table = ours(qrels, run, judged_only=True, max_results=depth)
    truncated = run if depth is None else top(run, depth)  # trec_eval applies -M, then -J
    expected = trec(qrels, truncated, judged_only=True)
    assert mismatches(table, expected) == dict.fromkeys(NAMES, 0)
    assert (table["retrieved"] == table["num_ret"]).all()


TREC_J_IN_A_FRESH_PROCESS = """
import json, sys, pytrec_eval
qrels, run = json.loads(sys.argv[1])
measures = {"map", "bpref", "Rprec", "P", "num_ret", "num_rel", "num_rel_ret"}
print(json.dumps([
    pytrec_eval.RelevanceEvaluator(qrels, measures, judged_docs_only_flag=flag).evaluate(run)
    for flag in (False, True)
]))
"""


def test_negative_grades_are_unjudged_for_bpref_and_judged_only():
    qrels = {"q": {"d1": 2, "d2": -1, "d3": 0, "d5": 0, "u": 1}}
    run = {"q": {"d2": 3.0, "d3": 2.5, "d1": 2.0, "d4": 1.5, "d5": 1.0}}
    output = subprocess.run(
        [sys.executable, "-c", TREC_J_IN_A_FRESH_PROCESS, json.dumps([qrels, run])],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    names = ["map", "bpref", "Rprec", "P.5", "num_ret", "num_rel", "num_rel_ret"]
    for expected, judged_only in zip(json.loads(output), (False, True), strict=True):
        table = evaluate(qrels, run, names, judged_only=judged_only).loc["q"]
        for name in names:
            assert table[name] == pytest.approx(expected["q"][name.replace(".", "_")], abs=1e-9)
    assert evaluate(qrels, run, "num_ret", judged_only=True).loc["q", "num_ret"] == 3  # d1 d3 d5


def test_judged_equals_ir_measures():
    qrels, run = random_collection(7, negative=True)  # ir_measures counts any grade as judged
    names = ["Judged@1", "Judged@5", "Judged@10", "Judged@100", "Judged"]
    measures = [ir_measures.parse_measure(name) for name in names]
    expected = {
        (m.query_id, str(m.measure)): m.value for m in ir_measures.iter_calc(measures, qrels, run)
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        table = evaluate(qrels, run, names, missing="ignore")  # ir_measures' per-query values
    assert len(table) > 1000 and any(-1 in judged.values() for judged in qrels.values())
    for name in names:
        want = np.array([expected[(q, name)] for q in table.index])
        assert np.abs(table[name].to_numpy() - want).max() <= 1e-12, name
    # ir_measures averages over every judged query, a query the run lacks scoring 0
    mean = ir_measures.calc_aggregate(measures, qrels, run)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        complete = summarize(evaluate(qrels, run, names, missing="zero"))
    for name, measure in zip(names, measures, strict=True):
        assert complete[name] == pytest.approx(mean[measure], abs=1e-12), name


def test_the_command_line_takes_trec_eval_names_and_switches(tmp_path, capsys):
    qrels = {"q1": {"a": 1, "b": 0, "c": 1}, "q2": {"x": 2, "y": 0}}
    run = {"q1": {"a": 0.5, "u": 0.9, "b": 0.8, "c": 0.1}, "q2": {"y": 0.9, "x": 0.5}}
    (tmp_path / "qrels").write_text(
        "".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items())
    )
    (tmp_path / "run").write_text(
        "".join(f"{q} Q0 {d} 0 {s} t\n" for q, docs in run.items() for d, s in docs.items())
    )
    names = ["map", "P.10", "ndcg_cut.10", "bpref", "num_ret"]
    args = [str(tmp_path / "qrels"), str(tmp_path / "run"), *(f"-m{name}" for name in names)]
    assert (
        main(["evaluate", *args, "-q", "-M", "2", "-J", "--aggregate", "gm", "--format", "json"])
        == 0
    )
    payload = json.loads(capsys.readouterr().out)
    table = evaluate(qrels, run, names, max_results=2, judged_only=True)
    assert payload["per_query"]["q1"]["map"] == table.loc["q1", "map"]
    means = summarize(table, aggregate="gm").to_dict()  # the columns say it: gm_map
    named = {(name if name == "num_ret" else f"gm_{name}"): value for name, value in means.items()}
    assert payload["mean"] == pytest.approx(named)
    assert payload["mean"]["num_ret"] == 3  # -M 2 keeps u and b for q1, -J drops u
