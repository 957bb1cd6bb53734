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

An example's ``title`` and ``note`` (and a reported figure's ``what``) are English
messages: show them with :func:`mapteach.i18n.tr` (or :attr:`RankingExample.shown_title`,
:attr:`RankingExample.shown_note`). The tables are keyed in English and shown in the
current language (:class:`~mapteach.explain.display.ShownTable`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

import pandas as pd

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
    """A table of the articles' examples: English column keys, shown in the current language."""

    headers = EXAMPLE_HEADERS


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
    article: str
    section: str
    labels: tuple[int, ...]
    n_relevant: int
    printed: Mapping[str, str] = field(default_factory=dict)
    note: str = ""
    docs: tuple[str, ...] = ()
    invented: bool = False

    @property
    def shown_title(self) -> str:
        """The title in the current language."""
        return tr(self.title)

    @property
    def shown_note(self) -> str:
        """The note in the current language (empty if there is none)."""
        return tr(self.note) if self.note else ""

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
    """Several queries from an article, averaged into MAP."""

    name: str
    title: str
    article: str
    section: str
    queries: tuple[RankingExample, ...]
    printed: Mapping[str, str] = field(default_factory=dict)
    note: str = ""

    @property
    def shown_title(self) -> str:
        """The title in the current language."""
        return tr(self.title)

    @property
    def shown_note(self) -> str:
        """The note in the current language (empty if there is none)."""
        return tr(self.note) if self.note else ""

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


def _ranks(relevant_ranks: tuple[int, ...], length: int) -> tuple[int, ...]:
    return tuple(int(rank in relevant_ranks) for rank in range(1, length + 1))


_SINGLE = (
    RankingExample(
        "000_system_a_5",
        N_("System A: the 2 relevant of 5 candidates at ranks 1-2"),
        "000",
        "1.1",
        _ranks((1, 2), 5),
        2,
        note=N_("Same precision, recall and F1 as system B; the user sees the answers first."),
    ),
    RankingExample(
        "000_system_b_5",
        N_("System B: the same 2 relevant documents at ranks 4-5"),
        "000",
        "1.1",
        _ranks((4, 5), 5),
        2,
        note=N_("Classification metrics cannot tell B from A; AP can."),
    ),
    RankingExample(
        "000_model_a_6",
        N_("Model A: 3 relevant of 6 candidates at ranks 1-3"),
        "000",
        "1.1",
        _ranks((1, 2, 3), 6),
        3,
    ),
    RankingExample(
        "000_model_b_6",
        N_("Model B: the same 3 relevant at ranks 4-6"),
        "000",
        "1.1",
        _ranks((4, 5, 6), 6),
        3,
        note=N_(
            "Accuracy is 100% for both A and B, yet B makes the user read three wrong "
            "answers first."
        ),
    ),
    RankingExample(
        "000_five_docs",
        N_("Five documents: doc2 no, doc5 yes, doc3 yes, doc1 no, doc4 no"),
        "000",
        "2.1",
        (0, 1, 1, 0, 0),
        2,
        {"P@1": "0", "P@2": "0.5", "P@3": "0.667", "P@5": "0.4", "AP": "0.583"},
        note=N_("AP averages P@k only at the ranks of relevant documents: (P@2 + P@3) / 2."),
        docs=("doc2", "doc5", "doc3", "doc1", "doc4"),
    ),
    RankingExample(
        "000_second_query",
        N_("A second query with AP 0.75 (ranking invented here: the article gives only the AP)"),
        "000",
        "2.3",
        (1, 0, 0, 1),
        2,
        {"AP": "0.75"},
        note=N_(
            "INVENTED: the article states AP = 0.75 without a ranking; this list "
            "(relevant at ranks 1 and 4, R = 2) is made up here to have that AP."
        ),
        invented=True,
    ),
    RankingExample(
        "001_legal",
        N_("Legal search '劳动仲裁赔偿标准': 10 results, relevant at ranks 1, 4, 6, 9"),
        "001",
        "2.1",
        _ranks((1, 4, 6, 9), 10),
        4,
        {
            "P@1": "1.0",
            "P@2": "0.5",
            "P@3": "0.33",
            "P@4": "0.5",
            "P@5": "0.4",
            "P@6": "0.5",
            "P@7": "0.43",
            "P@8": "0.375",
            "P@9": "0.44",
            "P@10": "0.4",
            "AP": "0.61",
        },
        note=N_("AP takes P@k only where a relevant result appears: (1/1 + 2/4 + 3/6 + 4/9) / 4."),
    ),
    RankingExample(
        "001_legal_late",
        N_("The same 4 relevant results pushed to ranks 7-10"),
        "001",
        "2.1",
        _ranks((7, 8, 9, 10), 10),
        4,
        {"AP": "0.48"},
        note=N_(
            "ERRATUM: the article computes (4/7 + 4/8 + 4/9 + 4/10) / 4 = 0.48, using the "
            "final hit count 4 in every numerator. At rank 7 only 1 relevant result has "
            "been seen: AP = (1/7 + 2/8 + 3/9 + 4/10) / 4 = 0.2815."
        ),
    ),
    RankingExample(
        "001_model_a",
        N_("Model A, top 10: R N R N R N R N N N"),
        "001",
        "4.2",
        _ranks((1, 3, 5, 7), 10),
        4,
        {"AP": "0.71"},
    ),
    RankingExample(
        "001_model_b",
        N_("Model B, top 10: R R N N R N N R N N"),
        "001",
        "4.2",
        _ranks((1, 2, 5, 8), 10),
        4,
        {"AP": "0.775"},
        note=N_(
            "B beats A by only 0.065 in AP; nDCG with graded relevance separates them further."
        ),
    ),
    RankingExample(
        "003_a",
        N_("Query A: relevant near the top"),
        "003",
        "3.1",
        (1, 0, 1, 1, 0, 0, 0, 0),
        3,
        {"AP": "0.8056"},
    ),
    RankingExample(
        "003_b",
        N_("Query B: one of the 3 relevant items never retrieved"),
        "003",
        "3.1",
        (1, 0, 1, 0, 0, 0, 0, 0),
        3,
        {"AP": "0.5556"},
        note=N_(
            "R stays 3: the missed item adds 0 to the sum but still counts in the denominator."
        ),
    ),
    RankingExample(
        "003_c",
        N_("Query C: relevant items late"),
        "003",
        "3.1",
        (0, 0, 0, 1, 0, 1, 0, 1),
        3,
        {"AP": "0.3194"},
    ),
    RankingExample(
        "003_single_rank_1",
        N_("One relevant item, at rank 1"),
        "003",
        "3.2",
        (1, 0, 0, 0, 0),
        1,
        {"AP": "1.0"},
        note=N_("With one relevant item AP is 1 / its rank."),
    ),
    RankingExample(
        "003_single_rank_5",
        N_("One relevant item, at rank 5"),
        "003",
        "3.2",
        (0, 0, 0, 0, 1),
        1,
        {"AP": "0.2"},
        note=N_(
            "With one relevant item AP is 1 / its rank: queries with few relevant items swing MAP."
        ),
    ),
)

_BY_NAME = {example.name: example for example in _SINGLE}

_MULTI = (
    MapExample(
        "000_two_queries",
        N_("Two queries with AP 0.583 and 0.75"),
        "000",
        "2.3",
        (_BY_NAME["000_five_docs"], _BY_NAME["000_second_query"]),
        {"MAP": "0.667"},
        note=N_("Every query weighs the same in MAP, however many relevant documents it has."),
    ),
    MapExample(
        "003_abc",
        N_("Article 003's queries A, B and C"),
        "003",
        "3.2",
        (_BY_NAME["003_a"], _BY_NAME["003_b"], _BY_NAME["003_c"]),
        {"MAP": "0.5602"},
    ),
)

#: Every worked example, by name.
EXAMPLES: Mapping[str, Example] = MappingProxyType(
    {example.name: example for example in (*_SINGLE, *_MULTI)}
)


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


#: Figures the articles report from their own projects, with no data to recompute
#: them: (article, section, what was measured, before, after). Notebooks quote them
#: from here, with their source, rather than typing them in. ``what`` is an English
#: message (show ``tr(what)``; :func:`reported_figures` does).
REPORTED: Mapping[str, tuple[str, str, str, str, str]] = MappingProxyType(
    {
        "001_kappa": (
            "001",
            "3.1",
            N_("annotator agreement (Cohen's kappa), before and after three-stage checking"),
            "0.62",
            "0.89",
        ),
        "001_map_std": (
            "001",
            "3.1",
            N_("standard deviation of MAP across annotation rounds"),
            "±0.08",
            "±0.02",
        ),
        "001_ap_swing": (
            "001",
            "3.1",
            N_("one query's AP between two annotators' versions"),
            "±0.15",
            "",
        ),
        "000_incomplete": (
            "000",
            "6.1",
            N_("MAP of one model, before and after adding the missing judgments"),
            "0.23",
            "0.41",
        ),
    }
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
