"""Hit at k (Hit@k, 命中率; ir_measures' ``Success@k``): is anything relevant in the top k?"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import N_
from mapteach.metrics.batch import RankedEntries, relevant_found
from mapteach.metrics.declaration import REL, Declaration, Parameters
from mapteach.metrics.ties import TieGroups, log_comb
from mapteach.metrics.validation import as_k, as_labels

__all__ = ["SUCCESS", "batch_hit", "hit_at_k"]


def hit_at_k(labels: ArrayLike, k: int) -> float:
    """1.0 if at least one of the top ``k`` results is relevant, else 0.0.

    The metric for users who need one good answer and read no further than
    rank ``k``. Introduced in ``08_choosing_a_metric``.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    k : int
        Rank cutoff, ``k >= 1``.

    Returns
    -------
    float
        1.0 or 0.0.

    Raises
    ------
    TypeError
        If ``labels`` is not a sequence or ``k`` is not an integer.
    ValueError
        If a label is not 0/1 or ``k < 1``.

    Examples
    --------
    >>> from mapteach import hit_at_k
    >>> hit_at_k([0, 0, 1], 2)  # nothing relevant in the top 2
    0.0
    >>> hit_at_k([0, 0, 1], 3)
    1.0
    """
    y = as_labels(labels)
    k = as_k(k)
    return float(y[:k].any())


def batch_hit(entries: RankedEntries, k: int, *, threshold: int = 1) -> np.ndarray:
    """Hit@k (``Success@k``) of every query: 1.0 if a relevant entry is within rank k.

    Parameters
    ----------
    entries : RankedEntries
    k : int
        Rank cutoff.
    threshold : int, default 1
        The lowest grade that counts as relevant.

    Returns
    -------
    numpy.ndarray
        One value per query.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.hit import batch_hit
    >>> batch_hit(RankedEntries.from_lists([[0, 0, 1], [1]]), 2).tolist()
    [0.0, 1.0]
    """
    return (relevant_found(entries, threshold, k) > 0).astype(float)


def _kernel(entries: RankedEntries, parameters: Parameters) -> np.ndarray:
    return batch_hit(entries, as_k(parameters.rank_cutoff), threshold=parameters.threshold)


def _expected(entries: RankedEntries, groups: TieGroups, parameters: Parameters) -> np.ndarray:
    """1 - P(no relevant document in the top k); each group sees min(n, k - t) of its ranks.

    A group of n holding r relevant documents shows s of its ranks within the
    cutoff; none of them is relevant with probability C(n - r, s) / C(n, s).
    """
    seen = np.minimum(groups.size, as_k(parameters.rank_cutoff) - groups.above).clip(min=0)
    log_none = log_comb(groups.size - groups.hits, seen, groups.log_factorial) - log_comb(
        groups.size, seen, groups.log_factorial
    )
    log_none = np.where(seen > 0, log_none, 0.0)
    certain = np.isinf(log_none)
    impossible = np.bincount(groups.query, weights=certain, minlength=entries.n_queries)
    total = np.bincount(
        groups.query, weights=np.where(certain, 0.0, log_none), minlength=entries.n_queries
    )
    return np.where(impossible > 0, 1.0, 1.0 - np.exp(total))


def _score(labels: np.ndarray, r: int, k: int | None) -> float:
    return hit_at_k(labels, as_k(k))


#: Success@k (Hit@k): trec_eval's ``success``.
SUCCESS = Declaration(
    name="Success",
    description=N_("hit at k: 1 if any relevant document is in the top k, else 0"),
    cutoff="required",
    score=_score,
    kernel=_kernel,
    expectation=_expected,
    trec_eval_cut="success",
    aliases=("Hit",),
    params={"rel": REL},
    trec_eval_cutoffs=(1, 5, 10),
)
