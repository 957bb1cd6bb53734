"""The boards' still pictures: P@k bars, the precision-recall curve, per-query AP bars.

The live boards draw themselves in the browser (``static/board_plots.js``); these
matplotlib figures are the pictures a page without scripts shows instead (the
``text/html`` fallback), drawn on plain Agg.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PolyCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.patches import Polygon, Rectangle

from mapteach.board.view_texts import map_board_texts, plot_texts
from mapteach.i18n import language
from mapteach.metrics.curves import curve_arrays, interpolated_precision
from mapteach.plots import ACCENT, IRRELEVANT, RELEVANT, ap_area_outline, plot_language, style_axes

__all__ = ["APBarsFigure", "BoardFigure"]

_RGBA_RELEVANT = np.array(to_rgba(RELEVANT))
_RGBA_IRRELEVANT = np.array(to_rgba(IRRELEVANT))

#: The board figure's width in inches, and the gap between the PR axes and its legend.
_BOARD_WIDTH = 8.6
_LEGEND_GAP = 0.25


class _StillDrawing:
    """A figure in one language on a plain Agg canvas."""

    def __init__(
        self, size: tuple[float, float], dpi: int, lang: str | None, **margins: float
    ) -> None:
        self.lang = plot_language(lang)
        self.figure = Figure(figsize=size, dpi=dpi)
        self.figure.subplots_adjust(**margins)
        self.canvas = FigureCanvasAgg(self.figure)


class BoardFigure(_StillDrawing):
    """The ranking board's picture: P@k at every rank, and the PR curve with AP's area.

    One legend, in the margin right of the PR curve where nothing is drawn, lists what
    is shown: the cutoff line and the interpolated curve only while they are drawn.

    Parameters
    ----------
    lang : {"en", "zh"}, optional
        The language of its titles, labels and legends; default the current one.

    Examples
    --------
    >>> from mapteach.board import BoardFigure
    >>> figure = BoardFigure()
    >>> figure.update([1, 0, 1], n_relevant=3, k=2)
    >>> [text.get_text() for text in figure.legend.get_texts()]
    ['precision after each rank', 'shaded area = AP', 'cutoff k']
    """

    def __init__(self, *, lang: str | None = None) -> None:
        super().__init__(
            (_BOARD_WIDTH, 2.8), 96, lang, left=0.07, bottom=0.17, top=0.82, wspace=0.25
        )
        with language(self.lang):
            #: The titles, axis labels and legend entries, as the live board's plots say them.
            self._words = plot_texts()
        self.ax_precision, self.ax_pr = self.figure.subplots(1, 2)
        self._style_axes()
        self.bars = PolyCollection([], linewidths=0)
        self.ax_precision.add_collection(self.bars)
        self.cutoff = self.ax_precision.axvline(np.nan, color=ACCENT, lw=1.2, ls="--")
        self.area = Polygon(np.zeros((1, 2)), closed=True, color=RELEVANT, alpha=0.22, lw=0)
        self.ax_pr.add_patch(self.area)
        (self.sawtooth,) = self.ax_pr.plot([], [], color="#333333", lw=1.2, marker="o", ms=3)
        (self.interpolated,) = self.ax_pr.plot([], [], color=ACCENT, lw=1.5, drawstyle="steps-pre")
        self._entries = {
            self.sawtooth: self._words["sawtooth"],
            self.interpolated: self._words["interpolated_line"],
            self.area: self._words["area"],
            self.cutoff: self._words["cutoff_line"],
        }
        self.legend = self._show_legend(self._entries)
        self._leave_room_for_legend()

    def _style_axes(self) -> None:
        """Titles, labels and limits of the P@k axes and the PR axes."""
        words = self._words
        style_axes(self.ax_precision, words["pk_title"], words["rank_axis"], "P@k", self.lang)
        style_axes(
            self.ax_pr, words["pr_title"], words["recall_axis"], words["precision_axis"], self.lang
        )
        self.ax_precision.set_ylim(0, 1.05)
        self.ax_pr.set(xlim=(0, 1.02), ylim=(0, 1.05))

    def _show_legend(self, entries: dict[Artist, str]) -> Legend:
        """A legend of ``entries`` in the margin right of the PR axes, where nothing is drawn."""
        return self.ax_pr.legend(
            list(entries),
            list(entries.values()),
            fontsize=7,
            loc="upper left",
            bbox_to_anchor=(1.03, 1.0),
            borderaxespad=0,
            frameon=False,
        )

    def _leave_room_for_legend(self) -> None:
        """Narrow the axes so that the legend, with every entry, fits in the right margin."""
        width = self.legend.get_window_extent(self.canvas.get_renderer()).width / self.figure.dpi
        room = (width + _LEGEND_GAP) / _BOARD_WIDTH
        self.figure.subplots_adjust(right=1 - room)

    def _legend_only_drawn(self, *, cutoff: bool, interpolated: bool) -> None:
        """List in the legend only what is drawn."""
        hidden = {self.cutoff: not cutoff, self.interpolated: not interpolated}
        self.legend.remove()
        self.legend = self._show_legend(
            {artist: text for artist, text in self._entries.items() if not hidden.get(artist)}
        )

    def _set_length(self, n: int) -> None:
        self.ax_precision.set_xlim(0.4, max(n, 1) + 0.6)
        step = max(1, int(np.ceil(n / 20)))
        self.ax_precision.set_xticks(range(1, n + 1, step))

    def update(
        self,
        labels: Sequence[int],
        *,
        n_relevant: int,
        k: int | None = None,
        interpolated: bool = False,
    ) -> None:
        """Draw a state of the ranking (validated by the caller)."""
        y = np.asarray(labels, dtype=bool)
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
        self.area.set_xy(ap_area_outline(recall[y], precision[y]))
        # a cutoff past the last rank falls outside the axes
        self._legend_only_drawn(cutoff=k is not None and k <= y.size, interpolated=interpolated)


class APBarsFigure(_StillDrawing):
    """Per-query AP bars with a line at their mean (MAP).

    Parameters
    ----------
    names : sequence of str
        Query names, one bar each.
    lang : {"en", "zh"}, optional
        The language of its title and labels; default the current one.

    Examples
    --------
    >>> from mapteach.board import APBarsFigure
    >>> figure = APBarsFigure(["A", "B"])
    >>> figure.update([1.0, 0.5], 0.75)
    >>> [bar.get_height() for bar in figure.bars], figure.mean_line.get_ydata()[0]
    ([1.0, 0.5], 0.75)
    """

    def __init__(self, names: Sequence[str], *, lang: str | None = None) -> None:
        super().__init__((4.6, 2.8), 100, lang, left=0.14, right=0.97, bottom=0.16, top=0.86)
        self.ax = self.figure.subplots()
        words = map_board_texts(self.lang)
        style_axes(self.ax, words["ap_title"], words["query_axis"], "AP", self.lang)
        self.ax.set_ylim(0, 1.12)
        positions = np.arange(len(names))
        self.ax.set_xticks(positions, list(names))
        self.ax.set_xlim(-0.6, len(names) - 0.4)
        self.bars = [Rectangle((x - 0.35, 0), 0.7, 0, color=RELEVANT) for x in positions]
        for bar in self.bars:
            self.ax.add_patch(bar)
        self.mean_line = self.ax.axhline(np.nan, color=ACCENT, lw=1.5)
        self.ax.legend([self.mean_line], ["MAP"], fontsize=7, loc="upper right", frameon=False)

    def update(self, aps: Sequence[float], mean: float) -> None:
        """Draw per-query APs and their mean, MAP (computed by the caller)."""
        for bar, ap in zip(self.bars, aps, strict=True):
            bar.set_height(ap)
        self.mean_line.set_ydata([mean, mean])
