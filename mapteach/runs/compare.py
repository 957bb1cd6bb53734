"""Compare two systems query by query: deltas, winners and losers, paired significance tests.

Article 001's per-iteration report: every change to a system is judged on the
per-query differences, not only on the change of the mean. Introduced in
``11_evaluate_your_own_run``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from mapteach.metrics._validation import check_choice
from mapteach.metrics.options import MISSING, Missing
from mapteach.runs.evaluate import evaluate

__all__ = ["RunComparison", "compare_runs", "paired_randomization_test"]

EXACT_LIMIT = 16


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
    >>> from mapteach.runs.compare import paired_randomization_test
    >>> paired_randomization_test(np.array([0.1, 0.2, 0.3]))  # 2 of 8 sign patterns reach 0.2
    0.25
    """
    deltas = np.asarray(deltas, dtype=float)
    if deltas.ndim != 1 or deltas.size == 0 or not np.isfinite(deltas).all():
        raise ValueError("deltas must be a non-empty 1-D array of finite per-query differences.")
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


@dataclass(frozen=True)
class RunComparison:
    """Per-query scores of systems A and B on one measure, and what they say."""

    measure: str
    per_query: pd.DataFrame
    p_randomization: float
    p_ttest: float
    #: Why a test gave no p-value (NaN), one sentence per test; empty when all could run.
    notes: tuple[str, ...] = ()

    @property
    def summary(self) -> pd.Series:
        """Means, their difference, wins / losses / ties of B over A, and both p-values."""
        delta = self.per_query["delta"]
        return pd.Series(
            {
                f"mean {self.measure} A": self.per_query["A"].mean(),
                f"mean {self.measure} B": self.per_query["B"].mean(),
                "mean delta (B - A)": delta.mean(),
                "queries": len(delta),
                "B better": int((delta > 0).sum()),
                "B worse": int((delta < 0).sum()),
                "same": int((delta == 0).sum()),
                "p (randomization)": self.p_randomization,
                "p (paired t-test)": self.p_ttest,
            }
        )

    def __str__(self) -> str:
        lines = [f"{key}: {value:.4g}" for key, value in self.summary.items()]
        return "\n".join([*lines, *self.notes])

    def improved(self, n: int = 5) -> pd.DataFrame:
        """The ``n`` queries B improved most."""
        return self.per_query[self.per_query["delta"] > 0].nlargest(n, "delta")

    def declined(self, n: int = 5) -> pd.DataFrame:
        """The ``n`` queries B made worse the most."""
        return self.per_query[self.per_query["delta"] < 0].nsmallest(n, "delta")


def compare_runs(
    qrels: Any,
    run_a: Any,
    run_b: Any,
    *,
    measure: str = "AP",
    n_permutations: int = 100_000,
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
        As :func:`mapteach.runs.evaluate.evaluate`.
    measure : str, default "AP"
        The measure to compare.
    n_permutations, seed : int
        For the randomization test beyond 16 queries.
    missing : {"zero", "ignore"}, default "zero"
        A judged query that one run answers and the other lacks: ``"zero"`` scores
        it 0 for the run that lacks it; ``"ignore"`` leaves it out of the comparison.
    **options
        ``ties``, ``no_relevant``, ``relevance_threshold`` for :func:`evaluate`.

    Returns
    -------
    RunComparison
        ``per_query`` (columns ``A``, ``B``, ``delta``), ``summary``,
        ``improved()``, ``declined()``, ``plot()``, and the p-values of a paired
        randomization test and a paired t-test (scipy). Where the t-test is undefined
        (fewer than 2 queries, or deltas with no spread) its p-value is NaN and
        ``notes`` says why.

    Examples
    --------
    >>> from mapteach.runs.compare import compare_runs
    >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    >>> a = {"q1": {"a": 1.0, "x": 2.0}, "q2": {"b": 1.0}}
    >>> b = {"q1": {"a": 2.0, "x": 1.0}, "q2": {"b": 1.0}}
    >>> compare_runs(qrels, a, b).per_query
                A    B  delta
    query_id
    q1        0.5  1.0    0.5
    q2        1.0  1.0    0.0
    """
    check_choice(missing, MISSING, name="missing")
    a, b = (evaluate(qrels, run, [measure], missing="zero", **options) for run in (run_a, run_b))
    answered = (a["retrieved"] > 0) & (b["retrieved"] > 0)
    if missing == "zero":
        answered |= (a["retrieved"] > 0) | (b["retrieved"] > 0)
    per_query = pd.DataFrame({"A": a[measure], "B": b[measure]})[answered]
    per_query["delta"] = per_query["B"] - per_query["A"]
    deltas = per_query["delta"].to_numpy()
    p_ttest, notes = _paired_t_test(per_query["B"].to_numpy(), per_query["A"].to_numpy())
    return RunComparison(
        measure,
        per_query,
        paired_randomization_test(deltas, n_permutations=n_permutations, seed=seed),
        p_ttest,
        notes,
    )


def _paired_t_test(b: np.ndarray, a: np.ndarray) -> tuple[float, tuple[str, ...]]:
    """scipy's paired t-test of B against A, or NaN and the reason when it is undefined."""
    deltas = b - a
    if deltas.size < 2:
        return np.nan, ("p (paired t-test) is NaN: it needs at least 2 queries.",)
    if np.ptp(deltas) == 0:
        return np.nan, (
            f"p (paired t-test) is NaN: every delta equals {deltas[0]:.4g}, so the deltas have "
            "no spread and the t statistic is undefined; look at the deltas themselves.",
        )
    return float(stats.ttest_rel(b, a).pvalue), ()
