"""The three denominators of AP@k and the depth of a run, against hand-written AP@k."""

from __future__ import annotations

import sys
import types
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mapteach.analysis import cutoff_conventions
from mapteach.analysis.cutoff_conventions import (
    ap_at_k_by_library,
    map_at_k_by_denominator,
    map_by_run_depth,
)
from mapteach.i18n import tr
from tests.analysis.display_checks import CJK, english_headers
from tests.budget import examples


def hand_ap_at_k(labels, r, k, denominator):
    """AP@k written out: the hits so far over the rank, at each relevant rank <= k."""
    terms, hits = [], 0
    for rank, label in enumerate(labels[:k], start=1):
        if label:
            hits += 1
            terms.append(hits / rank)
    divisor = {"relevant": r, "min_relevant_k": min(k, r), "retrieved": hits}[denominator]
    return sum(terms) / divisor if divisor else 0.0


LIST, R, K = [1, 0, 0, 1, 0, 1, 1, 0], 6, 5


def test_each_library_row_is_its_denominator_by_hand_and_what_the_library_prints():
    import ir_measures
    import pytrec_eval

    table = ap_at_k_by_library(LIST, n_relevant=R, k=K)
    assert list(table.index) == ["pytrec_eval", "ir_measures", "ranx", "ml_metrics", "torchmetrics"]
    for _, row in table.iterrows():
        assert row["mapteach"] == pytest.approx(hand_ap_at_k(LIST, R, K, row["denominator"]))
    assert len({round(v, 6) for v in table["mapteach"]}) == 3  # the three conventions differ here
    judged = {"q": {**{f"d{i}": y for i, y in enumerate(LIST)}, "x1": 1, "x2": 1}}
    run = {"q": {f"d{i}": 10.0 - i for i in range(len(LIST))}}
    direct = pytrec_eval.RelevanceEvaluator(judged, {f"map_cut.{K}"}).evaluate(run)
    assert table.loc["pytrec_eval", "printed"] == direct["q"][f"map_cut_{K}"]
    ir = next(iter(ir_measures.iter_calc([ir_measures.AP @ K], judged, run))).value
    assert table.loc["ir_measures", "printed"] == pytest.approx(ir)
    for library in ("pytrec_eval", "ir_measures", "ranx"):  # installed here: run live
        assert table.loc[library, "printed"] == pytest.approx(hand_ap_at_k(LIST, R, K, "relevant"))
        assert table.loc[library, "explains"] == "run live"
    assert table.loc["ranx", "call"] == f"map@{K}"


def test_a_library_that_is_not_installed_says_what_its_source_does(monkeypatch):
    monkeypatch.setattr(cutoff_conventions, "installed", lambda module: False)
    table = ap_at_k_by_library(LIST, n_relevant=R, k=K)
    assert table["printed"].isna().all()
    assert "min(len(actual), k)" in table.loc["ml_metrics", "explains"]
    assert "hits in the top k" in table.loc["torchmetrics", "explains"]
    assert table.loc["ranx", "explains"] == "not installed"


def test_ml_metrics_is_given_every_relevant_document_and_the_ranked_list(monkeypatch):
    def apk(actual, predicted, k=10):  # ml_metrics 0.1.4's apk, as its source reads
        predicted = predicted[:k]
        score, hits = 0.0, 0.0
        for i, p in enumerate(predicted):
            if p in actual and p not in predicted[:i]:
                hits += 1.0
                score += hits / (i + 1.0)
        return score / min(len(actual), k) if actual else 0.0

    monkeypatch.setitem(sys.modules, "ml_metrics", types.SimpleNamespace(apk=apk))
    real = cutoff_conventions.installed
    monkeypatch.setattr(
        cutoff_conventions, "installed", lambda module: module == "ml_metrics" or real(module)
    )
    table = ap_at_k_by_library(LIST, n_relevant=R, k=K)
    assert table.loc["ml_metrics", "printed"] == pytest.approx(
        hand_ap_at_k(LIST, R, K, "min_relevant_k")
    )
    assert table.loc["ml_metrics", "explains"] == "run live"


def test_bad_input_is_refused_by_name():
    with pytest.raises(ValueError, match="n_relevant"):
        ap_at_k_by_library([1, 1], n_relevant=1, k=2)
    with pytest.raises(ValueError, match="k"):
        ap_at_k_by_library([1, 0], n_relevant=1, k=0)
    with pytest.raises(ValueError, match="depths is empty"):
        map_by_run_depth(np.ones((1, 2)), np.ones((1, 2)), [])
    with pytest.raises(ValueError, match=r"one shape; got \(1, 2\) and \(1, 3\)"):
        map_by_run_depth(np.ones((1, 2)), np.ones((1, 3)), [1])
    with pytest.raises(ValueError, match="depth"):
        map_by_run_depth(np.ones((1, 2)), np.ones((1, 2)), [0])


def ranked_labels(scores, relevance):
    """Each row's labels in score order, ties in column order."""
    order = np.argsort(-scores, axis=1, kind="stable")
    return np.take_along_axis(relevance, order, axis=1)


@st.composite
def runs(draw):
    """A small run: 1-5 queries, 1-9 candidates, few distinct scores, 0/1 relevance."""
    n, m = draw(st.integers(1, 5)), draw(st.integers(1, 9))
    scores = draw(st.lists(st.integers(0, 3), min_size=n * m, max_size=n * m))
    labels = draw(st.lists(st.integers(0, 1), min_size=n * m, max_size=n * m))
    return np.reshape(scores, (n, m)).astype(float), np.reshape(labels, (n, m))


@settings(max_examples=examples(60), deadline=None)
@given(runs(), st.integers(1, 10))
def test_map_at_k_under_each_denominator_is_the_mean_of_hand_ap_at_k(run, k):
    scores, relevance = run
    table = map_at_k_by_denominator(scores, relevance, k)
    rows = ranked_labels(scores, relevance)
    for denominator in ("relevant", "min_relevant_k", "retrieved"):
        hand = [hand_ap_at_k(list(row), int(row.sum()), k, denominator) for row in rows]
        whole = [hand_ap_at_k(list(row), int(row.sum()), row.size, "relevant") for row in rows]
        assert table.loc[denominator, "map"] == pytest.approx(np.mean(hand))
        raised = sum(a > b + 1e-12 for a, b in zip(hand, whole, strict=True))
        assert table.loc[denominator, "raised"] == raised
    assert table.loc["relevant", "raised"] == 0  # with R, a cutoff never raises AP


@settings(max_examples=examples(60), deadline=None)
@given(runs(), st.lists(st.integers(1, 12), min_size=1, max_size=4))
def test_a_run_cut_deeper_never_scores_lower(run, depths):
    scores, relevance = run
    table = map_by_run_depth(scores, relevance, depths)
    assert list(table.index) == sorted(set(depths))
    rows = ranked_labels(scores, relevance)
    first = [hand_ap_at_k(list(row), int(row.sum()), table.index[0], "relevant") for row in rows]
    for depth in table.index:
        cut = [hand_ap_at_k(list(row), int(row.sum()), depth, "relevant") for row in rows]
        assert table.loc[depth, "map"] == pytest.approx(np.mean(cut))
        assert table.loc[depth, "higher"] == sum(
            a > b + 1e-12 for a, b in zip(cut, first, strict=True)
        )
    assert (table["lower"] == 0).all()
    assert table["map"].is_monotonic_increasing


def test_the_tables_are_shown_in_chinese():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tables = [
            ap_at_k_by_library(LIST, n_relevant=R, k=K),
            map_at_k_by_denominator(np.tile(np.arange(8.0, 0, -1), (2, 1)), np.eye(2, 8), 3),
            map_by_run_depth(np.tile(np.arange(8.0, 0, -1), (2, 1)), np.eye(2, 8), [2, 8]),
        ]
    for table in tables:
        shown = table.display(lang="zh")
        assert not english_headers(shown), shown.columns
    by_library = tables[0].display(lang="zh")
    assert by_library.iloc[-1, 0] == tr("÷ the hits in the top k", lang="zh")
    assert CJK.search(by_library.iloc[-1, 0]) and CJK.search(by_library.iloc[-1, -1])
    by_denominator = tables[1].display(lang="zh")
    assert by_denominator.index.tolist() == [
        tr(label, lang="zh") for label in ("÷ R", "÷ min(k, R)", "÷ the hits in the top k")
    ]
    assert CJK.search(by_denominator.iloc[0, -1])
