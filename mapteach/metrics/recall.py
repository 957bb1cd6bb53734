"""Recall at k (R@k, 召回率): the share of all relevant documents found in the top k."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import N_
from mapteach.metrics.batch import RankedEntries, ratio, relevant_found
from mapteach.metrics.declaration import REL, TREC_EVAL_CUTOFFS, Declaration, Parameters
from mapteach.metrics.ties import TieGroups, expected_found
from mapteach.metrics.validation import as_k, as_labels, as_n_relevant

__all__ = ["RECALL", "batch_recall", "recall_at_k"]


def recall_at_k(labels: ArrayLike, k: int, *, n_relevant: int | None = None) -> float:
    """Recall at rank cutoff ``k``: relevant results in the top ``k``, over R.

    R (``n_relevant``) is the number of relevant documents the query has, including
    those the system never retrieved. A query with R = 0 scores 0.0, as in
    trec_eval's ``recall_k``. Introduced in ``02_precision_and_recall_at_k``.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    k : int
        Rank cutoff, ``k >= 1``.
    n_relevant : int, optional
        R, the query's total relevant documents. Default: the hits in ``labels``
        (that is, assume every relevant document was retrieved).

    Returns
    -------
    float
        ``hits in labels[:k] / R``, or 0.0 when R = 0.

    Raises
    ------
    TypeError
        If an argument has the wrong type.
    ValueError
        If a label is not 0/1, ``k < 1``, or ``n_relevant`` is negative or
        smaller than the hits in ``labels``.

    Examples
    --------
    >>> from mapteach import recall_at_k
    >>> recall_at_k([0, 1, 1, 0, 0], 2)  # 1 of the 2 relevant found in the top 2
    0.5
    >>> recall_at_k([0, 1, 1, 0, 0], 5, n_relevant=4)  # 2 found, 2 never retrieved: 2/4
    0.5
    """
    y = as_labels(labels)
    k = as_k(k)
    r = as_n_relevant(n_relevant, int(y.sum()))
    if r == 0:
        return 0.0
    return float(y[:k].sum() / r)


def batch_recall(entries: RankedEntries, k: int, *, threshold: int = 1) -> np.ndarray:
    """R@k of every query: relevant entries within rank k, over R (0.0 when R = 0).

    Parameters
    ----------
    entries : RankedEntries
    k : int
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
    >>> from mapteach.metrics.recall import batch_recall
    >>> entries = RankedEntries.from_lists([[0, 1, 1, 0], [0]], n_relevant=[4, 0])
    >>> batch_recall(entries, 5).tolist()
    [0.5, 0.0]
    """
    return ratio(relevant_found(entries, threshold, k).astype(float), entries.n_relevant)


def _kernel(entries: RankedEntries, parameters: Parameters) -> np.ndarray:
    return batch_recall(entries, as_k(parameters.rank_cutoff), threshold=parameters.threshold)


def _expected(entries: RankedEntries, groups: TieGroups, parameters: Parameters) -> np.ndarray:
    return ratio(expected_found(entries, groups, parameters.rank_cutoff), entries.n_relevant)


def _score(labels: np.ndarray, r: int, k: int | None) -> float:
    return recall_at_k(labels, as_k(k), n_relevant=r)


#: R@k: trec_eval's ``recall``.
RECALL = Declaration(
    name="R",
    description=N_("recall at k: relevant documents in the top k, over R"),
    cutoff="required",
    score=_score,
    kernel=_kernel,
    expectation=_expected,
    trec_eval_cut="recall",
    params={"rel": REL},
    trec_eval_cutoffs=TREC_EVAL_CUTOFFS,
)
