"""Checks that a legend covers no drawn line: its box against each line's path, on screen."""

from __future__ import annotations

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.transforms import Bbox


def renderer_of(figure: Figure):
    """The figure's Agg renderer, after a full draw (so every position is final)."""
    canvas = (
        figure.canvas if isinstance(figure.canvas, FigureCanvasAgg) else FigureCanvasAgg(figure)
    )
    canvas.draw()
    return canvas.get_renderer()


def lines_under(legend: Legend, lines: list[Line2D], renderer=None) -> list[str]:
    """The labels of the drawn ``lines`` whose path or markers reach into ``legend``'s box.

    Each line's path is taken in display coordinates, as drawn (steps included), and only
    where it is drawn (inside its clip box, the axes); the legend's box is widened by half
    the line's width and its marker's size.
    """
    figure = legend.get_figure(root=True)
    box = legend.get_window_extent(renderer or renderer_of(figure))
    points = figure.dpi / 72
    covered = []
    for line in lines:
        if not line.get_visible() or len(line.get_xdata()) == 0:
            continue
        reach = (line.get_linewidth() + line.get_markersize()) / 2 * points
        padded = Bbox.from_extents(box.x0 - reach, box.y0 - reach, box.x1 + reach, box.y1 + reach)
        clip = line.get_clip_box()
        drawn = padded if clip is None else Bbox.intersection(padded, clip)
        if drawn is None:
            continue
        path = line.get_transform().transform_path(line.get_path())
        if path.intersects_bbox(drawn, filled=False) or drawn.count_contains(path.vertices):
            covered.append(str(line.get_label()))
    return covered


def overlaps(a: Bbox, b: Bbox) -> bool:
    """Whether two display boxes share any area."""
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1
