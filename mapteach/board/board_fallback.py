"""What the boards show where no kernel runs: their state for the page, and a still picture.

Each board widget's ``text/html`` is :func:`mapteach.offline.offline_html`: the widget's
state as JSON, with what its stand-in needs beyond the traits (``static/
ranking_list_offline.js``: the origin to reset to and every preset, so the menu works),
and a static part shown where scripts do not run: a picture of the board and its trace
table, or the printout's text. A page with the workbook's runtime (``make site``) runs
the widget's own module on that state instead. Nothing random is written, so a notebook
writes the same fallback every time it runs.
"""

from __future__ import annotations

import textwrap
from html import escape
from typing import TYPE_CHECKING, Any

from mapteach.board.board_plots import APBarsFigure, BoardFigure
from mapteach.board.list_widget import PRESETS, preset_origin
from mapteach.explain.ap_trace import explain_table, trace_ap
from mapteach.explain.trace_display import trace_html
from mapteach.i18n import HTML_LANG, language, tr
from mapteach.offline import offline_html, offline_state
from mapteach.plots import figure_png

if TYPE_CHECKING:
    from mapteach.board.list_widget import RankingList
    from mapteach.board.ranking_board import MultiQueryBoard
    from mapteach.board.readout_widgets import LiveReadout

__all__ = [
    "bar_label",
    "map_board_fallback",
    "map_static_html",
    "preset_states",
    "ranking_fallback",
    "ranking_static_html",
    "readout_fallback",
]


def bar_label(title: str) -> str:
    """A title's lead, before any colon, short enough to go under a bar (``"Query A"``).

    >>> bar_label("Query A: relevant near the top"), bar_label("查询 A：相关文档靠前")
    ('Query A', '查询 A')
    """
    lead = title.partition(":")[0].partition("：")[0]
    return textwrap.shorten(lead, width=28, placeholder="…")


def preset_states(lang: str) -> dict[str, dict[str, Any]]:
    """Every preset as loading it shows it, in ``lang``, written as
    :attr:`~mapteach.board.RankingList.origin` is: its name, items, missed relevant,
    title and k = 0.

    >>> state = preset_states("en")["003_b"]
    >>> [item["relevant"] for item in state["items"]][:3], state["n_unretrieved"], state["k"]
    ([True, False, True], 1, 0)
    """
    return {name: preset_origin(name, lang).as_json() for name, _ in PRESETS}


def _static(picture: str, html: str, note: str, lang: str) -> str:
    alt = escape(tr("the board's initial state", lang=lang))
    return (
        f'<div class="mapteach-static" lang="{HTML_LANG[lang]}">'
        f'<p style="color:#666;font-size:12px;">{escape(note)}</p>'
        f'<img alt="{alt}" src="{picture}" style="max-width:100%;"/>'
        f"{html}</div>"
    )


def _trace(ranking: RankingList) -> str:
    with language(ranking.lang):
        table = trace_ap(ranking.labels, n_relevant=ranking.n_relevant, k=ranking.cutoff)
        return trace_html(table, caption=str(explain_table(table)))


def _list_html(ranking: RankingList) -> str:
    rows = "".join(
        f"<li>{'✔' if item['relevant'] else '✘'} {escape(item['title'])}</li>"
        for item in ranking.items
    )
    return (
        f'<div class="mapteach-static" lang="{HTML_LANG[ranking.lang]}">'
        f"<p><b>{escape(ranking.heading)}</b></p><ol>{rows}</ol>"
        f"<p>R = {ranking.n_relevant} · {ranking.ap_label} = {ranking.ap:.4f}</p></div>"
    )


def ranking_static_html(ranking: RankingList) -> str:
    """The list as it stands, for a page without scripts: the board's picture and trace
    table in the board view, else the results with their marks, R and AP.

    Examples
    --------
    >>> from mapteach.board import RankingBoard, RankingList
    >>> print(ranking_static_html(RankingList([1, 0], query_name="q")))  # doctest: +ELLIPSIS
    <div class="mapteach-static" lang="en"><p><b>q</b></p><ol><li>✔ doc 1</li>...AP = 1.0000</p>...
    >>> html = ranking_static_html(RankingBoard(example="003_a").ranking)
    >>> 'src="data:image/png;base64,' in html and 'data-testid="trace-table"' in html
    True
    """
    if ranking.view != "board":
        return _list_html(ranking)
    still = BoardFigure(lang=ranking.lang)
    still.update(
        ranking.labels,
        n_relevant=ranking.n_relevant,
        k=ranking.cutoff,
        interpolated=ranking.interpolated,
    )
    note = tr(
        "A static picture of the ranking board: run the notebook to drag results around.",
        lang=ranking.lang,
    )
    return _static(figure_png(still.figure), _trace(ranking), note, ranking.lang)


def ranking_fallback(ranking: RankingList) -> str:
    """A ranking list's ``text/html``: its state, origin and presets, and its static picture.

    Examples
    --------
    >>> from mapteach.board import RankingList
    >>> html = ranking_fallback(RankingList([1, 0], query_name="q"))
    >>> html.startswith('<div class="mapteach-offline" data-module="ranking_list" lang="en">')
    True
    >>> '"origin": {"interpolated": false, "items": [{"doc": "d1"' in html
    True
    """
    extra: dict[str, Any] = {"origin": ranking.origin}
    if ranking.presets:
        extra["preset_states"] = preset_states(ranking.lang)
    state = offline_state(ranking, **extra)
    lang = HTML_LANG[ranking.lang]
    return offline_html("ranking_list", state, ranking_static_html(ranking), lang=lang)


def map_static_html(board: MultiQueryBoard) -> str:
    """The multi-query board as it stands, for a page without scripts: a picture of the
    per-query APs and MAP, and each query's labels, R and AP.

    Examples
    --------
    >>> from mapteach.board import MultiQueryBoard
    >>> html = map_static_html(MultiQueryBoard("003_abc"))
    >>> html.startswith('<div class="mapteach-static" lang="en">'), html.count("<li>")
    (True, 3)
    >>> html.endswith("<p>MAP = 0.5602</p></div>")
    True
    """
    still = APBarsFigure(board.bar_labels, lang=board.lang)
    still.update(board.aps, board.map_value)
    rows = "".join(
        "<li>{}</li>".format(
            escape(
                tr(
                    "{query} — {labels}, R = {r}, AP = {ap:.4f}",
                    lang=board.lang,
                    query=r.query_name,
                    labels=r.labels,
                    r=r.n_relevant,
                    ap=r.ap,
                )
            )
        )
        for r in board.rankings
    )
    note = tr(
        "A static picture of the multi-query board: run the notebook to drag results around.",
        lang=board.lang,
    )
    return _static(
        figure_png(still.figure),
        f"<ul>{rows}</ul><p>MAP = {board.map_value:.4f}</p>",
        note,
        board.lang,
    )


def map_board_fallback(board: MultiQueryBoard) -> str:
    """A multi-query board's ``text/html``: its state (its lists' too) and its picture.

    Examples
    --------
    >>> from mapteach.board import MultiQueryBoard
    >>> html = map_board_fallback(MultiQueryBoard("000_two_queries", lang="zh"))
    >>> html.startswith('<div class="mapteach-offline" data-module="map_board" lang="zh-Hans">')
    True
    >>> html.count('"module": "ranking_list"'), "MAP = 0.6667" in html  # its 2 lists, MAP
    (2, True)
    """
    state = offline_state(board)
    return offline_html("map_board", state, map_static_html(board), lang=HTML_LANG[board.lang])


def readout_fallback(readout: LiveReadout) -> str:
    """A live printout's ``text/html``: its state (the lists it follows) and its text.

    Examples
    --------
    >>> from mapteach.board import RankingBoard, live_readout
    >>> readout = live_readout(RankingBoard(example="003_a"))
    >>> html = readout_fallback(readout)
    >>> html.startswith('<div class="mapteach-offline" data-module="live_readout" lang="en">')
    True
    >>> readout.html in html
    True
    """
    state = offline_state(readout)
    return offline_html("live_readout", state, readout.html, lang=HTML_LANG[readout.lang])
