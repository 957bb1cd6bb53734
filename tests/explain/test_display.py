"""The display step of a teaching table: booleans read as words outside English."""

from __future__ import annotations

import pandas as pd

from mapteach import pr_curve
from mapteach.explain import display_table
from mapteach.i18n import language, tr

LABELS = [1, 0, 0, 1, 0]  # relevant at ranks 1 and 4


def _across(labels):
    """The precision-recall table with one column per rank, as notebook 05 shows it."""
    return pr_curve(labels).set_index("rank")[["relevant", "precision"]].T


def test_a_transposed_table_shows_its_booleans_as_words_in_chinese():
    with language("zh"):
        shown = _across(LABELS).display()
        words = {True: tr("yes"), False: tr("no")}
        assert shown.index.tolist() == [tr("relevant"), tr("precision")]
        assert shown.columns.name == tr("rank")
    assert shown.iloc[0].tolist() == [words[bool(label)] for label in LABELS]
    assert set(words.values()) == {"是", "否"}
    hits = [sum(LABELS[:rank]) for rank in range(1, len(LABELS) + 1)]
    precisions = [round(hit / rank, 4) for rank, hit in enumerate(hits, start=1)]
    assert shown.iloc[1].tolist() == precisions


def test_a_transposed_table_prints_no_true_or_false_in_chinese():
    with language("zh"):
        printed, html = str(_across(LABELS)), _across(LABELS).to_html()
    for text in (printed, html):
        assert "True" not in text and "False" not in text
        assert text.count("是") == sum(LABELS) and text.count("否") == len(LABELS) - sum(LABELS)


def test_english_keeps_the_machine_values():
    table = _across(LABELS)
    assert table.display(lang="en").iloc[0].tolist() == [bool(label) for label in LABELS]
    assert "True" in str(table) and "False" in str(table)


def test_a_series_of_mixed_cells_keeps_its_counts_whole_when_rounded():
    mixed = pd.Series({"fleiss_kappa": 1 / 7, "annotators": 3, "documents": 20}, dtype=object)
    shown = display_table(mixed, lang="en", digits=4)
    assert shown.tolist() == [round(1 / 7, 4), 3, 20]
    assert [type(cell) for cell in shown] == [float, int, int]
    shown_values = [line.split()[-1] for line in shown.to_string().splitlines()]
    assert shown_values == ["0.1429", "3", "20"]


def test_a_missing_number_is_shown_as_the_mark_and_stays_nan_in_the_machine_form():
    """NaN (a query left out, a library not installed) reads as "—" once rounded for people."""
    import math

    from mapteach.explain.display import MISSING

    table = pd.DataFrame(
        {"AP": [2 / 3, float("nan")], "R": [3, 0], "run": ["a", "b"]},
        index=pd.Index(["q1", "q2"], name="query_id"),
    )
    for lang in ("en", "zh"):
        shown = display_table(table, lang=lang, digits=4)
        assert shown.iloc[:, 0].tolist() == [round(2 / 3, 4), tr(MISSING, lang=lang)]
        assert shown.iloc[:, 1].tolist() == [3, 0]
    assert tr(MISSING, lang="zh") == "—"
    assert math.isnan(table.loc["q2", "AP"])
    assert math.isnan(display_table(table, lang="zh").iloc[1, 0])  # digits=None: as it is


def test_a_series_shows_its_missing_numbers_as_the_mark():
    from mapteach.explain.display import MISSING

    series = pd.Series({"AP": float("nan"), "MAP": 0.123456})
    assert display_table(series, lang="zh", digits=4).tolist() == [tr(MISSING, lang="zh"), 0.1235]
