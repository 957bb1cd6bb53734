"""Every convention switch, against hand values and brute force."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mapteach import average_precision, ndcg_at_k
from mapteach.i18n import tr
from mapteach.metrics.names import parse_measure
from mapteach.runs.evaluation import evaluate
from mapteach.runs.score_matrix import evaluate_scores
from tests.analysis.display_checks import CJK, english_headers, same_values
from tests.budget import examples

MEASURES = ["AP", "AP@3", "P@3", "R@2", "RR", "RR@2", "nDCG", "nDCG@3", "Success@1", "Success@3"]


@st.composite
def tied_query(draw):
    """Up to 7 documents with few distinct scores, graded 0-2, and 0-2 unretrieved relevant."""
    n = draw(st.integers(1, 7))
    scores = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    grades = draw(st.lists(st.sampled_from([0, 0, 1, 2]), min_size=n, max_size=n))
    missed = draw(st.integers(0, 2))
    return scores, grades, missed


def brute_force(scores, grades, missed):
    """Mean of each measure over every order of every tied group."""
    groups = [
        sorted(i for i in range(len(scores)) if scores[i] == s)
        for s in sorted(set(scores), reverse=True)
    ]
    r = sum(g >= 1 for g in grades) + missed
    ideal = sorted([*grades, *[1] * missed], reverse=True)
    totals = dict.fromkeys(MEASURES, 0.0)
    orders = list(itertools.product(*(itertools.permutations(g) for g in groups)))
    for order in orders:
        ranked = [grades[i] for group in order for i in group]
        labels = [int(g >= 1) for g in ranked]
        for name in MEASURES:
            measure = parse_measure(name)
            if measure.family == "nDCG":
                k = measure.k or max(len(ideal), len(ranked), 1)
                totals[name] += ndcg_at_k(ranked, k, ideal=ideal)
            else:
                totals[name] += measure.score(labels, n_relevant=r)
    return {name: total / len(orders) for name, total in totals.items()}


@settings(max_examples=examples(150), deadline=None)
@given(tied_query())
def test_expected_ties_equal_the_mean_over_all_orders(query):
    scores, grades, missed = query
    qrels = {
        "q": {**{f"d{i}": g for i, g in enumerate(grades)}, **{f"u{m}": 1 for m in range(missed)}}
    }
    run = {"q": {f"d{i}": float(s) for i, s in enumerate(scores)}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ours = evaluate(qrels, run, MEASURES, ties="expected").loc["q"]
    expected = brute_force(scores, grades, missed)
    for name in MEASURES:
        assert ours[name] == pytest.approx(expected[name], abs=1e-12), name


@settings(max_examples=examples(100), deadline=None)
@given(tied_query(), st.integers(1, 4))
def test_expected_ties_with_min_relevant_k_average_every_order(query, k):
    scores, grades, missed = query
    r = sum(g >= 1 for g in grades) + missed
    groups = [
        [i for i in range(len(scores)) if scores[i] == s] for s in sorted(set(scores), reverse=True)
    ]
    values = [
        average_precision(
            [int(grades[i] >= 1) for group in order for i in group],
            n_relevant=r,
            k=k,
            denominator="min_relevant_k",
        )
        for order in itertools.product(*(itertools.permutations(g) for g in groups))
    ]
    qrels = {
        "q": {**{f"d{i}": g for i, g in enumerate(grades)}, **{f"u{m}": 1 for m in range(missed)}}
    }
    run = {"q": {f"d{i}": float(s) for i, s in enumerate(scores)}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ours = evaluate(qrels, run, [f"AP@{k}"], ties="expected", denominator="min_relevant_k")
    assert ours.loc["q", f"AP@{k}"] == pytest.approx(np.mean(values), abs=1e-12)


def test_the_four_document_tie_example():
    qrels = {"q": {"d1": 1, "d2": 1, "d3": 0, "d4": 0}}
    tied = {"q": {f"d{i}": 1.0 for i in range(1, 5)}}
    assert round(evaluate(qrels, tied, ["AP"], ties="expected").loc["q", "AP"], 4) == 0.6806
    placements = []
    for relevant in itertools.combinations(["a", "b", "c", "d"], 2):
        renamed = {"q": {name: int(name in relevant) for name in "abcd"}}
        placements.append(
            evaluate(renamed, {"q": dict.fromkeys("abcd", 1.0)}, ["AP"]).loc["q", "AP"]
        )
    assert sorted(round(v, 4) for v in placements) == [0.4167, 0.5, 0.5833, 0.75, 0.8333, 1.0]


def test_partial_ties():
    qrels = {"q": {"d1": 1, "d3": 1, "d5": 1}}
    run = {"q": {"d1": 0.9, "d2": 0.5, "d3": 0.5, "d4": 0.5, "d5": 0.1}}
    values = {
        t: round(evaluate(qrels, run, ["AP"], ties=t).loc["q", "AP"], 4)
        for t in ("trec_eval", "expected", "optimistic", "pessimistic")
    }
    assert values == {
        "trec_eval": 0.7556,
        "expected": 0.7741,
        "optimistic": 0.8667,
        "pessimistic": 0.7,
    }


def test_expected_ties_on_a_matrix_match_the_trec_path():
    rng = np.random.default_rng(4)
    scores = rng.integers(0, 3, (25, 9)).astype(float)
    grades = rng.choice([0, 0, 1, 2], (25, 9))
    matrix = evaluate_scores(scores, grades, MEASURES, ties="expected")
    qrels = {f"{i:02d}": {str(j): int(grades[i, j]) for j in range(9)} for i in range(25)}
    run = {f"{i:02d}": {str(j): scores[i, j] for j in range(9)} for i in range(25)}
    np.testing.assert_allclose(
        matrix[MEASURES].to_numpy(),
        evaluate(qrels, run, MEASURES, ties="expected")[MEASURES].to_numpy(),
        atol=1e-12,
    )


@pytest.mark.parametrize(
    ("denominator", "expected"),
    # R = 5, ranking [1,1,0,0,0,1,1,1,0,0] (the peer-conventions cutoff table)
    [("relevant", 0.4), ("min_relevant_k", 2 / 3), ("retrieved", 1.0)],
)
def test_denominators_in_evaluate(denominator, expected):
    labels = [1, 1, 0, 0, 0, 1, 1, 1, 0, 0]
    qrels = {"q": {f"d{i}": y for i, y in enumerate(labels)}}
    run = {"q": {f"d{i}": 10.0 - i for i in range(10)}}
    table = evaluate(qrels, run, ["AP@3", "AP"], denominator=denominator)
    assert table.loc["q", "AP@3"] == pytest.approx(expected)
    assert table.loc["q", "AP"] == pytest.approx((1 + 1 + 3 / 6 + 4 / 7 + 5 / 8) / 5)


def test_expected_with_retrieved_denominator_is_refused():
    with pytest.raises(ValueError, match=r"ties='expected' needs a fixed denominator"):
        evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, ties="expected", denominator="retrieved")


# --- compare_conventions, audit_setups and the articles' functions -------------------

QRELS_LAB = {
    "A": {"d1": 1, "d3": 1, "d4": 1},
    "B": {"d1": 1, "d3": 1, "missed": 1},
    "ties": {"t1": 1, "t2": 1, "t3": 0, "t4": 0},
    "empty": {"e1": 0},
    "absent": {"z": 1},
}
RUN_LAB = {
    "A": {f"d{i}": 9.0 - i for i in range(1, 9)},
    "B": {f"d{i}": 9.0 - i for i in range(1, 9)},
    "ties": {f"t{i}": 1.0 for i in range(1, 5)},
    "empty": {"e1": 1.0, "e2": 0.5},
}


def compare_conventions_of(qrels, run):
    from mapteach.analysis.conventions import compare_conventions

    return compare_conventions(qrels, run)


def lab_table():
    return compare_conventions_of(QRELS_LAB, RUN_LAB)


def test_every_convention_row_is_evaluate_with_that_option():
    from mapteach.analysis.conventions import SETTINGS

    table = lab_table()
    for name, (options, _) in SETTINGS.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            expected = evaluate(QRELS_LAB, RUN_LAB, ["AP"], **{"missing": "ignore", **options})[
                "AP"
            ]
        assert table.loc[name, "map"] == pytest.approx(expected.mean()), name
        for query, value in expected.items():
            assert table.loc[name, f"ap_{query}"] == pytest.approx(value), (name, query)


def test_peer_rows_equal_calling_the_library_directly():
    import pytrec_eval
    from sklearn.metrics import average_precision_score

    table = lab_table()
    direct = pytrec_eval.RelevanceEvaluator(QRELS_LAB, {"map"}).evaluate(RUN_LAB)
    for query, value in direct.items():
        assert table.loc["pytrec_eval", f"ap_{query}"] == value["map"]
    assert table.loc["pytrec_eval", "map"] == pytest.approx(table.loc["trec_eval_default", "map"])
    docs = list(RUN_LAB["B"])
    sk = average_precision_score(
        [d in QRELS_LAB["B"] for d in docs], [RUN_LAB["B"][d] for d in docs]
    )
    assert table.loc["sklearn_per_query", "ap_B"] == pytest.approx(sk)
    assert round(sk, 4) == 0.8333  # cannot see the relevant document never retrieved
    assert table.loc["sklearn_per_query", "ap_ties"] == 0.5
    import ir_measures

    ir = {m.query_id: m.value for m in ir_measures.iter_calc([ir_measures.AP], QRELS_LAB, RUN_LAB)}
    assert table.loc["ir_measures", "ap_A"] == pytest.approx(ir["A"])
    assert table.loc["ir_measures", "map"] == pytest.approx(sum(ir.values()) / 5)  # absent = 0
    assert table.loc["ranx", "ap_ties"] == 1.0  # input order puts t1, t2 (relevant) first


def test_the_ranx_row_is_what_ranx_gives_for_the_whole_input():
    from ranx import Qrels, Run
    from ranx import evaluate as ranx_evaluate

    table = lab_table()
    with pytest.raises(AssertionError, match="make_comparable=True"):  # "absent" is not run
        ranx_evaluate(Qrels(QRELS_LAB), Run(RUN_LAB), "map")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        direct = ranx_evaluate(
            Qrels(QRELS_LAB), Run(RUN_LAB), "map", return_mean=False, make_comparable=True
        )
        mean = ranx_evaluate(Qrels(QRELS_LAB), Run(RUN_LAB), "map", make_comparable=True)
    for query, value in zip(Qrels(QRELS_LAB).keys(), direct, strict=True):  # ranx's order
        assert table.loc["ranx", f"ap_{query}"] == pytest.approx(float(value))
    assert table.loc["ranx", "map"] == pytest.approx(mean)
    assert (
        table.loc["ranx", "ap_absent"] == 0.0 and "make_comparable" in table.loc["ranx", "explains"]
    )
    answered = {q: QRELS_LAB[q] for q in RUN_LAB}  # the same queries: ranx takes them as given
    alone = compare_conventions_of(answered, RUN_LAB)
    assert alone.loc["ranx", "explains"] == "R; tied documents keep input order"
    assert alone.loc["ranx", "map"] == pytest.approx(
        ranx_evaluate(Qrels(answered), Run(RUN_LAB), "map")
    )


def test_peers_that_are_not_installed_say_so(monkeypatch):
    import importlib.util

    from mapteach.analysis import conventions

    real = importlib.util.find_spec
    absent = {"pytrec_eval", "ir_measures", "ranx", "sklearn", "torchmetrics"}
    monkeypatch.setattr(
        conventions.importlib.util,
        "find_spec",
        lambda name, *args: None if name in absent else real(name, *args),
    )
    table = lab_table()
    for peer in ("pytrec_eval", "ir_measures", "ranx", "torchmetrics"):
        assert table.loc[peer, "explains"] == "not installed"
        assert np.isnan(table.loc[peer, "map"])


def test_audit_setups():
    from mapteach.analysis.conventions import audit_setups

    audit = audit_setups(
        QRELS_LAB, RUN_LAB, {}, {"cutoff": 3, "no_relevant": "skip", "ties": "input"}
    )
    assert audit["item"].tolist() == ["start", "ties", "cutoff", "no_relevant"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        final = evaluate(
            QRELS_LAB, RUN_LAB, ["AP@3"], ties="input", no_relevant="skip", missing="ignore"
        )["AP@3"].mean()
    assert audit["map"].iloc[-1] == pytest.approx(final)
    with pytest.raises(ValueError, match=r"unknown checklist items \['stemming'\]"):
        audit_setups(QRELS_LAB, RUN_LAB, {"stemming": True}, {})


CONVENTION_ROWS = [
    "trec_eval_default",
    "ties_input",
    "ties_optimistic",
    "ties_pessimistic",
    "ties_expected",
    "denominator_retrieved",
    "empty_skipped",
    "empty_one",
    "missing_zero",
    "pytrec_eval",
    "ir_measures",
    "ranx",
    "sklearn_per_query",
    "torchmetrics",
]


def test_the_conventions_table_has_exactly_its_keys():
    from mapteach.analysis.conventions import SETTINGS

    table = lab_table()
    assert list(table.index) == CONVENTION_ROWS and table.index.name == "setting"
    assert list(SETTINGS) == CONVENTION_ROWS[:9]
    per_query = [f"ap_{query}" for query in sorted(QRELS_LAB)]
    assert list(table.columns) == [*per_query, "map", "source", "explains"]
    assert table.loc["sklearn_per_query", "source"] == "sklearn"
    assert set(table["source"].iloc[:9]) == {"mapteach"}


def test_the_conventions_table_is_shown_in_chinese_with_the_same_values():
    from mapteach.analysis.conventions import SETTINGS

    table = lab_table()
    shown = table.display(lang="zh")
    libraries = ["pytrec_eval", "ir_measures", "ranx", "torchmetrics"]  # names, as typed
    assert not english_headers(shown.drop(index=libraries), index_labels=True)
    assert list(shown.columns[:5]) == [f"AP {query}" for query in sorted(QRELS_LAB)]
    assert shown.index[0] == tr("trec_eval (default)", lang="zh") != "trec_eval (default)"
    assert shown.index[-5:].tolist()[:3] == ["pytrec_eval", "ir_measures", "ranx"]
    numbers = table.columns[:-2]
    same_values(shown.iloc[:, :-2], table[numbers].round(4))
    assert shown.iloc[:, -2].tolist() == table["source"].tolist()
    explained = [tr(explains, lang="zh") for _, explains in SETTINGS.values()]
    assert shown.iloc[:9, -1].tolist() == explained and all(CJK.search(e) for e in explained)
    assert table.display().iloc[0, -1] == table.iloc[0, -1]  # English: the message itself
    assert list(table.index) == CONVENTION_ROWS  # the machine form is untouched


def test_an_audit_has_exactly_its_keys_and_is_shown_in_chinese():
    from mapteach.analysis.conventions import CHECKLIST, audit_setups

    audit = audit_setups(QRELS_LAB, RUN_LAB, {}, {"cutoff": 3, "ties": "input"})
    assert list(audit.columns) == ["item", "question", "setup_a", "setup_b", "map"]
    assert audit["question"].tolist() == ["", CHECKLIST["ties"], CHECKLIST["cutoff"]]
    shown = audit.display(lang="zh")
    assert not english_headers(shown)
    assert shown.iloc[:, 0].tolist() == [tr("(set-up A)", lang="zh"), "并列", "截断"]
    assert CJK.search(shown.iloc[1, 1]) and shown.iloc[1, 1] == tr(CHECKLIST["ties"], lang="zh")
    assert shown.iloc[:, 2:4].to_numpy().tolist() == [
        ["-", "-"],
        ["按文档编号降序（trec_eval）", "输入顺序"],
        ["不截断（整个列表）", "k = 3"],
    ]
    same_values(shown.iloc[:, 4], audit["map"].round(4))
    english = audit.display()
    assert english.iloc[:, 0].tolist() == ["(set-up A)", "ties", "cutoff"]
    assert english.iloc[2, 2:4].tolist() == ["none (the whole list)", "k = 3"]
    assert audit[["setup_a", "setup_b"]].iloc[2].tolist() == ["None", "3"]  # machine form kept


def test_sklearn_modes_are_sklearns_with_their_keys_and_shown_in_chinese():
    from sklearn.metrics import average_precision_score

    from mapteach.analysis.conventions import sklearn_average_modes

    y = np.array([[1, 0, 1, 1], [1, 0, 1, 0], [0, 0, 1, 1]])
    s = np.tile([4.0, 3.0, 2.0, 1.0], (3, 1))
    modes = sklearn_average_modes(y, s)
    assert list(modes.index) == ["macro", "samples", "micro", "weighted", "map_over_rows"]
    assert modes.name == "average_precision" and modes.index.name == "average"
    for mode in ("macro", "samples", "micro", "weighted"):
        with warnings.catch_warnings():  # the document column no query finds relevant
            warnings.simplefilter("ignore", UserWarning)
            assert modes[mode] == average_precision_score(y, s, average=mode)
    assert modes["map_over_rows"] == pytest.approx(np.mean([average_precision(row) for row in y]))
    shown = modes.display(lang="zh")
    assert shown.name == tr("average precision", lang="zh") and CJK.search(shown.name)
    assert shown.index[0] == tr("macro (default)", lang="zh") and CJK.search(shown.index[-1])
    assert list(shown.index[1:4]) == ["samples", "micro", "weighted"]  # sklearn's own words
    same_values(shown, modes.round(4))


def test_audit_setups_checks_each_choice_against_its_vocabulary():
    from mapteach.analysis.conventions import audit_setups

    with pytest.raises(ValueError, match=r"setup_b\['ties'\] must be one of 'trec_eval', 'input'"):
        audit_setups(QRELS_LAB, RUN_LAB, {}, {"ties": "random"})


def test_registries_are_read_only():
    from mapteach.analysis.convention_widgets import ConventionSwitches
    from mapteach.analysis.conventions import CHECKLIST, SETTINGS

    with pytest.raises(TypeError):
        SETTINGS["mine"] = ({}, "")
    with pytest.raises(TypeError):
        SETTINGS["ties_expected"][0]["ties"] = "input"
    with pytest.raises(TypeError):
        CHECKLIST["stemming"] = "which stemmer"
    with pytest.raises(TypeError):
        ConventionSwitches.OPTIONS["ties"] = ("input",)


def test_the_switches_offer_choices_from_the_vocabularies():
    from mapteach.analysis.convention_widgets import ConventionSwitches
    from mapteach.metrics.options import DENOMINATORS, MISSING, NO_RELEVANT, TIES

    options = ConventionSwitches.OPTIONS
    assert options["ties"] == TIES and options["missing"] == ("ignore", "zero")
    assert set(options["missing"]) == set(MISSING) - {"error"}
    assert set(options["denominator"]) <= set(DENOMINATORS)
    assert set(options["no_relevant"]) == set(NO_RELEVANT) - {"error"}


def test_the_three_articles_give_three_answers():
    from mapteach.articles.functions import (
        article_000_map,
        article_001_map,
        article_003_map,
        trec_eval_map,
    )

    ranked = {q: list(docs) for q, docs in RUN_LAB.items()} | {"unjudged": ["x1", "x2"]}
    relevant = {q: {d for d, g in docs.items() if g >= 1} for q, docs in QRELS_LAB.items()}
    relevant.pop("absent")
    answers = {
        f.__name__: f(ranked, relevant, k=3)
        for f in (article_000_map, article_001_map, article_003_map, trec_eval_map)
    }
    assert len({round(v, 6) for v in answers.values()}) == 4
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        trec = evaluate(QRELS_LAB, RUN_LAB, ["AP@3"], ties="input", missing="ignore")["AP@3"]
    assert answers["trec_eval_map"] == pytest.approx(trec.mean())
    # 000 counts the unjudged query as 0; 001 skips it; otherwise both divide by hits in the top 3
    assert answers["article_000_map"] == pytest.approx(answers["article_001_map"] * 4 / 5)


def test_switches_offer_only_r_with_tie_aware_scores():
    from mapteach.analysis.convention_widgets import ConventionSwitches

    switches = ConventionSwitches(QRELS_LAB, RUN_LAB)
    switches.controls["denominator"].value = "retrieved"
    switches.controls["ties"].value = "expected"  # no error: the denominator falls back to R
    assert [value for _, value in switches.controls["denominator"].options] == ["relevant"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        expected = evaluate(QRELS_LAB, RUN_LAB, ["AP"], ties="expected", missing="ignore")[
            "AP"
        ].mean()
    assert switches.value() == pytest.approx(expected)
    switches.controls["ties"].value = "trec_eval"
    assert ("retrieved hits", "retrieved") in switches.controls["denominator"].options
