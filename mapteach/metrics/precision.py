"""Precision at k (P@k, 精确率): the share of the top k results that are relevant."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import N_
from mapteach.metrics.batch import RankedEntries, relevant_found
from mapteach.metrics.declaration import REL, TREC_EVAL_CUTOFFS, Declaration, Parameters
from mapteach.metrics.ties import TieGroups, expected_found
from mapteach.metrics.validation import as_k, as_labels

__all__ = ["PRECISION", "batch_precision", "precision_at_k"]


def precision_at_k(labels: ArrayLike, k: int) -> float:
    """Precision at rank cutoff ``k``: relevant results in the top ``k``, over ``k``.

    Like trec_eval's ``P_k``, the denominator is ``k`` even when the list is
    shorter than ``k``: a system that returns 4 results of which 2 are relevant
    has P@10 = 2/10, not 2/4. Introduced in ``02_precision_and_recall_at_k``.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    k : int
        Rank cutoff, ``k >= 1``.

    Returns
    -------
    float
        ``hits in labels[:k] / k``.

    Raises
    ------
    TypeError
        If ``labels`` is not a sequence or ``k`` is not an integer.
    ValueError
        If a label is not 0/1 or ``k < 1``.

    Examples
    --------
    Article 000's five documents: doc2 no, doc5 yes, doc3 yes, doc1 no, doc4 no.

    >>> from mapteach import precision_at_k
    >>> labels = [0, 1, 1, 0, 0]
    >>> precision_at_k(labels, 3)  # 2 hits in the top 3: 2/3
    0.6666666666666666
    >>> precision_at_k(labels, 5)  # 2/5
    0.4
    >>> precision_at_k(labels, 10)  # still divides by 10: 2/10
    0.2
    """
    y = as_labels(labels)
    k = as_k(k)
    return float(y[:k].sum() / k)


def batch_precision(entries: RankedEntries, k: int, *, threshold: int = 1) -> np.ndarray:
    """P@k of every query: relevant entries within rank k, over k.

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
    >>> from mapteach.metrics.precision import batch_precision
    >>> batch_precision(RankedEntries.from_lists([[0, 1, 1, 0], [1]]), 3).round(4).tolist()
    [0.6667, 0.3333]
    """
    return relevant_found(entries, threshold, k) / k


def _kernel(entries: RankedEntries, parameters: Parameters) -> np.ndarray:
    return batch_precision(entries, as_k(parameters.rank_cutoff), threshold=parameters.threshold)


def _expected(entries: RankedEntries, groups: TieGroups, parameters: Parameters) -> np.ndarray:
    return expected_found(entries, groups, parameters.rank_cutoff) / as_k(parameters.rank_cutoff)


def _score(labels: np.ndarray, r: int, k: int | None) -> float:
    return precision_at_k(labels, as_k(k))


#: P@k: trec_eval's ``P``.
PRECISION = Declaration(
    name="P",
    description=N_("precision at k: relevant documents in the top k, over k"),
    cutoff="required",
    score=_score,
    kernel=_kernel,
    expectation=_expected,
    trec_eval_cut="P",
    params={"rel": REL},
    trec_eval_cutoffs=TREC_EVAL_CUTOFFS,
)
