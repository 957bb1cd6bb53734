"""Step-by-step AP, nDCG and RR: the rank-by-rank table and the arithmetic a learner reads."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from mapteach.i18n import N_, tr
from mapteach.metrics._validation import as_gains, as_k, as_labels, as_n_relevant
from mapteach.metrics.ndcg import gain_values, ndcg_at_k
from mapteach.metrics.options import Gain
from mapteach.metrics.reciprocal_rank import reciprocal_rank
from mapteach.teaching.display import ShownTable, display_table

__all__ = [
    "NDCG_TRACE_COLUMNS",
    "RR_TRACE_COLUMNS",
    "TRACE_COLUMNS",
    "TRACE_HEADERS",
    "Explanation",
    "TraceTable",
    "explain_ap",
    "explain_ndcg",
    "explain_rr",
    "explain_table",
    "trace_ap",
    "trace_headers",
    "trace_ndcg",
    "trace_rr",
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
    "precision": N_("P@rank"),
    "contribution": N_("adds"),
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
    ['rank', 'relevant', 'hits', 'hits/rank', 'P@rank', 'adds', 'running sum', 'running AP']
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

    One row per rank (up to ``k``): whether the result is relevant, the hits so
    far, P@rank as a fraction and as a number, what the rank contributes to the
    sum (P@rank if relevant, else 0), the running sum, and the running AP (the
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
        Columns ``rank``, ``relevant`` (bool), ``hits``, ``fraction`` (P@rank
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

    Each term is P@rank at a relevant rank, written as hits/rank; the sum is
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


def _check_decimals(decimals: int) -> None:
    if isinstance(decimals, bool) or not isinstance(decimals, int) or decimals < 0:
        raise ValueError(
            tr("decimals must be an integer >= 0; got {decimals!r}.", decimals=decimals)
        )


def explain_table(table: pd.DataFrame, *, decimals: int = 4) -> Explanation:
    """Write out the arithmetic of a :func:`trace_ap` table (see :func:`explain_ap`).

    Examples
    --------
    >>> from mapteach import trace_ap
    >>> from mapteach.teaching.trace import explain_table
    >>> print(explain_table(trace_ap([0, 1, 1], k=2)))
    AP@2 = (1/2) / 2 = 0.2500
    """
    _check_decimals(decimals)
    r, ap, k = table.attrs["n_relevant"], table.attrs["ap"], table.attrs["k"]
    name = "AP" if k is None else f"AP@{k}"
    shown = f"{ap:.{decimals}f}"
    counted = table[table["relevant"]]
    if r == 0:
        return Explanation(
            tr("{name} = 0 (R = 0: the query has no relevant document)", name=name),
            latex=rf"\mathrm{{{name}}} = 0",
            note=tr(
                "R = 0: the query has no relevant document, so AP is 0 by trec_eval's convention."
            ),
            value=ap,
        )
    pairs = list(zip(counted["hits"], counted["rank"], strict=True))
    text_terms = " + ".join(f"{h}/{i}" for h, i in pairs)
    latex_terms = " + ".join(rf"\frac{{{h}}}{{{i}}}" for h, i in pairs)
    missed = r - len(pairs)
    if missed == 0:
        note = tr("R = {r} relevant documents, all of them in the ranks that count.", r=r)
    elif missed == 1:
        note = tr(
            "R = {r} relevant documents; 1 of them is not in the ranks that count "
            "and adds 0 to the sum.",
            r=r,
        )
    else:
        note = tr(
            "R = {r} relevant documents; {missed} of them are not in the ranks that count "
            "and add 0 to the sum.",
            r=r,
            missed=missed,
        )
    numerator = f"({text_terms})" if pairs else "0"
    return Explanation(
        f"{name} = {numerator} / {r} = {shown}",
        latex=rf"\mathrm{{{name}}} = \frac{{{latex_terms or 0}}}{{{r}}} = {shown}",
        note=note,
        value=ap,
    )


#: Columns of :func:`trace_ndcg`, in order.
NDCG_TRACE_COLUMNS: tuple[str, ...] = (
    "rank",
    "grade",
    "gain",
    "discount",
    "contribution",
    "running_dcg",
    "ideal_gain",
    "running_idcg",
    "running_ndcg",
)

#: The note of :func:`explain_ndcg` for each gain, a message with ``{gains}`` (the ideal gains).
_GAIN_NOTES: dict[str, str] = {
    "linear": N_(
        "Discount log2(rank + 1), linear gains (gain = grade, as trec_eval). IDCG is the DCG "
        "of the ideal ranking, the query's judged documents best first: gains {gains}."
    ),
    "exponential": N_(
        "Discount log2(rank + 1), exponential gains (gain = 2^grade - 1, Burges et al. 2005). "
        "IDCG is the DCG of the ideal ranking, the query's judged documents best first: "
        "gains {gains}."
    ),
}


def trace_ndcg(
    gains: ArrayLike,
    *,
    k: int | None = None,
    ideal: ArrayLike | None = None,
    gain: Gain = "linear",
) -> pd.DataFrame:
    """Trace nDCG rank by rank, as a table, the way :func:`trace_ap` traces AP.

    One row per rank (up to ``k``): the result's grade and gain, the discount
    log2(rank + 1), what the rank adds to DCG (gain / discount), the running
    DCG, the gain the ideal ranking has at this rank, the running ideal DCG
    (IDCG) and the running nDCG (DCG / IDCG so far). When the query has more
    relevant documents than the list has results, the rows go on to the ideal
    ranking's last relevant document, with grade 0 for the list. The last row's
    ``running_ndcg`` is :func:`~mapteach.ndcg_at_k`. Introduced in
    ``05_legal_search_walkthrough``.

    Parameters
    ----------
    gains : sequence of float
        Graded relevance (grade) of each result, best-ranked first; >= 0.
    k : int, optional
        Rank cutoff: trace nDCG@k. Default: no cutoff (trec_eval's ``ndcg``).
    ideal : sequence of float, optional
        Grades of every judged document of the query, retrieved or not, as in
        :func:`~mapteach.ndcg_at_k`. Default: the grades in the list.
    gain : {"linear", "exponential"}, default "linear"
        The gain of a grade: the grade itself (trec_eval), or 2^grade - 1.

    Returns
    -------
    pandas.DataFrame
        Columns ``rank``, ``grade``, ``gain``, ``discount``, ``contribution``,
        ``running_dcg``, ``ideal_gain``, ``running_idcg`` and ``running_ndcg``.
        ``DataFrame.attrs`` holds ``k``, ``gain``, ``dcg``, ``idcg`` and ``ndcg``
        (from :func:`~mapteach.ndcg_at_k`).

    Raises
    ------
    TypeError, ValueError
        As :func:`~mapteach.ndcg_at_k`.

    Examples
    --------
    Article 001's model B with grades (notebook 05): the guiding case, grade 3, at rank 2.

    >>> from mapteach.teaching.trace import trace_ndcg
    >>> table = trace_ndcg([1, 3, 0, 0, 1, 0, 0, 1, 0, 0], k=10)
    >>> columns = ["rank", "gain", "discount", "running_dcg", "ideal_gain", "running_ndcg"]
    >>> print(table[columns].head(5).round(4).to_string(index=False))
     rank  gain  discount  running_dcg  ideal_gain  running_ndcg
        1   1.0    1.0000       1.0000         3.0        0.3333
        2   3.0    1.5850       2.8928         1.0        0.7967
        3   0.0    2.0000       2.8928         1.0        0.7003
        4   0.0    2.3219       2.8928         1.0        0.6342
        5   1.0    2.5850       3.2796         0.0        0.7190
    >>> round(table.attrs["ndcg"], 4)  # DCG@10 / IDCG@10
    0.7881
    """
    g = as_gains(gains)
    pool = g if ideal is None else as_gains(ideal, name="ideal")
    if k is not None:
        k = as_k(k)
    depth = max(g.size, pool.size, 1) if k is None else k
    value = ndcg_at_k(g, depth, ideal=ideal, gain=gain)
    n = min(depth, max(g.size, int((pool > 0).sum())))
    grades = np.zeros(n)
    grades[: min(n, g.size)] = g[:n]
    ideal_grades = np.zeros(n)
    best = np.sort(pool)[::-1][:n]
    ideal_grades[: best.size] = best
    ranks = np.arange(1, n + 1)
    # the same operations in the same order as ndcg_at_k, so the same bits
    discount = np.log2(np.arange(2, n + 2))
    gain_at = gain_values(grades, gain)
    ideal_gain = gain_values(ideal_grades, gain)
    contribution = gain_at / discount
    running_dcg = np.cumsum(contribution)
    running_idcg = np.cumsum(ideal_gain / discount)
    running_ndcg = np.divide(running_dcg, running_idcg, out=np.zeros(n), where=running_idcg > 0)
    table = TraceTable(
        {
            "rank": ranks,
            "grade": grades,
            "gain": gain_at,
            "discount": discount,
            "contribution": contribution,
            "running_dcg": running_dcg,
            "ideal_gain": ideal_gain,
            "running_idcg": running_idcg,
            "running_ndcg": running_ndcg,
        },
        columns=list(NDCG_TRACE_COLUMNS),
    )
    table.attrs.update(
        k=k,
        gain=gain,
        dcg=float(running_dcg[-1]) if n else 0.0,
        idcg=float(running_idcg[-1]) if n else 0.0,
        ndcg=value,
    )
    return table


def _dcg_terms(ranks: pd.Series, gains: pd.Series) -> tuple[str, str]:
    """The positive terms gain / log2(rank + 1) of a DCG, as text (in brackets) and as LaTeX."""
    kept = [(g, r + 1) for g, r in zip(gains, ranks, strict=True) if g > 0]
    if not kept:
        return "0", "0"
    text = " + ".join(f"{g:g}/log2({d})" for g, d in kept)
    return f"({text})", " + ".join(rf"\frac{{{g:g}}}{{\log_2 {d}}}" for g, d in kept)


def explain_ndcg(
    gains: ArrayLike,
    *,
    k: int | None = None,
    ideal: ArrayLike | None = None,
    gain: Gain = "linear",
    decimals: int = 4,
) -> Explanation:
    """Write out the arithmetic of nDCG: DCG over IDCG, term by term.

    Each term is a positive gain over its discount, log2(rank + 1); the ideal
    ranking's terms make IDCG. Introduced in ``05_legal_search_walkthrough``.

    Parameters
    ----------
    gains, k, ideal, gain
        As :func:`trace_ndcg`.
    decimals : int, default 4
        Decimals of DCG, IDCG and the result.

    Returns
    -------
    Explanation
        A ``str`` such as ``"nDCG@3 = DCG / IDCG = (...) / (...) = 1.5 / 1.6309 =
        0.9197"``, with ``.latex``, ``.markdown``, ``.note`` (the gains and the
        ideal ranking) and ``.value``.

    Raises
    ------
    TypeError, ValueError
        As :func:`~mapteach.ndcg_at_k`; also if ``decimals`` is not an integer >= 0.

    Examples
    --------
    Article 001's model A with grades (notebook 05): the guiding case only at rank 7.

    >>> from mapteach.teaching.trace import explain_ndcg
    >>> model_a = [1, 0, 1, 0, 1, 0, 3, 0, 0, 0]
    >>> print(explain_ndcg(model_a, k=10))
    nDCG@10 = DCG / IDCG = (1/log2(2) + 1/log2(4) + 1/log2(6) + 3/log2(8))
    / (3/log2(2) + 1/log2(3) + 1/log2(4) + 1/log2(5)) = 2.8869 / 4.5616 = 0.6329
    >>> print(explain_ndcg(model_a, k=10, gain="exponential").note)
    Discount log2(rank + 1), exponential gains (gain = 2^grade - 1, Burges et al. 2005).
    IDCG is the DCG of the ideal ranking, the query's judged documents best first: gains 7, 1, 1, 1.
    >>> print(explain_ndcg([0, 0], k=2))
    nDCG@2 = 0 (no judged document of the query has a positive gain)
    """
    _check_decimals(decimals)
    table = trace_ndcg(gains, k=k, ideal=ideal, gain=gain)
    attrs = table.attrs
    name = "nDCG" if k is None else f"nDCG@{k}"
    shown = f"{attrs['ndcg']:.{decimals}f}"
    if attrs["idcg"] == 0.0:
        return Explanation(
            tr("{name} = 0 (no judged document of the query has a positive gain)", name=name),
            latex=rf"\mathrm{{{name}}} = 0",
            note=tr("IDCG = 0: no judged document has a positive gain, so nDCG is 0 (trec_eval)."),
            value=attrs["ndcg"],
        )
    dcg_text, dcg_latex = _dcg_terms(table["rank"], table["gain"])
    idcg_text, idcg_latex = _dcg_terms(table["rank"], table["ideal_gain"])
    dcg, idcg = f"{attrs['dcg']:.{decimals}f}", f"{attrs['idcg']:.{decimals}f}"
    ideal_gains = ", ".join(f"{v:g}" for v in table["ideal_gain"] if v > 0)
    return Explanation(
        f"{name} = DCG / IDCG = {dcg_text} / {idcg_text} = {dcg} / {idcg} = {shown}",
        latex=(
            rf"\mathrm{{{name}}} = \frac{{\mathrm{{DCG}}}}{{\mathrm{{IDCG}}}} = "
            rf"\frac{{{dcg_latex}}}{{{idcg_latex}}} = \frac{{{dcg}}}{{{idcg}}} = {shown}"
        ),
        note=tr(_GAIN_NOTES[attrs["gain"]], gains=ideal_gains),
        value=attrs["ndcg"],
    )


#: Columns of :func:`trace_rr`, in order.
RR_TRACE_COLUMNS: tuple[str, ...] = ("rank", "relevant", "first_relevant", "running_rr")


def trace_rr(labels: Sequence[int | bool], *, k: int | None = None) -> pd.DataFrame:
    """Trace reciprocal rank rank by rank: RR is fixed by the first relevant result.

    One row per rank (up to ``k``): whether the result is relevant, whether it
    is the first relevant one, and the running RR (1 / the first relevant rank
    so far, 0 before it). The last row's ``running_rr`` is
    :func:`~mapteach.reciprocal_rank`. Introduced in ``08_choosing_a_metric``.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    k : int, optional
        Rank cutoff: trace RR@k (a first hit below rank ``k`` scores 0).

    Returns
    -------
    pandas.DataFrame
        Columns ``rank``, ``relevant`` (bool), ``first_relevant`` (bool) and
        ``running_rr``. ``DataFrame.attrs`` holds ``k``, ``first_rank`` (None
        if there is no relevant result) and ``rr`` (from
        :func:`~mapteach.reciprocal_rank`).

    Raises
    ------
    TypeError, ValueError
        As :func:`~mapteach.reciprocal_rank`.

    Examples
    --------
    >>> from mapteach.teaching.trace import trace_rr
    >>> print(trace_rr([0, 0, 1, 1]).round(4).to_string(index=False))
     rank  relevant  first_relevant  running_rr
        1     False           False      0.0000
        2     False           False      0.0000
        3      True            True      0.3333
        4      True           False      0.3333
    """
    rr = reciprocal_rank(labels, k=k)
    y = as_labels(labels)
    if k is not None:
        k = as_k(k)
        y = y[:k]
    ranks = np.arange(1, y.size + 1)
    first = np.flatnonzero(y)[:1]  # the index of the first relevant result, if any
    running_rr = np.zeros(y.size)
    if first.size:
        # 1.0 / rank, the same division as reciprocal_rank, so the same bits
        running_rr[first[0] :] = 1.0 / ranks[first[0]]
    first_rank = int(first[0]) + 1 if first.size else None
    table = TraceTable(
        {
            "rank": ranks,
            "relevant": y,
            "first_relevant": np.isin(ranks, first + 1),
            "running_rr": running_rr,
        },
        columns=list(RR_TRACE_COLUMNS),
    )
    table.attrs.update(k=k, first_rank=first_rank, rr=rr)
    return table


def explain_rr(
    labels: Sequence[int | bool], *, k: int | None = None, decimals: int = 4
) -> Explanation:
    """Write out reciprocal rank: 1 / the rank of the first relevant result.

    Introduced in ``08_choosing_a_metric``.

    Parameters
    ----------
    labels, k
        As :func:`trace_rr`.
    decimals : int, default 4
        Decimals of the result.

    Returns
    -------
    Explanation
        A ``str`` such as ``"RR = 1/3 = 0.3333"``, with ``.latex``,
        ``.markdown``, ``.note`` and ``.value``.

    Raises
    ------
    TypeError, ValueError
        As :func:`~mapteach.reciprocal_rank`; also if ``decimals`` is not an
        integer >= 0.

    Examples
    --------
    >>> from mapteach.teaching.trace import explain_rr
    >>> print(explain_rr([0, 0, 1, 1]))
    RR = 1/3 = 0.3333
    >>> print(explain_rr([0, 0, 1, 1], k=2))
    RR@2 = 0 (no relevant result in the top 2)
    """
    _check_decimals(decimals)
    table = trace_rr(labels, k=k)
    first, rr = table.attrs["first_rank"], table.attrs["rr"]
    name = "RR" if k is None else f"RR@{k}"
    if first is None:
        if k is None:
            text = tr("{name} = 0 (no relevant result in the list)", name=name)
            note = tr("No relevant result in the list, so RR is 0.")
        else:
            text = tr("{name} = 0 (no relevant result in the top {k})", name=name, k=k)
            note = tr("No relevant result in the top {k}, so RR is 0.", k=k)
        return Explanation(text, latex=rf"\mathrm{{{name}}} = 0", note=note, value=rr)
    shown = f"{rr:.{decimals}f}"
    return Explanation(
        f"{name} = 1/{first} = {shown}",
        latex=rf"\mathrm{{{name}}} = \frac{{1}}{{{first}}} = {shown}",
        note=tr(
            "The first relevant result is at rank {first}; the results after it do not count.",
            first=first,
        ),
        value=rr,
    )
