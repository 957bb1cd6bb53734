"""Tie-aware measures: the exact expectation over every order of each group of tied scores.

McSherry and Najork (ECIR 2008): when a system gives several documents the same
score, it has not ranked them, so any order among them is equally likely. The
tie-aware value of a measure is its mean over all those orders. By linearity of
expectation it has a closed form; no permutation is enumerated or sampled.

For a tie group occupying ranks t+1 .. t+n, holding r relevant documents, with
h relevant documents ranked above it, the document at rank t+i is relevant with
probability r/n, and if it is, the hits up to it are expected to be
h + 1 + (i-1)(r-1)/(n-1). So its expected share of AP's sum is
(r/n) (h + 1 + (i-1)(r-1)/(n-1)) / (t+i). Introduced in ``09_why_maps_disagree``.

R-precision and Judged@k are linear too: each row counts its group's share of
relevant (judged) documents. The counts do not depend on the order. Bpref has
no closed form here: ``min(n, R)`` is not linear in the order.

RR and Success need binomial coefficients; they come from a table of
log-factorials built with ``math.lgamma``, so this floor needs numpy and the
standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mapteach.metrics._validation import as_k, check_choice
from mapteach.metrics.batch import (
    RankedEntries,
    _ratio,
    batch_num_relevant,
    batch_num_relevant_retrieved,
    batch_num_retrieved,
    ideal_dcg,
    judgments,
)
from mapteach.metrics.names import Measure
from mapteach.metrics.options import Denominator

__all__ = ["expected_scores"]


def _log_factorials(n_max: int) -> np.ndarray:
    """log(n!) for n = 0 .. n_max, each from ``math.lgamma`` (a few ulp from exact)."""
    return np.array([math.lgamma(n + 1.0) for n in range(n_max + 1)])


def _log_comb(n: np.ndarray, k: np.ndarray, log_factorial: np.ndarray) -> np.ndarray:
    """log C(n, k) for whole numbers 0 <= n < len(log_factorial); -inf where k < 0 or k > n."""
    n, k = np.broadcast_arrays(np.asarray(n).astype(np.int64), np.asarray(k).astype(np.int64))
    valid = (k >= 0) & (k <= n)
    out = np.full(n.shape, -np.inf)
    n, k = n[valid], k[valid]
    out[valid] = log_factorial[n] - log_factorial[k] - log_factorial[n - k]
    return out


@dataclass(frozen=True)
class _TieGroups:
    """The tie groups of a run: runs of equal scores inside one query.

    ``of_row`` maps each row to its group; the other arrays have one value per
    group: its query, size n, relevant documents r, ranks above it t, relevant
    documents ranked above it h, and mean gain.
    """

    of_row: np.ndarray
    query: np.ndarray
    size: np.ndarray
    hits: np.ndarray
    above: np.ndarray
    hits_above: np.ndarray
    mean_gain: np.ndarray

    def offset(self, rank: np.ndarray) -> np.ndarray:
        """i: each row's 1-based place inside its group."""
        return rank - self.above[self.of_row]

    def p_relevant(self) -> np.ndarray:
        """r / n: each row's chance of holding a relevant document."""
        return self.hits[self.of_row] / self.size[self.of_row]


def _tie_groups(entries: RankedEntries, score: np.ndarray, relevant: np.ndarray) -> _TieGroups:
    """Group the rows of ``entries`` (sorted by query, score descending) by tied score."""
    query = entries.query
    new_group = np.ones(query.size, bool)
    new_group[1:] = (query[1:] != query[:-1]) | (score[1:] != score[:-1])
    group = np.cumsum(new_group) - 1
    size = np.bincount(group).astype(float)
    start = np.flatnonzero(new_group)
    above = entries.rank[start] - 1
    running = np.r_[0.0, np.cumsum(relevant)]
    return _TieGroups(
        of_row=group,
        query=query[start],
        size=size,
        hits=np.bincount(group, weights=relevant),
        above=above,
        hits_above=running[start] - running[start - above],
        mean_gain=np.bincount(group, weights=np.maximum(entries.grade, 0.0)) / size,
    )


def _per_query(entries: RankedEntries, weights: np.ndarray) -> np.ndarray:
    """Add ``weights`` per query (as floats, even for a run with no rows)."""
    sums = np.bincount(entries.query, weights=weights, minlength=entries.n_queries)
    return sums.astype(float, copy=False)


def _within(entries: RankedEntries, k: int | np.ndarray | None) -> np.ndarray:
    """Whether each row is within the cutoff: one ``k``, or one per row."""
    return np.ones(entries.rank.size, bool) if k is None else entries.rank <= k


def _expected_ap(
    entries: RankedEntries, groups: _TieGroups, k: int | None, denominator: Denominator
) -> np.ndarray:
    """Each row's expected share of AP's sum (see the module docstring), over the divisor."""
    n_g, r_g, rank = groups.size[groups.of_row], groups.hits[groups.of_row], entries.rank
    offset = groups.offset(rank)
    expected_hits = (
        groups.hits_above[groups.of_row] + 1 + (offset - 1) * (r_g - 1) / np.maximum(n_g - 1, 1)
    )
    share = np.where(_within(entries, k), groups.p_relevant() * expected_hits / rank, 0.0)
    divisor = entries.n_relevant
    if denominator == "min_relevant_k" and k is not None:
        divisor = np.minimum(divisor, k)
    return _ratio(_per_query(entries, share), divisor)


def _expected_found(
    entries: RankedEntries, groups: _TieGroups, k: int | np.ndarray | None
) -> np.ndarray:
    """Expected relevant documents within the cutoff: each row counts r / n."""
    return _per_query(entries, np.where(_within(entries, k), groups.p_relevant(), 0.0))


def _expected_judged(entries: RankedEntries, groups: _TieGroups, k: int | None) -> np.ndarray:
    """Expected judged rows within the cutoff over min(k, list length): each row counts
    its group's share of judged documents."""
    judged, _ = judgments(entries, "Judged")
    share = np.bincount(groups.of_row, weights=judged.astype(float)) / groups.size
    found = _per_query(entries, np.where(_within(entries, k), share[groups.of_row], 0.0))
    divisor = entries.n_retrieved if k is None else np.minimum(entries.n_retrieved, k)
    return _ratio(found, divisor)


def _expected_ndcg(entries: RankedEntries, groups: _TieGroups, k: int | None) -> np.ndarray:
    """Expected DCG over the ideal DCG: each row holds its group's mean gain."""
    gain = groups.mean_gain[groups.of_row] / np.log2(entries.rank + 1.0)
    dcg = _per_query(entries, np.where(_within(entries, k), gain, 0.0))
    return _ratio(dcg, ideal_dcg(entries, k))


def _expected_success(
    entries: RankedEntries, groups: _TieGroups, k: int, log_factorial: np.ndarray
) -> np.ndarray:
    """1 - P(no relevant document in the top k); each group sees min(n, k - t) of its ranks.

    A group of n holding r relevant documents shows s of its ranks within the
    cutoff; none of them is relevant with probability C(n - r, s) / C(n, s).
    """
    seen = np.minimum(groups.size, k - groups.above).clip(min=0)
    log_none = _log_comb(groups.size - groups.hits, seen, log_factorial) - _log_comb(
        groups.size, seen, log_factorial
    )
    log_none = np.where(seen > 0, log_none, 0.0)
    certain = np.isinf(log_none)
    impossible = np.bincount(groups.query, weights=certain, minlength=entries.n_queries)
    total = np.bincount(
        groups.query, weights=np.where(certain, 0.0, log_none), minlength=entries.n_queries
    )
    return np.where(impossible > 0, 1.0, 1.0 - np.exp(total))


def _first_relevant_group(entries: RankedEntries, groups: _TieGroups) -> np.ndarray:
    """Index of each query's first group holding a relevant document; -1 if it has none."""
    first_group = np.full(entries.n_queries, -1)
    with_hits = np.flatnonzero(groups.hits > 0)
    if with_hits.size:
        owner = groups.query[with_hits]
        firsts = with_hits[np.r_[True, owner[1:] != owner[:-1]]]
        first_group[groups.query[firsts]] = firsts
    return first_group


def _expected_rr(
    entries: RankedEntries, groups: _TieGroups, k: int | None, log_factorial: np.ndarray
) -> np.ndarray:
    """Expected 1 / rank of the first relevant document, which lies in the first group with one.

    Within that group the first relevant document is at offset i with probability
    C(n - i, r - 1) / C(n, r).
    """
    n_g, r_g = groups.size[groups.of_row], groups.hits[groups.of_row]
    in_first = groups.of_row == _first_relevant_group(entries, groups)[entries.query]
    log_p = _log_comb(n_g - groups.offset(entries.rank), r_g - 1, log_factorial) - _log_comb(
        n_g, r_g, log_factorial
    )
    weight = np.where(in_first & _within(entries, k), np.exp(log_p) / entries.rank, 0.0)
    return _per_query(entries, weight)


def expected_scores(
    entries: RankedEntries,
    score: np.ndarray,
    measures: Sequence[Measure],
    *,
    threshold: int = 1,
    denominator: Denominator = "relevant",
) -> dict[str, np.ndarray]:
    """Tie-aware expected value of each measure, per query.

    Parameters
    ----------
    entries : RankedEntries
        Every retrieved document, unjudged ones included (a tie group's size
        counts them), sorted by (query, score descending); ties in any order.
    score : numpy.ndarray
        The score of each entry, aligned with ``entries``.
    measures : sequence of Measure
        Parsed measures.
    threshold : int, default 1
        The lowest grade that counts as relevant.
    denominator : {"relevant", "min_relevant_k"}, default "relevant"
        What AP-type measures divide by; both are fixed whatever the order of a
        tie ("retrieved" is not: it counts hits that the order moves in or out).

    Returns
    -------
    dict of str to numpy.ndarray
        One array of per-query expected values per measure, keyed by its name.

    Examples
    --------
    Two relevant documents among four tied ones, averaged over the 6 placements; the
    first relevant one is at rank 1, 2 or 3 with probability 1/2, 1/3, 1/6:

    >>> import numpy as np
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics import parse_measure
    >>> from mapteach.metrics.ties import expected_scores
    >>> entries = RankedEntries.from_lists([[1, 1, 0, 0]])
    >>> tied = np.ones(4)
    >>> scores = expected_scores(entries, tied, [parse_measure("AP"), parse_measure("RR")])
    >>> {name: values.round(4).tolist() for name, values in scores.items()}
    {'AP': [0.6806], 'RR': [0.7222]}
    """
    check_choice(denominator, ("relevant", "min_relevant_k"), name="denominator")
    if any(measure.family == "Bpref" for measure in measures):
        raise ValueError(
            "Bpref has no tie-aware expectation here (min(n, R) is not linear in the order of "
            "a tie); score it with another ties option, such as 'trec_eval'."
        )
    groups = _tie_groups(entries, score, (entries.grade >= threshold).astype(float))
    log_factorial = _log_factorials(int(groups.size.max(initial=0)))
    order_free = {
        "NumRet": batch_num_retrieved,
        "NumRel": batch_num_relevant,
        "NumRelRet": lambda e: batch_num_relevant_retrieved(e, threshold=threshold),
    }
    out: dict[str, np.ndarray] = {}
    for measure in measures:
        k, family = measure.k, measure.family
        if family in ("AP", "GMAP"):
            out[measure.name] = _expected_ap(entries, groups, k, denominator)
        elif family == "P":
            out[measure.name] = _expected_found(entries, groups, k) / as_k(k)
        elif family in ("R", "Rprec"):
            cutoff = entries.n_relevant[entries.query] if family == "Rprec" else k
            found = _expected_found(entries, groups, cutoff)
            out[measure.name] = _ratio(found, entries.n_relevant)
        elif family == "nDCG":
            out[measure.name] = _expected_ndcg(entries, groups, k)
        elif family == "Success":
            out[measure.name] = _expected_success(entries, groups, as_k(k), log_factorial)
        elif family == "RR":
            out[measure.name] = _expected_rr(entries, groups, k, log_factorial)
        elif family == "Judged":
            out[measure.name] = _expected_judged(entries, groups, k)
        else:
            out[measure.name] = order_free[family](entries)
    return out
