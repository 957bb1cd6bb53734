"""The ranking boards: one query (:class:`RankingBoard`) or several (:class:`MultiQueryBoard`),
with their figures, readouts and trace beside the draggable list.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from html import escape
from typing import Any

import anywidget
import ipywidgets
import numpy as np
import traitlets

from mapteach.articles.examples import MapExample, get_example
from mapteach.board.board_plots import APBarsFigure, BoardFigure
from mapteach.board.list_widget import RankingList, single_query_example
from mapteach.explain.ap_trace import explain_table, trace_ap
from mapteach.explain.trace_display import trace_html
from mapteach.i18n import HTML_LANG, language, tr, widget_language
from mapteach.plots import figure_png

__all__ = ["MultiQueryBoard", "RankingBoard", "Readout"]


class Readout(anywidget.AnyWidget):
    """A labelled number with a ``data-testid`` and full-precision ``data-value``."""

    _esm = """
    export default {
      render({ model, el }) {
        const span = document.createElement("span");
        span.className = "mt-readout";
        span.setAttribute("aria-live", "polite");
        span.setAttribute("role", "status");
        const draw = () => {
          span.setAttribute("data-testid", model.get("testid"));
          span.setAttribute("data-value", String(model.get("value")));
          span.textContent = `${model.get("label")} = ${model.get("value").toFixed(4)}`;
        };
        model.on("change:value change:label", draw);
        draw();
        el.append(span);
        return () => model.off("change:value change:label", draw);
      },
    };
    """
    _css = """
    .mt-readout { font-family: var(--jp-code-font-family, monospace); font-size: 16px;
                  font-weight: 600; }
    """
    value = traitlets.Float(0.0).tag(sync=True)
    label = traitlets.Unicode("").tag(sync=True)
    testid = traitlets.Unicode("readout").tag(sync=True)


def _bar_label(title: str) -> str:
    """A title's lead, before any colon, short enough to go under a bar (``"Query A"``).

    >>> _bar_label("Query A: relevant near the top"), _bar_label("查询 A：相关结果靠前")
    ('Query A', '查询 A')
    """
    lead = title.partition(":")[0].partition("：")[0]
    return textwrap.shorten(lead, width=28, placeholder="…")


def _static(picture: str, html: str, note: str, lang: str) -> str:
    alt = escape(tr("the board's initial state", lang=lang))
    return (
        f'<div class="mapteach-static" lang="{HTML_LANG[lang]}">'
        f'<p style="color:#666;font-size:12px;">{escape(note)}</p>'
        f'<img alt="{alt}" src="{picture}" style="max-width:100%;"/>'
        f"{html}</div>"
    )


class _StaticFallbackBox(ipywidgets.VBox):
    """A VBox whose ``static_html()`` is a text/html fallback beside the widget view."""

    def static_html(self) -> str:
        """The board's current state as HTML, for viewers without a kernel."""
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data: dict[str, Any] = super()._repr_mimebundle_(**kwargs)
        data["text/html"] = self.static_html()
        return data


class RankingBoard(_StaticFallbackBox):
    """The ranking board: a draggable list, its trace table, P@k bars and the PR curve.

    Every view updates after every action, and the AP shown is always
    :func:`mapteach.average_precision` of the list on screen. Once the list
    differs from the example chosen, its heading says "(edited)"; *Reset*, or
    choosing the example again, brings the example back. Without a kernel
    (on GitHub, in an HTML export) it shows a picture and the trace table of
    its initial state.

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
        if example is not None:
            self.ranking = RankingList.from_example(example, lang=self.lang)
        else:
            if labels is None:
                default = single_query_example("003_a", self.lang)
                labels, n_relevant = default.labels, default.n_relevant
            self.ranking = RankingList(
                labels, titles=titles, docs=docs, n_relevant=n_relevant, k=k, lang=self.lang
            )
        self.plot = BoardFigure(lang=self.lang)
        self.trace = ipywidgets.HTML()
        self.trace.layout.margin = "0 0 0 16px"
        # the trace table goes below the list when both do not fit side by side
        side_by_side = ipywidgets.HBox(
            [self.ranking, self.trace], layout=ipywidgets.Layout(flex_flow="row wrap")
        )
        super().__init__([side_by_side, self.plot.canvas])
        self.ranking.observe(self._refresh, names=["items", "n_unretrieved", "k", "interpolated"])
        self._refresh()

    def _state(self) -> dict[str, Any]:
        r = self.ranking
        return {"n_relevant": r.n_relevant, "k": r.cutoff}

    def _trace_html(self) -> str:
        with language(self.lang):
            table = trace_ap(self.ranking.labels, **self._state())
            return trace_html(table, caption=str(explain_table(table)))

    def _refresh(self, change: traitlets.Bunch | None = None) -> None:
        self.plot.update(
            self.ranking.labels, interpolated=self.ranking.interpolated, **self._state()
        )
        self.trace.value = self._trace_html()

    def static_html(self) -> str:
        """A picture and the trace table of the current state, for viewers without a kernel."""
        still = BoardFigure(live=False, lang=self.lang)
        still.update(self.ranking.labels, interpolated=self.ranking.interpolated, **self._state())
        return _static(
            figure_png(still.figure),
            self._trace_html(),
            tr(
                "A static picture of the ranking board: run the notebook to drag results around.",
                lang=self.lang,
            ),
            self.lang,
        )

    def __repr__(self) -> str:
        return f"RankingBoard({self.ranking!r})"


class MultiQueryBoard(_StaticFallbackBox):
    """Several queries' lists side by side, each with its AP, and their MAP.

    Each list is headed by its query's title, and its bar by the title's lead
    ("Query A").

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
    >>> round(board.map_readout.value, 4)
    0.5602
    >>> board.rankings[2].move("d8", 1)  # pull query C's last relevant item to the top
    >>> round(board.map_readout.value, 4)  # (0.8056 + 0.5556 + (1/1 + 2/5 + 3/7) / 3) / 3
    0.6569
    """

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
        self.rankings = [
            RankingList(
                q.labels, n_relevant=q.n_relevant, compact=True, query_name=title, lang=self.lang
            )
            for q, title in zip(queries.queries, titles, strict=True)
        ]
        self.map_readout = Readout(label="MAP", testid="map-value")
        self._bar_labels = [_bar_label(title) for title in titles]
        self.plot = APBarsFigure(self._bar_labels, lang=self.lang)
        # the row's class lines the lists up whatever their titles' lengths (ranking_list.css)
        queries = ipywidgets.HBox(
            self.rankings, layout=ipywidgets.Layout(justify_content="space-around")
        ).add_class("mapteach-queries")
        super().__init__([queries, ipywidgets.HBox([self.map_readout, self.plot.canvas])])
        for ranking in self.rankings:
            ranking.observe(self._refresh, names="ap")
        self._refresh()

    @property
    def aps(self) -> list[float]:
        """Each query's AP, in order."""
        return [ranking.ap for ranking in self.rankings]

    def _refresh(self, change: traitlets.Bunch | None = None) -> None:
        self.map_readout.value = float(np.mean(self.aps))
        self.plot.update(self.aps)

    def static_html(self) -> str:
        """A picture of the per-query APs and MAP, for viewers without a kernel."""
        still = APBarsFigure(self._bar_labels, live=False, lang=self.lang)
        still.update(self.aps)
        rows = "".join(
            f"<li>{escape(r.query_name)} — {r.labels}, R = {r.n_relevant}, AP = {r.ap:.4f}</li>"
            for r in self.rankings
        )
        return _static(
            figure_png(still.figure),
            f"<ul>{rows}</ul><p>MAP = {self.map_readout.value:.4f}</p>",
            tr(
                "A static picture of the multi-query board: run the notebook to drag results "
                "around.",
                lang=self.lang,
            ),
            self.lang,
        )

    def __repr__(self) -> str:
        return f"MultiQueryBoard(MAP = {self.map_readout.value:.4f}, {len(self.rankings)} queries)"
