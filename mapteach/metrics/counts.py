"""The counts trec_eval prints beside every measure: ``num_ret``, ``num_rel``, ``num_rel_ret``.

Not measures of quality but the numbers to check first: a run that retrieved
nothing for a query, or a query with no relevant document, explains many a
surprising mean. Over queries they are summed, as trec_eval and ir_measures
(NumRet, NumRel, NumRelRet) report them.
"""

from __future__ import annotations

from numpy.typing import ArrayLike

from mapteach.metrics._validation import as_labels, as_n_relevant

__all__ = ["num_relevant", "num_relevant_retrieved", "num_retrieved"]


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
