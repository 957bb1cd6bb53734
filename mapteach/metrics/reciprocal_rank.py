"""Reciprocal rank (RR, 倒数排名) and its mean over queries (MRR)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from mapteach.metrics._validation import as_k, as_labels, as_rankings, query_error

__all__ = ["mean_reciprocal_rank", "reciprocal_rank"]


def reciprocal_rank(labels: ArrayLike, *, k: int | None = None) -> float:
    """1 / (rank of the first relevant result), or 0.0 if there is none.

    Matches trec_eval's ``recip_rank`` (no cutoff) and ir_measures' ``RR@k``
    (with ``k``: a first hit below rank ``k`` scores 0). Introduced in
    ``08_choosing_a_metric``.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    k : int, optional
        Rank cutoff; only the top ``k`` results count.

    Returns
    -------
    float
        ``1 / rank`` of the first relevant result within the cutoff, else 0.0.

    Raises
    ------
    TypeError
        If ``labels`` is not a sequence or ``k`` is not an integer.
    ValueError
        If a label is not 0/1 or ``k < 1``.

    Examples
    --------
    >>> from mapteach import reciprocal_rank
    >>> reciprocal_rank([0, 0, 1, 1])  # first hit at rank 3: 1/3
    0.3333333333333333
    >>> reciprocal_rank([0, 0, 1, 1], k=2)  # no hit in the top 2
    0.0
    """
    y = as_labels(labels)
    if k is not None:
        y = y[: as_k(k)]
    hits = np.flatnonzero(y)
    return float(1.0 / (hits[0] + 1)) if hits.size else 0.0


def mean_reciprocal_rank(
    rankings: Sequence[ArrayLike] | np.ndarray, *, k: int | None = None
) -> float:
    """Mean of :func:`reciprocal_rank` over queries (MRR, 平均倒数排名).

    Parameters
    ----------
    rankings : sequence of label sequences
        One ranked list of 0/1 labels per query.
    k : int, optional
        Rank cutoff applied to every query.

    Returns
    -------
    float
        The arithmetic mean of the per-query reciprocal ranks.

    Raises
    ------
    TypeError, ValueError
        As :func:`reciprocal_rank`, with the query's position in the message;
        ``ValueError`` also if ``rankings`` is empty.

    Examples
    --------
    >>> from mapteach import mean_reciprocal_rank
    >>> mean_reciprocal_rank([[1, 0], [0, 1], [0, 0]])  # (1/1 + 1/2 + 0) / 3
    0.5
    """
    queries = as_rankings(rankings)
    scores = []
    for index, labels in enumerate(queries):
        try:
            scores.append(reciprocal_rank(labels, k=k))
        except (TypeError, ValueError) as error:
            raise query_error(index, error) from None
    return float(np.mean(scores))
