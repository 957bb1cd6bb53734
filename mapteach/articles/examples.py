"""The source articles' worked examples, as data.

Each example keeps the ranked 0/1 labels, R, where it comes from (article 000,
001 or 003 and the section), and the values the article printed, as the
article printed them. Every value is recomputed by the package, so the
workbook can show where an article is right and where it slipped (article 001's
late-relevant AP, printed 0.48, is 0.2815).

Articles:

- 000: "MAP指标详解：从公式到Python实现，彻底搞懂排序评估" (beginner, NLP / QA ranking)
- 001: "MAP指标深度解析：从搜索排序评估到客户端AI体验度量" (practitioner, legal search)
- 003: "跨模态检索指标mAP全解析：公式、手算案例与Python实现" (researcher, cross-modal retrieval)

The examples are data, ``data/examples.json`` (and the figures the articles report
from their own projects, ``data/reported.json``), read and checked once, when this
module is imported (:mod:`mapteach.articles.loader`). An example's ``title`` and
``note`` (and a reported figure's ``what``) are English messages: show them with
:func:`mapteach.i18n.tr`. The tables are keyed in English and shown in the current
language (:class:`~mapteach.explain.display.ShownTable`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import pandas as pd

from mapteach.articles.loader import Reader, read_data
from mapteach.explain.ap_trace import Explanation, explain_ap, trace_ap
from mapteach.explain.display import ShownTable
from mapteach.i18n import N_, tr
from mapteach.metrics import mean_average_precision
from mapteach.metrics.names import parse_measure

__all__ = [
    "ARTICLES",
    "EXAMPLES",
    "EXAMPLE_HEADERS",
    "REPORTED",
    "ExampleTable",
    "MapExample",
    "RankingExample",
    "examples_table",
    "get_example",
    "parse_examples",
    "parse_reported",
    "reported_figures",
]

#: The three source articles, by number.
ARTICLES: Mapping[str, str] = MappingProxyType(
    {
        "000": "MAP指标详解：从公式到Python实现，彻底搞懂排序评估",
        "001": "MAP指标深度解析：从搜索排序评估到客户端AI体验度量",
        "003": "跨模态检索指标mAP全解析：公式、手算案例与Python实现",
    }
)


#: The header that shows each column key of this module's tables.
EXAMPLE_HEADERS: dict[str, str] = {
    "example": N_("example"),
    "article": N_("article"),
    "section": N_("section"),
    "measure": N_("measure"),
    "printed": N_("printed"),
    "computed": N_("computed"),
    "agrees": N_("agrees"),
    "query": N_("query"),
    "labels": N_("labels"),
    "labels from": N_("labels from"),
    "name": N_("name"),
    "what": N_("what"),
    "before": N_("before"),
    "after": N_("after"),
}


class ExampleTable(ShownTable):
    """A table of the articles' examples: English column keys, shown in the current language.

    Its ``example`` and ``query`` columns hold examples' ids, shown as their ``label``
    (``"003_a"`` as ``query A``) in a language other than English.
    """

    headers = EXAMPLE_HEADERS
    label_columns = frozenset({"example", "query"})

    def header_map(self) -> Mapping[str, str]:
        """:data:`EXAMPLE_HEADERS` and each worked example's id with its label."""
        return {**self.headers, **{name: example.label for name, example in EXAMPLES.items()}}


def _decimals(printed: str) -> int:
    return len(printed.partition(".")[2])


def _agrees(printed: str, computed: float) -> bool:
    """Whether ``computed`` rounds to the value the article printed."""
    return bool(round(float(computed), _decimals(printed)) == float(printed))


@dataclass(frozen=True)
class RankingExample:
    """One query's ranked list from an article.

    Attributes
    ----------
    name : str
        Key in :data:`EXAMPLES`.
    title : str
        What the example shows (an English message: show ``tr(title)``).
    label : str
        Its short name in a table (an English message): ``query A``.
    article, section : str
        Where it comes from (``"003"``, ``"3.1"``).
    labels : tuple of int
        Relevance of each result, best first.
    n_relevant : int
        R, the query's relevant documents, retrieved or not.
    printed : mapping of str to str
        Values the article printed, by measure name (``"AP"``, ``"P@3"``), as
        text so that their precision is kept.
    note : str
        What the learner should notice (an English message: show ``tr(note)``).
    docs : tuple of str
        The article's document names in ranked order, where it gives them.
    invented : bool
        True when the article printed only the values, not the ranking: the
        labels were then made up here to have those values, and the workbook
        must say so.
    """

    name: str
    title: str
    label: str
    article: str
    section: str
    labels: tuple[int, ...]
    n_relevant: int
    printed: Mapping[str, str] = field(default_factory=dict)
    note: str = ""
    docs: tuple[str, ...] = ()
    invented: bool = False

    @property
    def ap(self) -> float:
        """Average precision, computed by :func:`mapteach.average_precision`."""
        return self.score("AP")

    def score(self, measure: str) -> float:
        """Compute a measure by name (``"AP"``, ``"P@3"``, ``"nDCG@10"``)."""
        return parse_measure(measure).score(self.labels, n_relevant=self.n_relevant)

    def trace(self) -> pd.DataFrame:
        """The rank-by-rank AP table, :func:`mapteach.trace_ap`."""
        return trace_ap(self.labels, n_relevant=self.n_relevant)

    def explain(self) -> Explanation:
        """The AP arithmetic, :func:`mapteach.explain_ap`."""
        return explain_ap(self.labels, n_relevant=self.n_relevant)

    def check(self) -> pd.DataFrame:
        """Each printed value beside the computed one, and whether they agree."""
        return _check(self, {m: self.score(m) for m in self.printed})


@dataclass(frozen=True)
class MapExample:
    """Several queries from an article, averaged into MAP (fields as a ranking's)."""

    name: str
    title: str
    label: str
    article: str
    section: str
    queries: tuple[RankingExample, ...]
    printed: Mapping[str, str] = field(default_factory=dict)
    note: str = ""

    @property
    def map(self) -> float:
        """Mean average precision, computed by :func:`mapteach.mean_average_precision`."""
        return mean_average_precision(
            [query.labels for query in self.queries],
            n_relevant=[query.n_relevant for query in self.queries],
        )

    def per_query(self) -> pd.DataFrame:
        """One row per query: its name, labels, R, AP, and where the labels come from.

        ``labels from`` is ``"article"``, or ``"invented (the article gives only
        the values)"`` for a ranking made up to match the article's printed values
        (in the current language).
        """
        return ExampleTable(
            {
                "query": [query.name for query in self.queries],
                "labels": [list(query.labels) for query in self.queries],
                "R": [query.n_relevant for query in self.queries],
                "AP": [query.ap for query in self.queries],
                "labels from": [
                    tr("invented (the article gives only the values)")
                    if query.invented
                    else tr("article")
                    for query in self.queries
                ],
            }
        )

    def check(self) -> pd.DataFrame:
        """Each printed value beside the computed one, and whether they agree."""
        return _check(self, {"MAP": self.map} if "MAP" in self.printed else {})


Example = RankingExample | MapExample


def _check(example: Example, computed: Mapping[str, float]) -> pd.DataFrame:
    return ExampleTable(
        [
            {
                "example": example.name,
                "article": example.article,
                "section": example.section,
                "measure": measure,
                "printed": printed,
                "computed": computed[measure],
                "agrees": _agrees(printed, computed[measure]),
            }
            for measure, printed in example.printed.items()
        ],
        columns=["example", "article", "section", "measure", "printed", "computed", "agrees"],
    ).astype({"computed": float, "agrees": bool})


#: The fields of an example in ``examples.json``: a ranking, or rankings averaged into MAP.
_RANKING_FIELDS = (
    *("id", "title", "label", "article", "section", "labels", "n_relevant"),
    *("printed", "note", "docs", "invented"),
)
_MAP_FIELDS = ("id", "title", "label", "article", "section", "queries", "printed", "note")
#: A printed value: digits, with decimals if the article printed any.
_DECIMAL = re.compile(r"[0-9]+(\.[0-9]+)?")


def parse_examples(document: Any, *, source: str = "examples.json") -> dict[str, Example]:
    """Build the worked examples from a parsed ``examples.json``, checking every field.

    The document is ``{"examples": [...]}``: each example has an ``id``, a ``title``
    and a short ``label`` (English messages), the ``article`` and ``section`` it comes
    from, optionally the values the article ``printed`` (``{"AP": "0.583"}``) and a
    ``note``. A ranking has its 0/1 ``labels`` and R (``n_relevant``), optionally the
    article's ``docs`` and ``invented``; an example of MAP names its ``queries``, rankings
    given before it.

    Parameters
    ----------
    document : object
        The parsed JSON.
    source : str, default "examples.json"
        The file's name, for the errors.

    Returns
    -------
    dict of str to RankingExample or MapExample
        By id, in the file's order.

    Raises
    ------
    ValueError
        Naming the file and the JSON path of the first problem.

    Examples
    --------
    >>> from mapteach.articles.examples import parse_examples
    >>> from mapteach.articles.loader import read_data
    >>> document = read_data("examples.json")
    >>> parse_examples(document)["003_a"].labels
    (1, 0, 1, 1, 0, 0, 0, 0)
    >>> document["examples"][3]["labels"][2] = 2
    >>> parse_examples(document)
    Traceback (most recent call last):
    ...
    ValueError: examples.json: examples[3].labels[2]: expected 0 or 1, got 2.
    """
    read = Reader(source)
    examples: dict[str, Example] = {}
    for where, node, name in read.records(document, "examples"):
        if "queries" in node:
            examples[name] = _map_example(read, node, where, examples)
        else:
            examples[name] = _ranking_example(read, node, where)
    return examples


def _ranking_example(read: Reader, node: Mapping[str, Any], where: str) -> RankingExample:
    read.node(node, where, _RANKING_FIELDS)
    labels = read.labels(node, "labels", where)
    n_relevant = read.count(node, "n_relevant", where)
    if n_relevant < sum(labels):
        raise read.fail(
            f"{where}.n_relevant",
            tr(
                "R = {r} is fewer than the {hits} relevant results in the labels.",
                r=n_relevant,
                hits=sum(labels),
            ),
        )
    docs = read.strings(node, "docs", where)
    if docs and len(docs) != len(labels):
        raise read.fail(
            f"{where}.docs",
            tr("{docs} names for {labels} labels.", docs=len(docs), labels=len(labels)),
        )
    return RankingExample(
        *_heading(read, node, where),
        labels,
        n_relevant,
        _printed(read, node, where),
        read.optional_text(node, "note", where),
        docs,
        read.flag(node, "invented", where),
    )


def _map_example(
    read: Reader, node: Mapping[str, Any], where: str, known: Mapping[str, Example]
) -> MapExample:
    read.node(node, where, _MAP_FIELDS)
    queries = []
    for path, name in read.items(node, "queries", where):
        query = known.get(name) if isinstance(name, str) else None
        if not isinstance(query, RankingExample):
            raise read.fail(
                path,
                tr(
                    "{name} is not the id of a ranking given before this example.",
                    name=json.dumps(name, ensure_ascii=False),
                ),
            )
        queries.append(query)
    if not queries:
        raise read.fail(f"{where}.queries", tr("is empty."))
    printed = _printed(read, node, where)
    for measure in printed:
        if measure != "MAP":
            raise read.fail(
                f"{where}.printed.{measure}",
                tr("an example of MAP prints only MAP, not {measure}.", measure=measure),
            )
    return MapExample(
        *_heading(read, node, where),
        tuple(queries),
        printed,
        read.optional_text(node, "note", where),
    )


def _heading(read: Reader, node: Mapping[str, Any], where: str) -> tuple[str, str, str, str, str]:
    """An example's id, title, label, article and section."""
    return (
        read.text(node, "id", where),
        read.text(node, "title", where),
        read.text(node, "label", where),
        read.choice(node, "article", where, ARTICLES),
        read.text(node, "section", where),
    )


def _printed(read: Reader, node: Mapping[str, Any], where: str) -> dict[str, str]:
    """The values an example printed, by measure, as text (``{}`` if it printed none)."""
    printed: dict[str, str] = {}
    for measure, value in (
        read.get(node, "printed", dict, where).items() if "printed" in node else ()
    ):
        path = f"{where}.printed.{measure}"
        try:
            parse_measure(measure)
        except ValueError as error:
            raise read.fail(path, str(error)) from None
        if not isinstance(value, str) or not _DECIMAL.fullmatch(value):
            raise read.fail(
                path,
                tr(
                    'expected a number written as text, such as "0.583", got {value}.',
                    value=json.dumps(value, ensure_ascii=False),
                ),
            )
        printed[measure] = value
    return printed


#: Every worked example, by name.
EXAMPLES: Mapping[str, Example] = MappingProxyType(parse_examples(read_data("examples.json")))


def get_example(name: str) -> Example:
    """Return a worked example by name.

    Parameters
    ----------
    name : str
        A key of :data:`EXAMPLES`, such as ``"003_a"`` or ``"001_legal_late"``.

    Returns
    -------
    RankingExample or MapExample

    Raises
    ------
    ValueError
        If there is no example of that name; the message lists the names.

    Examples
    --------
    >>> from mapteach import get_example
    >>> example = get_example("001_legal_late")
    >>> example.printed["AP"], round(example.ap, 4)  # the article's 0.48 is an error
    ('0.48', 0.2815)
    >>> round(get_example("003_abc").map, 4)
    0.5602
    """
    try:
        return EXAMPLES[name]
    except (KeyError, TypeError):
        raise ValueError(
            tr(
                "no worked example named {name!r}; choose one of: {names}.",
                name=name,
                names=", ".join(EXAMPLES),
            )
        ) from None


def examples_table() -> pd.DataFrame:
    """Every value the articles printed, beside the value the package computes.

    Returns
    -------
    pandas.DataFrame
        Columns ``example``, ``article``, ``section``, ``measure``, ``printed``,
        ``computed`` and ``agrees`` (the computed value rounds to the printed one).
        The keys are English in every language; the table is shown with its headers
        in the current language (an :class:`ExampleTable`; see
        :func:`mapteach.explain.display.display_table`).

    Examples
    --------
    >>> from mapteach import examples_table
    >>> table = examples_table()
    >>> print(table.loc[~table["agrees"], ["example", "measure", "printed"]].to_string(index=False))
           example measure printed
    001_legal_late      AP    0.48
    """
    checks = [example.check() for example in EXAMPLES.values() if example.printed]
    return ExampleTable(pd.concat(checks, ignore_index=True))


_REPORTED_FIELDS = ("id", "article", "section", "what", "before", "after")


def parse_reported(
    document: Any, *, source: str = "reported.json"
) -> dict[str, tuple[str, str, str, str, str]]:
    """Read the articles' reported figures from a parsed ``reported.json``, checking them.

    The document is ``{"reported": [...]}``: each figure has an ``id``, the ``article``
    and ``section`` that report it, ``what`` was measured (an English message), and
    the values ``before`` and ``after`` (``after`` may be empty), as text.

    Returns
    -------
    dict of str to tuple
        By id: (article, section, what, before, after).

    Raises
    ------
    ValueError
        Naming the file and the JSON path of the first problem.

    Examples
    --------
    >>> from mapteach.articles.examples import parse_reported
    >>> parse_reported({"reported": [{"id": "x", "article": "002"}]})
    Traceback (most recent call last):
    ...
    ValueError: reported.json: reported[0].article: '002' is not one of: 000, 001, 003.
    """
    read = Reader(source)
    figures = {}
    for where, node, name in read.records(document, "reported"):
        read.node(node, where, _REPORTED_FIELDS)
        figures[name] = (
            read.choice(node, "article", where, ARTICLES),
            read.text(node, "section", where),
            read.text(node, "what", where),
            read.text(node, "before", where),
            read.text(node, "after", where, empty=True),
        )
    return figures


#: Figures the articles report from their own projects, with no data to recompute
#: them: (article, section, what was measured, before, after). Notebooks quote them
#: from here, with their source, rather than typing them in. ``what`` is an English
#: message (show ``tr(what)``; :func:`reported_figures` does).
REPORTED: Mapping[str, tuple[str, str, str, str, str]] = MappingProxyType(
    parse_reported(read_data("reported.json"))
)


def reported_figures(*names: str) -> pd.DataFrame:
    """The articles' reported figures (all, or those named), with their source.

    Examples
    --------
    >>> from mapteach.articles import reported_figures
    >>> reported_figures("001_kappa")[["article", "before", "after"]].to_dict("records")
    [{'article': '001', 'before': '0.62', 'after': '0.89'}]
    """
    unknown = [name for name in names if name not in REPORTED]
    if unknown:
        raise ValueError(
            tr(
                "no reported figure {name!r}; choose one of {names}.",
                name=unknown[0],
                names=", ".join(REPORTED),
            )
        )
    rows = [
        (name, article, section, tr(what), before, after)
        for name, (article, section, what, before, after) in (
            (name, REPORTED[name]) for name in (names or REPORTED)
        )
    ]
    return ExampleTable(
        rows, columns=["name", "article", "section", "what", "before", "after"]
    ).set_index("name")
