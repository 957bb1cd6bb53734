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
