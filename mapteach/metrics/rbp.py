"""Rank-biased precision (RBP, 秩偏精确率): a user who reads on from each rank with chance p.

Moffat and Zobel (2008), as ir_measures has it: RBP = (1 - p) x sum over ranks i
of gain_i x p^(i - 1). The user reads rank 1, and from each rank reads the next
with probability p (the persistence), so rank i is read with probability
p^(i - 1); 1 - p scales the expected gain per rank read into [0, 1]. With
``rel`` the gain is 1 for a grade >= rel and 0 otherwise (ir_measures'
``RBP(rel=2)``, its cwl_eval provider); without it the gain is the grade itself
(ir_measures' ``RBP``, its trectools provider), so RBP can exceed 1 on graded
qrels. trec_eval's ``rbp`` is another measure: p = 0.9 by default, grades
rescaled into [0, 1] from bounds it leaves uninitialised (m_rbp.c), so it has no
trec_eval name here. The module also holds RBP's batch kernel, its tie-aware
expectation (exact: RBP is linear in the weights of the ranks) and its declaration.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import N_, tr
from mapteach.metrics.batch import RankedEntries, per_query
from mapteach.metrics.declaration import Declaration, Param, Parameters
from mapteach.metrics.ties import TieGroups, sum_per_query, within_cutoff
from mapteach.metrics.validation import as_gains, as_k

__all__ = ["RBP", "RBP_PERSISTENCE", "batch_rbp", "rank_biased_precision"]

#: ir_measures' default persistence: a user reads on from a rank 4 times in 5.
RBP_PERSISTENCE = 0.8


def _persistence(p: Any) -> float:
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0.0 < p < 1.0:
        raise ValueError(tr("RBP's persistence p must be a number with 0 < p < 1; got {p!r}.", p=p))
    return float(p)


def rank_biased_precision(
    gains: ArrayLike, *, p: float = RBP_PERSISTENCE, k: int | None = None
) -> float:
    """RBP with persistence ``p``: (1 - p) x the sum of gain_i x p^(i - 1).

    Parameters
    ----------
    gains : sequence of float
        The gain of each result, best-ranked first: 0/1 labels, or grades; >= 0.
    p : float, default 0.8
        Persistence, 0 < p < 1: the chance that a user reads on from each rank.
    k : int, optional
        Rank cutoff, ``k >= 1``; without it the whole list counts.

    Returns
    -------
    float
        RBP; in [0, 1) for 0/1 gains.

    Raises
    ------
    TypeError
        If ``gains`` is not a numeric sequence or ``k`` not an integer.
    ValueError
        If a gain is negative or not finite, ``p`` is not in (0, 1), or ``k < 1``.

    Examples
    --------
    >>> from mapteach.metrics.rbp import rank_biased_precision
    >>> round(rank_biased_precision([1, 0, 1]), 4)  # 0.2 x (1 + 0.8^2)
    0.328
    >>> round(rank_biased_precision([1, 0, 1], p=0.5), 4)  # 0.5 x (1 + 0.25)
    0.625
    """
    g = as_gains(gains)
    persistence = _persistence(p)
    if k is not None:
        g = g[: as_k(k)]
    rank = np.flatnonzero(g > 0) + 1
    weighted = g[rank - 1] * np.power(persistence, rank - 1.0)
    return float((1.0 - persistence) * np.cumsum(weighted)[-1]) if rank.size else 0.0


def _gains(grade: np.ndarray, parameters: Parameters) -> np.ndarray:
    """Each entry's gain: 1 at the threshold (``rel`` given), else the grade itself."""
    if parameters.params.get("rel") is None:
        return np.maximum(grade, 0.0)
    return (grade >= parameters.threshold).astype(float)


def batch_rbp(
    entries: RankedEntries, *, p: float = RBP_PERSISTENCE, k: int | None = None, gains: ArrayLike
) -> np.ndarray:
    """RBP of every query from each entry's ``gains``, bit-identical to the scalar.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.rbp import batch_rbp
    >>> entries = RankedEntries.from_lists([[1, 0, 1], [0, 2]])
    >>> batch_rbp(entries, gains=entries.grade).round(4).tolist()  # 0.2 x 2 x 0.8
    [0.328, 0.32]
    """
    persistence = _persistence(p)
    gain = np.asarray(gains, dtype=float)
    keep = gain > 0 if k is None else (gain > 0) & (entries.rank <= k)
    weighted = gain[keep] * np.power(persistence, entries.rank[keep] - 1.0)
    return (1.0 - persistence) * per_query(entries, entries.query[keep], weighted)


def _kernel(entries: RankedEntries, parameters: Parameters) -> np.ndarray:
    k = parameters.rank_cutoff
    gains = _gains(entries.grade, parameters)
    return batch_rbp(entries, p=parameters.params["p"], k=k, gains=gains)


def _expected(entries: RankedEntries, groups: TieGroups, parameters: Parameters) -> np.ndarray:
    """Each row holds its group's mean gain: RBP is linear in the gains of the ranks."""
    p = _persistence(parameters.params["p"])
    mean_gain = np.bincount(groups.of_row, weights=_gains(entries.grade, parameters)) / groups.size
    weighted = mean_gain[groups.of_row] * np.power(p, entries.rank - 1.0)
    return (1.0 - p) * sum_per_query(
        entries, np.where(within_cutoff(entries, parameters.rank_cutoff), weighted, 0.0)
    )


def _score(labels: np.ndarray, r: int, k: int | None, *, p: float = RBP_PERSISTENCE) -> float:
    return rank_biased_precision(labels, p=p, k=k)


_PARAMS: Mapping[str, Param] = {
    "p": Param(
        RBP_PERSISTENCE,
        "float",
        description=N_("persistence: the chance a user reads on from each rank, 0 < p < 1"),
    ),
    "rel": Param(
        None,
        "int",
        description=N_(
            "the lowest grade that counts, with gain 1; without it, the grade is the gain"
        ),
        minimum=1,
    ),
}

#: RBP, as ir_measures has it.
RBP = Declaration(
    name="RBP",
    description=N_(
        "rank-biased precision: (1 - p) x the gain of each rank, rank i read with chance p^(i-1)"
    ),
    cutoff="optional",
    score=_score,
    kernel=_kernel,
    expectation=_expected,
    params=_PARAMS,
)
