"""Live printouts of a board: text that follows every drag, click and number typed.

A cell that prints a board's state prints it once, when the cell runs; after a
drag that text contradicts the board. :func:`live_readout` returns a small widget whose
browser view (``static/live_readout.js``) writes the printout itself from the board's
lists, in the frame of each change, so it always shows the list on screen; in Python
its ``text`` is computed when read. Without a kernel it runs the same way on a page
with the workbook's runtime, or shows the text as it stood when the cell ran.
Introduced in ``06_playground``.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

import ipywidgets
import numpy as np
import traitlets

from mapteach.board.board_fallback import readout_fallback
from mapteach.board.list_widget import RankingList
from mapteach.board.ranking_board import MultiQueryBoard, RankingBoard
from mapteach.board.view_texts import readout_texts
from mapteach.explain.ap_trace import explain_ap
from mapteach.i18n import HTML_LANG, language, tr
from mapteach.i18n.spacing import spaced_format
from mapteach.metrics import average_precision
from mapteach.offline import bundle_imports
from mapteach.offline.kernel_widget import KernelOwnedWidget

__all__ = ["LiveReadout", "live_readout"]

_STATIC = Path(__file__).parent / "static"
_BOX = (
    "font-family:var(--jp-code-font-family,monospace);font-size:13px;"
    "white-space:pre-wrap;line-height:1.5;"
)
_NOTE = "font-family:var(--jp-ui-font-family,sans-serif);color:#555;"


def _line(text: str, testid: str, value: float | None = None, style: str = "") -> str:
    data = f' data-value="{value!r}"' if value is not None else ""
    css = f' style="{style}"' if style else ""
    return f'<div data-testid="{testid}"{data}{css}>{escape(text)}</div>'


def _ap(ranking: RankingList) -> float:
    return average_precision(ranking.labels, n_relevant=ranking.n_relevant, k=ranking.cutoff)


class LiveReadout(KernelOwnedWidget):
    """Text about a board that follows it: its browser view rewrites it after every change.

    Made by :func:`live_readout`. ``rankings`` are the board's lists; ``text`` is the
    plain text and ``html`` its HTML, both computed when read: each line is a
    ``<div>`` with a ``data-testid``, and each AP or MAP carries its full-precision
    ``data-value``. The browser writes the same HTML from the lists' models.
    """

    #: The browser module that draws this widget (``window.mapteachModules`` on a static page).
    offline_module = "live_readout"
    _esm = bundle_imports(_STATIC / "live_readout.js")

    rankings = traitlets.List(traitlets.Instance(RankingList), read_only=True).tag(
        sync=True, **ipywidgets.widget_serialization
    )
    kind = traitlets.Unicode("board", read_only=True).tag(sync=True)
    texts = traitlets.Dict(traitlets.Unicode(), read_only=True).tag(sync=True)

    def __init__(self, board: RankingBoard | MultiQueryBoard) -> None:
        if isinstance(board, RankingBoard):
            rankings, kind = [board.ranking], "board"
        elif isinstance(board, MultiQueryBoard):
            rankings, kind = list(board.rankings), "map"
        else:
            raise TypeError(
                tr(
                    "live_readout follows a RankingBoard or a MultiQueryBoard; got {kind}.",
                    kind=type(board).__name__,
                )
            )
        super().__init__()
        #: The board followed, and the language it speaks (the printout speaks it too).
        self.board = board
        self.lang: str = board.lang
        self.set_trait("rankings", rankings)
        self.set_trait("kind", kind)
        self.set_trait("texts", readout_texts(self.lang))

    def _board_lines(self) -> tuple[list[str], str, float]:
        ranking = self.rankings[0]
        labels, r, k = ranking.labels, ranking.n_relevant, ranking.cutoff
        head = (  # the browser's first line too (readout_texts)
            spaced_format(self.texts["head_all"], labels=labels, r=r)
            if k is None
            else spaced_format(self.texts["head_cutoff"], labels=labels, r=r, k=k)
        )
        explanation = explain_ap(labels, n_relevant=r, k=k)
        ap = _ap(ranking)
        text = [head, str(explanation), explanation.note]
        html = (
            _line(head, "live-labels")
            + _line(str(explanation), "live-ap", ap)
            + _line(explanation.note, "live-note", style=_NOTE)
        )
        return text, html, ap

    def _map_lines(self) -> tuple[list[str], str, float]:
        text, html, aps = [], "", []
        for ranking in self.rankings:
            ap = _ap(ranking)
            aps.append(ap)
            r = ranking.n_relevant
            line = f"{ranking.query_name} — {ranking.labels}  R = {r}  AP = {ap:.4f}"
            text.append(line)
            html += _line(line, "live-ap", ap)
        # the mean as MultiQueryBoard's map_value, and board_math.js, take it
        mean = float(np.mean(aps))
        text.append(f"MAP = {mean:.4f}")
        html += _line(text[-1], "live-map", mean, "font-weight:600;")
        return text, html, mean

    def _lines(self) -> tuple[list[str], str, float]:
        with language(self.lang):
            return self._board_lines() if self.kind == "board" else self._map_lines()

    @property
    def text(self) -> str:
        """The printout as plain text, for the lists as they stand now."""
        return "\n".join(self._lines()[0])

    @property
    def html(self) -> str:
        """The printout as HTML, as the browser writes it for the lists as they stand now."""
        _, lines, value = self._lines()
        return (
            f'<div class="mapteach-live" data-testid="live-readout" data-kind="{self.kind}" '
            f'data-value="{value!r}" lang="{HTML_LANG[self.lang]}" aria-live="polite" '
            f'style="{_BOX}">{lines}</div>'
        )

    def _fallback_html(self) -> str:
        return readout_fallback(self)

    def __repr__(self) -> str:
        return self.text


def live_readout(board: RankingBoard | MultiQueryBoard) -> LiveReadout:
    """A printout of ``board`` that follows it: rewritten after every drag, click or number.

    For a :class:`~mapteach.board.ranking_board.RankingBoard`: the labels on
    screen, R and the cutoff k ("k = all" for the whole list), then AP's
    arithmetic as :func:`~mapteach.explain_ap` writes it and its note on R. For a
    :class:`~mapteach.board.ranking_board.MultiQueryBoard`: each query's labels,
    R and AP, then MAP. Every AP is :func:`~mapteach.average_precision` of the
    list on screen, so the printout never contradicts the board. The browser
    writes it from the board's lists in the frame of each change; ``.text`` is
    computed when read.

    Parameters
    ----------
    board : RankingBoard or MultiQueryBoard
        The board to follow; the printout speaks its language.

    Returns
    -------
    LiveReadout
        A widget; ``.text`` is its plain text, ``.html`` its HTML. Displayed
        without a kernel, it shows the text as it stood when the cell ran.

    Raises
    ------
    TypeError
        If ``board`` is neither board.

    Examples
    --------
    >>> from mapteach.board import live_readout
    >>> from mapteach.board import MultiQueryBoard, RankingBoard
    >>> board = RankingBoard(example="003_a")
    >>> readout = live_readout(board)
    >>> print(readout.text)
    labels on screen: [1, 0, 1, 1, 0, 0, 0, 0]   R = 3   k = all
    AP = (1/1 + 2/3 + 3/4) / 3 = 0.8056
    R = 3 relevant documents, all of them in the ranks that count.
    >>> board.ranking.move("d4", 1)  # a drag: the printout follows
    >>> board.ranking.k = 2
    >>> print(readout.text)
    labels on screen: [1, 1, 0, 1, 0, 0, 0, 0]   R = 3   k = 2
    AP@2 = (1/1 + 2/2) / 3 = 0.6667
    R = 3 relevant documents; 1 of them is not in the ranks that count and adds 0 to the sum.
    >>> 'data-testid="live-ap" data-value="0.6666666666666666"' in readout.html
    True

    Several queries, and MAP:

    >>> queries = MultiQueryBoard("003_abc")
    >>> readout = live_readout(queries)
    >>> queries.rankings[2].move("d8", 1)  # pull query C's last relevant item to the top
    >>> print(readout.text.splitlines()[-1])  # as the board's MAP
    MAP = 0.6569
    >>> f'data-value="{queries.map_value!r}"' in readout.html
    True

    Displayed, it is a live widget with its text as the fallback:

    >>> sorted(readout._repr_mimebundle_()[0])
    ['application/vnd.jupyter.widget-view+json', 'text/html', 'text/plain']
    >>> print(live_readout(RankingBoard(example="003_b", lang="zh")).text.splitlines()[0])
    面板上的标签：[1, 0, 1, 0, 0, 0, 0, 0]   R = 3   k = 全部
    """
    return LiveReadout(board)
