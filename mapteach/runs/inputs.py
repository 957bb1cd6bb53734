"""Qrels and runs from every input the ecosystem hands over, as arrays (numpy only).

:func:`qrels_rows` and :func:`run_rows` take a TREC file (a path, an open file,
standard input), a DataFrame (``query_id, doc_id, relevance | score``, or PyTerrier's
``qid, docno, label | score``), a pytrec_eval dict (``{qid: {docid: value}}``), a ranx
``Qrels`` or ``Run``, or an iterable of ir_datasets-style namedtuples (``query_id,
doc_id, relevance`` or ``query_id, doc_id, score``, as ``GenericQrel`` and
``GenericScoredDoc``), and check each as the file readers check a file: ids are
strings (an integer is taken as its digits), grades integers within int64, scores
finite within float32's range, a document once per query. Errors name the row (the
index label of a DataFrame, the position of an item) or the query and the document.

Files and dicts need numpy alone; a DataFrame is read by :mod:`mapteach.runs.frames`
(its caller has pandas loaded already).
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import numpy as np

from mapteach.i18n import tr
from mapteach.runs.lines import Ids
from mapteach.runs.numbers import invalid_numbers, parse_number
from mapteach.runs.trec import (
    SHOWN_NAMES,
    TREC_KINDS,
    RowNames,
    TrecRows,
    check_unique_documents,
    read_rows,
)

__all__ = ["qrels_rows", "run_rows"]


def as_id(value: Any) -> str | None:
    """An identifier as a string: str as is, an integer as its digits, else None.

    >>> as_id("007"), as_id(7), as_id(7.0), as_id(True)
    ('007', '7', None, None)
    """
    if isinstance(value, str):
        return value
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        return str(int(value))
    return None


def id_error(source: str, where: str, column: str, value: Any) -> Exception:
    """The error for a missing id (ValueError) or one of the wrong type (TypeError)."""
    value = value.item() if isinstance(value, np.generic) else value  # np.float64(1.0) -> 1.0
    missing = value is None or (isinstance(value, float) and math.isnan(value))
    if missing or type(value).__name__ in ("NAType", "NaTType"):
        return ValueError(
            tr(
                "{source}, {where}: {column} is missing (NaN or None); every row needs a "
                "query_id and a doc_id.",
                source=source,
                where=where,
                column=column,
            )
        )
    return TypeError(
        tr(
            "{source}, {where}: {column} {value!r} is a {type}; identifiers are strings, as "
            "in TREC files (an integer is taken as its digits, but a float such as 1.0 "
            "cannot be told from '1').",
            source=source,
            where=where,
            column=column,
            value=value,
            type=type(value).__name__,
        )
    )


def ids_of_strings(texts: list[str], where: RowNames, column: str) -> Ids:
    """Ids from strings, sorted by code point (which is their UTF-8 byte order)."""
    if "\0" in "".join(texts):
        row = next(row for row, text in enumerate(texts) if "\0" in text)
        raise ValueError(
            tr(
                "{source}, {where}: {column} {text!r} holds a NUL character, which a TREC "
                "file cannot hold.",
                source=where.source,
                where=where.rows(np.array([row])),
                column=column,
                text=texts[row],
            )
        )
    distinct, codes = np.unique(np.array(texts, dtype=str), return_inverse=True)
    labels = np.array([text.encode() for text in distinct.tolist()], dtype=bytes)
    return Ids(codes.ravel().astype(np.int64), labels)


def _numbers(items: Sequence[Any] | np.ndarray, integer: bool) -> tuple[np.ndarray, list[int]]:
    """Values as numbers, and the rows that break the rule (the first few at least)."""
    if isinstance(items, np.ndarray) and items.dtype == object:
        items = items.tolist()  # Python numbers become a numeric array at once
    try:
        array = np.array(items)
    except (OverflowError, ValueError):
        array = np.array(items, dtype=object)
    exact = "biu" + ("f" if integer or array.dtype.kind == "f" else "")
    if array.dtype.kind in exact:
        return array, np.flatnonzero(invalid_numbers(array, integer)).tolist()
    parsed = [parse_number(item, integer) for item in items]
    bad = [row for row, (number, _) in enumerate(parsed) if number is None]
    return (array if bad else np.array([number for number, _ in parsed])), bad


def checked_rows(
    query: Ids, doc: Ids, items: Sequence[Any] | np.ndarray, where: RowNames, tag: str | None = None
) -> TrecRows:
    """Rows from ids and raw values: the values checked, duplicates refused."""
    what = where.what
    integer = what == "qrels"
    if len(items) == 0:
        raise ValueError(tr("the {what} holds no rows.", what=tr(SHOWN_NAMES[what])))
    values, bad = _numbers(items, integer)
    if bad:
        row = bad[0]
        item = items[row]
        shown = where.quoted(item) if isinstance(item, str) else str(item)
        rule = parse_number(item, integer)[1]
        raise where.value(row, shown, query.text(row), doc.text(row), rule)
    check_unique_documents(query, doc, where)
    return TrecRows(query, doc, values.astype(np.int64 if integer else np.float64), tag)


def _from_dict(data: Mapping, what: str, tag: str | None = None) -> TrecRows:
    """Rows from ``{query_id: {doc_id: value}}`` (pytrec_eval; ranx's ``to_dict()``)."""
    value = TREC_KINDS[what][1]
    queries: list[Any] = []
    docs: list[Any] = []
    items: list[Any] = []
    for query, ranked in data.items():
        if not isinstance(ranked, Mapping):
            raise TypeError(
                tr(
                    "{what} dict: query {query!r} must map to a dict of document id -> "
                    "{value}, as in pytrec_eval; got {type}.",
                    what=what,
                    query=query,
                    value=value,
                    type=type(ranked).__name__,
                )
            )
        queries += [query] * len(ranked)
        docs += ranked.keys()
        items += ranked.values()
    columns = {}
    for column, keys in (("query_id", queries), ("doc_id", docs)):
        texts = [as_id(key) for key in keys]
        if None in texts:
            row = texts.index(None)
            place = tr("query {query!r}", query=queries[row])
            if column == "doc_id":
                place += tr(", document {doc!r}", doc=docs[row])
            shown = tr("the {what} dict", what=tr(SHOWN_NAMES[what]))
            raise id_error(shown, place, column, keys[row])
        columns[column] = cast(list[str], texts)
    source = tr("the {what}", what=tr(SHOWN_NAMES[what]))
    where = RowNames(source, what, "row", lambda at: at.tolist())
    query, doc = (ids_of_strings(columns[name], where, name) for name in ("query_id", "doc_id"))
    return checked_rows(query, doc, items, where, tag)


def _from_records(data: Iterable[Any], what: str) -> TrecRows:
    """Rows from ir_datasets-style records: ``query_id``, ``doc_id`` and the value."""
    value = TREC_KINDS[what][1]
    columns: dict[str, list[Any]] = {"query_id": [], "doc_id": [], value: []}
    source = tr("the {what}", what=tr(SHOWN_NAMES[what]))
    for row, record in enumerate(data):
        for field, found in columns.items():
            try:
                found.append(getattr(record, field))
            except AttributeError:
                raise TypeError(
                    tr(
                        "{source}, item {row}: {record!r} has no field {field!r}; each item "
                        "needs query_id, doc_id and {value}, as ir_datasets' namedtuples have.",
                        source=source,
                        row=row,
                        record=record,
                        field=field,
                        value=value,
                    )
                ) from None
    where = RowNames(source, what, "item", lambda at: at.tolist())
    ids = {}
    for field in ("query_id", "doc_id"):
        texts = [as_id(key) for key in columns[field]]
        if None in texts:
            row = texts.index(None)
            raise id_error(source, tr("item {row}", row=row), field, columns[field][row])
        ids[field] = ids_of_strings(cast(list[str], texts), where, field)
    return checked_rows(ids["query_id"], ids["doc_id"], columns[value], where)


def _is_source(data: Any) -> bool:
    return isinstance(data, (str, os.PathLike)) or hasattr(data, "read")


def _is_dataframe(data: Any) -> bool:
    return type(data).__name__ == "DataFrame" and type(data).__module__.startswith("pandas")


def _is_ranx(data: Any) -> bool:
    return type(data).__module__.split(".")[0] == "ranx" and hasattr(data, "to_dict")


def rows_of(data: Any, what: str) -> TrecRows:
    """Qrels (``what="qrels"``) or a run (``"run"``) from any input the module names."""
    if _is_source(data):
        return read_rows(data, what)
    if _is_dataframe(data):
        from mapteach.runs.frames import rows_from_frame  # pandas is loaded: the data is one

        return rows_from_frame(data, what)
    if _is_ranx(data):
        tag = getattr(data, "name", None) if what == "run" else None
        return _from_dict(data.to_dict(), what, tag if isinstance(tag, str) else None)
    if isinstance(data, Mapping):
        return _from_dict(data, what)
    if isinstance(data, Iterable) and not isinstance(data, (bytes, bytearray)):
        return _from_records(data, what)
    raise TypeError(
        tr(
            "{what} must be a path, an open file, a DataFrame, a pytrec_eval-style dict, a "
            "ranx {ranx} or an iterable of ir_datasets-style namedtuples; got {type}.",
            what=what,
            ranx="Qrels" if what == "qrels" else "Run",
            type=type(data).__name__,
        )
    )


def qrels_rows(data: Any) -> TrecRows:
    """Qrels as arrays, from any input :func:`mapteach.runs.as_qrels` takes.

    Parameters
    ----------
    data : path, file, DataFrame, dict, ranx Qrels or iterable of namedtuples
        A TREC qrels file (a path or an open file), a DataFrame (``query_id, doc_id,
        relevance`` or PyTerrier's ``qid, docno, label``), ``{qid: {docid: grade}}``, a
        ranx ``Qrels``, or items with ``query_id, doc_id, relevance``.

    Returns
    -------
    TrecRows
        The query and document ids and the integer grades, one per judgment.

    Raises
    ------
    TypeError
        If ``data`` is none of these, or an id or an item has the wrong type.
    ValueError
        If a row is empty of an id, a grade is not an integer, a document is judged
        twice for a query, or there is no row; the message names the row.

    Examples
    --------
    >>> from collections import namedtuple
    >>> Qrel = namedtuple("Qrel", "query_id doc_id relevance")
    >>> qrels = qrels_rows([Qrel("q1", "d2", 1), Qrel("q1", "d1", 0)])
    >>> qrels.doc.strings(), qrels.doc.codes.tolist(), qrels.values.tolist()
    (['d1', 'd2'], [1, 0], [1, 0])
    >>> qrels_rows([Qrel("q1", "d1", 1), ("q1", "d2", 0)])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    TypeError: the qrels, item 1: ('q1', 'd2', 0) has no field 'query_id'; each item needs ...
    """
    return rows_of(data, "qrels")


def run_rows(data: Any) -> TrecRows:
    """A run as arrays, from any input :func:`mapteach.runs.as_run` takes.

    Parameters
    ----------
    data : path, file, DataFrame, dict, ranx Run or iterable of namedtuples
        A TREC run file (a path or an open file), a DataFrame (``query_id, doc_id,
        score`` or PyTerrier's ``qid, docno, score``), ``{qid: {docid: score}}``, a ranx
        ``Run`` (its ``name`` is the tag), or items with ``query_id, doc_id, score``.

    Returns
    -------
    TrecRows
        The query and document ids, the float scores, and the run's tag (or None).

    Raises
    ------
    TypeError
        If ``data`` is none of these, or an id or an item has the wrong type.
    ValueError
        If an id is missing, a score is not a finite number, a document is ranked
        twice for a query, or there is no row; the message names the row.

    Examples
    --------
    >>> run = run_rows({"q1": {"d1": 0.5, "d2": 1.5}})
    >>> run.query.strings(), run.values.tolist(), run.tag is None
    (['q1'], [0.5, 1.5], True)
    """
    return rows_of(data, "run")
