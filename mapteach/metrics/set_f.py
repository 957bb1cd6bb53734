"""Set F (SetF, trec_eval ``set_F``): the weighted harmonic mean of set precision and set recall.

F_beta = (beta + 1) P R / (beta P + R), with P and R the set precision and set
recall of everything retrieved (van Rijsbergen's E measure, as trec_eval writes
it): beta weighs recall against precision, 1 by default. Note trec_eval's form:
its ``beta`` is the weight itself, where the textbook F_b writes b squared. The
module also holds SetF's batch kernel and its declaration; no order of a tie
changes a set, so the kernel is its own tie-aware expectation.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import N_, tr
from mapteach.metrics.batch import RankedEntries, relevant_found
from mapteach.metrics.declaration import REL, Declaration, Param, Parameters
from mapteach.metrics.ties import TieGroups
from mapteach.metrics.validation import as_labels, as_n_relevant

__all__ = ["SET_F", "batch_set_f", "set_f"]


def _as_beta(beta: float) -> float:
    if isinstance(beta, bool) or not isinstance(beta, (int, float, np.floating, np.integer)):
        raise TypeError(tr("beta must be a number >= 0; got {beta!r}.", beta=beta))
    if not np.isfinite(beta) or beta < 0:
        raise ValueError(tr("beta must be a number >= 0; got {beta!r}.", beta=beta))
    return float(beta)


def _f_measure(found: np.ndarray, retrieved: np.ndarray, r: np.ndarray, beta: float) -> np.ndarray:
    """(beta + 1) P R / (beta P + R) where something relevant was found, else 0, in C's order."""
    some = found > 0
    precision = found / np.where(some, retrieved, 1)
    recall = found / np.where(some, r, 1)
    weighted = np.where(some, beta * precision + recall, 1.0)  # > 0 where something is found
    return np.where(some, (beta + 1.0) * precision * recall / weighted, 0.0)


def set_f(labels: ArrayLike, *, n_relevant: int | None = None, beta: float = 1.0) -> float:
    """Set F of one list, as trec_eval's ``set_F``: (beta + 1) P R / (beta P + R).

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result; the order does not matter.
    n_relevant : int, optional
        R, the query's relevant documents, retrieved or not. Default: the hits in ``labels``.
    beta : float, default 1.0
        The weight of recall against precision, >= 0; 0 gives set precision.

    Returns
    -------
    float
        0.0 when nothing relevant was retrieved.

    Raises
    ------
    TypeError
        If an argument has the wrong type.
    ValueError
        If a label is not 0/1, R is too small, or ``beta`` is negative.

    Examples
    --------
    >>> from mapteach.metrics.set_f import set_f
    >>> set_f([1, 1, 0, 0], n_relevant=2)  # P = 1/2, R = 1: 2 x 1/2 x 1 / (1/2 + 1)
    0.6666666666666666
    >>> round(set_f([1, 1, 0, 0], n_relevant=2, beta=0.5), 4)  # 1.5 x 1/2 / (1/4 + 1)
    0.6
    """
    y = as_labels(labels)
    r = as_n_relevant(n_relevant, int(y.sum()))
    weight = _as_beta(beta)
    found = np.array([y.sum()])
    return float(_f_measure(found, np.array([y.size]), np.array([r]), weight)[0])


def batch_set_f(
    entries: RankedEntries,
    *,
    beta: float = 1.0,
    threshold: int = 1,
    n_relevant: ArrayLike | None = None,
) -> np.ndarray:
    """SetF of every query: :func:`set_f` at once.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.set_f import batch_set_f
    >>> batch_set_f(RankedEntries.from_lists([[1, 1, 0, 0], [0]], n_relevant=[2, 1])).tolist()
    [0.6666666666666666, 0.0]
    """
    r = entries.n_relevant if n_relevant is None else np.asarray(n_relevant)
    found = relevant_found(entries, threshold)
    return _f_measure(found, entries.n_retrieved, r, _as_beta(beta))


def _kernel(entries: RankedEntries, parameters: Parameters) -> np.ndarray:
    return batch_set_f(
        entries,
        beta=parameters.params.get("beta", 1.0),
        threshold=parameters.threshold,
        n_relevant=parameters.n_relevant(entries),
    )


def _expected(entries: RankedEntries, groups: TieGroups, parameters: Parameters) -> np.ndarray:
    return _kernel(entries, parameters)


def _score(labels: np.ndarray, r: int, k: int | None, *, beta: float) -> float:
    return set_f(labels, n_relevant=r, beta=beta)


#: SetF: trec_eval's ``set_F``.
SET_F = Declaration(
    name="SetF",
    description=N_("set F: (beta + 1) P R / (beta P + R) of set precision P and set recall R"),
    cutoff="none",
    score=_score,
    kernel=_kernel,
    expectation=_expected,
    trec_eval="set_F",
    params={
        "rel": REL,
        "beta": Param(
            1.0,
            "float",
            description=N_("the weight of recall against precision"),
            trec_eval_suffix=True,
        ),
    },
)
