"""The committed notebooks read well without a kernel.

`jupyter nbconvert --to html` of a committed notebook must show every widget's static
fallback (the board's picture and trace table, each exercise's prompt with its solution
folded), never an empty widget area. That only holds when the committed notebook carries
no widget state: with state, nbconvert emits widget scripts that need a network and a
kernel-less widget manager instead of the fallback (`make notebooks` executes with
``--ExecutePreprocessor.store_widget_state=False``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest
from nbconvert import HTMLExporter

pytestmark = pytest.mark.slow  # nbconvert over every notebook: not in make test-fast
NOTEBOOKS = sorted((Path(__file__).parents[2] / "notebooks").rglob("*.ipynb"))
WIDGET = "application/vnd.jupyter.widget-view+json"


def _widget_outputs(notebook: nbformat.NotebookNode) -> list[dict]:
    return [
        output["data"]
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if WIDGET in output.get("data", {})
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_committed_notebook_has_no_widget_state(path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    assert "widgets" not in notebook["metadata"], f"{path.name}: run `make notebooks`"


WIDGET_NOTEBOOKS = [
    path for path in NOTEBOOKS if _widget_outputs(nbformat.read(path, as_version=4))
]


@pytest.mark.parametrize("path", WIDGET_NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_static_html_shows_every_widgets_fallback(path):
    notebook = nbformat.read(path, as_version=4)
    outputs = _widget_outputs(notebook)
    html, _ = HTMLExporter().from_notebook_node(notebook)
    assert WIDGET not in html, "nbconvert chose the live widget over the static fallback"
    for data in outputs:
        fallback = data.get("text/html", "")
        assert fallback.strip(), f"{path.name}: a widget output has no text/html fallback"
    boards = [d for d in outputs if "Board" in d.get("text/plain", "")]
    exercises = [d for d in outputs if "mapteach-exercise-static" in d.get("text/html", "")]
    assert len(re.findall(r"data:image/png;base64,", html)) >= len(boards)
    assert html.count("<details") >= len(exercises)
