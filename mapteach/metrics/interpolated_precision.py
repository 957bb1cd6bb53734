"""Interpolated precision at recall levels: trec_eval's ``iprec_at_recall`` and ``11pt_avg``.

IPrec@L (ir_measures' name) is the best precision at any rank where recall is L
or more: the points of the standard recall-precision graph (IIR ch. 8, and
notebook ``07_pr_curves``). ElevenPt averages it over recall levels, 0.0, 0.1, ...,
1.0 unless others are named. Both follow trec_eval 10, its quirk included: level L
asks for ``lround(L x R)`` relevant documents, the nearest whole number, so recall
0.4 of R = 3 is reached by one relevant document (1.2 rounds to 1), not two (see
:data:`mapteach.metrics.options.ElevenPoint`). One difference is kept on purpose: a list
that ``-J`` empties (every retrieved document unjudged) makes trec_eval divide 0 by 0
at the levels that ask for no relevant document (``lround(L x R) = 0``, level 0.0
always), so it prints ``-nan`` for those ``iprec_at_recall`` lines and for
``11pt_avg``, for the query and for ``all``; mapteach scores them 0.0 (the value
trec_eval gives a judged query the run lacks under ``-c``), and its mean is a number.
The formulas live in :mod:`mapteach.metrics.curves`; this module holds the batch
kernels and the declarations. Neither has a tie-aware expectation.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import N_, tr
from mapteach.metrics.batch import RankedEntries, per_query, relevant_hits
from mapteach.metrics.curves import (
    ELEVEN_LEVELS,
    hits_at_levels,
    mean_from_the_top,
    precisions_at_levels,
)
from mapteach.metrics.declaration import REL, Declaration, Param, Parameters
from mapteach.metrics.ties import TieGroups

__all__ = [
    "ELEVEN_PT",
    "IPREC",
    "batch_interpolated_precision",
    "batch_levels_average",
    "interpolated_precision_at",
    "levels_average_precision",
    "recall_levels",
]

#: trec_eval's recall levels for ``iprec_at_recall`` given with no level: 0.0, 0.1, ..., 1.0.
IPREC_LEVELS: tuple[float, ...] = tuple(float(level) for level in ELEVEN_LEVELS)


def recall_levels(text: str | None) -> np.ndarray:
    """The recall levels of ElevenPt's ``levels`` parameter, sorted as trec_eval sorts them.

    Parameters
    ----------
    text : str or None
        Levels separated by commas, as trec_eval writes them after ``11pt_avg.``
        (``".25,.5,.75"``); None for 0.0, 0.1, ..., 1.0.

    Returns
    -------
    numpy.ndarray
        The levels, ascending.

    Raises
    ------
    ValueError
        If a level is not a number >= 0, or there is none.

    Examples
    --------
    >>> from mapteach.metrics.interpolated_precision import recall_levels
    >>> recall_levels(".75,.25,.5").tolist()
    [0.25, 0.5, 0.75]
    >>> recall_levels(None).size
    11
    """
    if text is None:
        return ELEVEN_LEVELS
    try:
        levels = np.sort(np.array([float(word) for word in text.split(",")]))
    except ValueError:
        levels = np.array([np.nan])
    if not np.all(np.isfinite(levels) & (levels >= 0)):
        raise ValueError(
            tr(
                "levels must be recall levels >= 0 separated by commas, such as '.25,.5,.75'; "
                "got {text!r}.",
                text=text,
            )
        )
    return levels


def interpolated_precision_at(
    labels: ArrayLike, level: float, *, n_relevant: int | None = None
) -> float:
    """IPrec@level: the best precision where recall reaches ``level``, as trec_eval 10.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    level : float
        The recall level, >= 0; it asks for ``lround(level x R)`` relevant documents.
    n_relevant : int, optional
        R, the query's total relevant documents. Default: the hits in ``labels``.

    Returns
    -------
    float
        0.0 when the list never finds that many relevant documents.

    Raises
    ------
    TypeError, ValueError
        As :func:`mapteach.metrics.curves.precisions_at_levels`.

    Examples
    --------
    Relevant at ranks 1 and 3, R = 3: recall 1/3 at rank 1 (P = 1), 2/3 at rank 3 (P = 2/3).

    >>> from mapteach.metrics.interpolated_precision import interpolated_precision_at
    >>> interpolated_precision_at([1, 0, 1, 0], 0.5, n_relevant=3)  # lround(1.5) = 2 found
    0.6666666666666666
    >>> interpolated_precision_at([1, 0, 1, 0], 0.4, n_relevant=3)  # lround(1.2) = 1 found
    1.0
    """
    return float(precisions_at_levels(labels, [level], n_relevant=n_relevant)[0])


def levels_average_precision(
    labels: ArrayLike, levels: ArrayLike | None = None, *, n_relevant: int | None = None
) -> float:
    """The mean of IPrec over recall levels: trec_eval 10's ``11pt_avg``.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    levels : sequence of float, optional
        The recall levels. Default: 0.0, 0.1, ..., 1.0.
    n_relevant : int, optional
        R, the query's total relevant documents. Default: the hits in ``labels``.

    Returns
    -------
    float

    Examples
    --------
    Relevant at ranks 1, 3 and 4, R = 3 (P = 1, 2/3, 3/4). trec_eval 10 reaches recall
    0.1 to 0.4 with lround(L x 3) <= 1 relevant document, 0.5 to 0.8 with 2, 0.9 and 1.0
    with 3; the best precision from rank 3 on is 3/4:

    >>> from mapteach.metrics.interpolated_precision import levels_average_precision
    >>> round(levels_average_precision([1, 0, 1, 1]), 4)  # (5 x 1 + 6 x 0.75) / 11
    0.8636
    >>> levels_average_precision([1, 0, 1, 1], [0.2, 0.5, 0.8])  # (1 + 0.75 + 0.75) / 3
    0.8333333333333334
    """
    at = ELEVEN_LEVELS if levels is None else np.sort(np.asarray(levels, dtype=float))
    return mean_from_the_top(precisions_at_levels(labels, at, n_relevant=n_relevant))


def _suffix_max(query: np.ndarray, values: np.ndarray, n_queries: int) -> np.ndarray:
    """Each value's maximum with every later value of its query (rows sorted by query).

    Exact: the values are replaced by their ranks among all values, and each query's
    ranks are lifted above the later queries' so that one running maximum does them all.
    """
    if values.size == 0:
        return values
    distinct, dense = np.unique(values, return_inverse=True)
    lift = (n_queries - 1 - query).astype(np.int64) * distinct.size
    running = np.maximum.accumulate((dense.reshape(-1) + lift)[::-1])[::-1]
    return distinct[running - lift]


def _at_levels(
    entries: RankedEntries, levels: ArrayLike, threshold: int, n_relevant: np.ndarray
) -> list[np.ndarray]:
    """IPrec of every query at each level: the best precision from the needed hit on."""
    query, rank, hits = relevant_hits(entries, threshold, None)
    best = np.r_[_suffix_max(query, hits / rank, entries.n_queries), 0.0]
    found = per_query(entries, query)
    first = np.cumsum(found) - found
    results = []
    for level in np.asarray(levels, dtype=float).reshape(-1):
        needed = hits_at_levels(level, n_relevant)
        reached = (found > 0) & (needed <= found)
        index = np.where(reached, first + np.maximum(needed, 1) - 1, best.size - 1)
        results.append(np.where(reached, best[index], 0.0))
    return results


def batch_interpolated_precision(
    entries: RankedEntries, level: float, *, threshold: int = 1, n_relevant: ArrayLike | None = None
) -> np.ndarray:
    """IPrec@level of every query: :func:`interpolated_precision_at` at once.

    Parameters
    ----------
    entries : RankedEntries
    level : float
        The recall level, >= 0.
    threshold : int, default 1
        The lowest grade that counts as relevant.
    n_relevant : array of int, optional
        R of each query. Default: the entries'.

    Returns
    -------
    numpy.ndarray
        One value per query.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.interpolated_precision import batch_interpolated_precision
    >>> entries = RankedEntries.from_lists([[1, 0, 1, 0], [0, 0]], n_relevant=[3, 2])
    >>> batch_interpolated_precision(entries, 0.5).round(4).tolist()
    [0.6667, 0.0]
    """
    r = entries.n_relevant if n_relevant is None else np.asarray(n_relevant)
    return _at_levels(entries, [level], threshold, r)[0]


def batch_levels_average(
    entries: RankedEntries,
    levels: ArrayLike | None = None,
    *,
    threshold: int = 1,
    n_relevant: ArrayLike | None = None,
) -> np.ndarray:
    """ElevenPt of every query: :func:`levels_average_precision` at once.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.interpolated_precision import batch_levels_average
    >>> batch_levels_average(RankedEntries.from_lists([[1, 0, 1, 1]])).round(4).tolist()
    [0.8636]
    """
    r = entries.n_relevant if n_relevant is None else np.asarray(n_relevant)
    at = ELEVEN_LEVELS if levels is None else np.sort(np.asarray(levels, dtype=float))
    total = np.zeros(entries.n_queries)
    for values in _at_levels(entries, at, threshold, r)[::-1]:  # from the top, as trec_eval
        total = total + values
    return total / at.size


def _iprec_kernel(entries: RankedEntries, parameters: Parameters) -> np.ndarray:
    level = _level(parameters.k)
    return batch_interpolated_precision(
        entries, level, threshold=parameters.threshold, n_relevant=parameters.n_relevant(entries)
    )


def _average_kernel(entries: RankedEntries, parameters: Parameters) -> np.ndarray:
    levels = recall_levels(parameters.params.get("levels"))
    return batch_levels_average(
        entries, levels, threshold=parameters.threshold, n_relevant=parameters.n_relevant(entries)
    )


def _average_score(labels: np.ndarray, r: int, k: int | None, *, levels: str | None) -> float:
    return levels_average_precision(labels, recall_levels(levels), n_relevant=r)


def _level(k: int | float | None) -> float:
    if k is None:
        raise ValueError(tr("IPrec needs a recall level, such as 'IPrec@0.5'."))
    return float(k)


def _no_expectation(
    entries: RankedEntries, groups: TieGroups, parameters: Parameters
) -> np.ndarray:
    raise ValueError(
        tr(
            "interpolated precision has no tie-aware expectation here (a maximum over ranks is "
            "not linear in the order of a tie); score it with another ties option, such as "
            "'trec_eval'."
        )
    )


#: IPrec@level: trec_eval's ``iprec_at_recall``.
IPREC = Declaration(
    name="IPrec",
    description=N_(
        "interpolated precision at a recall level: the best precision where recall is at least "
        "the level (trec_eval 10: lround(level x R) relevant documents)"
    ),
    cutoff="required",
    score=lambda labels, r, k: interpolated_precision_at(labels, _level(k), n_relevant=r),
    kernel=_iprec_kernel,
    expectation=_no_expectation,
    trec_eval_cut="iprec_at_recall",
    params={"rel": REL},
    cutoff_kind="level",
    trec_eval_cutoffs=IPREC_LEVELS,
)

#: ElevenPt: trec_eval's ``11pt_avg``.
ELEVEN_PT = Declaration(
    name="ElevenPt",
    description=N_(
        "11-point interpolated average precision: IPrec averaged over recall 0.0, 0.1, ..., 1.0"
    ),
    cutoff="none",
    score=_average_score,
    kernel=_average_kernel,
    expectation=_no_expectation,
    trec_eval="11pt_avg",
    params={
        "rel": REL,
        "levels": Param(
            None,
            "str",
            description=N_("the recall levels, separated by commas (default 0.0, 0.1, ..., 1.0)"),
            trec_eval_suffix=True,
        ),
    },
)
