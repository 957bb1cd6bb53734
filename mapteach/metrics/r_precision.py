"""R-precision (Rprec): precision at rank R, where R is the query's number of relevant documents."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import N_
from mapteach.metrics.batch import RankedEntries, ratio, relevant_found
from mapteach.metrics.declaration import REL, Declaration, Parameters
from mapteach.metrics.ties import TieGroups, expected_found
from mapteach.metrics.validation import as_labels, as_n_relevant

__all__ = ["R_PRECISION", "batch_r_precision", "r_precision"]


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


def batch_r_precision(entries: RankedEntries, *, threshold: int = 1) -> np.ndarray:
    """Rprec of every query: relevant entries within rank R, over R (0.0 when R = 0).

    Parameters
    ----------
    entries : RankedEntries
    threshold : int, default 1
        The lowest grade that counts as relevant.

    Returns
    -------
    numpy.ndarray
        One value per query.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.r_precision import batch_r_precision
    >>> entries = RankedEntries.from_lists([[1, 0, 1, 1], [0, 1]], n_relevant=[3, 1])
    >>> batch_r_precision(entries).round(4).tolist()  # 2 hits in the top 3; none in the top 1
    [0.6667, 0.0]
    """
    return ratio(relevant_found(entries, threshold, entries.n_relevant), entries.n_relevant)


def _kernel(entries: RankedEntries, parameters: Parameters) -> np.ndarray:
    return batch_r_precision(entries, threshold=parameters.threshold)


def _expected(entries: RankedEntries, groups: TieGroups, parameters: Parameters) -> np.ndarray:
    """Expected relevant documents within each query's own rank R, over R."""
    found = expected_found(entries, groups, entries.n_relevant[entries.query])
    return ratio(found, entries.n_relevant)


def _score(labels: np.ndarray, r: int, k: int | None) -> float:
    return r_precision(labels, n_relevant=r)


#: Rprec: trec_eval's ``Rprec``.
R_PRECISION = Declaration(
    name="Rprec",
    description=N_("R-precision: relevant documents in the top R, over R"),
    cutoff="none",
    score=_score,
    kernel=_kernel,
    expectation=_expected,
    trec_eval="Rprec",
    aliases=("RPrec",),
    params={"rel": REL},
)
