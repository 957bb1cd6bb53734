"""The teaching floor speaks Chinese: prose, feedback, tables and errors in the current language.

Keys (column keys, misconception names, ids) stay English in every language, so code
and notebooks index them the same way; numbers are the same in both languages; and
English, the default, is unchanged.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from mapteach import (
    average_precision,
    examples_table,
    explain_ap,
    explain_ndcg,
    explain_rr,
    trace_ap,
    trace_rr,
)
from mapteach.analysis.conventions import ConventionTable
from mapteach.analysis.reporting import best_by_measure, paired_effect
from mapteach.articles.examples import get_example
from mapteach.articles.slips import SLIPS, slips_table
from mapteach.exercises.answers import asked_precision, check_number
from mapteach.exercises.mistakes import mistakes_for, wrong_answers
from mapteach.explain.ap_trace import TRACE_COLUMNS, TRACE_HEADERS, trace_headers
from mapteach.explain.display import HEADERS, ShownTable, display_table, shown_label
from mapteach.explain.pr_table import PR_HEADERS
from mapteach.i18n import get_language, language, tr
from mapteach.judging.annotator_agreement import interpret_alpha, interpret_kappa
from mapteach.judging.calibration import LEGAL_RESULTS, calibration_report
from mapteach.judging.guideline import (
    HARD_CASES,
    TRANSLATED_KEYS,
    load_guideline,
    load_judging_set,
)
from tests.analysis.display_checks import same_values

CHINESE = re.compile(r"[\u4e00-\u9fff]")
DATA = Path(__file__).parents[2] / "mapteach" / "judging" / "data"
QUERY_B = [1, 0, 1, 0, 0, 0, 0, 0]  # article 003's query B, R = 3


def _chinese(text: object) -> bool:
    return bool(CHINESE.search(str(text)))


def _wrong_answers(labels):
    """Every AP mistake on ``labels``, explained in the current language."""
    data = {"labels": labels, "n_relevant": sum(labels), "k": None}
    return wrong_answers("AP", data, average_precision(labels))


def test_explain_ap_speaks_chinese_with_the_same_numbers():
    english = explain_ap(QUERY_B, n_relevant=3)
    with language("zh"):
        chinese = explain_ap(QUERY_B, n_relevant=3)
    assert str(chinese) == str(english) == "AP = (1/1 + 2/3) / 3 = 0.5556"
    assert chinese.latex == english.latex and chinese.value == english.value
    assert _chinese(chinese.note) and not _chinese(english.note)
    assert "R = 3" in chinese.note and "1" in chinese.note
    with language("zh"):
        empty = explain_ap([0, 0], n_relevant=0)
    assert str(empty).startswith("AP = 0") and _chinese(empty) and _chinese(empty.note)


def test_ndcg_and_rr_explanations_speak_chinese():
    with language("zh"):
        ndcg = explain_ndcg([1, 3, 0, 0, 1], k=5)
        rr, none = explain_rr([0, 0, 1]), explain_rr([0, 0, 1], k=2)
    assert ndcg.value == explain_ndcg([1, 3, 0, 0, 1], k=5).value
    assert _chinese(ndcg.note) and "log2" in ndcg.note and "3、1、1" in ndcg.note
    assert str(rr) == "RR = 1/3 = 0.3333" and _chinese(rr.note) and "3" in rr.note
    assert str(none).startswith("RR@2 = 0") and _chinese(none) and "2" in none.note


def test_a_misconception_feedback_is_chinese_and_keeps_its_english_key():
    labels = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1]  # article 001's late list: 0.2815, printed 0.48
    with language("zh"):
        feedback = check_number("0.4790", 0.2815476, misconceptions=_wrong_answers(labels))
    assert feedback.status == "incorrect"
    assert feedback.misconception == "final hit count in every numerator"
    assert _chinese(feedback.message) and "0.4790" in feedback.message
    (slip,) = [m for m in mistakes_for("AP") if m.name == feedback.misconception]
    assert slip.shown_name == "final hit count in every numerator"
    with language("zh"):
        assert _chinese(slip.shown_name)


@pytest.mark.parametrize(
    ("typed", "status"),
    [
        ("0.2815", "correct"),
        ("0.28", "incomplete"),
        ("0.5", "incorrect"),
        ("abc", "unreadable"),
        ("1,234", "unreadable"),
        ("", "empty"),
    ],
)
def test_every_feedback_status_speaks_chinese(typed, status):
    with language("zh"):
        feedback = check_number(typed, 0.2815476)
        asked = asked_precision(4)
    assert feedback.status == status and _chinese(feedback.message)
    assert _chinese(asked) and "4" in asked


def test_english_feedback_is_unchanged_by_default():
    assert get_language() == "en"
    assert check_number("0.28", 0.2815476).message == "Right so far: give 4 decimals."
    assert check_number("0.2815", 0.2815476).message == "Correct: 0.2815."
    assert check_number("", 0.5).message == "Type an answer: 4 decimals or a fraction such as 2/3."
    wrongs = _wrong_answers([0] * 6 + [1] * 4)
    wrong = check_number("0.4790", 0.2815476, misconceptions=wrongs)
    (explanation,) = [w.explanation for w in wrongs if w.name == wrong.misconception]
    assert wrong.message == (
        "Not quite: 0.4790 is what you get when you made this mistake: final hit count in every "
        f"numerator. {explanation}"
    )


def test_examples_table_shows_chinese_headers_and_keeps_english_keys():
    with language("zh"):
        table = examples_table()
        shown = display_table(table)
        html = table._repr_html_()
        text = repr(table)
    assert list(table.columns) == [
        "example",
        "article",
        "section",
        "measure",
        "printed",
        "computed",
        "agrees",
    ]
    assert all(_chinese(header) for header in shown.columns)
    assert not table.loc[~table["agrees"], "example"].empty  # keys work in Chinese too
    for header in shown.columns:
        assert header in html and header in text
    with language("zh"):  # each example by its label, not its id
        labels = [tr(get_example(name).label) for name in table["example"]]
    assert shown[shown.columns[0]].tolist() == labels
    same_values(shown.iloc[:, 1:], table.iloc[:, 1:])


def test_english_tables_print_their_keys_and_every_number_at_four_decimals():
    table = examples_table()
    plain = pd.DataFrame(table)
    printed = table.to_string(index=False)
    assert printed.splitlines()[0].split() == list(plain.columns)
    column = list(plain.columns).index("computed")
    computed = [line.split()[column] for line in printed.splitlines()]
    assert computed[1:] == [f"{value:.4f}" for value in plain["computed"]]
    assert all(f"{value:.4f}" in table._repr_html_() for value in plain["computed"])
    trace = trace_ap([1, 0, 1]).round(4)
    assert list(trace.columns) == list(TRACE_COLUMNS)
    assert trace.to_string(index=False).split("\n")[0].split() == list(TRACE_COLUMNS)


def test_trace_headers_translate_every_trace_column_and_keep_the_data():
    table = trace_ap([1, 0, 1], k=2)
    assert set(TRACE_HEADERS) >= set(TRACE_COLUMNS) | set(trace_rr([1]).columns)
    english = trace_headers(table)
    assert list(english.columns)[-1] == "running AP" and not isinstance(english, ShownTable)
    with language("zh"):
        chinese = trace_headers(table)
        printed = table.round(4).to_string()
    assert all(_chinese(header) or "@" in header for header in chinese.columns)
    assert chinese.attrs == table.attrs
    same_values(chinese, table)
    assert list(table.columns) == list(TRACE_COLUMNS)  # the original is untouched
    assert all(header in printed for header in chinese.columns)


def test_a_shown_table_stays_a_shown_table_through_pandas_operations():
    table = trace_ap([1, 0, 1, 1])
    for result in (table.round(2), table.head(2), table[["rank", "hits"]], table.assign(x=1)):
        assert isinstance(result, ShownTable)
    assert table.round(2).attrs == table.attrs
    assert isinstance(table["rank"], pd.Series) and not isinstance(table["rank"], ShownTable)


def test_one_key_has_one_header_in_the_shared_headers():
    assert HEADERS["running_ap"] == TRACE_HEADERS["running_ap"]
    assert PR_HEADERS["precision"] != TRACE_HEADERS["precision"]
    assert "precision" not in HEADERS  # P@k in a trace, precision in a PR table
    assert shown_label("P@10") == "P@10" and shown_label(3) == 3


def test_slips_keep_the_quote_and_speak_the_rest():
    slip = SLIPS["001_gap"]
    with language("zh"):
        text, table = str(slip), slips_table("001_gap")
        markdown = slip._repr_markdown_()
    assert slip.quote in text and slip.quote in markdown
    assert "0.3296" in text and _chinese(slip.gloss) is False
    row = table.loc["001_gap"]
    assert row["quote"] == slip.quote and _chinese(row["gloss"]) and _chinese(row["verdict"])
    assert _chinese(row["finding"]) and "0.3296" in row["finding"]


def test_judging_readings_and_reports_speak_chinese():
    gold = {"q": {"d1": 3, "d2": 0, "d3": 2, "d4": 1}}
    mine = {"q": {"d1": 3, "d2": 1, "d3": 1, "d4": 2}}
    assert interpret_kappa(0.7) == "fair agreement"
    with language("zh"):
        report = calibration_report(mine, gold)
        readings = interpret_kappa(0.7), interpret_alpha(0.5), report.tendency
        row = report.row()
        shown = report.display()
        recheck = display_table(report.recheck)
    assert all(_chinese(reading) for reading in readings)
    assert (
        set(row) >= {"kappa", "kappa_quadratic", "tendency"}
        and row["reading"] == "dubious: a weak basis for an evaluation"
    )
    assert _chinese(shown["kappa 的解读（IIR）"]) and _chinese(shown["倾向"])
    assert shown["加权 kappa（二次权重）"] == round(report.kappa_quadratic, 4)
    assert report.recheck.columns[-1] == "ap_change" and _chinese(recheck.columns[-1])
    assert calibration_report(mine, gold).tendency == "too high"


def test_the_guideline_loads_in_the_current_language_and_validates_in_english():
    english = load_guideline()
    with language("zh"):
        chinese = load_guideline()
        judging_set = load_judging_set()
    assert chinese.version == english.version and chinese.max_grade == english.max_grade
    assert _chinese(chinese.scale[3].label) and english.scale[3].label == "highly relevant"
    assert _chinese(chinese.rule("R-DUP").statement) and chinese.rule("R-DUP").grade == 1
    result = judging_set.queries[0].results[6]
    assert result.rule == "R-DUP" and "R-DUP" in result.reason and _chinese(result.gloss)
    assert load_guideline(lang="zh").scale[0].label == chinese.scale[0].label
    assert LEGAL_RESULTS[0][1].startswith("Labour Contract Law")  # a message: show tr(gloss)
    assert {rule.case for rule in english.rules} >= set(HARD_CASES)


def test_the_data_files_translated_texts_are_english():
    def strings(value, key=None):
        if isinstance(value, dict):
            for inner_key, inner in value.items():
                yield from strings(inner, inner_key)
        elif isinstance(value, list):
            for inner in value:
                yield from strings(inner, key)
        elif isinstance(value, str):
            yield key, value

    for path in (DATA / "guideline.json", DATA / "legal_set.json"):
        found = list(strings(json.loads(path.read_text(encoding="utf-8"))))
        translated = [text for key, text in found if key in TRANSLATED_KEYS]
        assert translated and not any(_chinese(text) for text in translated), path.name
        assert all(_chinese(text) for key, text in found if key in {"text", "query"})


def test_reporting_tables_keep_keys_and_show_chinese():
    effect = paired_effect([0.5, 0.5, 0.6], [0.6, 0.5, 0.7])
    table = pd.DataFrame({"RR": [1.0, 0.5], "AP": [0.5, 0.5]}, index=["x", "y"])
    with language("zh"):
        shown_effect = repr(effect)
        best = best_by_measure(table)
        frame = repr(effect.to_frame("AP"))
    assert effect["relative_change"] == pytest.approx(0.125)
    assert best.loc["AP", "best"] == "x = y" and bool(best.loc["AP", "tie"])
    assert "relative_change" not in shown_effect and _chinese(shown_effect) and _chinese(frame)
    assert not any(_chinese(header) for header in display_table(best).columns)  # English
    with language("zh"):
        assert all(_chinese(header) for header in display_table(best).columns)


def test_errors_a_learner_can_trigger_speak_chinese():
    with language("zh"), pytest.raises(ValueError, match=r"'nope'") as error:
        get_example("nope")
    assert _chinese(error.value)
    with language("zh"), pytest.raises(ValueError) as error:
        explain_ap([1, 0], decimals=-1)
    assert _chinese(error.value) and "-1" in str(error.value)
    with pytest.raises(ValueError, match="decimals must be an integer >= 0; got -1"):
        explain_ap([1, 0], decimals=-1)


def test_the_display_step_translates_rounds_and_keeps_the_machine_form():
    table = best_by_measure(pd.DataFrame({"AP": [1 / 3, -1e-9]}, index=["x", "y"]))
    shown = table.display(lang="zh", digits=2)
    assert not isinstance(shown, ShownTable) and shown.columns.tolist() == ["最佳", "并列", "分数"]
    assert shown.index.name == "指标" and shown.loc["AP"].iloc[2] == 0.33
    assert table.display(lang="en").columns.tolist() == ["best", "tie", "score"]
    assert table.display(digits=None).iloc[0, 2] == table.iloc[0, 2]
    assert list(table.columns) == ["best", "tie", "score"] and isinstance(table, ShownTable)
    zero = display_table(pd.Series([-1e-9], name="score"), digits=4)
    assert str(zero.iloc[0]) == "0.0"  # no "-0.0"
    with language("zh"):
        assert table.display(lang="en").columns[0] == "best"  # lang= wins over the current one
        assert table.display().columns[0] == "最佳"


def test_label_and_text_columns_are_shown_through_the_catalogue():
    table = ConventionTable({"item": ["start", "ties"], "question": ["not installed", "ties"]})
    shown = table.display(lang="zh")
    assert shown["项目"].tolist() == ["（设置 A）", "ties"]  # a key shows its header, else as is
    assert shown["问题"].tolist() == ["未安装", "并列"]  # English messages, translated
    assert table["item"].tolist() == ["start", "ties"]


def test_booleans_read_as_words_in_chinese_and_stay_booleans_in_english():
    table = trace_ap([0, 1, 1])
    relevant = table["relevant"].tolist()
    shown = table.display(lang="zh")
    assert shown["相关"].tolist() == ["是" if value else "否" for value in relevant]
    assert table.display(lang="en")["relevant"].tolist() == relevant
    assert table["relevant"].dtype == bool  # the machine form is untouched
