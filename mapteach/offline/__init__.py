"""The workbook without a kernel: widgets that run live on a static page.

Each live widget's ``text/html`` fallback carries its state as JSON
(:func:`offline_html`); a page built by ``make site`` inlines the widgets' own ES
modules as classic scripts (:func:`as_classic`), a small model that stands in for the
kernel (the anywidget contract, ``render({model, el})``), the exercises' checker and
the learner's progress kept in the browser (:func:`inline_runtime`, for ``make site`` and
``jupyter nbconvert --to mapteach``, :class:`LiveHTMLExporter`). :func:`bundle` makes one
module of several ES module files, as anywidget's ``_esm`` needs.

Every public name of the package, imported on first use from the module that defines it.
"""

from mapteach._lazy import public_path

#: Each public name and the module of this package that defines it.
EXPORTS = {
    "BrowserModule": "site_runtime",
    "LiveHTMLExporter": "widget_export",
    "LivePage": "site_runtime",
    "TEXT_JS": "esm",
    "EsmError": "esm",
    "as_classic": "esm",
    "browser_modules": "site_runtime",
    "bundle": "esm",
    "bundle_imports": "esm",
    "has_fallback": "fallback",
    "inline_runtime": "site_runtime",
    "needed_modules": "site_runtime",
    "offline_html": "fallback",
    "OfflineState": "fallback",
    "offline_state": "widget_state",
    "read_offline_states": "fallback",
    "page_runtime": "site_runtime",
    "runtime_texts": "site_runtime",
}
__getattr__, __dir__, __all__ = public_path(__name__, EXPORTS)
