"""Reporting a result honestly: p-values, effect sizes, winners with ties, audit costs.

Helpers that turn computed numbers into what a report should say:

- :func:`format_p_value`: a sampled randomization test that found no sample as
  extreme as the observed one gives ``p < 1/N``, not a made-up exact value;
- :func:`paired_effect`: the size of a difference beside its significance (a
  tiny gain can be "significant" on many queries);
- :func:`best_by_measure`: the best system per measure, with ties shown as ties;
- :func:`audit_costs`: what each item of an evaluation set-up costs, both
  switched cumulatively (order-dependent) and one at a time.

Introduced in ``08_choosing_a_metric``, ``09_why_maps_disagree`` and
``10_from_scores_to_map``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from mapteach.analysis.conventions import CHECKLIST, AuditTable, audit_setups
from mapteach.explain.display import ShownSeries, ShownTable
from mapteach.i18n import N_, tr

__all__ = [
    "REPORT_HEADERS",
    "Effect",
    "ReportTable",
    "audit_costs",
    "best_by_measure",
    "format_p_value",
    "paired_effect",
]

#: The header that shows each key of this module's tables (and of :func:`paired_effect`).
REPORT_HEADERS: dict[str, str] = {
    "mean_a": N_("mean A"),
    "mean_b": N_("mean B"),
    "mean_delta": N_("mean delta (B - A)"),
    "relative_change": N_("relative change"),
    "median_delta": N_("median delta"),
    "standardized_effect": N_("standardized effect (mean / sd of deltas)"),
    "b_better": N_("B better"),
    "b_worse": N_("B worse"),
    "same": N_("same"),
    "measure": N_("measure"),
    "best": N_("best"),
    "tie": N_("tie"),
    "score": N_("score"),
}


class ReportTable(ShownTable):
    """A reporting table: stable keys, shown with :data:`REPORT_HEADERS` by ``display()``."""

    headers = REPORT_HEADERS


#: :func:`paired_effect`'s counts of queries: shown as whole numbers.
_COUNTS = frozenset({"b_better", "b_worse", "same"})


class Effect(ShownSeries):
    """:func:`paired_effect`'s numbers: stable keys, shown with :data:`REPORT_HEADERS`."""

    headers = REPORT_HEADERS
    frame = ReportTable

    def display(self, *, lang: str | None = None, digits: int | None = 4) -> Any:
        """The display form, its counts of queries as whole numbers (1237, not 1237.0)."""
        shown = super().display(lang=lang, digits=digits).astype(object)
        for position, key in enumerate(self.index):
            if key in _COUNTS:
                shown.iloc[position] = int(self.iloc[position])
        return shown


def format_p_value(p: float, n_permutations: int | None = None, *, digits: int = 2) -> str:
    """A p-value as a report should print it.

    A sampled randomization test with ``n_permutations`` random samples returns
    ``(extreme + 1) / (n_permutations + 1)``, where ``extreme`` counts the samples
    at least as extreme as the observed difference (as
    :func:`mapteach.analysis.paired_tests.paired_randomization_test` does). When no sample
    was as extreme, that value is only a bound: the test says ``p < 1/N``. An
    exact p-value (``n_permutations`` None, or a value that is not of that form)
    is printed with ``digits`` significant digits.

    Parameters
    ----------
    p : float
        The p-value, in (0, 1].
    n_permutations : int, optional
        N, the number of random samples the test drew.
    digits : int, default 2
        Significant digits of an exact value.

    Returns
    -------
    str
        ``"p < 1/20,000"`` or ``"p = 0.041"``.

    Examples
    --------
    >>> from mapteach.analysis import format_p_value
    >>> format_p_value(1 / 20_001, 20_000)  # no sample of 20,000 was as extreme
    'p < 1/20,000'
    >>> format_p_value(5 / 20_001, 20_000)  # 4 samples were
    'p = 0.00025'
    >>> format_p_value(0.25)
    'p = 0.25'
    """
    if not (isinstance(p, (int, float, np.floating)) and 0 < p <= 1):
        raise ValueError(tr("p must be a number in (0, 1]; got {p!r}.", p=p))
    if n_permutations is not None:
        if int(n_permutations) != n_permutations or n_permutations < 1:
            raise ValueError(
                tr(
                    "n_permutations must be a positive integer; got {n!r}.",
                    n=n_permutations,
                )
            )
        hits = p * (n_permutations + 1)
        if math.isclose(hits, round(hits), abs_tol=1e-6) and round(hits) == 1:
            return tr("p < 1/{n:,}", n=int(n_permutations))
    exact = f"{float(p):.{digits}g}"
    return tr("p = {p}", p=exact)


def paired_effect(a: ArrayLike, b: ArrayLike) -> pd.Series:
    """How large a paired difference is, beside whether it is significant.

    Significance says a difference is probably not chance; with many queries a
    tiny one is. These numbers say whether it is large enough to matter.

    Parameters
    ----------
    a, b : array-like of float
        Per-query scores of systems A and B on the same queries, in the same order.

    Returns
    -------
    Effect
        A pandas Series keyed for code (``.display()`` shows it to people):

        - ``mean_a``, ``mean_b``: the mean score of A and of B;
        - ``mean_delta``: the mean of the deltas B - A;
        - ``relative_change``: the mean delta over ``mean_a`` (NaN when it is 0);
        - ``median_delta``: the median delta;
        - ``standardized_effect``: the mean delta over the deltas' standard deviation;
        - ``b_better``, ``b_worse``, ``same``: the queries where B scores higher,
          lower, the same.

    Examples
    --------
    >>> from mapteach.analysis import paired_effect
    >>> paired_effect([0.5, 0.5, 0.6], [0.6, 0.5, 0.7]).round(4).to_dict()["relative_change"]
    0.125
    """
    first, second = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if first.shape != second.shape or first.ndim != 1 or first.size == 0:
        raise ValueError(tr("a and b must be 1-D and of the same non-zero length (one per query)."))
    deltas = second - first
    spread = deltas.std(ddof=1) if deltas.size > 1 else float("nan")
    return Effect(
        {
            "mean_a": first.mean(),
            "mean_b": second.mean(),
            "mean_delta": deltas.mean(),
            "relative_change": deltas.mean() / first.mean() if first.mean() else float("nan"),
            "median_delta": float(np.median(deltas)),
            "standardized_effect": deltas.mean() / spread if spread else float("nan"),
            "b_better": int((deltas > 0).sum()),
            "b_worse": int((deltas < 0).sum()),
            "same": int((deltas == 0).sum()),
        }
    )


def best_by_measure(table: pd.DataFrame, *, tolerance: float = 1e-12) -> pd.DataFrame:
    """The best row (system) for each column (measure), with ties named as ties.

    ``DataFrame.idxmax`` silently gives a tie to the first row listed; this does not.

    Parameters
    ----------
    table : pandas.DataFrame
        Systems as rows, measures as columns (higher is better), as
        :func:`mapteach.score_table` returns.
    tolerance : float
        Scores this close to the best count as equal to it.

    Returns
    -------
    ReportTable
        A DataFrame keyed for code (``.display()`` shows it to people), one row per
        measure (index ``measure``: the table's column names). Columns:

        - ``best``: the best systems' names, joined by " = " when tied;
        - ``tie``: whether more than one system is best;
        - ``score``: the best score.

    Examples
    --------
    >>> import pandas as pd
    >>> from mapteach.analysis import best_by_measure
    >>> table = pd.DataFrame({"R@10": [1.0, 1.0, 0.5], "RR": [1.0, 0.5, 0.25]}, index=list("xyz"))
    >>> print(best_by_measure(table).to_string())
              best    tie  score
    measure
    R@10     x = y   True 1.0000
    RR           x  False 1.0000
    """
    if table.empty:
        raise ValueError(tr("best_by_measure needs a table with at least one row and one column."))
    rows = {}
    for measure in table.columns:
        scores = table[measure].astype(float)
        top = scores.max()
        best = [str(name) for name, value in scores.items() if abs(value - top) <= tolerance]
        rows[measure] = {"best": " = ".join(best), "tie": len(best) > 1, "score": top}
    best = ReportTable.from_dict(rows, orient="index")
    best.index.name = "measure"
    return best


def audit_costs(
    qrels: Any, run: Any, setup_a: Mapping[str, Any], setup_b: Mapping[str, Any]
) -> AuditTable:
    """What each differing checklist item costs: switched in turn, and switched alone.

    :func:`mapteach.analysis.conventions.audit_setups` switches the items from set-up
    A to set-up B cumulatively, in checklist order, so each item's cost there
    depends on the items switched before it. This adds each item's cost when it
    alone is switched from A. The cumulative costs add up to MAP(B) - MAP(A); the
    one-at-a-time costs need not (the items interact).

    Parameters
    ----------
    qrels, run
        As :func:`mapteach.evaluate`.
    setup_a, setup_b : mapping
        Checklist items (keys of :data:`mapteach.analysis.conventions.CHECKLIST`).

    Returns
    -------
    AuditTable
        A DataFrame keyed for code (``.display()`` shows it to people, each item and
        choice in words), one row per differing item, in checklist order. Columns:

        - ``item``: the checklist item (a :data:`CHECKLIST` key, an option's name);
        - ``setup_a``, ``setup_b``: its value in set-up A and in set-up B;
        - ``map_in_turn``: MAP once it is switched, after the items before it;
        - ``cost_in_turn``: what that switch changes MAP by;
        - ``map_alone``: MAP of set-up A with this item alone switched to B's value;
        - ``cost_alone``: ``map_alone`` minus MAP(A).

    Examples
    --------
    >>> from mapteach.analysis import audit_costs
    >>> qrels = {"q1": {"a": 1, "m": 1}, "q2": {"x": 0}}
    >>> run = {"q1": {"a": 2.0, "b": 1.0}, "q2": {"x": 1.0}}
    >>> costs = audit_costs(qrels, run, {}, {"no_relevant": "skip", "denominator": "retrieved"})
    >>> print(costs[["item", "cost_in_turn", "cost_alone"]].round(4).to_string(index=False))
           item  cost_in_turn  cost_alone
    denominator        0.2500      0.2500
    no_relevant        0.5000      0.2500
    """
    cumulative = audit_setups(qrels, run, setup_a, setup_b)
    base = float(cumulative["map"].iloc[0])
    rows = []
    previous = base
    for _, row in cumulative.iloc[1:].iterrows():
        item = row["item"]
        if item not in CHECKLIST:
            raise ValueError(tr("audit_setups returned an unknown item {item!r}.", item=item))
        # set-up A with only this item at B's value (B's default when B does not set it)
        only = {key: value for key, value in setup_a.items() if key != item}
        if item in setup_b:
            only[item] = setup_b[item]
        alone = float(audit_setups(qrels, run, setup_a, only)["map"].iloc[-1])
        rows.append(
            {
                "item": item,
                "setup_a": row["setup_a"],
                "setup_b": row["setup_b"],
                "map_in_turn": float(row["map"]),
                "cost_in_turn": float(row["map"]) - previous,
                "map_alone": alone,
                "cost_alone": alone - base,
            }
        )
        previous = float(row["map"])
    return AuditTable(rows)
