"""The counts trec_eval prints beside every measure: ``num_q``, ``num_ret``, ``num_rel``,
``num_rel_ret``.

Not measures of quality but the numbers to check first: a run that retrieved
nothing for a query, or a query with no relevant document, explains many a
surprising mean. Over queries they are summed, as trec_eval and ir_measures
(NumQ, NumRet, NumRel, NumRelRet) report them: NumQ is 1 per scored query, so its sum is
the number of queries the means are taken over (trec_eval prints it for ``all`` only).
The module also holds their batch kernels and their declarations; no order of a tie
changes a count, so each kernel is its own tie-aware expectation.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import N_
from mapteach.metrics.batch import RankedEntries, relevant_found
from mapteach.metrics.declaration import Declaration, Expectation, Kernel, Parameters
from mapteach.metrics.validation import as_labels, as_n_relevant

__all__ = [
    "NUM_Q",
    "NUM_REL",
    "NUM_REL_RET",
    "NUM_RET",
    "batch_num_queries",
    "batch_num_relevant",
    "batch_num_relevant_retrieved",
    "batch_num_retrieved",
    "num_relevant",
    "num_relevant_retrieved",
    "num_retrieved",
]


def num_retrieved(labels: ArrayLike) -> int:
    """The number of results in the list (trec_eval ``num_ret``, ir_measures ``NumRet``).

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.

    Returns
    -------
    int

    Examples
    --------
    >>> from mapteach.metrics import num_retrieved
    >>> num_retrieved([1, 0, 1, 0])
    4
    """
    return int(as_labels(labels).size)


def num_relevant(labels: ArrayLike, *, n_relevant: int | None = None) -> int:
    """R, the query's relevant documents, retrieved or not (trec_eval ``num_rel``).

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    n_relevant : int, optional
        R. Default: the hits in ``labels`` (every relevant document was retrieved).

    Returns
    -------
    int

    Examples
    --------
    >>> from mapteach.metrics import num_relevant
    >>> num_relevant([1, 0, 1], n_relevant=5)  # 2 retrieved, 3 never retrieved
    5
    """
    y = as_labels(labels)
    return as_n_relevant(n_relevant, int(y.sum()))


def num_relevant_retrieved(labels: ArrayLike) -> int:
    """The relevant documents in the list (trec_eval ``num_rel_ret``).

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.

    Returns
    -------
    int

    Examples
    --------
    >>> from mapteach.metrics import num_relevant_retrieved
    >>> num_relevant_retrieved([1, 0, 1, 0])
    2
    """
    return int(as_labels(labels).sum())


def batch_num_queries(entries: RankedEntries) -> np.ndarray:
    """NumQ of every query: 1, so that the sum over queries counts them.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.counts import batch_num_queries
    >>> batch_num_queries(RankedEntries.from_lists([[1, 0, 0], []])).tolist()
    [1.0, 1.0]
    """
    return np.ones(entries.n_queries)


def batch_num_retrieved(entries: RankedEntries) -> np.ndarray:
    """NumRet of every query: the length of its list.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.counts import batch_num_retrieved
    >>> batch_num_retrieved(RankedEntries.from_lists([[1, 0, 0], []])).tolist()
    [3.0, 0.0]
    """
    return entries.n_retrieved.astype(float)


def batch_num_relevant(entries: RankedEntries) -> np.ndarray:
    """NumRel of every query: R, its relevant documents, retrieved or not.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.counts import batch_num_relevant
    >>> batch_num_relevant(RankedEntries.from_lists([[1, 0]], n_relevant=[4])).tolist()
    [4.0]
    """
    return entries.n_relevant.astype(float)


def batch_num_relevant_retrieved(entries: RankedEntries, *, threshold: int = 1) -> np.ndarray:
    """NumRelRet of every query: its relevant entries.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.counts import batch_num_relevant_retrieved
    >>> entries = RankedEntries.from_lists([[1, 0, 2], [0]], n_relevant=[4, 1])
    >>> batch_num_relevant_retrieved(entries).tolist()
    [2.0, 0.0]
    """
    return relevant_found(entries, threshold).astype(float)


def _num_queries(entries: RankedEntries, parameters: Parameters) -> np.ndarray:
    return batch_num_queries(entries)


def _num_retrieved(entries: RankedEntries, parameters: Parameters) -> np.ndarray:
    return batch_num_retrieved(entries)


def _num_relevant(entries: RankedEntries, parameters: Parameters) -> np.ndarray:
    return batch_num_relevant(entries)


def _num_relevant_retrieved(entries: RankedEntries, parameters: Parameters) -> np.ndarray:
    return batch_num_relevant_retrieved(entries, threshold=parameters.threshold)


def _order_free(kernel: Kernel) -> Expectation:
    """A count's tie-aware expectation: no order of a tie changes it, so it is the kernel."""
    return lambda entries, groups, parameters: kernel(entries, parameters)


#: NumQ: trec_eval's ``num_q``.
NUM_Q = Declaration(
    name="NumQ",
    description=N_("queries scored: 1 per query, summed over queries"),
    cutoff="none",
    score=lambda labels, r, k: 1.0,
    kernel=_num_queries,
    expectation=_order_free(_num_queries),
    trec_eval="num_q",
    combine="sum",
)

#: NumRet: trec_eval's ``num_ret``.
NUM_RET = Declaration(
    name="NumRet",
    description=N_("results retrieved, summed over queries"),
    cutoff="none",
    score=lambda labels, r, k: num_retrieved(labels),
    kernel=_num_retrieved,
    expectation=_order_free(_num_retrieved),
    trec_eval="num_ret",
    combine="sum",
)

#: NumRel: trec_eval's ``num_rel``.
NUM_REL = Declaration(
    name="NumRel",
    description=N_("R, relevant documents retrieved or not, summed over queries"),
    cutoff="none",
    score=lambda labels, r, k: num_relevant(labels, n_relevant=r),
    kernel=_num_relevant,
    expectation=_order_free(_num_relevant),
    trec_eval="num_rel",
    combine="sum",
)

#: NumRelRet: trec_eval's ``num_rel_ret``.
NUM_REL_RET = Declaration(
    name="NumRelRet",
    description=N_("relevant documents retrieved, summed over queries"),
    cutoff="none",
    score=lambda labels, r, k: num_relevant_retrieved(labels),
    kernel=_num_relevant_retrieved,
    expectation=_order_free(_num_relevant_retrieved),
    trec_eval="num_rel_ret",
    combine="sum",
)
