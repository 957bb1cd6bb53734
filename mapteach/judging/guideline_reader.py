"""Reading a guideline or a judging set from its JSON: every rule of the two schemas, checked.

``data/guideline.schema.json`` and ``data/judging_set.schema.json`` describe the two files
(JSON Schema, draft 2020-12). This module enforces every rule they state (required fields,
no unknown field, JSON types, non-blank texts, id patterns, sizes, the hard cases) and the
rules a schema cannot state: grades run 0, 1, 2, ...; ids, queries and documents are
unique; a judging set's grades are on its guideline's scale, cite a rule the guideline has
and follow it; the set names the guideline's version. The first problem is raised as a
ValueError naming the file and the JSON path inside it, such as
``mine.json: queries[2].results[4].grade: expected an integer from 0 to 3, got 5.``
(a problem with the whole document names no path).

A number with no fractional part (``2.0``) is the integer it equals, as JSON Schema reads
it. The English texts come back in the reader's language (:meth:`Reader.text`).
:mod:`mapteach.judging.guideline` holds the objects built and the public loaders.

Examples
--------
>>> read = Reader("mine.json")
>>> read.node({"grade": 0, "lable": "x"}, "scale[0]", ("grade", "label"))
Traceback (most recent call last):
...
ValueError: mine.json: scale[0]: unknown field 'lable'; the fields are: grade, label.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Iterator, Mapping
from typing import Any

from mapteach.i18n import N_, tr
from mapteach.judging.guideline import (
    HARD_CASES,
    Grade,
    Guideline,
    JudgingSet,
    Rule,
    SetQuery,
    SetResult,
)
from mapteach.sources import read_json

__all__ = [
    "GRADE_FIELDS",
    "GUIDELINE_FIELDS",
    "OPTIONAL_FIELDS",
    "QUERY_FIELDS",
    "RESULT_FIELDS",
    "RULE_FIELDS",
    "SET_FIELDS",
    "Reader",
    "read_guideline",
    "read_judging_set",
]

#: The fields of each object of the two files, in the order the schemas list them;
#: every one is required.
GUIDELINE_FIELDS = ("name", "version", "scale", "rules")
GRADE_FIELDS = ("grade", "label", "definition", "anchors")
RULE_FIELDS = ("id", "case", "statement", "effect", "grade")
SET_FIELDS = ("name", "guideline", "queries")
QUERY_FIELDS = ("query", "gloss", "results")
RESULT_FIELDS = ("doc", "text", "gloss", "grade", "rule", "reason")
#: The fields a whole document may have besides its own: ``$schema`` names the schema
#: file, for an editor that checks as one types.
OPTIONAL_FIELDS = ("$schema",)

RULE_ID = re.compile(r"R-[A-Z]+")
EFFECTS = ("implies", "caps")
#: The JSON name of each Python type a field may have.
_JSON_TYPES = {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer"}


def _join(where: str, key: str | int) -> str:
    """The JSON path of ``key`` inside ``where`` (``""``: the whole document)."""
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if where else key


def _json_type(value: Any) -> str:
    """The JSON name of the type of ``value`` (``object``, ``array``, ``string``...)."""
    if value is None:
        return "null"
    return _JSON_TYPES.get(type(value), "number")


def _integer(value: Any) -> int | None:
    """``value`` as an integer if JSON Schema reads it as one (``2``, ``2.0``), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


class Reader:
    """Typed access to a parsed JSON document; every error names the file and JSON path.

    Parameters
    ----------
    name : str
        The file's name, the start of every error message.
    lang : {"en", "zh"}, optional
        The language :meth:`text` gives the file's English texts in (default: the current).

    Examples
    --------
    >>> read = Reader("mine.json")
    >>> read.get({"grade": 2.0}, "grade", int, "rules[0]")
    2
    >>> read.grade({"grade": 5}, "queries[2].results[4]", 3)
    Traceback (most recent call last):
    ...
    ValueError: mine.json: queries[2].results[4].grade: expected an integer from 0 to 3, got 5.
    """

    def __init__(self, name: str, lang: str | None = None) -> None:
        self.name = name
        self.lang = lang

    def text(self, value: str) -> str:
        """The file's English text ``value`` in the reader's language (as it is if unknown)."""
        return tr(value, lang=self.lang)

    def fail(self, where: str, message: str) -> ValueError:
        """The error to raise for a problem at ``where`` (``""``: the whole document)."""
        return ValueError(
            f"{self.name}: {where}: {message}" if where else f"{self.name}: {message}"
        )

    def check(self, ok: bool, where: str, message: str, **values: Any) -> None:
        """Raise the error at ``where`` unless ``ok``: ``message`` (an English message,
        marked with ``N_``) in the current language, filled with ``values``."""
        if not ok:
            raise self.fail(where, tr(message, **values))

    def node(
        self, value: Any, where: str, fields: Collection[str], optional: Collection[str] = ()
    ) -> Mapping[str, Any]:
        """``value`` as a JSON object that has every field of ``fields`` and no other but
        ``optional`` ones, which are strings (``$schema``)."""
        self.check(
            isinstance(value, Mapping),
            where,
            N_("expected an object, got {kind}."),
            kind=_json_type(value),
        )
        unknown = [key for key in value if key not in fields and key not in optional]
        self.check(
            not unknown,
            where,
            N_("unknown field {key!r}; the fields are: {fields}."),
            key=unknown[0] if unknown else "",
            fields=", ".join(fields),
        )
        for key in fields:
            self.check(key in value, where, N_("missing field {key!r}."), key=key)
        for key in optional:
            if key in value:
                self.get(value, key, str, where, blank=True)
        return value

    def get(self, node: Any, key: str | int, kind: type, where: str, *, blank: bool = False) -> Any:
        """The field ``key`` of the object ``node`` (which has it), or the item ``key`` of the
        array ``node``, of JSON type ``kind``: an integer is not a boolean, and a string is
        not blank unless ``blank`` allows it."""
        value = node[key]
        integer = _integer(value) if kind is int else None
        self.check(
            integer is not None or (kind is not int and isinstance(value, kind)),
            _join(where, key),
            N_("expected {expected}, got {kind}."),
            expected=_JSON_TYPES[kind],
            kind=_json_type(value),
        )
        self.check(
            blank or not (isinstance(value, str) and not value.strip()),
            _join(where, key),
            N_("is empty."),
        )
        return value if integer is None else integer

    def fields(self, node: Mapping[str, Any], where: str, **kinds: type) -> list[Any]:
        """The value of each field named in ``kinds``, in that order, checked as :meth:`get`."""
        return [self.get(node, key, kind, where) for key, kind in kinds.items()]

    def items(self, node: Mapping[str, Any], key: str, where: str) -> Iterator[tuple[str, Any]]:
        """Each item of the array field ``key``, with its path (``queries[3]``)."""
        for index, item in enumerate(self.get(node, key, list, where)):
            yield _join(_join(where, key), index), item

    def texts(self, node: Mapping[str, Any], key: str, where: str) -> list[str]:
        """The array field ``key`` of non-blank strings."""
        values = self.get(node, key, list, where)
        return [self.get(values, index, str, _join(where, key)) for index in range(len(values))]

    def grade(self, node: Mapping[str, Any], where: str, top: int) -> int:
        """The field ``grade``: an integer on the scale 0-``top``."""
        grade: int = self.get(node, "grade", int, where)
        self.check(
            0 <= grade <= top,
            _join(where, "grade"),
            N_("expected an integer from 0 to {top}, got {value}."),
            top=top,
            value=grade,
        )
        return grade

    def token(self, node: Mapping[str, Any], key: str, where: str) -> str:
        """The string field ``key``, one token with no white space (as in a TREC file)."""
        value: str = self.get(node, key, str, where)
        self.check(
            not re.search(r"\s", value),
            _join(where, key),
            N_("{value!r} holds white space; a TREC file could not read it."),
            value=value,
        )
        return value

    def unique(self, seen: dict[str, str], value: str, where: str) -> None:
        """Raise at ``where`` if ``value`` is in ``seen`` (value -> path); else add it."""
        self.check(
            value not in seen,
            where,
            N_("{id!r} is used twice (first at {first})."),
            id=value,
            first=seen.get(value, ""),
        )
        seen[value] = where


def _scale(read: Reader, document: Mapping[str, Any]) -> tuple[Grade, ...]:
    grades: list[Grade] = []
    for where, item in read.items(document, "scale", ""):
        node = read.node(item, where, GRADE_FIELDS)
        grade = read.get(node, "grade", int, where)
        read.check(
            grade == len(grades),
            _join(where, "grade"),
            N_("expected {index} (grades run 0, 1, 2, ...)."),
            index=len(grades),
        )
        label, definition = read.fields(node, where, label=str, definition=str)
        anchors = read.texts(node, "anchors", where)
        read.check(
            len(anchors) >= 2,
            _join(where, "anchors"),
            N_("needs at least two non-empty anchor examples."),
        )
        shown = tuple(read.text(anchor) for anchor in anchors)
        grades.append(Grade(grade, read.text(label), read.text(definition), shown))
    read.check(len(grades) >= 2, "scale", N_("needs at least two grades."))
    return tuple(grades)


def _rules(read: Reader, document: Mapping[str, Any], top: int) -> tuple[Rule, ...]:
    rules: list[Rule] = []
    ids: dict[str, str] = {}
    cases: set[str] = set()
    for where, item in read.items(document, "rules", ""):
        node = read.node(item, where, RULE_FIELDS)
        rule_id, case, statement, effect = read.fields(
            node, where, id=str, case=str, statement=str, effect=str
        )
        read.check(
            RULE_ID.fullmatch(rule_id) is not None,
            _join(where, "id"),
            N_("{id!r} is not an id like 'R-DUP'."),
            id=rule_id,
        )
        read.unique(ids, rule_id, _join(where, "id"))
        read.check(
            effect in EFFECTS,
            _join(where, "effect"),
            N_("{effect!r} is not 'implies' or 'caps'."),
            effect=effect,
        )
        grade = read.grade(node, where, top)
        rules.append(Rule(rule_id, read.text(case), read.text(statement), effect, grade))
        cases.add(case)
    missing = [case for case in HARD_CASES if case not in cases]
    read.check(
        not missing,
        "rules",
        N_("no rule for the hard case(s): {cases}."),
        cases=", ".join(missing),
    )
    return tuple(rules)


def read_guideline(source: str | os.PathLike, lang: str | None = None) -> Guideline:
    """The guideline in the JSON file ``source``, checked; its texts in ``lang``.

    :func:`~mapteach.judging.guideline.load_guideline` is the public way in.

    Raises
    ------
    ValueError
        Naming the file and the JSON path of the first problem.

    Examples
    --------
    >>> import pathlib
    >>> from mapteach.judging import guideline
    >>> data = pathlib.Path(guideline.__file__).parent / "data"
    >>> read_guideline(data / "guideline.json", "zh").scale[3].label
    '高度相关'
    """
    read = Reader(os.fsdecode(source), lang)
    document = read.node(read_json(source), "", GUIDELINE_FIELDS, OPTIONAL_FIELDS)
    name, version = read.fields(document, "", name=str, version=str)
    scale = _scale(read, document)
    return Guideline(read.text(name), version, scale, _rules(read, document, scale[-1].grade))


def _result(
    read: Reader, item: Any, where: str, query: str, guideline: Guideline, docs: dict[str, str]
) -> SetResult:
    """The result ``item`` at ``where``: its document unique in the set, its grade on the
    guideline's scale, its rule one of the guideline's, cited by its reason and followed."""
    node = read.node(item, where, RESULT_FIELDS)
    doc = read.token(node, "doc", where)
    read.unique(docs, doc, _join(where, "doc"))
    text, gloss = read.fields(node, where, text=str, gloss=str)
    grade = read.grade(node, where, guideline.max_grade)
    rule_id, reason = read.fields(node, where, rule=str, reason=str)
    try:
        rule = guideline.rule(rule_id)
    except KeyError as error:
        raise read.fail(
            _join(where, "rule"),
            tr(
                "query {query!r}, document {doc!r}: {problem}",
                query=query,
                doc=doc,
                problem=error.args[0],
            ),
        ) from None
    read.check(
        rule_id in reason,
        _join(where, "reason"),
        N_("query {query!r}, document {doc!r}: does not cite its rule {rule!r}."),
        query=query,
        doc=doc,
        rule=rule_id,
    )
    read.check(
        rule.allows(grade),
        _join(where, "grade"),
        N_("query {query!r}, document {doc!r}: grade {grade} breaks {rule} ({effect} {limit})."),
        query=query,
        doc=doc,
        grade=grade,
        rule=rule.id,
        effect=rule.effect,
        limit=rule.grade,
    )
    return SetResult(doc, text, read.text(gloss), grade, rule_id, read.text(reason))


def _query(
    read: Reader, item: Any, where: str, guideline: Guideline, seen: dict[str, dict[str, str]]
) -> SetQuery:
    """The query ``item`` at ``where``, unique in the set, and its results (at least one)."""
    node = read.node(item, where, QUERY_FIELDS)
    query = read.token(node, "query", where)
    read.unique(seen["queries"], query, _join(where, "query"))
    gloss = read.get(node, "gloss", str, where)
    results = tuple(
        _result(read, result, path, query, guideline, seen["docs"])
        for path, result in read.items(node, "results", where)
    )
    read.check(
        bool(results), _join(where, "results"), N_("query {query!r} has no results."), query=query
    )
    return SetQuery(query, read.text(gloss), results)


def read_judging_set(
    source: str | os.PathLike, guideline: Guideline, lang: str | None = None
) -> JudgingSet:
    """The judging set in the JSON file ``source``, checked against ``guideline``.

    :func:`~mapteach.judging.guideline.load_judging_set` is the public way in.

    Raises
    ------
    ValueError
        Naming the file, the JSON path, and the query or document at fault.

    Examples
    --------
    >>> import pathlib
    >>> from mapteach.judging import guideline
    >>> data = pathlib.Path(guideline.__file__).parent / "data"
    >>> judging_set = read_judging_set(data / "legal_set.json", guideline.load_guideline())
    >>> judging_set.guideline, len(judging_set.queries)
    ('2026.1', 5)
    """
    read = Reader(os.fsdecode(source), lang)
    document = read.node(read_json(source), "", SET_FIELDS, OPTIONAL_FIELDS)
    name, version = read.fields(document, "", name=str, guideline=str)
    read.check(
        version == guideline.version,
        "guideline",
        N_("made under guideline {version!r}, not {expected!r}."),
        version=version,
        expected=guideline.version,
    )
    seen: dict[str, dict[str, str]] = {"queries": {}, "docs": {}}
    queries = tuple(
        _query(read, item, where, guideline, seen)
        for where, item in read.items(document, "queries", "")
    )
    read.check(bool(queries), "queries", N_("no queries."))
    return JudgingSet(read.text(name), version, queries)
