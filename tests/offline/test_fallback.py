"""offline_html writes a widget's state where a page can read it back, whatever it holds."""

from __future__ import annotations

import json

import pytest
from bs4 import BeautifulSoup

from mapteach.offline import offline_html
from mapteach.offline.fallback import inline_json

AWKWARD = [
    "</script><script>alert(1)</script>",
    "<!--<script>",
    "</SCRIPT >",
    "a & b < c > d \"quoted\" 'single'",
    "中文，全角：１２３",
    "\u2028\u2029 line separators",
    "$\\frac{1}{2}$",
]


def _parts(html: str):
    soup = BeautifulSoup(html, "html.parser")
    outer = soup.find("div", class_="mapteach-offline")
    script = outer.find("script", attrs={"data-mapteach-state": True}, recursive=False)
    static = outer.find("div", class_="mapteach-offline-static", recursive=False)
    return soup, outer, script, static


@pytest.mark.parametrize("text", AWKWARD)
def test_the_state_reads_back_as_written(text):
    state = {"module": "demo", "model": {"text": text, "list": [text, 1.5, None]}, "children": {}}
    html = offline_html("demo", state, "<p>picture</p>", lang="zh")
    soup, outer, script, static = _parts(html)
    assert json.loads(script.string) == state
    assert outer["data-module"] == "demo" and outer["lang"] == "zh"
    assert script["type"] == "application/json"
    assert str(static) == '<div class="mapteach-offline-static"><p>picture</p></div>'
    # Only the wrapper's script is a script: nothing in the state made another.
    assert len(soup.find_all("script")) == 1
    assert "</script" not in script.string.lower() and "<!--" not in script.string


def test_attributes_are_escaped():
    html = offline_html('a"b<c', {"model": {}}, "", lang='en" onload="x')
    _, outer, _, _ = _parts(html)
    assert outer["data-module"] == 'a"b<c' and outer["lang"] == 'en" onload="x'
    assert "onload" not in outer.attrs


def test_the_same_state_writes_the_same_html():
    first = {"model": {"b": 1, "a": [2, {"z": 0, "y": 1}]}, "children": {}}
    second = {"children": {}, "model": {"a": [2, {"y": 1, "z": 0}], "b": 1}}
    assert offline_html("m", first, "", lang="en") == offline_html("m", second, "", lang="en")


def test_inline_json_escapes_only_inside_strings():
    assert inline_json({"x": [1, 2.5, True, None]}) == '{"x": [1, 2.5, true, null]}'
    assert json.loads(inline_json(AWKWARD)) == AWKWARD


def test_read_offline_states_reads_back_every_fallback_as_a_parser_does():
    from mapteach.offline import read_offline_states

    states = [
        ("exercise", {"model": {"text": text, "n": index}, "children": {}}, lang)
        for index, (text, lang) in enumerate(zip(AWKWARD, ["en", "zh"] * 4, strict=False))
    ]
    page = "<p>before</p>".join(
        offline_html(module, state, f"<p>{index}</p>", lang=lang)
        for index, (module, state, lang) in enumerate(states)
    ) + offline_html("board", {"model": {}}, "<p>board</p>", lang="en")
    soup = BeautifulSoup(page, "html.parser")
    expected = [
        (div["data-module"], div["lang"], json.loads(div.find("script").string))
        for div in soup.find_all("div", class_="mapteach-offline")
    ]
    assert [tuple(found) for found in read_offline_states(page)] == expected
    assert [tuple(found) for found in read_offline_states(page, "exercise")] == expected[:-1]


def test_read_offline_states_names_a_broken_state():
    from mapteach.offline import read_offline_states

    page = offline_html("exercise", {"model": {}}, "", lang="en").replace('{"model"', '{"model",')
    with pytest.raises(ValueError, match="'exercise' fallback at character 0 is not JSON"):
        read_offline_states(page)
