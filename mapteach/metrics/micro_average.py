"""Micro-averaged P@k and R@k: every query's counts pooled first, then one division.

A *macro* average computes a measure per query and takes the mean, so each query
weighs 1/Q: MAP is one, and so is trec_eval's ``all`` line for P@k, recall and AP (it
sums only the counts: ``num_rel``, ``num_rel_ret``).
A *micro* average adds up the counts of all the queries first and divides once, so
each document weighs the same: micro R@k = (hits in the top k, summed over the
queries) / (R, summed over the queries). A query with many relevant documents then
counts for more. The names come from the SMART evaluations (Keen's "macro" and
"micro evaluation"). AP has no standard micro form: its contributions
are precisions read down one query's ranked list. Introduced in
``04_mean_average_precision``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import tr
from mapteach.metrics.validation import as_k, as_labels, as_n_relevant, as_rankings, query_error

__all__ = ["hits_and_relevant", "micro_precision_at_k", "micro_recall_at_k"]


def hits_and_relevant(
    rankings: Sequence[ArrayLike] | np.ndarray,
    k: int,
    *,
    n_relevant: Sequence[int | None] | np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Each query's relevant results in the top ``k`` and its R: the counts a micro average pools.

    Parameters
    ----------
    rankings : sequence of label sequences
        One ranked list of 0/1 labels per query, best first.
    k : int
        Rank cutoff, ``k >= 1``.
    n_relevant : sequence of int or None, optional
        R for each query, aligned with ``rankings``; an entry of None (or the whole
        argument None) means the hits in that query's list.

    Returns
    -------
    tuple of numpy.ndarray
        ``(hits, totals)``: integers, one per query.

    Raises
    ------
    TypeError, ValueError
        If ``rankings`` is empty, ``n_relevant`` is not aligned with it, ``k`` is not a
        rank cutoff, or a query is invalid (the message names its position).

    Examples
    --------
    >>> from mapteach.metrics.micro_average import hits_and_relevant
    >>> hits, totals = hits_and_relevant([[1, 1, 0], [0, 1]], 2, n_relevant=[4, None])
    >>> hits.tolist(), totals.tolist()
    ([2, 1], [4, 1])
    """
    queries = as_rankings(rankings)
    k = as_k(k)
    totals_given: list[int | None] = (
        [None] * len(queries) if n_relevant is None else list(n_relevant)
    )
    if len(totals_given) != len(queries):
        raise ValueError(
            tr(
                "n_relevant has {n} entries but rankings has {q} queries; give one R per "
                "query, in the same order.",
                n=len(totals_given),
                q=len(queries),
            )
        )
    hits, totals = [], []
    for index, (labels, total) in enumerate(zip(queries, totals_given, strict=True)):
        try:
            y = as_labels(labels)
            totals.append(as_n_relevant(total, int(y.sum()), name=f"n_relevant[{index}]"))
        except (TypeError, ValueError) as error:
            raise query_error(index, error) from None
        hits.append(int(y[:k].sum()))
    return np.array(hits, dtype=int), np.array(totals, dtype=int)


def micro_precision_at_k(rankings: Sequence[ArrayLike] | np.ndarray, k: int) -> float:
    """Micro-averaged P@k: the hits in every query's top ``k``, over all the results counted.

    Each query counts ``k`` results, even when its list is shorter, as
    :func:`~mapteach.precision_at_k` does; so the pooled count is Q x k, and micro
    P@k always equals the mean of the queries' P@k. Introduced in
    ``04_mean_average_precision``.

    Parameters
    ----------
    rankings : sequence of label sequences
        One ranked list of 0/1 labels per query, best first.
    k : int
        Rank cutoff, ``k >= 1``.

    Returns
    -------
    float
        ``sum of hits in the top k / (Q * k)``.

    Raises
    ------
    TypeError, ValueError
        As :func:`hits_and_relevant`.

    Examples
    --------
    >>> from mapteach.metrics import micro_precision_at_k
    >>> micro_precision_at_k([[1, 1, 0], [0, 1]], 2)  # (2 + 1) / (2 x 2)
    0.75
    """
    hits, _ = hits_and_relevant(rankings, k)
    return float(hits.sum() / (hits.size * k))


def micro_recall_at_k(
    rankings: Sequence[ArrayLike] | np.ndarray,
    k: int,
    *,
    n_relevant: Sequence[int | None] | np.ndarray | None = None,
) -> float:
    """Micro-averaged R@k: the hits in every query's top ``k``, over all their relevant results.

    Unlike the mean of the queries' R@k (the macro average), each relevant result
    weighs the same, so a query with a large R weighs more. When no query has a
    relevant result the value is 0.0, as :func:`~mapteach.recall_at_k` gives a
    query with R = 0. Introduced in ``04_mean_average_precision``.

    Parameters
    ----------
    rankings : sequence of label sequences
        One ranked list of 0/1 labels per query, best first.
    k : int
        Rank cutoff, ``k >= 1``.
    n_relevant : sequence of int or None, optional
        R for each query, as in :func:`hits_and_relevant`.

    Returns
    -------
    float
        ``sum of hits in the top k / sum of R``.

    Raises
    ------
    TypeError, ValueError
        As :func:`hits_and_relevant`.

    Examples
    --------
    One query finds 2 of its 4 relevant results in the top 2, the other its only one:

    >>> from mapteach.metrics import micro_recall_at_k
    >>> micro_recall_at_k([[1, 1, 0], [0, 1]], 2, n_relevant=[4, 1])  # (2 + 1) / (4 + 1)
    0.6
    >>> (2 / 4 + 1 / 1) / 2  # the macro average, the mean of the two R@2
    0.75
    """
    hits, totals = hits_and_relevant(rankings, k, n_relevant=n_relevant)
    total = int(totals.sum())
    return float(hits.sum() / total) if total else 0.0
