"""Binary preference (bpref): how often judged relevant documents precede judged non-relevant ones.

Buckley and Voorhees (SIGIR 2004) built bpref for incomplete judgments: it reads
only judged documents, so a run is not punished for retrieving documents nobody
judged. This is trec_eval's ``bpref``. The module also holds bpref's batch kernel
and its declaration; it has no tie-aware expectation.
"""

from __future__ import annotations

import numbers

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import N_, tr
from mapteach.metrics._sums import sum_in_rank_order
from mapteach.metrics.batch import RankedEntries, judgments, per_query, ratio
from mapteach.metrics.declaration import REL, Declaration, Parameters
from mapteach.metrics.ties import TieGroups
from mapteach.metrics.validation import as_labels, as_n_relevant

__all__ = ["BPREF", "batch_bpref", "bpref"]


def _judged_flags(judged: ArrayLike | None, y: np.ndarray) -> np.ndarray:
    """The judged flag of each rank (default: every rank), checked against the labels."""
    if judged is None:
        return np.ones(y.size, bool)
    flags = as_labels(judged, name="judged")
    if flags.size != y.size:
        raise ValueError(
            tr(
                "judged has {flags} flags for {labels} labels; give one flag per rank.",
                flags=flags.size,
                labels=y.size,
            )
        )
    unjudged_hits = np.flatnonzero(y & ~flags)
    if unjudged_hits.size:
        index = int(unjudged_hits[0])
        raise ValueError(
            tr(
                "labels[{index}] (rank {rank}) is relevant but judged[{index}] is False; "
                "a relevant document is judged.",
                index=index,
                rank=index + 1,
            )
        )
    return flags


def _n_nonrelevant(n_nonrelevant: int | None, in_list: int) -> int:
    """N, the judged non-relevant documents of the query, defaulting to those in the list."""
    if n_nonrelevant is None:
        return in_list
    if isinstance(n_nonrelevant, (bool, np.bool_)) or not isinstance(
        n_nonrelevant, numbers.Integral
    ):
        raise TypeError(
            tr(
                "n_nonrelevant must be a whole number (the query's judged non-relevant "
                "documents, retrieved or not) or None; got {value!r}.",
                value=n_nonrelevant,
            )
        )
    if n_nonrelevant < in_list:
        raise ValueError(
            tr(
                "n_nonrelevant={value} is smaller than the {in_list} judged non-relevant "
                "documents in the ranked list; N counts every judged non-relevant document of "
                "the query, retrieved or not.",
                value=n_nonrelevant,
                in_list=in_list,
            )
        )
    return int(n_nonrelevant)


def bpref(
    labels: ArrayLike,
    *,
    judged: ArrayLike | None = None,
    n_relevant: int | None = None,
    n_nonrelevant: int | None = None,
) -> float:
    """Binary preference of one ranked list, as trec_eval's ``bpref``.

    For each relevant document retrieved, count n, the judged non-relevant
    documents ranked above it; it scores 1 - min(n, R) / min(N, R), where R is
    the query's relevant documents and N its judged non-relevant ones (both
    retrieved or not), and 1 when n = 0. bpref is the sum over R. Unjudged
    documents are skipped: they are neither relevant nor non-relevant. A query
    with R = 0 scores 0.0.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    judged : sequence of {0, 1} or bool, optional
        Whether each result has a judgment (a trec_eval grade >= 0). Default:
        every result is judged, so every 0 is judged non-relevant.
    n_relevant : int, optional
        R, the query's total relevant documents. Default: the hits in ``labels``.
    n_nonrelevant : int, optional
        N, the query's judged non-relevant documents, retrieved or not. Default:
        the judged non-relevant results in the list.

    Returns
    -------
    float
        bpref in [0, 1].

    Raises
    ------
    TypeError
        If ``labels`` or ``judged`` is not a sequence, or R or N is not an integer.
    ValueError
        If a label or flag is not 0/1, ``judged`` has another length, a relevant
        result is flagged unjudged, or R or N is smaller than the list shows.

    Examples
    --------
    Three relevant and two judged non-relevant documents, so min(N, R) = 2:

    >>> from mapteach.metrics import bpref
    >>> bpref([1, 0, 1, 0, 1])  # (1 + (1 - 1/2) + (1 - 2/2)) / 3
    0.5

    The unjudged document at rank 2 is skipped, not counted as non-relevant:

    >>> bpref([1, 0, 1], judged=[1, 0, 1], n_nonrelevant=4)  # (1 + 1) / 2
    1.0
    >>> bpref([0, 1], n_relevant=2, n_nonrelevant=1)  # (1 - 1/1) / 2: the rest missed
    0.0
    """
    y = as_labels(labels)
    flags = _judged_flags(judged, y)
    r = as_n_relevant(n_relevant, int(y.sum()))
    nonrelevant = flags & ~y
    n = _n_nonrelevant(n_nonrelevant, int(nonrelevant.sum()))
    if r == 0:
        return 0.0
    above = np.cumsum(nonrelevant)[y]  # judged non-relevant ranked above each relevant one
    shares = 1.0 - np.minimum(above, r) / max(min(n, r), 1)  # n = 0 above scores 1 - 0 = 1
    return sum_in_rank_order(shares) / r


def batch_bpref(entries: RankedEntries, *, threshold: int = 1) -> np.ndarray:
    """Bpref of every query: :func:`bpref` at once.

    Each relevant entry scores 1 - min(n, R) / min(N, R), n being the judged
    non-relevant entries (grade 0 up to the threshold) ranked above it; the sum
    is over R.

    Parameters
    ----------
    entries : RankedEntries
        With ``judged`` and ``n_nonrelevant``.
    threshold : int, default 1
        The lowest grade that counts as relevant.

    Returns
    -------
    numpy.ndarray
        One value per query.

    Raises
    ------
    ValueError
        If the entries do not carry ``judged``.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.bpref import batch_bpref
    >>> entries = RankedEntries.from_lists([[1, 0, 1, 0, 1]], judged=[[1, 1, 1, 1, 1]])
    >>> batch_bpref(entries).tolist()  # (1 + (1 - 1/2) + (1 - 2/2)) / 3
    [0.5]
    """
    judged, n_nonrelevant = judgments(entries, "Bpref")
    nonrelevant = judged & (entries.grade >= 0) & (entries.grade < threshold)
    running = np.cumsum(nonrelevant)
    counts = np.bincount(entries.query, minlength=entries.n_queries)
    before = np.r_[0, running][np.cumsum(counts) - counts]  # in the queries before each one
    relevant = entries.grade >= threshold
    query = entries.query[relevant]
    above = (running - before[entries.query])[relevant]
    r = entries.n_relevant[query]
    shares = 1.0 - np.minimum(above, r) / np.maximum(np.minimum(n_nonrelevant[query], r), 1)
    return ratio(per_query(entries, query, shares), entries.n_relevant)


def _kernel(entries: RankedEntries, parameters: Parameters) -> np.ndarray:
    return batch_bpref(entries, threshold=parameters.threshold)


def _no_expectation(
    entries: RankedEntries, groups: TieGroups, parameters: Parameters
) -> np.ndarray:
    raise ValueError(
        tr(
            "Bpref has no tie-aware expectation here (min(n, R) is not linear in the order of "
            "a tie); score it with another ties option, such as 'trec_eval'."
        )
    )


def _score(labels: np.ndarray, r: int, k: int | None) -> float:
    return bpref(labels, n_relevant=r)


#: Bpref: trec_eval's ``bpref``.
BPREF = Declaration(
    name="Bpref",
    description=N_(
        "binary preference: judged relevant before judged non-relevant, unjudged skipped"
    ),
    cutoff="none",
    score=_score,
    kernel=_kernel,
    expectation=_no_expectation,
    trec_eval="bpref",
    aliases=("BPref",),
    reads_judged=True,
    params={"rel": REL},
)
