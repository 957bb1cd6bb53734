"""Set precision (SetP, trec_eval ``set_P``): the share of everything retrieved that is relevant.

The retrieved list is read as a set: no rank matters, only how many documents came
back and how many of them are relevant. trec_eval's ``-M`` caps the set; unlike
``P@k``, a list shorter than the cap is not padded with non-relevant documents
(trec_eval's own note on ``set_P``). The module also holds SetP's
declaration, scored by :class:`~mapteach.metrics.batch.SetRatio` (shared with SetR).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import N_
from mapteach.metrics.batch import RankedEntries, SetRatio
from mapteach.metrics.declaration import Declaration
from mapteach.metrics.validation import as_labels

__all__ = ["SET_PRECISION", "batch_set_precision", "set_precision"]

#: How SetP scores: relevant entries over the entries retrieved.
_RATIO = SetRatio("retrieved")


def set_precision(labels: ArrayLike) -> float:
    """Relevant results over results retrieved, as trec_eval's ``set_P``.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result; the order does not matter.

    Returns
    -------
    float
        ``sum(labels) / len(labels)``, or 0.0 for an empty list (trec_eval's value
        for a query the run lacks, under ``-c``).

    Raises
    ------
    TypeError
        If ``labels`` is not a sequence.
    ValueError
        If a label is not 0/1.

    Examples
    --------
    >>> from mapteach.metrics.set_precision import set_precision
    >>> set_precision([0, 1, 1, 0, 0])  # 2 relevant of 5 retrieved
    0.4
    >>> set_precision([1, 0])  # P@5 would divide by 5; the set has 2 documents
    0.5
    >>> set_precision([])
    0.0
    """
    y = as_labels(labels)
    return _RATIO.score(y, 0, None)


def batch_set_precision(entries: RankedEntries, *, threshold: int = 1) -> np.ndarray:
    """SetP of every query: its relevant entries over the length of its list.

    Parameters
    ----------
    entries : RankedEntries
    threshold : int, default 1
        The lowest grade that counts as relevant.

    Returns
    -------
    numpy.ndarray
        One value per query; 0.0 for a query with no entry.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.set_precision import batch_set_precision
    >>> batch_set_precision(RankedEntries.from_lists([[0, 1, 2, 0], [], [0]])).tolist()
    [0.5, 0.0, 0.0]
    """
    return _RATIO.batch(entries, threshold=threshold)


#: SetP: trec_eval's ``set_P``.
SET_PRECISION = Declaration(
    name="SetP",
    description=N_("set precision: relevant documents retrieved, over documents retrieved"),
    cutoff="none",
    score=_RATIO.score,
    kernel=_RATIO.kernel,
    expectation=_RATIO.expectation,
    trec_eval="set_P",
)
