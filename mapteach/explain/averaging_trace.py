"""Macro or micro: P@k and R@k over queries, as the mean of the rows or from counts added up.

:func:`trace_averaging` is the table a learner reads: one row per query (its hits in
the top k, the k results P@k counts, its R, its P@k and R@k), then the macro row
(the mean of the queries' values) and the micro row (the counts added up, then
divided once). Introduced in ``04_mean_average_precision``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import numpy as np
import pandas as pd

from mapteach.explain.display import ShownTable
from mapteach.i18n import N_, tr
from mapteach.metrics.micro_average import (
    hits_and_relevant,
    micro_precision_at_k,
    micro_recall_at_k,
)
from mapteach.metrics.names import Labels
from mapteach.metrics.precision import precision_at_k
from mapteach.metrics.recall import recall_at_k

__all__ = ["AveragingTable", "trace_averaging"]


class AveragingTable(ShownTable):
    """A :func:`trace_averaging` table: query names, then the ``macro`` and ``micro`` rows."""

    headers = MappingProxyType(
        {
            "hits": N_("hits"),
            "counted": N_("results counted"),
            "R": N_("R"),
            "macro": N_("macro: mean of the rows"),
            "micro": N_("micro: the counts added up"),
        }
    )


def trace_averaging(
    rankings: Mapping[str, Labels],
    k: int,
    *,
    n_relevant: Mapping[str, int | None] | None = None,
) -> AveragingTable:
    """P@k and R@k of several queries, macro- and micro-averaged, as a table.

    Parameters
    ----------
    rankings : mapping of str to label sequence
        Named ranked lists of 0/1 labels, best first, one per query.
    k : int
        Rank cutoff, ``k >= 1``.
    n_relevant : mapping of str to int, optional
        R per query name. Default (and for a name it lacks): the hits in the list.

    Returns
    -------
    AveragingTable
        Indexed by query name, then ``macro`` and ``micro`` (an unnamed index, so that
        no header row stands empty). Columns
        ``hits`` (relevant results in the top k), ``counted`` (the k results P@k
        divides by), ``R``, ``P@k`` and ``R@k`` (named with the cutoff: ``P@5``).
        The macro row leaves the counts empty and holds the means of the values
        above it; the micro row holds the summed counts and their ratios
        (:func:`~mapteach.metrics.micro_precision_at_k`,
        :func:`~mapteach.metrics.micro_recall_at_k`).

    Raises
    ------
    TypeError, ValueError
        If ``rankings`` is empty, a name is ``"macro"`` or ``"micro"``, ``n_relevant``
        names an unknown query, or a ranking is invalid (the message names it).

    Examples
    --------
    >>> from mapteach.explain import trace_averaging
    >>> table = trace_averaging({"q1": [1, 1, 0], "q2": [0, 1]}, 2, n_relevant={"q1": 4})
    >>> print(table.to_string())  # macro: (1 + 0.5) / 2, (0.5 + 1) / 2; micro: 3/4, 3/5
          hits counted  R    P@2    R@2
    q1       2       2  4 1.0000 0.5000
    q2       1       2  1 0.5000 1.0000
    macro                 0.7500 0.7500
    micro    3       4  5 0.7500 0.6000
    """
    names = list(rankings)
    if not names:
        raise ValueError(tr("trace_averaging needs at least one query."))
    clash = sorted({"macro", "micro"} & set(names))
    if clash:
        raise ValueError(
            tr("A query may not be named {names}: those are the average rows.", names=clash)
        )
    given = dict(n_relevant or {})
    unknown = sorted(set(given) - set(names))
    if unknown:
        raise ValueError(tr("n_relevant names unknown queries: {names}.", names=unknown))
    lists = [rankings[name] for name in names]
    totals = [given.get(name) for name in names]
    try:
        hits, relevant = hits_and_relevant(lists, k, n_relevant=totals)
    except (TypeError, ValueError) as error:
        raise type(error)(tr("trace_averaging: {error}", error=error)) from None
    precision = [precision_at_k(y, k) for y in lists]
    recall = [recall_at_k(y, k, n_relevant=int(r)) for y, r in zip(lists, relevant, strict=True)]
    counts = {
        "hits": [*hits.tolist(), "", int(hits.sum())],
        "counted": [*[k] * len(names), "", k * len(names)],
        "R": [*relevant.tolist(), "", int(relevant.sum())],
    }
    values = {
        f"P@{k}": [*precision, float(np.mean(precision)), micro_precision_at_k(lists, k)],
        f"R@{k}": [
            *recall,
            float(np.mean(recall)),
            micro_recall_at_k(lists, k, n_relevant=totals),
        ],
    }
    index = pd.Index([*names, "macro", "micro"])
    frame = pd.DataFrame({key: pd.Series(column, dtype=object) for key, column in counts.items()})
    for key, column in values.items():
        frame[key] = np.array(column, dtype=float)
    frame.index = index
    return AveragingTable(frame)
