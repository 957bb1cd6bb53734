"""Precision-recall curve arrays of one ranked list: raw and interpolated precision, and
11-point interpolated average precision (Manning et al., IIR ch. 8; trec_eval)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import tr
from mapteach.metrics._sums import sum_in_rank_order
from mapteach.metrics.options import ELEVEN_POINT, ElevenPoint
from mapteach.metrics.validation import as_labels, as_n_relevant, check_choice

__all__ = [
    "ELEVEN_LEVELS",
    "curve_arrays",
    "eleven_point_average_precision",
    "eleven_point_precisions",
    "hits_at_levels",
    "hits_needed",
    "interpolated_precision",
    "mean_from_the_top",
    "precisions_at_levels",
]

#: The recall levels 0.0, 0.1, ..., 1.0, as the same doubles as trec_eval's literals.
ELEVEN_LEVELS: np.ndarray = np.arange(11) / 10
ELEVEN_LEVELS.flags.writeable = False


def curve_arrays(y: np.ndarray, r: int) -> tuple[np.ndarray, np.ndarray]:
    """Recall and precision after each rank of a validated boolean array ``y``."""
    hits = np.cumsum(y)
    precision = hits / np.arange(1, y.size + 1)
    return (hits / r if r else np.zeros(y.size)), precision


def interpolated_precision(recall: ArrayLike, precision: ArrayLike) -> np.ndarray:
    """Interpolated precision of each point: the best precision at this recall or higher.

    p_interp(r) = max of p(r') over every point with r' >= r (IIR ch. 8, trec_eval's
    ``Int_Prec``). Every point at one recall shares one value, so the curve is a
    staircase that never rises.

    Parameters
    ----------
    recall, precision : sequence of float
        One point per rank (or in any order), of equal length.

    Returns
    -------
    numpy.ndarray
        The interpolated precision of each point, in the order given.

    Raises
    ------
    ValueError
        If ``recall`` and ``precision`` differ in shape or are not 1-D.

    Examples
    --------
    Article 003's query B, relevant at ranks 1 and 3 of R = 3 (the first 4 ranks):

    >>> from mapteach.metrics.curves import interpolated_precision
    >>> recall = [1 / 3, 1 / 3, 2 / 3, 2 / 3]
    >>> precision = [1.0, 0.5, 0.667, 0.5]  # 1/1, 1/2, 2/3, 2/4
    >>> interpolated_precision(recall, precision).tolist()  # rank 2 keeps rank 1's 1.0
    [1.0, 1.0, 0.667, 0.667]
    """
    r, p = np.asarray(recall, dtype=float), np.asarray(precision, dtype=float)
    if r.shape != p.shape or r.ndim != 1:
        raise ValueError(
            tr(
                "recall and precision must be 1-D of one length; got shapes {recall} and "
                "{precision}.",
                recall=r.shape,
                precision=p.shape,
            )
        )
    order = np.argsort(r, kind="stable")
    best_from = np.maximum.accumulate(p[order][::-1])[::-1]  # best at this recall or higher
    return best_from[np.searchsorted(r[order], r, side="left")]


def hits_needed(n_relevant: int, *, convention: ElevenPoint = "iir") -> np.ndarray:
    """How many relevant documents each recall level 0.0, 0.1, ..., 1.0 asks for.

    The one place where the three 11-point conventions differ. Introduced in
    ``07_pr_curves``.

    Parameters
    ----------
    n_relevant : int
        R, the query's total relevant documents.
    convention : {"iir", "trec_eval_9", "trec_eval_10"}, default "iir"
        As :func:`eleven_point_precisions`.

    Returns
    -------
    numpy.ndarray
        11 whole numbers, one per recall level.

    Examples
    --------
    >>> from mapteach.metrics import hits_needed
    >>> hits_needed(3).tolist()  # ceil(L x 3)
    [0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3]
    >>> hits_needed(3, convention="trec_eval_9").tolist()  # 0.7 x 3 + 0.9 = 2.9999999999999996
    [0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3]
    >>> hits_needed(3, convention="trec_eval_10").tolist()  # lround(0.4 x 3 = 1.2) = 1
    [0, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3]
    """
    r = as_n_relevant(n_relevant, 0)
    check_choice(convention, ELEVEN_POINT, name="convention")
    if convention == "iir":
        return -(-np.arange(11) * r // 10)  # ceil(L x R) in whole numbers: exact
    return hits_at_levels(ELEVEN_LEVELS, r, convention=convention)


def hits_at_levels(
    levels: ArrayLike, n_relevant: ArrayLike, *, convention: ElevenPoint = "trec_eval_10"
) -> np.ndarray:
    """How many relevant documents recall ``levels`` ask for, for any levels and Rs at once.

    The arrays broadcast: one level for many queries (the batch kernels), or many
    levels for one R. Inputs are trusted (:func:`hits_needed` checks its own).

    Parameters
    ----------
    levels : array of float
        Recall levels, such as 0.25.
    n_relevant : array of int
        R of each query.
    convention : {"iir", "trec_eval_9", "trec_eval_10"}, default "trec_eval_10"
        ``"iir"``: the least whole number >= L x R in doubles (ceil); the others as
        :func:`hits_needed`.

    Returns
    -------
    numpy.ndarray of int

    Examples
    --------
    >>> from mapteach.metrics.curves import hits_at_levels
    >>> hits_at_levels(0.25, [1, 2, 3, 10]).tolist()  # lround(0.25, 0.5, 0.75, 2.5)
    [0, 1, 1, 3]
    """
    scaled = np.asarray(levels, dtype=float) * np.asarray(n_relevant)
    if convention == "iir":
        return np.ceil(scaled).astype(int)
    if convention == "trec_eval_9":
        return np.trunc(scaled + 0.9).astype(int)  # C's (long)(L * R + 0.9)
    whole = np.floor(scaled)
    return (whole + (scaled - whole >= 0.5)).astype(int)  # C's lround: halves go up


def eleven_point_precisions(
    labels: ArrayLike, *, n_relevant: int | None = None, convention: ElevenPoint = "iir"
) -> np.ndarray:
    """Interpolated precision at recall 0.0, 0.1, ..., 1.0 (the points of the 11-point average).

    At each recall level L: the best precision at the rank where the list has
    found enough relevant documents for L, or at any later rank; 0 if the list
    never finds that many. The conventions differ only in how many is enough
    (see :data:`mapteach.metrics.options.ElevenPoint`). Introduced in ``07_pr_curves``.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    n_relevant : int, optional
        R, the query's total relevant documents. Default: the hits in ``labels``.
    convention : {"iir", "trec_eval_9", "trec_eval_10"}, default "iir"
        ``"iir"``: recall >= L, so ceil(L x R) relevant documents (IIR ch. 8).
        ``"trec_eval_9"``: ``(long)(L * R + 0.9)`` (trec_eval 9.x's
        ``iprec_at_recall``, pytrec_eval). ``"trec_eval_10"``: ``lround(L * R)``.

    Returns
    -------
    numpy.ndarray
        11 interpolated precisions, for L = 0.0, 0.1, ..., 1.0. All 0 when R = 0.

    Raises
    ------
    TypeError, ValueError
        As :func:`~mapteach.average_precision`; ``ValueError`` also for an
        unknown ``convention``.

    Examples
    --------
    Article 003's query B: relevant at ranks 1 and 3 (P = 1/1, 2/3), R = 3. Its
    recall 2/3 reaches 0.6 but not 0.7, so IIR scores 0 from 0.7 on. trec_eval 9
    asks for (long)(0.7 * 3 + 0.9) = 2 relevant documents at 0.7, as 0.7 * 3 is
    2.0999999999999996 in doubles. trec_eval 10 asks for lround(L * 3): only 1
    at L = 0.4 (1.2), and 2 up to L = 0.8 (2.4).

    >>> from mapteach.metrics import eleven_point_precisions
    >>> b = [1, 0, 1, 0, 0, 0, 0, 0]
    >>> eleven_point_precisions(b, n_relevant=3).round(4).tolist()
    [1.0, 1.0, 1.0, 1.0, 0.6667, 0.6667, 0.6667, 0.0, 0.0, 0.0, 0.0]
    >>> eleven_point_precisions(b, n_relevant=3, convention="trec_eval_9").round(4).tolist()
    [1.0, 1.0, 1.0, 1.0, 0.6667, 0.6667, 0.6667, 0.6667, 0.0, 0.0, 0.0]
    >>> eleven_point_precisions(b, n_relevant=3, convention="trec_eval_10").round(4).tolist()
    [1.0, 1.0, 1.0, 1.0, 1.0, 0.6667, 0.6667, 0.6667, 0.6667, 0.0, 0.0]
    """
    y = as_labels(labels)
    r = as_n_relevant(n_relevant, int(y.sum()))
    return _precisions_reaching(y, r, hits_needed(r, convention=convention))


def _precisions_reaching(y: np.ndarray, r: int, needed: np.ndarray) -> np.ndarray:
    """Interpolated precision where the list first holds each ``needed`` relevant documents."""
    recall, precision = curve_arrays(y, r)
    # the first rank holding the needed relevant documents; y.size where there is none
    reached = np.searchsorted(np.cumsum(y), needed, side="left")
    return np.r_[interpolated_precision(recall, precision), 0.0][reached]


def precisions_at_levels(
    labels: ArrayLike,
    levels: ArrayLike,
    *,
    n_relevant: int | None = None,
    convention: ElevenPoint = "trec_eval_10",
) -> np.ndarray:
    """Interpolated precision at any recall levels: trec_eval's ``iprec_at_recall.L``.

    :func:`eleven_point_precisions` at the levels given instead of 0.0, 0.1, ..., 1.0;
    by default with trec_eval 10's ``lround(L * R)`` relevant documents per level.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    levels : sequence of float
        Recall levels, each >= 0 (a level above 1 asks for more than R: 0).
    n_relevant : int, optional
        R, the query's total relevant documents. Default: the hits in ``labels``.
    convention : {"iir", "trec_eval_9", "trec_eval_10"}, default "trec_eval_10"
        How many relevant documents reach each level (:func:`hits_at_levels`).

    Returns
    -------
    numpy.ndarray
        One interpolated precision per level, in the order given.

    Raises
    ------
    TypeError, ValueError
        As :func:`eleven_point_precisions`; ``ValueError`` also for a negative or
        non-finite level.

    Examples
    --------
    Article 003's query B: relevant at ranks 1 and 3 (P = 1/1, 2/3), R = 3. Recall 0.25
    asks for lround(0.75) = 1 relevant document, 0.5 for lround(1.5) = 2, 1.0 for 3,
    which the list never finds:

    >>> from mapteach.metrics.curves import precisions_at_levels
    >>> precisions_at_levels([1, 0, 1, 0], [0.25, 0.5, 1.0], n_relevant=3).round(4).tolist()
    [1.0, 0.6667, 0.0]
    """
    y = as_labels(labels)
    r = as_n_relevant(n_relevant, int(y.sum()))
    check_choice(convention, ELEVEN_POINT, name="convention")
    at = np.asarray(levels, dtype=float).reshape(-1)
    if not np.all(np.isfinite(at) & (at >= 0)):
        raise ValueError(
            tr("recall levels must be finite numbers >= 0; got {levels}.", levels=at.tolist())
        )
    return _precisions_reaching(y, r, hits_at_levels(at, r, convention=convention))


def eleven_point_average_precision(
    labels: ArrayLike, *, n_relevant: int | None = None, convention: ElevenPoint = "iir"
) -> float:
    """Mean interpolated precision at recall 0.0, 0.1, ..., 1.0: trec_eval's ``11pt_avg``.

    At each recall level the interpolated precision is the best precision at
    that recall or higher; a level the ranking never reaches scores 0 (see
    :func:`eleven_point_precisions`). It is close to AP but not equal: it looks
    at 11 fixed recall levels, not at every relevant rank. Introduced in
    ``07_pr_curves``.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    n_relevant : int, optional
        R, the query's total relevant documents. Default: the hits in ``labels``.
    convention : {"iir", "trec_eval_9", "trec_eval_10"}, default "iir"
        How many relevant documents reach each level: see :func:`eleven_point_precisions`.
        ``"trec_eval_9"`` is pytrec_eval's ``11pt_avg``.

    Returns
    -------
    float
        The mean of the 11 points, in [0, 1].

    Raises
    ------
    TypeError, ValueError
        As :func:`eleven_point_precisions`.

    Examples
    --------
    Article 003's query A, relevant at ranks 1, 3 and 4 (P = 1, 2/3, 3/4):

    >>> from mapteach.metrics import eleven_point_average_precision
    >>> a = [1, 0, 1, 1, 0, 0, 0, 0]
    >>> round(eleven_point_average_precision(a), 4)  # (4 x 1.0 + 7 x 0.75) / 11
    0.8409

    trec_eval 10 reaches recall 0.4 with lround(0.4 x 3) = 1 relevant document,
    where IIR needs ceil(1.2) = 2:

    >>> trec_eval_10 = eleven_point_average_precision(a, convention="trec_eval_10")
    >>> round(trec_eval_10, 4)  # (5 x 1.0 + 6 x 0.75) / 11
    0.8636
    """
    points = eleven_point_precisions(labels, n_relevant=n_relevant, convention=convention)
    return mean_from_the_top(points)


def mean_from_the_top(points: np.ndarray) -> float:
    """The mean of the interpolated precisions at rising recall levels, as trec_eval takes it.

    Added from the highest level down, as trec_eval's ``11pt_avg`` adds them, so that
    the bits agree.

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.metrics.curves import mean_from_the_top
    >>> mean_from_the_top(np.array([1.0, 0.5, 0.0]))
    0.5
    """
    return sum_in_rank_order(points[::-1]) / points.size
