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
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.special import gammaln

from mapteach.metrics.names import Measure
from mapteach.metrics.ndcg import ideal_dcg

__all__ = ["expected_scores"]


def _log_comb(n: np.ndarray, k: np.ndarray) -> np.ndarray:
    """log C(n, k), -inf where k > n or k < 0."""
    n, k = np.asarray(n, float), np.asarray(k, float)
    valid = (k >= 0) & (k <= n)
    out = np.full(np.broadcast(n, k).shape, -np.inf)
    safe_k = np.where(valid, k, 0)
    out[valid] = (gammaln(n + 1) - gammaln(safe_k + 1) - gammaln(n - safe_k + 1))[valid]
    return out


def expected_scores(
    query: np.ndarray,
    score: np.ndarray,
    grade: np.ndarray,
    n_queries: int,
    r: np.ndarray,
    ideal_query: np.ndarray,
    ideal_gain: np.ndarray,
    measures: Sequence[Measure],
    threshold: int,
) -> dict[str, np.ndarray]:
    """Tie-aware expected value of each measure, per query.

    Rows must be sorted by (query, score descending); ties may be in any order.
    """
    n = query.size
    relevant = (grade >= threshold).astype(float)
    gain = np.maximum(grade, 0.0)
    new_group = np.ones(n, bool)
    new_group[1:] = (query[1:] != query[:-1]) | (score[1:] != score[:-1])
    group = np.cumsum(new_group) - 1
    size = np.bincount(group).astype(float)
    hits_in = np.bincount(group, weights=relevant)
    mean_gain = np.bincount(group, weights=gain) / size
    group_start = np.flatnonzero(new_group)
    counts = np.bincount(query, minlength=n_queries)
    query_start = np.cumsum(counts) - counts
    group_query = query[group_start]
    above = group_start - query_start[group_query]  # ranks above the group, t
    running = np.r_[0.0, np.cumsum(relevant)]
    hits_above = running[group_start] - running[query_start[group_query]]  # h
    rank = np.arange(n) - query_start[query] + 1
    offset = rank - above[group]  # i, 1-based inside the group
    n_g, r_g = size[group], hits_in[group]
    p_relevant = r_g / n_g
    has_r = r > 0
    out: dict[str, np.ndarray] = {}

    def per_query(weights: np.ndarray) -> np.ndarray:
        return np.bincount(query, weights=weights, minlength=n_queries)

    for measure in measures:
        k = measure.k
        cut = np.ones(n, bool) if k is None else rank <= k
        if measure.family == "AP":
            expected_hits = (
                hits_above[group] + 1 + (offset - 1) * (r_g - 1) / np.maximum(n_g - 1, 1)
            )
            share = np.where(cut, p_relevant * expected_hits / rank, 0.0)
            out[measure.name] = np.divide(per_query(share), r, out=np.zeros(n_queries), where=has_r)
        elif measure.family in ("P", "R"):
            found = per_query(np.where(cut, p_relevant, 0.0))
            out[measure.name] = (
                found / k
                if measure.family == "P"
                else np.divide(found, r, out=np.zeros(n_queries), where=has_r)
            )
        elif measure.family == "nDCG":
            dcg = per_query(np.where(cut, mean_gain[group] / np.log2(rank + 1.0), 0.0))
            idcg = ideal_dcg(ideal_query, ideal_gain, n_queries, k)
            out[measure.name] = np.divide(dcg, idcg, out=np.zeros(n_queries), where=idcg > 0)
        elif measure.family == "Success":
            seen = np.minimum(size, k - above).clip(min=0)  # ranks of each group within the top k
            log_none = _log_comb(size - hits_in, seen) - _log_comb(size, seen)
            log_none = np.where(seen > 0, log_none, 0.0)
            impossible = np.bincount(group_query, weights=np.isinf(log_none), minlength=n_queries)
            total = np.bincount(
                group_query,
                weights=np.where(np.isinf(log_none), 0.0, log_none),
                minlength=n_queries,
            )
            out[measure.name] = np.where(impossible > 0, 1.0, 1.0 - np.exp(total))
        else:  # RR: the first relevant document lies in the first group that has one
            first_group = np.full(n_queries, -1)
            with_hits = np.flatnonzero(hits_in > 0)
            firsts = (
                with_hits[np.r_[True, group_query[with_hits][1:] != group_query[with_hits][:-1]]]
                if with_hits.size
                else with_hits
            )
            first_group[group_query[firsts]] = firsts
            in_first = group == first_group[query]
            # P(first relevant of the group at offset i) = C(n - i, r - 1) / C(n, r)
            log_p = _log_comb(n_g - offset, r_g - 1) - _log_comb(n_g, r_g)
            weight = np.where(in_first & cut, np.exp(log_p) / rank, 0.0)
            out[measure.name] = per_query(weight)
    return out
