"""Normalised discounted cumulative gain at k (nDCG@k, 归一化折损累计增益)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from mapteach.metrics._validation import as_gains, as_k

__all__ = ["ideal_dcg", "ndcg_at_k"]


def _dcg(gains: np.ndarray) -> float:
    """Sum of gain / log2(rank + 1) over ranks 1, 2, ...: trec_eval's discount."""
    return float((gains / np.log2(np.arange(2, gains.size + 2))).sum())


def ndcg_at_k(gains: Sequence[float], k: int, *, ideal: Sequence[float] | None = None) -> float:
    """nDCG at rank cutoff ``k`` with linear gains, as trec_eval's ``ndcg_cut_k``.

    DCG@k = sum over ranks i <= k of gain_i / log2(i + 1). nDCG@k divides it by
    the DCG@k of the ideal ranking: all judged gains of the query sorted from
    best to worst. Unlike AP, nDCG keeps graded judgments (0, 1, 2, 3, ...).
    Introduced in ``05_legal_search_walkthrough``.

    Parameters
    ----------
    gains : sequence of float
        Graded relevance (gain) of each result, best-ranked first; >= 0.
    k : int
        Rank cutoff, ``k >= 1``.
    ideal : sequence of float, optional
        Gains of every judged document of the query, retrieved or not, in any
        order. It must include each positive gain in ``gains``. Default: the
        gains in the list (every relevant document was retrieved).

    Returns
    -------
    float
        nDCG@k in [0, 1]; 0.0 when the query has no positive gain.

    Raises
    ------
    TypeError
        If ``gains`` or ``ideal`` is not a numeric sequence, or ``k`` not an int.
    ValueError
        If a gain is negative or not finite, ``k < 1``, or ``ideal`` misses a
        positive gain that appears in ``gains``.

    Examples
    --------
    >>> from mapteach import ndcg_at_k
    >>> round(ndcg_at_k([1, 0, 1], 3), 4)  # (1/1 + 1/log2(4)) / (1/1 + 1/log2(3))
    0.9197
    >>> ndcg_at_k([3, 2, 1], 3)  # already ideal
    1.0

    A grade-3 document was judged but never retrieved:

    >>> round(ndcg_at_k([1, 0, 1], 3, ideal=[3, 1, 1]), 4)  # 1.5 / (3/1 + 1/log2(3) + 1/2)
    0.3631
    """
    g = as_gains(gains)
    k = as_k(k)
    if ideal is None:
        pool = g
    else:
        pool = as_gains(ideal, name="ideal")
        missing = Counter(g[g > 0].tolist()) - Counter(pool[pool > 0].tolist())
        if missing:
            gain, count = next(iter(missing.items()))
            raise ValueError(
                f"ideal must list every judged document's gain, but gains has "
                f"{count} more document(s) with gain {gain:g} than ideal."
            )
    best = np.sort(pool)[::-1][:k]
    ideal_dcg = _dcg(best)
    if ideal_dcg == 0.0:
        return 0.0
    return _dcg(g[:k]) / ideal_dcg


def ideal_dcg(query: np.ndarray, gain: np.ndarray, n_queries: int, k: int | None) -> np.ndarray:
    """DCG@k of the ideal ranking of every query at once (the whole-run kernels' helper).

    ``query`` holds codes 0..n_queries-1, sorted, and ``gain`` each query's judged
    gains from best to worst; both are validated by the caller.

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.metrics.ndcg import ideal_dcg
    >>> ideal_dcg(np.array([0, 0, 1]), np.array([3.0, 1.0, 2.0]), 2, None).round(4)  # 3 + 1/log2(3)
    array([3.6309, 2.    ])
    """
    counts = np.bincount(query, minlength=n_queries)
    rank = np.arange(1, query.size + 1) - np.repeat(np.cumsum(counts) - counts, counts)
    keep = np.ones(rank.size, bool) if k is None else rank <= k
    return np.bincount(
        query[keep], weights=gain[keep] / np.log2(rank[keep] + 1.0), minlength=n_queries
    )
