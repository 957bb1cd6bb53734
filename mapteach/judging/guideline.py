"""The judging guideline and the workbook's judging set, as data shipped with the package.

A guideline (``data/guideline.json``) is a graded scale (a definition and anchor
examples per grade), rules for the hard cases (each with an id such as ``R-DUP``,
a statement, and the grade it implies or caps) and a ``version``: qrels made under
different versions must not be compared (article 001 §4.1). The judging set
(``data/legal_set.json``) holds queries of article 001's legal search, ten results
each, with a reference grade and a reason that cites the rule it applies.

Both are validated on load; a team can load its own files, in the format that
``data/guideline.schema.json`` and ``data/judging_set.schema.json`` describe (JSON
Schema, draft 2020-12; the README's "Your own guideline and judging set" shows one of
each). :mod:`~mapteach.judging.guideline_reader` reads them and checks every rule of the
schemas and those a schema cannot state; every error names the file and where in it (a
JSON path such as ``queries[2].results[4].grade``, or a line for a syntax error).
Introduced in ``12_judging_relevance``.

The scale and the rules are shown whole (:class:`GuidelineTable`): every definition,
anchor and statement wrapped, never cut short, in a notebook, printed and on the
static site.

The English texts of the package's files (grade labels and definitions, anchors,
cases, statements, glosses, reasons: the keys :data:`TRANSLATED_KEYS`) are messages
of the workbook's catalogue. The loaders validate the English and return the texts
in the current language (or ``lang``); the Chinese snippets and queries, and every
id, are kept as they are. A guideline loaded in one language keeps it: load it
again after :func:`mapteach.set_language`.

Examples
--------
>>> from mapteach.judging import load_guideline, load_judging_set
>>> guideline = load_guideline()
>>> guideline.rule("R-DUP").statement[:40]
'A copy or near-copy of a result ranked h'
>>> judging_set = load_judging_set()
>>> [item.doc for item in judging_set.queries[0].results if item.grade >= 2]
['r1', 'r4', 'r6', 'r9']
"""

from __future__ import annotations

import html
import os
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from mapteach.explain.display import ShownTable
from mapteach.i18n import N_, tr

#: The keys of the JSON data files whose text a learner reads; ``tools/i18n.py``
#: puts their values in the message catalogue. Their values are English; the Chinese
#: texts (``text``, ``query``) and the ids are not listed.
TRANSLATED_KEYS: frozenset[str] = frozenset(
    {"name", "label", "definition", "anchors", "case", "statement", "gloss", "reason"}
)

#: The lowest grade that counts as relevant when grades become relevant / not relevant:
#: grade 2, "relevant" on the workbook's 0-3 scale. The one setting that :func:`agreement`,
#: :func:`calibration_report`, the judging board, notebook 12 and the instructor's guide share.
RELEVANCE_THRESHOLD = 2

__all__ = [
    "GUIDELINE_HEADERS",
    "HARD_CASES",
    "RELEVANCE_THRESHOLD",
    "TRANSLATED_KEYS",
    "Grade",
    "Guideline",
    "GuidelineTable",
    "JudgingSet",
    "Rule",
    "SetQuery",
    "SetResult",
    "load_guideline",
    "load_judging_set",
]

_DATA = Path(__file__).parent / "data"
#: The hard cases every guideline must rule on (the ``case`` of one of its rules, in
#: English in the file; messages: show ``tr(case)``).
HARD_CASES = (
    N_("duplicate or near-duplicate"),
    N_("outdated or repealed source"),
    N_("partially relevant"),
    N_("advertisement or spam"),
    N_("wrong jurisdiction or date"),
    N_("unreadable"),
)

#: The header that shows each column key of :meth:`Guideline.scale_table` and
#: :meth:`Guideline.rules_table`.
GUIDELINE_HEADERS: dict[str, str] = {
    "grade": N_("grade"),
    "label": N_("label"),
    "definition": N_("definition"),
    "anchors": N_("anchors"),
    "rule": N_("rule"),
    "case": N_("case"),
    "statement": N_("statement"),
}


class GuidelineTable(ShownTable):
    """The scale or the rules: English column keys, shown in the current language.

    Shown whole: in a notebook (HTML) and printed (text), every statement, definition and
    anchor is wrapped, never cut at pandas' ``display.max_colwidth``; printed lines fit
    pandas' ``display.width``.

    >>> print(repr(load_guideline().rules_table().loc[["R-DUP"]]))
    rule       R-DUP
    case       duplicate or near-duplicate
    grade      at most 1
    statement  A copy or near-copy of a result ranked higher gets at most grade 1: the
               reader learns nothing new from it.
    """

    headers = GUIDELINE_HEADERS

    def _repr_html_(self) -> str:
        return _whole_html(self.shown())

    def __repr__(self) -> str:
        return _whole_text(self.shown(), pd.get_option("display.width"))


@dataclass(frozen=True)
class Grade:
    """One grade of the scale: its number, label, definition and anchor examples."""

    grade: int
    label: str
    definition: str
    anchors: tuple[str, ...]


@dataclass(frozen=True)
class Rule:
    """A rule for a hard case: it ``implies`` its grade, or ``caps`` the grade at it."""

    id: str
    case: str
    statement: str
    effect: str
    grade: int

    def allows(self, grade: int) -> bool:
        """Whether ``grade`` follows this rule.

        >>> Rule("R-DUP", "duplicate", "...", "caps", 1).allows(0)
        True
        >>> Rule("R-AUTH", "answer", "...", "implies", 3).allows(2)
        False
        """
        return grade == self.grade if self.effect == "implies" else grade <= self.grade


@dataclass(frozen=True)
class Guideline:
    """A versioned judging guideline: the scale and the rules."""

    name: str
    version: str
    scale: tuple[Grade, ...]
    rules: tuple[Rule, ...]

    @property
    def max_grade(self) -> int:
        """The highest grade (3 on a 0-3 scale)."""
        return self.scale[-1].grade

    def rule(self, rule_id: str) -> Rule:
        """The rule with id ``rule_id``; a KeyError naming the known ids if there is none."""
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        known = ", ".join(rule.id for rule in self.rules)
        raise KeyError(
            tr(
                "guideline {version!r} has no rule {rule!r}; its rules: {known}.",
                version=self.version,
                rule=rule_id,
                known=known,
            )
        )

    def scale_table(self) -> pd.DataFrame:
        """The scale as a table: one row per grade, its label, definition and anchors.

        >>> load_guideline().scale_table().loc[3, "label"]
        'highly relevant'
        """
        return GuidelineTable(
            [
                {
                    "grade": g.grade,
                    "label": g.label,
                    "definition": g.definition,
                    "anchors": " / ".join(g.anchors),
                }
                for g in self.scale
            ]
        ).set_index("grade")

    def rules_table(self) -> pd.DataFrame:
        """The rules as a table: id, the case, what it does to the grade, and the statement.

        >>> load_guideline().rules_table().loc["R-OLD", "grade"]
        'at most 1'
        """
        return GuidelineTable(
            [
                {
                    "rule": r.id,
                    "case": r.case,
                    "grade": (
                        f"{r.grade}"
                        if r.effect == "implies"
                        else tr("at most {grade}", grade=r.grade)
                    ),
                    "statement": r.statement,
                }
                for r in self.rules
            ]
        ).set_index("rule")


@dataclass(frozen=True)
class SetResult:
    """One result of a judging-set query, with its reference grade, rule and reason."""

    doc: str
    text: str
    gloss: str
    grade: int
    rule: str
    reason: str


@dataclass(frozen=True)
class SetQuery:
    """A query (in Chinese, with an English gloss) and its results in ranked order."""

    query: str
    gloss: str
    results: tuple[SetResult, ...]


@dataclass(frozen=True)
class JudgingSet:
    """Queries to judge, with reference judgments made under one guideline version."""

    name: str
    guideline: str
    queries: tuple[SetQuery, ...]

    def gold(self) -> dict[str, dict[str, int]]:
        """The reference grades as ``{query: {doc: grade}}``, documents in ranked order.

        >>> gold = load_judging_set().gold()
        >>> len(gold), gold["劳动仲裁赔偿标准"]["r6"]
        (5, 2)
        """
        return {q.query: {r.doc: r.grade for r in q.results} for q in self.queries}

    def run(self) -> dict[str, list[str]]:
        """The ranking the set was retrieved in, as ``{query: [doc, ...]}``, best first."""
        return {q.query: [r.doc for r in q.results] for q in self.queries}

    def find(self, query: str) -> SetQuery:
        """The query ``query``; a KeyError naming the set's queries if it is not there."""
        for candidate in self.queries:
            if candidate.query == query:
                return candidate
        known = ", ".join(q.query for q in self.queries)
        raise KeyError(
            tr(
                "the judging set has no query {query!r}; its queries: {known}.",
                query=query,
                known=known,
            )
        )


# --- showing a guideline table whole ------------------------------------------------------

#: The style of every cell of a guideline table's HTML: its whole text, wrapped, read from
#: the left. Inline (not a ``<style>`` sheet), so that JupyterLab keeps it in a notebook
#: that is not trusted and the static site shows it as the notebook did.
_CELL_STYLE = (
    "text-align: left; vertical-align: top; white-space: normal; overflow-wrap: break-word"
)
#: Characters a line must not start with (closing punctuation) or end with (opening).
_NO_LINE_START = frozenset("，。、；：？！）》」』”’,.;:?!)]}%")
_NO_LINE_END = frozenset("（《「『“‘([{")


def _cell(tag: str, value: object) -> str:
    return f'<{tag} style="{_CELL_STYLE}">{html.escape(str(value), quote=False)}</{tag}>'


def _whole_html(frame: pd.DataFrame) -> str:
    """``frame`` as an HTML table that shows every character of every cell and wraps them.

    >>> frame = pd.DataFrame({"statement": ["x" * 80]}, index=pd.Index(["R-X"], name="rule"))
    >>> "x" * 80 in _whole_html(frame), "white-space: normal" in _whole_html(frame)
    (True, True)
    """
    head = "".join(_cell("th", label) for label in [frame.index.name or "", *frame.columns])
    rows = "".join(
        "<tr>" + _cell("th", key) + "".join(_cell("td", value) for value in values) + "</tr>"
        for key, values in zip(frame.index, frame.itertuples(index=False, name=None), strict=True)
    )
    return f'<table class="dataframe"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'


def _columns(text: str) -> int:
    """How many terminal columns ``text`` takes: two for each wide (CJK) character."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def _pieces(word: str) -> list[str]:
    """The parts of a word between which a line may break: around each wide character,
    never before closing punctuation nor after opening punctuation."""
    pieces: list[str] = []
    for char in word:
        previous = pieces[-1][-1] if pieces else ""
        wide = _columns(char) == 2 or _columns(previous) == 2
        if pieces and (not wide or char in _NO_LINE_START or previous in _NO_LINE_END):
            pieces[-1] += char
        else:
            pieces.append(char)
    return pieces


def _wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` columns, every character kept.

    Lines break at spaces, and between Chinese characters (which take two columns each,
    where :mod:`textwrap` counts one); runs of white space become one space, a ``/``
    between anchors stays at the end of its line, and a word longer than a line is cut.

    >>> _wrap("A copy or near-copy of a result ranked higher gets at most grade 1.", 24)
    ['A copy or near-copy of a', 'result ranked higher', 'gets at most grade 1.']
    >>> _wrap("排名更高的结果的副本，至多 1 级。", 12)
    ['排名更高的结', '果的副本，至', '多 1 级。']
    >>> _wrap("One anchor. / Another.", 14)
    ['One anchor. /', 'Another.']
    """
    words: list[str] = []
    for word in text.split():
        if words and (word == "/" or set(word) <= _NO_LINE_START):
            words[-1] += " " + word
        else:
            words.append(word)
    lines: list[str] = []
    line = ""
    for word in words:
        for index, piece in enumerate(_pieces(word)):
            joint = " " if index == 0 and line else ""
            if line and _columns(line + joint + piece) > width:
                lines.append(line)
                line, joint = "", ""
            line += joint + piece
            while _columns(line) > width:
                cut = max(1, max(n for n in range(len(line) + 1) if _columns(line[:n]) <= width))
                lines.append(line[:cut])
                line = line[cut:]
    return [*lines, line]


def _whole_text(frame: pd.DataFrame, width: int = 80) -> str:
    """``frame`` as text lines of at most ``width`` columns, every character of every cell.

    One block per row: each header, then its cell's text wrapped beside it.

    >>> frame = pd.DataFrame({"statement": ["a " * 12]}, index=pd.Index(["R-X"], name="rule"))
    >>> print(_whole_text(frame, width=20))
    rule       R-X
    statement  a a a a a
               a a a a a
               a a
    """
    if frame.empty:
        return repr(pd.DataFrame(frame))
    labels = [str(frame.index.name or ""), *map(str, frame.columns)]
    margin = max(_columns(label) for label in labels) + 2
    blocks = []
    for key, values in zip(frame.index, frame.itertuples(index=False, name=None), strict=True):
        lines = []
        for label, value in zip(labels, [key, *values], strict=True):
            first, *rest = _wrap(str(value), max(width - margin, 10))
            lines.append(label + " " * (margin - _columns(label)) + first)
            lines += [" " * margin + line for line in rest]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


# --- loading ---------------------------------------------------------------------------------


def load_guideline(path: str | os.PathLike | None = None, *, lang: str | None = None) -> Guideline:
    """Load and validate a judging guideline (default: the package's ``guideline.json``).

    The file's format is ``data/guideline.schema.json`` (JSON Schema, draft 2020-12),
    described in the README ("Your own guideline and judging set"). Its English texts
    come back in ``lang`` (default: the current language); a text the catalogue does not
    hold (a team's own guideline) is kept as it is.

    Raises
    ------
    ValueError
        Naming the file and the JSON path (or line) of the first problem: a missing or
        unknown field, a value of the wrong type or blank, a grade with fewer than two
        anchors, grades not numbered 0, 1, 2, ..., a rule id used twice or not like
        ``R-DUP``, a rule's grade off the scale, a hard case (:data:`HARD_CASES`) without
        a rule.

    Examples
    --------
    >>> import json, pathlib, tempfile
    >>> guideline = load_guideline()
    >>> guideline.version, guideline.max_grade, len(guideline.rules)
    ('2026.1', 3, 10)
    >>> bad = json.loads((_DATA / "guideline.json").read_text(encoding="utf-8"))
    >>> bad["scale"][2]["anchors"] = ["only one"]
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "mine.json"
    >>> _ = path.write_text(json.dumps(bad), encoding="utf-8")
    >>> try:
    ...     load_guideline(path)
    ... except ValueError as error:
    ...     print(str(error).replace(str(path), "mine.json"))
    mine.json: scale[2].anchors: needs at least two non-empty anchor examples.
    """
    from mapteach.judging.guideline_reader import read_guideline

    return read_guideline(_DATA / "guideline.json" if path is None else path, lang)


def load_judging_set(
    path: str | os.PathLike | None = None,
    *,
    guideline: Guideline | None = None,
    lang: str | None = None,
) -> JudgingSet:
    """Load and validate a judging set (default: the package's ``legal_set.json``).

    The file's format is ``data/judging_set.schema.json`` (JSON Schema, draft 2020-12),
    described in the README. Every reference grade must be on the scale of ``guideline``
    (default: the package's), whose version must be the one the set names, and follow
    the rule its reason cites. The English texts (name, glosses, reasons) come back in
    ``lang`` (default: the current language); the queries and snippets are kept as they are.

    Raises
    ------
    ValueError
        Naming the file, the JSON path, and the query or document at fault.

    Examples
    --------
    >>> judging_set = load_judging_set()
    >>> [(q.query, len(q.results)) for q in judging_set.queries][:2]
    [('劳动仲裁赔偿标准', 10), ('竞业限制补偿金标准', 10)]
    >>> judging_set.queries[0].results[6].reason
    'R-DUP: a copy of r1, ranked higher.'
    """
    from mapteach.judging.guideline_reader import read_judging_set

    guideline = guideline or load_guideline(lang=lang)
    return read_judging_set(_DATA / "legal_set.json" if path is None else path, guideline, lang)
