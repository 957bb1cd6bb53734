"""Average precision (AP, 平均精度) and its mean over queries (MAP, 平均精度均值).

AP = (sum of P@i over the ranks i that hold a relevant document) / R, where R
is the number of relevant documents the query has, retrieved or not. A relevant
document that was never retrieved adds nothing to the sum but still counts in R.
This is trec_eval's ``map`` (``map_cut_k`` with a cutoff). The module also holds
AP's batch kernel, its tie-aware expectation and its declaration.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import N_, tr
from mapteach.metrics._sums import sum_in_rank_order
from mapteach.metrics.batch import RankedEntries, per_query, ratio, relevant_hits
from mapteach.metrics.declaration import REL, TREC_EVAL_CUTOFFS, Declaration, Parameters
from mapteach.metrics.options import DENOMINATORS, NO_RELEVANT, Denominator, NoRelevant
from mapteach.metrics.ties import TieGroups, sum_per_query, within_cutoff
from mapteach.metrics.validation import (
    as_k,
    as_labels,
    as_n_relevant,
    as_rankings,
    check_choice,
    query_error,
)

__all__ = [
    "AVERAGE_PRECISION",
    "average_precision",
    "batch_average_precision",
    "mean_average_precision",
]


def _precisions_at_hits(y: np.ndarray) -> np.ndarray:
    """P@i at each rank i that holds a relevant document."""
    ranks = np.flatnonzero(y) + 1
    return np.arange(1, ranks.size + 1) / ranks


def average_precision(
    labels: ArrayLike,
    *,
    n_relevant: int | None = None,
    k: int | None = None,
    denominator: Denominator = "relevant",
) -> float:
    """Average precision of one ranked list.

    The sum of P@i at every rank i holding a relevant document, divided by R,
    the query's number of relevant documents. With ``k`` only ranks ``<= k``
    count and the denominator is still R (trec_eval's ``map_cut_k``,
    ir_measures' ``AP@k``). A query with R = 0 scores 0.0. Introduced in
    ``03_average_precision_by_hand``.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    n_relevant : int, optional
        R, the query's total relevant documents, retrieved or not. Default: the
        hits in ``labels`` (every relevant document was retrieved).
    k : int, optional
        Rank cutoff: compute AP@k.
    denominator : {"relevant", "min_relevant_k", "retrieved"}, default "relevant"
        ``"relevant"`` divides by R (trec_eval). ``"min_relevant_k"`` divides by
        min(R, k) (Kaggle ``apk``). ``"retrieved"`` divides by the relevant
        documents within the ranks that count (sklearn; torchmetrics ``top_k``;
        article 001's ``calculate_map``), which overstates AP when relevant
        documents were missed.

    Returns
    -------
    float
        AP in [0, 1].

    Raises
    ------
    TypeError
        If ``labels`` is not a sequence, or ``k``/``n_relevant`` is not an integer.
    ValueError
        If a label is not 0/1, ``k < 1``, ``n_relevant`` is negative or smaller
        than the hits in ``labels``, or ``denominator`` is unknown.

    Examples
    --------
    Article 003's query A, R = 3:

    >>> from mapteach import average_precision
    >>> average_precision([1, 0, 1, 1, 0, 0, 0, 0])  # (1/1 + 2/3 + 3/4) / 3
    0.8055555555555555

    Query B: one of its 3 relevant items was never retrieved, so R stays 3:

    >>> round(average_precision([1, 0, 1, 0, 0], n_relevant=3), 4)  # (1/1 + 2/3) / 3
    0.5556
    >>> round(average_precision([1, 0, 1, 0, 0], n_relevant=3, denominator="retrieved"), 4)
    0.8333

    With a cutoff the denominator stays R:

    >>> average_precision([1, 1, 0, 0, 0, 1, 1, 1, 0, 0], k=3)  # (1/1 + 2/2) / 5
    0.4
    """
    y = as_labels(labels)
    r = as_n_relevant(n_relevant, int(y.sum()))
    check_choice(denominator, DENOMINATORS, name="denominator")
    if k is not None:
        k = as_k(k)
        y = y[:k]
    precisions = _precisions_at_hits(y)
    if denominator == "relevant":
        divisor = r
    elif denominator == "min_relevant_k":
        divisor = r if k is None else min(r, k)
    else:
        divisor = precisions.size
    if divisor == 0:
        return 0.0
    return sum_in_rank_order(precisions) / divisor


def mean_average_precision(
    rankings: Sequence[ArrayLike] | np.ndarray,
    *,
    n_relevant: Sequence[int | None] | np.ndarray | None = None,
    k: int | None = None,
    no_relevant: NoRelevant = "zero",
    denominator: Denominator = "relevant",
) -> float:
    """Mean of :func:`average_precision` over queries (MAP).

    Every query weighs the same, however many relevant documents it has.
    Introduced in ``04_mean_average_precision``.

    Parameters
    ----------
    rankings : sequence of label sequences
        One ranked list of 0/1 labels per query, best first.
    n_relevant : sequence of int or None, optional
        R for each query, aligned with ``rankings``; an entry of None (or the
        whole argument None) means the hits in that query's list.
    k : int, optional
        Rank cutoff applied to every query (MAP@k, denominator still R).
    no_relevant : {"zero", "skip", "one", "error"}, default "zero"
        What a query with R = 0 contributes: AP 0 (trec_eval), nothing
        (article 003), AP 1 (torchmetrics ``empty_target_action="pos"``), or an error.
    denominator : {"relevant", "min_relevant_k", "retrieved"}, default "relevant"
        Passed to :func:`average_precision`.

    Returns
    -------
    float
        MAP in [0, 1].

    Raises
    ------
    TypeError, ValueError
        As :func:`average_precision`, with the query's position in the message;
        ``ValueError`` also if ``rankings`` is empty, ``n_relevant`` is not
        aligned with it, a query has R = 0 under ``no_relevant="error"``, or
        every query was skipped.

    Examples
    --------
    Article 003's queries A, B, C, with R = 3 each:

    >>> from mapteach import mean_average_precision
    >>> a, b, c = [1, 0, 1, 1, 0, 0, 0, 0], [1, 0, 1, 0, 0, 0, 0, 0], [0, 0, 0, 1, 0, 1, 0, 1]
    >>> mean_ap = mean_average_precision([a, b, c], n_relevant=[3, 3, 3])
    >>> round(mean_ap, 4)  # (0.8056 + 0.5556 + 0.3194) / 3
    0.5602

    A query with no relevant document counts 0 by default, or is skipped:

    >>> mean_average_precision([[1, 0], [0, 0]])  # (1 + 0) / 2
    0.5
    >>> mean_average_precision([[1, 0], [0, 0]], no_relevant="skip")  # 1 / 1
    1.0
    """
    queries = as_rankings(rankings)
    check_choice(no_relevant, NO_RELEVANT, name="no_relevant")
    if n_relevant is None:
        totals: list[int | None] = [None] * len(queries)
    else:
        totals = list(n_relevant)
        if len(totals) != len(queries):
            raise ValueError(
                tr(
                    "n_relevant has {totals} entries but rankings has {queries} queries; give "
                    "one R per query, in the same order.",
                    totals=len(totals),
                    queries=len(queries),
                )
            )
    scores = []
    for index, (labels, total) in enumerate(zip(queries, totals, strict=True)):
        try:
            y = as_labels(labels)
            r = as_n_relevant(total, int(y.sum()), name=f"n_relevant[{index}]")
            if r == 0:
                if no_relevant == "error":
                    raise ValueError(
                        tr(
                            "the query has no relevant document (R = 0) and "
                            "no_relevant='error'; choose 'zero', 'skip' or 'one' and "
                            "write the choice down."
                        )
                    )
                if no_relevant != "skip":
                    scores.append(0.0 if no_relevant == "zero" else 1.0)
                continue
            scores.append(average_precision(y, n_relevant=r, k=k, denominator=denominator))
        except (TypeError, ValueError) as error:
            raise query_error(index, error) from None
    if not scores:
        raise ValueError(
            tr(
                "every query has no relevant document (R = 0), so with "
                "no_relevant='skip' there is nothing to average."
            )
        )
    return float(np.mean(scores))


def batch_average_precision(
    entries: RankedEntries,
    *,
    k: int | None = None,
    threshold: int = 1,
    denominator: Denominator = "relevant",
) -> np.ndarray:
    """AP (or AP@k) of every query: :func:`average_precision` at once.

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
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.average_precision import batch_average_precision
    >>> entries = RankedEntries.from_lists([[1, 0, 1, 0, 0], [0, 0]], n_relevant=[3, 0])
    >>> batch_average_precision(entries).round(4).tolist()  # (1/1 + 2/3) / 3
    [0.5556, 0.0]
    >>> batch_average_precision(entries, denominator="retrieved").round(4).tolist()
    [0.8333, 0.0]
    """
    query, rank, hits = relevant_hits(entries, threshold, k)
    total = per_query(entries, query, hits / rank)
    if denominator == "relevant":
        divisor = entries.n_relevant
    elif denominator == "min_relevant_k":
        divisor = entries.n_relevant if k is None else np.minimum(entries.n_relevant, k)
    else:
        divisor = per_query(entries, query)
    return ratio(total, divisor)


def _kernel(entries: RankedEntries, parameters: Parameters) -> np.ndarray:
    return batch_average_precision(
        entries,
        k=parameters.rank_cutoff,
        threshold=parameters.threshold,
        denominator=parameters.denominator,
    )


def _expected(entries: RankedEntries, groups: TieGroups, parameters: Parameters) -> np.ndarray:
    """Each row's expected share of AP's sum (see :mod:`mapteach.metrics.ties`), over the
    divisor."""
    k = parameters.rank_cutoff
    n_g, r_g, rank = groups.size[groups.of_row], groups.hits[groups.of_row], entries.rank
    offset = groups.offset(rank)
    expected_hits = (
        groups.hits_above[groups.of_row] + 1 + (offset - 1) * (r_g - 1) / np.maximum(n_g - 1, 1)
    )
    share = np.where(within_cutoff(entries, k), groups.p_relevant() * expected_hits / rank, 0.0)
    divisor = entries.n_relevant
    if parameters.denominator == "min_relevant_k" and k is not None:
        divisor = np.minimum(divisor, k)
    return ratio(sum_per_query(entries, share), divisor)


def _score(labels: np.ndarray, r: int, k: int | None) -> float:
    return average_precision(labels, n_relevant=r, k=k)


#: AP: trec_eval's ``map`` and ``map_cut``.
AVERAGE_PRECISION = Declaration(
    name="AP",
    description=N_(
        "average precision: the sum of P@i over the ranks i of relevant documents, divided by R"
    ),
    cutoff="optional",
    score=_score,
    kernel=_kernel,
    expectation=_expected,
    trec_eval="map",
    trec_eval_cut="map_cut",
    aliases=("MAP",),
    ap_type=True,
    params={"rel": REL},
    trec_eval_cutoffs=TREC_EVAL_CUTOFFS,
)
