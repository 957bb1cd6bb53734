"""A calibration round: each annotator against the gold grades, the simulated annotators, and
the judging board's readouts; the report's keys, and its display form in Chinese."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score, confusion_matrix

from mapteach.explain.display import display_table
from mapteach.i18n import language, tr
from mapteach.judging.annotator_agreement import interpret_kappa, kappa_reading
from mapteach.judging.calibration import calibration_report, judging_summary, simulate_annotator
from mapteach.judging.guideline import RELEVANCE_THRESHOLD, load_judging_set
from mapteach.judging.judgments import Event, append_event, load_judgments
from mapteach.judging.sensitivity import flip_sensitivity
from mapteach.metrics import average_precision, ndcg_at_k, precision_at_k
from tests.analysis.display_checks import CJK, english_headers, same_values

GOLD = load_judging_set().gold()
ROW_KEYS = [
    "accuracy",
    "kappa",
    "reading",
    "kappa_linear",
    "kappa_quadratic",
    "bias",
    "tendency",
    "missing",
    "after_reveal",
    "no_phase",
    "to_recheck",
]
FIRST, SECOND = list(GOLD)[:2]


def test_calibration_report_against_the_libraries_and_flip_sensitivity():
    high = simulate_annotator(GOLD, bias=+1, seed=1)
    report = calibration_report(high, GOLD)
    pairs = [(q, d) for q, docs in GOLD.items() for d in docs]
    mine, gold = [high[q][d] for q, d in pairs], [GOLD[q][d] for q, d in pairs]
    assert report.accuracy == pytest.approx(np.mean(np.array(mine) == np.array(gold)))
    grades = [0, 1, 2, 3]
    assert report.kappa == pytest.approx(cohen_kappa_score(gold, mine, labels=grades))
    assert report.kappa_linear == pytest.approx(
        cohen_kappa_score(gold, mine, labels=grades, weights="linear")
    )
    assert report.kappa_quadratic == pytest.approx(
        cohen_kappa_score(gold, mine, labels=grades, weights="quadratic")
    )
    assert report.confusion.to_numpy().tolist() == confusion_matrix(gold, mine).tolist()
    assert report.bias > 0 and report.tendency == "too high" and report.missing == 0
    moves = report.recheck["ap_change"].abs().tolist()
    assert moves == sorted(moves, reverse=True) and moves
    first = report.recheck.iloc[0]
    labels = [int(high[first["query"]][d] >= 2) for d in GOLD[first["query"]]]
    flips = flip_sensitivity(labels)
    assert flips.loc[first["rank"] - 1, "change"] == pytest.approx(first["ap_change"])
    low = calibration_report(simulate_annotator(GOLD, bias=-1), GOLD)
    assert low.tendency == "too low" and low.row()["tendency"] == "too low"


def test_missing_counts_only_the_documents_of_the_annotators_queries():
    some = {FIRST: {"r1": 3, "r2": 0}}
    report = calibration_report(some, GOLD)
    unjudged_first = len(GOLD[FIRST]) - 2
    assert (report.accuracy, report.missing, len(report.recheck)) == (1.0, unjudged_first, 0)
    assigned = calibration_report(some, GOLD, assigned=[FIRST, SECOND])
    assert assigned.missing == unjudged_first + len(GOLD[SECOND])
    assert assigned.accuracy == report.accuracy and assigned.confusion.equals(report.confusion)


def test_calibration_report_refuses_unknown_queries_and_documents():
    with pytest.raises(ValueError, match=r"query '劳动仲裁赔偿标准', document 'x' has no gold"):
        calibration_report({FIRST: {"x": 1}}, GOLD)
    with pytest.raises(ValueError, match=r"query 'elsewhere' has no gold grades"):
        calibration_report({"elsewhere": {"x": 1}}, GOLD)
    with pytest.raises(ValueError, match=r"assigned query 'elsewhere' has no gold grades"):
        calibration_report({FIRST: {"r1": 3}}, GOLD, assigned=["elsewhere"])


def test_only_plain_kappa_is_read_on_iirs_scale():
    hao = simulate_annotator({FIRST: GOLD[FIRST]}, bias=+1, seed=1)  # the notebook's Hao
    report = calibration_report(hao, GOLD)
    assert report.kappa == pytest.approx(0.08, abs=0.005)  # chance-corrected 30% exact
    assert report.row()["reading"] == kappa_reading(report.kappa)
    assert report.row()["reading"].startswith("dubious")  # IIR: below 0.67
    assert kappa_reading(report.kappa_quadratic) != report.row()["reading"]  # would be "fair"
    assert [key for key in report.row() if key.startswith("reading")] == ["reading"]
    shown = report.display()
    assert {"weighted kappa (linear)", "weighted kappa (quadratic)"} <= set(shown.index)


def test_an_undefined_kappa_has_no_reading():
    one = calibration_report({FIRST: {"r1": 3}}, GOLD)  # one grade on both sides
    assert np.isnan(one.kappa) and np.isnan(one.kappa_quadratic) and one.accuracy == 1.0
    assert one.row()["reading"] == "no reading: kappa is undefined"
    empty = calibration_report({}, GOLD, assigned=[FIRST])
    assert np.isnan(empty.kappa) and np.isnan(empty.accuracy)
    assert empty.missing == len(GOLD[FIRST]) and empty.row()["reading"] == one.row()["reading"]


def test_the_default_threshold_is_the_guidelines():
    high = simulate_annotator(GOLD, bias=+1, seed=1)
    default = calibration_report(high, GOLD).recheck
    pd.testing.assert_frame_equal(
        default, calibration_report(high, GOLD, relevance_threshold=RELEVANCE_THRESHOLD).recheck
    )
    crossing = [
        (q, d) for q, docs in GOLD.items() for d, g in docs.items() if (high[q][d] >= 2) != (g >= 2)
    ]
    flagged = list(zip(default["query"], default["doc"], strict=True))
    assert RELEVANCE_THRESHOLD == 2 and sorted(flagged) == sorted(crossing)


def test_simulate_annotator_is_seeded():
    noisy = simulate_annotator(GOLD, noise=0.4, seed=5)
    assert (
        noisy
        == simulate_annotator(GOLD, noise=0.4, seed=5)
        != simulate_annotator(GOLD, noise=0.4, seed=6)
    )
    assert simulate_annotator(GOLD) == GOLD
    with pytest.raises(ValueError, match="noise is a probability"):
        simulate_annotator(GOLD, noise=1.5)


def test_a_report_row_has_exactly_its_keys_the_same_in_every_language():
    report = calibration_report(simulate_annotator(GOLD, bias=+1, seed=1), GOLD)
    row = report.row()
    assert list(row) == ROW_KEYS
    assert row["kappa"] == report.kappa and row["accuracy"] == report.accuracy
    assert (row["kappa_linear"], row["kappa_quadratic"]) == (
        report.kappa_linear,
        report.kappa_quadratic,
    )
    assert row["reading"] == interpret_kappa(report.kappa)  # English: the message itself
    assert (row["tendency"], row["missing"], row["to_recheck"]) == (
        "too high",
        0,
        len(report.recheck),
    )
    assert (row["after_reveal"], row["no_phase"]) == (0, 0)  # grades given as a mapping
    with language("zh"):
        assert report.row() == row  # the machine form does not change with the language
        assert report.tendency == tr("too high", lang="zh") != "too high"


def test_a_report_is_shown_in_chinese_with_the_same_values():
    report = calibration_report(simulate_annotator(GOLD, bias=+1, seed=1), GOLD)
    shown = report.display(lang="zh")
    assert not english_headers(shown)
    assert shown.iloc[2] == tr(report.row()["reading"], lang="zh") and CJK.search(shown.iloc[2])
    assert shown.iloc[6] == tr("too high", lang="zh")
    numbers = [0, 1, 3, 4, 5, 7, 8, 9, 10]
    same_values(shown.iloc[numbers], pd.Series(report.row()).iloc[numbers].map(_rounded))
    english = report.display()
    assert english.index[1] == "Cohen's kappa" and english.iloc[6] == "too high"
    assert english.index[2] == "reading of kappa (IIR)"


def _rounded(value):
    return round(value, 4) if isinstance(value, float) else value


def test_a_table_of_reports_is_shown_in_chinese_by_display_table():
    reports = {
        "hao": calibration_report(simulate_annotator(GOLD, bias=+1, seed=1), GOLD),
        "nina": calibration_report(simulate_annotator(GOLD, noise=0.4, seed=2), GOLD),
    }
    table = pd.DataFrame({name: report.row() for name, report in reports.items()}).T
    shown = display_table(table, lang="zh", digits=4)
    assert not english_headers(shown) and list(shown.index) == ["hao", "nina"]
    assert shown.iloc[0, 6] == tr("too high", lang="zh")
    assert shown.iloc[1, 1] == round(reports["nina"].kappa, 4)
    assert shown.iloc[1, 4] == round(reports["nina"].kappa_quadratic, 4)


def test_the_report_tables_have_exactly_their_keys_and_are_shown_in_chinese():
    report = calibration_report(simulate_annotator(GOLD, bias=+1, seed=1), GOLD)
    assert report.confusion.index.name == "gold" and report.confusion.columns.name == "yours"
    assert list(report.recheck.columns) == ["query", "doc", "rank", "yours", "gold", "ap_change"]
    for table in (report.confusion, report.recheck):
        shown = table.display(lang="zh")
        assert not english_headers(shown)
        same_values(shown, table.round(4))


def test_judging_summary_has_exactly_its_keys():
    grades, reference = [3, -1, 1, 2, 0, 2], [3, 0, 2, 2, 1, 0]
    summary = judging_summary(grades, reference, threshold=2)
    assert list(summary) == ["ap", "p5", "ndcg10", "ref_ap", "disagree", "differs"]
    labels = [1, 0, 0, 1, 0, 1]
    assert summary["ap"] == average_precision(labels)
    assert summary["p5"] == precision_at_k(labels, 5)
    assert summary["ndcg10"] == ndcg_at_k([3, 0, 1, 2, 0, 2], 10)
    assert summary["ref_ap"] == average_precision([1, 0, 1, 1, 0, 0])
    assert summary["disagree"] == [2, 5] and summary["differs"] == [2, 4, 5]
    assert np.isfinite(summary["ap"])


# --- blind judgments only ----------------------------------------------------------------


def _judge(path, grades, phase):
    for query, docs in grades.items():
        for doc, grade in docs.items():
            event = Event.now("hao", query, doc, grade, "R-AUTH", "2026.1")
            append_event(path, replace(event, phase=phase))


def _scored(report):
    row = {key: value for key, value in report.row().items() if key not in UNSCORED}
    return row, report.confusion.to_numpy().tolist(), report.recheck.to_dict("list")


UNSCORED = {"after_reveal", "no_phase"}


def test_changes_after_the_reveal_leave_the_report_unchanged(tmp_path):
    hao = simulate_annotator({FIRST: GOLD[FIRST]}, bias=+1, seed=1)
    path = tmp_path / "hao.jsonl"
    _judge(path, hao, "blind")
    blind = calibration_report(path, GOLD)
    assert _scored(blind) == _scored(calibration_report(hao, GOLD))
    _judge(path, {FIRST: GOLD[FIRST]}, "after_reveal")  # every grade copied from the answer
    assert load_judgments(path) == {FIRST: GOLD[FIRST]}  # the file keeps the copies
    peeked = calibration_report(path, GOLD)
    assert _scored(peeked) == _scored(blind) and peeked.accuracy < 1
    assert (peeked.after_reveal, peeked.no_phase) == (len(GOLD[FIRST]), 0)
    assert (blind.after_reveal, peeked.row()["after_reveal"]) == (0, len(GOLD[FIRST]))


def test_records_without_a_phase_count_as_blind_and_are_counted(tmp_path):
    path = tmp_path / "old.jsonl"
    old = [
        {"annotator": "hao", "query": FIRST, "doc": doc, "grade": grade, "reason": "R-AUTH",
         "time": "2026-01-05T09:00:00Z", "guideline": "2026.1"}
        for doc, grade in list(GOLD[FIRST].items())[:3]
    ]  # fmt: skip
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in old), "utf-8")
    _judge(path, {FIRST: {"r4": 0}}, "blind")
    _judge(path, {FIRST: {"r1": 0, "r4": 3}}, "after_reveal")
    report = calibration_report(path, GOLD)
    assert (report.no_phase, report.after_reveal) == (3, 2)
    expected = {FIRST: {r["doc"]: r["grade"] for r in old} | {"r4": 0}}
    assert _scored(report) == _scored(calibration_report(expected, GOLD))


def test_a_report_with_nothing_graded_has_no_tendency():
    report = calibration_report({}, {"q": {"a": 2, "b": 0}})
    assert report.bias != report.bias  # NaN: nothing to compare
    assert report.tendency == "no grades" and report.row()["tendency"] == "no grades"
    assert report.tendency != "balanced"
