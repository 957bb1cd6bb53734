"""Reciprocal rank (RR, 倒数排名) and its mean over queries (MRR).

The module also holds RR's batch kernel, its tie-aware expectation and its declaration.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import N_
from mapteach.metrics.batch import RankedEntries, relevant_hits
from mapteach.metrics.declaration import REL, Declaration, Parameters
from mapteach.metrics.ties import TieGroups, log_comb, sum_per_query, within_cutoff
from mapteach.metrics.validation import as_k, as_labels, as_rankings, query_error

__all__ = [
    "RECIPROCAL_RANK",
    "batch_reciprocal_rank",
    "mean_reciprocal_rank",
    "reciprocal_rank",
]


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


def batch_reciprocal_rank(
    entries: RankedEntries, *, k: int | None = None, threshold: int = 1
) -> np.ndarray:
    """RR (or RR@k) of every query: 1 / rank of its first relevant entry, else 0.0.

    Parameters
    ----------
    entries : RankedEntries
    k : int, optional
        Rank cutoff.
    threshold : int, default 1
        The lowest grade that counts as relevant.

    Returns
    -------
    numpy.ndarray
        One value per query.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.reciprocal_rank import batch_reciprocal_rank
    >>> entries = RankedEntries.from_lists([[0, 0, 1, 1], [0]])
    >>> batch_reciprocal_rank(entries).round(4).tolist()  # first hit at rank 3: 1/3
    [0.3333, 0.0]
    >>> batch_reciprocal_rank(entries, k=2).tolist()  # no hit in the top 2
    [0.0, 0.0]
    """
    query, rank, hits = relevant_hits(entries, threshold, k)
    first = hits == 1
    out = np.zeros(entries.n_queries)
    out[query[first]] = 1.0 / rank[first]
    return out


def _kernel(entries: RankedEntries, parameters: Parameters) -> np.ndarray:
    return batch_reciprocal_rank(entries, k=parameters.rank_cutoff, threshold=parameters.threshold)


def _first_relevant_group(entries: RankedEntries, groups: TieGroups) -> np.ndarray:
    """Index of each query's first group holding a relevant document; -1 if it has none."""
    first_group = np.full(entries.n_queries, -1)
    with_hits = np.flatnonzero(groups.hits > 0)
    if with_hits.size:
        owner = groups.query[with_hits]
        firsts = with_hits[np.r_[True, owner[1:] != owner[:-1]]]
        first_group[groups.query[firsts]] = firsts
    return first_group


def _expected(entries: RankedEntries, groups: TieGroups, parameters: Parameters) -> np.ndarray:
    """Expected 1 / rank of the first relevant document, which lies in the first group with one.

    Within that group the first relevant document is at offset i with probability
    C(n - i, r - 1) / C(n, r).
    """
    n_g, r_g = groups.size[groups.of_row], groups.hits[groups.of_row]
    in_first = groups.of_row == _first_relevant_group(entries, groups)[entries.query]
    log_p = log_comb(n_g - groups.offset(entries.rank), r_g - 1, groups.log_factorial) - log_comb(
        n_g, r_g, groups.log_factorial
    )
    within = in_first & within_cutoff(entries, parameters.rank_cutoff)
    return sum_per_query(entries, np.where(within, np.exp(log_p) / entries.rank, 0.0))


def _score(labels: np.ndarray, r: int, k: int | None) -> float:
    return reciprocal_rank(labels, k=k)


#: RR: trec_eval's ``recip_rank``.
RECIPROCAL_RANK = Declaration(
    name="RR",
    description=N_("reciprocal rank: 1 / rank of the first relevant document"),
    cutoff="optional",
    score=_score,
    kernel=_kernel,
    expectation=_expected,
    trec_eval="recip_rank",
    aliases=("MRR",),
    params={"rel": REL},
)
