"""TREC reading, evaluate() options and evaluate_scores(), against hand-computed values."""

from __future__ import annotations

import io
import warnings

import numpy as np
import pandas as pd
import pytest

from mapteach import average_precision, ndcg_at_k
from mapteach.i18n import language
from mapteach.runs.evaluation import evaluate, summarize
from mapteach.runs.frames import as_qrels, as_run
from mapteach.runs.score_matrix import evaluate_scores
from mapteach.runs.trec import read_qrels, read_run, write_trec

# A golden pair: q1 is article 003's query B (R = 3, one relevant never retrieved),
# q2 has a tie between a relevant and an irrelevant document, q3 has nothing relevant.
QRELS = """\
q1 0 a 1
q1 0 c 1
q1 0 missing 1
q1 0 b 0
q2 0 d9 2
q2 0 d10 0
q3 0 x 0
"""
RUN = """\
q1 Q0 a 1 3.0 sys
q1 Q0 b 2 2.0 sys
q1 Q0 c 3 1.0 sys
q1 Q0 e 4 0.5 sys
q2 Q0 d10 1 5.0 sys
q2 Q0 d9 2 5.0 sys
q3 Q0 x 1 1.0 sys
"""


def golden(**options) -> pd.DataFrame:
    return evaluate(io.StringIO(QRELS), io.StringIO(RUN), ["AP", "P@2", "RR", "nDCG@2"], **options)


def test_golden_values_by_hand():
    table = golden()
    assert table.index.tolist() == ["q1", "q2", "q3"]
    assert table.loc["q1", "AP"] == pytest.approx((1 / 1 + 2 / 3) / 3)
    assert table.loc["q1", "P@2"] == 0.5
    # trec_eval breaks the tie by docno descending as strings: "d9" > "d10", so d9 first
    assert table.loc["q2", "AP"] == 1.0
    assert table.loc["q2", "RR"] == 1.0
    assert table.loc["q2", "nDCG@2"] == 1.0
    assert table.loc["q3"].tolist()[:4] == [0.0, 0.0, 0.0, 0.0]
    assert table["R"].tolist() == [3, 1, 0]
    assert table["retrieved"].tolist() == [4, 2, 1]
    assert table["AP"].mean() == pytest.approx(((1 + 2 / 3) / 3 + 1 + 0) / 3)


@pytest.mark.parametrize(
    ("ties", "q2_ap"),
    [("trec_eval", 1.0), ("input", 0.5), ("optimistic", 1.0), ("pessimistic", 0.5)],
)
def test_tie_conventions(ties, q2_ap):
    assert golden(ties=ties).loc["q2", "AP"] == q2_ap


def test_no_relevant_conventions():
    assert golden(no_relevant="skip").index.tolist() == ["q1", "q2"]
    one = golden(no_relevant="one")
    assert one.loc["q3", "AP"] == 1.0 and one.loc["q3", "P@2"] == 0.0
    with pytest.raises(
        ValueError, match=r"1 queries have no relevant document \(R = 0\), first 'q3'"
    ):
        golden(no_relevant="error")


def test_missing_queries_ignored_or_zero():
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    run = {"q1": {"a": 1.0}}
    with pytest.warns(UserWarning, match=r"1 judged query is missing from the run .* 'q2'"):
        ignored = evaluate(qrels, run, ["AP"], missing="ignore")
    assert ignored.index.tolist() == ["q1"]
    zero = evaluate(qrels, run, ["AP"], missing="zero")
    assert zero["AP"].tolist() == [1.0, 0.0]
    assert zero["retrieved"].tolist() == [1, 0]


def test_unjudged_run_queries_are_reported_and_ignored():
    with pytest.warns(UserWarning, match=r"1 query of the run has no judgments .* 'zz'"):
        table = evaluate({"q1": {"a": 1}}, {"q1": {"a": 1.0}, "zz": {"a": 1.0}}, ["AP"])
    assert table.index.tolist() == ["q1"]


def test_relevance_threshold():
    table = evaluate(io.StringIO(QRELS), io.StringIO(RUN), ["AP"], relevance_threshold=2)
    assert table["R"].tolist() == [0, 1, 0]


def test_inputs_as_dataframes_and_dicts_agree():
    qrels, run = read_qrels(io.StringIO(QRELS)), read_run(io.StringIO(RUN))
    as_dicts = (
        {
            q: dict(zip(g["doc_id"], g["relevance"], strict=True))
            for q, g in qrels.groupby("query_id")
        },
        {q: dict(zip(g["doc_id"], g["score"], strict=True)) for q, g in run.groupby("query_id")},
    )
    pd.testing.assert_frame_equal(evaluate(qrels, run), evaluate(*as_dicts))
    pd.testing.assert_frame_equal(
        evaluate(qrels, run), evaluate(io.StringIO(QRELS), io.StringIO(RUN))
    )


def test_write_and_read_back(tmp_path):
    run = read_run(io.StringIO(RUN))
    again = read_run(write_trec(run, tmp_path / "run.txt", kind="run"))
    pd.testing.assert_frame_equal(
        evaluate(io.StringIO(QRELS), run), evaluate(io.StringIO(QRELS), again)
    )
    qrels = read_qrels(io.StringIO(QRELS))
    assert read_qrels(write_trec(qrels, tmp_path / "q.txt", kind="qrels"))[
        "relevance"
    ].tolist() == (qrels["relevance"].tolist())


@pytest.mark.parametrize(
    ("reader", "text", "fragment"),
    [
        (read_qrels, "", r"<buffer>: the qrels file is empty"),
        (
            read_qrels,
            "q1 0 d1 1\nq1 0 d2\n",
            r"<buffer>, line 2: too few fields; a qrels line has 4",
        ),
        (read_qrels, "q1 0 d1 1\nq1 0 d2 1 extra\n", r"line 2: too many fields"),
        (read_qrels, "q1 0 d1 1\nq1 0 d2 1 a b c\n", r"line 2: too many fields"),
        (
            read_qrels,
            "q1 0 d1 high\n",
            r"line 1: relevance 'high' of query 'q1', document 'd1' is not an integer",
        ),
        (read_qrels, "q1 0 d1 1.5\n", r"line 1: relevance '1.5' .* not an integer grade"),
        (
            read_qrels,
            "q1 0 d1 1\nq1 0 d1 0\n",
            r"document 'd1' is listed 2 times for query 'q1' in the qrels \(lines 1, 2\)",
        ),
        (
            read_run,
            "q1 Q0 d1 1 abc run\n",
            r"line 1: score 'abc' of query 'q1', document 'd1' is not a finite number",
        ),
        (read_run, "q1 Q0 d1 1 nan run\n", r"line 1: score 'nan' .* not a finite number"),
        (
            read_run,
            "q1 Q0 d1 1 1.0 run\nq1 Q0 d1 2 0.5 run\n",
            r"listed 2 times for query 'q1' in the run \(lines 1, 2\)",
        ),
        (read_run, "q1 Q0 d1 1 1.0\n", r"line 1: too few fields; a run line has 6"),
    ],
)
def test_malformed_files_name_the_line(reader, text, fragment):
    with pytest.raises(ValueError, match=fragment):
        reader(io.StringIO(text))


def test_file_errors_name_the_file(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text("q1 Q0 d1 1 x run\n")
    with pytest.raises(ValueError, match=rf"{path}, line 1: score 'x'"):
        read_run(path)
    with pytest.raises(ValueError, match=r"no such qrels file"):
        read_qrels(tmp_path / "absent.txt")


def test_blank_lines_are_reported_not_silently_dropped():
    with pytest.warns(UserWarning, match=r"skipped 1 blank line"):
        qrels = read_qrels(io.StringIO("q1 0 d1 1\n\nq1 0 d2 0\n"))
    assert qrels["doc_id"].tolist() == ["d1", "d2"]


@pytest.mark.parametrize(
    ("call", "error", "fragment"),
    [
        (lambda: evaluate({"q1": {"a": 1}}, {"q2": {"a": 1.0}}), ValueError, r"no query in common"),
        (
            lambda: evaluate({"q1": {"a": 1}}, {"q1": {"a": float("nan")}}),
            ValueError,
            r"the run, row 0: score nan of query 'q1', document 'a' is not a finite number",
        ),
        (
            lambda: evaluate({"q1": {"a": 1}}, {"q1": {"a": 1.0}}, ["MAP@x"]),
            ValueError,
            r"unknown measure",
        ),
        (
            lambda: evaluate({"q1": {"a": 1}}, {"q1": {"a": 1.0}}, ties="random"),
            ValueError,
            r"ties must be one of",
        ),
        (
            lambda: evaluate({"q1": {"a": 1}}, {"q1": {"a": 1.0}}, missing="drop"),
            ValueError,
            r"missing must be one of",
        ),
        (
            lambda: evaluate({"q1": {"a": 1}}, {"q1": {"a": 1.0}}, no_relevant="nan"),
            ValueError,
            r"no_relevant must be one of 'zero', 'skip', 'one', 'error'; got 'nan'",
        ),
        (
            lambda: evaluate({"q1": {"a": 1}}, {"q1": {"a": 1.0}}, denominator="k"),
            ValueError,
            r"denominator must be one of 'relevant', 'min_relevant_k', 'retrieved'",
        ),
        (
            lambda: evaluate({"q1": {"a": 1}}, {"q1": {"a": 1.0}}, relevance_threshold=1.5),
            TypeError,
            r"relevance_threshold must be an integer",
        ),
        (
            lambda: evaluate({"q1": [1]}, {"q1": {"a": 1.0}}),
            TypeError,
            r"query 'q1' must map to a dict",
        ),
        (
            lambda: evaluate(42, {"q1": {"a": 1.0}}),
            TypeError,
            r"qrels must be a path, an open file",
        ),
        (
            lambda: as_run(pd.DataFrame({"query_id": ["q"], "doc_id": ["d"]})),
            ValueError,
            r"missing score",
        ),
        (lambda: as_qrels({}), ValueError, r"the qrels holds no rows"),
    ],
)
def test_bad_input(call, error, fragment):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with pytest.raises(error, match=fragment):
            call()


def test_evaluate_scores_matches_evaluate_and_the_label_api():
    rng = np.random.default_rng(3)
    scores = rng.integers(0, 5, (40, 25)).astype(float)  # many ties
    grades = rng.choice([0, 0, 0, 1, 2], (40, 25))
    measures = ["AP", "AP@5", "P@5", "R@10", "RR", "nDCG@10", "Success@3"]
    matrix = evaluate_scores(scores, grades, measures, ties="trec_eval")
    qrels = {f"{i:03d}": {str(j): int(grades[i, j]) for j in range(25)} for i in range(40)}
    run = {f"{i:03d}": {str(j): scores[i, j] for j in range(25)} for i in range(40)}
    trec = evaluate(qrels, run, measures)
    np.testing.assert_allclose(matrix[measures].to_numpy(), trec[measures].to_numpy(), atol=1e-12)
    stable = evaluate_scores(scores, grades, ["AP", "nDCG@25"])  # ties keep column order
    for i in (0, 7, 39):
        order = np.argsort(-scores[i], kind="stable")
        assert stable.loc[i, "AP"] == average_precision((grades[i][order] >= 1).astype(int))
        assert stable.loc[i, "nDCG@25"] == pytest.approx(ndcg_at_k(grades[i][order], 25))


def test_evaluate_scores_tie_conventions_bound_each_other():
    rng = np.random.default_rng(5)
    scores = rng.integers(0, 3, (60, 12)).astype(float)
    relevance = rng.random((60, 12)) < 0.3
    low = evaluate_scores(scores, relevance, ["AP"], ties="pessimistic")["AP"]
    mid = evaluate_scores(scores, relevance, ["AP"], ties="input")["AP"]
    high = evaluate_scores(scores, relevance, ["AP"], ties="optimistic")["AP"]
    assert (low <= mid + 1e-15).all() and (mid <= high + 1e-15).all() and (low < high).any()


@pytest.mark.parametrize(
    ("scores", "relevance", "error", "fragment"),
    [
        (np.ones(3), np.ones(3), ValueError, r"scores must be a 2-D .* got shape \(3,\)"),
        (
            np.ones((2, 3)),
            np.ones((3, 2)),
            ValueError,
            r"scores has shape \(2, 3\) but relevance has shape \(3, 2\)",
        ),
        (np.array([[1.0, np.nan]]), np.ones((1, 2)), ValueError, r"scores\[0, 1\] is nan"),
        (np.array([["a", "b"]]), np.ones((1, 2)), TypeError, r"scores must be numeric"),
    ],
)
def test_evaluate_scores_bad_input(scores, relevance, error, fragment):
    with pytest.raises(error, match=fragment):
        evaluate_scores(scores, relevance)


def test_evaluate_scores_with_relevant_documents_outside_the_matrix():
    rng = np.random.default_rng(9)
    scores = rng.integers(0, 6, (30, 15)) / 4
    relevance = rng.random((30, 15)) < 0.3
    missed = rng.integers(0, 3, 30)
    r = relevance.sum(axis=1) + missed
    measures = ["AP", "R@5", "nDCG@10", "nDCG"]
    matrix = evaluate_scores(scores, relevance, measures, ties="trec_eval", n_relevant=r)
    qrels = {
        f"{i:02d}": {
            **{str(j): int(relevance[i, j]) for j in range(15)},
            **{f"u{m}": 1 for m in range(missed[i])},
        }
        for i in range(30)
    }
    run = {f"{i:02d}": {str(j): scores[i, j] for j in range(15)} for i in range(30)}
    trec = evaluate(qrels, run, measures)
    np.testing.assert_allclose(matrix[measures].to_numpy(), trec[measures].to_numpy(), atol=1e-12)
    assert (matrix["R"].to_numpy() == r).all()
    with pytest.raises(ValueError, match=r"n_relevant\[\d+\]=0 is smaller than the \d+ relevant"):
        evaluate_scores(scores, relevance, n_relevant=np.zeros(30, int))
    with pytest.raises(ValueError, match=r"one whole number per query \(30\)"):
        evaluate_scores(scores, relevance, n_relevant=[1, 2])


# --- measures by their trec_eval names, -M and -J ----------------------------------------


def test_columns_keep_the_names_as_passed_and_a_string_is_one_measure():
    names = ["map", "P.2", "recip_rank"]
    table = evaluate(io.StringIO(QRELS), io.StringIO(RUN), names, no_relevant="one")
    assert table.columns.tolist() == ["map", "P.2", "recip_rank", "R", "retrieved"]
    assert table.loc["q1", "map"] == pytest.approx((1 / 1 + 2 / 3) / 3)
    assert table.loc["q3", "map"] == 1.0  # no_relevant="one" reaches an AP column named map
    assert table.loc["q3", "recip_rank"] == 0.0
    single = evaluate(io.StringIO(QRELS), io.StringIO(RUN), "AP")
    assert single.columns.tolist() == ["AP", "R", "retrieved"]


@pytest.mark.parametrize(
    ("measures", "fragment"),
    [
        (["AP", "map"], r"measures 'AP' and 'map' both name AP; give each measure once"),
        (["P@10", "P_10"], r"measures 'P@10' and 'P_10' both name P@10"),
        (["nDCG", "nDCG"], r"measures 'nDCG' and 'nDCG' both name nDCG"),
    ],
)
def test_a_measure_named_twice_is_an_error(measures, fragment):
    with pytest.raises(ValueError, match=fragment):
        evaluate(io.StringIO(QRELS), io.StringIO(RUN), measures)
    with pytest.raises(ValueError, match=fragment):
        evaluate_scores(np.ones((1, 2)), np.ones((1, 2)), measures)


def test_new_measures_by_hand():
    names = ["Rprec", "Bpref", "Judged@2", "Judged", "NumRet", "NumRel", "NumRelRet", "GMAP"]
    table = evaluate(io.StringIO(QRELS), io.StringIO(RUN), names)
    q1 = table.loc["q1"]  # a(rel) b(non-rel) c(rel) e(unjudged); R = 3, N = 1
    assert q1["Rprec"] == 2 / 3
    assert q1["Bpref"] == (1 + (1 - 1 / 1)) / 3  # c has b, the only judged non-relevant, above
    assert q1["Judged@2"] == 1.0 and q1["Judged"] == 3 / 4
    assert (q1["NumRet"], q1["NumRel"], q1["NumRelRet"]) == (4, 3, 2)
    assert q1["GMAP"] == pytest.approx((1 + 2 / 3) / 3)  # AP per query; gm over queries
    assert table.loc["q2", "Bpref"] == 1.0  # d9 ranks above d10 (docno descending)
    assert summarize(table)["GMAP"] == pytest.approx(
        np.exp(np.log([(1 + 2 / 3) / 3, 1.0, 1e-5]).mean())
    )
    assert summarize(table)["NumRet"] == 7


def test_max_results_and_judged_only_by_hand():
    cut = evaluate(io.StringIO(QRELS), io.StringIO(RUN), ["AP", "NumRet"], max_results=2)
    assert cut["retrieved"].tolist() == [2, 2, 1]
    assert cut.loc["q1", "AP"] == pytest.approx(1 / 3)  # a, b kept: c is cut
    judged = evaluate(io.StringIO(QRELS), io.StringIO(RUN), ["AP", "P@3"], judged_only=True)
    assert judged["retrieved"].tolist() == [3, 2, 1]  # e is unjudged
    both = evaluate(io.StringIO(QRELS), io.StringIO(RUN), ["AP"], max_results=3, judged_only=True)
    assert both.loc["q1", "retrieved"] == 3  # -M first: a b c, then -J drops nothing


def test_judged_only_drops_negative_grades_as_the_judging_module_does():
    from mapteach.judging.sensitivity import judged_only_ap

    qrels = {"q": {"a": -1, "b": 1, "c": 0, "d": 1}}
    run = {"q": {"u": 4.0, "a": 3.0, "c": 2.0, "b": 1.0}}
    table = evaluate(qrels, run, ["AP"], judged_only=True)
    assert table.loc["q", "AP"] == judged_only_ap(["u", "a", "c", "b"], qrels["q"])
    assert table.loc["q", "retrieved"] == 2


@pytest.mark.parametrize(
    ("options", "error", "fragment"),
    [
        ({"max_results": 0}, ValueError, r"max_results must be >= 1; got 0"),
        ({"max_results": 2.5}, TypeError, r"max_results must be a whole number .* got 2.5"),
        ({"max_results": True}, TypeError, r"max_results must be a whole number"),
        ({"judged_only": "yes"}, TypeError, r"judged_only must be True or False; got 'yes'"),
        (
            {"max_results": 5, "ties": "expected"},
            ValueError,
            r"max_results cuts each ranking .* ties='expected'",
        ),
        ({"ties": "expected", "measures": ["Bpref"]}, ValueError, r"Bpref has no tie-aware"),
    ],
)
def test_bad_cut_options(options, error, fragment):
    measures = options.pop("measures", ["AP"])
    with pytest.raises(error, match=fragment):
        evaluate(io.StringIO(QRELS), io.StringIO(RUN), measures, **options)


def test_summarize():
    table = evaluate(io.StringIO(QRELS), io.StringIO(RUN), ["AP", "P@2", "NumRelRet"])
    assert summarize(table).to_dict() == {
        "AP": table["AP"].mean(),
        "P@2": table["P@2"].mean(),
        "NumRelRet": 3.0,
    }
    assert summarize(table, ["AP"], aggregate="gm")["AP"] == pytest.approx(
        np.exp(np.log(np.maximum(table["AP"], 1e-5)).mean())
    )
    with pytest.raises(ValueError, match=r"the table has no column 'RR'"):
        summarize(table, "RR")
    with language("zh"), pytest.raises(ValueError, match=r"^表中没有 'RR' 列"):
        summarize(table, "RR")
    with pytest.raises(ValueError, match=r"aggregate must be one of 'mean', 'gm'"):
        summarize(table, aggregate="median")


# --- evaluate_scores: every measure, and input checked cell by cell ----------------------


def test_evaluate_scores_new_measures_match_evaluate_with_negative_grades():
    rng = np.random.default_rng(12)
    scores = rng.permutation(40 * 20).reshape(40, 20) / 8  # distinct: no tie conventions
    grades = rng.choice([-1, 0, 0, 0, 1, 2], (40, 20))
    names = ["AP", "Rprec", "Bpref", "Judged@5", "NumRet", "NumRel", "NumRelRet", "nDCG@5"]
    matrix = evaluate_scores(scores, grades, names, query_ids=[f"q{i:02d}" for i in range(40)])
    qrels = {f"q{i:02d}": {str(j): int(grades[i, j]) for j in range(20)} for i in range(40)}
    run = {f"q{i:02d}": {str(j): scores[i, j] for j in range(20)} for i in range(40)}
    pd.testing.assert_frame_equal(
        matrix.rename_axis("query_id"), evaluate(qrels, run, names), check_dtype=False
    )
    assert (matrix["Judged@5"] == 1.0).all()  # every candidate is judged


ROWS = ["qa", "qb"]
DOCS = ["da", "db", "dc"]


@pytest.mark.parametrize(
    ("scores", "relevance", "ids", "error", "fragment"),
    [
        (
            np.ones((2, 3)),
            [[1, 0, 0.5], [1, 0, 0]],
            {},
            ValueError,
            r"relevance\[0, 2\] is 0.5 \(query 0, document 2\), which is not a whole number",
        ),
        (
            np.ones((2, 3)),
            [[1, 0, 0], [np.nan, 0, 0]],
            {"query_ids": ROWS, "doc_ids": DOCS},
            ValueError,
            r"relevance\[1, 0\] is nan \(query 'qb', document 'da'\), which is not finite",
        ),
        (
            np.ones((2, 3)),
            [[1, 0, 0], [0, 1e20, 0]],
            {},
            ValueError,
            r"relevance\[1, 1\] is 1e\+20 .* outside the int64 range",
        ),
        (
            np.ones((2, 3)),
            np.array([[1, 0, 0], [0, 0, 2**63]], dtype=np.uint64),
            {},
            ValueError,
            r"relevance\[1, 2\] is 9223372036854775808 .* outside the int64 range",
        ),
        (
            np.ones((2, 3)),
            [[1, 0, 0], [0, 0, 10**30]],
            {},
            ValueError,
            r"relevance\[1, 2\] is 1000.* outside the int64 range",
        ),
        (
            np.ones((2, 3)),
            [[1, 0, 0], [0, None, 0]],
            {},
            TypeError,
            r"relevance\[1, 1\] is None .*; relevance must hold numbers",
        ),
        (
            [[1.0, np.inf, 0.0], [0.0, 0.0, 0.0]],
            np.ones((2, 3)),
            {"doc_ids": DOCS},
            ValueError,
            r"scores\[0, 1\] is inf \(query 0, document 'db'\); .* this one is not finite",
        ),
        (
            np.array([[1.0, 0.0, 0.0], [0.0, np.longdouble("1e400"), 0.0]], dtype=np.longdouble),
            np.ones((2, 3)),
            {},
            ValueError,
            r"scores\[1, 1\] is 1e\+400 .* this one overflows a 64-bit float",
        ),
        (
            [[1.0, 0.0, 10**400], [0.0, 0.0, 0.0]],
            np.ones((2, 3)),
            {},
            ValueError,
            r"scores\[0, 2\] is 1000.* overflows a 64-bit float",
        ),
        (
            np.ones((2, 3)),
            np.ones((2, 3)),
            {"doc_ids": ["d1", "d2", "d1"]},
            ValueError,
            r"doc_ids\[2\] repeats 'd1' from doc_ids\[0\]; each candidate needs its own id",
        ),
        (
            np.ones((2, 3)),
            np.ones((2, 3)),
            {"doc_ids": ["d1", "d2"]},
            ValueError,
            r"doc_ids has 2 ids but the matrices have 3 columns; give one id per candidate",
        ),
        (
            np.ones((2, 3)),
            np.ones((2, 3)),
            {"query_ids": ["qa", None]},
            ValueError,
            r"query_ids\[1\] is missing \(None\); every query needs an id",
        ),
        (
            np.ones((2, 3)),
            np.ones((2, 3)),
            {"query_ids": ["qa", float("nan")]},
            ValueError,
            r"query_ids\[1\] is missing \(nan\)",
        ),
        (
            np.ones((2, 3)),
            np.ones((2, 3)),
            {"query_ids": ["qa"]},
            ValueError,
            r"query_ids has 1 ids but the matrices have 2 rows",
        ),
        (
            np.ones((2, 3)),
            np.ones((2, 3)),
            {"query_ids": ["qa", "qa"]},
            ValueError,
            r"query_ids\[1\] repeats 'qa' from query_ids\[0\]",
        ),
        (
            np.ones((2, 3)),
            np.ones((2, 3)),
            {"query_ids": ["qa", 1.5]},
            TypeError,
            r"query_ids\[1\] is 1.5 \(float\); ids must be strings or integers",
        ),
        (np.ones((2, 3)), np.ones((2, 3)), {"query_ids": "ab"}, TypeError, r"query_ids must be"),
    ],
)
def test_evaluate_scores_names_the_bad_cell_or_id(scores, relevance, ids, error, fragment):
    with pytest.raises(error, match=fragment):
        evaluate_scores(scores, relevance, ["AP"], **ids)


def test_evaluate_scores_accepts_whole_float_grades_and_names_its_rows():
    table = evaluate_scores(
        [[0.3, 0.2, 0.1], [0.1, 0.2, 0.3]],
        np.array([[1.0, 0.0, 2.0], [0.0, 0.0, 1.0]]),
        "AP",
        query_ids=ROWS,
        doc_ids=DOCS,
    )
    assert table.index.tolist() == ROWS and table.index.name == "query"
    assert table["AP"].tolist() == [(1 + 2 / 3) / 2, 1.0]
