"""Set recall (SetR, trec_eval ``set_recall``): the share of the relevant documents retrieved.

The retrieved list is read as a set: R@k with k the length of the list, or the
``-M`` cap. The module also holds SetR's declaration, scored by
:class:`~mapteach.metrics.batch.SetRatio` (shared with SetP).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import N_
from mapteach.metrics.batch import RankedEntries, SetRatio
from mapteach.metrics.declaration import Declaration
from mapteach.metrics.validation import as_labels, as_n_relevant

__all__ = ["SET_RECALL", "batch_set_recall", "set_recall"]

#: How SetR scores: relevant entries over R.
_RATIO = SetRatio("relevant")


def set_recall(labels: ArrayLike, *, n_relevant: int | None = None) -> float:
    """Relevant results over R, the query's relevant documents, as trec_eval's ``set_recall``.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result; the order does not matter.
    n_relevant : int, optional
        R, retrieved or not. Default: the hits in ``labels``.

    Returns
    -------
    float
        ``sum(labels) / R``, or 0.0 when R = 0.

    Raises
    ------
    TypeError
        If an argument has the wrong type.
    ValueError
        If a label is not 0/1, or ``n_relevant`` is negative or smaller than the hits.

    Examples
    --------
    >>> from mapteach.metrics.set_recall import set_recall
    >>> set_recall([0, 1, 1, 0, 0], n_relevant=4)  # 2 of the 4 relevant documents
    0.5
    >>> set_recall([0, 0])  # R = 0
    0.0
    """
    y = as_labels(labels)
    r = as_n_relevant(n_relevant, int(y.sum()))
    return _RATIO.score(y, r, None)


def batch_set_recall(entries: RankedEntries, *, threshold: int = 1) -> np.ndarray:
    """SetR of every query: its relevant entries over its R.

    Parameters
    ----------
    entries : RankedEntries
    threshold : int, default 1
        The lowest grade that counts as relevant.

    Returns
    -------
    numpy.ndarray
        One value per query; 0.0 when R = 0.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.set_recall import batch_set_recall
    >>> entries = RankedEntries.from_lists([[0, 1, 2, 0], [0]], n_relevant=[4, 0])
    >>> batch_set_recall(entries).tolist()
    [0.5, 0.0]
    """
    return _RATIO.batch(entries, threshold=threshold)


#: SetR: trec_eval's ``set_recall``.
SET_RECALL = Declaration(
    name="SetR",
    description=N_("set recall: relevant documents retrieved, over R"),
    cutoff="none",
    score=_RATIO.score,
    kernel=_RATIO.kernel,
    expectation=_RATIO.expectation,
    trec_eval="set_recall",
)
