"""trace_texts: the trace's templates, in each language, fill to what the Python writes."""

from __future__ import annotations

import json

import pytest

from mapteach.board.trace_texts import trace_texts
from mapteach.explain import explain_ap, trace_ap, trace_html
from mapteach.explain.ap_trace import TRACE_HEADERS
from mapteach.i18n import LANGUAGES, language, tr

PLURALS = ("note_all_counted", "note_none_counted", "note_some_missed")


def pick(forms: dict[str, str], count: int) -> str:
    """The form a reader of trace_texts takes for ``count`` (as board_math.js does)."""
    return forms["one"] if count == 1 else forms["other"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_texts_are_plain_json_with_every_key(lang):
    texts = trace_texts(lang)
    assert json.loads(json.dumps(texts)) == texts
    assert set(texts) == {"columns", "headers", "footer_cutoff", "zero_text", "zero_note", *PLURALS}
    assert all(set(texts[key]) == {"one", "other"} for key in PLURALS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_headers_are_the_ones_the_html_table_shows(lang):
    texts = trace_texts(lang)
    page = trace_html(trace_ap([1, 0]), lang=lang)
    shown = [f">{texts['headers'][key]}</th>" for key in texts["columns"]]
    assert all(header in page for header in shown)
    assert page.count("</th>") == len(texts["columns"])
    assert texts["headers"]["rank"] == tr(TRACE_HEADERS["rank"], lang=lang)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    ("labels", "r", "k", "key", "count"),
    [
        ([1, 0], 1, None, "note_all_counted", 1),
        ([1, 1, 0], 2, None, "note_all_counted", 2),
        ([0, 1], 1, 1, "note_none_counted", 1),
        ([0, 0, 1, 1], 2, 2, "note_none_counted", 2),
        ([1, 0], 2, None, "note_some_missed", 1),
        ([1, 0], 4, None, "note_some_missed", 3),
    ],
)
def test_each_note_fills_to_explain_aps_note(lang, labels, r, k, key, count):
    with language(lang):
        wanted = explain_ap(labels, n_relevant=r, k=k).note
    assert pick(trace_texts(lang)[key], count).format(n=count, r=r) == wanted


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_zero_texts_and_the_footer_fill_to_the_pythons(lang):
    texts = trace_texts(lang)
    with language(lang):
        zero = explain_ap([0, 0], k=1)
    assert texts["zero_text"].format(name="AP@1") == str(zero)
    assert texts["zero_note"] == zero.note
    footer = texts["footer_cutoff"].format(r=2, k=3)
    assert f">{footer}</td>" in trace_html(trace_ap([1, 1, 0], k=3), lang=lang)


def test_chinese_has_one_form_and_every_text_is_translated():
    english, chinese = trace_texts("en"), trace_texts("zh")
    assert all(chinese[key]["one"] == chinese[key]["other"] for key in PLURALS)
    assert all(english[key]["one"] != english[key]["other"] for key in PLURALS)
    for key in ("footer_cutoff", "zero_text", "zero_note"):
        assert chinese[key] != english[key]
    assert chinese["columns"] == english["columns"]


def test_an_unknown_language_is_named():
    with pytest.raises(ValueError, match="'fr'"):
        trace_texts("fr")
