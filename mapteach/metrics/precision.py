"""Precision at k (P@k, 精确率): the share of the top k results that are relevant."""

from __future__ import annotations

from numpy.typing import ArrayLike

from mapteach.metrics._validation import as_k, as_labels

__all__ = ["precision_at_k"]


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
