"""Batch kernels: each measure for every query of a run at once, with no loop per query.

Layout: the scalar measures stay one per module (``average_precision.py``,
``precision.py``, ``recall.py``, ``reciprocal_rank.py``, ``hit.py``,
``ndcg.py``), each reading like its formula. Their vectorised forms live
together here, one function per measure, because they share one input,
:class:`RankedEntries`, and one way of counting hits. Each batch function does
the floating-point operations of its scalar twin in the same order (every sum
runs in rank order), so the two agree to the last bit, as
``tests/test_batch_kernels.py`` checks. The tie-aware expectations live in
:mod:`mapteach.metrics.ties`.

Every measure here depends only on where the positively graded documents sit, on
R and on the ideal gains, so the cost grows with the judged hits, not with the
length of the run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import ArrayLike

from mapteach.metrics._validation import as_k
from mapteach.metrics.names import Measure
from mapteach.metrics.options import Denominator

__all__ = [
    "RankedEntries",
    "batch_average_precision",
    "batch_hit",
    "batch_ndcg",
    "batch_precision",
    "batch_recall",
    "batch_reciprocal_rank",
    "batch_scores",
    "ideal_dcg",
    "ideal_ranking",
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
        score (grade <= 0) may be left out: ranks keep their gaps.
    grade : array of float
        Judged grade of each entry; unjudged documents have grade 0.
    n_queries : int
        Number of queries, including queries without entries.
    n_relevant : array of shape (n_queries,)
        R of each query: its relevant documents, retrieved or not.
    ideal_query, ideal_gain : arrays
        Every judged gain of each query, retrieved or not, sorted as
        :func:`ideal_ranking` sorts them: nDCG's ideal ranking.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries
    >>> entries = RankedEntries.from_lists([[0, 2, 1], [0, 0]])
    >>> entries.rank.tolist(), entries.n_relevant.tolist()
    ([1, 2, 3, 1, 2], [2, 0])
    >>> entries.positive().rank.tolist()
    [2, 3]
    """

    query: np.ndarray
    rank: np.ndarray
    grade: np.ndarray
    n_queries: int
    n_relevant: np.ndarray
    ideal_query: np.ndarray
    ideal_gain: np.ndarray

    @classmethod
    def from_sorted_rows(
        cls,
        query: np.ndarray,
        grade: ArrayLike,
        n_relevant: ArrayLike,
        judged_query: ArrayLike,
        judged_gain: ArrayLike,
    ) -> RankedEntries:
        """Entries from every row of a run sorted by (query, rank); ranks are counted here.

        ``n_relevant`` has one R per query, so its length is the number of
        queries; the judged gains may come in any order.

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
        return cls(
            query=query,
            rank=ranks_within(query, totals.size),
            grade=np.asarray(grade, dtype=float),
            n_queries=totals.size,
            n_relevant=totals,
            ideal_query=ideal_query,
            ideal_gain=ideal_gain,
        )

    @classmethod
    def from_lists(
        cls,
        grades: Sequence[ArrayLike],
        *,
        n_relevant: ArrayLike | None = None,
        ideal: Sequence[ArrayLike] | None = None,
        threshold: int = 1,
    ) -> RankedEntries:
        """Entries from one ranked list of grades per query, best first.

        ``n_relevant`` defaults to the grades ``>= threshold`` in each list and
        ``ideal`` (each query's judged gains) to the list itself. Inputs are
        trusted: this is a constructor for examples and tests, not a checked
        public boundary.

        Examples
        --------
        >>> from mapteach.metrics.batch import RankedEntries
        >>> RankedEntries.from_lists([[1, 0], []], n_relevant=[3, 1]).query.tolist()
        [0, 0]
        """
        lists = [np.asarray(values, dtype=float).reshape(-1) for values in grades]
        pools = lists if ideal is None else [np.asarray(v, dtype=float).reshape(-1) for v in ideal]
        totals = (
            np.array([int((values >= threshold).sum()) for values in lists])
            if n_relevant is None
            else np.asarray(n_relevant)
        )
        return cls.from_sorted_rows(
            np.repeat(np.arange(len(lists)), [values.size for values in lists]),
            np.concatenate([*lists, np.zeros(0)]),
            totals,
            np.repeat(np.arange(len(pools)), [pool.size for pool in pools]),
            np.maximum(np.concatenate([*pools, np.zeros(0)]), 0.0),
        )

    def positive(self) -> RankedEntries:
        """Only the entries with a positive grade: all that any measure here reads."""
        keep = self.grade > 0
        return replace(self, query=self.query[keep], rank=self.rank[keep], grade=self.grade[keep])


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


def _batch_score(
    entries: RankedEntries, measure: Measure, threshold: int, denominator: Denominator
) -> np.ndarray:
    """One measure for every query: the batch kernel of its family."""
    k = measure.k
    if measure.family == "AP":
        return batch_average_precision(entries, k=k, threshold=threshold, denominator=denominator)
    if measure.family == "nDCG":
        return batch_ndcg(entries, k=k)
    if measure.family == "RR":
        return batch_reciprocal_rank(entries, k=k, threshold=threshold)
    at_cutoff = {"P": batch_precision, "R": batch_recall, "Success": batch_hit}[measure.family]
    return at_cutoff(entries, as_k(k), threshold=threshold)


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
        The run, sorted by (query, rank); :meth:`RankedEntries.positive` is enough.
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
    >>> from mapteach.metrics.names import parse_measure
    >>> entries = RankedEntries.from_lists([[1, 0, 1, 1], [0, 1]])
    >>> scores = batch_scores(entries, [parse_measure("AP"), parse_measure("P@2")])
    >>> {name: values.round(4).tolist() for name, values in scores.items()}
    {'AP': [0.8056, 0.5], 'P@2': [0.5, 0.5]}
    """
    return {
        measure.name: _batch_score(entries, measure, threshold, denominator) for measure in measures
    }
