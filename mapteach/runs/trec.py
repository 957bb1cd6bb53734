"""Reading TREC qrels and run files (and the same data from DataFrames or dicts).

- qrels: ``qid 0 docid relevance`` (the second field is ignored, as in trec_eval);
- run: ``qid Q0 docid rank score tag`` (the rank column is ignored: trec_eval
  ranks by score).

Files stream through pandas' C parser. Every malformed line is an error that
names the file and the line; nothing is dropped silently.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

import numpy as np
import pandas as pd

__all__ = ["as_qrels", "as_run", "read_qrels", "read_run", "write_trec"]

Source = str | os.PathLike | IO[str] | IO[bytes]

_QRELS = ("query_id", "iteration", "doc_id", "relevance")
_RUN = ("query_id", "q0", "doc_id", "rank", "score", "tag")


def _name(source: Any) -> str:
    if isinstance(source, (str, os.PathLike)):
        return str(source)
    return getattr(source, "name", None) or "<buffer>"


def _read(source: Source, columns: tuple[str, ...], what: str) -> pd.DataFrame:
    """Read whitespace-separated fields as strings, one row per line, with line numbers."""
    name = _name(source)
    expected = f"a {what} line has {len(columns)} fields: {' '.join(columns)}"
    try:
        frame = pd.read_csv(
            source,
            sep=r"\s+",
            header=None,
            names=[*columns, "extra"],
            index_col=False,
            dtype=str,
            engine="c",
            skip_blank_lines=False,
            keep_default_na=False,
            na_values=[],
        )
    except pd.errors.EmptyDataError:
        raise ValueError(f"{name}: the {what} file is empty.") from None
    except pd.errors.ParserError as error:
        line = str(error).split(" in line ")[-1].split(",")[0]
        raise ValueError(f"{name}, line {line}: too many fields; {expected}.") from None
    except FileNotFoundError:
        raise ValueError(f"{name}: no such {what} file.") from None
    frame.insert(0, "line", np.arange(1, len(frame) + 1))
    blank = frame[columns[0]] == ""
    if blank.any():
        warnings.warn(
            f"{name}: skipped {int(blank.sum())} blank line(s).", UserWarning, stacklevel=3
        )
        frame = frame[~blank]
    for bad, problem in (
        (frame["extra"] != "", "too many fields"),
        (frame[columns[-1]] == "", "too few fields"),
    ):
        if bad.any():
            raise ValueError(
                f"{name}, line {frame.loc[bad, 'line'].iloc[0]}: {problem}; {expected}."
            )
    if frame.empty:
        raise ValueError(f"{name}: the {what} file is empty (no line holds data).")
    frame.attrs["source"] = name
    return frame


_FAST = {
    "qrels": ({0: "query_id", 2: "doc_id", 3: "relevance"}, 4),
    "run": ({0: "query_id", 2: "doc_id", 4: "score", 5: "tag"}, 6),
}


def _first_fields(source: Source) -> int:
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as lines:
            return len(lines.readline().split())
    position = source.tell()
    first = source.readline()
    source.seek(position)
    return len(first.split())


def _fast(source: Source, what: str) -> pd.DataFrame | None:
    """Parse a well-formed file straight into categoricals; None if anything looks off.

    Well-formed files (nearly all) skip the validating parser and its ten million
    Python strings; a file this path declines is read again by the validating
    parser, which names the offending line.
    """
    columns, fields = _FAST[what]
    value = "relevance" if what == "qrels" else "score"
    try:
        if _first_fields(source) != fields:
            return None
        # every column is read: with usecols, pandas drops extra fields silently
        frame = pd.read_csv(
            source,
            sep=r"\s+",
            header=None,
            engine="c",
            dtype={i: np.float64 if columns.get(i) == value else "category" for i in range(fields)},
            keep_default_na=False,
            na_values=[],
            skip_blank_lines=False,
        )[list(columns)].rename(columns=columns)
    except (ValueError, pd.errors.ParserError, pd.errors.EmptyDataError, OSError):
        return None
    finally:
        if hasattr(source, "seekable") and source.seekable():
            source.seek(0)
    values = frame[value].to_numpy()
    short = "tag" in frame and "" in frame["tag"].cat.categories
    if (
        frame.empty
        or short
        or "" in frame["query_id"].cat.categories
        or not np.isfinite(values).all()
    ):
        return None
    if what == "qrels" and (values != np.round(values)).any():
        return None
    key = frame["query_id"].cat.codes.to_numpy(np.int64) * len(frame["doc_id"].cat.categories)
    if pd.Series(key + frame["doc_id"].cat.codes.to_numpy()).duplicated().any():
        return None
    if what == "qrels":
        frame[value] = values.astype(np.int64)
    return frame[["query_id", "doc_id", value]]


def _numeric(frame: pd.DataFrame, column: str, what: str, *, integer: bool) -> pd.Series:
    values = pd.to_numeric(frame[column], errors="coerce").astype(np.float64)
    bad = ~np.isfinite(values)
    if integer:
        bad |= values != np.round(values)
    if bad.any():
        row = frame[bad].iloc[0]
        where = f"line {row['line']}" if "line" in frame else f"row {row.name}"
        rule = "an integer grade" if integer else "a finite number"
        value = row[column]
        shown = repr(value) if isinstance(value, str) else str(value)
        raise ValueError(
            f"{frame.attrs.get('source', 'input')}, {where}: {what} {shown} of query "
            f"{row['query_id']!r}, document {row['doc_id']!r} is not {rule}."
        )
    return values


def _check_duplicates(frame: pd.DataFrame, what: str) -> None:
    duplicated = frame.duplicated(["query_id", "doc_id"], keep=False)
    if duplicated.any():
        rows = frame[duplicated]
        first = rows.iloc[0]
        same = rows[(rows["query_id"] == first["query_id"]) & (rows["doc_id"] == first["doc_id"])]
        where = f"lines {', '.join(map(str, same['line']))}" if "line" in same else "more than once"
        raise ValueError(
            f"{frame.attrs.get('source', 'input')}: document {first['doc_id']!r} is listed "
            f"{len(same)} times for query {first['query_id']!r} in the {what} ({where}); "
            "each document may appear once per query."
        )


#: Per kind: the header fields of a line, the value column, whether it is an integer grade.
_KINDS = {"qrels": (_QRELS, "relevance", True), "run": (_RUN, "score", False)}


def _finish(frame: pd.DataFrame, what: str) -> pd.DataFrame:
    """Check and convert the value column, reject duplicates, keep the three columns."""
    _, value, integer = _KINDS[what]
    converted = _numeric(frame, value, value, integer=integer)
    frame[value] = converted.astype(np.int64 if integer else np.float64)
    _check_duplicates(frame, what)
    return frame[["query_id", "doc_id", value]].reset_index(drop=True)


def _load(source: Source, what: str) -> pd.DataFrame:
    """The fast categorical parser for clean files, else the validating one."""
    fast = _fast(source, what)
    return fast if fast is not None else _finish(_read(source, _KINDS[what][0], what), what)


def read_qrels(source: Source) -> pd.DataFrame:
    """Read a TREC qrels file: ``qid 0 docid relevance`` per line.

    Introduced in ``11_evaluate_your_own_run``.

    Parameters
    ----------
    source : path or file-like
        A path, or an open text or binary buffer.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``doc_id`` (categorical for files that parse cleanly,
        else str) and ``relevance`` (int64).

    Raises
    ------
    ValueError
        On an empty file, a line with the wrong number of fields, a grade that is
        not an integer, or a document judged twice for one query: the message
        names the file and the line.

    Examples
    --------
    >>> import io
    >>> from mapteach.runs.trec import read_qrels
    >>> read_qrels(io.StringIO("q1 0 d1 1\\nq1 0 d2 0\\n"))[["query_id", "doc_id", "relevance"]]
      query_id doc_id  relevance
    0       q1     d1          1
    1       q1     d2          0
    """
    return _load(source, "qrels")


def read_run(source: Source) -> pd.DataFrame:
    """Read a TREC run file: ``qid Q0 docid rank score tag`` per line.

    The rank column is read but ignored: trec_eval ranks documents by score.
    Introduced in ``11_evaluate_your_own_run``.

    Parameters
    ----------
    source : path or file-like
        A path, or an open text or binary buffer.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``doc_id`` (categorical for files that parse cleanly,
        else str) and ``score`` (float64).

    Raises
    ------
    ValueError
        On an empty file, a line with the wrong number of fields, a score that is
        not a finite number (NaN included), or a document listed twice for one
        query: the message names the file and the line.

    Examples
    --------
    >>> import io
    >>> from mapteach.runs.trec import read_run
    >>> read_run(io.StringIO("q1 Q0 d1 1 2.5 bm25\\n"))[["query_id", "doc_id", "score"]]
      query_id doc_id  score
    0       q1     d1    2.5
    """
    return _load(source, "run")


def _is_source(data: Any) -> bool:
    return isinstance(data, (str, os.PathLike)) or hasattr(data, "read")


def _table(data: Any, value: str, what: str) -> pd.DataFrame:
    """A DataFrame or pytrec_eval-style dict as ``query_id, doc_id, <value>`` rows."""
    if isinstance(data, pd.DataFrame):
        missing = {"query_id", "doc_id", value} - set(data.columns)
        if missing:
            raise ValueError(
                f"the {what} DataFrame needs columns query_id, doc_id and {value}; missing "
                f"{', '.join(sorted(missing))}."
            )
        frame = data[["query_id", "doc_id", value, *(["line"] if "line" in data else [])]].copy()
        for column in ("query_id", "doc_id"):
            if isinstance(frame[column].dtype, pd.CategoricalDtype):
                frame[column] = frame[column].cat.rename_categories(str)
            else:
                frame[column] = frame[column].astype(str)
    elif isinstance(data, Mapping):
        rows = []
        for query, docs in data.items():
            if not isinstance(docs, Mapping):
                raise TypeError(
                    f"{what} dict: query {query!r} must map to a dict of document id -> "
                    f"{value}, as in pytrec_eval; got {type(docs).__name__}."
                )
            rows += [(str(query), str(doc), item) for doc, item in docs.items()]
        frame = pd.DataFrame(rows, columns=["query_id", "doc_id", value])
    else:
        raise TypeError(
            f"{what} must be a path, an open file, a DataFrame or a pytrec_eval-style dict; "
            f"got {type(data).__name__}."
        )
    if frame.empty:
        raise ValueError(f"the {what} holds no rows.")
    frame.attrs["source"] = f"the {what}"
    return frame


def as_qrels(data: Any) -> pd.DataFrame:
    """Qrels from a path, buffer, DataFrame (``query_id, doc_id, relevance``) or dict.

    Examples
    --------
    >>> from mapteach.runs.trec import as_qrels
    >>> as_qrels({"q1": {"d1": 2, "d2": 0}})
      query_id doc_id  relevance
    0       q1     d1          2
    1       q1     d2          0
    """
    return (
        _load(data, "qrels")
        if _is_source(data)
        else _finish(_table(data, "relevance", "qrels"), "qrels")
    )


def as_run(data: Any) -> pd.DataFrame:
    """A run from a path, buffer, DataFrame (``query_id, doc_id, score``) or dict.

    Examples
    --------
    >>> from mapteach.runs.trec import as_run
    >>> as_run({"q1": {"d1": 0.5, "d2": 1.5}})
      query_id doc_id  score
    0       q1     d1    0.5
    1       q1     d2    1.5
    """
    return _load(data, "run") if _is_source(data) else _finish(_table(data, "score", "run"), "run")


def write_trec(frame: pd.DataFrame, path: str | os.PathLike, *, kind: str) -> Path:
    """Write qrels or a run in TREC format (used by the notebooks to make example files).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from mapteach.runs.trec import read_run, write_trec
    >>> run = read_run(__import__("io").StringIO("q1 Q0 d1 1 2.0 x\\nq1 Q0 d2 2 1.0 x\\n"))
    >>> path = write_trec(run, pathlib.Path(tempfile.mkdtemp()) / "run.txt", kind="run")
    >>> print(path.read_text(), end="")
    q1 Q0 d1 1 2.0 mapteach
    q1 Q0 d2 2 1.0 mapteach
    """
    path = Path(path)
    frame = frame.astype({"query_id": str, "doc_id": str})
    if kind == "qrels":
        lines = frame["query_id"] + " 0 " + frame["doc_id"] + " " + frame["relevance"].astype(str)
    elif kind == "run":
        ordered = frame.sort_values(["query_id", "score"], ascending=[True, False], kind="stable")
        rank = ordered.groupby("query_id").cumcount() + 1
        lines = (
            ordered["query_id"]
            + " Q0 "
            + ordered["doc_id"]
            + " "
            + rank.astype(str)
            + " "
            + ordered["score"].astype(str)
            + " mapteach"
        )
    else:
        raise ValueError(f"kind must be 'qrels' or 'run'; got {kind!r}.")
    path.write_text("\n".join(lines) + "\n")
    return path
