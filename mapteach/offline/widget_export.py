"""nbconvert's HTML export with the workbook's widgets live in it, no kernel needed.

``jupyter nbconvert --to mapteach notebook.ipynb`` (or JupyterLab's *File > Save and
Export Notebook As > HTML with live widgets*) writes what ``--to html`` writes, plus the
runtime of the page's widgets, inlined once before ``</head>``
(:func:`~mapteach.offline.inline_runtime`, the step ``make site`` takes too): opened in a
browser, each board and exercise runs live from the state its output holds, as on the
static site. The exporter is registered under the entry point group
``nbconvert.exporters`` (``pyproject.toml``), so installing mapteach makes ``--to
mapteach`` known. A plain ``--to html`` export shows each widget's static picture.

An output that holds both a widget view and a mapteach fallback is exported as the
fallback: a notebook saved with its widget state would otherwise be given nbconvert's
widget manager, fetched from a CDN, which cannot run these widgets.
"""

from __future__ import annotations

import copy
from typing import Any

import nbformat
import traitlets
from nbconvert import HTMLExporter

from mapteach.offline.fallback import has_fallback
from mapteach.offline.site_runtime import inline_runtime

__all__ = ["LiveHTMLExporter"]

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _fallbacks_first(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """``notebook``, each output that holds a mapteach fallback without its widget view."""
    copied = copy.deepcopy(notebook)
    for cell in copied.cells:
        for output in cell.get("outputs", []):
            if WIDGET_VIEW in output.get("data", {}) and has_fallback(output):
                del output["data"][WIDGET_VIEW]
    return copied


class LiveHTMLExporter(HTMLExporter):
    """HTML whose mapteach widgets run live in the browser (``--to mapteach``).

    Every option of nbconvert's ``HTMLExporter`` applies (``--template``, ...). The
    runtime's texts (the learner's bar) speak the language of the page's widgets, or
    ``lang`` (``--LiveHTMLExporter.lang=zh``).

    Examples
    --------
    >>> import nbformat
    >>> from mapteach.exercises import NumberExercise
    >>> from mapteach.offline import LiveHTMLExporter
    >>> data, _ = NumberExercise("1/2?", 0.5, [], "1/2")._repr_mimebundle_()
    >>> cell = nbformat.v4.new_code_cell("exercise", outputs=[
    ...     nbformat.v4.new_output("display_data", data=data)])
    >>> html, _ = LiveHTMLExporter().from_notebook_node(nbformat.v4.new_notebook(cells=[cell]))
    >>> 'data-mapteach-module="shim"' in html, 'data-mapteach-module="exercise"' in html
    (True, True)
    """

    export_from_notebook = "HTML with live widgets"

    lang = traitlets.Unicode(
        None,
        allow_none=True,
        help="The language of the runtime's texts, en or zh (default: the widgets').",
    ).tag(config=True)

    def from_notebook_node(  # type: ignore[override]  # as HTMLExporter's own: HTML, not a node
        self, nb: nbformat.NotebookNode, resources: dict[str, Any] | None = None, **kw: Any
    ) -> tuple[str, dict[str, Any]]:
        html, resources = super().from_notebook_node(_fallbacks_first(nb), resources, **kw)
        return inline_runtime(html, self.lang).html, resources
