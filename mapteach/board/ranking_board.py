"""The ranking boards: one query (:class:`RankingBoard`) or several (:class:`MultiQueryBoard`).

Each board's model is its only state, and the browser derives everything it shows
from it: AP and MAP, the trace table and the plots, drawn by the widgets' own code
(``static/*.js``) in the frame of the drag. The kernel keeps ``labels``, ``ap`` and
MAP in step from the order it receives, and never redraws.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import ipywidgets
import numpy as np
import traitlets

from mapteach.articles.examples import MapExample, get_example
from mapteach.board.board_fallback import (
    bar_label,
    map_board_fallback,
    map_static_html,
    ranking_static_html,
)
from mapteach.board.list_widget import RankingList, single_query_example
from mapteach.board.view_texts import map_board_texts
from mapteach.i18n import tr, widget_language
from mapteach.offline import bundle_imports
from mapteach.offline.kernel_widget import KernelOwnedWidget

__all__ = ["MultiQueryBoard", "RankingBoard"]

_STATIC = Path(__file__).parent / "static"


class RankingBoard:
    """The ranking board: a draggable list, its trace table, P@k bars and the PR curve.

    The board is one widget, :attr:`ranking`, shown in its board view: every part
    updates in the browser after every action, in the frame of the drag, and the AP
    shown is always :func:`mapteach.average_precision` of the list on screen. Once
    the list differs from the example chosen, its heading says "(edited)"; *Reset*,
    or choosing the example again, brings the example back. Without a kernel it runs
    live on a page with the workbook's runtime (``make site``), or shows a picture
    and the trace table of its state where scripts do not run.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool, optional
        Relevance of each result, best first. Default: article 003's query A.
    example : str, optional
        Load a worked example by name instead of ``labels``.
    titles, docs, n_relevant, k, lang
        As :class:`RankingList`; ``lang`` is the language of the trace table and
        the plots too.

    Examples
    --------
    >>> from mapteach.board import RankingBoard
    >>> board = RankingBoard(example="003_b")
    >>> board.ranking.n_unretrieved  # query B never retrieved one of its 3 relevant items
    1
    >>> board.ranking.toggle("d2")
    >>> round(board.ranking.ap, 4)  # (1/1 + 2/2 + 3/3) / 4
    0.75
    >>> board.ranking.view
    'board'
    """

    def __init__(
        self,
        labels: Sequence[int | bool] | None = None,
        *,
        example: str | None = None,
        titles: Sequence[str] | None = None,
        docs: Sequence[str] | None = None,
        n_relevant: int | None = None,
        k: int | None = None,
        lang: str | None = None,
    ) -> None:
        #: The language the board speaks, fixed when it is made.
        self.lang = widget_language(lang)
        #: The board's one widget: the list, shown with its trace table and plots.
        self.ranking: RankingList
        if example is not None:
            self.ranking = RankingList.from_example(example, lang=self.lang, view="board")
        else:
            if labels is None:
                default = single_query_example("003_a", self.lang)
                labels, n_relevant = default.labels, default.n_relevant
            self.ranking = RankingList(
                labels,
                titles=titles,
                docs=docs,
                n_relevant=n_relevant,
                k=k,
                view="board",
                lang=self.lang,
            )

    def static_html(self) -> str:
        """A picture and the trace table of the current state, for a page without scripts."""
        return ranking_static_html(self.ranking)

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        data, metadata = self.ranking._repr_mimebundle_(**kwargs)
        data["text/plain"] = repr(self)
        return data, metadata

    def __repr__(self) -> str:
        return f"RankingBoard({self.ranking!r})"


class MultiQueryBoard(KernelOwnedWidget):
    """Several queries' lists side by side, each with its AP, and their MAP with AP bars.

    Each list is headed by its query's title, and its bar by the title's lead
    ("Query A"). One widget: its browser view shows the lists (each a
    :class:`RankingList`, in :attr:`rankings`) and computes each AP and MAP itself
    on every drag, drawing the AP bars; the kernel keeps :attr:`map_value` in step.

    Parameters
    ----------
    example : str, default "003_abc"
        A multi-query worked example (see :data:`mapteach.EXAMPLES`).
    lang : {"en", "zh"}, optional
        The language of every list, the plot and the static picture; default the
        current one.

    Examples
    --------
    >>> from mapteach.board import MultiQueryBoard
    >>> board = MultiQueryBoard("003_abc")
    >>> board.rankings[0].query_name
    'Query A: relevant near the top'
    >>> round(board.map_value, 4)
    0.5602
    >>> board.rankings[2].move("d8", 1)  # pull query C's last relevant item to the top
    >>> round(board.map_value, 4)  # (0.8056 + 0.5556 + (1/1 + 2/5 + 3/7) / 3) / 3
    0.6569
    """

    #: The browser module that draws this widget (``window.mapteachModules`` on a static page).
    offline_module = "map_board"
    _esm = bundle_imports(_STATIC / "map_board.js")
    _css = _STATIC / "ranking_list.css"

    rankings = traitlets.List(traitlets.Instance(RankingList), read_only=True).tag(
        sync=True, **ipywidgets.widget_serialization
    )
    bar_labels = traitlets.List(traitlets.Unicode(), read_only=True).tag(sync=True)
    texts = traitlets.Dict(traitlets.Unicode(), read_only=True).tag(sync=True)
    map_value = traitlets.Float(0.0, read_only=True).tag(sync=True)

    def __init__(self, example: str = "003_abc", *, lang: str | None = None) -> None:
        #: The language the board speaks, fixed when it is made.
        self.lang = widget_language(lang)
        queries = get_example(example)
        if not isinstance(queries, MapExample):
            raise ValueError(
                tr(
                    "{name!r} is a single query; show it with RankingBoard.",
                    lang=self.lang,
                    name=example,
                )
            )
        titles = [tr(q.title, lang=self.lang) for q in queries.queries]
        rankings = [
            RankingList(
                q.labels, n_relevant=q.n_relevant, compact=True, query_name=title, lang=self.lang
            )
            for q, title in zip(queries.queries, titles, strict=True)
        ]
        super().__init__()
        self.set_trait("rankings", rankings)
        self.set_trait("bar_labels", [bar_label(title) for title in titles])
        self.set_trait("texts", map_board_texts(self.lang))
        for ranking in rankings:
            ranking.observe(self._refresh, names="ap")
        self._refresh()

    @property
    def aps(self) -> list[float]:
        """Each query's AP, in order."""
        return [ranking.ap for ranking in self.rankings]

    def _refresh(self, change: traitlets.Bunch | None = None) -> None:
        # the mean of the APs as mapteach.mean_average_precision takes it (numpy's mean),
        # which board_math.js's meanAveragePrecision mirrors to the bit
        self.set_trait("map_value", float(np.mean(self.aps)))

    def static_html(self) -> str:
        """A picture of the per-query APs and MAP, for a page without scripts."""
        return map_static_html(self)

    def _fallback_html(self) -> str:
        return map_board_fallback(self)

    def __repr__(self) -> str:
        return f"MultiQueryBoard(MAP = {self.map_value:.4f}, {len(self.rankings)} queries)"
