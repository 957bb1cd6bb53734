"""A calibration round: each annotator against the gold grades, the simulated annotators, and
the judging board's readouts; the report's keys, and its display form in Chinese."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score, confusion_matrix

from mapteach.explain.display import display_table
from mapteach.i18n import language, tr
from mapteach.judging.annotator_agreement import interpret_kappa
from mapteach.judging.calibration import calibration_report, judging_summary, simulate_annotator
from mapteach.judging.guideline import load_judging_set
from mapteach.judging.sensitivity import flip_sensitivity
from mapteach.metrics import average_precision, ndcg_at_k, precision_at_k
from tests.analysis.display_checks import CJK, english_headers, same_values

GOLD = load_judging_set().gold()
ROW_KEYS = [
    "accuracy",
    "weighted_kappa",
    "reading",
    "bias",
    "tendency",
    "missing",
    "to_recheck",
]


def test_calibration_report_against_the_libraries_and_flip_sensitivity():
    high = simulate_annotator(GOLD, bias=+1, seed=1)
    report = calibration_report(high, GOLD)
    pairs = [(q, d) for q, docs in GOLD.items() for d in docs]
    mine, gold = [high[q][d] for q, d in pairs], [GOLD[q][d] for q, d in pairs]
    assert report.accuracy == pytest.approx(np.mean(np.array(mine) == np.array(gold)))
    assert report.kappa == pytest.approx(cohen_kappa_score(gold, mine, weights="quadratic"))
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


def test_calibration_report_counts_missing_and_refuses_unknown_documents():
    some = {"劳动仲裁赔偿标准": {"r1": 3, "r2": 0}}
    report = calibration_report(some, GOLD)
    assert (report.accuracy, report.missing, len(report.recheck)) == (1.0, 48, 0)
    with pytest.raises(ValueError, match=r"query '劳动仲裁赔偿标准', document 'x' has no gold"):
        calibration_report({"劳动仲裁赔偿标准": {"x": 1}}, GOLD)


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
    assert row["weighted_kappa"] == report.kappa and row["accuracy"] == report.accuracy
    assert row["reading"] == interpret_kappa(report.kappa)  # English: the message itself
    assert (row["tendency"], row["missing"], row["to_recheck"]) == (
        "too high",
        0,
        len(report.recheck),
    )
    with language("zh"):
        assert report.row() == row  # the machine form does not change with the language
        assert report.tendency == tr("too high", lang="zh") != "too high"


def test_a_report_is_shown_in_chinese_with_the_same_values():
    report = calibration_report(simulate_annotator(GOLD, bias=+1, seed=1), GOLD)
    shown = report.display(lang="zh")
    assert not english_headers(shown)
    assert shown.iloc[2] == tr(report.row()["reading"], lang="zh") and CJK.search(shown.iloc[2])
    assert shown.iloc[4] == tr("too high", lang="zh")
    numbers = [0, 1, 3, 5, 6]
    same_values(shown.iloc[numbers], pd.Series(report.row()).iloc[numbers].map(_rounded))
    english = report.display()
    assert english.index[1] == "weighted kappa" and english.iloc[4] == "too high"


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
    assert shown.iloc[0, 4] == tr("too high", lang="zh")
    assert shown.iloc[1, 1] == round(reports["nina"].kappa, 4)


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
