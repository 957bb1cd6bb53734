"""Hit at k (Hit@k, 命中率; ir_measures' ``Success@k``): is anything relevant in the top k?"""

from __future__ import annotations

from numpy.typing import ArrayLike

from mapteach.metrics._validation import as_k, as_labels

__all__ = ["hit_at_k"]


def hit_at_k(labels: ArrayLike, k: int) -> float:
    """1.0 if at least one of the top ``k`` results is relevant, else 0.0.

    The metric for users who need one good answer and read no further than
    rank ``k``. Introduced in ``08_choosing_a_metric``.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    k : int
        Rank cutoff, ``k >= 1``.

    Returns
    -------
    float
        1.0 or 0.0.

    Raises
    ------
    TypeError
        If ``labels`` is not a sequence or ``k`` is not an integer.
    ValueError
        If a label is not 0/1 or ``k < 1``.

    Examples
    --------
    >>> from mapteach import hit_at_k
    >>> hit_at_k([0, 0, 1], 2)  # nothing relevant in the top 2
    0.0
    >>> hit_at_k([0, 0, 1], 3)
    1.0
    """
    y = as_labels(labels)
    k = as_k(k)
    return float(y[:k].any())
