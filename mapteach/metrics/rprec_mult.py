"""Precision at multiples of R (RprecMult@m, trec_eval ``Rprec_mult``): P at rank m x R.

R-precision measures every query at its own milestone, rank R; Rprec_mult moves
the milestone to 0.2 R, 0.4 R, ..., 2 R, to tell a precision-oriented method
(better at the low multiples) from a recall-oriented one. As trec_eval computes it,
quirk included: the rank is ``(long)(m x R + 0.9)`` in doubles, so a fraction of
0.1 or more rounds up (0.2 x 3 = 0.6 is rank 1), and 0.0 when that rank is 0 (R = 0).
The module also holds the batch kernel, the tie-aware expectation and the
declaration.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import N_, tr
from mapteach.metrics.batch import RankedEntries, ratio, relevant_found
from mapteach.metrics.curves import hits_at_levels
from mapteach.metrics.declaration import REL, Declaration, Parameters
from mapteach.metrics.ties import TieGroups, expected_found
from mapteach.metrics.validation import as_labels, as_n_relevant

__all__ = ["RPREC_MULT", "batch_rprec_mult", "rprec_mult", "rprec_mult_rank"]

#: trec_eval's multiples of R for ``Rprec_mult`` given with none: 0.2, 0.4, ..., 2.0.
RPREC_MULT_LEVELS: tuple[float, ...] = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)


def rprec_mult_rank(multiple: float, n_relevant: ArrayLike) -> np.ndarray:
    """The rank trec_eval measures precision at: ``(long)(multiple x R + 0.9)``.

    Examples
    --------
    >>> from mapteach.metrics.rprec_mult import rprec_mult_rank
    >>> rprec_mult_rank(0.2, [3, 5, 0]).tolist()  # 0.6 + 0.9, 1.0 + 0.9, 0 + 0.9
    [1, 1, 0]
    """
    return hits_at_levels(multiple, n_relevant, convention="trec_eval_9")


def _check_multiple(multiple: float) -> float:
    if isinstance(multiple, bool) or not isinstance(multiple, (int, float, np.number)):
        raise TypeError(tr("multiple must be a number > 0; got {value!r}.", value=multiple))
    if not np.isfinite(multiple) or multiple <= 0:
        raise ValueError(tr("multiple must be a number > 0; got {value!r}.", value=multiple))
    return float(multiple)


def rprec_mult(labels: ArrayLike, multiple: float, *, n_relevant: int | None = None) -> float:
    """Precision at rank ``(long)(multiple x R + 0.9)``, as trec_eval's ``Rprec_mult``.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    multiple : float
        The multiple of R, > 0 (1.0 is R-precision).
    n_relevant : int, optional
        R, the query's total relevant documents. Default: the hits in ``labels``.

    Returns
    -------
    float
        Relevant results in the top c, over c (c past the list's end too, as P@k);
        0.0 when c = 0.

    Raises
    ------
    TypeError, ValueError
        As :func:`mapteach.precision_at_k`; ``ValueError`` also for a multiple <= 0.

    Examples
    --------
    R = 4: 0.5 x 4 + 0.9 = 2.9, so rank 2; 1.5 x 4 + 0.9 = 6.9, so rank 6.

    >>> from mapteach.metrics.rprec_mult import rprec_mult
    >>> rprec_mult([1, 0, 1, 1], 0.5, n_relevant=4)  # 1 relevant in the top 2
    0.5
    >>> rprec_mult([1, 0, 1, 1], 1.5, n_relevant=4)  # 3 in the top 6, the list has 4
    0.5
    """
    y = as_labels(labels)
    r = as_n_relevant(n_relevant, int(y.sum()))
    rank = int(rprec_mult_rank(_check_multiple(multiple), r))
    return float(y[:rank].sum() / rank) if rank else 0.0


def batch_rprec_mult(
    entries: RankedEntries,
    multiple: float,
    *,
    threshold: int = 1,
    n_relevant: ArrayLike | None = None,
) -> np.ndarray:
    """RprecMult@multiple of every query: :func:`rprec_mult` at once.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.rprec_mult import batch_rprec_mult
    >>> entries = RankedEntries.from_lists([[1, 0, 1, 1], [0]], n_relevant=[4, 0])
    >>> batch_rprec_mult(entries, 0.5).tolist()
    [0.5, 0.0]
    """
    r = entries.n_relevant if n_relevant is None else np.asarray(n_relevant)
    rank = rprec_mult_rank(_check_multiple(multiple), r)
    return ratio(relevant_found(entries, threshold, rank).astype(float), rank)


def _multiple(k: int | float | None) -> float:
    if k is None:
        raise ValueError(tr("RprecMult needs a multiple of R, such as 'RprecMult@0.2'."))
    return _check_multiple(k)


def _kernel(entries: RankedEntries, parameters: Parameters) -> np.ndarray:
    return batch_rprec_mult(
        entries,
        _multiple(parameters.k),
        threshold=parameters.threshold,
        n_relevant=parameters.n_relevant(entries),
    )


def _expected(entries: RankedEntries, groups: TieGroups, parameters: Parameters) -> np.ndarray:
    """Expected relevant documents within each query's rank (long)(m R + 0.9), over that rank."""
    parameters.check_expected("RprecMult")
    rank = rprec_mult_rank(_multiple(parameters.k), entries.n_relevant)
    return ratio(expected_found(entries, groups, rank[entries.query]), rank)


def _score(labels: np.ndarray, r: int, k: int | None) -> float:
    return rprec_mult(labels, _multiple(k), n_relevant=r)


#: RprecMult@m: trec_eval's ``Rprec_mult``.
RPREC_MULT = Declaration(
    name="RprecMult",
    description=N_(
        "precision at rank m x R (trec_eval: (long)(m x R + 0.9)), m a multiple such as 0.2"
    ),
    cutoff="required",
    score=_score,
    kernel=_kernel,
    expectation=_expected,
    trec_eval_cut="Rprec_mult",
    params={"rel": REL},
    cutoff_kind="level",
    trec_eval_cutoffs=RPREC_MULT_LEVELS,
)
