"""The geometric mean over queries: GMAP, trec_eval's ``gm_map``.

MAP is an arithmetic mean, so raising one easy query from AP 0.80 to 0.90 moves
it as much as raising a hard one from 0.01 to 0.11. The geometric mean (Robertson
2006, the TREC Robust track) weighs relative changes instead: the hard query's
elevenfold gain counts far more. Each value is floored first (trec_eval: 1e-5), so
that one query at 0 does not pull the whole mean to 0. The module also declares
GMAP: AP per query (AP's scalar, kernel and expectation), the geometric mean over queries.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import N_, tr
from mapteach.metrics._sums import sum_in_rank_order
from mapteach.metrics.average_precision import AVERAGE_PRECISION
from mapteach.metrics.declaration import Declaration

__all__ = ["GMAP", "GM_FLOOR", "geometric_mean"]

#: trec_eval's ``MIN_GEO_MEAN``: the floor under each value of a geometric mean.
GM_FLOOR = 1e-5


def geometric_mean(values: ArrayLike, *, floor: float = GM_FLOOR) -> float:
    """exp(mean(log(max(v, floor)))): GMAP when the values are the queries' APs.

    As trec_eval's ``gm_map``: the logs are added in query order and the sum is
    divided by the number of queries before the exponential.

    Parameters
    ----------
    values : sequence of float
        One value per query, each finite and >= 0.
    floor : float, default 1e-5
        Values below it count as ``floor``; must be > 0.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``values`` is empty or not one-dimensional, a value is negative or not
        finite, or ``floor`` is not > 0.

    Examples
    --------
    >>> from mapteach.metrics import geometric_mean
    >>> round(geometric_mean([0.5, 0.125]), 4)  # sqrt(0.5 * 0.125); MAP would be 0.3125
    0.25
    >>> round(geometric_mean([1.0, 0.0]), 4)  # sqrt(1 * 1e-5): the floor, not 0
    0.0032
    """
    array = np.asarray(values, dtype=float)
    if array.ndim != 1 or array.size == 0:
        raise ValueError(
            tr(
                "values must be a non-empty 1-D sequence, one per query; got shape {shape}.",
                shape=array.shape,
            )
        )
    bad = np.flatnonzero(~np.isfinite(array) | (array < 0))
    if bad.size:
        index = int(bad[0])
        raise ValueError(
            tr(
                "values[{index}] is {value}; values must be finite and >= 0.",
                index=index,
                value=array[index],
            )
        )
    if not floor > 0:
        raise ValueError(tr("floor must be > 0 (the log of 0 is -inf); got {floor}.", floor=floor))
    return math.exp(sum_in_rank_order(np.log(np.maximum(array, floor))) / array.size)


#: GMAP: trec_eval's ``gm_map``; AP per query, so only its value over queries differs.
GMAP = Declaration(
    name="GMAP",
    description=N_("AP per query, geometric mean over queries, each AP floored at 1e-5"),
    cutoff="optional",
    score=AVERAGE_PRECISION.score,
    kernel=AVERAGE_PRECISION.kernel,
    expectation=AVERAGE_PRECISION.expectation,
    trec_eval="gm_map",
    combine="gm",
    ap_type=True,
)
