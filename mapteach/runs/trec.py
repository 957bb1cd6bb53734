"""Reading TREC qrels and run files (and the same data from DataFrames or dicts).

- qrels: ``qid iter docid rel`` per line (``iter`` is ignored, as in trec_eval);
- run: ``qid Q0 docid rank score tag`` per line (``Q0`` and ``rank`` are ignored:
  trec_eval ranks by score).

Files are read as trec_eval 10 reads them (``get_qrels.c``, ``get_trec_results.c``):

- fields are separated by ASCII whitespace (space, tab, CR, VT, FF) and a line ends
  at LF, so Windows line ends are fine;
- identifiers are strings, byte for byte: ``01`` and ``1``, ``007`` and ``7``, ``inf``
  and ``Infinity`` are different queries or documents, and stay as written;
- comment lines are skipped, with one warning per file giving their count: in a run,
  a line whose first non-blank character is ``#``; in qrels, a line starting with ``#``;
- blank lines are skipped, with one warning per file (trec_eval rejects them in qrels);
- a qrels line has exactly 4 fields; a run line at least 6, and the fields after the
  sixth are ignored, with one warning per file;
- a grade is an integer within int64 (``2`` or ``2.0``); a score is a finite decimal
  number within the 32-bit float range trec_eval stores scores in (|score| < 3.4e38);
- a document appears once per query;
- the bytes are UTF-8, with no NUL byte and no byte-order mark; gzip data is
  recognised by its first two bytes (1f 8b), whatever the file is called.

Anything else raises ``ValueError`` naming the file, the line (1-based) and the rule.
Lines count from where reading began: the first line of a path, a pipe or standard
input; for an open file, its position when it was passed, which is never rewound (the
message then names that position, e.g. ``run.txt (from position 23), line 2``).

A source is read once, whole, into memory (so pipes, ``/dev/stdin`` and ``<(...)``
work), then split into fields by numpy, a block of lines at a time.
"""

from __future__ import annotations

import gzip
import os
import warnings
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from mapteach.i18n import N_, ngettext, plural_message, tr
from mapteach.runs.lines import LineFields, factorize_fields, gather_fields, ids_as_categorical
from mapteach.runs.numbers import parse_number, parse_scores
from mapteach.sources import Source, read_bytes, source_name

__all__ = ["read_qrels", "read_run", "write_trec"]

_QRELS = ("query_id", "iteration", "doc_id", "relevance")


_RUN = ("query_id", "q0", "doc_id", "rank", "score", "tag")


#: Per kind: the fields of a line, the value column, and the value's field number.
TREC_KINDS = {"qrels": (_QRELS, "relevance", 3), "run": (_RUN, "score", 4)}
#: What messages call each kind, each value column and each unit of rows (English messages).
SHOWN_NAMES = {
    "qrels": N_("qrels"),
    "run": N_("run"),
    "relevance": N_("relevance"),
    "score": N_("score"),
}
FILE_NOUNS = {"qrels": N_("the qrels file"), "run": N_("the run file")}
#: Python's reasons for a UTF-8 decoding error (``UnicodeDecodeError.reason``), translated
#: when a message shows them.
UTF8_REASONS = (
    N_("invalid start byte"),
    N_("invalid continuation byte"),
    N_("unexpected end of data"),
)
UNITS = {
    "line": plural_message("line {numbers}", "lines {numbers}"),
    "row": plural_message("row {numbers}", "rows {numbers}"),
}


class RowNames:
    """Names rows in messages: the source, and lines (files) or rows (frames, dicts).

    ``what`` is the kind (``"qrels"`` or ``"run"``), ``unit`` what a row is called, and
    ``names`` turns row positions into the numbers or labels a message shows. The file
    readers and :mod:`mapteach.runs.frames` raise every error about a row through one.

    >>> lines = RowNames("run.txt", "run", "line", lambda at: (at + 1).tolist())
    >>> lines.rows(np.array([2, 8]))
    'lines 3, 9'
    >>> print(lines.value(0, "'high'", "q1", "d1", "a finite number"))
    run.txt, line 1: score 'high' of query 'q1', document 'd1' is not a finite number.
    """

    def __init__(self, source: str, what: str, unit: str, names: Callable[[np.ndarray], Any]):
        self.source, self.what, self.unit, self.names = source, what, unit, names

    def rows(self, rows: np.ndarray) -> str:
        """``line 3`` or ``lines 3, 9`` (``row``/``rows``: index labels, or dict positions)."""
        numbers = tr(", ").join(map(str, self.names(rows)))
        return ngettext(*UNITS[self.unit], len(rows), numbers=numbers)

    def value(self, row: int, shown: str, query: Any, doc: Any, rule: str) -> ValueError:
        """The error for a bad grade or score; ``shown`` is its text's ``repr`` or a number."""
        return ValueError(
            tr(
                "{source}, {rows}: {field} {shown} of query {query!r}, document {doc!r} is not "
                "{rule}.",
                source=self.source,
                rows=self.rows(np.array([row])),
                field=tr(SHOWN_NAMES[TREC_KINDS[self.what][1]]),
                shown=shown,
                query=query,
                doc=doc,
                rule=tr(rule),
            )
        )


def _values_from_text(
    texts: np.ndarray, integer: bool, where: RowNames, queries: Any, docs: Any
) -> np.ndarray:
    """Grades or scores from their text fields; the first bad one raises, naming its line."""
    if integer:  # few distinct grades: parse each once
        codes, uniques = factorize_fields(texts)
        parsed = [parse_number(item.decode(), True) for item in uniques.tolist()]
        bad = [i for i, (value, _) in enumerate(parsed) if value is None]
        if bad:
            row = int(np.flatnonzero(np.isin(codes, bad))[0])
            text = uniques[codes[row]].decode()
            raise where.value(row, repr(text), queries[row], docs[row], parsed[codes[row]][1])
        return np.array([value for value, _ in parsed], dtype=np.int64)[codes]
    values = parse_scores(texts)
    if values is not None:
        return values
    values = np.empty(texts.size)
    for row, item in enumerate(texts.tolist()):
        text = item.decode()
        number, rule = parse_number(text, False)
        if number is None:
            raise where.value(row, repr(text), queries[row], docs[row], rule)
        values[row] = number
    return values


def check_unique_documents(
    query: np.ndarray, doc: np.ndarray, ids: pd.DataFrame, where: RowNames
) -> None:
    """Raise if a document appears twice for one query; ``query``/``doc`` are int codes.

    ``ids`` holds the ``query_id`` and ``doc_id`` of each row, for the message.

    >>> ids = pd.DataFrame({"query_id": ["q1", "q1", "q1"], "doc_id": ["d1", "d2", "d1"]})
    >>> rows = RowNames("the run", "run", "row", lambda at: at.tolist())
    >>> query, doc = np.array([0, 0, 0]), np.array([0, 1, 0])
    >>> check_unique_documents(query, doc, ids, rows)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the run: document 'd1' is listed 2 times for query 'q1' in the run (rows 0, 2); ...
    """
    key = query.astype(np.int64) * (int(doc.max()) + 1) + doc
    ordered = np.sort(key)
    repeated = ordered[1:][ordered[1:] == ordered[:-1]]
    if not repeated.size:
        return
    rows = np.flatnonzero(np.isin(key, repeated))
    same = rows[key[rows] == key[rows[0]]]
    first = ids.iloc[same[0]]
    raise ValueError(
        tr(
            "{source}: document {doc!r} is listed {times} times for query {query!r} in the "
            "{what} ({rows}); each document may appear once per query.",
            source=where.source,
            doc=first["doc_id"],
            times=len(same),
            query=first["query_id"],
            what=tr(SHOWN_NAMES[where.what]),
            rows=where.rows(same),
        )
    )


def _check_bytes(data: bytes, name: str, what: str) -> bytes:
    """Decompress gzip data; reject byte-order marks, NUL bytes and invalid UTF-8."""
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as error:
            raise ValueError(
                tr(
                    "{name}: {file} is gzip-compressed but cannot be decompressed ({error}).",
                    name=name,
                    file=tr(FILE_NOUNS[what]),
                    error=error,
                )
            ) from None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ValueError(
            tr(
                "{name}, line 1: {file} starts with a UTF-16 byte-order mark; "
                "trec_eval reads bytes, so save it as UTF-8.",
                name=name,
                file=tr(FILE_NOUNS[what]),
            )
        )
    if data.startswith(b"\xef\xbb\xbf"):
        raise ValueError(
            tr(
                "{name}, line 1: {file} starts with a UTF-8 byte-order mark, which "
                "trec_eval would read as part of the first query id; save it without one.",
                name=name,
                file=tr(FILE_NOUNS[what]),
            )
        )
    _check_text(data, name)
    return data


def _check_text(data: bytes, name: str) -> None:
    """Reject NUL bytes and invalid UTF-8, naming the line."""
    nul = data.find(b"\0")
    if nul >= 0:
        raise ValueError(
            tr(
                "{name}, line {line}: a NUL byte, which trec_eval cannot read (is the file "
                "UTF-16? save it as UTF-8).",
                name=name,
                line=_line_of(data, nul),
            )
        )
    if not data.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ValueError(
                tr(
                    "{name}, line {line}: bytes {bytes} are not valid UTF-8 ({reason}); TREC "
                    "files are UTF-8 text.",
                    name=name,
                    line=_line_of(data, error.start),
                    bytes=repr(data[error.start : error.end]),
                    reason=tr(error.reason),
                )
            ) from None


def _line_of(data: bytes, offset: int) -> int:
    """The 1-based line holding a byte offset."""
    return data.count(b"\n", 0, offset) + 1


def _used_lines(lines: LineFields, empty_data: bool, name: str, what: str) -> np.ndarray:
    """Which lines hold data; warn about the skipped and the extra fields, raise on a line
    with the wrong number of fields or on a file with no data."""
    fields = TREC_KINDS[what][0]
    qrels = what == "qrels"
    count, comment = lines.count, lines.comment
    shown = tr(SHOWN_NAMES[what])
    for skipped, kind in (
        (comment, N_("{name}: skipped {n} comment line(s) starting with '#', as trec_eval does.")),
        (count == 0, N_("{name}: skipped {n} blank line(s).")),
    ):
        if skipped.any():
            warnings.warn(tr(kind, name=name, n=int(skipped.sum())), UserWarning, stacklevel=5)
    used = (count > 0) & ~comment
    if not used.any():
        empty = N_("{name}: {file} is empty (no line holds data).")
        empty = N_("{name}: {file} is empty.") if empty_data else empty
        raise ValueError(tr(empty, name=name, file=tr(FILE_NOUNS[what])))
    expected = tr(
        "a {what} line has {n} fields: {fields}", what=shown, n=len(fields), fields=" ".join(fields)
    )
    extra = used & (count > len(fields))
    wrong = (used & (count < len(fields))) | (extra if qrels else False)
    if wrong.any():
        line = int(np.argmax(wrong))
        problem = N_("too few fields") if count[line] < len(fields) else N_("too many fields")
        raise ValueError(
            tr(
                "{name}, line {line}: {problem}; {expected}.",
                name=name,
                line=line + 1,
                problem=tr(problem),
                expected=expected,
            )
        )
    if extra.any():
        warnings.warn(
            tr(
                "{name}: ignored the fields after the 6th (the tag) on {n} line(s), first line "
                "{line}, as trec_eval does.",
                name=name,
                n=int(extra.sum()),
                line=np.argmax(extra) + 1,
            ),
            UserWarning,
            stacklevel=5,
        )
    return used


def _parse(data: bytes, name: str, what: str) -> pd.DataFrame:
    """Split, check and convert a TREC file's bytes; warnings and errors name the lines."""
    _, value, position = TREC_KINDS[what]
    qrels = what == "qrels"
    lines = LineFields(data, (0, 2, position), hash_at_start=qrels)
    used = _used_lines(lines, not data, name, what)
    rows = np.flatnonzero(used)
    keep = slice(None) if rows.size == used.size else rows  # a slice copies nothing
    texts = []
    while lines.starts:  # each field's offsets are freed once it is gathered
        texts.append(gather_fields(data, lines.starts.pop(0)[keep], lines.lengths.pop(0)[keep]))
    del data, lines  # only the fields' texts are needed from here on
    query, doc = ids_as_categorical(texts.pop(0)), ids_as_categorical(texts.pop(0))
    where = RowNames(name, what, "line", lambda at: (rows[at] + 1).tolist())
    numbers_ = _values_from_text(texts.pop(), qrels, where, query, doc)
    frame = pd.DataFrame({"query_id": query, "doc_id": doc, value: numbers_})
    check_unique_documents(query.codes, doc.codes, frame, where)
    return frame


def _load(source: Source, what: str) -> pd.DataFrame:
    name = source_name(source)
    data = read_bytes(source, name, what, file_format="TREC")
    return _parse(_check_bytes(data, name, what), name, what)


def read_qrels(source: Source) -> pd.DataFrame:
    """Read a TREC qrels file: ``qid iter docid rel`` per line, as trec_eval reads it.

    Introduced in ``11_evaluate_your_own_run``. The rules (comments, blank lines,
    identifiers kept as written, gzip) are in the module's docstring.

    Parameters
    ----------
    source : path or file-like
        A path (``str`` or path-like, ``/dev/stdin`` and ``/dev/fd/N`` included), or an
        open text or binary file, read from its current position. Gzip data is
        recognised by its first bytes.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id`` and ``doc_id`` (categorical, of str, exactly as written)
        and ``relevance`` (int64), one row per judgment, in file order.

    Raises
    ------
    ValueError
        On an unreadable or empty file, a line with other than 4 fields, a grade that
        is not an integer within int64, a document judged twice for one query, or bytes
        that are not UTF-8: the message names the file, the line and the rule.

    Warns
    -----
    UserWarning
        Once per file, with a count, for skipped comment (``#``) and blank lines.

    Examples
    --------
    >>> import io, warnings
    >>> from mapteach.runs import read_qrels
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     qrels = read_qrels(io.StringIO("# judged by hand\\n01 0 007 1\\n1 0 7 0\\n"))
    >>> print(caught[0].message)
    <buffer>: skipped 1 comment line(s) starting with '#', as trec_eval does.
    >>> qrels
      query_id doc_id  relevance
    0       01    007          1
    1        1      7          0
    """
    return _load(source, "qrels")


def read_run(source: Source) -> pd.DataFrame:
    """Read a TREC run file: ``qid Q0 docid rank score tag`` per line, as trec_eval reads it.

    The rank column is read but ignored: trec_eval ranks documents by score. Fields
    after the tag are ignored, with a warning. Introduced in ``11_evaluate_your_own_run``.

    Parameters
    ----------
    source : path or file-like
        As for :func:`read_qrels`: a path, or an open text or binary file, read from its
        current position; gzip data is recognised by its first bytes.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id`` and ``doc_id`` (categorical, of str, exactly as written)
        and ``score`` (float64), one row per retrieved document, in file order.

    Raises
    ------
    ValueError
        On an unreadable or empty file, a line with fewer than 6 fields, a score that
        is not a finite decimal number (``nan``, ``inf`` and ``1e39`` included), a
        document listed twice for one query, or bytes that are not UTF-8: the message
        names the file, the line and the rule.

    Warns
    -----
    UserWarning
        Once per file, with a count, for skipped comment (``#``) and blank lines and
        for lines with fields after the tag.

    Examples
    --------
    >>> import io
    >>> from mapteach.runs import read_run
    >>> read_run(io.BytesIO(b"1 Q0 007 1 2.5 bm25\\n1 Q0 7 2 1.5 bm25\\n"))
      query_id doc_id  score
    0        1    007    2.5
    1        1      7    1.5
    >>> read_run(io.StringIO("q1 Q0 d1 1 high bm25\\n"))
    Traceback (most recent call last):
    ValueError: <buffer>, line 1: score 'high' of query 'q1', document 'd1' is not a finite number.
    """
    return _load(source, "run")


#: Ids the readers would not read back: (the ids it is about, the rule, the message).
_UNWRITABLE_IDS = (
    (
        "query_id",
        r"^$|\s",
        N_(
            "query {query!r}, document {doc!r}: the query id is empty or holds white "
            "space, which a TREC file cannot keep."
        ),
    ),
    (
        "doc_id",
        r"^$|\s",
        N_(
            "query {query!r}, document {doc!r}: the document id is empty or holds white "
            "space, which a TREC file cannot keep."
        ),
    ),
    (
        "query_id",
        r"^#",
        N_(
            "query {query!r}, document {doc!r}: a line starting with '#' is a comment to "
            "trec_eval, so this line would be lost; rename the query."
        ),
    ),
)


def _check_writable_ids(frame: pd.DataFrame) -> None:
    """Raise, naming the query and the document, for an id the readers would not read back."""
    for column, rule, message in _UNWRITABLE_IDS:
        bad = np.flatnonzero(frame[column].str.contains(rule, regex=True).to_numpy(bool))
        if bad.size:
            row = frame.iloc[int(bad[0])]
            raise ValueError(tr(message, query=row["query_id"], doc=row["doc_id"]))


def write_trec(frame: pd.DataFrame, path: str | os.PathLike, *, kind: str) -> Path:
    """Write qrels or a run in TREC format, UTF-8 (used by the notebooks to make example files).

    Parameters
    ----------
    frame : pandas.DataFrame
        As :func:`read_qrels` or :func:`read_run` return.
    path : str or path-like
        Where to write.
    kind : {"qrels", "run"}
        The format; a run is written best score first per query, ranks from 1.

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    ValueError
        Naming the query and the document, before anything is written, if an id is
        empty or holds white space (the readers split fields at white space), or a
        query id starts with ``#`` (the line would be a comment).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from mapteach.runs import read_run, write_trec
    >>> run = read_run(__import__("io").StringIO("q1 Q0 d1 1 2.0 x\\nq1 Q0 d2 2 1.0 x\\n"))
    >>> path = write_trec(run, pathlib.Path(tempfile.mkdtemp()) / "run.txt", kind="run")
    >>> print(path.read_text(encoding="utf-8"), end="")
    q1 Q0 d1 1 2.0 mapteach
    q1 Q0 d2 2 1.0 mapteach
    >>> write_trec(run.assign(doc_id="d 1"), path, kind="run")
    Traceback (most recent call last):
    ValueError: query 'q1', document 'd 1': the document id is empty or holds white space, \
which a TREC file cannot keep.
    """
    path = Path(path)
    frame = frame.astype({"query_id": str, "doc_id": str})
    _check_writable_ids(frame)
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
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path
