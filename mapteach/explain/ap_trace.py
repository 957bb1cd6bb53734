"""Step-by-step AP: the rank-by-rank table and the arithmetic a learner reads.

:func:`trace_ap` is the table, :func:`explain_ap` (or :func:`explain_table`, from a
table) the arithmetic. What every trace shares is here too, and
:mod:`~mapteach.explain.ndcg_trace` and :mod:`~mapteach.explain.rr_trace` use it: the
trace table and its headers (:class:`TraceTable`, :data:`TRACE_HEADERS`,
:func:`trace_headers`), the text of an explanation (:class:`Explanation`) and the
check of its ``decimals`` (:func:`check_decimals`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from mapteach.explain.display import ShownTable, display_table
from mapteach.i18n import N_, ngettext, plural_message, tr
from mapteach.metrics.validation import as_k, as_labels, as_n_relevant

__all__ = [
    "NOTE_ALL_COUNTED",
    "NOTE_NONE_COUNTED",
    "NOTE_SOME_MISSED",
    "TRACE_COLUMNS",
    "TRACE_HEADERS",
    "ZERO_NOTE",
    "ZERO_TEXT",
    "Explanation",
    "TraceTable",
    "check_decimals",
    "explain_ap",
    "explain_table",
    "trace_ap",
    "trace_headers",
]

#: Columns of :func:`trace_ap`, in order.
TRACE_COLUMNS: tuple[str, ...] = (
    "rank",
    "relevant",
    "hits",
    "fraction",
    "precision",
    "contribution",
    "running_sum",
    "running_ap",
)


#: The header that shows each trace column (of :func:`trace_ap`, :func:`trace_ndcg` and
#: :func:`trace_rr`), as a message: ``tr(TRACE_HEADERS[key])`` in the current language.
#: The column keys themselves never change: code indexes them.
TRACE_HEADERS: dict[str, str] = {
    "rank": N_("rank"),
    "relevant": N_("relevant"),
    "hits": N_("hits"),
    "fraction": N_("hits/rank"),
    "precision": N_("P@k"),
    "contribution": N_("contribution"),
    "running_sum": N_("running sum"),
    "running_ap": N_("running AP"),
    "grade": N_("grade"),
    "gain": N_("gain"),
    "discount": N_("discount"),
    "running_dcg": N_("running DCG"),
    "ideal_gain": N_("ideal gain"),
    "running_idcg": N_("running IDCG"),
    "running_ndcg": N_("running nDCG"),
    "first_relevant": N_("first relevant"),
    "running_rr": N_("running RR"),
}


#: :func:`explain_table`'s text and note when R = 0 (``{name}`` is ``AP`` or ``AP@k``).
ZERO_TEXT = N_("{name} = 0 (R = 0: the query has no relevant document)")
ZERO_NOTE = N_("R = 0: the query has no relevant document, so AP is 0 by trec_eval's convention.")
#: :func:`explain_table`'s note on R, as ``ngettext`` pairs: every relevant document is
#: in the ranks that count (counted by R, ``{n}``), none is (by R), or ``{n}`` of the
#: ``{r}`` are not (by the missed ones).
NOTE_ALL_COUNTED = plural_message(
    "R = {n} relevant document, in the ranks that count.",
    "R = {n} relevant documents, all of them in the ranks that count.",
)
NOTE_NONE_COUNTED = plural_message(
    "R = {n} relevant document; it is not in the ranks that count and adds 0 to the sum.",
    "R = {n} relevant documents; none of them is in the ranks that count, so the sum is 0.",
)
NOTE_SOME_MISSED = plural_message(
    "R = {r} relevant documents; {n} of them is not in the ranks that count and adds 0 to the sum.",
    "R = {r} relevant documents; {n} of them are not in the ranks that count and add 0 to the sum.",
)


class TraceTable(ShownTable):
    """A trace (:func:`trace_ap`, :func:`trace_ndcg`, :func:`trace_rr`): English column
    keys, shown with :data:`TRACE_HEADERS` in the current language."""

    headers = TRACE_HEADERS


def trace_headers(table: pd.DataFrame) -> pd.DataFrame:
    """A copy of a trace table to show, its column headers in the current language.

    The trace functions' column keys (``rank``, ``running_ap``...) are a data API and
    stay English; this is the display step. Values and ``attrs`` are kept, and the
    copy is a plain DataFrame.

    Examples
    --------
    >>> from mapteach import trace_ap
    >>> trace_headers(trace_ap([1, 0])).columns.tolist()
    ['rank', 'relevant', 'hits', 'hits/rank', 'P@k', 'contribution', 'running sum', 'running AP']
    >>> trace_headers(trace_ap([1, 0], k=1)).attrs["k"]
    1
    """
    return display_table(table, TRACE_HEADERS)


def trace_ap(
    labels: Sequence[int | bool],
    *,
    n_relevant: int | None = None,
    k: int | None = None,
) -> pd.DataFrame:
    """Trace average precision rank by rank, as a table.

    One row per rank k (up to the cutoff): whether the result is relevant, the hits
    so far, P@k as a fraction and as a number, the rank's contribution to the sum
    (P@k if relevant, else 0), the running sum, and the running AP (the
    running sum over R). The last row's ``running_ap`` is
    :func:`~mapteach.average_precision`. Introduced in
    ``03_average_precision_by_hand``.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    n_relevant : int, optional
        R, the query's total relevant documents. Default: the hits in ``labels``.
    k : int, optional
        Rank cutoff: trace AP@k (rows up to rank ``k``, denominator still R).

    Returns
    -------
    pandas.DataFrame
        Columns ``rank``, ``relevant`` (bool), ``hits``, ``fraction`` (P@k
        as text, such as ``"2/3"``), ``precision``, ``contribution``,
        ``running_sum`` and ``running_ap``. ``DataFrame.attrs`` holds
        ``n_relevant`` (R), ``k`` and ``ap``. The keys are English in every
        language; in another language the table is shown with translated headers
        (a :class:`TraceTable`; :func:`trace_headers` gives that copy).

    Raises
    ------
    TypeError, ValueError
        As :func:`~mapteach.average_precision`.

    Examples
    --------
    Article 003's query A:

    >>> from mapteach import trace_ap
    >>> print(trace_ap([1, 0, 1, 1, 0]).round(4).to_string(index=False))
     rank  relevant  hits fraction  precision  contribution  running_sum  running_ap
        1      True     1      1/1     1.0000        1.0000       1.0000      0.3333
        2     False     1      1/2     0.5000        0.0000       1.0000      0.3333
        3      True     2      2/3     0.6667        0.6667       1.6667      0.5556
        4      True     3      3/4     0.7500        0.7500       2.4167      0.8056
        5     False     3      3/5     0.6000        0.0000       2.4167      0.8056
    """
    y = as_labels(labels)
    r = as_n_relevant(n_relevant, int(y.sum()))
    if k is not None:
        k = as_k(k)
        y = y[:k]
    ranks = np.arange(1, y.size + 1)
    hits = np.cumsum(y)
    precision = hits / ranks
    contribution = np.where(y, precision, 0.0)
    running_sum = np.cumsum(contribution)
    table = TraceTable(
        {
            "rank": ranks,
            "relevant": y,
            "hits": hits,
            "fraction": [f"{h}/{i}" for h, i in zip(hits, ranks, strict=True)],
            "precision": precision,
            "contribution": contribution,
            "running_sum": running_sum,
            "running_ap": running_sum / r if r else np.zeros(y.size),
        },
        columns=list(TRACE_COLUMNS),
    )
    # the same additions in the same order as average_precision, so the same bits
    ap = float(running_sum[-1] / r) if r and y.size else 0.0
    table.attrs.update(n_relevant=r, k=k, ap=ap)
    return table


class Explanation(str):
    """The arithmetic of a measure (AP, nDCG, RR): plain text, with LaTeX and Markdown forms.

    It is a ``str`` (the plain text), so it prints and compares like one; in a
    notebook it renders as Markdown with the formula typeset. Its words (the note,
    and the text of a zero result) are in the language current when it was made.
    """

    latex: str
    note: str
    value: float

    def __new__(cls, text: str, *, latex: str, note: str, value: float) -> Explanation:
        explanation = super().__new__(cls, text)
        explanation.latex = latex
        explanation.note = note
        explanation.value = value
        return explanation

    @property
    def markdown(self) -> str:
        """The formula as display LaTeX followed by the note, for notebooks."""
        return f"$${self.latex}$$\n\n{self.note}"

    def _repr_markdown_(self) -> str:
        return self.markdown


def explain_ap(
    labels: Sequence[int | bool],
    *,
    n_relevant: int | None = None,
    k: int | None = None,
    decimals: int = 4,
) -> Explanation:
    """Write out the arithmetic of average precision, term by term.

    Each contribution is P@k at a relevant rank k, written as hits/rank; the sum is
    divided by R. Introduced in ``03_average_precision_by_hand``.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    n_relevant : int, optional
        R, the query's total relevant documents. Default: the hits in ``labels``.
    k : int, optional
        Rank cutoff: explain AP@k.
    decimals : int, default 4
        Decimals of the result.

    Returns
    -------
    Explanation
        A ``str`` such as ``"AP = (1/1 + 2/3 + 3/4) / 3 = 0.8056"``, with
        ``.latex``, ``.markdown``, ``.note`` (a sentence on R) and ``.value``.

    Raises
    ------
    TypeError, ValueError
        As :func:`~mapteach.average_precision`; also if ``decimals`` is not an
        integer >= 0.

    Examples
    --------
    >>> from mapteach import explain_ap
    >>> print(explain_ap([1, 0, 1, 1, 0, 0, 0, 0]))  # article 003, query A
    AP = (1/1 + 2/3 + 3/4) / 3 = 0.8056
    >>> print(explain_ap([1, 0, 1, 0, 0, 0, 0, 0], n_relevant=3))  # query B
    AP = (1/1 + 2/3) / 3 = 0.5556
    >>> print(explain_ap([0, 0, 0, 0, 0, 0, 1, 1, 1, 1], k=8))
    AP@8 = (1/7 + 2/8) / 4 = 0.0982
    >>> explain_ap([1, 0, 1, 0, 0, 0, 0, 0], n_relevant=3).note
    'R = 3 relevant documents; 1 of them is not in the ranks that count and adds 0 to the sum.'
    """
    return explain_table(trace_ap(labels, n_relevant=n_relevant, k=k), decimals=decimals)


def check_decimals(decimals: int) -> None:
    """Check the ``decimals`` of an explanation (of AP, nDCG or RR): an integer >= 0.

    Raises
    ------
    ValueError
        If ``decimals`` is not an integer >= 0 (a bool is not).

    Examples
    --------
    >>> check_decimals(4)
    >>> check_decimals(-1)
    Traceback (most recent call last):
    ...
    ValueError: decimals must be an integer >= 0; got -1.
    """
    if isinstance(decimals, bool) or not isinstance(decimals, int) or decimals < 0:
        raise ValueError(
            tr("decimals must be an integer >= 0; got {decimals!r}.", decimals=decimals)
        )


def explain_table(table: pd.DataFrame, *, decimals: int = 4) -> Explanation:
    """Write out the arithmetic of a :func:`trace_ap` table (see :func:`explain_ap`).

    Examples
    --------
    >>> from mapteach import trace_ap
    >>> from mapteach.explain import explain_table
    >>> print(explain_table(trace_ap([0, 1, 1], k=2)))
    AP@2 = (1/2) / 2 = 0.2500
    """
    check_decimals(decimals)
    r, ap, k = table.attrs["n_relevant"], table.attrs["ap"], table.attrs["k"]
    name = "AP" if k is None else f"AP@{k}"
    shown = f"{ap:.{decimals}f}"
    counted = table[table["relevant"]]
    if r == 0:
        return Explanation(
            tr(ZERO_TEXT, name=name),
            latex=rf"\mathrm{{{name}}} = 0",
            note=tr(ZERO_NOTE),
            value=ap,
        )
    pairs = list(zip(counted["hits"], counted["rank"], strict=True))
    text_terms = " + ".join(f"{h}/{i}" for h, i in pairs)
    latex_terms = " + ".join(rf"\frac{{{h}}}{{{i}}}" for h, i in pairs)
    missed = r - len(pairs)
    if missed == 0:
        note = ngettext(*NOTE_ALL_COUNTED, r)
    elif missed == r:
        note = ngettext(*NOTE_NONE_COUNTED, r)
    else:
        note = ngettext(*NOTE_SOME_MISSED, missed, r=r)
    numerator = f"({text_terms})" if pairs else "0"
    return Explanation(
        f"{name} = {numerator} / {r} = {shown}",
        latex=rf"\mathrm{{{name}}} = \frac{{{latex_terms or 0}}}{{{r}}} = {shown}",
        note=note,
        value=ap,
    )
