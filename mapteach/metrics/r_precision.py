"""R-precision (Rprec): precision at rank R, where R is the query's number of relevant documents."""

from __future__ import annotations

from numpy.typing import ArrayLike

from mapteach.metrics._validation import as_labels, as_n_relevant

__all__ = ["r_precision"]


def r_precision(labels: ArrayLike, *, n_relevant: int | None = None) -> float:
    """Precision at rank R: relevant results in the top R, over R.

    Each query is cut at its own depth, R, where a perfect ranking would have
    found everything, so precision and recall are equal there. trec_eval's
    ``Rprec``: a list shorter than R still divides by R, and a query with R = 0
    scores 0.0.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    n_relevant : int, optional
        R, the query's total relevant documents, retrieved or not. Default: the
        hits in ``labels`` (every relevant document was retrieved).

    Returns
    -------
    float
        ``hits in labels[:R] / R``.

    Raises
    ------
    TypeError
        If ``labels`` is not a sequence or ``n_relevant`` is not an integer.
    ValueError
        If a label is not 0/1, or ``n_relevant`` is negative or smaller than the
        hits in ``labels``.

    Examples
    --------
    >>> from mapteach.metrics import r_precision
    >>> r_precision([1, 0, 1, 1, 0], n_relevant=4)  # 3 hits in the top 4: 3/4
    0.75
    >>> r_precision([0, 1], n_relevant=3)  # the list is short: still over R, 1/3
    0.3333333333333333
    >>> r_precision([0, 0])  # R = 0
    0.0
    """
    y = as_labels(labels)
    r = as_n_relevant(n_relevant, int(y.sum()))
    if r == 0:
        return 0.0
    return float(y[:r].sum() / r)
