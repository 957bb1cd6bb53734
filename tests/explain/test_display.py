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


def _width(line):
    """A line's width on screen: a wide (CJK) character takes two columns."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in line)


def test_every_score_in_a_printed_table_has_four_decimals():
    """0.5000 beside 0.6667, 1.0000 beside 0.3250: never 0.5 or 1.0 for a score."""
    from mapteach import score_table

    rankings = {"A": [1, 1, 0, 0, 0], "B": [0, 0, 0, 1, 1]}
    table = score_table(rankings, ["P@5", "R@5", "AP"]).round(4)
    expected = {"A": [2 / 5, 1.0, 1.0], "B": [2 / 5, 1.0, (1 / 4 + 2 / 5) / 2]}
    for lang in ("en", "zh"):
        with language(lang):
            lines = table.to_string().splitlines()[1:]
            html = table._repr_html_()
        for line, (name, scores) in zip(lines, expected.items(), strict=True):
            assert line.split() == [name] + [f"{score:.4f}" for score in scores]
        assert all(f"<td>{score:.4f}</td>" in html for score in expected["B"])


def test_a_count_shown_once_rounded_is_a_whole_number():
    deltas = pd.Series([0.5, -0.25, 0.125, 0.0, 1 / 3])
    with language("zh"):
        shown = display_table(deltas.describe().to_frame("AP").T, digits=4)
        header, row = shown.to_string().splitlines()
        count = tr("count")
    assert header.split()[0] == count and row.split()[1] == str(len(deltas))
    assert row.split()[2] == f"{deltas.mean():.4f}"


def test_a_plain_text_table_with_chinese_lines_up():
    table = pd.DataFrame(
        {"query": ["查询 1（五个文档）", "查询 2"], "AP": [7 / 12, 0.75]},
    )
    with language("zh"):
        lines = display_table(table, digits=4).to_string(index=False).splitlines()
    assert len({_width(line) for line in lines}) == 1
    scores = [f"{ap:.4f}" for ap in (7 / 12, 0.75)]
    assert all(line.endswith(score) for line, score in zip(lines[1:], scores, strict=True))


def test_a_negative_number_printed_in_chinese_has_the_minus_sign():
    table = pd.DataFrame({"AP": [0.3056], "change": [-0.3056]})
    printed = {}
    for lang in ("en", "zh"):
        with language(lang):
            printed[lang] = display_table(table, digits=4).to_string(index=False)
    assert printed["en"].split()[-2:] == ["0.3056", "-0.3056"]
    assert printed["zh"].split()[-2:] == ["0.3056", "\u22120.3056"]


def test_a_renamed_display_form_still_prints_the_minus_sign_in_its_html():
    """What Lab shows (HTML) follows the plain-text rule, also after a notebook renames."""
    table = pd.DataFrame({"notebook_key": [0.5], "notebook_delta": [-0.04897]})
    with language("zh"):
        renamed = display_table(table, digits=4).rename(columns={"notebook_key": "named"})
        html, printed = renamed._repr_html_(), renamed.to_string(index=False)
    assert "<td>\u22120.0490</td>" in html and "-0.0490" not in html
    assert printed.split() == ["named", "notebook_delta", "0.5000", "\u22120.0490"]
