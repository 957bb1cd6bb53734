"""Batch kernels: each measure for every query of a run at once, with no loop per query.

Layout: the scalar measures stay one per module (``average_precision.py``,
``precision.py``, ``recall.py``, ``reciprocal_rank.py``, ``hit.py``,
``ndcg.py``, ``r_precision.py``, ``bpref.py``, ``judged.py``, ``counts.py``),
each reading like its formula. Their vectorised forms live
together here, one function per measure, because they share one input,
:class:`RankedEntries`, and one way of counting hits. Each batch function does
the floating-point operations of its scalar twin in the same order (every sum
runs in rank order), so the two agree to the last bit, as
``tests/test_batch_kernels.py`` checks. The tie-aware expectations live in
:mod:`mapteach.metrics.ties`.

Most measures here depend only on where the positively graded documents sit, on
R and on the ideal gains, so the cost grows with the judged hits, not with the
length of the run. Bpref and Judged@k also read where the judged documents sit;
entries carry that (``judged``) only when one of them is asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

import numpy as np
from numpy.typing import ArrayLike

from mapteach.metrics._validation import as_k
from mapteach.metrics.names import Measure
from mapteach.metrics.options import Denominator

__all__ = [
    "RankedEntries",
    "batch_average_precision",
    "batch_bpref",
    "batch_hit",
    "batch_judged",
    "batch_ndcg",
    "batch_num_relevant",
    "batch_num_relevant_retrieved",
    "batch_num_retrieved",
    "batch_precision",
    "batch_r_precision",
    "batch_recall",
    "batch_reciprocal_rank",
    "batch_scores",
    "ideal_dcg",
    "ideal_ranking",
    "judgments",
    "ranks_within",
]


def ranks_within(query: np.ndarray, n_queries: int) -> np.ndarray:
    """1-based position of each row inside its query, for rows sorted by query.

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.metrics.batch import ranks_within
    >>> ranks_within(np.array([0, 0, 0, 2, 2]), 3).tolist()
    [1, 2, 3, 1, 2]
    """
    counts = np.bincount(query, minlength=n_queries)
    return np.arange(1, query.size + 1) - np.repeat(np.cumsum(counts) - counts, counts)


def ideal_ranking(query: ArrayLike, gain: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Judged gains sorted by query, and within a query from best to worst.

    Examples
    --------
    >>> from mapteach.metrics.batch import ideal_ranking
    >>> [a.tolist() for a in ideal_ranking([1, 0, 0], [2.0, 1.0, 3.0])]
    [[0, 0, 1], [3.0, 1.0, 2.0]]
    """
    query, gain = np.asarray(query), np.asarray(gain, dtype=float)
    order = np.lexsort([-gain, query])
    return query[order], gain[order]


@dataclass(frozen=True)
class RankedEntries:
    """The ranked documents of many queries, and what each query's measures divide by.

    Attributes
    ----------
    query : array of int
        Query code (0 .. ``n_queries`` - 1) of each entry; entries are sorted by
        (query, rank).
    rank : array of int
        1-based rank of each entry in its query's list. Entries that cannot
        score may be left out (:meth:`sparse`): ranks keep their gaps.
    grade : array of float
        Judged grade of each entry; unjudged documents have grade 0.
    n_queries : int
        Number of queries, including queries without entries.
    n_relevant : array of shape (n_queries,)
        R of each query: its relevant documents, retrieved or not.
    ideal_query, ideal_gain : arrays
        Every judged gain of each query, retrieved or not, sorted as
        :func:`ideal_ranking` sorts them: nDCG's ideal ranking.
    n_retrieved : array of shape (n_queries,)
        The length of each query's list, whatever entries are left out.
    judged : array of bool, optional
        Whether each entry has a judgment, whatever its grade. Only Bpref and
        Judged@k read it; None when nobody asked for them.
    n_nonrelevant : array of shape (n_queries,), optional
        N of each query for Bpref: its judged non-relevant documents (grade 0 up
        to the threshold; a negative grade is trec_eval's "unjudged"), retrieved
        or not. Given with ``judged``.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries
    >>> entries = RankedEntries.from_lists([[0, 2, 1], [0, 0]])
    >>> entries.rank.tolist(), entries.n_relevant.tolist(), entries.n_retrieved.tolist()
    ([1, 2, 3, 1, 2], [2, 0], [3, 2])
    >>> entries.sparse().rank.tolist()
    [2, 3]
    """

    query: np.ndarray
    rank: np.ndarray
    grade: np.ndarray
    n_queries: int
    n_relevant: np.ndarray
    ideal_query: np.ndarray
    ideal_gain: np.ndarray
    n_retrieved: np.ndarray
    judged: np.ndarray | None = None
    n_nonrelevant: np.ndarray | None = None

    @classmethod
    def from_sorted_rows(
        cls,
        query: np.ndarray,
        grade: ArrayLike,
        n_relevant: ArrayLike,
        judged_query: ArrayLike,
        judged_gain: ArrayLike,
        *,
        judged: np.ndarray | None = None,
        n_nonrelevant: ArrayLike | None = None,
    ) -> RankedEntries:
        """Entries from every row of a run sorted by (query, rank); ranks are counted here.

        ``n_relevant`` has one R per query, so its length is the number of
        queries; the judged gains may come in any order. ``judged`` (one flag
        per row) and ``n_nonrelevant`` (one N per query) go together.

        Examples
        --------
        >>> import numpy as np
        >>> from mapteach.metrics.batch import RankedEntries
        >>> entries = RankedEntries.from_sorted_rows(
        ...     np.array([0, 0, 1]), [1, 0, 1], [2, 1], [0, 0, 1], [1, 1, 1]
        ... )
        >>> entries.rank.tolist(), entries.n_queries
        ([1, 2, 1], 2)
        """
        totals = np.asarray(n_relevant)
        ideal_query, ideal_gain = ideal_ranking(judged_query, judged_gain)
        if (judged is None) != (n_nonrelevant is None):
            raise ValueError("judged and n_nonrelevant go together: give both or neither.")
        return cls(
            query=query,
            rank=ranks_within(query, totals.size),
            grade=np.asarray(grade, dtype=float),
            n_queries=totals.size,
            n_relevant=totals,
            ideal_query=ideal_query,
            ideal_gain=ideal_gain,
            n_retrieved=np.bincount(query, minlength=totals.size),
            judged=None if judged is None else np.asarray(judged, dtype=bool),
            n_nonrelevant=None if n_nonrelevant is None else np.asarray(n_nonrelevant),
        )

    @classmethod
    def from_lists(
        cls,
        grades: Sequence[ArrayLike],
        *,
        n_relevant: ArrayLike | None = None,
        ideal: Sequence[ArrayLike] | None = None,
        threshold: int = 1,
        judged: Sequence[ArrayLike] | None = None,
        n_nonrelevant: ArrayLike | None = None,
    ) -> RankedEntries:
        """Entries from one ranked list of grades per query, best first.

        ``n_relevant`` defaults to the grades ``>= threshold`` in each list and
        ``ideal`` (each query's judged gains) to the list itself. ``judged``
        gives one flag per grade; ``n_nonrelevant`` then defaults to the judged
        grades from 0 up to the threshold in each list. Inputs are trusted: this
        is a constructor for examples and tests, not a checked public boundary.

        Examples
        --------
        >>> from mapteach.metrics.batch import RankedEntries
        >>> RankedEntries.from_lists([[1, 0], []], n_relevant=[3, 1]).query.tolist()
        [0, 0]
        >>> RankedEntries.from_lists([[1, 0, 0]], judged=[[1, 1, 0]]).n_nonrelevant.tolist()
        [1]
        """
        lists = [np.asarray(values, dtype=float).reshape(-1) for values in grades]
        pools = lists if ideal is None else [np.asarray(v, dtype=float).reshape(-1) for v in ideal]
        totals = (
            np.array([int((values >= threshold).sum()) for values in lists])
            if n_relevant is None
            else np.asarray(n_relevant)
        )
        flags = None if judged is None else [np.asarray(f, dtype=bool).reshape(-1) for f in judged]
        if flags is not None and n_nonrelevant is None:
            n_nonrelevant = [
                int((f & (values >= 0) & (values < threshold)).sum())
                for f, values in zip(flags, lists, strict=True)
            ]
        return cls.from_sorted_rows(
            np.repeat(np.arange(len(lists)), [values.size for values in lists]),
            np.concatenate([*lists, np.zeros(0)]),
            totals,
            np.repeat(np.arange(len(pools)), [pool.size for pool in pools]),
            np.maximum(np.concatenate([*pools, np.zeros(0)]), 0.0),
            judged=None if flags is None else np.concatenate([*flags, np.zeros(0, bool)]),
            n_nonrelevant=n_nonrelevant,
        )

    def sparse(self) -> RankedEntries:
        """Only the entries some measure here reads: the positively graded ones, and the
        judged ones when the entries carry ``judged``."""
        keep = self.grade > 0 if self.judged is None else (self.grade > 0) | self.judged
        return replace(
            self,
            query=self.query[keep],
            rank=self.rank[keep],
            grade=self.grade[keep],
            judged=None if self.judged is None else self.judged[keep],
        )


def _per_query(
    entries: RankedEntries, query: np.ndarray, weights: np.ndarray | None = None
) -> np.ndarray:
    """Count (or add ``weights``) per query; each query's values are added in rank order."""
    return np.bincount(query, weights=weights, minlength=entries.n_queries)


def _ratio(numerator: np.ndarray, divisor: np.ndarray) -> np.ndarray:
    """``numerator / divisor``, and 0.0 where the divisor is 0 (a query with R = 0)."""
    return np.divide(numerator, divisor, out=np.zeros(numerator.size), where=divisor > 0)


def _hits(
    entries: RankedEntries, threshold: int, k: int | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(query, rank, hits so far) of each relevant entry within the cutoff ``k``."""
    relevant = entries.grade >= threshold
    query, rank = entries.query[relevant], entries.rank[relevant]
    hits = ranks_within(query, entries.n_queries)
    within = slice(None) if k is None else rank <= k
    return query[within], rank[within], hits[within]


def batch_average_precision(
    entries: RankedEntries,
    *,
    k: int | None = None,
    threshold: int = 1,
    denominator: Denominator = "relevant",
) -> np.ndarray:
    """AP (or AP@k) of every query: :func:`~mapteach.metrics.average_precision` at once.

    Parameters
    ----------
    entries : RankedEntries
    k : int, optional
        Rank cutoff.
    threshold : int, default 1
        The lowest grade that counts as relevant.
    denominator : {"relevant", "min_relevant_k", "retrieved"}, default "relevant"
        R, min(R, k), or the relevant documents within the cutoff.

    Returns
    -------
    numpy.ndarray
        One AP per query; 0.0 where the denominator is 0.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries, batch_average_precision
    >>> entries = RankedEntries.from_lists([[1, 0, 1, 0, 0], [0, 0]], n_relevant=[3, 0])
    >>> batch_average_precision(entries).round(4).tolist()  # (1/1 + 2/3) / 3
    [0.5556, 0.0]
    >>> batch_average_precision(entries, denominator="retrieved").round(4).tolist()
    [0.8333, 0.0]
    """
    query, rank, hits = _hits(entries, threshold, k)
    total = _per_query(entries, query, hits / rank)
    if denominator == "relevant":
        divisor = entries.n_relevant
    elif denominator == "min_relevant_k":
        divisor = entries.n_relevant if k is None else np.minimum(entries.n_relevant, k)
    else:
        divisor = _per_query(entries, query)
    return _ratio(total, divisor)


def batch_precision(entries: RankedEntries, k: int, *, threshold: int = 1) -> np.ndarray:
    """P@k of every query: relevant entries within rank k, over k.

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
    >>> from mapteach.metrics.batch import RankedEntries, batch_precision
    >>> batch_precision(RankedEntries.from_lists([[0, 1, 1, 0], [1]]), 3).round(4).tolist()
    [0.6667, 0.3333]
    """
    query, _, _ = _hits(entries, threshold, k)
    return _per_query(entries, query) / k


def batch_recall(entries: RankedEntries, k: int, *, threshold: int = 1) -> np.ndarray:
    """R@k of every query: relevant entries within rank k, over R (0.0 when R = 0).

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
    >>> from mapteach.metrics.batch import RankedEntries, batch_recall
    >>> entries = RankedEntries.from_lists([[0, 1, 1, 0], [0]], n_relevant=[4, 0])
    >>> batch_recall(entries, 5).tolist()
    [0.5, 0.0]
    """
    query, _, _ = _hits(entries, threshold, k)
    return _ratio(_per_query(entries, query).astype(float), entries.n_relevant)


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
    >>> from mapteach.metrics.batch import RankedEntries, batch_hit
    >>> batch_hit(RankedEntries.from_lists([[0, 0, 1], [1]]), 2).tolist()
    [0.0, 1.0]
    """
    query, _, _ = _hits(entries, threshold, k)
    return (_per_query(entries, query) > 0).astype(float)


def batch_reciprocal_rank(
    entries: RankedEntries, *, k: int | None = None, threshold: int = 1
) -> np.ndarray:
    """RR (or RR@k) of every query: 1 / rank of its first relevant entry, else 0.0.

    Parameters
    ----------
    entries : RankedEntries
    k : int, optional
        Rank cutoff.
    threshold : int, default 1
        The lowest grade that counts as relevant.

    Returns
    -------
    numpy.ndarray
        One value per query.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries, batch_reciprocal_rank
    >>> entries = RankedEntries.from_lists([[0, 0, 1, 1], [0]])
    >>> batch_reciprocal_rank(entries).round(4).tolist()  # first hit at rank 3: 1/3
    [0.3333, 0.0]
    >>> batch_reciprocal_rank(entries, k=2).tolist()  # no hit in the top 2
    [0.0, 0.0]
    """
    query, rank, hits = _hits(entries, threshold, k)
    first = hits == 1
    out = np.zeros(entries.n_queries)
    out[query[first]] = 1.0 / rank[first]
    return out


def batch_r_precision(entries: RankedEntries, *, threshold: int = 1) -> np.ndarray:
    """Rprec of every query: relevant entries within rank R, over R (0.0 when R = 0).

    Parameters
    ----------
    entries : RankedEntries
    threshold : int, default 1
        The lowest grade that counts as relevant.

    Returns
    -------
    numpy.ndarray
        One value per query.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries, batch_r_precision
    >>> entries = RankedEntries.from_lists([[1, 0, 1, 1], [0, 1]], n_relevant=[3, 1])
    >>> batch_r_precision(entries).round(4).tolist()  # 2 hits in the top 3; none in the top 1
    [0.6667, 0.0]
    """
    query, rank, _ = _hits(entries, threshold, None)
    within = rank <= entries.n_relevant[query]
    return _ratio(_per_query(entries, query[within]), entries.n_relevant)


def judgments(entries: RankedEntries, family: str) -> tuple[np.ndarray, np.ndarray]:
    """The entries' judged flags and each query's N; raise, naming ``family``, if absent.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries, judgments
    >>> judgments(RankedEntries.from_lists([[1, 0]]), "Bpref")
    Traceback (most recent call last):
    ...
    ValueError: Bpref needs to know which entries are judged (judged= and n_nonrelevant=).
    """
    if entries.judged is None or entries.n_nonrelevant is None:
        raise ValueError(
            f"{family} needs to know which entries are judged (judged= and n_nonrelevant=)."
        )
    return entries.judged, entries.n_nonrelevant


def batch_bpref(entries: RankedEntries, *, threshold: int = 1) -> np.ndarray:
    """Bpref of every query: :func:`~mapteach.metrics.bpref.bpref` at once.

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
    >>> from mapteach.metrics.batch import RankedEntries, batch_bpref
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
    return _ratio(_per_query(entries, query, shares), entries.n_relevant)


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
    >>> from mapteach.metrics.batch import RankedEntries, batch_judged
    >>> entries = RankedEntries.from_lists([[1, 0, 0, 2], [0]], judged=[[1, 1, 0, 1], [0]])
    >>> batch_judged(entries, k=3).round(4).tolist()  # 2 of the top 3; 0 of a list of 1
    [0.6667, 0.0]
    """
    judged, _ = judgments(entries, "Judged")
    within = judged if k is None else judged & (entries.rank <= k)
    divisor = entries.n_retrieved if k is None else np.minimum(entries.n_retrieved, k)
    return _ratio(_per_query(entries, entries.query[within]), divisor)


def batch_num_retrieved(entries: RankedEntries) -> np.ndarray:
    """NumRet of every query: the length of its list.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries, batch_num_retrieved
    >>> batch_num_retrieved(RankedEntries.from_lists([[1, 0, 0], []])).tolist()
    [3.0, 0.0]
    """
    return entries.n_retrieved.astype(float)


def batch_num_relevant(entries: RankedEntries) -> np.ndarray:
    """NumRel of every query: R, its relevant documents, retrieved or not.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries, batch_num_relevant
    >>> batch_num_relevant(RankedEntries.from_lists([[1, 0]], n_relevant=[4])).tolist()
    [4.0]
    """
    return entries.n_relevant.astype(float)


def batch_num_relevant_retrieved(entries: RankedEntries, *, threshold: int = 1) -> np.ndarray:
    """NumRelRet of every query: its relevant entries.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries, batch_num_relevant_retrieved
    >>> entries = RankedEntries.from_lists([[1, 0, 2], [0]], n_relevant=[4, 1])
    >>> batch_num_relevant_retrieved(entries).tolist()
    [2.0, 0.0]
    """
    query, _, _ = _hits(entries, threshold, None)
    return _per_query(entries, query).astype(float)


def ideal_dcg(entries: RankedEntries, k: int | None = None) -> np.ndarray:
    """DCG (or DCG@k) of every query's ideal ranking: its judged gains, best first.

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
    >>> from mapteach.metrics.batch import RankedEntries, ideal_dcg
    >>> entries = RankedEntries.from_lists([[1, 0], [2]], ideal=[[3, 1], [2]])
    >>> ideal_dcg(entries).round(4).tolist()  # 3/1 + 1/log2(3)
    [3.6309, 2.0]
    """
    rank = ranks_within(entries.ideal_query, entries.n_queries)
    keep = slice(None) if k is None else rank <= k
    return _per_query(
        entries, entries.ideal_query[keep], entries.ideal_gain[keep] / np.log2(rank[keep] + 1.0)
    )


def batch_ndcg(entries: RankedEntries, *, k: int | None = None) -> np.ndarray:
    """nDCG (or nDCG@k) of every query: linear gains, log2(rank + 1) discount, as trec_eval.

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
    >>> from mapteach.metrics.batch import RankedEntries, batch_ndcg
    >>> entries = RankedEntries.from_lists([[1, 0, 1], [0]], ideal=[[3, 1, 1], [0]])
    >>> batch_ndcg(entries, k=3).round(4).tolist()  # 1.5 / (3/1 + 1/log2(3) + 1/2)
    [0.3631, 0.0]
    """
    cut = entries.grade > 0 if k is None else (entries.grade > 0) & (entries.rank <= k)
    dcg = _per_query(
        entries, entries.query[cut], entries.grade[cut] / np.log2(entries.rank[cut] + 1.0)
    )
    return _ratio(dcg, ideal_dcg(entries, k))


def _average_precision(
    entries: RankedEntries, k: int | None, threshold: int, denominator: Denominator
) -> np.ndarray:
    return batch_average_precision(entries, k=k, threshold=threshold, denominator=denominator)


#: The batch kernel of each family, called as (entries, k, threshold, denominator).
#: GMAP is AP per query: only its value over queries differs.
_KERNELS: Mapping[str, Callable[[RankedEntries, int | None, int, Denominator], np.ndarray]] = (
    MappingProxyType(
        {
            "AP": _average_precision,
            "GMAP": _average_precision,
            "P": lambda entries, k, t, d: batch_precision(entries, as_k(k), threshold=t),
            "R": lambda entries, k, t, d: batch_recall(entries, as_k(k), threshold=t),
            "Success": lambda entries, k, t, d: batch_hit(entries, as_k(k), threshold=t),
            "RR": lambda entries, k, t, d: batch_reciprocal_rank(entries, k=k, threshold=t),
            "nDCG": lambda entries, k, t, d: batch_ndcg(entries, k=k),
            "Rprec": lambda entries, k, t, d: batch_r_precision(entries, threshold=t),
            "Bpref": lambda entries, k, t, d: batch_bpref(entries, threshold=t),
            "Judged": lambda entries, k, t, d: batch_judged(entries, k=k),
            "NumRet": lambda entries, k, t, d: batch_num_retrieved(entries),
            "NumRel": lambda entries, k, t, d: batch_num_relevant(entries),
            "NumRelRet": lambda entries, k, t, d: batch_num_relevant_retrieved(
                entries, threshold=t
            ),
        }
    )
)


def batch_scores(
    entries: RankedEntries,
    measures: Sequence[Measure],
    *,
    threshold: int = 1,
    denominator: Denominator = "relevant",
) -> dict[str, np.ndarray]:
    """Every measure for every query, keyed by the measure's canonical name.

    Parameters
    ----------
    entries : RankedEntries
        The run, sorted by (query, rank); :meth:`RankedEntries.sparse` is enough.
        Bpref and Judged need entries that carry ``judged``.
    measures : sequence of Measure
        Parsed measures, as :func:`mapteach.metrics.names.parse_measure` returns.
    threshold : int, default 1
        The lowest grade that counts as relevant (nDCG uses the grades themselves).
    denominator : {"relevant", "min_relevant_k", "retrieved"}, default "relevant"
        What AP-type measures divide by.

    Returns
    -------
    dict of str to numpy.ndarray
        One array of per-query values per measure.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries, batch_scores
    >>> from mapteach.metrics import parse_measure
    >>> entries = RankedEntries.from_lists([[1, 0, 1, 1], [0, 1]])
    >>> scores = batch_scores(entries, [parse_measure("AP"), parse_measure("P@2")])
    >>> {name: values.round(4).tolist() for name, values in scores.items()}
    {'AP': [0.8056, 0.5], 'P@2': [0.5, 0.5]}
    """
    return {
        measure.name: _KERNELS[measure.family](entries, measure.k, threshold, denominator)
        for measure in measures
    }
