"""Normalised discounted cumulative gain at k (nDCG@k, 归一化折损累计增益).

The module also holds nDCG's batch kernel, its tie-aware expectation and its declaration.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from mapteach.i18n import N_, tr
from mapteach.metrics._sums import sum_in_rank_order
from mapteach.metrics.batch import (
    RankedEntries,
    ideal_ranking,
    per_query,
    ranks_within,
    ratio,
)
from mapteach.metrics.declaration import TREC_EVAL_CUTOFFS, Declaration, Param, Parameters
from mapteach.metrics.options import GAINS, Gain
from mapteach.metrics.params import gains_map
from mapteach.metrics.ties import TieGroups, sum_per_query, within_cutoff
from mapteach.metrics.validation import as_gains, as_k, check_choice

__all__ = ["NDCG", "batch_ndcg", "gain_values", "ideal_dcg", "ndcg_at_k", "with_gains"]


def _dcg(gains: np.ndarray) -> float:
    """Sum of gain / log2(rank + 1) over ranks 1, 2, ..., added in rank order: trec_eval's DCG."""
    return sum_in_rank_order(gains / np.log2(np.arange(2, gains.size + 2)))


def gain_values(grades: np.ndarray, gain: Gain = "linear") -> np.ndarray:
    """The gain of each graded judgment: the grade itself, or 2^grade - 1.

    ``grades`` are validated by the caller: finite and >= 0.

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.metrics.ndcg import gain_values
    >>> gain_values(np.array([0.0, 1.0, 3.0]), "exponential")  # 2^0 - 1, 2^1 - 1, 2^3 - 1
    array([0., 1., 7.])
    """
    check_choice(gain, GAINS, name="gain")
    return grades if gain == "linear" else np.exp2(grades) - 1.0


def ndcg_at_k(
    gains: ArrayLike, k: int, *, ideal: ArrayLike | None = None, gain: Gain = "linear"
) -> float:
    """nDCG at rank cutoff ``k``; with linear gains it is trec_eval's ``ndcg_cut_k``.

    DCG@k = sum over ranks i <= k of gain_i / log2(i + 1). nDCG@k divides it by
    the DCG@k of the ideal ranking: all judged gains of the query sorted from
    best to worst. Unlike AP, nDCG keeps graded judgments (0, 1, 2, 3, ...).
    Introduced in ``05_legal_search_walkthrough``.

    Parameters
    ----------
    gains : sequence of float
        Graded relevance (grade) of each result, best-ranked first; >= 0.
    k : int
        Rank cutoff, ``k >= 1``.
    ideal : sequence of float, optional
        Grades of every judged document of the query, retrieved or not, in any
        order. It must include each positive grade in ``gains``. Default: the
        grades in the list (every relevant document was retrieved).
    gain : {"linear", "exponential"}, default "linear"
        The gain of a grade: the grade itself (trec_eval), or 2^grade - 1
        (Burges et al. 2005), which weighs the top grades more.

    Returns
    -------
    float
        nDCG@k in [0, 1]; 0.0 when the query has no positive gain.

    Raises
    ------
    TypeError
        If ``gains`` or ``ideal`` is not a numeric sequence, or ``k`` not an int.
    ValueError
        If a grade is negative or not finite, ``k < 1``, ``ideal`` misses a
        positive grade that appears in ``gains``, or ``gain`` is unknown.

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

    Exponential gains, 2^grade - 1, make the grade-3 document worth 7:

    >>> round(ndcg_at_k([1, 0, 3], 3, gain="exponential"), 4)  # (1/1 + 7/2) / (7/1 + 1/log2(3))
    0.5897
    """
    g = as_gains(gains)
    k = as_k(k)
    if ideal is None:
        pool = g
    else:
        pool = as_gains(ideal, name="ideal")
        missing = Counter(g[g > 0].tolist()) - Counter(pool[pool > 0].tolist())
        if missing:
            grade, count = next(iter(missing.items()))
            raise ValueError(
                tr(
                    "ideal must list every judged document's gain, but gains has {count} more "
                    "document(s) with gain {grade:g} than ideal.",
                    count=count,
                    grade=grade,
                )
            )
    g, pool = gain_values(g, gain), gain_values(pool, gain)
    best = np.sort(pool)[::-1][:k]
    best_dcg = _dcg(best)
    if best_dcg == 0.0:
        return 0.0
    return _dcg(g[:k]) / best_dcg


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
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.ndcg import ideal_dcg
    >>> entries = RankedEntries.from_lists([[1, 0], [2]], ideal=[[3, 1], [2]])
    >>> ideal_dcg(entries).round(4).tolist()  # 3/1 + 1/log2(3)
    [3.6309, 2.0]
    """
    rank = ranks_within(entries.ideal_query, entries.n_queries)
    keep = slice(None) if k is None else rank <= k
    return per_query(
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
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.ndcg import batch_ndcg
    >>> entries = RankedEntries.from_lists([[1, 0, 1], [0]], ideal=[[3, 1, 1], [0]])
    >>> batch_ndcg(entries, k=3).round(4).tolist()  # 1.5 / (3/1 + 1/log2(3) + 1/2)
    [0.3631, 0.0]
    """
    cut = entries.grade > 0 if k is None else (entries.grade > 0) & (entries.rank <= k)
    dcg = per_query(
        entries, entries.query[cut], entries.grade[cut] / np.log2(entries.rank[cut] + 1.0)
    )
    return ratio(dcg, ideal_dcg(entries, k))


def _mapped(
    grade: np.ndarray, params: Mapping[str, Any], judged: np.ndarray | None = None
) -> np.ndarray:
    """The gain of each grade under nDCG's ``gains`` map and ``dcg`` formulation.

    A gain for grade 0 goes to the judged documents of grade 0 alone (``judged``; all
    of them when None): an unjudged document gains nothing, as in trec_eval.
    """
    gain = grade.astype(float)
    if params.get("gains") is not None:
        gain = np.maximum(gain, 0.0)  # a negative grade is trec_eval's unjudged: no gain
        for level, value in gains_map(params["gains"]).items():
            at_level = grade == level
            if level == 0 and judged is not None:
                at_level &= judged
            gain = np.where(at_level, value, gain)
    if params.get("dcg") == "exp-log2":
        gain = np.exp2(gain) - 1.0
    return gain


def with_gains(entries: RankedEntries, params: Mapping[str, Any]) -> RankedEntries:
    """The entries with each grade replaced by its gain, the ideal ranking sorted anew.

    trec_eval's gain map (``ndcg.1=3,2=9``) gives each listed grade its gain and
    every other grade itself, as trec_eval's gain_init.c and ir_measures'
    ``nDCG(gains=...)`` do; ``dcg="exp-log2"`` then takes 2^gain - 1 (ir_measures).

    Examples
    --------
    >>> from mapteach.metrics.batch import RankedEntries
    >>> from mapteach.metrics.ndcg import with_gains
    >>> entries = with_gains(RankedEntries.from_lists([[1, 2, 4]]), {"gains": "1=3,2=9"})
    >>> entries.grade.tolist(), entries.ideal_gain.tolist()
    ([3.0, 9.0, 4.0], [9.0, 4.0, 3.0])
    """
    if params.get("gains") is None and params.get("dcg", "log2") == "log2":
        return entries
    ideal_query, ideal_gain = ideal_ranking(
        entries.ideal_query, _mapped(entries.ideal_gain, params)
    )
    return replace(
        entries,
        grade=_mapped(entries.grade, params, entries.judged),
        ideal_query=ideal_query,
        ideal_gain=ideal_gain,
    )


def _kernel(entries: RankedEntries, parameters: Parameters) -> np.ndarray:
    return batch_ndcg(with_gains(entries, parameters.params), k=parameters.rank_cutoff)


def _expected(entries: RankedEntries, groups: TieGroups, parameters: Parameters) -> np.ndarray:
    """Expected DCG over the ideal DCG: each row holds its group's mean gain."""
    gained = with_gains(entries, parameters.params)
    mean_gain = (
        groups.mean_gain
        if gained is entries
        else np.bincount(groups.of_row, weights=gained.grade) / groups.size
    )
    gain = mean_gain[groups.of_row] / np.log2(entries.rank + 1.0)
    dcg = sum_per_query(
        entries, np.where(within_cutoff(entries, parameters.rank_cutoff), gain, 0.0)
    )
    return ratio(dcg, ideal_dcg(gained, parameters.rank_cutoff))


def _score(labels: np.ndarray, r: int, k: int | None, **_: Any) -> float:
    # Without a cutoff the ideal ranking holds all R relevant documents. On 0/1 labels
    # the gain map and the exp-log2 gain scale the DCG and the ideal DCG alike.
    return ndcg_at_k(labels, k or max(labels.size, r, 1), ideal=np.ones(r))


#: nDCG: trec_eval's ``ndcg`` (with its gain map) and ``ndcg_cut``.
NDCG = Declaration(
    name="nDCG",
    description=N_(
        "normalised discounted cumulative gain, log2 discount; the gain is the grade, "
        "2^grade - 1 with dcg='exp-log2', or trec_eval's gain map with gains"
    ),
    cutoff="optional",
    score=_score,
    kernel=_kernel,
    expectation=_expected,
    trec_eval="ndcg",
    trec_eval_cut="ndcg_cut",
    params={
        "dcg": Param(
            "log2",
            "str",
            choices=("log2", "exp-log2"),
            description=N_("the gain of a grade: the grade (log2), or 2^grade - 1 (exp-log2)"),
        ),
        "gains": Param(
            None,
            "gains",
            description=N_(
                "trec_eval's gain map, such as 1=3,2=9: each listed grade's gain; other "
                "grades keep their own"
            ),
            minimum=0,
            trec_eval_suffix=True,
        ),
    },
    trec_eval_cutoffs=TREC_EVAL_CUTOFFS,
)
