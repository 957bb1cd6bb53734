"""Qrels and runs from DataFrames and dicts, checked as the file readers check them."""

from __future__ import annotations

import contextlib
import math
import numbers
import os
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from mapteach.i18n import ngettext, tr
from mapteach.runs.numbers import invalid_numbers, parse_number
from mapteach.runs.trec import (
    SHOWN_NAMES,
    TREC_KINDS,
    UNITS,
    RowNames,
    check_unique_documents,
    read_qrels,
    read_run,
)

__all__ = ["as_qrels", "as_run"]


def _id(value: Any) -> str | None:
    """An identifier as a string: str as is, an integer as its digits, else None."""
    if isinstance(value, str):
        return value
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        return str(int(value))
    return None


def _ids(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Identifiers (an object array) as strings, and which are missing or of a wrong type."""
    if pd.api.types.infer_dtype(values, skipna=False) == "string":
        return values, np.zeros(values.shape, bool)
    texts = np.array([_id(value) for value in values.tolist()], dtype=object)
    return texts, pd.isna(texts)


def _id_error(source: str, where: str, column: str, value: Any) -> Exception:
    """The error for a missing id (ValueError) or one of the wrong type (TypeError)."""
    value = value.item() if isinstance(value, np.generic) else value  # np.float64(1.0) -> 1.0
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
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
            "{source}, {where}: {column} {value!r} is a {type}; identifiers are strings, as in "
            "TREC files (an integer is taken as its digits, but a float such as 1.0 cannot be "
            "told from '1').",
            source=source,
            where=where,
            column=column,
            value=value,
            type=type(value).__name__,
        )
    )


def _id_column(column: pd.Series, name: str, source: str) -> Any:
    """A DataFrame's id column as str (categorical kept), or the error naming the row."""
    categorical = isinstance(column.dtype, pd.CategoricalDtype)
    values = (column.cat.categories if categorical else column).to_numpy(dtype=object)
    texts, bad = _ids(values)
    if categorical:
        codes = column.cat.codes.to_numpy()
        bad = (codes < 0) | bad[codes]
    if bad.any():
        row = int(np.argmax(bad))
        where = ngettext(*UNITS["row"], 1, numbers=column.index[row])
        raise _id_error(source, where, name, column.iloc[row])
    if texts is values:
        return column.array
    if not categorical:
        return texts
    if len(set(texts)) < len(texts):
        raise ValueError(
            tr(
                "{source}: the {name} categories {values!r} are not distinct as strings.",
                source=source,
                name=name,
                values=list(values),
            )
        )
    return column.cat.rename_categories(list(texts)).array


def _from_frame(data: pd.DataFrame, value: str, what: str) -> tuple[pd.DataFrame, RowNames]:
    missing = {"query_id", "doc_id", value} - set(data.columns)
    if missing:
        raise ValueError(
            tr(
                "the {what} DataFrame needs columns query_id, doc_id and {value}; missing "
                "{missing}.",
                what=tr(SHOWN_NAMES[what]),
                value=value,
                missing=", ".join(sorted(missing)),
            )
        )
    source = tr("the {what}", what=tr(SHOWN_NAMES[what]))
    frame = pd.DataFrame(
        {column: _id_column(data[column], column, source) for column in ("query_id", "doc_id")}
    )
    index = data.index
    where = RowNames(source, what, "row", lambda at: index[at].tolist())
    raw = data[value]
    numeric = isinstance(raw.dtype, np.dtype) and raw.dtype.kind in "biuf"
    frame[value] = raw.to_numpy() if numeric else raw.to_numpy(dtype=object)
    return frame, where


def _from_dict(data: Mapping, value: str, what: str) -> tuple[pd.DataFrame, RowNames]:
    shown = tr(SHOWN_NAMES[what])
    queries: list[Any] = []
    docs: list[Any] = []
    items: list[Any] = []
    for query, ranked in data.items():
        if not isinstance(ranked, Mapping):
            raise TypeError(
                tr(
                    "{what} dict: query {query!r} must map to a dict of document id -> {value}, "
                    "as in pytrec_eval; got {type}.",
                    what=what,
                    query=query,
                    value=value,
                    type=type(ranked).__name__,
                )
            )
        queries += [query] * len(ranked)
        docs += ranked.keys()
        items += ranked.values()
    frame = pd.DataFrame({value: pd.Series(items, dtype=object)})
    for column, keys in (("query_id", queries), ("doc_id", docs)):
        texts, bad = _ids(pd.Series(keys, dtype=object).to_numpy())
        if bad.any():
            row = int(np.argmax(bad))
            where = (
                tr("query {query!r}, document {doc!r}", query=queries[row], doc=docs[row])
                if column == "doc_id"
                else tr("query {query!r}", query=queries[row])
            )
            raise _id_error(tr("the {what} dict", what=shown), where, column, keys[row])
        frame.insert(len(frame.columns) - 1, column, texts)
    return frame, RowNames(tr("the {what}", what=shown), what, "row", lambda at: at.tolist())


def _numbers(raw: np.ndarray, integer: bool) -> tuple[np.ndarray, list[int]]:
    """A value column as numbers, and the rows that break the rule (the first few at least)."""
    if raw.dtype == object:  # Python numbers alone cast exactly; anything else one by one
        kind = pd.api.types.infer_dtype(raw, skipna=False)
        exact = ("integer", "floating") + (() if integer else ("mixed-integer-float",))
        if kind in exact:
            with contextlib.suppress(OverflowError):  # an int beyond int64: one by one, below
                raw = raw.astype(np.int64 if kind == "integer" else np.float64)
    if raw.dtype != object:
        return raw, np.flatnonzero(invalid_numbers(raw, integer)).tolist()
    parsed = [parse_number(item, integer) for item in raw.tolist()]
    bad = [row for row, (number, _) in enumerate(parsed) if number is None]
    return (raw if bad else np.array([number for number, _ in parsed])), bad


def _finish(frame: pd.DataFrame, where: RowNames, what: str) -> pd.DataFrame:
    """Check and convert a frame's value column, and reject duplicate documents."""
    value, integer = TREC_KINDS[what][1], what == "qrels"
    if frame.empty:
        raise ValueError(tr("the {what} holds no rows.", what=tr(SHOWN_NAMES[what])))
    raw = frame[value].to_numpy()
    checked, bad = _numbers(raw, integer)
    if bad:
        row = bad[0]
        item = raw[row]
        shown = repr(item) if isinstance(item, str) else str(item)
        rule = parse_number(item, integer)[1]
        raise where.value(row, shown, frame["query_id"][row], frame["doc_id"][row], rule)
    frame[value] = checked.astype(np.int64 if integer else np.float64)
    query, doc = (pd.factorize(frame[column])[0] for column in ("query_id", "doc_id"))
    check_unique_documents(query, doc, frame, where)
    return frame


def _is_source(data: Any) -> bool:
    return isinstance(data, (str, os.PathLike)) or hasattr(data, "read")


def _as(data: Any, what: str) -> pd.DataFrame:
    """Qrels or a run from a DataFrame or a dict (a source is for the file readers)."""
    value = TREC_KINDS[what][1]
    if isinstance(data, pd.DataFrame):
        frame, where = _from_frame(data, value, what)
    elif isinstance(data, Mapping):
        frame, where = _from_dict(data, value, what)
    else:
        raise TypeError(
            tr(
                "{what} must be a path, an open file, a DataFrame or a pytrec_eval-style dict; "
                "got {type}.",
                what=what,
                type=type(data).__name__,
            )
        )
    return _finish(frame, where, what)


def as_qrels(data: Any) -> pd.DataFrame:
    """Qrels from a path, an open file, a DataFrame or a pytrec_eval-style dict.

    Parameters
    ----------
    data : path, file, DataFrame or dict
        A TREC qrels file (as :func:`read_qrels`), a DataFrame with columns
        ``query_id, doc_id, relevance``, or ``{query_id: {doc_id: grade}}``. Ids are
        strings (an integer is taken as its digits); grades integers within int64
        (``2.0`` is 2).

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``doc_id`` (str, or categorical of str as
        :func:`read_qrels` gives) and ``relevance`` (int64).

    Raises
    ------
    ValueError
        On a missing column or id (NaN, None), a grade that is not an integer within
        int64, or a document judged twice for one query: the message names the row
        (DataFrame) or the query and the document (dict).
    TypeError
        On an id that is neither a string nor an integer (e.g. the float 1.0).

    Examples
    --------
    >>> from mapteach.runs import as_qrels
    >>> as_qrels({"q1": {"d1": 2, "007": 0}})
      query_id doc_id  relevance
    0       q1     d1          2
    1       q1    007          0
    >>> as_qrels({"q1": {"d1": 2**70}})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: the qrels, row 0: relevance 1180591620717411303424 of query 'q1', ... int64 ...
    """
    return read_qrels(data) if _is_source(data) else _as(data, "qrels")


def as_run(data: Any) -> pd.DataFrame:
    """A run from a path, an open file, a DataFrame or a pytrec_eval-style dict.

    Parameters
    ----------
    data : path, file, DataFrame or dict
        A TREC run file (as :func:`read_run`), a DataFrame with columns
        ``query_id, doc_id, score``, or ``{query_id: {doc_id: score}}``. Ids are
        strings (an integer is taken as its digits); scores finite numbers within
        the 32-bit float range trec_eval uses.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``doc_id`` (str, or categorical of str as :func:`read_run`
        gives) and ``score`` (float64).

    Raises
    ------
    ValueError
        On a missing column or id, a score that is not finite or overflows, or a
        document listed twice for one query: the message names the row or the query
        and the document.
    TypeError
        On an id that is neither a string nor an integer.

    Examples
    --------
    >>> import pandas as pd
    >>> from mapteach.runs import as_run
    >>> as_run({"q1": {"d1": 0.5, "d2": 1.5}})
      query_id doc_id  score
    0       q1     d1    0.5
    1       q1     d2    1.5
    >>> unnamed = pd.DataFrame({"query_id": ["q1", None], "doc_id": ["d1", "d2"], "score": [1, 2]})
    >>> as_run(unnamed)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: the run, row 1: query_id is missing (NaN or None); every row needs a query_id ...
    """
    return read_run(data) if _is_source(data) else _as(data, "run")
