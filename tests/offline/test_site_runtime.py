"""page_runtime: what a static page inlines to run its widgets, found from the widgets;
inline_runtime: the one step that inlines it into a page (the site, the nbconvert export)."""

from __future__ import annotations

import json
import re
import string

import pytest
from bs4 import BeautifulSoup

import mapteach.offline.site_runtime as site_runtime
from mapteach.board import RankingList
from mapteach.classroom import FIELDS, VERDICTS
from mapteach.exercises import NumberExercise
from mapteach.i18n import LANGUAGES
from mapteach.offline import (
    BrowserModule,
    EsmError,
    browser_modules,
    inline_runtime,
    needed_modules,
    offline_html,
    page_runtime,
    runtime_texts,
)

#: The modules the notebooks' widgets run in the browser, and which need a kernel's stand-in.
WIDGET_MODULES = {"ranking_list", "map_board", "live_readout", "exercise"}
STAND_INS = {"ranking_list", "exercise"}


def test_every_widget_module_is_found_with_its_stand_in():
    modules = browser_modules()
    assert set(modules) >= WIDGET_MODULES
    for name, module in modules.items():
        assert module.name == name
        assert module.source.count("export default") == 1, name
        assert "import " not in module.source.split("\n", 1)[0]
    for name in WIDGET_MODULES:
        stand_in = modules[name].stand_in
        assert (stand_in is not None) == (name in STAND_INS), name
        if stand_in is not None:
            assert re.search(r"^export function standIn\(", stand_in, re.M), name
            assert not re.search(r"^import ", stand_in, re.M), f"{name}: imports left"


def test_two_widgets_naming_one_module_with_different_code_are_refused(monkeypatch):
    first = type("First", (), {"offline_module": "same", "_esm": "export default {};\n"})
    second = type("Second", (), {"offline_module": "same", "_esm": "export default {a: 1};\n"})
    twin = type("Twin", (), {"offline_module": "same", "_esm": "export default {};\n"})
    monkeypatch.setattr(site_runtime, "_widget_classes", lambda: iter([first, twin]))
    assert browser_modules() == {"same": BrowserModule("same", "export default {};\n", "", None)}
    monkeypatch.setattr(site_runtime, "_widget_classes", lambda: iter([first, second]))
    with pytest.raises(EsmError, match="First and Second both run the browser module 'same'"):
        browser_modules()


def test_needed_modules_are_the_widgets_and_their_children():
    states = [
        {"module": "exercise", "model": {}, "children": {"c0": {"module": "ranking_list"}}},
        {"module": "live_readout", "model": {}},
    ]
    assert needed_modules(states) == {"exercise", "ranking_list", "live_readout"}
    assert needed_modules([]) == set()


def _parts(html: str) -> BeautifulSoup:
    return BeautifulSoup(html, "html.parser")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_runtime_holds_its_texts_each_module_and_the_shim_last(lang):
    soup = _parts(page_runtime(lang, ["exercise", "map_board", "ranking_list"]))
    texts = soup.find("script", id="mapteach-runtime-texts")
    assert texts["type"] == "application/json"
    assert json.loads(texts.string) == runtime_texts(lang)
    scripts = [s["data-mapteach-module"] for s in soup.find_all("script") if s.get("id") is None]
    assert scripts == [
        "exercise", "exercise_offline", "map_board", "ranking_list", "ranking_list_offline",
        "shim", "progress",
    ]  # fmt: skip
    for script in soup.find_all("script", attrs={"data-mapteach-module": True}):
        name = script["data-mapteach-module"]
        assert f'window.mapteachModules || {{}})["{name}"] = exports;' in script.string
    styles = [s["data-mapteach-module"] for s in soup.find_all("style")]
    sheets = [s.string for s in soup.find_all("style")]
    assert len(set(sheets)) == len(sheets), "a stylesheet inlined twice"
    assert styles[-1] == "runtime" and "exercise" in styles


def test_the_runtime_holds_only_what_is_asked():
    html = page_runtime("en", ["live_readout"])
    names = set(re.findall(r'data-mapteach-module="(\w+)"', html))
    assert names == {"live_readout", "shim", "progress", "runtime"}
    assert set(re.findall(r'data-mapteach-module="(\w+)"', page_runtime("en"))) >= {
        *WIDGET_MODULES,
        *(f"{name}_offline" for name in STAND_INS),
    }


def test_a_module_nobody_has_is_named():
    with pytest.raises(ValueError, match=r"no browser module 'nowhere' \(there are .*'exercise'"):
        page_runtime("en", ["exercise", "nowhere"])
    with pytest.raises(ValueError, match="lang must be one of"):
        page_runtime("fr")


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_runtime_texts_speak_both_languages():
    english, chinese = runtime_texts("en"), runtime_texts("zh")
    assert english["lang"] == "en" and chinese["lang"] == "zh"
    assert english["fields"] == chinese["fields"] == list(FIELDS)
    assert english["verdicts"] == chinese["verdicts"] == list(VERDICTS)
    assert set(english["texts"]) == set(chinese["texts"])
    for key, text in english["texts"].items():
        translated = chinese["texts"][key]
        assert translated != text and re.search(r"[\u4e00-\u9fff]", translated), key
        assert _fields(translated) == _fields(text), key


@pytest.mark.browser
def test_every_module_of_the_runtime_runs_in_chromium(chromium):
    page = chromium.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_content(f"<!DOCTYPE html><html><head>{page_runtime('en')}</head><body></body></html>")
    registered = page.evaluate("Object.keys(window.mapteachModules).sort()")
    expected = {*browser_modules(), "shim", "progress"}
    expected |= {f"{name}_offline" for name, m in browser_modules().items() if m.stand_in}
    assert registered == sorted(expected)
    assert not errors, errors
    page.close()


def page_with(*widgets, head: str = "<head><title>t</title></head>") -> str:
    outputs = "".join(widget._repr_mimebundle_()[0]["text/html"] for widget in widgets)
    return f"<!DOCTYPE html><html>{head}<body>{outputs}</body></html>"


def test_inline_runtime_puts_the_modules_needed_before_the_head_ends():
    page = page_with(RankingList([1, 0, 1]), NumberExercise("?", 0.5, [], "", lang="zh"))
    live = inline_runtime(page)
    runtime = page_runtime("en", ["ranking_list", "exercise"])  # the first widget speaks en
    assert live.html == page.replace("</head>", f"{runtime}</head>", 1)
    assert (live.widgets, live.runtime_bytes) == (2, len(runtime.encode("utf-8")))
    assert inline_runtime(page, "zh").html.count('"lang": "zh"') == 1


def test_inline_runtime_reads_a_state_an_html_parser_wrote_back():
    page = page_with(NumberExercise("?", 0.5, [], ""))
    reparsed = str(BeautifulSoup(page, "html.parser"))
    assert "data-mapteach-state=" in reparsed  # the parser spells the attribute out
    assert inline_runtime(reparsed, "en").widgets == 1


def test_inline_runtime_leaves_a_page_without_widgets_as_it_is():
    page = "<!DOCTYPE html><html><head></head><body><p>text</p></body></html>"
    assert inline_runtime(page, "en") == site_runtime.LivePage(page, 0, 0)


@pytest.mark.parametrize(
    ("page", "problem"),
    [
        (page_with(NumberExercise("?", 0.5, [], ""), head=""), "no </head>"),
        (
            "<head></head>" + offline_html("exercise", {}, "", lang="en").replace("{}", "{oops"),
            "Expecting property name",
        ),
        (
            "<head></head>" + offline_html("nothing", {"module": "nothing"}, "", lang="en"),
            "no browser module 'nothing'",
        ),
    ],
)
def test_inline_runtime_refuses_a_page_it_cannot_make_live(page, problem):
    with pytest.raises(ValueError, match=problem):
        inline_runtime(page, "en")
