"""HTML renderings of an AP trace, with the contributing rows highlighted.

Plain HTML with inline styles, so the table looks the same in JupyterLab, in a
widget, in an HTML export and on GitHub.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import pandas as pd

from mapteach.explain.ap_trace import TRACE_HEADERS, explain_table, trace_ap
from mapteach.i18n import N_, language, tr, widget_language

__all__ = ["FOOTER_WITH_CUTOFF", "SHOWN_COLUMNS", "TraceView", "show_trace", "trace_html"]

_CELL = "padding:2px 8px;text-align:right;font-variant-numeric:tabular-nums;"
_HIT = "background:#dff3ee;"
_CUT = "color:#9aa1ab;"

#: The trace columns the HTML table shows a header for, in order (``fraction`` is shown
#: inside the ``precision`` cell); each header is ``TRACE_HEADERS[key]``, translated.
SHOWN_COLUMNS = (
    "rank",
    "relevant",
    "hits",
    "precision",
    "contribution",
    "running_sum",
    "running_ap",
)
#: The table's footer under a cutoff (without one it is ``R = {r}``, in every language).
FOOTER_WITH_CUTOFF = N_("R = {r}, cutoff k = {k}")


def trace_html(table: pd.DataFrame, *, caption: str = "", lang: str | None = None) -> str:
    """Render a :func:`~mapteach.trace_ap` table as HTML, relevant rows highlighted.

    Parameters
    ----------
    table : pandas.DataFrame
        The output of :func:`~mapteach.trace_ap`.
    caption : str, optional
        Text above the table, such as the AP arithmetic.
    lang : {"en", "zh"}, optional
        The language of the headers and the footer; default the current one.

    Returns
    -------
    str
        An HTML ``<table data-testid="trace-table">``; contributing rows carry
        ``data-contributes="true"``.

    Examples
    --------
    >>> from mapteach import trace_ap
    >>> from mapteach.explain import trace_html
    >>> html = trace_html(trace_ap([1, 0, 1]))
    >>> html.count('data-contributes="true"')
    2
    """
    head = "".join(
        f'<th style="{_CELL}">{escape(tr(TRACE_HEADERS[key], lang=lang))}</th>'
        for key in SHOWN_COLUMNS
    )
    rows = []
    cutoff = table.attrs.get("k")
    for row in table.itertuples(index=False):
        style = _HIT if row.relevant else ""
        cells = (
            row.rank,
            "✔" if row.relevant else "✘",
            row.hits,
            f"{row.fraction} = {row.precision:.4f}",
            f"{row.contribution:.4f}" if row.relevant else "0",
            f"{row.running_sum:.4f}",
            f"{row.running_ap:.4f}",
        )
        contributes = "true" if row.relevant else "false"
        rows.append(
            f'<tr style="{style}" data-contributes="{contributes}">'
            + "".join(f'<td style="{_CELL}">{escape(str(cell))}</td>' for cell in cells)
            + "</tr>"
        )
    r = table.attrs.get("n_relevant", 0)
    foot = f"R = {r}" if cutoff is None else tr(FOOTER_WITH_CUTOFF, lang=lang, r=r, k=cutoff)
    title = (
        '<caption style="caption-side:top;text-align:left;padding:2px 0;">'
        f"{escape(caption)}</caption>"
    )
    return (
        '<table data-testid="trace-table" style="border-collapse:collapse;font-size:12px;">'
        + (title if caption else "")
        + f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody>"
        + f'<tfoot><tr><td colspan="7" style="{_CELL}{_CUT}text-align:left;">'
        + f"{foot}</td></tr></tfoot>"
        + "</table>"
    )


class TraceView:
    """A trace table that renders as highlighted HTML in a notebook and as text elsewhere.

    It speaks ``lang``, or the language current when it was made.
    """

    def __init__(
        self,
        labels: Sequence[int | bool],
        *,
        n_relevant: int | None = None,
        k: int | None = None,
        lang: str | None = None,
    ) -> None:
        self.lang = widget_language(lang)
        with language(self.lang):
            self.table = trace_ap(labels, n_relevant=n_relevant, k=k)
            self.explanation = explain_table(self.table)

    def _repr_html_(self) -> str:
        return trace_html(self.table, caption=str(self.explanation), lang=self.lang)

    def __repr__(self) -> str:
        return f"{self.table.round(4).to_string(index=False)}\n{self.explanation}"


def show_trace(
    labels: Sequence[int | bool],
    *,
    n_relevant: int | None = None,
    k: int | None = None,
    lang: str | None = None,
) -> TraceView:
    """The AP trace with its arithmetic, for display in a notebook.

    Introduced in ``03_average_precision_by_hand``.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    n_relevant : int, optional
        R, the query's total relevant documents. Default: the hits in ``labels``.
    k : int, optional
        Rank cutoff.
    lang : {"en", "zh"}, optional
        The language of the headers and the arithmetic's words; default the current one.

    Returns
    -------
    TraceView
        Displays as an HTML table (contributing rows highlighted) under the
        arithmetic; ``.table`` is the :func:`~mapteach.trace_ap` DataFrame.

    Examples
    --------
    >>> from mapteach.explain import show_trace
    >>> print(repr(show_trace([0, 1])).splitlines()[-1])
    AP = (1/2) / 1 = 0.5000
    >>> ">排名</th>" in show_trace([0, 1], lang="zh")._repr_html_()  # the headers in Chinese
    True
    """
    return TraceView(labels, n_relevant=n_relevant, k=k, lang=lang)
