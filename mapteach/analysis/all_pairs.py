"""Every pair of systems at once: paired tests, Holm and Benjamini–Hochberg, Tukey's HSD.

Comparing m systems with each other makes m(m - 1)/2 tests. Each adjustment of
their p-values controls a different error:

- **Holm** (as Bonferroni, but rejecting at least as much) controls the
  *family-wise error rate* (FWER): the chance of even one false alarm among all
  the pairs;
- **Benjamini–Hochberg** controls the *false discovery rate* (FDR): the expected
  share of false alarms among the pairs called significant. It calls more pairs
  significant, and accepts that some of them are false;
- **Tukey's HSD** (honestly significant difference) tests every pair at once from
  one analysis of variance (ANOVA), with the studentized range of the systems'
  means; it controls the FWER too. Its one-way form (statsmodels'
  ``pairwise_tukeyhsd``) ignores that every system ran the same queries, so the
  query-to-query variance goes into its error; with the topics as a second
  factor (a two-way ANOVA without interaction, Carterette, TOIS 2012) the error is
  what is left once each topic's level is removed.

Introduced in ``15_comparing_systems_honestly``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.multicomp import pairwise_tukeyhsd  # type: ignore[import-untyped]

from mapteach.analysis.paired_tests import (
    COMPARISON_HEADERS,
    TESTS,
    adjusted_p_values,
    paired_randomization_test,
    paired_t_test,
    sign_test,
    wilcoxon_test,
)
from mapteach.explain.display import ShownTable
from mapteach.i18n import N_, tr
from mapteach.metrics.validation import check_choice

__all__ = ["PAIRS_HEADERS", "PairsTable", "compare_all_pairs", "residual_variance"]

#: The header that shows each key of :func:`compare_all_pairs`'s table.
PAIRS_HEADERS: dict[str, str] = {
    **{key: COMPARISON_HEADERS[key] for key in ("mean_delta", "sd_delta", *TESTS.values())},
    "system_a": N_("system A"),
    "system_b": N_("system B"),
    "p_holm": N_("p (Holm)"),
    "p_bh": N_("p (Benjamini–Hochberg)"),
    "p_tukey": N_("p (Tukey HSD, one-way)"),
    "p_tukey_topics": N_("p (Tukey HSD, topics as a factor)"),
}


class PairsTable(ShownTable):
    """:func:`compare_all_pairs`'s table: stable keys, shown with :data:`PAIRS_HEADERS`."""

    headers = PAIRS_HEADERS


def compare_all_pairs(
    per_query: pd.DataFrame,
    *,
    test: str = "t-test",
    n_permutations: int = 100_000,
    seed: int = 0,
) -> PairsTable:
    """Compare every pair of systems of a per-query table, with every multiple-test adjustment.

    For each pair (A, B), A the column that comes first, the paired ``test`` gives
    a p-value on the deltas B - A; the p-values of all pairs are then adjusted by
    Holm (FWER) and by Benjamini–Hochberg (FDR) with statsmodels'
    ``multipletests``. Beside them, Tukey's HSD p-value of the pair: one-way
    (statsmodels' ``pairwise_tukeyhsd``, every score a separate observation) and
    with the topics as a factor, where the studentized range
    q = |mean B - mean A| / sqrt(MSE / n) is read with the residual mean square of
    a two-way ANOVA (:func:`residual_variance`) and its (n - 1)(m - 1) degrees of
    freedom (scipy's ``studentized_range``).

    Parameters
    ----------
    per_query : pandas.DataFrame
        One row per query, one column of scores per system (at least 2 queries, 2
        systems, column names unique strings), no missing value.
    test : {"t-test", "randomization", "wilcoxon", "sign"}, default "t-test"
        The paired test whose p-values Holm and Benjamini–Hochberg adjust.
    n_permutations : int, default 100,000
        Random sign patterns of the randomization test beyond 16 queries.
    seed : int, default 0
        Seeds the randomization test.

    Returns
    -------
    PairsTable
        One row per pair, index (``system_a``, ``system_b``); columns
        ``mean_delta`` (B - A), ``sd_delta`` (the deltas' standard deviation, the
        spread each paired test reads), the test's p-value (its key in :data:`TESTS`),
        ``p_holm``, ``p_bh``, ``p_tukey`` and ``p_tukey_topics``. ``attrs`` holds
        ``test``, ``systems``, ``queries`` and ``pairs``. ``.display()`` shows it.

    Raises
    ------
    ValueError
        If the table has fewer than 2 queries or systems, a missing or infinite
        score, repeated or non-text column names, or ``test`` is unknown.

    Examples
    --------
    >>> import pandas as pd
    >>> from mapteach.analysis import compare_all_pairs
    >>> table = pd.DataFrame({"x": [0.2, 0.4, 0.5, 0.3], "y": [0.3, 0.6, 0.6, 0.4],
    ...                       "z": [0.2, 0.5, 0.4, 0.3]})
    >>> pairs = compare_all_pairs(table)
    >>> pairs.index.tolist()
    [('x', 'y'), ('x', 'z'), ('y', 'z')]
    >>> pairs["mean_delta"].round(4).tolist()  # y - x, z - x, z - y
    [0.125, 0.0, -0.125]
    >>> bool((pairs["p_holm"] >= pairs["p_bh"]).all())  # FWER is the stricter promise
    True
    """
    scores = _checked_scores(per_query)
    check_choice(test, list(TESTS), name="test")
    names = list(per_query.columns)
    pairs = list(itertools.combinations(range(len(names)), 2))
    p_test = np.array(
        [_paired_p(scores[:, j] - scores[:, i], test, n_permutations, seed) for i, j in pairs]
    )
    table = PairsTable(
        {
            "mean_delta": [scores[:, j].mean() - scores[:, i].mean() for i, j in pairs],
            "sd_delta": [np.std(scores[:, j] - scores[:, i], ddof=1) for i, j in pairs],
            TESTS[test]: p_test,
            "p_holm": adjusted_p_values(p_test, "holm"),
            "p_bh": adjusted_p_values(p_test, "fdr_bh"),
            "p_tukey": _tukey_one_way(scores, names, pairs),
            "p_tukey_topics": _tukey_with_topics(scores, pairs),
        },
        index=pd.MultiIndex.from_tuples(
            [(names[i], names[j]) for i, j in pairs], names=["system_a", "system_b"]
        ),
    )
    table.attrs.update(test=test, systems=len(names), queries=len(scores), pairs=len(pairs))
    return table


def residual_variance(per_query: pd.DataFrame) -> float:
    """The residual mean square of a two-way ANOVA of systems and topics, without interaction.

    Each score is modelled as grand mean + system effect + topic effect + error;
    the residual of a score is what is left once its system's and its topic's
    means are removed (score - topic mean - system mean + grand mean), and the
    mean square divides their sum of squares by (n - 1)(m - 1) for n queries and
    m systems. It estimates the variance of the error, the variance that is left
    when each query's own level (easy or hard) is taken out. Sakai (EVIA 2014)
    plans a collection's number of topics from this estimate.

    Parameters
    ----------
    per_query : pandas.DataFrame
        One row per query, one column of scores per system (at least 2 of each),
        no missing value.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If the table has fewer than 2 queries or systems, or a missing score.

    Examples
    --------
    >>> import pandas as pd
    >>> from mapteach.analysis import residual_variance
    >>> additive = pd.DataFrame({"x": [0.2, 0.6], "y": [0.3, 0.7]})  # y = x + 0.1 on each query
    >>> round(residual_variance(additive), 12)
    0.0
    >>> round(residual_variance(pd.DataFrame({"x": [0.2, 0.6], "y": [0.4, 0.4]})), 4)  # 4 × 0.1²
    0.04
    """
    return _residual_mean_square(_checked_scores(per_query))


def _residual_mean_square(scores: np.ndarray) -> float:
    """:func:`residual_variance` of a checked score matrix (queries x systems)."""
    residuals = (
        scores - scores.mean(axis=1, keepdims=True) - scores.mean(axis=0, keepdims=True)
    ) + scores.mean()
    queries, systems = scores.shape
    return float((residuals**2).sum() / ((queries - 1) * (systems - 1)))


def _checked_scores(per_query: pd.DataFrame) -> np.ndarray:
    """The table's scores as a float matrix (queries x systems), checked."""
    if not isinstance(per_query, pd.DataFrame):
        raise TypeError(
            tr(
                "per_query must be a pandas DataFrame with one row per query and one column of "
                "scores per system; got {kind}.",
                kind=type(per_query).__name__,
            )
        )
    queries, systems = per_query.shape
    if queries < 2 or systems < 2:
        raise ValueError(
            tr(
                "per_query has {queries} queries and {systems} systems; comparing systems "
                "across queries needs at least 2 of each.",
                queries=queries,
                systems=systems,
            )
        )
    names = list(per_query.columns)
    if not all(isinstance(name, str) for name in names) or len(set(names)) < systems:
        raise ValueError(
            tr("the systems' names must be distinct strings; got {names}.", names=names)
        )
    scores = per_query.to_numpy(dtype=float)
    if not np.isfinite(scores).all():
        row, column = np.argwhere(~np.isfinite(scores))[0]
        raise ValueError(
            tr(
                "the score of system {system!r} on query {query!r} is {score}; every system "
                "needs a finite score on every query.",
                system=names[column],
                query=per_query.index[row],
                score=scores[row, column],
            )
        )
    return scores


def _paired_p(deltas: np.ndarray, test: str, n_permutations: int, seed: int) -> float:
    """The two-sided p-value of ``test`` on one pair's deltas (NaN where it is undefined)."""
    if test == "randomization":
        return paired_randomization_test(deltas, n_permutations=n_permutations, seed=seed)
    if test == "t-test":
        return paired_t_test(deltas, np.zeros_like(deltas))[0]
    if test == "wilcoxon":
        return wilcoxon_test(deltas)[0]
    return sign_test(deltas)[0]


def _tukey_one_way(scores: np.ndarray, names: list[str], pairs: list[tuple[int, int]]) -> Any:
    """statsmodels' one-way Tukey HSD p-value of each pair, every score one observation."""
    result = pairwise_tukeyhsd(scores.T.ravel(), np.repeat(names, len(scores)))
    found: Mapping[frozenset[str], float] = {
        frozenset(pair): float(p)
        for pair, p in zip(
            itertools.combinations(result.groupsunique, 2), result.pvalues, strict=True
        )
    }
    return np.array([found[frozenset((names[i], names[j]))] for i, j in pairs])


def _tukey_with_topics(scores: np.ndarray, pairs: list[tuple[int, int]]) -> np.ndarray:
    """Tukey HSD p-values with the residual error of the two-way ANOVA (systems and topics)."""
    queries, systems = scores.shape
    error = _residual_mean_square(scores)
    means = scores.mean(axis=0)
    gaps = np.array([abs(means[j] - means[i]) for i, j in pairs])
    if error == 0:  # no error at all: any gap is certain, no gap is no evidence
        return np.where(gaps > 0, 0.0, 1.0)
    studentized = gaps / math.sqrt(error / queries)
    return stats.studentized_range.sf(studentized, systems, (queries - 1) * (systems - 1))
