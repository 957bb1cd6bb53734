"""nDCG's parameters: ir_measures' ``dcg='exp-log2'`` and trec_eval's gain map ``ndcg.1=3,2=9``."""

from __future__ import annotations

import itertools
import math
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mapteach.metrics.batch import RankedEntries, batch_scores
from mapteach.metrics.names import parse_measure
from mapteach.metrics.ndcg import batch_ndcg, ndcg_at_k, with_gains
from mapteach.metrics.ties import expected_scores
from mapteach.runs.evaluation import evaluate

DATA = Path(__file__).resolve().parents[1] / "data" / "trec_eval"
grades_st = st.lists(st.integers(0, 4), max_size=20)


def reference_ndcg(grades, pool, gain, k=None):
    """DCG over the ideal DCG, written out: gain(grade) / log2(rank + 1)."""

    def dcg(values):
        values = values[:k] if k else values
        return sum(gain(g) / math.log2(i + 1) for i, g in enumerate(values, start=1))

    best = dcg(sorted(pool, key=gain, reverse=True))
    return dcg(grades) / best if best else 0.0


def trec_gain(grade):
    """trec_eval's gain map 1=3,2=9,4=4.5: each listed grade its gain, the rest themselves."""
    return {1: 3.0, 2: 9.0, 4: 4.5}.get(grade, float(grade))


@given(st.lists(grades_st, min_size=1, max_size=5), st.none() | st.integers(1, 25))
def test_exp_log2_is_two_to_the_grade_minus_one(lists, k):
    measure = parse_measure("nDCG(dcg='exp-log2')" + ("" if k is None else f"@{k}"))
    got = batch_scores(RankedEntries.from_lists(lists), [measure])[measure.name]
    for value, grades in zip(got, lists, strict=True):
        assert value == pytest.approx(reference_ndcg(grades, grades, lambda g: 2**g - 1, k))


@given(st.lists(grades_st, min_size=1, max_size=5), st.none() | st.integers(1, 25))
def test_exp_log2_kernel_equals_the_exponential_scalar_bit_for_bit(lists, k):
    entries = with_gains(RankedEntries.from_lists(lists), {"dcg": "exp-log2"})
    scalar = [ndcg_at_k(g, k or max(len(g), 1), gain="exponential") for g in lists]
    np.testing.assert_array_equal(batch_ndcg(entries, k=k), np.array(scalar), strict=True)


@given(st.lists(grades_st, min_size=1, max_size=5), st.none() | st.integers(1, 25))
def test_the_gain_map_gives_listed_grades_their_gain_and_the_rest_themselves(lists, k):
    measure = parse_measure("ndcg.1=3,2=9,4=4.5" if k is None else "nDCG(gains={1:3,2:9,4:4.5})")
    measure = measure if k is None else parse_measure(f"{measure.name}@{k}")
    got = batch_scores(RankedEntries.from_lists(lists), [measure])[measure.name]
    for value, grades in zip(got, lists, strict=True):
        assert value == pytest.approx(reference_ndcg(grades, grades, trec_gain, k))


def test_the_gain_map_matches_trec_eval_on_its_own_test_files():
    """trec_eval's make quicktest ran ``-q -mndcg.1=3,2=9,4=4.5`` (out.test.meas_params)."""
    expected = {
        query: value
        for measure, query, value in (
            line.split("\t") for line in (DATA / "out.test.meas_params").read_text().splitlines()
        )
        if measure.strip() == "ndcg_1=3,2=9,4=4.5"
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        table = evaluate(DATA / "qrels.test", DATA / "results.test", ["ndcg.1=3,2=9,4=4.5"])
    values = table["ndcg.1=3,2=9,4=4.5"]
    got = {str(query): f"{value:6.4f}" for query, value in values.items()}
    got["all"] = f"{values.mean():6.4f}"
    assert got == expected
    assert len(got) == 4  # queries 301, 302, 303 and all


def test_the_expectation_with_gains_is_the_mean_over_every_order_of_the_ties():
    grades = [2, 0, 1, 4, 0]
    score = np.array([5.0, 4.0, 4.0, 4.0, 1.0])
    orders = [[grades[0], *perm, grades[4]] for perm in itertools.permutations(grades[1:4])]
    for name, gain in [
        ("nDCG(gains={1:3,2:9,4:4.5})@4", trec_gain),
        ("nDCG(dcg='exp-log2')", lambda g: 2**g - 1),
    ]:
        measure = parse_measure(name)
        k = measure.k
        mean = np.mean([reference_ndcg(order, grades, gain, k) for order in orders])
        got = expected_scores(RankedEntries.from_lists([grades]), score, [measure])[name]
        assert got[0] == pytest.approx(mean, abs=1e-15)


def test_names_print_back_and_trec_eval_names_keep_the_spelling_given():
    assert parse_measure("nDCG(dcg='exp-log2')@10").name == "nDCG(dcg='exp-log2')@10"
    assert parse_measure("nDCG(dcg='log2')@10").name == "nDCG@10"
    gains = parse_measure("ndcg.1=3.0,2=9")
    assert gains.name == "nDCG(gains={1:3.0,2:9})"
    assert gains.trec_name == "ndcg_1=3.0,2=9"
    assert parse_measure(gains.name) == gains
    assert parse_measure("nDCG(dcg='exp-log2')@10").trec_name is None


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("nDCG(dcg='exp')@10", r"nDCG's parameter dcg must be one of 'log2', 'exp-log2'"),
        ("nDCG(dcg=log2)@10", r"nDCG's parameter dcg must be one of"),
        ("ndcg.-1=2", r"nDCG's parameter gains must be a gain map of grades >= 0"),
        ("ndcg.1=x", r"nDCG's parameter gains: gains must be pairs grade=gain .* '1=x' is not"),
        ("ndcg.1=-2", r"nDCG's parameter gains: gains must not be negative; got '1=-2'"),
        ("nDCG(rel=2)", r"nDCG has no parameter 'rel'; it has: dcg, gains"),
    ],
)
def test_bad_parameters_say_what_is_allowed(name, fragment):
    with pytest.raises(ValueError, match=fragment):
        parse_measure(name)


def test_the_gain_map_matches_the_trec_eval_binary_to_1e_9(trec_eval_precise_bin, tmp_path):
    """Random qrels (grades -1 to 4) and runs with ties, against ``trec_eval -q -mndcg...``."""
    rng = np.random.default_rng(26)
    compared = 0
    for pair in range(20):
        qrels, run = tmp_path / f"qrels{pair}", tmp_path / f"run{pair}"
        qrel_lines, run_lines = [], []
        for q in range(1, int(rng.integers(2, 6))):
            docs = [f"d{i}" for i in rng.permutation(30)[: int(rng.integers(1, 25))]]
            run_lines += [f"{q} Q0 {doc} 0 {int(rng.integers(0, 4))} tag" for doc in docs]
            qrel_lines += [f"{q} 0 {doc} {int(rng.integers(-1, 5))}" for doc in docs[::2]]
            qrel_lines.append(f"{q} 0 unretrieved 2")
        qrels.write_text("\n".join(qrel_lines) + "\n")
        run.write_text("\n".join(run_lines) + "\n")
        spec = "ndcg.1=3,2=9,4=4.5"
        printed = subprocess.run(
            [str(trec_eval_precise_bin), "-q", f"-m{spec}", str(qrels), str(run)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        expected = {q: float(v) for _, q, v in (line.split() for line in printed.splitlines())}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            table = evaluate(qrels, run, [spec])
        got = {str(q): v for q, v in table[spec].items()}
        got["all"] = table[spec].mean()
        assert got == pytest.approx(expected, abs=1e-9)
        compared += len(got)
    assert compared == 76


def test_a_gain_for_grade_0_goes_to_judged_documents_only():
    """trec_eval's gain_init.c: a judged grade-0 document gains, an unjudged one does not."""
    measure = parse_measure("ndcg.0=1,1=3")
    assert measure.reads_judged and not parse_measure("ndcg.1=3").reads_judged
    with pytest.raises(ValueError, match="gains"):
        parse_measure("ndcg.-1=2")
    # ranked: judged 0, unjudged, judged 1; the ideal holds a 1 and a judged 0
    entries = RankedEntries.from_lists([[0, 0, 1]], ideal=[[1, 0]], judged=[[1, 0, 1]])
    got = batch_ndcg(with_gains(entries, {"gains": "0=1,1=3"}))
    dcg = 1 / math.log2(2) + 0 / math.log2(3) + 3 / math.log2(4)  # gains 1, 0, 3
    ideal = 3 / math.log2(2) + 1 / math.log2(3)
    assert got.tolist() == pytest.approx([dcg / ideal], abs=1e-15)


def test_the_score_matrix_and_score_run_agree_on_a_gain_for_grade_0():
    from mapteach.runs import score_run
    from mapteach.runs.score_matrix import evaluate_scores

    rng = np.random.default_rng(26)
    scores, grades = rng.random((20, 12)), rng.integers(0, 4, (20, 12))
    names = ["ndcg.0=1,1=3,2=7", "ndcg.0=2", "nDCG@5"]
    matrix = evaluate_scores(scores, grades, names)
    ids = [(f"q{i:02d}", [f"d{j:02d}" for j in range(12)]) for i in range(20)]
    qrels = {
        q: {d: int(g) for d, g in zip(docs, row, strict=True)}
        for (q, docs), row in zip(ids, grades, strict=True)
    }
    run = {
        q: {d: float(s) for d, s in zip(docs, row, strict=True)}
        for (q, docs), row in zip(ids, scores, strict=True)
    }
    scored = score_run(qrels, run, names)
    for name in names:
        assert np.abs(matrix[name].to_numpy() - scored.values[name]).max() <= 1e-12, name
