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

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from mapteach.explain.display import ShownTable
from mapteach.i18n import N_, tr

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

    def get(self, node: Any, key: str, kind: type, where: str) -> Any:
        if not isinstance(node, Mapping):
            raise self.fail(where, tr("expected an object, got {kind}.", kind=type(node).__name__))
        if key not in node:
            raise self.fail(where, tr("missing field {key!r}.", key=key))
        value = node[key]
        if kind is int:
            ok = isinstance(value, int) and not isinstance(value, bool)
        else:
            ok = isinstance(value, kind)
        if not ok:
            raise self.fail(
                f"{where}.{key}",
                tr(
                    "expected {expected}, got {kind}.",
                    expected=kind.__name__,
                    kind=type(value).__name__,
                ),
            )
        if isinstance(value, str) and not value.strip():
            raise self.fail(f"{where}.{key}", tr("is empty."))
        return value


def _read_json(path: str | os.PathLike) -> tuple[str, Any]:
    name = os.fsdecode(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise ValueError(
            tr("{name}: cannot read the file ({reason}).", name=name, reason=error.strerror)
        ) from None
    try:
        return name, json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(
            tr(
                "{name}, line {line}: not JSON ({reason}).",
                name=name,
                line=error.lineno,
                reason=error.msg,
            )
        ) from None


def _scale(read: _Reader, document: Any) -> tuple[Grade, ...]:
    grades = []
    for index, node in enumerate(read.get(document, "scale", list, "guideline")):
        where = f"scale[{index}]"
        grade = read.get(node, "grade", int, where)
        if grade != index:
            raise read.fail(
                f"{where}.grade", tr("expected {index} (grades run 0, 1, 2, ...).", index=index)
            )
        anchors = read.get(node, "anchors", list, where)
        if len(anchors) < 2 or not all(isinstance(a, str) and a.strip() for a in anchors):
            raise read.fail(f"{where}.anchors", tr("needs at least two non-empty anchor examples."))
        grades.append(
            Grade(
                grade,
                read.text(read.get(node, "label", str, where)),
                read.text(read.get(node, "definition", str, where)),
                tuple(read.text(anchor) for anchor in anchors),
            )
        )
    if len(grades) < 2:
        raise read.fail("scale", tr("needs at least two grades."))
    return tuple(grades)


def _rules(read: _Reader, document: Any, max_grade: int) -> tuple[Rule, ...]:
    rules: dict[str, Rule] = {}
    cases: set[str] = set()
    for index, node in enumerate(read.get(document, "rules", list, "guideline")):
        where = f"rules[{index}]"
        case = read.get(node, "case", str, where)
        rule = Rule(
            read.get(node, "id", str, where),
            read.text(case),
            read.text(read.get(node, "statement", str, where)),
            read.get(node, "effect", str, where),
            read.get(node, "grade", int, where),
        )
        if not _RULE_ID.fullmatch(rule.id):
            raise read.fail(f"{where}.id", tr("{id!r} is not an id like 'R-DUP'.", id=rule.id))
        if rule.id in rules:
            raise read.fail(f"{where}.id", tr("{id!r} is used twice.", id=rule.id))
        if rule.effect not in _EFFECTS:
            raise read.fail(
                f"{where}.effect", tr("{effect!r} is not 'implies' or 'caps'.", effect=rule.effect)
            )
        if not 0 <= rule.grade <= max_grade:
            raise read.fail(
                f"{where}.grade",
                tr("{grade} is not on the scale 0-{top}.", grade=rule.grade, top=max_grade),
            )
        rules[rule.id] = rule
        cases.add(case)
    missing = [case for case in HARD_CASES if case not in cases]
    if missing:
        raise read.fail(
            "rules", tr("no rule for the hard case(s): {cases}.", cases=", ".join(missing))
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
    name, document = _read_json(_DATA / "guideline.json" if path is None else path)
    read = _Reader(name, lang)
    scale = _scale(read, document)
    return Guideline(
        read.text(read.get(document, "name", str, "guideline")),
        read.get(document, "version", str, "guideline"),
        scale,
        _rules(read, document, scale[-1].grade),
    )


def _result(read: _Reader, node: Any, where: str, query: str, guideline: Guideline) -> SetResult:
    result = SetResult(
        read.get(node, "doc", str, where),
        read.get(node, "text", str, where),
        read.get(node, "gloss", str, where),
        read.get(node, "grade", int, where),
        read.get(node, "rule", str, where),
        read.get(node, "reason", str, where),
    )
    try:
        rule = guideline.rule(result.rule)
    except KeyError as error:
        raise read.fail(
            f"{where}.rule",
            tr(
                "query {query!r}, document {doc!r}: {problem}",
                query=query,
                doc=result.doc,
                problem=error.args[0],
            ),
        ) from None
    if result.rule not in result.reason:
        raise read.fail(
            f"{where}.reason",
            tr(
                "query {query!r}, document {doc!r}: does not cite its rule {rule!r}.",
                query=query,
                doc=result.doc,
                rule=result.rule,
            ),
        )
    if not rule.allows(result.grade):
        raise read.fail(
            f"{where}.grade",
            tr(
                "query {query!r}, document {doc!r}: grade {grade} breaks {rule} "
                "({effect} {limit}).",
                query=query,
                doc=result.doc,
                grade=result.grade,
                rule=rule.id,
                effect=rule.effect,
                limit=rule.grade,
            ),
        )
    return SetResult(
        result.doc,
        result.text,
        read.text(result.gloss),
        result.grade,
        result.rule,
        read.text(result.reason),
    )


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
    name, document = _read_json(_DATA / "legal_set.json" if path is None else path)
    read = _Reader(name, lang)
    version = read.get(document, "guideline", str, "set")
    if version != guideline.version:
        raise read.fail(
            "set.guideline",
            tr(
                "made under guideline {version!r}, not {expected!r}.",
                version=version,
                expected=guideline.version,
            ),
        )
    queries: list[SetQuery] = []
    docs: set[str] = set()
    for qi, node in enumerate(read.get(document, "queries", list, "set")):
        where = f"queries[{qi}]"
        query = read.get(node, "query", str, where)
        if re.search(r"\s", query) or query in {q.query for q in queries}:
            raise read.fail(
                f"{where}.query", tr("{query!r} is repeated or holds white space.", query=query)
            )
        results = []
        for ri, item in enumerate(read.get(node, "results", list, where)):
            result = _result(read, item, f"{where}.results[{ri}]", query, guideline)
            if re.search(r"\s", result.doc) or result.doc in docs:
                raise read.fail(
                    f"{where}.results[{ri}].doc",
                    tr(
                        "query {query!r}: document {doc!r} is repeated or holds white space.",
                        query=query,
                        doc=result.doc,
                    ),
                )
            docs.add(result.doc)
            results.append(result)
        if not results:
            raise read.fail(f"{where}.results", tr("query {query!r} has no results.", query=query))
        gloss = read.text(read.get(node, "gloss", str, where))
        queries.append(SetQuery(query, gloss, tuple(results)))
    if not queries:
        raise read.fail("set.queries", tr("no queries."))
    return JudgingSet(read.text(read.get(document, "name", str, "set")), version, tuple(queries))
