"""Judgment rate (Judged@k, ir_measures' ``Judged``): how much of the top k anyone judged.

Not a measure of the run's quality but of the qrels' coverage of it: measures
that read unjudged documents as non-relevant (AP, P@k, nDCG) are only as
trustworthy as this rate is high.
"""

from __future__ import annotations

from numpy.typing import ArrayLike

from mapteach.metrics._validation import as_k, as_labels

__all__ = ["judged_at_k"]


def judged_at_k(judged: ArrayLike, k: int | None = None) -> float:
    """The share of the top ``k`` results that have a judgment in the qrels.

    As ir_measures' ``Judged@k``: the denominator is k, or the number of
    results when the list is shorter, so a short fully judged list scores 1.0;
    without ``k`` the whole list counts. An empty list scores 0.0. Any
    judgment counts, whatever its grade.

    Parameters
    ----------
    judged : sequence of {0, 1} or bool
        Whether each result, best-ranked first, has a judgment.
    k : int, optional
        Rank cutoff, ``k >= 1``.

    Returns
    -------
    float
        ``judged results in the top k / min(k, list length)``.

    Raises
    ------
    TypeError
        If ``judged`` is not a sequence or ``k`` is not an integer.
    ValueError
        If a flag is not 0/1 or ``k < 1``.

    Examples
    --------
    >>> from mapteach.metrics import judged_at_k
    >>> judged_at_k([1, 0, 1, 1, 0], 4)  # 3 of the top 4
    0.75
    >>> judged_at_k([1, 0], 10)  # a list of 2: over 2, not 10
    0.5
    >>> judged_at_k([1, 0, 1, 1, 0])  # the whole list: 3/5
    0.6
    """
    flags = as_labels(judged, name="judged")
    if k is not None:
        flags = flags[: as_k(k)]
    if flags.size == 0:
        return 0.0
    return float(flags.sum() / flags.size)
