"""Expected reciprocal rank (ERR@k, 预期倒数排名): a user who stops at the first satisfying result.

Chapelle et al. (2009), as ir_measures computes it (its ``gdeval`` provider, TREC
Web track's ``gdeval.pl``): the document at rank i satisfies the user with
probability R_i = (2^grade - 1) / 2^4, the user reads on with probability 1 - R_i,
and stopping at rank i is worth 1/i. The maximum grade, 4, is gdeval's: a grade
above it would give a probability above 1. The module also holds ERR's batch
kernel and its declaration.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import N_, tr
from mapteach.metrics.batch import RankedEntries, ranks_within
from mapteach.metrics.declaration import Declaration, Parameters
from mapteach.metrics.ties import TieGroups
from mapteach.metrics.validation import as_gains, as_k

__all__ = ["ERR", "ERR_MAX_GRADE", "batch_err", "expected_reciprocal_rank"]

#: The highest grade ERR reads (gdeval.pl's ``$MAX_JUDGMENT``): R = (2^grade - 1) / 2^4.
ERR_MAX_GRADE = 4


def _stop_probability(grades: np.ndarray) -> np.ndarray:
    """R of each grade, (2^grade - 1) / 2^max; raise for a grade above the maximum."""
    if grades.size and grades.max() > ERR_MAX_GRADE:
        raise ValueError(
            tr(
                "ERR reads grades up to {maximum} (as gdeval.pl does); got a grade of {grade:g}.",
                maximum=ERR_MAX_GRADE,
                grade=float(grades.max()),
            )
        )
    return (np.exp2(grades) - 1.0) / 2.0**ERR_MAX_GRADE


def expected_reciprocal_rank(grades: ArrayLike, k: int | None = None) -> float:
    """ERR (or ERR@k): the expected 1/rank at which a cascading user stops.

    ERR = sum over ranks i of R_i / i x prod over j < i of (1 - R_j), where
    R = (2^grade - 1) / 16. Unlike RR, a grade-1 document satisfies only 1 user in
    16, so the documents below it still count; a grade-4 document satisfies 15
    in 16.

    Parameters
    ----------
    grades : sequence of float
        Graded relevance of each result, best-ranked first; 0 to 4.
    k : int, optional
        Rank cutoff, ``k >= 1``; without it the whole list counts.

    Returns
    -------
    float
        ERR in [0, 1).

    Raises
    ------
    TypeError
        If ``grades`` is not a numeric sequence or ``k`` not an integer.
    ValueError
        If a grade is negative, not finite or above 4, or ``k < 1``.

    Examples
    --------
    >>> from mapteach.metrics.err import expected_reciprocal_rank
    >>> expected_reciprocal_rank([4])  # 15/16 of users stop at rank 1
    0.9375
    >>> expected_reciprocal_rank([1, 4], k=2)  # 1/16 + (15/16) x (15/16) / 2
    0.501953125
    """
    g = as_gains(grades, name="grades")
    if k is not None:
        g = g[: as_k(k)]
    score, decay = 0.0, 1.0
    for rank, stop in enumerate(_stop_probability(g), start=1):
        if stop > 0.0:
            score += stop * decay / rank
            decay *= 1.0 - stop
    return float(score)


def batch_err(entries: RankedEntries, *, k: int | None = None) -> np.ndarray:
    """ERR (or ERR@k) of every query, bit-identical to :func:`expected_reciprocal_rank`.

    The positively graded entries of all queries are walked at once: step j adds
    every query's j-th such entry, in rank order as the scalar does.

    Parameters
    ----------
    entries : RankedEntries
    k : int, optional
        Rank cutoff.

    Returns
    -------
    numpy.ndarray
        One value per query.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.err import batch_err
    >>> batch_err(RankedEntries.from_lists([[1, 4], [0, 4]]), k=2).tolist()
    [0.501953125, 0.46875]
    """
    keep = entries.grade > 0 if k is None else (entries.grade > 0) & (entries.rank <= k)
    query, rank = entries.query[keep], entries.rank[keep].astype(float)
    stop = _stop_probability(entries.grade[keep])
    step = ranks_within(query, entries.n_queries)
    score, decay = np.zeros(entries.n_queries), np.ones(entries.n_queries)
    for j in range(1, int(step.max(initial=0)) + 1):
        at = step == j
        q = query[at]
        score[q] += stop[at] * decay[q] / rank[at]
        decay[q] *= 1.0 - stop[at]
    return score


def _kernel(entries: RankedEntries, parameters: Parameters) -> np.ndarray:
    return batch_err(entries, k=parameters.rank_cutoff)


def _no_expectation(
    entries: RankedEntries, groups: TieGroups, parameters: Parameters
) -> np.ndarray:
    raise ValueError(
        tr(
            "ERR has no tie-aware expectation here (its cascade multiplies the chances of "
            "the documents above, which is not linear in the order of a tie); score it with "
            "another ties option, such as 'trec_eval'."
        )
    )


def _score(labels: np.ndarray, r: int, k: int | None) -> float:
    return expected_reciprocal_rank(labels, k)


#: ERR@k, as ir_measures has it (its gdeval provider).
ERR = Declaration(
    name="ERR",
    description=N_(
        "expected reciprocal rank: the 1/rank where a user stops, each result stopping "
        "(2^grade - 1)/16 of the users who reach it"
    ),
    cutoff="optional",
    score=_score,
    kernel=_kernel,
    expectation=_no_expectation,
)
