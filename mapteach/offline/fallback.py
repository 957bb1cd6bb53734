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
import re
from collections.abc import Mapping
from html import escape, unescape
from typing import Any, NamedTuple

from mapteach.i18n import tr

__all__ = ["OfflineState", "has_fallback", "inline_json", "offline_html", "read_offline_states"]

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


def has_fallback(output: Mapping[str, Any]) -> bool:
    """Whether a notebook output (a dict as nbformat reads it) shows a widget's fallback
    (:func:`offline_html`) as its ``text/html``.

    >>> from mapteach.offline import has_fallback, offline_html
    >>> has_fallback({"data": {"text/html": offline_html("demo", {}, "", lang="en")}})
    True
    >>> has_fallback({"data": {"text/plain": "1"}}), has_fallback({"name": "stdout"})
    (False, False)
    """
    return f'class="{OFFLINE_CLASS}"' in output.get("data", {}).get("text/html", "")


#: One fallback as :func:`offline_html` writes it, or as an HTML parser writes it back
#: (attributes in another order or quoted otherwise, ``data-mapteach-state=""``): its
#: element's attributes, and its state.
_FALLBACK = re.compile(
    rf"<div\s(?P<outer>[^>]*\bclass=[\"']{OFFLINE_CLASS}[\"'][^>]*)>\s*"
    r"<script\s[^>]*\bdata-mapteach-state\b[^>]*>(?P<state>.*?)</script\s*>",
    re.DOTALL | re.IGNORECASE,
)
#: One attribute of a tag: its name, and its value (double-, single- or not quoted).
_ATTRIBUTE = re.compile(r"""([\w-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?""")


def _attributes(tag: str) -> dict[str, str]:
    """The attributes written inside a start tag, by name, their values unescaped."""
    return {
        name.lower(): unescape(double or single or bare)
        for name, double, single, bare in _ATTRIBUTE.findall(tag)
    }


class OfflineState(NamedTuple):
    """One widget's fallback read back: its browser module, its language, its state."""

    module: str
    lang: str
    state: dict[str, Any]


def read_offline_states(page: str, module: str | None = None) -> list[OfflineState]:
    """Every fallback :func:`offline_html` wrote in ``page``, in page order.

    The one reader of what :func:`offline_html` writes, as it wrote it or as an HTML
    parser writes it back (its attributes in any order and quoting, the state's
    ``data-mapteach-state=""``). The state JSON cannot hold
    ``</`` (:func:`inline_json`), so the state ends at the first ``</script>``.
    ``module`` keeps only the fallbacks of that browser module.

    Raises
    ------
    ValueError
        If a fallback's state is not JSON: the error names its module and position.

    Examples
    --------
    >>> from mapteach.offline import offline_html, read_offline_states
    >>> page = offline_html("exercise", {"model": {"x": "</b>"}}, "<p>1</p>", lang="zh")
    >>> read_offline_states("<p>text</p>" + page + page, module="exercise")[1]
    OfflineState(module='exercise', lang='zh', state={'model': {'x': '</b>'}})
    >>> read_offline_states(page, module="board")
    []
    >>> read_offline_states("<div lang='en' class='mapteach-offline' data-module='demo'>"
    ...                     '<script data-mapteach-state="" type="application/json">{}</script>')
    [OfflineState(module='demo', lang='en', state={})]
    """
    found = []
    for match in _FALLBACK.finditer(page):
        outer = _attributes(match["outer"])
        name = outer.get("data-module", "")
        if module is not None and name != module:
            continue
        try:
            state = json.loads(match["state"])
        except json.JSONDecodeError as error:
            raise ValueError(
                tr(
                    "the state of the {name!r} fallback at character {at} is not JSON: {error}",
                    name=name,
                    at=match.start(),
                    error=error,
                )
            ) from error
        found.append(OfflineState(name, outer.get("lang", ""), state))
    return found
