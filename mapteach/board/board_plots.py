"""The boards' live figures: P@k bars, the precision-recall curve, per-query AP bars.

The live board draws into an ipympl canvas and redraws only what changed
(blitting): the axes, ticks and labels are drawn once and kept as a background
bitmap, and each update paints the bars, curves and texts over it.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PolyCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.patches import Polygon, Rectangle

from mapteach.i18n import tr
from mapteach.metrics.curves import curve_arrays, interpolated_precision
from mapteach.plots import ACCENT, IRRELEVANT, RELEVANT, ap_area_outline, plot_language, style_axes

__all__ = ["APBarsFigure", "BoardFigure"]

_RGBA_RELEVANT = np.array(to_rgba(RELEVANT))


_RGBA_IRRELEVANT = np.array(to_rgba(IRRELEVANT))

#: The board figure's width in inches, and the gap between the PR axes and its legend.
_BOARD_WIDTH = 8.6
_LEGEND_GAP = 0.25


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


class _BlittedDrawing:
    """A figure in one language, drawn live (ipympl) or on plain Agg, whose artists are blitted."""

    def __init__(
        self, size: tuple[float, float], dpi: int, live: bool, lang: str | None, **margins: float
    ) -> None:
        self.lang = plot_language(lang)
        self.figure = Figure(figsize=size, dpi=dpi)
        self.figure.subplots_adjust(**margins)
        self._blit = _Blitter(self.figure, live)
        self.canvas = self._blit.canvas


class BoardFigure(_BlittedDrawing):
    """The ranking board's picture: P@k at every rank, and the PR curve with AP's area.

    One legend, in the margin right of the PR curve where nothing is drawn, lists what
    is shown: the cutoff line and the interpolated curve only while they are drawn.

    Parameters
    ----------
    live : bool, default True
        Draw into an ipympl canvas widget (``.canvas``) and blit updates; with
        False draw into a plain Agg canvas (for static pictures and tests).
    lang : {"en", "zh"}, optional
        The language of its titles, labels and legends; default the current one.
    """

    def __init__(self, *, live: bool = True, lang: str | None = None) -> None:
        super().__init__(
            (_BOARD_WIDTH, 2.8), 96, live, lang, left=0.07, bottom=0.17, top=0.82, wspace=0.25
        )
        self.ax_precision, self.ax_pr = self.figure.subplots(1, 2)
        self._style_axes()
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
        self._entries = {
            self.sawtooth: tr("precision after each rank", lang=self.lang),
            self.interpolated: tr("interpolated", lang=self.lang),
            self.area: tr("shaded area = AP", lang=self.lang),
            self.cutoff: tr("cutoff k", lang=self.lang),
        }
        self.legend = self._show_legend(self._entries)
        self._leave_room_for_legend()
        self._legend_shows: tuple[bool, bool] | None = None
        self._length = -1

    def _style_axes(self) -> None:
        """Titles, labels and limits of the P@k axes and the PR axes."""
        lang = self.lang
        style_axes(
            self.ax_precision,
            tr("P@k at every rank (green: relevant)", lang=lang),
            tr("rank k", lang=lang),
            "P@k",
            lang,
        )
        style_axes(
            self.ax_pr,
            tr("Precision-recall curve", lang=lang),
            tr("recall", lang=lang),
            tr("precision", lang=lang),
            lang,
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
        """List in the legend only what is drawn; redraw once when that changes."""
        if (cutoff, interpolated) == self._legend_shows:
            return
        self._legend_shows = (cutoff, interpolated)
        hidden = {self.cutoff: not cutoff, self.interpolated: not interpolated}
        self.legend.remove()
        self.legend = self._show_legend(
            {artist: text for artist, text in self._entries.items() if not hidden.get(artist)}
        )
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
        self.area.set_xy(ap_area_outline(recall[y], precision[y]))
        # a cutoff past the last rank falls outside the axes
        self._legend_only_drawn(
            cutoff=k is not None and k <= self._length, interpolated=interpolated
        )
        self._blit.refresh()


class APBarsFigure(_BlittedDrawing):
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
        super().__init__((4.6, 2.8), 100, live, lang, left=0.14, right=0.97, bottom=0.16, top=0.86)
        self.ax = self.figure.subplots()
        style_axes(
            self.ax,
            tr("AP per query; the line is MAP", lang=self.lang),
            tr("query", lang=self.lang),
            "AP",
            self.lang,
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
