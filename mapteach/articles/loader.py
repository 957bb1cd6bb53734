"""The articles' data files (``data/*.json``): read and checked field by field.

The worked examples (``examples.json``), the figures the articles report from their
own projects (``reported.json``) and the slips (``slips.json``) are data;
:mod:`~mapteach.articles.examples` and :mod:`~mapteach.articles.slips` read them and
build their objects once, when they are imported. A :class:`Reader` gives typed access to a
parsed file, and every error names the file and the JSON path of the first problem,
such as ``examples.json: examples[3].labels[2]: expected 0 or 1, got 2.``

The English texts a learner reads (titles, notes, glosses, verdicts: the keys
:data:`TRANSLATED_KEYS`) are messages of the workbook's catalogue: they are kept in
English and shown with :func:`mapteach.i18n.tr`. The articles' Chinese quotes and
every id are kept as they are.

Examples
--------
>>> from mapteach.articles.loader import Reader
>>> read = Reader("mine.json")
>>> read.labels({"labels": [1, 0, 2]}, "labels", "examples[3]")
Traceback (most recent call last):
...
ValueError: mine.json: examples[3].labels[2]: expected 0 or 1, got 2.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import Any

from mapteach.i18n import tr
from mapteach.sources import read_json

__all__ = ["DATA", "TRANSLATED_KEYS", "Reader", "read_data"]

#: The folder of the articles' data files.
DATA = Path(__file__).parent / "data"

#: The keys of the articles' data files whose text a learner reads; ``tools/i18n.py``
#: puts their values in the message catalogue. Their values are English; the quotes
#: (Chinese), the printed figures and the ids are not listed.
TRANSLATED_KEYS: frozenset[str] = frozenset(
    {"title", "note", "what", "gloss", "verdict", "printed_words", "label"}
)


def read_data(name: str) -> Any:
    """The parsed JSON of the data file ``name`` (such as ``"slips.json"``).

    Raises
    ------
    ValueError
        If the file cannot be read or is not JSON; the message names the file (and
        the line of a syntax error).

    Examples
    --------
    >>> sorted(read_data("reported.json"))
    ['reported']
    """
    return read_json(DATA / name, name)


class Reader:
    """Typed access to a parsed JSON document; every error names the file and JSON path.

    Parameters
    ----------
    source : str
        The file's name, the start of every error message.

    Examples
    --------
    >>> read = Reader("mine.json")
    >>> read.count({"n_relevant": 2}, "n_relevant", "examples[0]")
    2
    >>> read.text({"title": ""}, "title", "examples[0]")
    Traceback (most recent call last):
    ...
    ValueError: mine.json: examples[0].title: is empty.
    """

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> ValueError:
        """The error to raise for a problem at ``where`` (``""``: the whole document)."""
        return ValueError(
            f"{self.source}: {where}: {message}" if where else f"{self.source}: {message}"
        )

    def node(
        self, value: Any, where: str, allowed: Collection[str] | None = None
    ) -> Mapping[str, Any]:
        """``value`` as a JSON object, whose keys are all ``allowed`` (if given)."""
        if not isinstance(value, Mapping):
            raise self.fail(where, tr("expected an object, got {kind}.", kind=_json_type(value)))
        unknown = [key for key in value if allowed is not None and key not in allowed]
        if unknown:
            raise self.fail(
                where,
                tr(
                    "unknown field {key!r}; the fields are: {fields}.",
                    key=unknown[0],
                    fields=", ".join(allowed or ()),
                ),
            )
        return value

    def get(self, node: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
        """The field ``key`` of ``node``, which must be there and of JSON type ``kind``."""
        if key not in node:
            raise self.fail(where, tr("missing field {key!r}.", key=key))
        value = node[key]
        if not _is(value, kind):
            raise self.fail(
                _join(where, key),
                tr(
                    "expected {expected}, got {kind}.",
                    expected=_JSON_TYPES[kind],
                    kind=_json_type(value),
                ),
            )
        return value

    def items(self, node: Mapping[str, Any], key: str, where: str) -> Iterator[tuple[str, Any]]:
        """Each item of the list field ``key``, with its path (``examples[3]``)."""
        for index, item in enumerate(self.get(node, key, list, where)):
            yield f"{_join(where, key)}[{index}]", item

    def text(self, node: Mapping[str, Any], key: str, where: str, *, empty: bool = False) -> str:
        """The string field ``key``; not blank unless ``empty`` allows it."""
        value: str = self.get(node, key, str, where)
        if not empty and not value.strip():
            raise self.fail(_join(where, key), tr("is empty."))
        return value

    def optional_text(self, node: Mapping[str, Any], key: str, where: str) -> str:
        """The string field ``key`` if the node has it, else ``""``."""
        return self.text(node, key, where) if key in node else ""

    def choice(
        self, node: Mapping[str, Any], key: str, where: str, choices: Collection[str]
    ) -> str:
        """The string field ``key``, one of ``choices``."""
        value = self.text(node, key, where)
        if value not in choices:
            raise self.fail(
                _join(where, key),
                tr("{value!r} is not one of: {choices}.", value=value, choices=", ".join(choices)),
            )
        return value

    def count(self, node: Mapping[str, Any], key: str, where: str) -> int:
        """The integer field ``key``, >= 0."""
        value: int = self.get(node, key, int, where)
        if value < 0:
            raise self.fail(
                _join(where, key), tr("expected a count >= 0, got {value}.", value=value)
            )
        return value

    def flag(self, node: Mapping[str, Any], key: str, where: str) -> bool:
        """The boolean field ``key`` if the node has it, else False."""
        return bool(self.get(node, key, bool, where)) if key in node else False

    def labels(self, node: Mapping[str, Any], key: str, where: str) -> tuple[int, ...]:
        """The list field ``key`` of 0/1 relevance labels, not empty."""
        labels = []
        for path, label in self.items(node, key, where):
            if not _is(label, int) or label not in (0, 1):
                raise self.fail(path, tr("expected 0 or 1, got {value}.", value=json.dumps(label)))
            labels.append(int(label))
        if not labels:
            raise self.fail(_join(where, key), tr("is empty."))
        return tuple(labels)

    def strings(self, node: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
        """The list field ``key`` of non-empty strings (``()`` if the node lacks it)."""
        values = []
        for path, value in self.items(node, key, where) if key in node else ():
            if not isinstance(value, str) or not value.strip():
                raise self.fail(
                    path,
                    tr(
                        "expected a non-empty string, got {value}.",
                        value=json.dumps(value, ensure_ascii=False),
                    ),
                )
            values.append(value)
        return tuple(values)

    def records(self, document: Any, key: str) -> Iterator[tuple[str, Mapping[str, Any], str]]:
        """Each object of the document's one list ``key``: its path, itself and its ``id``.

        The ids must be unique; each object's other fields are the caller's to check.
        """
        seen: set[str] = set()
        for where, item in self.items(self.node(document, "", {key}), key, ""):
            record = self.node(item, where)
            name = self.text(record, "id", where)
            if name in seen:
                raise self.fail(_join(where, "id"), tr("{id!r} is used twice.", id=name))
            seen.add(name)
            yield where, record, name


#: The JSON name of each Python type a field may have.
_JSON_TYPES = {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer"}


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _is(value: Any, kind: type) -> bool:
    """Whether a JSON value has the type ``kind`` (a bool is not an integer)."""
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def _json_type(value: Any) -> str:
    """The JSON name of the type of ``value`` (``object``, ``array``, ``string``...)."""
    if value is None:
        return "null"
    return _JSON_TYPES.get(type(value), "number")
