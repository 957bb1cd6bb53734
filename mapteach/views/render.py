"""HTML renderings of an AP trace, with the contributing rows highlighted.

Plain HTML with inline styles, so the table looks the same in JupyterLab, in a
widget, in an HTML export and on GitHub.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import pandas as pd

from mapteach.teaching.trace import explain_table, trace_ap

__all__ = ["TraceView", "show_trace", "trace_html"]

_CELL = "padding:2px 8px;text-align:right;font-variant-numeric:tabular-nums;"
_HIT = "background:#dff3ee;"
_CUT = "color:#9aa1ab;"


def trace_html(table: pd.DataFrame, *, caption: str = "") -> str:
    """Render a :func:`~mapteach.trace_ap` table as HTML, relevant rows highlighted.

    Parameters
    ----------
    table : pandas.DataFrame
        The output of :func:`~mapteach.trace_ap`.
    caption : str, optional
        Text above the table, such as the AP arithmetic.

    Returns
    -------
    str
        An HTML ``<table data-testid="trace-table">``; contributing rows carry
        ``data-contributes="true"``.

    Examples
    --------
    >>> from mapteach import trace_ap
    >>> from mapteach.views.render import trace_html
    >>> html = trace_html(trace_ap([1, 0, 1]))
    >>> html.count('data-contributes="true"')
    2
    """
    head = "".join(
        f'<th style="{_CELL}">{name}</th>'
        for name in ("rank", "relevant", "hits", "P@rank", "adds", "running sum", "running AP")
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
    foot = f"R = {r}" + ("" if cutoff is None else f", cutoff k = {cutoff}")
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
    """A trace table that renders as highlighted HTML in a notebook and as text elsewhere."""

    def __init__(
        self,
        labels: Sequence[int | bool],
        *,
        n_relevant: int | None = None,
        k: int | None = None,
    ) -> None:
        self.table = trace_ap(labels, n_relevant=n_relevant, k=k)
        self.explanation = explain_table(self.table)

    def _repr_html_(self) -> str:
        return trace_html(self.table, caption=str(self.explanation))

    def __repr__(self) -> str:
        return f"{self.table.round(4).to_string(index=False)}\n{self.explanation}"


def show_trace(
    labels: Sequence[int | bool], *, n_relevant: int | None = None, k: int | None = None
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

    Returns
    -------
    TraceView
        Displays as an HTML table (contributing rows highlighted) under the
        arithmetic; ``.table`` is the :func:`~mapteach.trace_ap` DataFrame.

    Examples
    --------
    >>> from mapteach.views.render import show_trace
    >>> print(repr(show_trace([0, 1])).splitlines()[-1])
    AP = (1/2) / 1 = 0.5000
    """
    return TraceView(labels, n_relevant=n_relevant, k=k)
