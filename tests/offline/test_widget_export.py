"""``jupyter nbconvert --to mapteach``: nbconvert's HTML with the widgets' runtime inlined.

The exporter is found by its entry point, as nbconvert finds it; a notebook holding a board
and an exercise exports with the runtime once, before ``</head>``, and only the modules its
widgets need; a notebook without widgets exports as ``--to html`` does; an output saved
with its widget view is exported as its fallback. In Chromium, with the network cut off,
the exported page's exercise runs live and judges the right answer; from the command line
(slow), the file written holds the runtime.
"""

from __future__ import annotations

import subprocess
import sys

import nbformat
import pytest
from nbconvert import HTMLExporter
from nbconvert.exporters.base import get_exporter

from mapteach.board import RankingList
from mapteach.exercises import NumberExercise
from mapteach.offline import LiveHTMLExporter

RUNTIME = 'id="mapteach-runtime-texts"'


def notebook(*widgets, lang: str = "en") -> nbformat.NotebookNode:
    """A notebook with one code cell per widget, its output the widget's display data."""
    cells = [nbformat.v4.new_markdown_cell("# A page")]
    for widget in widgets:
        data, _ = widget._repr_mimebundle_()
        output = nbformat.v4.new_output("display_data", data=data)
        cells.append(nbformat.v4.new_code_cell("widget", outputs=[output]))
    return nbformat.v4.new_notebook(cells=cells)


def exercise(lang: str = "en") -> NumberExercise:
    return NumberExercise("1/2 + 1/4?", 0.75, [], "3/4", key="99.1", lang=lang)


def export(nb: nbformat.NotebookNode) -> str:
    html, _ = LiveHTMLExporter().from_notebook_node(nb)
    return html


def test_nbconvert_finds_the_exporter_by_its_entry_point():
    # Fails on an install older than pyproject.toml's entry point: `make install` renews it.
    assert get_exporter("mapteach") is LiveHTMLExporter
    assert LiveHTMLExporter.export_from_notebook  # listed in JupyterLab's export menu


def test_the_runtime_is_inlined_once_with_the_modules_the_widgets_need():
    html = export(notebook(RankingList([1, 0, 1]), exercise()))
    head, body = html.split("</head>", 1)
    assert head.count(RUNTIME) == 1 and RUNTIME not in body
    for module in ("ranking_list", "ranking_list_offline", "exercise", "shim", "progress"):
        assert f'data-mapteach-module="{module}"' in head, module
    assert 'data-mapteach-module="map_board"' not in head
    assert body.count('class="mapteach-offline"') == 2


def test_the_runtime_speaks_the_language_of_the_widgets_or_the_one_asked():
    html = export(notebook(exercise("zh")))
    assert '"lang": "zh"' in html.split("</head>", 1)[0]
    assert "保存名字" in html
    asked, _ = LiveHTMLExporter(lang="zh").from_notebook_node(notebook(exercise("en")))
    assert "保存名字" in asked
    with pytest.raises(ValueError, match="fr"):
        LiveHTMLExporter(lang="fr").from_notebook_node(notebook(exercise("en")))


def test_a_notebook_without_widgets_exports_as_html_does():
    nb = notebook()
    assert export(nb) == HTMLExporter().from_notebook_node(nb)[0]


def test_an_output_saved_with_its_widget_view_exports_as_its_fallback():
    nb = notebook(exercise())
    view = nb.cells[1].outputs[0].data["application/vnd.jupyter.widget-view+json"]
    state = {"version_major": 2, "version_minor": 0, "state": {view["model_id"]: {}}}
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": state}
    html = export(nb)
    assert '<script type="application/vnd.jupyter.widget-view+json">' not in html
    assert 'class="mapteach-offline"' in html and RUNTIME in html
    assert "application/vnd.jupyter.widget-view+json" in nb.cells[1].outputs[0].data  # unchanged


@pytest.mark.browser
def test_the_exported_page_runs_its_exercise_live(chromium, tmp_path):
    path = tmp_path / "page.html"
    path.write_text(export(notebook(exercise())), encoding="utf-8")
    context = chromium.new_context()
    blocked: list[str] = []

    def only_files(route) -> None:  # nbconvert's page asks CDNs for require.js and MathJax
        if route.request.url.startswith("file:"):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    context.route("**/*", only_files)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(path.as_uri(), wait_until="load")
    page.wait_for_function("document.documentElement.dataset.mapteachRuntime === 'ready'")
    live = page.locator(".mapteach-offline[data-mapteach-live=ready] [data-testid=exercise]")
    live.get_by_test_id("answer-input").fill("3/4")
    live.get_by_test_id("check-button").click()
    live.locator("[data-testid=feedback][data-status=correct]").wait_for()
    assert page.locator(".mapteach-offline-static").is_hidden()
    assert page.get_by_test_id("learner-name").count() == 1
    assert errors == [] and all(url.startswith("http") for url in blocked), (errors, blocked)
    context.close()


@pytest.mark.slow
def test_the_command_line_writes_the_live_page(tmp_path):
    source = tmp_path / "page.ipynb"
    nbformat.write(notebook(exercise()), source)
    subprocess.run(
        [sys.executable, "-m", "jupyter", "nbconvert", "--to", "mapteach", str(source)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    html = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert html.split("</head>", 1)[0].count(RUNTIME) == 1
