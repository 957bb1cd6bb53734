"""The judging guideline and the workbook's judging set, as data shipped with the package.

A guideline (``data/guideline.json``) is a graded scale (a definition and anchor
examples per grade), rules for the hard cases (each with an id such as ``R-DUP``,
a statement, and the grade it implies or caps) and a ``version``: qrels made under
different versions must not be compared (article 001 §4.1). The judging set
(``data/legal_set.json``) holds queries of article 001's legal search, ten results
each, with a reference grade and a reason that cites the rule it applies.

Both are validated on load; a team can load its own files. Every error names the
file and where in it (a JSON path such as ``rules[2].grade``, or a line for a
syntax error). Introduced in ``12_judging_relevance``.

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

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from mapteach.explain.display import ShownTable
from mapteach.i18n import N_, tr
from mapteach.sources import read_json

#: The keys of the JSON data files whose text a learner reads; ``tools/i18n.py``
#: puts their values in the message catalogue. Their values are English; the Chinese
#: texts (``text``, ``query``) and the ids are not listed.
TRANSLATED_KEYS: frozenset[str] = frozenset(
    {"name", "label", "definition", "anchors", "case", "statement", "gloss", "reason"}
)

__all__ = [
    "GUIDELINE_HEADERS",
    "HARD_CASES",
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
_RULE_ID = re.compile(r"R-[A-Z]+")
_EFFECTS = ("implies", "caps")

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
    """The scale or the rules: English column keys, shown in the current language."""

    headers = GUIDELINE_HEADERS


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


class _Reader:
    """Typed access to a parsed JSON document; every error names the file and JSON path.

    ``text`` gives a file's English text in the reader's language.
    """

    def __init__(self, name: str, lang: str | None = None) -> None:
        self.name = name
        self.lang = lang

    def text(self, value: str) -> str:
        return tr(value, lang=self.lang)

    def fail(self, where: str, message: str) -> ValueError:
        return ValueError(f"{self.name}: {where}: {message}")

    def check(self, ok: bool, where: str, message: str, **values: Any) -> None:
        """Raise the error at ``where`` unless ``ok``: ``message`` (an English message,
        marked with ``N_``) in the current language, filled with ``values``."""
        if not ok:
            raise self.fail(where, tr(message, **values))

    def get(self, node: Any, key: str, kind: type, where: str) -> Any:
        """``node[key]``, checked: ``node`` an object that holds it, of type ``kind``
        (an int is not a bool), and not an empty or blank string."""
        self.check(
            isinstance(node, Mapping),
            where,
            N_("expected an object, got {kind}."),
            kind=type(node).__name__,
        )
        self.check(key in node, where, N_("missing field {key!r}."), key=key)
        value = node[key]
        self.check(
            isinstance(value, kind) and not (kind is int and isinstance(value, bool)),
            f"{where}.{key}",
            N_("expected {expected}, got {kind}."),
            expected=kind.__name__,
            kind=type(value).__name__,
        )
        self.check(
            not (isinstance(value, str) and not value.strip()), f"{where}.{key}", N_("is empty.")
        )
        return value

    def fields(self, node: Any, where: str, **kinds: type) -> list[Any]:
        """The value of each field named in ``kinds``, in that order, checked as :meth:`get`."""
        return [self.get(node, key, kind, where) for key, kind in kinds.items()]


def _scale(read: _Reader, document: Any) -> tuple[Grade, ...]:
    grades = []
    for index, node in enumerate(read.get(document, "scale", list, "guideline")):
        where = f"scale[{index}]"
        grade = read.get(node, "grade", int, where)
        read.check(
            grade == index,
            f"{where}.grade",
            N_("expected {index} (grades run 0, 1, 2, ...)."),
            index=index,
        )
        anchors = read.get(node, "anchors", list, where)
        read.check(
            len(anchors) >= 2 and all(isinstance(a, str) and a.strip() for a in anchors),
            f"{where}.anchors",
            N_("needs at least two non-empty anchor examples."),
        )
        label, definition = read.fields(node, where, label=str, definition=str)
        anchors = tuple(read.text(anchor) for anchor in anchors)
        grades.append(Grade(grade, read.text(label), read.text(definition), anchors))
    read.check(len(grades) >= 2, "scale", N_("needs at least two grades."))
    return tuple(grades)


def _rules(read: _Reader, document: Any, max_grade: int) -> tuple[Rule, ...]:
    rules: dict[str, Rule] = {}
    cases: set[str] = set()
    for index, node in enumerate(read.get(document, "rules", list, "guideline")):
        where = f"rules[{index}]"
        case, rule_id, statement, effect, grade = read.fields(
            node, where, case=str, id=str, statement=str, effect=str, grade=int
        )
        read.check(
            _RULE_ID.fullmatch(rule_id) is not None,
            f"{where}.id",
            N_("{id!r} is not an id like 'R-DUP'."),
            id=rule_id,
        )
        read.check(rule_id not in rules, f"{where}.id", N_("{id!r} is used twice."), id=rule_id)
        read.check(
            effect in _EFFECTS,
            f"{where}.effect",
            N_("{effect!r} is not 'implies' or 'caps'."),
            effect=effect,
        )
        read.check(
            0 <= grade <= max_grade,
            f"{where}.grade",
            N_("{grade} is not on the scale 0-{top}."),
            grade=grade,
            top=max_grade,
        )
        rules[rule_id] = Rule(rule_id, read.text(case), read.text(statement), effect, grade)
        cases.add(case)
    missing = [case for case in HARD_CASES if case not in cases]
    read.check(
        not missing,
        "rules",
        N_("no rule for the hard case(s): {cases}."),
        cases=", ".join(missing),
    )
    return tuple(rules.values())


def load_guideline(path: str | os.PathLike | None = None, *, lang: str | None = None) -> Guideline:
    """Load and validate a judging guideline (default: the package's ``guideline.json``).

    Its English texts come back in ``lang`` (default: the current language); a text
    the catalogue does not hold (a team's own guideline) is kept as it is.

    Raises
    ------
    ValueError
        Naming the file and the JSON path (or line) of the first problem: a grade
        with fewer than two anchors, a rule without an id, a grade off the scale, a
        hard case (:data:`HARD_CASES`) without a rule.

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
    source = _DATA / "guideline.json" if path is None else path
    name, document = os.fsdecode(source), read_json(source)
    read = _Reader(name, lang)
    scale = _scale(read, document)
    return Guideline(
        read.text(read.get(document, "name", str, "guideline")),
        read.get(document, "version", str, "guideline"),
        scale,
        _rules(read, document, scale[-1].grade),
    )


def _result(read: _Reader, node: Any, where: str, query: str, guideline: Guideline) -> SetResult:
    doc, text, gloss, grade, rule_id, reason = read.fields(
        node, where, doc=str, text=str, gloss=str, grade=int, rule=str, reason=str
    )
    try:
        rule = guideline.rule(rule_id)
    except KeyError as error:
        raise read.fail(
            f"{where}.rule",
            tr(
                "query {query!r}, document {doc!r}: {problem}",
                query=query,
                doc=doc,
                problem=error.args[0],
            ),
        ) from None
    read.check(
        rule_id in reason,
        f"{where}.reason",
        N_("query {query!r}, document {doc!r}: does not cite its rule {rule!r}."),
        query=query,
        doc=doc,
        rule=rule_id,
    )
    read.check(
        rule.allows(grade),
        f"{where}.grade",
        N_("query {query!r}, document {doc!r}: grade {grade} breaks {rule} ({effect} {limit})."),
        query=query,
        doc=doc,
        grade=grade,
        rule=rule.id,
        effect=rule.effect,
        limit=rule.grade,
    )
    return SetResult(doc, text, read.text(gloss), grade, rule_id, read.text(reason))


def load_judging_set(
    path: str | os.PathLike | None = None,
    *,
    guideline: Guideline | None = None,
    lang: str | None = None,
) -> JudgingSet:
    """Load and validate a judging set (default: the package's ``legal_set.json``).

    Every reference grade must follow the rule its reason cites, under ``guideline``
    (default: the package's), whose version must be the one the set names. The
    English texts (name, glosses, reasons) come back in ``lang`` (default: the
    current language); the queries and snippets are kept as they are.

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
    guideline = guideline or load_guideline(lang=lang)
    source = _DATA / "legal_set.json" if path is None else path
    name, document = os.fsdecode(source), read_json(source)
    read = _Reader(name, lang)
    version = read.get(document, "guideline", str, "set")
    read.check(
        version == guideline.version,
        "set.guideline",
        N_("made under guideline {version!r}, not {expected!r}."),
        version=version,
        expected=guideline.version,
    )
    queries: list[SetQuery] = []
    docs: set[str] = set()
    for qi, node in enumerate(read.get(document, "queries", list, "set")):
        where = f"queries[{qi}]"
        query = read.get(node, "query", str, where)
        read.check(
            not re.search(r"\s", query) and query not in {q.query for q in queries},
            f"{where}.query",
            N_("{query!r} is repeated or holds white space."),
            query=query,
        )
        results = []
        for ri, item in enumerate(read.get(node, "results", list, where)):
            result = _result(read, item, f"{where}.results[{ri}]", query, guideline)
            read.check(
                not re.search(r"\s", result.doc) and result.doc not in docs,
                f"{where}.results[{ri}].doc",
                N_("query {query!r}: document {doc!r} is repeated or holds white space."),
                query=query,
                doc=result.doc,
            )
            docs.add(result.doc)
            results.append(result)
        read.check(
            bool(results), f"{where}.results", N_("query {query!r} has no results."), query=query
        )
        gloss = read.text(read.get(node, "gloss", str, where))
        queries.append(SetQuery(query, gloss, tuple(results)))
    read.check(bool(queries), "set.queries", N_("no queries."))
    return JudgingSet(read.text(read.get(document, "name", str, "set")), version, tuple(queries))
