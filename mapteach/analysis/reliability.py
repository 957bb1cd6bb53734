"""How far a test collection's verdict can be trusted: another set of queries, another verdict?

A test collection is a sample of queries. Draw another sample of the same size and
the systems may come out in another order. This module measures how often, on a
table of per-query scores larger than one collection (a population of queries):

- :func:`ranking_agreement`: Kendall's tau between two rankings of the same
  systems (scipy's ``kendalltau``), with the pairs they order the same way and the
  pairs they swap;
- :func:`split_half_reliability`: Voorhees and Buckley's (SIGIR 2002) test, drawn
  many times: two disjoint query sets of n queries each, the systems ranked by
  their mean on each; the mean Kendall's tau between the two rankings, the *swap
  rate* (the share of system pairs in opposite order on the two sets), the
  *discriminative power* (Sakai, SIGIR 2006: the share of system pairs a paired
  test finds significant on one set), and how many of those significant pairs the
  other set reverses;
- :func:`swap_rates`: the swap rate by the size of the difference seen on the
  first set, as Voorhees and Buckley tabulate it: small differences swap often;
- :func:`topic_set_size`: the queries a paired t-test needs for a difference, with
  the variance estimated from every system at once (Sakai, EVIA 2014): twice the
  residual variance of a two-way ANOVA of systems and topics.

Introduced in ``15_comparing_systems_honestly``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from mapteach.analysis.all_pairs import residual_variance
from mapteach.analysis.compare import queries_needed
from mapteach.explain.display import ShownSeries, ShownTable
from mapteach.i18n import N_, tr

__all__ = [
    "RELIABILITY_HEADERS",
    "RankingAgreement",
    "ReliabilityTable",
    "ranking_agreement",
    "split_half_reliability",
    "swap_rates",
    "topic_set_size",
]

#: The header that shows each key of this module's tables.
RELIABILITY_HEADERS: dict[str, str] = {
    "kendall_tau": N_("Kendall's tau of the two rankings"),
    "pairs": N_("pairs of systems"),
    "same_order": N_("pairs in the same order"),
    "swapped": N_("pairs swapped"),
    "tied": N_("pairs tied in a ranking"),
    "set_size": N_("queries per set"),
    "swap_rate": N_("swap rate"),
    "discriminative_power": N_("discriminative power"),
    "significant_swapped": N_("significant pairs swapped"),
    "first_difference": N_("difference on the first set"),
    "draws": N_("pairs drawn"),
}


class ReliabilityTable(ShownTable):
    """A table of this module: stable keys, shown with :data:`RELIABILITY_HEADERS`."""

    headers = RELIABILITY_HEADERS


class RankingAgreement(ShownSeries):
    """:func:`ranking_agreement`'s numbers: stable keys, shown with :data:`RELIABILITY_HEADERS`."""

    headers = RELIABILITY_HEADERS
    frame = ReliabilityTable


def ranking_agreement(a: Mapping[str, float], b: Mapping[str, float]) -> RankingAgreement:
    """Kendall's tau between two rankings of the same systems, and the pairs behind it.

    Each pair of systems is in the *same order* when both scorings put the same
    system ahead, *swapped* when they put different ones ahead, and *tied* when
    either scores the two equally. Without ties Kendall's tau is
    (same - swapped) / pairs: 1 for the same ranking, -1 for the reverse; with ties
    it is scipy's tau-b.

    Parameters
    ----------
    a, b : mapping or pandas.Series of str to float
        Each system's score (its MAP, say) under two collections or two measures;
        the same systems in both, at least 2.

    Returns
    -------
    RankingAgreement
        ``kendall_tau``, ``pairs``, ``same_order``, ``swapped``, ``tied``.

    Raises
    ------
    ValueError
        If the two name different systems, fewer than 2, or a score is not finite.

    Examples
    --------
    >>> from mapteach.analysis import ranking_agreement
    >>> first = {"A": 0.40, "B": 0.35, "C": 0.30, "D": 0.20}
    >>> second = {"A": 0.33, "B": 0.36, "C": 0.25, "D": 0.28}  # A-B and C-D swapped
    >>> agreement = ranking_agreement(first, second)
    >>> agreement[["pairs", "same_order", "swapped"]].astype(int).tolist()
    [6, 4, 2]
    >>> round(float(agreement["kendall_tau"]), 4)  # (4 - 2) / 6
    0.3333
    """
    left, right = _paired_scores(a, b)
    signs = np.array(
        [
            np.sign(left[x] - left[y]) * np.sign(right[x] - right[y])
            for x, y in itertools.combinations(left.index, 2)
        ]
    )
    return RankingAgreement(
        {
            "kendall_tau": float(stats.kendalltau(left, right).statistic),
            "pairs": float(signs.size),
            "same_order": float((signs > 0).sum()),
            "swapped": float((signs < 0).sum()),
            "tied": float((signs == 0).sum()),
        }
    )


def split_half_reliability(
    per_query: pd.DataFrame,
    sizes: Sequence[int],
    *,
    trials: int = 200,
    alpha: float = 0.05,
    seed: int = 0,
) -> ReliabilityTable:
    """How two disjoint query sets of each size agree on the systems, over many draws.

    For each size n, ``trials`` times: draw two disjoint sets of n queries from the
    table's rows, rank the systems by their mean score on each, and compare. The
    paired test is the two-sided paired t-test (scipy) on the first set's deltas.

    Parameters
    ----------
    per_query : pandas.DataFrame
        One row per query, one column of scores per system (at least 2), no
        missing value: a population of queries, at least twice the largest size.
    sizes : sequence of int
        The query-set sizes n, each at least 2.
    trials : int, default 200
        Draws of two sets per size.
    alpha : float, default 0.05
        The level of the paired t-test behind ``discriminative_power``.
    seed : int, default 0
        Seeds the draws, so the table repeats.

    Returns
    -------
    ReliabilityTable
        Index ``set_size`` (the sizes n). Columns: ``kendall_tau`` (the mean over the
        draws of Kendall's tau between the two sets' rankings), ``swap_rate`` (the
        share of system pairs, over all draws, in opposite order on the two sets),
        ``discriminative_power`` (the share of pairs with p <= ``alpha`` on the
        first set) and ``significant_swapped`` (of those, the share in opposite
        order on the second set; NaN when none is significant). ``attrs``: ``trials``,
        ``alpha``, ``systems``, ``pairs``.

    Raises
    ------
    ValueError
        If a size is below 2 or above half the queries, ``trials`` < 1, ``alpha``
        is not in (0, 1), or the table is not one of finite scores.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from mapteach.analysis import split_half_reliability
    >>> rng = np.random.default_rng(0)
    >>> levels = rng.random((400, 1))  # easy and hard queries
    >>> scores = pd.DataFrame(levels + rng.normal(0, 0.1, (400, 3)) + [0.0, 0.02, 0.1],
    ...                       columns=["x", "y", "z"])
    >>> table = split_half_reliability(scores, [5, 100], trials=50)
    >>> bool(table.loc[100, "swap_rate"] < table.loc[5, "swap_rate"])  # more queries agree more
    True
    """
    scores, pairs = _population(per_query, sizes), _pairs(per_query.shape[1])
    _check_trials(trials)
    if not 0 < alpha < 1:
        raise ValueError(
            tr("{name} must be between 0 and 1; got {value}.", name="alpha", value=alpha)
        )
    rng = np.random.default_rng(seed)
    rows = {
        size: _agreement(scores, pairs, _disjoint_sets(rng, len(scores), size, trials), alpha)
        for size in sizes
    }
    table = ReliabilityTable(pd.DataFrame(rows).T.rename_axis("set_size"))
    table.attrs.update(trials=trials, alpha=alpha, systems=scores.shape[1], pairs=len(pairs))
    return table


def swap_rates(
    per_query: pd.DataFrame,
    size: int,
    *,
    edges: Sequence[float] = (0.0, 0.01, 0.02, 0.05),
    trials: int = 200,
    seed: int = 0,
) -> ReliabilityTable:
    """The swap rate of system pairs by the difference of their means on the first set.

    ``trials`` times, two disjoint sets of ``size`` queries are drawn; each pair of
    systems is put in the bin of its absolute difference on the first set, and it
    swaps when the second set orders it the other way (Voorhees and Buckley 2002).

    Parameters
    ----------
    per_query : pandas.DataFrame
        One row per query, one column of scores per system (at least 2), no
        missing value, at least ``2 * size`` queries.
    size : int
        The queries in each set, at least 2.
    edges : sequence of float, default (0.0, 0.01, 0.02, 0.05)
        The lower edges of the bins, increasing from 0; the last bin is open.
    trials : int, default 200
        Draws of two sets.
    seed : int, default 0
        Seeds the draws.

    Returns
    -------
    ReliabilityTable
        Index ``first_difference`` (each bin's lower edge). Columns ``draws`` (the pairs
        that fell in the bin over all draws) and ``swap_rate`` (NaN for an empty
        bin). ``attrs``: ``queries``, ``trials``, ``edges``.

    Raises
    ------
    ValueError
        If ``edges`` does not start at 0 and increase, or as
        :func:`split_half_reliability`.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from mapteach.analysis import swap_rates
    >>> rng = np.random.default_rng(0)
    >>> scores = pd.DataFrame(rng.random((200, 1)) + rng.normal(0, 0.1, (200, 4))
    ...                       + [0.0, 0.005, 0.05, 0.1], columns=list("wxyz"))
    >>> table = swap_rates(scores, 50, edges=(0.0, 0.03))
    >>> bool(table.loc[0.0, "swap_rate"] > table.loc[0.03, "swap_rate"])
    True
    """
    scores, pairs = _population(per_query, [size]), _pairs(per_query.shape[1])
    _check_trials(trials)
    bounds = np.asarray(edges, dtype=float)
    if bounds.size == 0 or bounds[0] != 0 or (np.diff(bounds) <= 0).any():
        raise ValueError(tr("edges must start at 0 and increase; got {edges}.", edges=list(edges)))
    first, second = _disjoint_sets(np.random.default_rng(seed), len(scores), size, trials)
    gaps_first = _pair_gaps(scores[first].mean(axis=1), pairs).ravel()
    gaps_second = _pair_gaps(scores[second].mean(axis=1), pairs).ravel()
    bins = np.searchsorted(bounds, np.abs(gaps_first), side="right") - 1
    swapped = gaps_first * gaps_second < 0
    draws = np.bincount(bins, minlength=bounds.size)
    swaps = np.bincount(bins, weights=swapped, minlength=bounds.size)
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = np.where(draws > 0, swaps / np.maximum(draws, 1), np.nan)
    table = ReliabilityTable(
        {"draws": draws, "swap_rate": rates}, index=pd.Index(bounds, name="first_difference")
    )
    table.attrs.update(queries=size, trials=trials, edges=tuple(float(e) for e in bounds))
    return table


def topic_set_size(
    per_query: pd.DataFrame, difference: float, *, power: float = 0.8, alpha: float = 0.05
) -> int:
    """The queries a paired t-test needs for ``difference``, the variance taken from every system.

    The per-query deltas of a pair of systems have variance 2σ² when each score is
    system effect + topic effect + an error of variance σ²; σ² is estimated by
    :func:`residual_variance` over all the systems of the table (Sakai, EVIA 2014),
    and the size is :func:`~mapteach.analysis.compare.queries_needed` for the
    spread sqrt(2σ²).

    Parameters
    ----------
    per_query : pandas.DataFrame
        One row per query, one column of scores per system (at least 2 of each).
    difference : float
        The difference in MAP to detect, > 0.
    power : float, default 0.8
        The chance of detecting it.
    alpha : float, default 0.05
        The test's level.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If the table has no residual variance (the systems differ by a constant on
        every query), or as :func:`~mapteach.analysis.compare.queries_needed`.

    Examples
    --------
    >>> import pandas as pd
    >>> from mapteach.analysis import queries_needed, topic_set_size
    >>> table = pd.DataFrame({"x": [0.2, 0.6, 0.4, 0.3], "y": [0.4, 0.5, 0.5, 0.4]})
    >>> topic_set_size(table, 0.05)  # to see 0.05 at 80% power, level 0.05
    52

    With two systems, 2σ² estimated this way is the variance of their deltas
    (0.2, -0.1, 0.1, 0.1):

    >>> topic_set_size(table, 0.05) == queries_needed((table["y"] - table["x"]).std(), 0.05)
    True
    """
    variance = residual_variance(per_query)
    if not variance > 1e-15:
        raise ValueError(
            tr(
                "the table has no residual variance: every system differs from the others by "
                "the same amount on every query, so any difference is seen on one query."
            )
        )
    return queries_needed(math.sqrt(2 * variance), difference, power=power, alpha=alpha)


def _paired_scores(a: Any, b: Any) -> tuple[pd.Series, pd.Series]:
    """Two scorings of the same systems as float Series, checked."""
    left, right = pd.Series(a, dtype=float), pd.Series(b, dtype=float)
    same = set(left.index) == set(right.index) and len(left.index) == len(right.index)
    if not (same and left.index.is_unique):
        raise ValueError(
            tr(
                "the two rankings must name the same systems; got {left} and {right}.",
                left=sorted(map(str, left.index)),
                right=sorted(map(str, right.index)),
            )
        )
    if len(left) < 2:
        raise ValueError(tr("a ranking needs at least 2 systems."))
    if not (np.isfinite(left).all() and np.isfinite(right).all()):
        raise ValueError(tr("every system needs a finite score in both rankings."))
    return left, right.loc[left.index]


def _population(per_query: pd.DataFrame, sizes: Sequence[int]) -> np.ndarray:
    """The population's scores (queries x systems), checked against the set sizes."""
    if not isinstance(per_query, pd.DataFrame) or per_query.shape[1] < 2:
        raise ValueError(
            tr("per_query must be a DataFrame with one column per system, at least 2.")
        )
    scores = per_query.to_numpy(dtype=float)
    if not np.isfinite(scores).all():
        raise ValueError(tr("every system needs a finite score on every query."))
    largest = len(scores) // 2
    for size in sizes:
        if isinstance(size, bool) or not isinstance(size, int | np.integer):
            raise TypeError(
                tr("each size must be a whole number of queries; got {size!r}.", size=size)
            )
        if not 2 <= size <= largest:
            raise ValueError(
                tr(
                    "size {size} is not between 2 and {largest}: two disjoint sets of it must "
                    "fit in the {queries} queries.",
                    size=size,
                    largest=largest,
                    queries=len(scores),
                )
            )
    return scores


def _check_trials(trials: int) -> None:
    if isinstance(trials, bool) or not isinstance(trials, int | np.integer) or trials < 1:
        raise ValueError(tr("trials must be a whole number >= 1; got {trials!r}.", trials=trials))


def _agreement(
    scores: np.ndarray, pairs: np.ndarray, sets: tuple[np.ndarray, np.ndarray], alpha: float
) -> dict[str, float]:
    """One row of :func:`split_half_reliability`: how the draws' two sets agree."""
    first, second = sets
    means_first, means_second = scores[first].mean(axis=1), scores[second].mean(axis=1)
    swapped = _pair_gaps(means_first, pairs) * _pair_gaps(means_second, pairs) < 0
    deltas = scores[first][:, :, pairs[:, 1]] - scores[first][:, :, pairs[:, 0]]
    significant = _t_test_p(deltas) <= alpha
    taus = [
        stats.kendalltau(x, y).statistic for x, y in zip(means_first, means_second, strict=True)
    ]
    return {
        "kendall_tau": float(np.mean(taus)),
        "swap_rate": float(swapped.mean()),
        "discriminative_power": float(significant.mean()),
        "significant_swapped": float(swapped[significant].mean()) if significant.any() else np.nan,
    }


def _pairs(systems: int) -> np.ndarray:
    """Every pair (i, j), i < j, of the systems' columns, as a (pairs x 2) array."""
    return np.array(list(itertools.combinations(range(systems), 2)))


def _disjoint_sets(
    rng: np.random.Generator, queries: int, size: int, trials: int
) -> tuple[np.ndarray, np.ndarray]:
    """``trials`` pairs of disjoint sets of ``size`` query positions: two (trials x size)."""
    drawn = np.argsort(rng.random((trials, queries)), axis=1)[:, : 2 * size]
    return drawn[:, :size], drawn[:, size:]


def _pair_gaps(means: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """Each draw's mean of system j minus system i, for every pair: (trials x pairs)."""
    return means[:, pairs[:, 1]] - means[:, pairs[:, 0]]


def _t_test_p(deltas: np.ndarray) -> np.ndarray:
    """The paired t-test's two-sided p of each draw and pair (deltas: trials x n x pairs).

    Deltas without spread have no t statistic: their p is NaN, never significant.
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        return stats.ttest_1samp(deltas, 0.0, axis=1).pvalue
