"""The ranking list: one query's results to drag and mark relevant, with the AP of what is shown.

``RankingList`` is a small anywidget (``static/ranking_list.js``) whose synced
traits are the only state. The browser derives everything it shows from them: AP,
and in the board view (``view="board"``, as :class:`~mapteach.board.RankingBoard`
shows it) the trace table, the P@k bars and the precision-recall curve, drawn by
the widget's own code (``static/board_math.js``, ``board_plots.js``,
``board_view.js``, with the shared ``mapteach/offline/static/text.js``) within the
frame of the drag. The kernel checks every change and computes AP of the labels it
receives, never trusting a number from the browser: it takes only the traits the view
changes (:class:`~mapteach.offline.kernel_widget.KernelOwnedWidget`). It loads the
single-query worked examples as presets. Introduced in ``06_playground``.

Each list speaks the language current when it is made, or its ``lang=``, and keeps
it: every label, heading and announcement. The browser's texts come from the
``texts`` and ``trace_texts`` traits, filled from the message catalogue. Without a
kernel, the same module runs on the page with ``static/ranking_list_offline.js``
standing in for the kernel (:mod:`mapteach.board.board_fallback`).
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import traitlets

from mapteach.articles.examples import EXAMPLES, RankingExample, get_example
from mapteach.board.trace_texts import trace_texts as trace_templates
from mapteach.board.view_texts import list_texts
from mapteach.i18n import language, tr, widget_language
from mapteach.metrics import average_precision
from mapteach.metrics.validation import as_labels, as_n_relevant
from mapteach.offline import bundle_imports
from mapteach.offline.kernel_widget import KernelOwnedWidget

__all__ = ["RankingError", "RankingList"]

_STATIC = Path(__file__).parent / "static"

#: The list's browser views: the list alone, or the whole board beside and below it.
VIEWS = ("list", "board")

#: Presets offered in the board's menu, as (name, title) pairs: every single-query
#: worked example. Read-only, so one board cannot change another's menu.
PRESETS: tuple[tuple[str, str], ...] = tuple(
    (name, f"{example.article} · {example.title}")
    for name, example in EXAMPLES.items()
    if isinstance(example, RankingExample)
)


class RankingError(traitlets.TraitError, ValueError):
    """An invalid list, count or preset for a :class:`RankingList`.

    A TraitError, so a rejected change from the browser is rolled back before any
    observer sees it; a ValueError, as every other invalid argument here.
    """


def single_query_example(name: str, lang: str | None = None) -> RankingExample:
    """The worked example ``name``, which must be one query's ranking (not a MAP example).

    A ValueError in ``lang`` (default: the current language) points a MAP example to
    :class:`~mapteach.board.MultiQueryBoard`.

    >>> single_query_example("003_b").n_relevant
    3
    >>> single_query_example("003_abc")
    Traceback (most recent call last):
    ...
    ValueError: '003_abc' has several queries; show it with MultiQueryBoard.
    """
    example = get_example(name)
    if not isinstance(example, RankingExample):
        raise ValueError(
            tr("{name!r} has several queries; show it with MultiQueryBoard.", lang=lang, name=name)
        )
    return example


def _doc_title(doc: str, lang: str | None) -> str:
    """A result's default title: ``doc 3`` for the id ``d3``, else the id itself."""
    number = doc[1:]
    return (
        tr("doc {number}", lang=lang, number=number) if doc[:1] == "d" and number.isdigit() else doc
    )


def _items(
    labels: Sequence[int | bool],
    titles: Sequence[str] | None,
    docs: Sequence[str] | None,
    lang: str | None = None,
) -> list[dict[str, Any]]:
    y = as_labels(labels)
    docs = list(docs) if docs else [f"d{rank}" for rank in range(1, y.size + 1)]
    titles = list(titles) if titles else [_doc_title(doc, lang) for doc in docs]
    if not len(docs) == len(titles) == y.size:
        raise ValueError(
            tr(
                "labels, titles and docs must have one entry per result; got {n_labels} labels, "
                "{n_titles} titles and {n_docs} docs.",
                lang=lang,
                n_labels=y.size,
                n_titles=len(titles),
                n_docs=len(docs),
            )
        )
    return [
        {"doc": str(doc), "title": str(title), "relevant": bool(label)}
        for doc, title, label in zip(docs, titles, y, strict=True)
    ]


@dataclass(frozen=True)
class _Origin:
    """What :meth:`RankingList.reset` restores: the list as created, or the preset last loaded."""

    preset: str
    query_name: str
    items: tuple[dict[str, Any], ...]
    n_unretrieved: int
    k: int
    interpolated: bool

    def as_json(self) -> dict[str, Any]:
        """This origin as plain JSON, for a page without a kernel to reset to."""
        return {**asdict(self), "items": [dict(item) for item in self.items]}


def preset_origin(name: str, lang: str, *, interpolated: bool = False) -> _Origin:
    """What loading the preset ``name`` shows, in ``lang``: its list, R and title; k = 0.

    >>> origin = preset_origin("003_b", "en")
    >>> origin.query_name, origin.n_unretrieved, origin.k
    ('Article 003 · Query B: one of the 3 relevant items never retrieved', 1, 0)
    """
    with language(lang):
        example = single_query_example(name)
        title = tr(example.title)
        query_name = tr("Article {article} · {title}", article=example.article, title=title)
    return _Origin(
        preset=name,
        query_name=query_name,
        items=tuple(_items(example.labels, None, example.docs or None, lang)),
        n_unretrieved=example.n_relevant - sum(example.labels),
        k=0,
        interpolated=interpolated,
    )


class RankingList(KernelOwnedWidget):
    """One query's ranked list as a widget; the kernel computes its AP.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best first.
    titles, docs : sequence of str, optional
        A short title and a unique id per result (default ``doc 1``.. / ``d1``..).
    n_relevant : int, optional
        R; the difference to the hits in ``labels`` is the relevant documents
        the system never retrieved.
    k : int, optional
        Rank cutoff (AP@k).
    interpolated : bool, default False
        Draw the interpolated precision curve too (on a :class:`RankingBoard`).
    compact : bool, default False
        Hide the controls (used in the multi-query board).
    fixed_relevance : bool, default False
        Results can only be moved: a click, Space or Enter marks nothing, ↑/↓ move the
        focused result, and a change of any result's relevance is refused (the
        arrangement exercises, whose relevance is given).
    query_name : str, optional
        Shown above the list.
    view : {"list", "board"}, default "list"
        What the browser shows: the list, or the whole board (the list, the trace
        table, the P@k bars and the precision-recall curve); a view already shown
        keeps the layout it was drawn with.
    lang : {"en", "zh"}, optional
        The language of every text the list shows (default the current one); kept
        for the widget's life, whatever :func:`mapteach.set_language` says later.

    Notes
    -----
    ``heading`` is the text shown above the list: ``query_name``, marked
    "(edited)" once the ranking or its R differs from the preset it was loaded
    from; the preset menu then shows "custom ranking" (``preset == ""``), and
    choosing the preset again, or :meth:`reset`, restores it. ``texts`` holds the
    browser view's labels and announcements in the list's language, ``trace_texts``
    the templates of AP's arithmetic and the trace table.

    Examples
    --------
    >>> from mapteach.board import RankingList
    >>> ranking = RankingList([1, 0, 1], n_relevant=4)
    >>> ranking.move("d3", 2)  # drag the third result up one place
    >>> ranking.labels, round(ranking.ap, 4)  # (1/1 + 2/2) / 4
    ([1, 1, 0], 0.5)
    """

    #: The browser module that draws this widget (``window.mapteachModules`` on a static page).
    offline_module = "ranking_list"
    _esm = bundle_imports(_STATIC / "ranking_list.js")
    _css = _STATIC / "ranking_list.css"
    #: What the view changes: the order and marks, the counts, the curve, the preset, Reset.
    browser_traits = frozenset(
        {"items", "n_unretrieved", "k", "interpolated", "preset", "reset_request"}
    )

    items = traitlets.List(traitlets.Dict()).tag(sync=True, echo_update=False)
    n_unretrieved = traitlets.Int(0).tag(sync=True)
    k = traitlets.Int(0).tag(sync=True)
    interpolated = traitlets.Bool(False).tag(sync=True)
    ap = traitlets.Float(0.0, read_only=True).tag(sync=True)
    ap_label = traitlets.Unicode("AP", read_only=True).tag(sync=True)
    presets = traitlets.List(traitlets.List()).tag(sync=True)
    preset = traitlets.Unicode("").tag(sync=True)
    reset_request = traitlets.Int(0).tag(sync=True, echo_update=False)
    compact = traitlets.Bool(False).tag(sync=True)
    fixed_relevance = traitlets.Bool(False, read_only=True).tag(sync=True)
    query_name = traitlets.Unicode("").tag(sync=True)
    heading = traitlets.Unicode("", read_only=True).tag(sync=True)
    texts = traitlets.Dict(traitlets.Unicode()).tag(sync=True)
    trace_texts = traitlets.Dict().tag(sync=True)
    view = traitlets.Unicode("list").tag(sync=True)

    def __init__(
        self,
        labels: Sequence[int | bool] = (),
        *,
        titles: Sequence[str] | None = None,
        docs: Sequence[str] | None = None,
        n_relevant: int | None = None,
        k: int | None = None,
        interpolated: bool = False,
        compact: bool = False,
        fixed_relevance: bool = False,
        query_name: str = "",
        view: str = "list",
        lang: str | None = None,
        **kwargs: Any,
    ) -> None:
        #: The language the list speaks, fixed when it is made.
        self.lang = widget_language(lang)
        items = _items(labels, titles, docs, self.lang)
        hits = sum(item["relevant"] for item in items)
        with language(self.lang):
            n_unretrieved = as_n_relevant(n_relevant, hits) - hits
        self._origin = _Origin(
            preset="",
            query_name=query_name,
            items=tuple(items),
            n_unretrieved=n_unretrieved,
            k=k or 0,
            interpolated=interpolated,
        )
        # the observers below run once for these first values, too
        super().__init__(
            items=items,
            n_unretrieved=self._origin.n_unretrieved,
            k=self._origin.k,
            interpolated=interpolated,
            compact=compact,
            query_name=query_name,
            presets=[] if compact else self._menu(),
            texts=list_texts(self.lang),
            trace_texts=trace_templates(self.lang),
            view=view,
            **kwargs,
        )
        self.set_trait("fixed_relevance", bool(fixed_relevance))

    def _menu(self) -> list[list[str]]:
        """The preset menu's entries, [name, title], in the list's language."""
        custom = ["", tr("— custom ranking —", lang=self.lang)]
        entries = [
            [name, f"{EXAMPLES[name].article} · {tr(EXAMPLES[name].title, lang=self.lang)}"]
            for name, _ in PRESETS
        ]
        return [custom, *entries]

    @classmethod
    def from_example(cls, name: str, **kwargs: Any) -> RankingList:
        """A list holding a worked example, such as ``"003_b"``."""
        ranking = cls(**kwargs)
        ranking.load(name)
        return ranking

    @traitlets.validate("items")
    def _check_items(self, proposal: traitlets.Bunch) -> list[dict[str, Any]]:
        seen: dict[str, int] = {}
        with language(self.lang):
            for index, item in enumerate(proposal.value):
                if not isinstance(item, dict) or {"doc", "title", "relevant"} - set(item):
                    raise RankingError(
                        tr(
                            "items[{index}] must be a dict with keys 'doc', 'title' and "
                            "'relevant'; got {item!r}.",
                            index=index,
                            item=item,
                        )
                    )
                if not isinstance(item["doc"], str) or not item["doc"]:
                    raise RankingError(
                        tr(
                            "items[{index}]['doc'] must be a non-empty string; got {doc!r}.",
                            index=index,
                            doc=item["doc"],
                        )
                    )
                if not isinstance(item["relevant"], bool):
                    raise RankingError(
                        tr(
                            "items[{index}]['relevant'] must be True or False; got {relevant!r}.",
                            index=index,
                            relevant=item["relevant"],
                        )
                    )
                if item["doc"] in seen:
                    raise RankingError(
                        tr(
                            "items[{index}] has doc {doc!r}, which items[{first}] already has; "
                            "every result needs its own doc id.",
                            index=index,
                            doc=item["doc"],
                            first=seen[item["doc"]],
                        )
                    )
                seen[item["doc"]] = index
        self._check_fixed_relevance(proposal.value)
        return proposal.value

    def _check_fixed_relevance(self, items: list[dict[str, Any]]) -> None:
        """With ``fixed_relevance``, refuse a change of relevance: only the order may change."""
        if not self.fixed_relevance:
            return
        given = {item["doc"]: item["relevant"] for item in self._origin.items}
        changed = [item["doc"] for item in items if given.get(item["doc"]) != item["relevant"]]
        if changed or len(items) != len(given):
            raise RankingError(
                tr(
                    "This list's relevance is fixed: its results can be moved, not marked or "
                    "replaced; got a change to {docs}.",
                    lang=self.lang,
                    docs=", ".join(map(repr, changed)) or tr("the results", lang=self.lang),
                )
            )

    @traitlets.validate("n_unretrieved", "k")
    def _check_count(self, proposal: traitlets.Bunch) -> int:
        if proposal.value < 0:
            message = (
                tr(
                    "n_unretrieved is the relevant documents never retrieved and must be >= 0; "
                    "got {value}.",
                    lang=self.lang,
                    value=proposal.value,
                )
                if proposal.trait.name == "n_unretrieved"
                else tr(
                    "k is the cutoff (0 for none) and must be >= 0; got {value}.",
                    lang=self.lang,
                    value=proposal.value,
                )
            )
            raise RankingError(message)
        return proposal.value

    @traitlets.validate("view")
    def _check_view(self, proposal: traitlets.Bunch) -> str:
        if proposal.value not in VIEWS:
            raise RankingError(
                tr(
                    "view must be 'list' or 'board'; got {view!r}.",
                    lang=self.lang,
                    view=proposal.value,
                )
            )
        return proposal.value

    @traitlets.validate("preset")
    def _check_preset(self, proposal: traitlets.Bunch) -> str:
        names = [name for name, _ in PRESETS]
        if proposal.value and proposal.value not in names:
            raise RankingError(
                tr(
                    "preset {preset!r} is not a single-query worked example; choose '' "
                    "(a custom ranking) or one of: {names}.",
                    lang=self.lang,
                    preset=proposal.value,
                    names=", ".join(names),
                )
            )
        return proposal.value

    @traitlets.observe("items", "n_unretrieved", "k")
    def _recompute(self, change: traitlets.Bunch | None = None) -> None:
        self.set_trait(
            "ap", average_precision(self.labels, n_relevant=self.n_relevant, k=self.cutoff)
        )
        self.set_trait("ap_label", "AP" if self.cutoff is None else f"AP@{self.cutoff}")

    @traitlets.observe("items", "n_unretrieved", "query_name")
    def _show_edits(self, change: traitlets.Bunch | None = None) -> None:
        edited = self.edited
        heading = tr("{name} (edited)", lang=self.lang, name=self.query_name)
        self.set_trait("heading", heading if edited else self.query_name)
        self.preset = "" if edited else self._origin.preset

    @traitlets.observe("preset")
    def _choose_preset(self, change: traitlets.Bunch) -> None:
        if change.new and (change.new != self._origin.preset or self.edited):
            self.load(change.new)
        else:  # "custom ranking" chosen, or the preset shown again: the menu shows the truth
            self._show_edits()

    @traitlets.observe("reset_request")
    def _reset_on_request(self, change: traitlets.Bunch) -> None:
        self.reset()

    @property
    def labels(self) -> list[int]:
        """The 0/1 labels in the order shown."""
        return [int(item["relevant"]) for item in self.items]

    @property
    def n_relevant(self) -> int:
        """R: the relevant results shown plus those never retrieved."""
        return sum(self.labels) + self.n_unretrieved

    @property
    def cutoff(self) -> int | None:
        """The cutoff k, or None for the whole list."""
        return self.k or None

    @property
    def edited(self) -> bool:
        """Whether the ranking or its R differs from the preset it was loaded from."""
        origin = self._origin
        return bool(origin.preset) and (
            self.items != list(origin.items) or self.n_unretrieved != origin.n_unretrieved
        )

    def _rank_of(self, doc: str) -> int:
        for index, item in enumerate(self.items):
            if item["doc"] == doc:
                return index
        known = ", ".join(repr(item["doc"]) for item in self.items)
        raise ValueError(
            tr(
                "no result with doc {doc!r}; the list holds {known}.",
                lang=self.lang,
                doc=doc,
                known=known,
            )
        )

    def move(self, doc: str, to_rank: int) -> None:
        """Move result ``doc`` to rank ``to_rank`` (1 = top), as a drag does."""
        if isinstance(to_rank, bool) or not isinstance(to_rank, numbers.Integral):
            raise TypeError(
                tr("to_rank must be an integer rank; got {rank!r}.", lang=self.lang, rank=to_rank)
            )
        if not 1 <= to_rank <= len(self.items):
            raise ValueError(
                tr(
                    "to_rank must be between 1 and {n} (the list's length); got {rank}.",
                    lang=self.lang,
                    n=len(self.items),
                    rank=to_rank,
                )
            )
        items = list(self.items)
        items.insert(to_rank - 1, items.pop(self._rank_of(doc)))
        self.items = items

    def toggle(self, doc: str) -> None:
        """Flip result ``doc`` between relevant and not relevant, as a click does.

        Raises
        ------
        RankingError
            If the list's relevance is fixed (``fixed_relevance=True``).

        Examples
        --------
        >>> from mapteach.board import RankingList
        >>> ranking = RankingList([0, 1], fixed_relevance=True)
        >>> ranking.move("d2", 1); ranking.labels
        [1, 0]
        >>> ranking.toggle("d1")
        Traceback (most recent call last):
        ...
        mapteach.board.list_widget.RankingError: This list's relevance is fixed: its results can \
be moved, not marked or replaced; got a change to 'd1'.
        """
        index = self._rank_of(doc)
        items = [dict(item) for item in self.items]
        items[index]["relevant"] = not items[index]["relevant"]
        self.items = items

    def load(self, name: str) -> None:
        """Show a worked example by name, such as ``"001_legal"``, as choosing its preset does.

        The cutoff goes back to 0 (none); the interpolated-curve toggle stays as it is.
        """
        self._origin = preset_origin(name, self.lang, interpolated=self.interpolated)
        self.reset()

    def reset(self) -> None:
        """Restore the preset last loaded, or the list as created, as the Reset button does.

        Its ranking, relevance, R, cutoff k and interpolated-curve toggle all come back.

        Examples
        --------
        >>> from mapteach.board import RankingList
        >>> ranking = RankingList.from_example("003_b")
        >>> ranking.move("d3", 1)
        >>> ranking.k = 2
        >>> ranking.heading, ranking.preset
        ('Article 003 · Query B: one of the 3 relevant items never retrieved (edited)', '')
        >>> ranking.reset()
        >>> ranking.labels, ranking.k, ranking.preset
        ([1, 0, 1, 0, 0, 0, 0, 0], 0, '003_b')
        """
        origin = self._origin
        with self.hold_sync(), self.hold_trait_notifications():
            self.items = [dict(item) for item in origin.items]
            self.n_unretrieved = origin.n_unretrieved
            self.k = origin.k
            self.interpolated = origin.interpolated
            self.query_name = origin.query_name
            self.preset = origin.preset

    @property
    def origin(self) -> dict[str, Any]:
        """What :meth:`reset` restores, as plain JSON (the preset last loaded, or as created)."""
        return self._origin.as_json()

    def _fallback_html(self) -> str:
        from mapteach.board.board_fallback import ranking_fallback

        return ranking_fallback(self)

    def __repr__(self) -> str:
        state = f"{self.labels}, n_relevant={self.n_relevant}, k={self.cutoff}"
        return f"RankingList({state}): {self.ap_label} = {self.ap:.4f}"
