"""Batch machinery: every query of a run at once, with no loop per query.

Each measure's batch kernel lives in the measure's own module, beside its scalar
function (``average_precision.py`` holds :func:`average_precision` and
``batch_average_precision``), and is named in its declaration
(:mod:`mapteach.metrics.declaration`). What the kernels share is here: their one
input, :class:`RankedEntries`; one way of counting hits (:func:`relevant_hits`)
and of adding values per query (:func:`per_query`); and :func:`batch_scores`,
which calls each measure's kernel. Each kernel does the floating-point
operations of its scalar twin in the same order (every sum runs in rank order),
so the two agree to the last bit, as ``tests/metrics/test_batch.py`` checks.
The tie-aware expectations are built on :mod:`mapteach.metrics.ties`.

Most measures depend only on where the positively graded documents sit, on R
and on the ideal gains, so the cost grows with the judged hits, not with the
length of the run. Bpref and Judged@k also read where the judged documents sit;
entries carry that (``judged``) only when one of them is asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal, get_args

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import tr
from mapteach.metrics.options import Denominator
from mapteach.metrics.validation import check_choice

if TYPE_CHECKING:
    from mapteach.metrics.declaration import Parameters
    from mapteach.metrics.names import Measure
    from mapteach.metrics.ties import TieGroups

__all__ = [
    "RankedEntries",
    "SetRatio",
    "at_threshold",
    "batch_scores",
    "ideal_ranking",
    "judgments",
    "per_query",
    "ranks_within",
    "ratio",
    "relevant_hits",
    "relevant_total",
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
            raise ValueError(tr("judged and n_nonrelevant go together: give both or neither."))
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


def per_query(
    entries: RankedEntries, query: np.ndarray, weights: np.ndarray | None = None
) -> np.ndarray:
    """Count the ``query`` codes (or add their ``weights``) per query, in rank order.

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.metrics.batch import RankedEntries, per_query
    >>> entries = RankedEntries.from_lists([[1], [], [1]])
    >>> per_query(entries, np.array([0, 0, 2])).tolist()
    [2, 0, 1]
    """
    return np.bincount(query, weights=weights, minlength=entries.n_queries)


def ratio(numerator: np.ndarray, divisor: np.ndarray) -> np.ndarray:
    """``numerator / divisor``, and 0.0 where the divisor is 0 (a query with R = 0).

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.metrics.batch import ratio
    >>> ratio(np.array([1.0, 2.0]), np.array([4, 0])).tolist()
    [0.25, 0.0]
    """
    return np.divide(numerator, divisor, out=np.zeros(numerator.size), where=divisor > 0)


def relevant_hits(
    entries: RankedEntries, threshold: int, k: int | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(query, rank, hits so far) of each relevant entry within the cutoff ``k``.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries, relevant_hits
    >>> entries = RankedEntries.from_lists([[1, 0, 1, 1], [0, 1]])
    >>> [a.tolist() for a in relevant_hits(entries, 1, 3)]  # query, rank, hits so far
    [[0, 0, 1], [1, 3, 2], [1, 2, 1]]
    """
    relevant = entries.grade >= threshold
    query, rank = entries.query[relevant], entries.rank[relevant]
    hits = ranks_within(query, entries.n_queries)
    within = slice(None) if k is None else rank <= k
    return query[within], rank[within], hits[within]


def relevant_found(
    entries: RankedEntries, threshold: int, depth: int | np.ndarray | None = None
) -> np.ndarray:
    """How many relevant entries each query has within rank ``depth`` (all, without one).

    ``depth`` is one cutoff for every query (P@k, R@k), one per query (Rprec's R), or
    None for the whole list (SetP, SetR, num_rel_ret): the hit count those measures share.

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.metrics.batch import RankedEntries, relevant_found
    >>> entries = RankedEntries.from_lists([[1, 0, 1, 1], [0, 1]])
    >>> relevant_found(entries, 1).tolist(), relevant_found(entries, 1, 3).tolist()
    ([3, 1], [2, 1])
    >>> relevant_found(entries, 1, np.array([1, 1])).tolist()  # a depth per query
    [1, 0]
    """
    relevant = entries.grade >= threshold
    query, rank = entries.query[relevant], entries.rank[relevant]
    if depth is not None:
        query = query[rank <= (depth[query] if isinstance(depth, np.ndarray) else depth)]
    return per_query(entries, query)


#: What a set measure divides its relevant entries by: the list's length (SetP) or R (SetR).
SetDivisor = Literal["retrieved", "relevant"]


@dataclass(frozen=True)
class SetRatio:
    """A set measure's scoring: each query's relevant entries over one count, order unread.

    SetP and SetR differ only in the divisor; this is their kernel, their tie-aware
    expectation (no order of a tie changes a set, so it is the kernel) and their
    one-list scorer, for their declarations.

    Attributes
    ----------
    divisor : {"retrieved", "relevant"}
        ``"retrieved"``: the length of the list (SetP); ``"relevant"``: R (SetR).
        A query whose divisor is 0 scores 0.0.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries, SetRatio
    >>> entries = RankedEntries.from_lists([[0, 1, 2, 0], [0]], n_relevant=[8, 0])
    >>> SetRatio("retrieved").batch(entries).tolist(), SetRatio("relevant").batch(entries).tolist()
    ([0.5, 0.0], [0.25, 0.0])
    >>> SetRatio("relevant").score(np.array([1, 0, 1]), 4, None)  # 2 of R = 4
    0.5
    >>> SetRatio("size")
    Traceback (most recent call last):
    ...
    ValueError: divisor must be one of 'retrieved', 'relevant'; got 'size'.
    """

    divisor: SetDivisor

    def __post_init__(self) -> None:
        check_choice(self.divisor, get_args(SetDivisor), name="divisor")

    def batch(self, entries: RankedEntries, *, threshold: int = 1) -> np.ndarray:
        """Every query's relevant entries (grade >= ``threshold``) over its divisor."""
        counts = entries.n_retrieved if self.divisor == "retrieved" else entries.n_relevant
        return ratio(relevant_found(entries, threshold).astype(float), counts)

    def kernel(self, entries: RankedEntries, parameters: Parameters) -> np.ndarray:
        """:meth:`batch` at the run's threshold: the declaration's kernel."""
        return self.batch(entries, threshold=parameters.threshold)

    def expectation(
        self, entries: RankedEntries, groups: TieGroups, parameters: Parameters
    ) -> np.ndarray:
        """The kernel itself: no order of a tie changes a set."""
        return self.kernel(entries, parameters)

    def score(self, labels: np.ndarray, r: int, k: int | None) -> float:
        """One list of checked 0/1 ``labels`` whose query has R = ``r``; ``k`` is unused."""
        count = labels.size if self.divisor == "retrieved" else r
        return float(labels.sum() / count) if count else 0.0


def relevant_total(entries: RankedEntries, threshold: int) -> np.ndarray:
    """R of each query at another ``threshold``: its judged grades >= threshold, from the ideal.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries, relevant_total
    >>> relevant_total(RankedEntries.from_lists([[2, 1, 0], [1]]), 2).tolist()
    [1, 0]
    """
    relevant = entries.ideal_gain >= threshold
    return np.bincount(entries.ideal_query[relevant], minlength=entries.n_queries)


def at_threshold(entries: RankedEntries, threshold: int) -> RankedEntries:
    """The entries with R (and Bpref's N) counted at another ``threshold``: a measure's ``rel``.

    N moves by what R does: the judged documents with a grade >= 0 are N + R at
    any threshold.

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries, at_threshold
    >>> entries = RankedEntries.from_lists([[2, 1, 0]], judged=[[1, 1, 1]])
    >>> entries.n_relevant.tolist(), entries.n_nonrelevant.tolist()
    ([2], [1])
    >>> moved = at_threshold(entries, 2)
    >>> moved.n_relevant.tolist(), moved.n_nonrelevant.tolist()
    ([1], [2])
    """
    n_relevant = relevant_total(entries, threshold)
    n_nonrelevant = entries.n_nonrelevant
    if n_nonrelevant is not None:
        n_nonrelevant = n_nonrelevant + entries.n_relevant - n_relevant
    return replace(entries, n_relevant=n_relevant, n_nonrelevant=n_nonrelevant)


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
            tr(
                "{family} needs to know which entries are judged (judged= and n_nonrelevant=).",
                family=family,
            )
        )
    return entries.judged, entries.n_nonrelevant


def batch_scores(
    entries: RankedEntries,
    measures: Sequence[Measure],
    *,
    threshold: int = 1,
    denominator: Denominator = "relevant",
) -> dict[str, np.ndarray]:
    """Every measure for every query, keyed by the measure's canonical name.

    Each measure is scored by the kernel its declaration names, with its own
    parameters; a measure given its own ``rel`` (``P(rel=2)@10``) counts R at it.

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

    P@2 beside P(rel=2)@2 in one call, on grades:

    >>> graded = RankedEntries.from_lists([[2, 1, 0]])
    >>> measures = [parse_measure("P@2"), parse_measure("P(rel=2)@2")]
    >>> {name: values.tolist() for name, values in batch_scores(graded, measures).items()}
    {'P@2': [1.0], 'P(rel=2)@2': [0.5]}
    """
    scores = {}
    for measure in measures:
        parameters = measure.parameters(threshold=threshold, denominator=denominator)
        own = at_threshold(entries, parameters.threshold) if parameters.own_threshold else entries
        scores[measure.name] = measure.declaration.kernel(own, parameters)
    return scores
