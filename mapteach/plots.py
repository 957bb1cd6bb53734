"""What every picture shares: colours, the axes' style, the language, AP's area, PNG data URLs.

Every title, axis label, legend and note is in the current language, or in the
``lang=`` given; a Chinese figure first makes sure matplotlib has a Chinese font
(:func:`mapteach.fonts.use_cjk_font`).
"""

from __future__ import annotations

import base64
import io

import matplotlib
import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from mapteach.fonts import use_font_for
from mapteach.i18n import widget_language

__all__ = ["figure_png"]

RELEVANT = "#1b7f6b"


IRRELEVANT = "#b8bec6"


ACCENT = "#d1495b"


def figure_png(figure: Figure) -> str:
    """The figure as a ``data:image/png;base64,...`` URL, for static HTML."""
    buffer = io.BytesIO()
    FigureCanvasAgg(figure).print_png(buffer)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def plot_language(lang: str | None) -> str:
    """The language a plot is drawn in (``lang``, or the current one), with a font for it.

    >>> plot_language("en"), plot_language(None)
    ('en', 'en')
    """
    lang = widget_language(lang)
    use_font_for(lang)
    return lang


def style_axes(ax: Axes, title: str, xlabel: str, ylabel: str, lang: str) -> None:
    """Give ``ax`` the workbook's look: a small left-aligned title, labels, no top or right spine.

    >>> ax = Figure().subplots()
    >>> style_axes(ax, "AP per query", "query", "AP", "en")
    >>> ax.get_title(loc="left"), ax.spines["top"].get_visible()
    ('AP per query', False)
    """
    # Axes made before the Chinese font was added keep their old font list: give their
    # texts the current one, which falls back to the Chinese font.
    family = {"fontfamily": matplotlib.rcParams["font.family"]} if lang == "zh" else {}
    ax.set_title(title, fontsize=10, loc="left", **family)
    ax.set_xlabel(xlabel, fontsize=9, **family)
    ax.set_ylabel(ylabel, fontsize=9, **family)
    ax.tick_params(labelsize=8, **{f"label{key}": value for key, value in family.items()})
    ax.spines[["top", "right"]].set_visible(False)


def ap_area_outline(recall: np.ndarray, precision: np.ndarray) -> np.ndarray:
    """Outline of the rectangles whose area is AP: width 1/R at each relevant rank.

    ``recall`` and ``precision`` are taken at the relevant ranks only; the outline
    runs from the origin along the tops of the rectangles and back down to the axis.

    >>> ap_area_outline(np.array([0.5, 1.0]), np.array([1.0, 2 / 3])).round(2).tolist()
    [[0.0, 0.0], [0.0, 1.0], [0.5, 1.0], [0.5, 0.67], [1.0, 0.67], [1.0, 0.0]]
    """
    left = np.r_[0.0, recall[:-1]][: recall.size]
    steps = np.column_stack([left, precision, recall, precision]).reshape(-1, 2)
    end = recall[-1] if recall.size else 0.0
    return np.vstack([[0.0, 0.0], steps, [end, 0.0]])
