"""Judgment rate (Judged@k, ir_measures' ``Judged``): how much of the top k anyone judged.

Not a measure of the run's quality but of the qrels' coverage of it: measures
that read unjudged documents as non-relevant (AP, P@k, nDCG) are only as
trustworthy as this rate is high. trec_eval has no such measure. The module also
holds its batch kernel, its tie-aware expectation and its declaration.

Which of several tied documents sit above the cutoff follows the evaluation's
``ties`` option, as for every measure. ir_measures' own Judged ranks a tie by
document id ascending (its judged provider sorts by ``(-score, doc_id)``; not
the input order): that is ``ties="ir_measures"``. The default, ``"trec_eval"``,
takes document id descending, so a tie across rank k can count other documents.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import N_
from mapteach.metrics.batch import RankedEntries, judgments, per_query, ratio
from mapteach.metrics.declaration import Declaration, Parameters
from mapteach.metrics.ties import TieGroups, sum_per_query, within_cutoff
from mapteach.metrics.validation import as_k, as_labels

__all__ = ["JUDGED", "batch_judged", "judged_at_k"]


def judged_at_k(judged: ArrayLike, k: int | None = None) -> float:
    """The share of the top ``k`` results that have a judgment in the qrels.

    As ir_measures' ``Judged@k``: the denominator is k, or the number of
    results when the list is shorter, so a short fully judged list scores 1.0;
    without ``k`` the whole list counts. An empty list scores 0.0. Any
    judgment counts, whatever its grade.

    Parameters
    ----------
    judged : sequence of {0, 1} or bool
        Whether each result, best-ranked first, has a judgment.
    k : int, optional
        Rank cutoff, ``k >= 1``.

    Returns
    -------
    float
        ``judged results in the top k / min(k, list length)``.

    Raises
    ------
    TypeError
        If ``judged`` is not a sequence or ``k`` is not an integer.
    ValueError
        If a flag is not 0/1 or ``k < 1``.

    Examples
    --------
    >>> from mapteach.metrics import judged_at_k
    >>> judged_at_k([1, 0, 1, 1, 0], 4)  # 3 of the top 4
    0.75
    >>> judged_at_k([1, 0], 10)  # a list of 2: over 2, not 10
    0.5
    >>> judged_at_k([1, 0, 1, 1, 0])  # the whole list: 3/5
    0.6
    """
    flags = as_labels(judged, name="judged")
    if k is not None:
        flags = flags[: as_k(k)]
    if flags.size == 0:
        return 0.0
    return float(flags.sum() / flags.size)


def batch_judged(entries: RankedEntries, *, k: int | None = None) -> np.ndarray:
    """Judged@k of every query: judged entries within rank k, over min(k, list length).

    Parameters
    ----------
    entries : RankedEntries
        With ``judged``.
    k : int, optional
        Rank cutoff; without it the whole list counts.

    Returns
    -------
    numpy.ndarray
        One value per query; 0.0 for an empty list.

    Raises
    ------
    ValueError
        If the entries do not carry ``judged``.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.judged import batch_judged
    >>> entries = RankedEntries.from_lists([[1, 0, 0, 2], [0]], judged=[[1, 1, 0, 1], [0]])
    >>> batch_judged(entries, k=3).round(4).tolist()  # 2 of the top 3; 0 of a list of 1
    [0.6667, 0.0]
    """
    judged, _ = judgments(entries, "Judged")
    within = judged if k is None else judged & (entries.rank <= k)
    divisor = entries.n_retrieved if k is None else np.minimum(entries.n_retrieved, k)
    return ratio(per_query(entries, entries.query[within]), divisor)


def _kernel(entries: RankedEntries, parameters: Parameters) -> np.ndarray:
    return batch_judged(entries, k=parameters.rank_cutoff)


def _expected(entries: RankedEntries, groups: TieGroups, parameters: Parameters) -> np.ndarray:
    """Expected judged rows within the cutoff over min(k, list length): each row counts
    its group's share of judged documents."""
    k = parameters.rank_cutoff
    judged, _ = judgments(entries, "Judged")
    share = np.bincount(groups.of_row, weights=judged.astype(float)) / groups.size
    found = sum_per_query(entries, np.where(within_cutoff(entries, k), share[groups.of_row], 0.0))
    divisor = entries.n_retrieved if k is None else np.minimum(entries.n_retrieved, k)
    return ratio(found, divisor)


def _score(labels: np.ndarray, r: int, k: int | None) -> float:
    # every listed document counts as judged
    return judged_at_k(np.ones(labels.size, bool), k)


#: Judged@k, as ir_measures has it; ir_measures' tie order is ``ties="ir_measures"``.
JUDGED = Declaration(
    name="Judged",
    description=N_(
        "judgment rate: share of the top k (or of a shorter list) that the qrels judge; "
        "ties as ir_measures ranks them with ties='ir_measures' (document id ascending)"
    ),
    cutoff="optional",
    score=_score,
    kernel=_kernel,
    expectation=_expected,
    reads_judged=True,
)
