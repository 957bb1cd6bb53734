"""Qrels and runs from DataFrames (``query_id, doc_id, relevance | score``, or PyTerrier's
``qid, docno, label | score``), and the DataFrame view of every input.

:func:`as_qrels` and :func:`as_run` take whatever :mod:`mapteach.runs.inputs` reads (a
file, a DataFrame, a pytrec_eval dict, a ranx object, ir_datasets namedtuples) and give
it as a DataFrame, checked as the file readers check a file.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from mapteach.i18n import ngettext, tr
from mapteach.runs.inputs import as_id, checked_rows, id_error, ids_of_strings, rows_of
from mapteach.runs.lines import Ids
from mapteach.runs.trec import SHOWN_NAMES, TREC_KINDS, UNITS, RowNames, TrecRows

__all__ = ["as_qrels", "as_run", "rows_from_frame"]

#: PyTerrier's column names and the ones mapteach reads: topics and results use ``qid``
#: and ``docno``, its qrels ``label`` for the grade (its results may carry ``rank``).
PYTERRIER_COLUMNS = {"qid": "query_id", "docno": "doc_id", "label": "relevance"}


def _ids(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Identifiers (an object array) as strings, and which are missing or of a wrong type."""
    if pd.api.types.infer_dtype(values, skipna=False) == "string":
        return values, np.zeros(values.shape, bool)
    texts = np.array([as_id(value) for value in values.tolist()], dtype=object)
    return texts, pd.isna(texts)


def _id_column(column: pd.Series, name: str, where: RowNames) -> Ids:
    """A DataFrame's id column as :class:`Ids`, or the error naming the row."""
    categorical = isinstance(column.dtype, pd.CategoricalDtype)
    values = (column.cat.categories if categorical else column).to_numpy(dtype=object)
    texts, bad = _ids(values)
    if categorical:
        codes = column.cat.codes.to_numpy()
        bad = (codes < 0) | bad[codes]
    if bad.any():
        row = int(np.argmax(bad))
        place = ngettext(*UNITS["row"], 1, numbers=column.index[row])
        raise id_error(where.source, place, name, column.iloc[row])
    if not categorical:
        return ids_of_strings(texts.tolist(), where, name)
    if len(set(texts)) < len(texts):
        raise ValueError(
            tr(
                "{source}: the {name} categories {values!r} are not distinct as strings.",
                source=where.source,
                name=name,
                values=list(values),
            )
        )
    return ids_of_strings(texts[codes].tolist(), where, name)


def _pyterrier_names(data: pd.DataFrame, what: str) -> pd.DataFrame:
    """The frame with PyTerrier's column names read as mapteach's, where those are absent."""
    renamed = {
        theirs: ours
        for theirs, ours in PYTERRIER_COLUMNS.items()
        if theirs in data.columns
        and ours not in data.columns
        and (what, ours) != ("run", "relevance")
    }
    return data.rename(columns=renamed) if renamed else data


def rows_from_frame(data: pd.DataFrame, what: str) -> TrecRows:
    """Qrels or a run from a DataFrame, as arrays; errors name the row by its index label.

    >>> run = pd.DataFrame({"qid": ["q1", "q1"], "docno": ["d2", "d1"], "score": [2.0, 1.0]})
    >>> rows = rows_from_frame(run, "run")  # PyTerrier's names
    >>> rows.doc.strings(), rows.doc.codes.tolist()
    (['d1', 'd2'], [1, 0])
    """
    value = TREC_KINDS[what][1]
    data = _pyterrier_names(data, what)
    missing = {"query_id", "doc_id", value} - set(data.columns)
    shown = tr(SHOWN_NAMES[what])
    if missing:
        raise ValueError(
            tr(
                "the {what} DataFrame needs columns query_id, doc_id and {value}; missing "
                "{missing}. PyTerrier's qid, docno and {label} are read as those too.",
                what=shown,
                value=value,
                missing=tr(", ").join(sorted(missing)),
                label="label" if what == "qrels" else "score",
            )
        )
    index = data.index
    where = RowNames(tr("the {what}", what=shown), what, "row", lambda at: index[at].tolist())
    query, doc = (_id_column(data[column], column, where) for column in ("query_id", "doc_id"))
    raw = data[value]
    numeric = isinstance(raw.dtype, np.dtype) and raw.dtype.kind in "biuf"
    return checked_rows(
        query, doc, raw.to_numpy() if numeric else raw.to_numpy(dtype=object), where
    )


def _frame(data: Any, what: str) -> pd.DataFrame:
    """The DataFrame view of any input; ids stay strings where the input gave strings."""
    rows = rows_of(data, what)
    if isinstance(data, str) or hasattr(data, "read") or hasattr(data, "__fspath__"):
        return rows.frame(what)
    ids = {
        name: np.array(column.strings(), dtype=object)[column.codes]
        for name, column in (("query_id", rows.query), ("doc_id", rows.doc))
    }
    return pd.DataFrame({**ids, TREC_KINDS[what][1]: rows.values})


def as_qrels(data: Any) -> pd.DataFrame:
    """Qrels from a file, a DataFrame, a dict, a ranx ``Qrels`` or ir_datasets namedtuples.

    Parameters
    ----------
    data : path, file, DataFrame, dict, ranx Qrels or iterable of namedtuples
        A TREC qrels file (as :func:`read_qrels`), a DataFrame with columns
        ``query_id, doc_id, relevance`` (or PyTerrier's ``qid, docno, label``),
        ``{query_id: {doc_id: grade}}`` (pytrec_eval), a ranx ``Qrels``, or items
        with fields ``query_id, doc_id, relevance`` (ir_datasets' ``qrels_iter()``).
        Ids are strings (an integer is taken as its digits); grades integers within
        int64 (``2.0`` is 2).

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``doc_id`` (str; categorical of str from a file, as
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
    return _frame(data, "qrels")


def as_run(data: Any) -> pd.DataFrame:
    """A run from a file, a DataFrame, a dict, a ranx ``Run`` or ir_datasets namedtuples.

    Parameters
    ----------
    data : path, file, DataFrame, dict, ranx Run or iterable of namedtuples
        A TREC run file (as :func:`read_run`), a DataFrame with columns
        ``query_id, doc_id, score`` (or PyTerrier's ``qid, docno, score``; a ``rank``
        column is ignored), ``{query_id: {doc_id: score}}``, a ranx ``Run``, or items
        with fields ``query_id, doc_id, score`` (ir_datasets' ``scoreddocs_iter()``).
        Ids are strings (an integer is taken as its digits); scores finite numbers
        within the 32-bit float range trec_eval uses.

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
    return _frame(data, "run")
