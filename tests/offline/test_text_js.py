"""text.js, the browser's shared text helpers, in Chromium: each writes what the Python it
names writes (``str.format`` as ``mapteach.i18n.tr`` uses it, ``html.escape``, an
f-string's ``.{d}f``, ``repr`` of a float), the Python always the reference."""

from __future__ import annotations

import html
import struct
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mapteach.offline import TEXT_JS, as_classic, bundle

pytestmark = pytest.mark.browser

#: A double from the hex of its 64 bits, so every number crosses to the page exactly.
DOUBLE = """
const F64 = new DataView(new ArrayBuffer(8));
const double = (hex) => { F64.setBigUint64(0, BigInt("0x" + hex)); return F64.getFloat64(0); };
"""


def bits(x: float) -> str:
    return struct.pack(">d", x).hex()


@pytest.fixture(scope="module")
def page(chromium) -> Iterator[Any]:
    page = chromium.new_page()
    page.add_script_tag(content=as_classic(bundle(TEXT_JS), "text"))
    yield page
    page.close()


def run(page, body: str, argument: Any) -> Any:
    """``body`` (using ``t``, the module's exports, and ``double``) run on ``argument``."""
    return page.evaluate(
        "(argument) => {" + DOUBLE + "const t = window.mapteachModules.text;" + body + "}",
        argument,
    )


#: Exact binary halves at some decimal: where JavaScript's toFixed rounds up and Python
#: rounds to even (0.03125 is P@32 with one hit; 0.15625 an AP of 5/32).
HALVES = st.builds(lambda whole, power: whole / 2**power, st.integers(0, 10**6), st.integers(0, 24))
SPECIAL = [float("nan"), float("inf"), float("-inf"), -0.0, 0.0, 0.03125, 0.15625, 5e-324]


@settings(max_examples=max(2, settings().max_examples // 10))
@given(
    st.lists(
        st.tuples(HALVES | st.floats(allow_nan=False, allow_infinity=False), st.integers(0, 8)),
        min_size=200,
        max_size=200,
    )
)
def test_fixed_decimals_are_written_as_python_writes_them(page, batch):
    numbers = [(x, d) for x in SPECIAL for d in (0, 4)] + batch
    got = run(
        page,
        "return argument.map(([x, d]) => t.formatFixed(double(x), d));",
        [[bits(x), d] for x, d in numbers],
    )
    assert got == [f"{x:.{d}f}" for x, d in numbers]


def test_a_count_of_decimals_that_is_not_one_is_refused(page):
    got = run(page, "try { t.formatFixed(0.5, argument); } catch (e) { return e.message; }", 1.5)
    assert got == "decimals must be an integer >= 0; got 1.5"


@settings(max_examples=max(2, settings().max_examples // 10))
@given(st.lists(HALVES | st.floats(), min_size=200, max_size=200))
def test_a_data_value_is_pythons_repr_of_the_float(page, batch):
    powers = [sign * 10.0**p for p in range(-8, 24) for sign in (1, -1)]
    numbers = SPECIAL + powers + [x * 1.5 for x in powers] + batch
    got = run(page, "return argument.map((x) => t.floatRepr(double(x)));", list(map(bits, numbers)))
    assert got == [repr(x) for x in numbers]


TEXTS = st.text(st.sampled_from("&<>\"'ab 中。\u00a0"), max_size=20)


@given(st.lists(TEXTS, min_size=50, max_size=50))
def test_escaping_is_html_escape_with_its_quotes(page, texts):
    got = run(page, "return argument.map(t.escapeHtml);", texts)
    assert got == [html.escape(text) for text in texts]


#: Templates of literal text, doubled braces and {name} placeholders.
PIECES = st.sampled_from(["AP = ", "{ap}", "{name}", "{{", "}}", "。", " {r} "])
TEMPLATES = st.lists(PIECES, max_size=8).map("".join)


@given(st.lists(TEMPLATES, min_size=50, max_size=50))
def test_a_template_is_filled_as_str_format_fills_it(page, templates):
    """As ``str.format``; a template with Chinese punctuation also spaced as ``tr`` spaces it
    in Chinese (``spaced_format``: ``str.format`` itself for the others)."""
    from mapteach.i18n.spacing import spaced_format

    fields = {"ap": "0.5000", "name": "Query A", "r": 3, "unused": "x"}
    got = run(page, "return argument[0].map((s) => t.fill(s, argument[1]));", [templates, fields])
    assert got == [spaced_format(template, **fields) for template in templates]
    english = [template for template in templates if "。" not in template]
    assert [spaced_format(template, **fields) for template in english] == [
        template.format(**fields) for template in english
    ]


#: Chinese templates and values: Latin and Chinese edges, full-width punctuation, spaces,
#: tags, signs and quotes, where ``mapteach.i18n.spacing``'s rule adds or removes a space,
#: and negative numbers as Python formats them, where it writes the minus sign "−".
CHINESE_PIECES = st.sampled_from(
    ["共", "个", " ", "，", "。", "A", "3", "（", "）", "{x}", "{y}", "“", "<b>", "%", '"', "("]
)
CHINESE_TEMPLATES = st.lists(CHINESE_PIECES, min_size=1, max_size=7).map(
    lambda p: "共" + "".join(p)
)
#: Negative numbers as Python formats them: "−" (U+2212) in a Chinese message, both sides.
NEGATIVE_NUMBERS = st.builds(
    format,
    st.floats(allow_nan=False, allow_infinity=False, max_value=0, exclude_max=True),
    st.sampled_from([".4f", "+.4f", ".1%", ",.0f", "g"]),
)
WORDS = st.sampled_from(
    ["qrels", "标注", "3", "−0.5", "50%", "甲、乙", "<code>d3</code>", "再试。", "", " 空", "'ab'"]
)
VALUES = WORDS | NEGATIVE_NUMBERS | st.sampled_from(["-3", "-x", "-3 位", "1-2", "<b>-0.5</b>"])


@given(st.lists(st.tuples(CHINESE_TEMPLATES, VALUES, VALUES), min_size=50, max_size=50))
def test_a_chinese_template_is_spaced_as_tr_spaces_it(page, cases):
    """``fill`` and ``fillBoth`` space a Chinese template's values as ``spaced_format``
    (what ``tr`` uses in Chinese) does; the HTML is the spaced text escaped."""
    from mapteach.i18n.spacing import spaced_format

    fields = [{"x": x, "y": y} for _, x, y in cases]
    got = run(
        page,
        "return argument[0].map((s, i) => {"
        " const f = argument[1][i];"
        " const h = Object.fromEntries(Object.entries(f).map(([k, v]) => [k, t.escapeHtml(v)]));"
        " return [t.fill(s, f), t.fillBoth(s, f, h).html]; });",
        [[template for template, _, _ in cases], fields],
    )
    expected = [spaced_format(template, x=x, y=y) for template, x, y in cases]
    assert [text for text, _ in got] == expected
    assert [markup for _, markup in got] == [html.escape(text) for text in expected]


FILL_OR_ERROR = (
    "try { return t.fill(argument, { title: 'doc 1', ap: 0.5 }); }"
    " catch (e) { return [e.name, e.message]; }"
)


@pytest.mark.parametrize(
    ("template", "refusal", "message"),
    [
        ("{title} moved to {rank}", KeyError, "no value for {rank} in {title} moved to {rank}"),
        ("a } alone", ValueError, "a single '}' in a } alone"),
        ("a { alone", ValueError, "a single '{' in a { alone"),
    ],
)
def test_a_template_that_str_format_refuses_is_refused(page, template, refusal, message):
    with pytest.raises(refusal):
        template.format(title="doc 1", ap=0.5)
    assert run(page, FILL_OR_ERROR, template) == ["RangeError", message]


def test_a_format_spec_is_refused_not_shown_unformatted(page):
    """The browser formats numbers itself (formatFixed) before filling them in."""
    message = "{ap:.4f} in AP = {ap:.4f}: only {name} placeholders are filled"
    assert run(page, FILL_OR_ERROR, "AP = {ap:.4f}") == ["RangeError", message]


def test_without_fields_a_template_is_shown_as_tr_shows_it(page):
    from mapteach.i18n import tr

    template = "Moved {title} to rank {rank}."
    assert run(page, "return t.fill(argument);", template) == tr(template) == template


def test_an_element_has_its_attributes_and_its_text(page):
    got = run(
        page,
        "const a = t.el('p', {'data-testid': 'x', title: argument}, argument);"
        "const b = t.el('span');"
        "return [a.tagName, a.getAttributeNames(), a.title, a.textContent, b.outerHTML];",
        'R = 3 <"all">',
    )
    assert got == ["P", ["data-testid", "title"], 'R = 3 <"all">', 'R = 3 <"all">', "<span></span>"]
