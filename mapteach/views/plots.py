"""Pictures of a ranking: P@k bars, the precision-recall curve, per-query AP bars.

The live board draws into an ipympl canvas and redraws only what changed
(blitting): the axes, ticks and labels are drawn once and kept as a background
bitmap, and each update paints the bars, curves and texts over it.

Every title, axis label, legend and note is in the current language, or in the
``lang=`` given; a Chinese figure first makes sure matplotlib has a Chinese font
(:func:`mapteach.views.fonts.use_cjk_font`).
"""

from __future__ import annotations

import base64
import io
import warnings
from collections.abc import Sequence
from typing import Any, TypeVar

import matplotlib
import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PolyCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.patches import Polygon, Rectangle

from mapteach.i18n import tr
from mapteach.metrics import average_precision
from mapteach.metrics._validation import as_k, as_labels
from mapteach.metrics.curves import curve_arrays, interpolated_precision
from mapteach.runs.compare import RunComparison
from mapteach.teaching.pr_curve import pr_curve
from mapteach.views.fonts import use_font_for
from mapteach.views.render import widget_language

__all__ = [
    "APBarsFigure",
    "BoardFigure",
    "figure_png",
    "plot_ap_bars",
    "plot_pr_curve",
    "plot_precision_at_k",
]

RELEVANT = "#1b7f6b"
IRRELEVANT = "#b8bec6"
ACCENT = "#d1495b"
_RGBA_RELEVANT = np.array(to_rgba(RELEVANT))
_RGBA_IRRELEVANT = np.array(to_rgba(IRRELEVANT))


def figure_png(figure: Figure) -> str:
    """The figure as a ``data:image/png;base64,...`` URL, for static HTML."""
    buffer = io.BytesIO()
    FigureCanvasAgg(figure).print_png(buffer)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _live_canvas(figure: Figure) -> Any:
    """An ipympl canvas widget for ``figure``, without toolbar, header or footer."""
    from ipympl.backend_nbagg import Canvas, FigureManager
    from PIL import Image

    class FastCanvas(Canvas):
        """ipympl's canvas, encoding each update's PNG with zlib level 1, not 6.

        Updates are mostly-transparent diff images, which level 1 still packs
        small; it takes a third of the kernel time the default level does.
        """

        _png_is_old: bool
        _force_full: bool
        _last_buff: np.ndarray

        def get_diff_image(self) -> bytes | None:
            if not self._png_is_old:
                return None
            rgba = np.asarray(self.get_renderer().buffer_rgba())
            buff = rgba.view(np.uint32).squeeze(2)
            # a diff can only be painted over an opaque picture of the same size
            full = (
                self._force_full
                or buff.shape != self._last_buff.shape
                or bool((rgba[:, :, 3] != 255).any())
            )
            self.set_image_mode("full" if full else "diff")
            output = buff if full else np.where(buff != self._last_buff, buff, 0)
            self._last_buff = buff.copy()
            self._force_full = self._png_is_old = False
            with io.BytesIO() as png:
                pixels = output.view(np.uint8).reshape((*output.shape, 4))
                Image.fromarray(pixels).save(png, format="png", compress_level=1)
                return png.getvalue()

    canvas = FastCanvas(figure)
    with warnings.catch_warnings():
        # ipympl 0.10's own toolbar passes traitlets an argument it deprecates
        warnings.filterwarnings("ignore", "Passing unrecognized arguments", DeprecationWarning)
        FigureManager(canvas, id(figure))
    canvas.header_visible = False
    canvas.footer_visible = False
    canvas.toolbar_visible = False
    canvas.resizable = False
    canvas.capture_scroll = False
    return canvas


ArtistT = TypeVar("ArtistT", bound=Artist)


class _Blitter:
    """Keeps a background bitmap and repaints only the animated artists over it."""

    def __init__(self, figure: Figure, live: bool) -> None:
        self.figure = figure
        self.live = live
        self.canvas = _live_canvas(figure) if live else FigureCanvasAgg(figure)
        self.artists: list[Artist] = []
        self._background = None
        if live:
            self.canvas.mpl_connect("draw_event", self._on_draw)

    def add(self, artist: ArtistT) -> ArtistT:
        artist.set_animated(self.live)
        self.artists.append(artist)
        return artist

    def _on_draw(self, event) -> None:
        self._background = self.canvas.copy_from_bbox(self.figure.bbox)
        self._paint()

    def _paint(self) -> None:
        for artist in self.artists:
            if artist.axes is not None:
                artist.axes.draw_artist(artist)

    def refresh(self) -> None:
        """Show the artists' new state: blit when live and drawn once, else mark stale."""
        if not self.live:
            return
        if self._background is None:
            self.canvas.draw_idle()
            return
        self.canvas.restore_region(self._background)
        self._paint()
        self.canvas.blit(self.figure.bbox)

    def redraw(self) -> None:
        """Draw everything again (after limits or the number of artists changed)."""
        self._background = None
        if self.live:
            self.canvas.draw_idle()


def _language(lang: str | None) -> str:
    """The figure's language (``lang`` or the current one), with a font that draws it."""
    lang = widget_language(lang)
    use_font_for(lang)
    return lang


def _style(ax: Axes, title: str, xlabel: str, ylabel: str, lang: str) -> None:
    # Axes made before the Chinese font was added keep their old font list: give their
    # texts the current one, which falls back to the Chinese font.
    family = {"fontfamily": matplotlib.rcParams["font.family"]} if lang == "zh" else {}
    ax.set_title(title, fontsize=10, loc="left", **family)
    ax.set_xlabel(xlabel, fontsize=9, **family)
    ax.set_ylabel(ylabel, fontsize=9, **family)
    ax.tick_params(labelsize=8, **{f"label{key}": value for key, value in family.items()})
    ax.spines[["top", "right"]].set_visible(False)


class BoardFigure:
    """The ranking board's picture: P@k at every rank, and the PR curve with AP's area.

    Parameters
    ----------
    live : bool, default True
        Draw into an ipympl canvas widget (``.canvas``) and blit updates; with
        False draw into a plain Agg canvas (for static pictures and tests).
    lang : {"en", "zh"}, optional
        The language of its titles, labels and legends; default the current one.
    """

    def __init__(self, *, live: bool = True, lang: str | None = None) -> None:
        self.lang = lang = _language(lang)
        self.figure = Figure(figsize=(7.6, 2.8), dpi=96)
        self.figure.subplots_adjust(left=0.07, right=0.98, bottom=0.17, top=0.82, wspace=0.25)
        self.ax_precision, self.ax_pr = self.figure.subplots(1, 2)
        self._blit = _Blitter(self.figure, live)
        self.canvas = self._blit.canvas
        _style(
            self.ax_precision,
            tr("P@k at every rank (green: relevant)", lang=lang),
            tr("rank k", lang=lang),
            "P@k",
            lang,
        )
        _style(
            self.ax_pr,
            tr("Precision-recall curve", lang=lang),
            tr("recall", lang=lang),
            tr("precision", lang=lang),
            lang,
        )
        self.ax_precision.set_ylim(0, 1.05)
        self.ax_pr.set(xlim=(0, 1.02), ylim=(0, 1.05))
        add = self._blit.add
        self.bars = add(PolyCollection([], linewidths=0))
        self.ax_precision.add_collection(self.bars)
        self.cutoff = add(self.ax_precision.axvline(np.nan, color=ACCENT, lw=1.2, ls="--"))
        self.area = add(Polygon(np.zeros((1, 2)), closed=True, color=RELEVANT, alpha=0.22, lw=0))
        self.ax_pr.add_patch(self.area)
        (self.sawtooth,) = self.ax_pr.plot([], [], color="#333333", lw=1.2, marker="o", ms=3)
        add(self.sawtooth)
        (self.interpolated,) = self.ax_pr.plot([], [], color=ACCENT, lw=1.5, drawstyle="steps-pre")
        add(self.interpolated)
        # the optional entry is the top row of a legend anchored below: hidden, it leaves no gap
        self.pr_legend = self.ax_pr.legend(
            [self.interpolated, self.sawtooth, self.area],
            [
                tr("interpolated", lang=lang),
                tr("precision after each rank", lang=lang),
                tr("shaded area = AP", lang=lang),
            ],
            fontsize=7,
            loc="lower left",
            frameon=False,
        )
        self.cutoff_legend = self.ax_precision.legend(
            [self.cutoff],
            [tr("cutoff k", lang=lang)],
            fontsize=7,
            loc="upper right",
            frameon=False,
        )
        self._legend_shows: tuple[bool, bool] | None = None
        self._length = -1

    def _legend_only_drawn(self, *, cutoff: bool, interpolated: bool) -> None:
        """Show a legend entry only for what is drawn; redraw once when that changes."""
        if (cutoff, interpolated) == self._legend_shows:
            return
        self._legend_shows = (cutoff, interpolated)
        self.cutoff_legend.set_visible(cutoff)
        for artist in (self.pr_legend.legend_handles[0], self.pr_legend.get_texts()[0]):
            if artist is not None:
                artist.set_visible(interpolated)
        self._blit.redraw()

    def _set_length(self, n: int) -> None:
        self._length = n
        self.ax_precision.set_xlim(0.4, max(n, 1) + 0.6)
        step = max(1, int(np.ceil(n / 20)))
        self.ax_precision.set_xticks(range(1, n + 1, step))
        self._blit.redraw()

    def update(
        self,
        labels: Sequence[int],
        *,
        n_relevant: int,
        k: int | None = None,
        interpolated: bool = False,
    ) -> None:
        """Show a new state of the ranking (validated by the caller)."""
        y = np.asarray(labels, dtype=bool)
        if y.size != self._length:
            self._set_length(y.size)
        recall, precision = curve_arrays(y, n_relevant)
        shown = y.size if k is None else min(k, y.size)
        ranks = np.arange(1, y.size + 1)
        self.bars.set_verts(
            [
                [(x - 0.4, 0), (x - 0.4, p), (x + 0.4, p), (x + 0.4, 0)]
                for x, p in zip(ranks, precision, strict=True)
            ]
        )
        colors = np.where(y[:, None], _RGBA_RELEVANT, _RGBA_IRRELEVANT)
        colors[shown:, 3] = 0.3
        self.bars.set_facecolor([tuple(rgba) for rgba in colors])
        self.cutoff.set_xdata([np.nan if k is None else k + 0.5] * 2)
        recall, precision, y = recall[:shown], precision[:shown], y[:shown]
        start = precision[:1] if shown else np.zeros(1)
        self.sawtooth.set_data(np.r_[0.0, recall], np.r_[start, precision])
        best = interpolated_precision(recall, precision)
        self.interpolated.set_data(np.r_[0.0, recall], np.r_[best[:1] if shown else 0.0, best])
        self.interpolated.set_visible(interpolated)
        self.area.set_xy(_area_polygon(recall[y], precision[y]))
        # a cutoff past the last rank falls outside the axes
        self._legend_only_drawn(
            cutoff=k is not None and k <= self._length, interpolated=interpolated
        )
        self._blit.refresh()


def _area_polygon(recall: np.ndarray, precision: np.ndarray) -> np.ndarray:
    """Outline of the rectangles under the curve: width 1/R at each relevant rank."""
    left = np.r_[0.0, recall[:-1]][: recall.size]
    steps = np.column_stack([left, precision, recall, precision]).reshape(-1, 2)
    end = recall[-1] if recall.size else 0.0
    return np.vstack([[0.0, 0.0], steps, [end, 0.0]])


class APBarsFigure:
    """Per-query AP bars with a line at their mean (MAP), blitted like the board.

    Parameters
    ----------
    names : sequence of str
        Query names, one bar each.
    live : bool, default True
        Draw into an ipympl canvas widget (``.canvas``) rather than plain Agg.
    lang : {"en", "zh"}, optional
        The language of its title and labels; default the current one.
    """

    def __init__(self, names: Sequence[str], *, live: bool = True, lang: str | None = None) -> None:
        self.lang = lang = _language(lang)
        self.figure = Figure(figsize=(4.6, 2.8), dpi=100)
        self.figure.subplots_adjust(left=0.14, right=0.97, bottom=0.16, top=0.86)
        self.ax = self.figure.subplots()
        self._blit = _Blitter(self.figure, live)
        self.canvas = self._blit.canvas
        _style(
            self.ax,
            tr("AP per query; the line is MAP", lang=lang),
            tr("query", lang=lang),
            "AP",
            lang,
        )
        self.ax.set_ylim(0, 1.12)
        positions = np.arange(len(names))
        self.ax.set_xticks(positions, list(names))
        self.ax.set_xlim(-0.6, len(names) - 0.4)
        self.bars = [
            self._blit.add(Rectangle((x - 0.35, 0), 0.7, 0, color=RELEVANT)) for x in positions
        ]
        for bar in self.bars:
            self.ax.add_patch(bar)
        self.mean_line = self._blit.add(self.ax.axhline(np.nan, color=ACCENT, lw=1.5))
        self.ax.legend([self.mean_line], ["MAP"], fontsize=7, loc="upper right", frameon=False)

    def update(self, aps: Sequence[float]) -> None:
        """Show new per-query APs and their mean."""
        for bar, ap in zip(self.bars, aps, strict=True):
            bar.set_height(ap)
        mean = float(np.mean(aps))
        self.mean_line.set_ydata([mean, mean])
        self._blit.refresh()


def plot_pr_curve(
    labels: Sequence[int | bool],
    *,
    n_relevant: int | None = None,
    interpolated: bool = True,
    ax: Axes | None = None,
    lang: str | None = None,
) -> Axes:
    """Draw the saw-tooth PR curve, AP as the shaded area, and the interpolated curve.

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
    >>> from mapteach.views.plots import plot_pr_curve
    >>> ax = plot_pr_curve([1, 0, 1, 1, 0], n_relevant=4)
    >>> ax.get_legend_handles_labels()[1]
    ['precision after each rank', 'interpolated precision', 'AP = 0.6042 (shaded area)']
    """
    curve = pr_curve(labels, n_relevant=n_relevant)
    hits = curve[curve["relevant"]]
    lang = _language(lang)
    if ax is None:
        ax = Figure(figsize=(4.5, 3.2)).subplots()
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
    area = _area_polygon(hits["recall"].to_numpy(), hits["precision"].to_numpy())
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
    _style(
        ax,
        tr("Precision-recall curve", lang=lang),
        tr("recall", lang=lang),
        tr("precision", lang=lang),
        lang,
    )
    ax.set(xlim=(0, 1.02), ylim=(0, 1.12))
    ax.legend(fontsize=8, loc="lower left")
    return ax


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
    >>> from mapteach.views.plots import plot_precision_at_k
    >>> ax = plot_precision_at_k([0, 1, 1, 0, 0], k=3)
    >>> [round(float(bar.get_height()), 3) for bar in ax.patches]  # P@1 .. P@5
    [0.0, 0.5, 0.667, 0.5, 0.4]
    """
    y = as_labels(labels)
    if k is not None:
        k = as_k(k)
    lang = _language(lang)
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
    _style(
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
    >>> from mapteach.views.plots import plot_ap_bars
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
    _style(ax, tr("AP per query; the line is MAP", lang=lang), tr("query", lang=lang), "AP", lang)
    ax.set_ylim(0, 1.12)
    ax.legend(fontsize=8, loc="upper right")
    return ax


def plot_deltas(
    comparison: RunComparison, *, ax: Axes | None = None, lang: str | None = None
) -> Axes:
    """Per-query deltas of a run comparison, sorted: green where B is better, red where worse.

    Introduced in ``11_evaluate_your_own_run``.

    Examples
    --------
    >>> from mapteach import compare_runs
    >>> from mapteach.views.plots import plot_deltas
    >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    >>> a = {"q1": {"a": 1.0, "x": 2.0}, "q2": {"b": 2.0, "y": 1.0}}
    >>> b = {"q1": {"a": 2.0, "x": 1.0}, "q2": {"b": 1.0, "y": 2.0}}
    >>> len(plot_deltas(compare_runs(qrels, a, b)).patches)  # one bar per query
    2
    """
    lang = _language(lang)
    if ax is None:
        ax = Figure(figsize=(6, 2.8)).subplots()
    measure = comparison.measure
    delta = comparison.per_query["delta"].sort_values(ascending=False).to_numpy()
    ax.bar(np.arange(delta.size), delta, width=0.9, color=np.where(delta >= 0, RELEVANT, ACCENT))
    ax.axhline(0, color="#333333", lw=0.8)
    _style(
        ax,
        tr("{measure}: B minus A, per query (sorted)", lang=lang, measure=measure),
        tr("queries", lang=lang),
        tr("delta {measure}", lang=lang, measure=measure),
        lang,
    )
    ax.set_xticks([])
    return ax
