"""Tie-aware measures: the exact expectation over every order of each group of tied scores.

McSherry and Najork (ECIR 2008): when a system gives several documents the same
score, it has not ranked them, so any order among them is equally likely. The
tie-aware value of a measure is its mean over all those orders. By linearity of
expectation it has a closed form; no permutation is enumerated or sampled.

For a tie group occupying ranks t+1 .. t+n, holding r relevant documents, with
h relevant documents ranked above it, the document at rank t+i is relevant with
probability r/n, and if it is, the hits up to it are expected to be
h + 1 + (i-1)(r-1)/(n-1). So its expected share of AP's sum is
(r/n) (h + 1 + (i-1)(r-1)/(n-1)) / (t+i). Introduced in ``09_why_maps_disagree``.

R-precision and Judged@k are linear too: each row counts its group's share of
relevant (judged) documents. The counts do not depend on the order. Bpref has
no closed form here: ``min(n, R)`` is not linear in the order.

Each measure's expectation lives in its own module and is named in its
declaration; what they share is here: the tie groups (:class:`TieGroups`),
binomial coefficients from a table of log-factorials built with ``math.lgamma``
(so this floor needs numpy and the standard library only), and
:func:`expected_scores`, which calls each measure's expectation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from mapteach.metrics.batch import RankedEntries, at_threshold
from mapteach.metrics.options import Denominator
from mapteach.metrics.validation import check_choice

if TYPE_CHECKING:
    from mapteach.metrics.names import Measure

__all__ = [
    "TieGroups",
    "expected_found",
    "expected_scores",
    "log_comb",
    "sum_per_query",
    "within_cutoff",
]


def _log_factorials(n_max: int) -> np.ndarray:
    """log(n!) for n = 0 .. n_max, each from ``math.lgamma`` (a few ulp from exact)."""
    return np.array([math.lgamma(n + 1.0) for n in range(n_max + 1)])


def log_comb(n: np.ndarray, k: np.ndarray, log_factorial: np.ndarray) -> np.ndarray:
    """log C(n, k) for whole numbers 0 <= n < len(log_factorial); -inf where k < 0 or k > n.

    Examples
    --------
    >>> import math
    >>> import numpy as np
    >>> from mapteach.metrics.ties import log_comb
    >>> table = np.array([math.lgamma(n + 1.0) for n in range(5)])
    >>> np.exp(log_comb(np.array([4, 4, 2]), np.array([2, 0, 3]), table)).round(6).tolist()
    [6.0, 1.0, 0.0]
    """
    n, k = np.broadcast_arrays(np.asarray(n).astype(np.int64), np.asarray(k).astype(np.int64))
    valid = (k >= 0) & (k <= n)
    out = np.full(n.shape, -np.inf)
    n, k = n[valid], k[valid]
    out[valid] = log_factorial[n] - log_factorial[k] - log_factorial[n - k]
    return out


@dataclass(frozen=True)
class TieGroups:
    """The tie groups of a run: runs of equal scores inside one query.

    ``of_row`` maps each row to its group; the other arrays have one value per
    group: its query, size n, relevant documents r, ranks above it t, relevant
    documents ranked above it h, and mean gain. ``log_factorial`` holds log(n!)
    up to the largest group, for :func:`log_comb`.

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.ties import TieGroups
    >>> entries = RankedEntries.from_lists([[1, 0, 1, 1]])
    >>> groups = TieGroups.of(entries, np.array([3.0, 2.0, 2.0, 1.0]), threshold=1)
    >>> groups.size.tolist(), groups.hits.tolist(), groups.above.tolist()
    ([1.0, 2.0, 1.0], [1.0, 1.0, 1.0], [0, 1, 3])
    """

    of_row: np.ndarray
    query: np.ndarray
    size: np.ndarray
    hits: np.ndarray
    above: np.ndarray
    hits_above: np.ndarray
    mean_gain: np.ndarray
    log_factorial: np.ndarray

    @classmethod
    def of(cls, entries: RankedEntries, score: np.ndarray, *, threshold: int) -> TieGroups:
        """Group the rows of ``entries`` (sorted by query, score descending) by tied score."""
        relevant = (entries.grade >= threshold).astype(float)
        query = entries.query
        new_group = np.ones(query.size, bool)
        new_group[1:] = (query[1:] != query[:-1]) | (score[1:] != score[:-1])
        group = np.cumsum(new_group) - 1
        size = np.bincount(group).astype(float)
        start = np.flatnonzero(new_group)
        above = entries.rank[start] - 1
        running = np.r_[0.0, np.cumsum(relevant)]
        return cls(
            of_row=group,
            query=query[start],
            size=size,
            hits=np.bincount(group, weights=relevant),
            above=above,
            hits_above=running[start] - running[start - above],
            mean_gain=np.bincount(group, weights=np.maximum(entries.grade, 0.0)) / size,
            log_factorial=_log_factorials(int(size.max(initial=0))),
        )

    def offset(self, rank: np.ndarray) -> np.ndarray:
        """i: each row's 1-based place inside its group."""
        return rank - self.above[self.of_row]

    def p_relevant(self) -> np.ndarray:
        """r / n: each row's chance of holding a relevant document."""
        return self.hits[self.of_row] / self.size[self.of_row]


def sum_per_query(entries: RankedEntries, weights: np.ndarray) -> np.ndarray:
    """Add each row's ``weights`` per query (as floats, even for a run with no rows).

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.ties import sum_per_query
    >>> sum_per_query(RankedEntries.from_lists([[1, 0], [1]]), np.array([0.5, 0.25, 1.0]))
    array([0.75, 1.  ])
    """
    sums = np.bincount(entries.query, weights=weights, minlength=entries.n_queries)
    return sums.astype(float, copy=False)


def within_cutoff(entries: RankedEntries, k: int | np.ndarray | None) -> np.ndarray:
    """Whether each row is within the cutoff: one ``k``, or one per row.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.ties import within_cutoff
    >>> within_cutoff(RankedEntries.from_lists([[1, 0, 1]]), 2).tolist()
    [True, True, False]
    """
    return np.ones(entries.rank.size, bool) if k is None else entries.rank <= k


def expected_found(
    entries: RankedEntries, groups: TieGroups, k: int | np.ndarray | None
) -> np.ndarray:
    """Expected relevant documents within the cutoff: each row counts r / n.

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.ties import TieGroups, expected_found
    >>> entries = RankedEntries.from_lists([[1, 0, 0, 1]])
    >>> groups = TieGroups.of(entries, np.ones(4), threshold=1)  # all four tied
    >>> expected_found(entries, groups, 2).tolist()  # 2 ranks x 2/4
    [1.0]
    """
    return sum_per_query(entries, np.where(within_cutoff(entries, k), groups.p_relevant(), 0.0))


def expected_scores(
    entries: RankedEntries,
    score: np.ndarray,
    measures: Sequence[Measure],
    *,
    threshold: int = 1,
    denominator: Denominator = "relevant",
) -> dict[str, np.ndarray]:
    """Tie-aware expected value of each measure, per query.

    Each measure is scored by the expectation its declaration names.

    Parameters
    ----------
    entries : RankedEntries
        Every retrieved document, unjudged ones included (a tie group's size
        counts them), sorted by (query, score descending); ties in any order.
    score : numpy.ndarray
        The score of each entry, aligned with ``entries``.
    measures : sequence of Measure
        Parsed measures.
    threshold : int, default 1
        The lowest grade that counts as relevant.
    denominator : {"relevant", "min_relevant_k"}, default "relevant"
        What AP-type measures divide by; both are fixed whatever the order of a
        tie ("retrieved" is not: it counts hits that the order moves in or out).

    Returns
    -------
    dict of str to numpy.ndarray
        One array of per-query expected values per measure, keyed by its name.

    Raises
    ------
    ValueError
        If ``denominator`` is not one of the two, or a measure (Bpref) has no
        tie-aware expectation.

    Examples
    --------
    Two relevant documents among four tied ones, averaged over the 6 placements; the
    first relevant one is at rank 1, 2 or 3 with probability 1/2, 1/3, 1/6:

    >>> import numpy as np
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics import parse_measure
    >>> from mapteach.metrics.ties import expected_scores
    >>> entries = RankedEntries.from_lists([[1, 1, 0, 0]])
    >>> tied = np.ones(4)
    >>> scores = expected_scores(entries, tied, [parse_measure("AP"), parse_measure("RR")])
    >>> {name: values.round(4).tolist() for name, values in scores.items()}
    {'AP': [0.6806], 'RR': [0.7222]}
    """
    check_choice(denominator, ("relevant", "min_relevant_k"), name="denominator")
    groups = TieGroups.of(entries, score, threshold=threshold)
    scores = {}
    for measure in measures:
        parameters = measure.parameters(threshold=threshold, denominator=denominator)
        if parameters.own_threshold:  # P(rel=2)@10: its own R and its own tie groups
            own = at_threshold(entries, parameters.threshold)
            own_groups = TieGroups.of(own, score, threshold=parameters.threshold)
            scores[measure.name] = measure.declaration.expectation(own, own_groups, parameters)
        else:
            scores[measure.name] = measure.declaration.expectation(entries, groups, parameters)
    return scores
