"""What a static page needs to run the workbook's widgets live, with no kernel and no network.

``make site`` (``tools/build_site.py``) inlines :func:`page_runtime` once into every page
whose outputs hold a widget's fallback (:func:`~mapteach.offline.offline_html`): each
widget module's stylesheet, the page's runtime texts in its language (a
``<script type="application/json" id="mapteach-runtime-texts">``), and classic scripts
(Chromium loads no module script from ``file://``, :func:`~mapteach.offline.as_classic`):
each widget's own ES module, the same code JupyterLab runs, and its stand-in for the
kernel (``<module>_offline``), then ``static/shim.js`` (the model the modules talk to)
and ``static/progress.js`` (the learner's name and checks, kept in the browser). Each
comes with the sibling files it imports (:func:`~mapteach.offline.bundle_imports`), such
as the browser's text helpers, ``static/text.js``.

The widgets are found, not listed: every class of :mod:`mapteach.board` and
:mod:`mapteach.exercises` with an ``offline_module`` and an ``_esm`` is one browser
module (several classes may share one, with the same code); its stand-in, if it has
one, is ``static/<module>_offline.js`` beside the class's module, bundled with the
sibling files it imports.

:func:`inline_runtime` inlines the runtime into a page's HTML: the one home of that
step, for ``make site`` and for ``jupyter nbconvert --to mapteach``
(:mod:`mapteach.offline.widget_export`).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mapteach.classroom import FIELDS, VERDICTS
from mapteach.exercises.answers import JOINER
from mapteach.i18n import HTML_LANG, check_language, get_language, language, tr
from mapteach.offline.esm import EsmError, as_classic, bundle_imports
from mapteach.offline.fallback import OfflineState, inline_json, read_offline_states

__all__ = [
    "BrowserModule",
    "LivePage",
    "browser_modules",
    "inline_runtime",
    "needed_modules",
    "page_runtime",
    "runtime_texts",
]

_STATIC = Path(__file__).parent / "static"

#: The packages whose widgets can be shown without a kernel.
WIDGET_PACKAGES = ("mapteach.board", "mapteach.exercises")

#: The id of the page's runtime texts, which ``shim.js`` and ``progress.js`` read.
TEXTS_ID = "mapteach-runtime-texts"


@dataclass(frozen=True)
class BrowserModule:
    """One widget's browser code, as a page without a kernel runs it.

    ``source`` is the ES module (anywidget's ``_esm``), ``css`` its stylesheet (may be
    empty), ``stand_in`` the ES module standing in for the kernel (None: the widget
    only reads other widgets, and needs none).
    """

    name: str
    source: str
    css: str
    stand_in: str | None


def _stand_in(widget: type, name: str) -> str | None:
    folder = Path(importlib.import_module(widget.__module__).__file__ or "").parent
    path = folder / "static" / f"{name}_offline.js"
    return bundle_imports(path) if path.is_file() else None


def _widget_classes() -> Iterator[type]:
    """Every class of the widget packages that names a browser module and has one."""
    for package_name in WIDGET_PACKAGES:
        package = importlib.import_module(package_name)
        for module_name in sorted(set(package.EXPORTS.values())):
            module = importlib.import_module(f"{package_name}.{module_name}")
            for value in vars(module).values():
                if (
                    isinstance(value, type)
                    and value.__module__ == module.__name__
                    and isinstance(getattr(value, "offline_module", None), str)
                    and getattr(value, "_esm", None) is not None
                ):
                    yield value


def browser_modules() -> dict[str, BrowserModule]:
    """Every widget module a page can run without a kernel, by its name.

    Raises
    ------
    EsmError
        If two widget classes name the same module but bring different code.

    Examples
    --------
    >>> from mapteach.offline import browser_modules
    >>> modules = browser_modules()
    >>> "exercise" in modules and modules["exercise"].source.count("export default") == 1
    True
    """
    found: dict[str, BrowserModule] = {}
    owners: dict[str, str] = {}
    for widget in _widget_classes():
        name: str = getattr(widget, "offline_module")  # noqa: B009 (a class attribute)
        css = getattr(widget, "_css", None)
        source = str(getattr(widget, "_esm"))  # noqa: B009
        module = BrowserModule(
            name, source, "" if css is None else str(css), _stand_in(widget, name)
        )
        if name in found and found[name] != module:
            raise EsmError(
                f"{owners[name]} and {widget.__qualname__} both run the browser module "
                f"{name!r}, with different code: give one of them its own offline_module."
            )
        found[name] = module
        owners[name] = widget.__qualname__
    return found


def needed_modules(states: Iterable[Mapping[str, Any]]) -> set[str]:
    """The browser modules that the widget states of a page (as written by
    :func:`~mapteach.offline.offline_state`) need: each widget's, and its children's.

    >>> from mapteach.offline import needed_modules
    >>> sorted(needed_modules([{"module": "exercise", "model": {},
    ...                         "children": {"c0": {"module": "ranking_list", "model": {}}}}]))
    ['exercise', 'ranking_list']
    """
    return {
        module
        for state in states
        for module in [state["module"], *(c["module"] for c in state.get("children", {}).values())]
    }


def runtime_texts(lang: str) -> dict[str, Any]:
    """What ``shim.js`` and ``progress.js`` show and need, in ``lang``.

    ``texts``: every sentence they show; ``joiner``: the template joining two of them
    (as an exercise's feedback joins them); ``fields`` and ``verdicts``: a check's fields
    in the order of ``progress.jsonl`` and the verdicts it may hold.

    >>> from mapteach.offline import runtime_texts
    >>> runtime_texts("zh")["texts"]["progress_save"]
    '保存名字'
    """
    with language(check_language(lang)):
        texts = {
            "progress_region": tr("Your progress"),
            "progress_name_label": tr("Your name:"),
            "progress_name_placeholder": tr("type your name"),
            "progress_save": tr("Save name"),
            "progress_download": tr("Download my checks"),
            "progress_unnamed": tr(
                "Type your name and save it to keep your checks: they stay in this "
                "browser until you download them."
            ),
            "progress_named": tr(
                "Checks kept in this browser for {name}: {n}. Download them to hand them in."
            ),
            "progress_name_empty": tr("Type a name first."),
            "progress_nothing": tr("No checks to download yet: check an answer first."),
            "progress_no_learner": tr(
                "Not kept: type your name at the top of the page to keep your checks."
            ),
            "progress_others": tr(
                "Kept here under other names ({names}): {n}; the download holds them too, "
                "each under its own name."
            ),
            "progress_page_only": tr(
                "This browser does not let the page store checks ({error}): those made on "
                "this page are kept only until it closes, so download them before you leave."
            ),
            "progress_missing": tr(
                "Not kept: the part of this page that keeps your checks did not load (the "
                "browser's console says why)."
            ),
            "progress_bad_check": tr(
                "Not kept: the page made a check it cannot store (the browser's console says why)."
            ),
            "widget_failed": tr(
                "This widget could not run in this browser: its still picture is shown instead."
            ),
        }
        joiner = tr(JOINER)
    return {
        "lang": lang,
        "texts": texts,
        "joiner": joiner,
        "fields": list(FIELDS),
        "verdicts": list(VERDICTS),
    }


def _script(source: str, name: str) -> str:
    return f'<script data-mapteach-module="{name}">\n{as_classic(source, name)}</script>\n'


def _style(css: str, name: str) -> str:
    if "</style" in css.lower():
        raise EsmError(f"the stylesheet of {name!r} holds '</style': it cannot be inlined.")
    return f'<style data-mapteach-module="{name}">\n{css.rstrip()}\n</style>\n'


def page_runtime(lang: str, modules: Iterable[str] | None = None) -> str:
    """The HTML to inline once into a page (its ``<head>``) to run its widgets live.

    ``modules``: the browser modules the page's widgets need (:func:`needed_modules`);
    None for every one there is.

    Raises
    ------
    ValueError
        If a module asked for is not one of :func:`browser_modules`.

    Examples
    --------
    >>> from mapteach.offline import page_runtime
    >>> html = page_runtime("en", ["exercise"])
    >>> [name in html for name in ('"exercise"]', '"shim"]', '"progress"]', '"ranking_list"]')]
    [True, True, True, False]
    """
    available = browser_modules()
    names = sorted(available if modules is None else set(modules))
    unknown = [name for name in names if name not in available]
    if unknown:
        raise ValueError(
            f"no browser module {', '.join(map(repr, unknown))} (there are "
            f"{', '.join(map(repr, sorted(available)))}): is its widget's offline_module right?"
        )
    chosen = [available[name] for name in names]
    sheets: dict[str, str] = {}  # each stylesheet once (the map board shares the list's)
    for module in chosen:
        if module.css.strip():
            sheets.setdefault(module.css, module.name)
    styles = [_style(css, name) for css, name in sheets.items()]
    styles.append(_style((_STATIC / "runtime.css").read_text(encoding="utf-8"), "runtime"))
    texts = inline_json(runtime_texts(lang))
    scripts = [f'<script type="application/json" id="{TEXTS_ID}">{texts}</script>\n']
    for module in chosen:
        scripts.append(_script(module.source, module.name))
        if module.stand_in is not None:
            scripts.append(_script(module.stand_in, f"{module.name}_offline"))
    for name in ("shim", "progress"):
        scripts.append(_script(bundle_imports(_STATIC / f"{name}.js"), name))
    return "".join(styles + scripts)


@dataclass(frozen=True)
class LivePage:
    """A page's HTML with the runtime of its widgets inlined (:func:`inline_runtime`)."""

    #: The page; as it was given when it has no widget.
    html: str
    #: How many widget outputs the page holds (each runs live).
    widgets: int
    #: The size of the runtime inlined, in bytes of UTF-8 (0: none).
    runtime_bytes: int


def _widget_language(widget: OfflineState) -> str:
    """The language of a widget's fallback (its ``lang``), else the current one."""
    by_tag = {tag: lang for lang, tag in HTML_LANG.items()}
    return by_tag.get(widget.lang, get_language())


def inline_runtime(page: str, lang: str | None = None) -> LivePage:
    """``page`` (a whole HTML page) with :func:`page_runtime` inlined once, before its
    ``</head>``, with the modules its widgets need (:func:`needed_modules`).

    ``lang``: the language of the runtime's texts (the learner's bar); None for the
    language of the page's widgets. A page with no widget's fallback stays as it is.

    Raises
    ------
    ValueError
        If a widget's state is not JSON, needs a module the runtime does not have, or
        the page has no ``</head>``.

    Examples
    --------
    >>> from mapteach.exercises import NumberExercise
    >>> from mapteach.offline import inline_runtime
    >>> widget = NumberExercise("1/2?", 0.5, [], "1/2")._repr_mimebundle_()[0]["text/html"]
    >>> live = inline_runtime(f"<html><head></head><body>{widget}</body></html>")
    >>> live.widgets, '"exercise"]' in live.html, '"ranking_list"]' in live.html
    (1, True, False)
    >>> inline_runtime("<html><head></head><body></body></html>").runtime_bytes
    0
    """
    widgets = read_offline_states(page)
    if not widgets:
        return LivePage(page, 0, 0)
    if "</head>" not in page:
        raise ValueError("the page has no </head> to inline the widgets' runtime before.")
    modules = needed_modules(widget.state for widget in widgets)
    runtime = page_runtime(_widget_language(widgets[0]) if lang is None else lang, modules)
    html = page.replace("</head>", f"{runtime}</head>", 1)
    return LivePage(html, len(widgets), len(runtime.encode("utf-8")))
