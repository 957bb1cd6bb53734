"""The three source articles' MAP functions, re-expressed with their behaviours kept.

Each takes the same input, ranked document ids per query and the set of
relevant ids per query, so that one input gives three answers (plus
trec_eval's). They are written to be wrong in the ways the articles are:

- article 000 ``average_precision(sorted_relevance)``: divides by the hits found
  in the list, so a relevant document never retrieved costs nothing;
- article 001 ``calculate_map(query_results, relevance_judgements, k)``: cuts the
  list at k and divides by the hits in the top k; a query with no relevant
  document counts 0; a query without judgments is skipped silently;
- article 003 ``mean_average_precision(query_labels, total_relevants, k)``:
  divides by R, but skips queries with R = 0.

Introduced in ``09_why_maps_disagree``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from mapteach.metrics import mean_average_precision

__all__ = ["article_000_map", "article_001_map", "article_003_map", "trec_eval_map"]

Ranked = Mapping[str, Sequence[str]]
Relevant = Mapping[str, set[str]]


def _sum_of_precisions(labels: Sequence[int]) -> tuple[float, int]:
    total, hits = 0.0, 0
    for rank, label in enumerate(labels, start=1):
        if label:
            hits += 1
            total += hits / rank
    return total, hits


def article_000_map(results: Ranked, relevant: Relevant, k: int | None = None) -> float:
    """Article 000's AP: the denominator is the hits found in the (cut) list.

    Examples
    --------
    >>> from mapteach.articles import article_000_map
    >>> article_000_map({"q": ["a", "b"]}, {"q": {"a", "missed"}})  # 1/1 over 1 hit found
    1.0
    """
    aps = []
    for query, docs in results.items():
        labels = [int(d in relevant.get(query, set())) for d in docs[:k]]
        total, hits = _sum_of_precisions(labels)
        aps.append(total / hits if hits else 0.0)
    return float(np.mean(aps))


def article_001_map(results: Ranked, relevant: Relevant, k: int | None = None) -> float:
    """Article 001's ``calculate_map``: cut at k, divide by hits in the top k; skip unjudged.

    Examples
    --------
    >>> from mapteach.articles import article_001_map
    >>> article_001_map({"q": ["x", "a"], "unjudged": ["a"]}, {"q": {"a", "b"}})  # (1/2) / 1
    0.5
    """
    aps = []
    for query, docs in results.items():
        if query not in relevant:
            continue  # queries without judgments are skipped silently
        labels = [int(d in relevant[query]) for d in docs[:k]]
        total, hits = _sum_of_precisions(labels)
        aps.append(total / hits if hits else 0.0)
    return float(np.mean(aps))


def article_003_map(results: Ranked, relevant: Relevant, k: int | None = None) -> float:
    """Article 003's ``mean_average_precision``: divide by R; skip queries with R = 0.

    Examples
    --------
    >>> from mapteach.articles import article_003_map
    >>> article_003_map({"q": ["a", "b"], "empty": ["c"]}, {"q": {"a", "m"}, "empty": set()})
    0.5
    """
    aps = []
    for query, docs in results.items():
        total_relevant = len(relevant.get(query, set()))
        if total_relevant == 0:
            continue  # skipped, not counted as 0
        labels = [int(d in relevant[query]) for d in docs[:k]]
        aps.append(_sum_of_precisions(labels)[0] / total_relevant)
    return float(np.mean(aps))


def trec_eval_map(results: Ranked, relevant: Relevant, k: int | None = None) -> float:
    """trec_eval's MAP on the same input, through :func:`mapteach.mean_average_precision`:
    divide by R, an empty query counts 0, only judged queries count.

    Examples
    --------
    >>> from mapteach.articles import trec_eval_map
    >>> trec_eval_map({"q": ["a", "b"], "empty": ["c"]}, {"q": {"a", "m"}, "empty": set()})
    0.25
    """
    judged = [query for query in results if query in relevant]
    return mean_average_precision(
        [[int(d in relevant[q]) for d in results[q]] for q in judged],
        n_relevant=[len(relevant[q]) for q in judged],
        k=k,
    )
