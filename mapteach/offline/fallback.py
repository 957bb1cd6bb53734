"""A live widget's ``text/html`` fallback: its state as JSON beside its static picture.

Where no kernel runs (the static site, an HTML export), the page shows the fallback.
On a page with the workbook's runtime inlined (``make site``, ``jupyter nbconvert --to
mapteach``), the runtime reads the state, renders the widget's own ES module into the
fallback with a stand-in model and hides the static part. The static part is visible
from the start and stays until the widget runs live: without scripts, with scripts
blocked, before the runtime has run, or where the widget cannot run (the runtime then
says so beside it), the static part is what the reader sees. So no ``<noscript>`` is
used: it would show the picture only where scripts are off, and leave a page whose
scripts run but fail with neither picture nor widget. Standard library only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from html import escape
from typing import Any

__all__ = ["inline_json", "offline_html"]

#: The class of the element holding one widget's fallback, and of its static part.
OFFLINE_CLASS = "mapteach-offline"
STATIC_CLASS = "mapteach-offline-static"


def inline_json(value: Any) -> str:
    """``value`` as JSON to write inside a ``<script>`` of a page, keys sorted.

    Nothing in it can end the script early or change how the page is parsed: ``</``
    is written ``<\\/`` and ``<!--`` ``\\u003c!--`` (JSON reads both back as they were).

    >>> from mapteach.offline.fallback import inline_json
    >>> print(inline_json({"b": "</script>", "a": "<!--<script>"}))
    {"a": "\\u003c!--<script>", "b": "<\\/script>"}
    """
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text.replace("</", "<\\/").replace("<!--", "\\u003c!--")


def offline_html(module: str, state: Mapping[str, Any], static_html: str, *, lang: str) -> str:
    """The fallback of a widget whose browser module is ``module``, in state ``state``.

    ``state`` is what :func:`~mapteach.offline.offline_state` returns (the model's
    traits, and the widgets it refers to); it is written as JSON inside a
    ``<script type="application/json">`` (:func:`inline_json`). ``static_html`` is
    shown until (or unless) the widget runs live.

    Examples
    --------
    >>> from mapteach.offline import offline_html
    >>> print(offline_html("demo", {"model": {"x": "</b>"}, "children": {}}, "<p>1</p>",
    ...                    lang="en"))
    <div class="mapteach-offline" data-module="demo" lang="en"><script \
type="application/json" data-mapteach-state>{"children": {}, "model": {"x": "<\\/b>"}}</script>\
<div class="mapteach-offline-static"><p>1</p></div></div>
    """
    payload = inline_json(state)
    return (
        f'<div class="{OFFLINE_CLASS}" data-module="{escape(module)}" lang="{escape(lang)}">'
        f'<script type="application/json" data-mapteach-state>{payload}</script>'
        f'<div class="{STATIC_CLASS}">{static_html}</div></div>'
    )
