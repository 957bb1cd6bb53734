"""Paired significance tests over queries, multiple-comparison corrections, and power."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from types import MappingProxyType

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.multitest import multipletests  # type: ignore[import-untyped]

from mapteach.explain.display import ShownSeries, ShownTable
from mapteach.i18n import N_, tr

__all__ = [
    "COMPARISON_HEADERS",
    "CORRECTIONS",
    "TESTS",
    "ComparisonSummary",
    "ComparisonTable",
    "paired_randomization_test",
]

EXACT_LIMIT = 16


#: The paired tests every comparison runs on the deltas B - A: the name
#: :func:`compare_systems` takes as ``test``, and the summary key of its p-value.
TESTS: Mapping[str, str] = MappingProxyType(
    {
        "randomization": "p_randomization",
        "t-test": "p_ttest",
        "wilcoxon": "p_wilcoxon",
        "sign": "p_sign",
    }
)

#: The header that shows each key of a comparison's summary and of a comparison of
#: several systems (:func:`~mapteach.analysis.compare.compare_systems`).
COMPARISON_HEADERS: dict[str, str] = {
    "mean_a": N_("mean A"),
    "mean_b": N_("mean B"),
    "mean_delta": N_("mean delta (B - A)"),
    "sd_delta": N_("sd of deltas"),
    "ci_low": N_("CI low (bootstrap)"),
    "ci_high": N_("CI high (bootstrap)"),
    "queries": N_("number of queries"),
    "b_better": N_("B better"),
    "b_worse": N_("B worse"),
    "same": N_("same"),
    "p_randomization": N_("p (randomization)"),
    "p_ttest": N_("p (paired t-test)"),
    "p_wilcoxon": N_("p (Wilcoxon)"),
    "p_sign": N_("p (sign test)"),
    "p_adjusted": N_("p adjusted"),
    "significant": N_("significant"),
    "system": N_("system"),
}


class ComparisonTable(ShownTable):
    """Systems compared with a baseline: stable keys, shown with :data:`COMPARISON_HEADERS`."""

    headers = COMPARISON_HEADERS


class ComparisonSummary(ShownSeries):
    """A comparison's summary (:attr:`RunComparison.summary`): stable keys, shown with
    :data:`COMPARISON_HEADERS`."""

    headers = COMPARISON_HEADERS
    frame = ComparisonTable


#: How :func:`compare_systems` adjusts p-values for the number of systems compared
#: (statsmodels' ``multipletests`` methods), or ``"none"``.
CORRECTIONS: tuple[str, ...] = ("holm", "bonferroni", "none")


def paired_randomization_test(
    deltas: np.ndarray, *, n_permutations: int = 100_000, seed: int = 0
) -> float:
    """Two-sided p-value of a paired randomization (sign-flip) test on per-query deltas.

    Under the null hypothesis the two systems are exchangeable on every query,
    so each delta's sign is a coin flip. With up to 16 queries every sign
    pattern is enumerated (exact); beyond that ``n_permutations`` random
    patterns are drawn (seeded, so the result is repeatable).

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.analysis import paired_randomization_test
    >>> paired_randomization_test(np.array([0.1, 0.2, 0.3]))  # 2 of 8 sign patterns reach 0.2
    0.25
    """
    deltas = np.asarray(deltas, dtype=float)
    if deltas.ndim != 1 or deltas.size == 0 or not np.isfinite(deltas).all():
        raise ValueError(
            tr("deltas must be a non-empty 1-D array of finite per-query differences.")
        )
    observed = abs(deltas.mean())
    if deltas.size <= EXACT_LIMIT:
        signs = np.array(list(itertools.product((1.0, -1.0), repeat=deltas.size)))
        return float(np.mean(np.abs(signs @ deltas) / deltas.size >= observed - 1e-12))
    rng = np.random.default_rng(seed)
    extreme = 0
    for start in range(0, n_permutations, 10_000):
        size = min(10_000, n_permutations - start)
        signs = rng.choice((1.0, -1.0), size=(size, deltas.size))
        extreme += int((np.abs(signs @ deltas) / deltas.size >= observed - 1e-12).sum())
    return (extreme + 1) / (n_permutations + 1)


def adjusted_p_values(p_values: np.ndarray, method: str, *, alpha: float = 0.05) -> np.ndarray:
    """statsmodels' ``multipletests`` adjusted p-values over the finite ones only: a NaN
    p-value is no test, and stays NaN.

    >>> import numpy as np
    >>> from mapteach.analysis.paired_tests import adjusted_p_values
    >>> adjusted_p_values(np.array([0.01, np.nan, 0.04]), "holm").tolist()  # 2 tests, not 3
    [0.02, nan, 0.04]
    """
    adjusted = p_values.copy()
    finite = np.isfinite(p_values)
    if finite.any():
        adjusted[finite] = multipletests(p_values[finite], alpha=alpha, method=method)[1]
    return adjusted


def corrected_p_values(
    rows: Mapping[str, pd.Series], *, baseline: str, test: str, correction: str, alpha: float
) -> ComparisonTable:
    """One summary per system, with the p-values of ``test`` adjusted for their number.

    Only the finite p-values count as tests; a NaN p-value stays NaN.
    """
    table = ComparisonTable(pd.DataFrame(rows).T)
    table.index.name = "system"
    p_values = table[TESTS[test]].to_numpy(dtype=float)
    if correction == "none":
        table["p_adjusted"] = p_values.copy()
    else:
        table["p_adjusted"] = adjusted_p_values(p_values, correction, alpha=alpha)
    table["significant"] = table["p_adjusted"] <= alpha
    table.attrs.update(baseline=baseline, test=test, correction=correction, alpha=alpha)
    return table


def paired_t_test(b: np.ndarray, a: np.ndarray) -> tuple[float, tuple[str, ...]]:
    """scipy's paired t-test of B against A, or NaN and the reason when it is undefined."""
    deltas = b - a
    if deltas.size < 2:
        return np.nan, ("p (paired t-test) is NaN: it needs at least 2 queries.",)
    if np.ptp(deltas) <= _NO_SPREAD:
        return np.nan, (
            f"p (paired t-test) is NaN: every delta equals {deltas[0]:.4g}, so the deltas have "
            "no spread and the t statistic is undefined; look at the deltas themselves.",
        )
    return float(stats.ttest_rel(b, a).pvalue), ()


def wilcoxon_test(deltas: np.ndarray) -> tuple[float, tuple[str, ...]]:
    """scipy's Wilcoxon signed-rank test on the deltas, or NaN when every delta is 0."""
    if not deltas.any():
        return np.nan, (
            "p (Wilcoxon) is NaN: every delta is 0, and the test drops zero deltas, so it has "
            "nothing left to rank.",
        )
    return float(stats.wilcoxon(deltas).pvalue), ()


def sign_test(deltas: np.ndarray) -> tuple[float, tuple[str, ...]]:
    """Two-sided binomial test of B's wins against its losses, ties dropped."""
    wins, losses = int((deltas > 0).sum()), int((deltas < 0).sum())
    if wins + losses == 0:
        return np.nan, ("p (sign test) is NaN: every delta is 0, and the test drops ties.",)
    return float(stats.binomtest(wins, wins + losses, 0.5).pvalue), ()


def bootstrap_interval(
    deltas: np.ndarray, *, confidence: float, n_resamples: int, seed: int
) -> tuple[tuple[float, float], tuple[str, ...]]:
    """The percentile bootstrap interval of the mean delta (scipy), or NaN below 2 queries."""
    if deltas.size < 2:
        return (np.nan, np.nan), (
            "The bootstrap interval is NaN: resampling a single query always gives that query.",
        )
    result = stats.bootstrap(
        (deltas,),
        np.mean,
        n_resamples=n_resamples,
        batch=max(1, _BATCH_VALUES // deltas.size),
        confidence_level=confidence,
        method="percentile",
        rng=np.random.default_rng(seed),
    )
    interval = result.confidence_interval
    return (float(interval.low), float(interval.high)), ()


#: Deltas whose range is within this are equal (0.6 - 0.5 and 0.2 - 0.1 differ in the last bit).
_NO_SPREAD = 1e-12


#: Bootstrap resamples are drawn in batches of at most this many values (rows x queries).
_BATCH_VALUES = 2_000_000
