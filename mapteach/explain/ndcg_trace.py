"""Step-by-step nDCG: each rank's gain, discount and DCG, and the arithmetic a learner reads.

:func:`trace_ndcg` is the rank-by-rank table, :func:`explain_ndcg` the arithmetic (DCG
over IDCG, term by term). The table, the explanation and the check of ``decimals`` are
those every trace shares (:mod:`~mapteach.explain.ap_trace`). Introduced in
``05_legal_search_walkthrough``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from mapteach.explain.ap_trace import Explanation, TraceTable, check_decimals
from mapteach.i18n import N_, tr
from mapteach.metrics.ndcg import gain_values, ndcg_at_k
from mapteach.metrics.options import Gain
from mapteach.metrics.validation import as_gains, as_k

__all__ = ["LINE_WIDTH", "NDCG_TRACE_COLUMNS", "explain_ndcg", "trace_ndcg"]

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

    >>> from mapteach.explain import trace_ndcg
    >>> table = trace_ndcg([1, 3, 0, 0, 1, 0, 0, 1, 0, 0], k=10)
    >>> columns = ["rank", "gain", "discount", "running_dcg", "ideal_gain", "running_ndcg"]
    >>> print(table[columns].head(5).round(4).to_string(index=False))
     rank  gain  discount  running_dcg  ideal_gain  running_ndcg
        1     1    1.0000       1.0000           3        0.3333
        2     3    1.5850       2.8928           1        0.7967
        3     0    2.0000       2.8928           1        0.7003
        4     0    2.3219       2.8928           1        0.6342
        5     1    2.5850       3.2796           0        0.7190
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


#: The longest line of :func:`explain_ndcg`'s text: it fits a notebook's output unwrapped.
LINE_WIDTH = 79


def _dcg_terms(ranks: pd.Series, gains: pd.Series) -> tuple[list[str], str]:
    """The positive terms gain / log2(rank + 1) of a DCG, as text and as LaTeX."""
    kept = [(g, r + 1) for g, r in zip(gains, ranks, strict=True) if g > 0]
    if not kept:
        return [], "0"
    text = [f"{g:g}/log2({d})" for g, d in kept]
    return text, " + ".join(rf"\frac{{{g:g}}}{{\log_2 {d}}}" for g, d in kept)


def _sum_lines(name: str, terms: list[str], total: str) -> list[str]:
    """``name = t1 + t2 + ... = total``, broken only between terms, no line over LINE_WIDTH.

    A continuation line starts under the ``=``, with the ``+`` (or the ``=`` of the
    total) that joins it to the line above.
    """
    if not terms:
        return [f"{name} = {total}"]
    lines, line = [], f"{name} = {terms[0]}"
    for piece in [*(f"+ {term}" for term in terms[1:]), f"= {total}"]:
        if len(line) + 1 + len(piece) > LINE_WIDTH:
            lines.append(line)
            line = " " * (len(name) + 1) + piece
        else:
            line = f"{line} {piece}"
    return [*lines, line]


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
        A ``str`` of three parts: DCG term by term, IDCG term by term, then
        ``nDCG = DCG / IDCG``; a long sum goes on over lines broken only between
        terms, so that no line is longer than :data:`LINE_WIDTH` and a notebook
        never wraps one mid-formula. With ``.latex``, ``.markdown``, ``.note`` (the
        gains and the ideal ranking) and ``.value``.

    Raises
    ------
    TypeError, ValueError
        As :func:`~mapteach.ndcg_at_k`; also if ``decimals`` is not an integer >= 0.

    Examples
    --------
    Article 001's model A with grades (notebook 05): the guiding case only at rank 7.

    >>> from mapteach.explain import explain_ndcg
    >>> model_a = [1, 0, 1, 0, 1, 0, 3, 0, 0, 0]
    >>> print(explain_ndcg(model_a, k=10))
    DCG@10  = 1/log2(2) + 1/log2(4) + 1/log2(6) + 3/log2(8) = 2.8869
    IDCG@10 = 3/log2(2) + 1/log2(3) + 1/log2(4) + 1/log2(5) = 4.5616
    nDCG@10 = DCG@10 / IDCG@10 = 2.8869 / 4.5616 = 0.6329

    Every result relevant: the sums go on over lines, broken between terms.

    >>> print(explain_ndcg([1] * 12, k=12))
    DCG@12  = 1/log2(2) + 1/log2(3) + 1/log2(4) + 1/log2(5) + 1/log2(6) + 1/log2(7)
            + 1/log2(8) + 1/log2(9) + 1/log2(10) + 1/log2(11) + 1/log2(12)
            + 1/log2(13) = 5.0927
    IDCG@12 = 1/log2(2) + 1/log2(3) + 1/log2(4) + 1/log2(5) + 1/log2(6) + 1/log2(7)
            + 1/log2(8) + 1/log2(9) + 1/log2(10) + 1/log2(11) + 1/log2(12)
            + 1/log2(13) = 5.0927
    nDCG@12 = DCG@12 / IDCG@12 = 5.0927 / 5.0927 = 1.0000
    >>> print(explain_ndcg(model_a, k=10, gain="exponential").note)
    Discount log2(rank + 1), exponential gains (gain = 2^grade - 1, Burges et al. 2005).
    IDCG is the DCG of the ideal ranking, the query's judged documents best first: gains 7, 1, 1, 1.
    >>> print(explain_ndcg([0, 0], k=2))
    nDCG@2 = 0 (no judged document of the query has a positive gain)
    """
    check_decimals(decimals)
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
    dcg_terms, dcg_latex = _dcg_terms(table["rank"], table["gain"])
    idcg_terms, idcg_latex = _dcg_terms(table["rank"], table["ideal_gain"])
    dcg, idcg = f"{attrs['dcg']:.{decimals}f}", f"{attrs['idcg']:.{decimals}f}"
    ideal_gains = tr(", ").join(f"{v:g}" for v in table["ideal_gain"] if v > 0)
    cut = "" if k is None else f"@{k}"
    width = len(f"IDCG{cut}")
    lines = [
        *_sum_lines(f"DCG{cut}".ljust(width), dcg_terms, dcg),
        *_sum_lines(f"IDCG{cut}", idcg_terms, idcg),
        f"{name} = DCG{cut} / IDCG{cut} = {dcg} / {idcg} = {shown}",
    ]
    return Explanation(
        "\n".join(lines),
        latex=(
            rf"\mathrm{{{name}}} = \frac{{\mathrm{{DCG}}}}{{\mathrm{{IDCG}}}} = "
            rf"\frac{{{dcg_latex}}}{{{idcg_latex}}} = \frac{{{dcg}}}{{{idcg}}} = {shown}"
        ),
        note=tr(_GAIN_NOTES[attrs["gain"]], gains=ideal_gains),
        value=attrs["ndcg"],
    )
