"""Compare systems query by query: deltas, a bootstrap interval, paired tests, many systems."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy import stats

from mapteach.analysis.deltas import DeltaTable
from mapteach.analysis.paired_tests import (
    CORRECTIONS,
    TESTS,
    ComparisonSummary,
    ComparisonTable,
    bootstrap_interval,
    corrected_p_values,
    paired_randomization_test,
    paired_t_test,
    sign_test,
    wilcoxon_test,
)
from mapteach.i18n import tr
from mapteach.metrics.options import MISSING, Missing
from mapteach.metrics.validation import check_choice
from mapteach.runs.evaluation import evaluate
from mapteach.runs.frames import as_qrels, as_run

__all__ = [
    "RunComparison",
    "compare_many",
    "compare_runs",
    "compare_scores",
    "compare_systems",
    "queries_needed",
]


#: The summary's counts, shown as whole numbers.
_COUNTS = ("queries", "b_better", "b_worse", "same")


@dataclass(frozen=True)
class RunComparison:
    """Per-query scores of systems A and B on one measure, and what they say.

    Every statistic is computed on the deltas B - A: the four p-values (NaN where a
    test is undefined, with the reason in ``notes``) and the percentile-bootstrap
    interval ``ci_low`` to ``ci_high`` of the mean delta, at level ``confidence``.
    :attr:`summary` holds them all, keyed for code; :meth:`display` shows it to people.
    """

    measure: str
    per_query: DeltaTable
    p_randomization: float
    p_ttest: float
    p_wilcoxon: float
    p_sign: float
    ci_low: float
    ci_high: float
    confidence: float
    #: Why a statistic is NaN, one sentence each; empty when all could be computed.
    notes: tuple[str, ...] = ()

    @property
    def summary(self) -> ComparisonSummary:
        """The comparison in numbers, keyed for code; :meth:`display` shows it to people.

        Returns
        -------
        ComparisonSummary
            A pandas Series (``attrs``: ``measure``, ``confidence``) with these keys:

            - ``mean_a``, ``mean_b``: the mean score (MAP for AP) of A and of B;
            - ``mean_delta``: the mean of the per-query deltas B - A;
            - ``sd_delta``: their standard deviation (``ddof=1``; NaN for one query);
            - ``ci_low``, ``ci_high``: the percentile-bootstrap interval of the mean delta;
            - ``queries``: the number of queries compared;
            - ``b_better``, ``b_worse``, ``same``: the queries where B scores higher,
              lower, the same;
            - ``p_randomization``, ``p_ttest``, ``p_wilcoxon``, ``p_sign``: the p-values
              of the paired randomization test, t-test, Wilcoxon signed-rank test and
              sign test (the values of :data:`TESTS`).
        """
        delta = self.per_query["delta"]
        summary = ComparisonSummary(
            {
                "mean_a": self.per_query["A"].mean(),
                "mean_b": self.per_query["B"].mean(),
                "mean_delta": delta.mean(),
                "sd_delta": delta.std(ddof=1) if len(delta) > 1 else np.nan,
                "ci_low": self.ci_low,
                "ci_high": self.ci_high,
                "queries": len(delta),
                "b_better": int((delta > 0).sum()),
                "b_worse": int((delta < 0).sum()),
                "same": int((delta == 0).sum()),
                TESTS["randomization"]: self.p_randomization,
                TESTS["t-test"]: self.p_ttest,
                TESTS["wilcoxon"]: self.p_wilcoxon,
                TESTS["sign"]: self.p_sign,
            }
        )
        summary.attrs.update(measure=self.measure, confidence=self.confidence)
        return summary

    def display(self, *, lang: str | None = None, digits: int | None = 4) -> pd.Series:
        """The summary's display form: headers in the current language (or ``lang``),
        floats rounded to ``digits``; the values of :attr:`summary`.

        The counts (``queries``, ``b_better``, ``b_worse``, ``same``) are shown as
        whole numbers.

        >>> from mapteach.analysis import compare_scores
        >>> shown = compare_scores([0.2, 0.4], [0.3, 0.6]).display(lang="zh")
        >>> shown.index[2], float(shown.iloc[2]), shown.iloc[6]
        ('平均差值（B − A）', 0.15, 2)
        """
        shown = self.summary.display(lang=lang, digits=digits).astype(object)
        for key in _COUNTS:
            shown.iloc[self.summary.index.get_loc(key)] = int(self.summary[key])
        return shown

    def __str__(self) -> str:
        lines = [tr("{k}: {v:.4g}", k=k, v=v) for k, v in self.display(digits=None).items()]
        return "\n".join([*lines, *self.notes])

    def improved(self, n: int = 5) -> DeltaTable:
        """The ``n`` queries B improved most (rows of :attr:`per_query`)."""
        return self.per_query[self.per_query["delta"] > 0].nlargest(n, "delta")

    def declined(self, n: int = 5) -> DeltaTable:
        """The ``n`` queries B made worse the most (rows of :attr:`per_query`)."""
        return self.per_query[self.per_query["delta"] < 0].nsmallest(n, "delta")


def compare_scores(
    a: ArrayLike,
    b: ArrayLike,
    *,
    measure: str = "AP",
    n_permutations: int = 100_000,
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> RunComparison:
    """Compare two systems from their per-query scores on the same queries.

    Every statistic is computed on the deltas B - A, with scipy's defaults where
    scipy has the test: the paired t-test (``ttest_rel``), the Wilcoxon
    signed-rank test (``wilcoxon``: zero deltas dropped), the sign test
    (``binomtest`` on wins against losses, ties dropped, two-sided), the paired
    randomization test (:func:`paired_randomization_test`), and a percentile
    bootstrap interval of the mean delta (``bootstrap``, ``method="percentile"``,
    resampling queries). A statistic that is undefined on these deltas (too few
    queries, no spread, no non-zero delta) is NaN, and ``notes`` says why.

    Parameters
    ----------
    a, b : pandas.Series or array-like of float
        Per-query scores of systems A and B. Two Series must have the same query
        ids (their order may differ); arrays must have the same length.
    measure : str, default "AP"
        The measure's name, for the labels.
    n_permutations : int, default 100,000
        Random sign patterns of the randomization test beyond 16 queries.
    n_resamples : int, default 10,000
        Bootstrap resamples.
    confidence : float, default 0.95
        The bootstrap interval's level.
    seed : int, default 0
        Seeds the randomization test and the bootstrap, so results repeat.

    Returns
    -------
    RunComparison

    Raises
    ------
    ValueError
        If the scores are not finite, of different lengths, indexed by different
        queries, or empty, or ``confidence`` is not in (0, 1).

    Examples
    --------
    >>> from mapteach.analysis import compare_scores
    >>> result = compare_scores([0.2, 0.4, 0.5, 0.3], [0.3, 0.6, 0.5, 0.4])
    >>> keys = ["mean_delta", "b_better", "same", "p_sign"]
    >>> result.summary[keys].round(4).tolist()
    [0.1, 3.0, 1.0, 0.25]
    >>> round(result.ci_low, 4), round(result.ci_high, 4)  # 95% percentile bootstrap
    (0.025, 0.175)
    >>> print(compare_scores([0.5], [0.7]).notes[0])
    p (paired t-test) is NaN: it needs at least 2 queries.
    """
    per_query = DeltaTable.from_scores(a, b)
    if not 0 < confidence < 1:
        raise ValueError(_between_0_and_1("confidence", confidence))
    deltas = per_query["delta"].to_numpy()
    p_ttest, t_notes = paired_t_test(per_query["B"].to_numpy(), per_query["A"].to_numpy())
    p_wilcoxon, w_notes = wilcoxon_test(deltas)
    p_sign, s_notes = sign_test(deltas)
    (ci_low, ci_high), b_notes = bootstrap_interval(
        deltas, confidence=confidence, n_resamples=n_resamples, seed=seed
    )
    return RunComparison(
        measure,
        per_query,
        paired_randomization_test(deltas, n_permutations=n_permutations, seed=seed),
        p_ttest,
        p_wilcoxon,
        p_sign,
        ci_low,
        ci_high,
        confidence,
        (*t_notes, *w_notes, *s_notes, *b_notes),
    )


def compare_runs(
    qrels: Any,
    run_a: Any,
    run_b: Any,
    *,
    measure: str = "AP",
    n_permutations: int = 100_000,
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
    missing: Missing = "zero",
    **options: Any,
) -> RunComparison:
    """Compare two runs on the same qrels, query by query.

    Every judged query either run answers is compared; by default a query one run
    lacks scores 0 for that run (trec_eval ``-c``), so both sides have the same queries.

    Parameters
    ----------
    qrels, run_a, run_b
        As :func:`mapteach.runs.evaluation.evaluate`.
    measure : str, default "AP"
        The measure to compare.
    n_permutations, n_resamples, confidence, seed
        As :func:`compare_scores`.
    missing : {"zero", "ignore"}, default "zero"
        A judged query that one run answers and the other lacks: ``"zero"`` scores
        it 0 for the run that lacks it; ``"ignore"`` leaves it out of the comparison.
    **options
        ``ties``, ``no_relevant``, ``relevance_threshold``, ``judged_only`` ... for
        :func:`evaluate`.

    Returns
    -------
    RunComparison
        ``per_query`` (a :class:`DeltaTable`: columns ``A``, ``B``, ``delta``), ``summary``
        (its keys: :attr:`RunComparison.summary`; ``display()`` shows it), ``improved()``,
        ``declined()``, the p-values of four paired tests and a bootstrap interval of the
        mean delta, as :func:`compare_scores`. Where a test is undefined (fewer than 2
        queries, deltas with no spread) its p-value is NaN and ``notes`` says why.

    Examples
    --------
    >>> from mapteach.analysis import compare_runs
    >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    >>> a = {"q1": {"a": 1.0, "x": 2.0}, "q2": {"b": 1.0}}
    >>> b = {"q1": {"a": 2.0, "x": 1.0}, "q2": {"b": 1.0}}
    >>> compare_runs(qrels, a, b).per_query
                  A      B  delta
    query_id
    q1       0.5000 1.0000 0.5000
    q2       1.0000 1.0000 0.0000
    """
    check_choice(missing, MISSING, name="missing")
    judged, run_a, run_b = as_qrels(qrels), as_run(run_a), as_run(run_b)
    a, b = (evaluate(judged, run, [measure], missing="zero", **options) for run in (run_a, run_b))
    keep = _answered(a.index, run_a, run_b, missing)
    return compare_scores(
        a.loc[keep, measure],
        b.loc[keep, measure],
        measure=measure,
        n_permutations=n_permutations,
        n_resamples=n_resamples,
        confidence=confidence,
        seed=seed,
    )


def compare_systems(
    per_query: pd.DataFrame,
    *,
    baseline: str,
    measure: str = "AP",
    correction: str = "holm",
    test: str = "randomization",
    alpha: float = 0.05,
    **settings: Any,
) -> ComparisonTable:
    """Compare every system of a per-query table with a baseline, correcting for their number.

    Each system is system B of a :func:`compare_scores` against the baseline
    (system A), on every query (row) of the table. Comparing m systems makes m
    tests, and at level ``alpha`` each has its own chance of a false alarm, so the
    p-values of ``test`` are adjusted (statsmodels' ``multipletests``): Holm
    (default) or Bonferroni control the chance of any false alarm among the m.

    Parameters
    ----------
    per_query : pandas.DataFrame
        One row per query, one column of scores per system (``evaluate(...)[measure]``
        of each run, side by side), no missing value.
    baseline : str
        The column every other system is compared with.
    measure : str, default "AP"
        The measure's name, for the labels.
    correction : {"holm", "bonferroni", "none"}, default "holm"
        How p-values are adjusted for the number of systems compared.
    test : {"randomization", "t-test", "wilcoxon", "sign"}, default "randomization"
        Whose p-values are adjusted. A NaN p-value (an undefined test) stays NaN
        and is not counted among the tests.
    alpha : float, default 0.05
        The level of the ``significant`` column.
    **settings
        ``n_permutations``, ``n_resamples``, ``confidence``, ``seed`` for
        :func:`compare_scores`.

    Returns
    -------
    ComparisonTable
        A DataFrame keyed for code; ``.display()`` shows it to people. One row per
        system but the baseline, index ``system`` (the systems' names). Columns:

        - the keys of :attr:`RunComparison.summary` (``mean_a`` ... ``p_sign``),
          with A the baseline and B the row's system;
        - ``p_adjusted``: the p-value of ``test`` adjusted by ``correction``;
        - ``significant``: whether ``p_adjusted`` <= ``alpha``.

        ``attrs`` holds ``baseline``, ``test``, ``correction`` and ``alpha``.

    Raises
    ------
    ValueError
        If ``baseline`` is not a column, there is no other system, a score is
        missing, or ``correction`` or ``test`` is unknown.

    Examples
    --------
    >>> import pandas as pd
    >>> from mapteach.analysis import compare_systems
    >>> table = pd.DataFrame({"base": [0.2, 0.4, 0.5, 0.3], "x": [0.3, 0.6, 0.6, 0.4],
    ...                       "y": [0.1, 0.5, 0.4, 0.3]})
    >>> compare_systems(table, baseline="base")[["p_randomization", "p_adjusted"]]
            p_randomization  p_adjusted
    system
    x                0.1250      0.2500
    y                1.0000      1.0000
    """
    _check_many(correction, test)
    if baseline not in per_query.columns:
        raise ValueError(
            tr(
                "baseline {baseline!r} is not a column of the table; its columns are {columns}.",
                baseline=baseline,
                columns=list(per_query.columns),
            )
        )
    others = [name for name in per_query.columns if name != baseline]
    if not others:
        raise ValueError(tr("the table has no system to compare with the baseline."))
    if per_query.isna().any().any():
        raise ValueError(
            tr("the table has a missing score; every system needs every query's score.")
        )
    rows = {
        name: compare_scores(
            per_query[baseline], per_query[name], measure=measure, **settings
        ).summary
        for name in others
    }
    return corrected_p_values(
        rows, baseline=baseline, test=test, correction=correction, alpha=alpha
    )


def compare_many(
    qrels: Any,
    runs: Mapping[str, Any],
    *,
    baseline: str,
    measure: str = "AP",
    correction: str = "holm",
    test: str = "randomization",
    alpha: float = 0.05,
    missing: Missing = "zero",
    n_permutations: int = 100_000,
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
    **options: Any,
) -> ComparisonTable:
    """Compare several runs with a baseline run on the same qrels, p-values adjusted.

    Each run is evaluated once; each pair (baseline, run) keeps the queries
    :func:`compare_runs` keeps, and the comparison goes on as :func:`compare_systems`.

    Parameters
    ----------
    qrels : path, file, DataFrame or dict
        As :func:`evaluate`.
    runs : mapping of str to run
        Each system's run, by name; ``baseline`` is one of the names.
    baseline, measure, correction, test, alpha
        As :func:`compare_systems`.
    missing : {"zero", "ignore"}, default "zero"
        As :func:`compare_runs`.
    n_permutations, n_resamples, confidence, seed
        As :func:`compare_scores`.
    **options
        ``ties``, ``relevance_threshold``, ``judged_only`` ... for :func:`evaluate`.

    Returns
    -------
    ComparisonTable
        As :func:`compare_systems`: one row per run but the baseline (index
        ``system``), columns the keys of :attr:`RunComparison.summary`, then
        ``p_adjusted`` and ``significant``.

    Examples
    --------
    >>> from mapteach.analysis import compare_many
    >>> qrels = {f"q{i}": {"a": 1} for i in range(3)}
    >>> runs = {
    ...     "base": {q: {"x": 2.0, "a": 1.0} for q in qrels},  # AP 1/2 everywhere
    ...     "better": {q: {"a": 2.0, "x": 1.0} for q in qrels},  # AP 1
    ... }
    >>> table = compare_many(qrels, runs, baseline="base", test="sign")
    >>> table.loc["better", ["mean_delta", "p_sign", "p_adjusted"]].tolist()
    [0.5, 0.25, 0.25]
    """
    check_choice(missing, MISSING, name="missing")
    _check_many(correction, test)
    if baseline not in runs:
        raise ValueError(
            tr(
                "baseline {baseline!r} is not one of the runs: {runs}.",
                baseline=baseline,
                runs=list(runs),
            )
        )
    judged = as_qrels(qrels)
    read = {name: as_run(run) for name, run in runs.items()}
    tables = {
        name: evaluate(judged, run, [measure], missing="zero", **options)
        for name, run in read.items()
    }
    base = tables[baseline]
    rows = {}
    for name, table in tables.items():
        if name == baseline:
            continue
        keep = _answered(base.index, read[baseline], read[name], missing)
        rows[name] = compare_scores(
            base.loc[keep, measure],
            table.loc[keep, measure],
            measure=measure,
            n_permutations=n_permutations,
            n_resamples=n_resamples,
            confidence=confidence,
            seed=seed,
        ).summary
    if not rows:
        raise ValueError(tr("runs holds only the baseline; give at least one other run."))
    return corrected_p_values(
        rows, baseline=baseline, test=test, correction=correction, alpha=alpha
    )


def _between_0_and_1(name: str, value: float) -> str:
    """The message for a probability ``name`` given as ``value``, outside (0, 1)."""
    return tr("{name} must be between 0 and 1; got {value}.", name=name, value=value)


def _answered(
    queries: pd.Index, run_a: pd.DataFrame, run_b: pd.DataFrame, missing: Missing
) -> np.ndarray:
    """The judged queries a pair of runs is compared on: in both runs, or with "zero" in either.

    Whether a run answers a query is read from the run itself, not from what was
    scored: with ``judged_only=True`` a query answered only with unjudged documents
    is still answered.
    """
    in_a = queries.isin(run_a["query_id"].unique())
    in_b = queries.isin(run_b["query_id"].unique())
    return (in_a | in_b) if missing == "zero" else (in_a & in_b)


def _check_many(correction: str, test: str) -> None:
    check_choice(correction, CORRECTIONS, name="correction")
    check_choice(test, tuple(TESTS), name="test")


def queries_needed(
    spread: float | RunComparison, effect: float, *, power: float = 0.8, alpha: float = 0.05
) -> int:
    """How many queries a paired t-test needs to see a mean difference ``effect``.

    The power analysis of a paired (one-sample) two-sided t-test on the deltas,
    with the standardized effect ``effect / spread``: the fewest queries (at least
    2) whose power, from the noncentral t distribution, reaches ``power``. That is
    statsmodels' ``TTestPower().solve_power`` rounded up, found here by a search
    over whole numbers so that it also works where that solver fails to converge
    (standardized effects above about 5). The spread is the standard deviation of
    the per-query deltas, measured on a pilot comparison: IR's deltas spread widely
    across queries, so small differences need many queries.

    Parameters
    ----------
    spread : float or RunComparison
        The standard deviation of the per-query deltas, or a comparison whose
        deltas give it (``ddof=1``).
    effect : float
        The difference in the mean (MAP) to detect, > 0.
    power : float, default 0.8
        The chance of detecting a true difference of that size.
    alpha : float, default 0.05
        The test's level.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If the spread or the effect is not a finite number > 0, or ``power`` or
        ``alpha`` is not in (0, 1).

    Examples
    --------
    >>> from mapteach.analysis import queries_needed
    >>> queries_needed(0.1, 0.02)  # deltas with sd 0.1: a 0.02 difference is d = 0.2
    199
    >>> queries_needed(0.1, 0.05)  # a larger difference needs fewer queries
    34
    """
    sd = (
        float(spread.per_query["delta"].std(ddof=1))
        if isinstance(spread, RunComparison)
        else float(spread)
    )
    if not (math.isfinite(sd) and sd > 0):
        raise ValueError(
            tr(
                "spread must be a finite number > 0; got {sd}. Deltas with no spread need no "
                "test: every query moves by the same amount.",
                sd=sd,
            )
        )
    if not (math.isfinite(effect) and effect > 0):
        raise ValueError(tr("effect must be a finite number > 0; got {effect}.", effect=effect))
    for name, value in (("power", power), ("alpha", alpha)):
        if not 0 < value < 1:
            raise ValueError(_between_0_and_1(name, value))
    fails, enough = 1, 2  # one query cannot be tested; double until enough queries suffice
    while _t_test_power(effect / sd, enough, alpha) < power:
        fails, enough = enough, 2 * enough
    while enough - fails > 1:
        middle = (fails + enough) // 2
        if _t_test_power(effect / sd, middle, alpha) >= power:
            enough = middle
        else:
            fails = middle
    return enough


def _t_test_power(effect_size: float, n: int, alpha: float) -> float:
    """The power of a two-sided one-sample t-test on n values, as statsmodels' ``TTestPower``.

    The lower tail, below alpha / 2 for a positive effect, is NaN in scipy when it is
    negligible; it counts as 0 then.
    """
    df, shift = n - 1, effect_size * math.sqrt(n)
    critical = stats.t.isf(alpha / 2, df)
    lower = stats.nct.cdf(-critical, df, shift)
    return float(stats.nct.sf(critical, df, shift) + (0.0 if np.isnan(lower) else lower))
