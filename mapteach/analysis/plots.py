"""Pictures of a comparison of two runs: the per-query differences."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from mapteach.analysis.compare import RunComparison
from mapteach.i18n import tr
from mapteach.plots import ACCENT, RELEVANT, plot_language, style_axes

__all__ = ["plot_deltas"]


def plot_deltas(
    comparison: RunComparison, *, ax: Axes | None = None, lang: str | None = None
) -> Axes:
    """Per-query deltas of a run comparison, sorted: green where B is better, red where worse.

    Introduced in ``11_evaluate_your_own_run``.

    Examples
    --------
    >>> from mapteach import compare_runs
    >>> from mapteach.analysis import plot_deltas
    >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    >>> a = {"q1": {"a": 1.0, "x": 2.0}, "q2": {"b": 2.0, "y": 1.0}}
    >>> b = {"q1": {"a": 2.0, "x": 1.0}, "q2": {"b": 1.0, "y": 2.0}}
    >>> len(plot_deltas(compare_runs(qrels, a, b)).patches)  # one bar per query
    2
    """
    lang = plot_language(lang)
    if ax is None:
        ax = Figure(figsize=(6, 2.8)).subplots()
    measure = comparison.measure
    delta = comparison.per_query["delta"].sort_values(ascending=False).to_numpy()
    ax.bar(np.arange(delta.size), delta, width=0.9, color=np.where(delta >= 0, RELEVANT, ACCENT))
    ax.axhline(0, color="#333333", lw=0.8)
    style_axes(
        ax,
        tr("{measure}: B minus A, per query (sorted)", lang=lang, measure=measure),
        tr("queries", lang=lang),
        tr("delta {measure}", lang=lang, measure=measure),
        lang,
    )
    ax.set_xticks([])
    return ax
