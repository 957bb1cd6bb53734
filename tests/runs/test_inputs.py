"""Inputs from the ecosystem (issue #26): each gives the numbers of the same data as TREC files.

ranx ``Qrels``/``Run``, iterables of ir_datasets-style namedtuples (and ir_datasets' own
``GenericQrel``/``GenericScoredDoc``), PyTerrier DataFrames and pytrec_eval dicts: the
same random qrels and run, written as TREC files, are the reference. A bad item or row
is named in the error.
"""

from __future__ import annotations

import warnings
from collections import namedtuple

import numpy as np
import pandas as pd
import pytest

from mapteach.i18n import language
from mapteach.runs import as_qrels, as_run, score_run
from mapteach.runs.inputs import qrels_rows, run_rows

MEASURES = ["AP", "P@5", "nDCG@10", "RR", "Bpref", "NumRet", "Judged@5"]

Qrel = namedtuple("Qrel", "query_id doc_id relevance iteration")
ScoredDoc = namedtuple("ScoredDoc", "query_id doc_id score")


def random_data(seed: int) -> tuple[dict, dict]:
    """Qrels (grades -1..3) and a run (tied scores, a query each side lacks) as dicts."""
    rng = np.random.default_rng(seed)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(8):
        docs = [f"d{d:03d}" for d in rng.choice(60, 25, replace=False)]
        if q != 7:  # q7 is judged only
            run[f"q{q}"] = {doc: float(rng.integers(0, 6)) / 2 for doc in docs[:20]}
        if q != 6:  # q6 is retrieved only
            qrels[f"q{q}"] = {doc: int(rng.integers(-1, 4)) for doc in docs[5:]}
    return qrels, run


def write_files(tmp_path, qrels: dict, run: dict, tag: str = "mytag") -> tuple:
    qrels_path, run_path = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels_path.write_text(
        "".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items())
    )
    run_path.write_text(
        "".join(f"{q} Q0 {d} 0 {s!r} {tag}\n" for q, docs in run.items() for d, s in docs.items())
    )
    return qrels_path, run_path


def scores_of(qrels, run) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the query only the run has
        scores = score_run(qrels, run, MEASURES, missing="zero")
    return {
        "queries": scores.queries,
        "R": scores.n_relevant.tolist(),
        "retrieved": scores.n_retrieved.tolist(),
        **{name: scores.values[name].tolist() for name in MEASURES},
    }


def namedtuple_qrels(qrels: dict) -> list:
    return [Qrel(q, d, g, "0") for q, docs in qrels.items() for d, g in docs.items()]


def namedtuple_run(run: dict) -> list:
    return [ScoredDoc(q, d, s) for q, docs in run.items() for d, s in docs.items()]


def pyterrier_qrels(qrels: dict) -> pd.DataFrame:
    rows = [(q, d, g) for q, docs in qrels.items() for d, g in docs.items()]
    return pd.DataFrame(rows, columns=["qid", "docno", "label"])


def pyterrier_run(run: dict) -> pd.DataFrame:
    rows = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    frame = pd.DataFrame(rows, columns=["qid", "docno", "score"])
    frame["rank"] = frame.groupby("qid")["score"].rank(ascending=False, method="first") - 1
    return frame


def ranx_pair(qrels: dict, run: dict) -> tuple:
    ranx = pytest.importorskip("ranx", reason="ranx is not installed: its inputs are not tested")
    return ranx.Qrels(qrels), ranx.Run(run, name="ranx_run")


def ir_datasets_pair(qrels: dict, run: dict) -> tuple:
    formats = pytest.importorskip("ir_datasets.formats", reason="ir_datasets is not installed")
    return (
        [formats.GenericQrel(q, d, g) for q, docs in qrels.items() for d, g in docs.items()],
        [formats.GenericScoredDoc(q, d, s) for q, docs in run.items() for d, s in docs.items()],
    )


INPUTS = {
    "pytrec_eval dicts": lambda qrels, run: (qrels, run),
    "namedtuples": lambda qrels, run: (namedtuple_qrels(qrels), namedtuple_run(run)),
    "generators of namedtuples": lambda qrels, run: (
        iter(namedtuple_qrels(qrels)),
        (doc for doc in namedtuple_run(run)),
    ),
    "ir_datasets GenericQrel/GenericScoredDoc": ir_datasets_pair,
    "PyTerrier DataFrames": lambda qrels, run: (pyterrier_qrels(qrels), pyterrier_run(run)),
    "ranx Qrels/Run": ranx_pair,
}


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("name", INPUTS)
def test_each_input_gives_the_numbers_of_the_same_trec_files(tmp_path, name, seed):
    qrels, run = random_data(seed)
    expected = scores_of(*write_files(tmp_path, qrels, run))
    assert scores_of(*INPUTS[name](qrels, run)) == expected


def test_the_inputs_mix_with_files(tmp_path):
    qrels, run = random_data(5)
    qrels_path, run_path = write_files(tmp_path, qrels, run)
    expected = scores_of(qrels_path, run_path)
    assert scores_of(qrels_path, namedtuple_run(run)) == expected
    assert scores_of(pyterrier_qrels(qrels), run_path) == expected


def test_the_run_tag_comes_from_the_file_or_the_ranx_run(tmp_path):
    qrels, run = random_data(1)
    qrels_path, run_path = write_files(tmp_path, qrels, run, tag="bm25")
    assert run_rows(run_path).tag == "bm25"
    assert run_rows(run).tag is None and qrels_rows(qrels_path).tag is None
    assert run_rows(ranx_pair(qrels, run)[1]).tag == "ranx_run"


def test_as_qrels_and_as_run_show_every_input_as_the_same_frame(tmp_path):
    qrels, run = random_data(2)
    for make in (namedtuple_qrels, pyterrier_qrels):
        frame = as_qrels(make(qrels))
        assert list(frame.columns) == ["query_id", "doc_id", "relevance"]
        assert {(q, d): g for q, d, g in frame.itertuples(index=False)} == {
            (q, d): g for q, docs in qrels.items() for d, g in docs.items()
        }
    frame = as_run(pyterrier_run(run))
    assert list(frame.columns) == ["query_id", "doc_id", "score"]
    assert len(frame) == sum(map(len, run.values()))


BAD = {
    "an item without a score": (
        "run",
        [ScoredDoc("q1", "d1", 1.0), Qrel("q1", "d2", 1, "0")],
        TypeError,
        r"^the run, item 1: Qrel\(.*\) has no field 'score'; each item needs query_id, doc_id "
        r"and score",
    ),
    "a plain tuple": (
        "qrels",
        [("q1", "d1", 1)],
        TypeError,
        r"^the qrels, item 0: \('q1', 'd1', 1\) has no field 'query_id'",
    ),
    "a float query id in an item": (
        "qrels",
        [Qrel("q1", "d1", 1, "0"), Qrel(2.0, "d1", 1, "0")],
        TypeError,
        r"^the qrels, item 1: query_id 2\.0 is a float",
    ),
    "a missing document id in an item": (
        "run",
        [ScoredDoc("q1", None, 1.0)],
        ValueError,
        r"^the run, item 0: doc_id is missing",
    ),
    "a grade that is not an integer": (
        "qrels",
        [Qrel("q1", "d1", 1, "0"), Qrel("q1", "d2", 0.5, "0")],
        ValueError,
        r"^the qrels, item 1: relevance 0\.5 of query 'q1', document 'd2' is not an integer grade",
    ),
    "a score that is not finite": (
        "run",
        [ScoredDoc("q1", "d1", float("nan"))],
        ValueError,
        r"^the run, item 0: score nan of query 'q1', document 'd1' is not a finite number",
    ),
    "a document twice": (
        "run",
        [ScoredDoc("q1", "d1", 1.0), ScoredDoc("q1", "d1", 0.5)],
        ValueError,
        r"^the run: document 'd1' is listed 2 times for query 'q1' in the run \(items 0, 1\)",
    ),
    "a NUL in an id": (
        "run",
        {"q1": {"d\x00": 1.0}},
        ValueError,
        r"^the run, row 0: doc_id 'd\\x00' holds a NUL character",
    ),
    "no items": ("qrels", [], ValueError, r"^the qrels holds no rows"),
    "PyTerrier frame without a label": (
        "qrels",
        pd.DataFrame({"qid": ["q1"], "docno": ["d1"], "score": [1]}),
        ValueError,
        r"^the qrels DataFrame needs columns query_id, doc_id and relevance; missing relevance\. "
        r"PyTerrier's qid, docno and label are read as those too\.",
    ),
    "PyTerrier frame with a bad row": (
        "run",
        pd.DataFrame({"qid": ["q1", "q1"], "docno": ["d1", "d2"], "score": [1.0, np.inf]}),
        ValueError,
        r"^the run, row 1: score inf of query 'q1', document 'd2' is not a finite number",
    ),
    "neither file, frame, dict nor iterable": (
        "run",
        3.5,
        TypeError,
        r"^run must be a path, an open file, a DataFrame, a pytrec_eval-style dict, a ranx Run "
        r"or an iterable of ir_datasets-style namedtuples; got float\.",
    ),
}


@pytest.mark.parametrize("name", BAD)
def test_a_bad_input_is_named_with_its_item_or_row(name):
    kind, data, error, pattern = BAD[name]
    with pytest.raises(error, match=pattern):
        (qrels_rows if kind == "qrels" else run_rows)(data)


def test_the_errors_speak_the_language_set():
    with language("zh"), pytest.raises(ValueError, match=r"^排序结果，第 0 项：缺少 doc_id"):
        run_rows([ScoredDoc("q1", None, 1.0)])
    with language("zh"), pytest.raises(TypeError, match=r"^run 应当是路径"):
        run_rows(3.5)
