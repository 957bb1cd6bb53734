"""score_run (issue #26): the evaluation core on numpy, trec_eval 10's missing-query rule.

The scores against pytrec_eval (trec_eval 9, which leaves out judged queries a run
lacks), evaluate() as the DataFrame view of the same numbers, the error that names
the missing queries, and the path from TREC files to scores that imports no pandas.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import warnings

import numpy as np
import pytest

from mapteach.i18n import language
from mapteach.runs import evaluate, score_run

MEASURES = {"AP": "map", "P@5": "P_5", "nDCG@10": "ndcg_cut_10", "RR": "recip_rank"}


def random_pair(seed: int, n_queries: int = 12) -> tuple[dict, dict]:
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(n_queries):
        docs = [f"d{d}" for d in rng.choice(50, 30, replace=False)]
        qrels[f"q{q:02d}"] = {doc: int(rng.integers(0, 3)) for doc in docs[10:]}
        if q % 4:  # every fourth query is judged but not retrieved
            run[f"q{q:02d}"] = {doc: float(rng.integers(0, 8)) for doc in docs[:20]}
    return qrels, run


@pytest.mark.parametrize("seed", range(4))
def test_scores_equal_pytrec_eval(seed):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run = random_pair(seed)
    expected = pytrec_eval.RelevanceEvaluator(qrels, set(MEASURES.values())).evaluate(run)
    with pytest.warns(UserWarning, match="judged queries are missing from the run"):
        scores = score_run(qrels, run, list(MEASURES), missing="ignore")
    assert scores.queries == tuple(sorted(expected))
    for name, trec_name in MEASURES.items():
        want = [expected[query][trec_name] for query in scores.queries]
        assert np.abs(scores.values[name] - want).max() <= 1e-12, name
        assert scores.summary(name) == pytest.approx(np.mean(want), abs=1e-12)


def test_missing_zero_scores_the_absent_queries_zero_and_counts_them():
    qrels, run = random_pair(0)
    scores = score_run(qrels, run, ["AP", "num_ret", "num_rel"], missing="zero")
    assert scores.queries == tuple(sorted(qrels))
    absent = [i for i, query in enumerate(scores.queries) if query not in run]
    assert absent and (scores.values["AP"][absent] == 0).all()
    assert (scores.n_retrieved[absent] == 0).all() and (scores.n_relevant[absent] > 0).all()
    assert scores.summary("num_rel") == sum(
        sum(grade >= 1 for grade in judged.values()) for judged in qrels.values()
    )


def test_missing_error_names_the_queries_sorted_and_the_ways_out():
    qrels = {f"q{q}": {"d": 1} for q in (3, 1, 2)}
    with pytest.raises(ValueError) as caught:
        score_run(qrels, {"q3": {"d": 1.0}}, ["AP"])
    assert str(caught.value) == (
        "2 judged queries are missing from the run: 'q1', 'q2'. trec_eval 10 stops here too. "
        "Score them 0 with missing='zero' (trec_eval -c; --missing zero on the command line), "
        "or leave them out with missing='ignore' (--missing ignore)."
    )


def test_one_missing_or_unjudged_query_is_said_in_the_singular():
    qrels = {"q1": {"d": 1}, "q2": {"d": 1}}
    with pytest.raises(ValueError, match=r"^1 judged query is missing from the run: 'q1'\."):
        score_run(qrels, {"q2": {"d": 1.0}}, ["AP"])
    with pytest.warns(UserWarning) as caught:
        score_run(qrels, {"q2": {"d": 1.0}, "q3": {"d": 1.0}}, ["AP"], missing="ignore")
    assert sorted(str(w.message).split(" (")[0] for w in caught) == [
        "1 judged query is missing from the run and is left out of every mean",
        "1 query of the run has no judgments and is ignored, as trec_eval does",
    ]
    with language("zh"), pytest.raises(KeyError, match="没有指标 'P@5'"):
        score_run(qrels, {"q1": {"d": 1.0}, "q2": {"d": 1.0}}, ["AP"]).summary("P@5")


def test_missing_error_names_the_first_ten_and_the_count():
    qrels = {f"q{q:02d}": {"d": 1} for q in range(25)}
    with pytest.raises(ValueError, match="trec_eval 10 stops here too") as caught:
        score_run(qrels, {"q24": {"d": 1.0}}, ["AP"])
    first = ", ".join(f"'q{q:02d}'" for q in range(10))
    assert str(caught.value).startswith(
        f"24 judged queries are missing from the run; the first 10: {first}. "
    )


def test_evaluate_is_the_dataframe_view_of_score_run():
    qrels, run = random_pair(1)
    names = ["map", "P.5", "nDCG@10", "bpref", "num_ret"]
    scores = score_run(qrels, run, names, missing="zero", max_results=15)
    table = evaluate(qrels, run, names, missing="zero", max_results=15)
    assert table.index.tolist() == list(scores.queries) and table.index.name == "query_id"
    assert table.columns.tolist() == [*names, "R", "retrieved"]
    for name in names:
        assert table[name].to_numpy().tobytes() == scores.values[name].tobytes()
    assert table["R"].tolist() == scores.n_relevant.tolist()
    assert table["retrieved"].tolist() == scores.n_retrieved.tolist()


def test_queries_are_in_strcmp_order_of_their_bytes():
    ids = ["b", "a10", "a9", "Z", "é", "10"]
    scores = score_run({q: {"d": 1} for q in ids}, {q: {"d": 1.0} for q in ids}, ["AP"])
    assert scores.queries == tuple(sorted(ids, key=str.encode))


def test_no_relevant_skip_leaves_the_empty_queries_out_of_every_array():
    qrels = {"q1": {"a": 1}, "q2": {"a": 0}, "q3": {"b": 1}}
    run = {q: {"a": 1.0, "b": 0.5} for q in qrels}
    scores = score_run(qrels, run, ["AP", "P@1"], no_relevant="skip")
    assert scores.queries == ("q1", "q3")
    assert scores.values["AP"].tolist() == [1.0, 0.5] and scores.n_relevant.tolist() == [1, 1]
    assert scores.n_retrieved.tolist() == [2, 2]


def test_summary_sums_counts_and_takes_the_geometric_mean_when_asked():
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    run = {"q1": {"a": 1.0}, "q2": {"c": 2.0, "b": 1.0}}
    scores = score_run(qrels, run, ["AP", "NumRet", "GMAP"])
    assert scores.summary("AP") == 0.75 and scores.summary("NumRet") == 3
    assert scores.summary("GMAP") == pytest.approx(np.sqrt(0.5))
    assert scores.summary("AP", aggregate="gm") == pytest.approx(np.sqrt(0.5))
    with pytest.raises(KeyError, match="no measure 'P@5'"):
        scores.summary("P@5")


def test_ties_ir_measures_orders_tied_documents_by_id_ascending():
    qrels = {"q": {"a": 1}}
    run = {"q": {"b": 1.0, "a": 1.0, "c": 1.0}}
    by_trec_eval = score_run(qrels, run, ["P@1", "RR"]).values
    by_ir_measures = score_run(qrels, run, ["P@1", "RR"], ties="ir_measures").values
    assert by_trec_eval["RR"].tolist() == [1 / 3]  # c, b, a
    assert by_ir_measures["P@1"].tolist() == [1.0] and by_ir_measures["RR"].tolist() == [1.0]


def test_the_run_tag_is_the_last_lines_as_trec_eval_prints_it():
    run = io.BytesIO(b"q1 Q0 a 1 2 first\nq1 Q0 b 2 1 last\n")
    assert score_run({"q1": {"a": 1}}, run, ["AP"]).run_tag == "last"
    assert score_run({"q1": {"a": 1}}, {"q1": {"a": 1.0}}, ["AP"]).run_tag is None


NO_PANDAS = """
import json, sys
from mapteach.runs import score_run
scores = score_run(sys.argv[1], sys.stdin.buffer if sys.argv[2] == "-" else sys.argv[2],
                   ["AP", "P@10", "nDCG@10", "Bpref"], missing="zero")
print(json.dumps({"pandas": "pandas" in sys.modules, "AP": scores.values["AP"].tolist(),
                  "tag": scores.run_tag}))
"""


@pytest.mark.parametrize("stdin", [False, True], ids=["paths", "run on standard input"])
def test_scoring_trec_files_imports_no_pandas(tmp_path, stdin):
    qrels, run = random_pair(2)
    qrels_path, run_path = tmp_path / "qrels", tmp_path / "run"
    qrels_path.write_text("".join(f"{q} 0 {d} {g}\n" for q in qrels for d, g in qrels[q].items()))
    run_text = "".join(f"{q} Q0 {d} 0 {s} tag\n" for q in run for d, s in run[q].items())
    run_path.write_text(run_text)
    child = subprocess.run(
        [sys.executable, "-c", NO_PANDAS, str(qrels_path), "-" if stdin else str(run_path)],
        input=run_text.encode() if stdin else None,
        capture_output=True,
        check=True,
        timeout=120,
    )
    result = json.loads(child.stdout)
    assert result["pandas"] is False and result["tag"] == "tag"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        expected = evaluate(qrels, run, ["AP"], missing="zero")["AP"].tolist()
    assert result["AP"] == expected


@pytest.mark.parametrize("cut", [{}, {"max_results": 3}, {"judged_only": True}])
@pytest.mark.parametrize("ties", ["trec_eval", "ir_measures", "optimistic"])
def test_a_run_in_rank_order_and_the_same_run_shuffled_score_alike(ties, cut):
    qrels, run = random_pair(3)
    rng = np.random.default_rng(0)
    ranked = {  # query ids sorted, each list best first: the order the scorer sorts into
        query: dict(sorted(docs.items(), key=lambda item: (-item[1], item[0])))
        for query, docs in sorted(run.items())
    }
    items = [(query, doc, score) for query, docs in run.items() for doc, score in docs.items()]
    shuffled: dict = {}
    for at in rng.permutation(len(items)):
        query, doc, score = items[at]
        shuffled.setdefault(query, {})[doc] = score
    measures = ["AP", "P@5", "RR", "nDCG@10"]
    first = score_run(qrels, ranked, measures, missing="zero", ties=ties, **cut).values
    second = score_run(qrels, shuffled, measures, missing="zero", ties=ties, **cut).values
    for name in measures:
        assert first[name].tolist() == second[name].tolist(), name


#: Bad options of score_run (and evaluate, and the command line's evaluate), each with
#: the option it names and a word of its Chinese message that the English lacks.
BAD_OPTIONS = {
    "threshold not an integer": ({"relevance_threshold": 1.5}, TypeError, "整数等级"),
    "threshold below 1": ({"relevance_threshold": 0}, ValueError, "未标注的文档"),
    "depth not an integer": ({"max_results": "10"}, TypeError, "每个查询"),
    "depth below 1": ({"max_results": 0}, ValueError, "不小于 1"),
    "depth with expected ties": ({"max_results": 5, "ties": "expected"}, ValueError, "并列"),
    "expected ties, retrieved": (
        {"ties": "expected", "denominator": "retrieved"},
        ValueError,
        "分母",
    ),
    "judged_only not a bool": ({"judged_only": "yes"}, TypeError, "True 或 False"),
    "no relevant document": ({"no_relevant": "error"}, ValueError, "没有相关文档"),
}


@pytest.mark.parametrize("name", BAD_OPTIONS)
def test_bad_options_are_refused_in_chinese(name):
    options, error, chinese = BAD_OPTIONS[name]
    qrels, run = {"q1": {"d1": 1}, "q2": {"d2": 0}}, {"q1": {"d1": 1.0}, "q2": {"d2": 1.0}}
    with pytest.raises(error) as english:
        score_run(qrels, run, ["AP"], **options)
    with language("zh"), pytest.raises(error) as raised:
        score_run(qrels, run, ["AP"], **options)
    option = next(iter(options))
    assert option in str(english.value) and option in str(raised.value)
    assert chinese in str(raised.value) and chinese not in str(english.value)
