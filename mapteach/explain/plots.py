"""Pictures of one ranking or of a run: P@k bars, the precision-recall curve, per-query AP bars."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Polygon
from matplotlib.transforms import ScaledTranslation

from mapteach.explain.pr_table import pr_curve
from mapteach.fonts import use_font_for
from mapteach.i18n import tr, widget_language
from mapteach.metrics import average_precision
from mapteach.metrics.curves import curve_arrays
from mapteach.metrics.validation import as_k, as_labels
from mapteach.plots import ACCENT, IRRELEVANT, RELEVANT, ap_area_outline, plot_language, style_axes

__all__ = ["plot_ap_bars", "plot_pr_curve", "plot_precision_at_k"]

#: How far below the PR axes its legend starts, in points: past the tick labels and "recall".
_LEGEND_DROP = 34


def plot_pr_curve(
    labels: Sequence[int | bool],
    *,
    n_relevant: int | None = None,
    interpolated: bool = True,
    ax: Axes | None = None,
    lang: str | None = None,
) -> Axes:
    """Draw the saw-tooth PR curve, AP as the shaded area, and the interpolated curve.

    The legend sits under the axes, so it never covers a curve; a figure that holds
    the axes needs room for it below (``layout="constrained"`` or ``tight_layout()``).

    Introduced in ``07_pr_curves``.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    n_relevant : int, optional
        R, the query's total relevant documents. Default: the hits in ``labels``.
    interpolated : bool, default True
        Also draw the interpolated precision (best precision at this recall or higher).
    ax : matplotlib Axes, optional
        Where to draw; default: a new figure.
    lang : {"en", "zh"}, optional
        The language of the title, labels and legend; default the current one.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from mapteach.explain import plot_pr_curve
    >>> ax = plot_pr_curve([1, 0, 1, 1, 0], n_relevant=4)
    >>> ax.get_legend_handles_labels()[1]
    ['precision after each rank', 'interpolated precision', 'AP = 0.6042 (shaded area)']
    """
    curve = pr_curve(labels, n_relevant=n_relevant)
    hits = curve[curve["relevant"]]
    lang = plot_language(lang)
    if ax is None:
        ax = Figure(figsize=(4.5, 3.9), layout="constrained").subplots()
    ap = average_precision(labels, n_relevant=n_relevant)
    recall = np.r_[0.0, curve["recall"]]
    first = curve.iloc[:1]
    ax.plot(
        recall,
        np.r_[first["precision"], curve["precision"]],
        color="#333333",
        marker="o",
        ms=3,
        lw=1.2,
        label=tr("precision after each rank", lang=lang),
    )
    if interpolated:
        ax.plot(
            recall,
            np.r_[first["interpolated"], curve["interpolated"]],
            color=ACCENT,
            lw=1.5,
            drawstyle="steps-pre",
            label=tr("interpolated precision", lang=lang),
        )
    area = ap_area_outline(hits["recall"].to_numpy(), hits["precision"].to_numpy())
    ax.add_patch(
        Polygon(
            area,
            closed=True,
            color=RELEVANT,
            alpha=0.22,
            lw=0,
            label=tr("AP = {ap:.4f} (shaded area)", lang=lang, ap=ap),
        )
    )
    style_axes(
        ax,
        tr("Precision-recall curve", lang=lang),
        tr("recall", lang=lang),
        tr("precision", lang=lang),
        lang,
    )
    ax.set(xlim=(0, 1.02), ylim=(0, 1.12))
    _legend_below(ax)
    return ax


def _legend_below(ax: Axes) -> None:
    """The legend under the axes' label "recall", outside the axes, where no curve runs.

    Its place is fixed in points below the axes, so it clears the tick labels and
    the axis label however tall the axes are.
    """
    below = ScaledTranslation(0, -_LEGEND_DROP / 72, ax.figure.dpi_scale_trans)
    ax.legend(
        fontsize=8,
        loc="upper center",
        bbox_to_anchor=(0.5, 0.0),
        bbox_transform=ax.transAxes + below,
        borderaxespad=0,
        frameon=False,
    )


def plot_precision_at_k(
    labels: Sequence[int | bool],
    *,
    k: int | None = None,
    ax: Axes | None = None,
    lang: str | None = None,
) -> Axes:
    """Bars of P@k at every rank k, relevant ranks in green, an optional cutoff line.

    Introduced in ``02_precision_and_recall_at_k``.

    Examples
    --------
    >>> from mapteach.explain import plot_precision_at_k
    >>> ax = plot_precision_at_k([0, 1, 1, 0, 0], k=3)
    >>> [round(float(bar.get_height()), 3) for bar in ax.patches]  # P@1 .. P@5
    [0.0, 0.5, 0.667, 0.5, 0.4]
    """
    y = as_labels(labels)
    if k is not None:
        k = as_k(k)
    lang = plot_language(lang)
    if ax is None:
        ax = Figure(figsize=(4.5, 2.8)).subplots()
    _, precision = curve_arrays(y, int(y.sum()))
    ranks = np.arange(1, y.size + 1)
    ax.bar(ranks, precision, color=np.where(y, RELEVANT, IRRELEVANT), width=0.8)
    for rank, value in zip(ranks, precision, strict=True):
        ax.text(float(rank), value + 0.02, f"{value:.2f}", ha="center", fontsize=7)
    if k is not None:
        ax.axvline(
            k + 0.5, color=ACCENT, ls="--", lw=1.2, label=tr("cutoff k = {k}", lang=lang, k=k)
        )
        ax.legend(fontsize=7, loc="upper right", frameon=False)
    style_axes(
        ax,
        tr("P@k at every rank (green: relevant)", lang=lang),
        tr("rank k", lang=lang),
        "P@k",
        lang,
    )
    ax.set_xticks(ranks)
    ax.set_ylim(0, 1.12)
    return ax


def plot_ap_bars(
    aps: Sequence[float],
    names: Sequence[str],
    *,
    ax: Axes | None = None,
    lang: str | None = None,
) -> Axes:
    """Bar chart of per-query AP with MAP, their mean, as a horizontal line.

    Introduced in ``04_mean_average_precision``.

    Parameters
    ----------
    aps : sequence of float
        One AP per query, each in [0, 1].
    names : sequence of str
        The queries' names, aligned with ``aps``.
    ax : matplotlib Axes, optional
        Where to draw; default: a new figure.
    lang : {"en", "zh"}, optional
        The language of the title and labels; default the current one.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ValueError
        If ``aps`` is empty, not aligned with ``names``, or holds a value outside [0, 1].

    Examples
    --------
    >>> from mapteach.explain import plot_ap_bars
    >>> ax = plot_ap_bars([0.8056, 0.5556, 0.3194], ["A", "B", "C"])
    >>> ax.get_legend_handles_labels()[1]  # (0.8056 + 0.5556 + 0.3194) / 3
    ['MAP = 0.5602']
    """
    lang = widget_language(lang)
    values = np.asarray(aps, dtype=float)
    if values.size == 0 or values.size != len(names):
        raise ValueError(
            tr(
                "aps and names must have the same, non-zero length; got {n_aps} APs "
                "and {n_names} names.",
                lang=lang,
                n_aps=values.size,
                n_names=len(names),
            )
        )
    bad = np.flatnonzero(~((values >= 0) & (values <= 1)))
    if bad.size:
        raise ValueError(
            tr(
                "aps[{index}] is {value}; an AP lies in [0, 1].",
                lang=lang,
                index=bad[0],
                value=values[bad[0]],
            )
        )
    use_font_for(lang)
    if ax is None:
        ax = Figure(figsize=(4.6, 2.8)).subplots()
    mean = float(values.mean())
    ax.bar(range(values.size), values, color=RELEVANT, width=0.7)
    ax.set_xticks(range(values.size), list(names))
    ax.axhline(mean, color=ACCENT, lw=1.5, label=f"MAP = {mean:.4f}")
    style_axes(
        ax, tr("AP per query; the line is MAP", lang=lang), tr("query", lang=lang), "AP", lang
    )
    ax.set_ylim(0, 1.12)
    ax.legend(fontsize=8, loc="upper right")
    return ax
