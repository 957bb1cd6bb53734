"""Inferred AP (infAP, Yilmaz and Aslam, CIKM 2006): AP estimated from a sample of the pool.

When only a random sample of the pooled documents is judged, the qrels mark the
pooled documents left unjudged with a negative grade (trec_eval's and ir_measures'
convention: -1). infAP estimates each relevant document's precision from the judged
documents above it, assuming the pooled-but-unjudged ones are relevant in the same
proportion, and counting documents outside the pool as non-relevant. This is
trec_eval's ``infAP`` (``m_infap.c``), its quirks included: the ratio of relevant
documents among the judged ones above is smoothed with trec_eval's ``INFAP_EPSILON``
(1e-5), so infAP on fully judged qrels is close to AP but not equal. The module also
holds infAP's batch kernel and its declaration; it has no tie-aware expectation.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import N_, tr
from mapteach.metrics._sums import sum_in_rank_order
from mapteach.metrics.batch import RankedEntries, judgments, per_query, ranks_within, ratio
from mapteach.metrics.declaration import Declaration, Parameters
from mapteach.metrics.ties import TieGroups
from mapteach.metrics.validation import as_n_relevant

__all__ = ["INFAP", "INFAP_EPSILON", "batch_infap", "inferred_average_precision"]

#: trec_eval's ``INFAP_EPSILON``: smooths the share of relevant documents among the judged.
INFAP_EPSILON = 0.00001


def _as_pool_grades(grades: Any) -> np.ndarray:
    """The grades as floats, None read as NaN (outside the pool); raise on anything else."""
    if isinstance(grades, (str, bytes)) or not (
        isinstance(grades, Sequence) or hasattr(grades, "__array__")
    ):
        raise TypeError(
            tr(
                "grades must be a sequence of grades (None for a document outside the pool), "
                "ranked best first; got {got}.",
                got=type(grades).__name__,
            )
        )
    values = [np.nan if grade is None else grade for grade in grades]
    for index, grade in enumerate(values):
        if isinstance(grade, (bool, np.bool_)) or not isinstance(grade, numbers.Real):
            raise TypeError(
                tr(
                    "grades[{index}] (rank {rank}) is {grade!r}; a grade is a number, or None "
                    "for a document outside the pool.",
                    index=index,
                    rank=index + 1,
                    grade=grade,
                )
            )
    return np.asarray(values, dtype=float).reshape(-1)


def _term(
    j: np.ndarray, hits_above: np.ndarray, nonrelevant: np.ndarray, unjudged: np.ndarray
) -> np.ndarray:
    """One relevant document's share at 0-based rank j, in trec_eval's operations and order."""
    fj = j.astype(float)
    safe = np.maximum(fj, 1.0)  # j = 0 scores 1 below; no division by 0 on the way
    judged_above = (hits_above + nonrelevant + unjudged) / safe
    precision = (hits_above + INFAP_EPSILON) / (hits_above + nonrelevant + 2 * INFAP_EPSILON)
    share = 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * judged_above * precision
    return np.where(j == 0, 1.0, share)


def inferred_average_precision(
    grades: ArrayLike, *, n_relevant: int | None = None, threshold: int = 1
) -> float:
    """infAP of one ranked list whose pool was judged by sampling, as trec_eval's ``infAP``.

    For the relevant document at 0-based rank j (j > 0), with h relevant, n judged
    non-relevant and u pooled-but-unjudged documents above it, the share is
    1/(j+1) + j/(j+1) x (h+n+u)/j x (h+eps)/(h+n+2 eps); at j = 0 it is 1. infAP is
    the sum of the shares over R; documents outside the pool count in j only.

    Parameters
    ----------
    grades : sequence of numbers or None
        Each result's judgment, best-ranked first: a grade >= ``threshold`` is relevant,
        a grade from 0 up to it judged non-relevant, a negative grade pooled but not
        judged (the qrels' -1), and None (or NaN) a document outside the pool.
    n_relevant : int, optional
        R, the query's relevant documents, retrieved or not. Default: those in ``grades``.
    threshold : int, default 1
        The lowest grade that counts as relevant.

    Returns
    -------
    float
        infAP, 0.0 when R = 0.

    Raises
    ------
    TypeError
        If ``grades`` is not a sequence of numbers and None, or R is not an integer.
    ValueError
        If R is negative or smaller than the relevant documents in ``grades``.

    Examples
    --------
    Every document judged: (1 + (1/3 + 2/3 x 2/2 x (1 + eps)/(1 + 1 + 2 eps))) / 2, close
    to AP's (1 + 2/3) / 2:

    >>> from mapteach.metrics.infap import inferred_average_precision
    >>> round(inferred_average_precision([1, 0, 1]), 6)
    0.833333

    The document at rank 2 was pooled but not judged (-1): it is assumed relevant in the
    same proportion as the judged ones above, all relevant here, and the document outside
    the pool at rank 3 (None) counts as non-relevant:

    >>> round(inferred_average_precision([1, -1, None, 1]), 4)  # (1 + (1/4 + 3/4 x 2/3)) / 2
    0.875
    """
    values = _as_pool_grades(grades)
    relevant = values >= threshold
    r = as_n_relevant(n_relevant, int(relevant.sum()))
    if r == 0:
        return 0.0
    before = np.vstack([relevant, (values >= 0) & ~relevant, values < 0]).cumsum(axis=1)
    before = np.hstack([np.zeros((3, 1), int), before[:, :-1]])[:, relevant]
    shares = _term(np.flatnonzero(relevant), *before)
    return sum_in_rank_order(shares) / r


def batch_infap(entries: RankedEntries, *, threshold: int = 1) -> np.ndarray:
    """infAP of every query: :func:`inferred_average_precision` at once.

    Entries that are not judged are outside the pool; a judged entry with a negative
    grade is pooled but not judged.

    Parameters
    ----------
    entries : RankedEntries
        With ``judged``.
    threshold : int, default 1
        The lowest grade that counts as relevant.

    Returns
    -------
    numpy.ndarray
        One value per query.

    Raises
    ------
    ValueError
        If the entries do not carry ``judged``.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.infap import batch_infap
    >>> entries = RankedEntries.from_lists([[1, -1, 0, 1]], judged=[[1, 1, 0, 1]])
    >>> batch_infap(entries).round(4).tolist()  # rank 3 is outside the pool
    [0.875]
    """
    judged, _ = judgments(entries, "infAP")
    relevant = entries.grade >= threshold
    kinds = np.vstack([judged & (entries.grade >= 0) & ~relevant, judged & (entries.grade < 0)])
    running = kinds.cumsum(axis=1)
    counts = np.bincount(entries.query, minlength=entries.n_queries)
    start = np.cumsum(counts) - counts
    before = np.hstack([np.zeros((2, 1), int), running])[:, start][:, entries.query]
    above = (running - kinds - before)[:, relevant]
    query = entries.query[relevant]
    hits_above = ranks_within(query, entries.n_queries) - 1
    shares = _term(entries.rank[relevant] - 1, hits_above, *above)
    return ratio(per_query(entries, query, shares), entries.n_relevant)


def _kernel(entries: RankedEntries, parameters: Parameters) -> np.ndarray:
    return batch_infap(entries, threshold=parameters.threshold)


def _no_expectation(
    entries: RankedEntries, groups: TieGroups, parameters: Parameters
) -> np.ndarray:
    raise ValueError(
        tr(
            "infAP has no tie-aware expectation here (its shares are ratios of counts above "
            "each relevant document, not linear in the order of a tie); score it with another "
            "ties option, such as 'trec_eval'."
        )
    )


def _score(labels: np.ndarray, r: int, k: int | None) -> float:
    return inferred_average_precision(labels.astype(float), n_relevant=r)


#: infAP: trec_eval's ``infAP``.
INFAP = Declaration(
    name="infAP",
    description=N_(
        "inferred AP: AP estimated from a judged sample of the pool (grade -1: pooled, unjudged)"
    ),
    cutoff="none",
    score=_score,
    kernel=_kernel,
    expectation=_no_expectation,
    trec_eval="infAP",
    reads_judged=True,
)
