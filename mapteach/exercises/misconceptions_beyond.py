"""Wrong answers about the numbers beside MAP: R-precision and GMAP, computed wrongly on purpose.

The companion of :mod:`mapteach.exercises.misconceptions`, in its
:class:`~mapteach.exercises.misconceptions.Misconception` style: an exercise computes
these beside the right answer, and an answer that matches one is told which mistake
it is. Introduced in ``13_r_precision_and_other_numbers``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from mapteach.exercises.answers import WrongAnswer
from mapteach.exercises.misconceptions import Misconception
from mapteach.i18n import N_, tr
from mapteach.metrics import precision_at_k
from mapteach.metrics.gmap import GM_FLOOR
from mapteach.metrics.validation import as_labels

__all__ = [
    "GMAP_MISCONCEPTIONS",
    "RPREC_MISCONCEPTIONS",
    "arithmetic_mean_for_gmap",
    "geometric_mean_without_floor",
    "mean_log_without_exp",
    "precision_at_10_for_r_precision",
    "precision_at_hits_found",
    "precision_at_last_relevant",
    "wrong_answers",
]

Labels = Sequence[int | bool]


def precision_at_10_for_r_precision(
    labels: Labels, *, n_relevant: int | None = None, k: int | None = None
) -> float:
    """P@10 given for R-precision: the cutoff is fixed at 10 instead of the query's R.

    >>> precision_at_10_for_r_precision([1, 1, 0, 0, 0, 0, 0, 0, 0, 0], n_relevant=2)  # 2/10
    0.2
    """
    return precision_at_k(labels, 10)


def precision_at_hits_found(
    labels: Labels, *, n_relevant: int | None = None, k: int | None = None
) -> float:
    """Precision at rank h, h the relevant results the list found, instead of at rank R.

    The same as R-precision when the list found every relevant result.

    >>> precision_at_hits_found([1, 0, 1, 0], n_relevant=4)  # 2 found: P@2 = 1/2, not P@4
    0.5
    """
    y = as_labels(labels)
    hits = int(y.sum())
    return float(y[:hits].sum() / hits) if hits else 0.0


def precision_at_last_relevant(
    labels: Labels, *, n_relevant: int | None = None, k: int | None = None
) -> float:
    """Precision at the rank of the list's last relevant result, instead of at rank R.

    >>> precision_at_last_relevant([1, 0, 0, 1, 0])  # 2 hits at rank 4: 2/4; P@R = P@2 = 1/2
    0.5
    >>> precision_at_last_relevant([1, 0, 1, 0])  # 2/3, where P@2 = 1/2
    0.6666666666666666
    """
    y = as_labels(labels)
    ranks = np.flatnonzero(y) + 1
    return float(ranks.size / ranks[-1]) if ranks.size else 0.0


RPREC_MISCONCEPTIONS: tuple[Misconception, ...] = (
    Misconception(
        N_("P@10 for R-precision"),
        N_(
            "You cut the list at 10, as P@10 does. R-precision cuts each query at its own R, "
            "the number of its relevant results: at rank R a perfect list would hold every "
            "one of them, so precision and recall are equal there."
        ),
        precision_at_10_for_r_precision,
    ),
    Misconception(
        N_("cut at the hits found, not at R"),
        N_(
            "You cut the list at the number of relevant results it found. R counts every "
            "relevant result of the query, found or not: cut at rank R and divide by R."
        ),
        precision_at_hits_found,
    ),
    Misconception(
        N_("precision at the last relevant result"),
        N_(
            "You took the precision where the last relevant result appears. R-precision is "
            "the precision at a fixed rank, R, whatever lies there."
        ),
        precision_at_last_relevant,
    ),
)


def _values(values: ArrayLike) -> np.ndarray:
    array = np.asarray(values, dtype=float)
    if array.ndim != 1 or array.size == 0 or not np.isfinite(array).all() or (array < 0).any():
        raise ValueError(tr("values must be a non-empty 1-D sequence of finite values >= 0."))
    return array


def arithmetic_mean_for_gmap(values: ArrayLike) -> float:
    """The arithmetic mean of the APs given for GMAP: that is MAP.

    >>> arithmetic_mean_for_gmap([0.5, 0.125])  # MAP; GMAP is sqrt(0.5 * 0.125) = 0.25
    0.3125
    """
    return float(_values(values).mean())


def geometric_mean_without_floor(values: ArrayLike) -> float:
    """The geometric mean with no floor under the APs, so one AP of 0 makes it 0.

    >>> geometric_mean_without_floor([0.5, 0.0])
    0.0
    """
    array = _values(values)
    return float(array.prod() ** (1 / array.size))


def mean_log_without_exp(values: ArrayLike) -> float:
    """The mean of the (floored) logs of the APs, without turning it back with exp.

    >>> import math
    >>> round(mean_log_without_exp([1.0, math.exp(-2)]), 4)
    -1.0
    """
    return float(np.log(np.maximum(_values(values), GM_FLOOR)).mean())


GMAP_MISCONCEPTIONS: tuple[Misconception, ...] = (
    Misconception(
        N_("the arithmetic mean (MAP)"),
        N_(
            "You added the APs and divided by their number: that is MAP. GMAP multiplies "
            "them and takes the n-th root (the exponential of the mean of their logs), so a "
            "query near 0 pulls it down far more than it pulls MAP."
        ),
        arithmetic_mean_for_gmap,
    ),
    Misconception(
        N_("no floor under a zero AP"),
        N_(
            "One AP is 0, and you let it make the product 0. trec_eval's gm_map first raises "
            "every AP below 0.00001 to 0.00001, so a failed query costs a lot, not everything."
        ),
        geometric_mean_without_floor,
    ),
    Misconception(
        N_("mean of the logs, not exponentiated"),
        N_(
            "You stopped at the mean of the logs. GMAP is the exponential of that mean, "
            "a number between the smallest and the largest AP."
        ),
        mean_log_without_exp,
    ),
)


def wrong_answers(
    misconceptions: Sequence[Misconception], *args: Any, **kwargs: Any
) -> list[WrongAnswer]:
    """Each misconception's (name, value, explanation) on one question, for ``NumberExercise``.

    The arguments are those of the misconceptions' ``compute``. Name and explanation
    stay English messages: the feedback translates them when it is given.

    Examples
    --------
    >>> from mapteach.exercises import RPREC_MISCONCEPTIONS, wrong_answers
    >>> for name, value, _ in wrong_answers(RPREC_MISCONCEPTIONS, [1, 0, 1]):  # R-precision 1/2
    ...     print(f"{name}: {value:.4f}")
    P@10 for R-precision: 0.2000
    cut at the hits found, not at R: 0.5000
    precision at the last relevant result: 0.6667
    """
    return [(m.name, m.compute(*args, **kwargs), m.explanation) for m in misconceptions]
