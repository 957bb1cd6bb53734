"""Step-by-step reciprocal rank: the first relevant result, and the arithmetic a learner reads.

:func:`trace_rr` is the rank-by-rank table, :func:`explain_rr` the arithmetic (1 over
the first relevant rank). The table, the explanation and the check of ``decimals`` are
those every trace shares (:mod:`~mapteach.explain.ap_trace`). Introduced in
``08_choosing_a_metric``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from mapteach.explain.ap_trace import Explanation, TraceTable, check_decimals
from mapteach.i18n import tr
from mapteach.metrics.reciprocal_rank import reciprocal_rank
from mapteach.metrics.validation import as_k, as_labels

__all__ = ["RR_TRACE_COLUMNS", "explain_rr", "trace_rr"]

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
    >>> from mapteach.explain import trace_rr
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
    >>> from mapteach.explain import explain_rr
    >>> print(explain_rr([0, 0, 1, 1]))
    RR = 1/3 = 0.3333
    >>> print(explain_rr([0, 0, 1, 1], k=2))
    RR@2 = 0 (no relevant result in the top 2)
    """
    check_decimals(decimals)
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
