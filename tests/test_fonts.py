"""Every picture the workbook draws renders in Chinese: no missing glyph, a real CJK font.

Under ``language("zh")`` each plot kind of :mod:`mapteach.plots` (and the boards'
static pictures) is drawn with Chinese titles, labels and legends and rendered to PNG
with Agg while every warning is an error: matplotlib's "Glyph ... missing from font(s)"
is a UserWarning, so a Chinese character drawn without a CJK font fails here.
"""

from __future__ import annotations

import inspect
import io
import re
import warnings
from collections.abc import Callable, Iterator

import matplotlib
import pytest
from matplotlib import font_manager
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from mapteach import compare_runs
from mapteach.analysis import plots as analysis_plots
from mapteach.board import board_plots
from mapteach.board.ranking_board import MultiQueryBoard, RankingBoard
from mapteach.explain import plots as explain_plots
from mapteach.fonts import CJK_FONT, CJK_FONT_FILE, cjk_font_path, use_cjk_font
from mapteach.i18n import language, tr

#: The font the Chinese figures are drawn in, as matplotlib names it.
CJK_FONT_NAME = "Noto Sans CJK SC"
HAN = re.compile(r"[\u4e00-\u9fff]")

QRELS = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}}
RUN_A = {"q1": {"a": 1.0, "x": 2.0}, "q2": {"b": 2.0, "y": 1.0}, "q3": {"c": 1.0, "z": 2.0}}
RUN_B = {"q1": {"a": 2.0, "x": 1.0}, "q2": {"b": 1.0, "y": 2.0}, "q3": {"c": 2.0, "z": 1.0}}


def _board_figure() -> Figure:
    figure = board_plots.BoardFigure()
    figure.update([1, 0, 1, 0, 0], n_relevant=3, k=3, interpolated=True)
    return figure.figure


def _ap_bars_figure() -> Figure:
    figure = board_plots.APBarsFigure(["查询 A", "查询 B"])
    figure.update([0.8, 0.4], 0.6)
    return figure.figure


def _figure(ax: Axes) -> Figure:
    figure = ax.get_figure()
    assert isinstance(figure, Figure)
    return figure


#: The modules that draw pictures, each a feature's ``plots``.
PLOT_MODULES = (board_plots, explain_plots, analysis_plots)

#: Each plot kind of the plot modules, drawn in the current language with everything it can show.
DRAWERS: dict[str, Callable[[], Figure]] = {
    "BoardFigure": _board_figure,
    "APBarsFigure": _ap_bars_figure,
    "plot_pr_curve": lambda: _figure(explain_plots.plot_pr_curve([1, 0, 1, 1, 0], n_relevant=4)),
    "plot_precision_at_k": lambda: _figure(explain_plots.plot_precision_at_k([0, 1, 1, 0, 0], k=3)),
    "plot_ap_bars": lambda: _figure(explain_plots.plot_ap_bars([0.8, 0.5], ["甲", "乙"])),
    "plot_deltas": lambda: _figure(analysis_plots.plot_deltas(compare_runs(QRELS, RUN_A, RUN_B))),
}


def _plot_kinds() -> set[str]:
    """Every figure class and plot_* function the plot modules offer."""
    return {
        name
        for module in PLOT_MODULES
        for name, value in vars(module).items()
        if inspect.getmodule(value) is module
        and (name.startswith("plot_") or (inspect.isclass(value) and name.endswith("Figure")))
    }


def _texts(figure: Figure) -> Iterator[str]:
    for artist in figure.findobj(Text):
        if isinstance(artist, Text) and artist.get_visible() and artist.get_text():
            yield artist.get_text()


def _render(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    FigureCanvasAgg(figure).print_png(buffer)
    return buffer.getvalue()


def _font_for(text: str) -> str:
    """The file matplotlib draws ``text``'s characters from: the first family in the
    ``font.family`` fallback list whose font has every one of them."""
    for family in matplotlib.rcParams["font.family"]:
        path = font_manager.findfont(font_manager.FontProperties(family=[family]))
        font = font_manager.get_font(path)
        if all(font.get_char_index(ord(char)) for char in text if not char.isspace()):
            return path
    raise AssertionError(f"no font in {matplotlib.rcParams['font.family']} draws {text!r}")


def test_every_plot_kind_is_drawn_here():
    assert set(DRAWERS) == _plot_kinds()


@pytest.mark.parametrize("kind", sorted(DRAWERS))
def test_plot_renders_in_chinese_without_a_missing_glyph(kind):
    with language("zh"), warnings.catch_warnings():
        warnings.simplefilter("error")
        figure = DRAWERS[kind]()
        texts = list(_texts(figure))
        png = _render(figure)
    assert png.startswith(b"\x89PNG")
    chinese = [text for text in texts if HAN.search(text)]
    assert chinese, f"{kind} drew no Chinese text: {texts}"
    assert CJK_FONT in matplotlib.rcParams["font.family"]


@pytest.mark.parametrize(
    "board", [lambda: RankingBoard(example="003_b"), lambda: MultiQueryBoard("003_abc")]
)
def test_static_pictures_of_the_boards_render_in_chinese(board):
    with language("zh"), warnings.catch_warnings():
        warnings.simplefilter("error")
        html = board().static_html()
    assert html.count("data:image/png;base64,") == 1
    assert 'lang="zh-Hans"' in html
    assert tr("the board's initial state", lang="zh") in html


def test_titles_and_legends_are_in_the_figures_language():
    with language("zh"):
        ax = explain_plots.plot_pr_curve([1, 0, 1], n_relevant=3)
    assert ax.get_title(loc="left") == tr("Precision-recall curve", lang="zh")
    assert ax.get_xlabel() == tr("recall", lang="zh") != "recall"
    labels = ax.get_legend_handles_labels()[1]
    assert labels[-1] == tr("AP = {ap:.4f} (shaded area)", lang="zh", ap=5 / 9)
    english = explain_plots.plot_pr_curve([1, 0, 1], n_relevant=3, lang="en")  # lang= wins
    assert english.get_xlabel() == "recall"


def test_the_cjk_font_is_the_one_matplotlib_finds_for_chinese():
    assert CJK_FONT == CJK_FONT_NAME
    assert use_cjk_font() == CJK_FONT_NAME
    use_cjk_font()  # a second call changes nothing
    families = matplotlib.rcParams["font.family"]
    assert families.count(CJK_FONT_NAME) == 1
    assert families[0] != CJK_FONT_NAME  # Latin text keeps the default font
    path = cjk_font_path()
    assert path.name == CJK_FONT_FILE == "NotoSansCJKsc-Regular.otf"
    assert path.parent.parent.name == "mplfonts"
    # matplotlib may resolve the family to mplfonts' file or, where Debian's fonts-noto-cjk
    # is installed, to the same face inside the system's collection: either draws the glyphs.
    found = font_manager.findfont(
        font_manager.FontProperties(family=[CJK_FONT_NAME]), fallback_to_default=False
    )
    assert font_manager.get_font(found).family_name == CJK_FONT_NAME
    chinese = tr("Precision-recall curve", lang="zh")
    assert HAN.search(chinese)
    assert font_manager.get_font(_font_for(chinese)).family_name == CJK_FONT_NAME
    assert _font_for("recall AP = 0.5") != str(path)


def test_axes_made_before_the_font_was_added_draw_chinese_too():
    with matplotlib.rc_context({"font.family": ["sans-serif"]}):  # as in a fresh kernel
        made_early = [Figure().subplots() for _ in range(3)]
        with language("zh"), warnings.catch_warnings():
            warnings.simplefilter("error")
            explain_plots.plot_pr_curve([1, 0, 1], ax=made_early[0])
            explain_plots.plot_precision_at_k([1, 0, 1], k=2, ax=made_early[1])
            explain_plots.plot_ap_bars([0.5, 0.25], ["查询甲", "查询乙"], ax=made_early[2])
            for ax in made_early:
                assert HAN.search(ax.get_title(loc="left"))
                _render(_figure(ax))
