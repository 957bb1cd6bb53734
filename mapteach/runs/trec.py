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
work), then split into fields by numpy, a block of lines at a time. :func:`read_rows`
gives the arrays (numpy only: scoring a file imports no pandas); :func:`read_qrels` and
:func:`read_run` are their DataFrame view.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from mapteach.i18n import N_, ngettext, plural_message, tr
from mapteach.runs.lines import Ids, LineFields, checked_bytes, gather_fields, sorted_ids
from mapteach.runs.numbers import parse_number, parse_scores
from mapteach.sources import Source, read_bytes, source_name

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["TrecRows", "read_qrels", "read_rows", "read_run", "write_trec"]

_QRELS = ("query_id", "iteration", "doc_id", "relevance")


_RUN = ("query_id", "q0", "doc_id", "rank", "score", "tag")


#: Per kind: the fields of a line, the value column, and the value's field number.
TREC_KINDS = {"qrels": (_QRELS, "relevance", 3), "run": (_RUN, "score", 4)}
#: What messages call each kind and each value column (English messages, shown translated).
SHOWN_NAMES = {
    "qrels": N_("qrels"),
    "run": N_("run"),
    "relevance": N_("relevance"),
    "score": N_("score"),
}
FILE_NOUNS = {"qrels": N_("the qrels file"), "run": N_("the run file")}
#: What a message calls one row or several, per unit: lines (files), rows (frames), items.
UNITS = {
    "line": plural_message("line {numbers}", "lines {numbers}"),
    "row": plural_message("row {numbers}", "rows {numbers}"),
    "item": plural_message("item {numbers}", "items {numbers}"),
}


_TAG = 5  # a run line's field that holds the run's tag (trec_eval's runid)


_SCORE_ROWS = 1 << 12  # scores gathered and parsed at once


@dataclass(frozen=True)
class TrecRows:
    """Qrels or a run as arrays: ids as :class:`~mapteach.runs.lines.Ids`, one value a row.

    ``values`` are the grades (int64) or the scores (float64); ``tag`` is a run's tag
    as its last line gives it (trec_eval's ``runid``: get_trec_results.c keeps the last
    line's), None for qrels or a run without one.
    Every input (files, DataFrames, dicts, ranx, ir_datasets) becomes one of these.
    """

    query: Ids
    doc: Ids
    values: np.ndarray
    tag: str | None = None

    def frame(self, what: str) -> pd.DataFrame:
        """The DataFrame view: ``query_id``, ``doc_id`` (categoricals of str) and the value."""
        import pandas as pd  # the DataFrame view alone needs pandas

        def column(ids: Ids) -> pd.Categorical:
            categories = pd.CategoricalDtype(pd.Index(ids.strings()))
            return pd.Categorical.from_codes(ids.codes, dtype=categories)

        value = TREC_KINDS[what][1]
        return pd.DataFrame(
            {"query_id": column(self.query), "doc_id": column(self.doc), value: self.values}
        )


class RowNames:
    """Names rows in messages: the source, and lines (files) or rows (frames, dicts).

    ``what`` is the kind (``"qrels"`` or ``"run"``), ``unit`` what a row is called, and
    ``names`` turns row positions into the numbers or labels a message shows. The file
    readers and :mod:`mapteach.runs.frames` raise every error about a row through one.

    >>> lines = RowNames("run.txt", "run", "line", lambda at: (at + 1).tolist())
    >>> lines.rows(np.array([2, 8]))
    'lines 3, 9'
    >>> print(lines.value(0, RowNames.quoted("high"), "q1", "d1", "a finite number"))
    run.txt, line 1: score 'high' of query 'q1', document 'd1' is not a finite number.
    """

    def __init__(self, source: str, what: str, unit: str, names: Callable[[np.ndarray], Any]):
        self.source, self.what, self.unit, self.names = source, what, unit, names

    def rows(self, rows: np.ndarray) -> str:
        """``line 3`` or ``lines 3, 9`` (``row``/``rows``: index labels, or dict positions)."""
        numbers = tr(", ").join(map(str, self.names(rows)))
        return ngettext(*UNITS[self.unit], len(rows), numbers=numbers)

    @staticmethod
    def quoted(text: object) -> str:
        """``text`` in the quotes of the language shown: 'q1', or “q1” in Chinese."""
        return tr("'{text}'", text=text)

    def value(self, row: int, shown: str, query: Any, doc: Any, rule: str) -> ValueError:
        """The error for a bad grade or score; ``shown`` is its text :meth:`quoted`, or a
        number."""
        return ValueError(
            tr(
                "{source}, {rows}: {field} {shown} of query {query}, document {doc} is not {rule}.",
                source=self.source,
                rows=self.rows(np.array([row])),
                field=tr(SHOWN_NAMES[TREC_KINDS[self.what][1]]),
                shown=shown,
                query=self.quoted(query),
                doc=self.quoted(doc),
                rule=tr(rule),
            )
        )


def _values_from_text(
    texts: np.ndarray,
    integer: bool,
    where: RowNames,
    ids_of: Callable[[int], tuple[str, str]],
    offset: int = 0,
) -> np.ndarray:
    """Grades or scores from their text fields; the first bad one raises, naming its line.

    ``ids_of`` gives the query and the document of a row, for the message; ``offset``
    is the number of the first row.
    """
    if integer:  # few distinct grades: parse each once
        distinct = sorted_ids(texts)
        parsed = [parse_number(item.decode(), True) for item in distinct.labels.tolist()]
        bad = [i for i, (value, _) in enumerate(parsed) if value is None]
        if bad:
            row = int(np.flatnonzero(np.isin(distinct.codes, bad))[0])
            text, rule = distinct.text(row), parsed[distinct.codes[row]][1]
            raise where.value(offset + row, where.quoted(text), *ids_of(offset + row), rule)
        return np.array([value for value, _ in parsed], dtype=np.int64)[distinct.codes]
    values = parse_scores(texts)
    if values is not None:
        return values
    values = np.empty(texts.size)
    for row, item in enumerate(texts.tolist()):
        text = item.decode()
        number, rule = parse_number(text, False)
        if number is None:
            raise where.value(offset + row, where.quoted(text), *ids_of(offset + row), rule)
        values[row] = number
    return values


def _scores(
    data: bytes,
    starts: np.ndarray,
    lengths: np.ndarray,
    where: RowNames,
    ids_of: Callable[[int], tuple[str, str]],
) -> np.ndarray:
    """A run's scores, gathered and parsed a block of rows at a time (no texts kept)."""
    values = np.empty(starts.size)
    for begin in range(0, starts.size, _SCORE_ROWS):
        here = slice(begin, begin + _SCORE_ROWS)
        texts = gather_fields(data, starts[here], lengths[here])
        values[here] = _values_from_text(texts, False, where, ids_of, begin)
    return values


def check_unique_documents(query: Ids, doc: Ids, where: RowNames) -> None:
    """Raise if a document appears twice for one query, naming it and its rows.

    >>> from mapteach.runs.lines import sorted_ids
    >>> query = sorted_ids(np.array([b"q1", b"q1", b"q1"]))
    >>> doc = sorted_ids(np.array([b"d1", b"d2", b"d1"]))
    >>> rows = RowNames("the run", "run", "row", lambda at: at.tolist())
    >>> check_unique_documents(query, doc, rows)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the run: document 'd1' is listed 2 times for query 'q1' in the run (rows 0, 2); ...
    """
    key = query.codes.astype(np.int64) * max(len(doc.labels), 1) + doc.codes
    ordered = np.sort(key)
    repeated = ordered[1:][ordered[1:] == ordered[:-1]]
    if not repeated.size:
        return
    rows = np.flatnonzero(np.isin(key, repeated))
    same = rows[key[rows] == key[rows[0]]]
    raise ValueError(
        tr(
            "{source}: document {doc!r} is listed {times} times for query {query!r} in the "
            "{what} ({rows}); each document may appear once per query.",
            source=where.source,
            doc=doc.text(same[0]),
            times=len(same),
            query=query.text(same[0]),
            what=tr(SHOWN_NAMES[where.what]),
            rows=where.rows(same),
        )
    )


def _parse(held: list[bytes], name: str, what: str) -> TrecRows:
    """Split, check and convert a TREC file's bytes; warnings and errors name the lines.

    ``held`` holds the bytes and is emptied, so that they are freed (nothing else
    refers to them) as soon as their fields are gathered.
    """
    position = TREC_KINDS[what][2]
    qrels = what == "qrels"
    data = held.pop()
    lines = LineFields(data, (0, 2, position), hash_at_start=qrels)
    used = _used_lines(lines, name, what, bool(data))
    del lines.count, lines.comment
    # every line used (the common case): the rows are the lines, and a slice copies nothing
    rows = None if used.all() else np.flatnonzero(used)
    keep = slice(None) if rows is None else rows
    where = RowNames(
        name, what, "line", lambda at: (at + 1 if rows is None else rows[at] + 1).tolist()
    )
    tag = None if qrels else _tag(data, int(lines.starts[0][keep][-1]))
    # each field's offsets are freed once it is gathered; the query ids (runs of equal
    # ids, coded cheaply) are coded at once, the documents once the bytes are freed
    query = sorted_ids(gather_fields(data, lines.starts.pop(0)[keep], lines.lengths.pop(0)[keep]))
    texts = [gather_fields(data, lines.starts.pop(0)[keep], lines.lengths.pop(0)[keep])]
    starts, lengths = lines.starts.pop()[keep], lines.lengths.pop()[keep]
    del lines

    def ids_of(row: int) -> tuple[str, str]:
        return query.text(row), bytes(texts[0][row]).decode()

    if qrels:
        values = _values_from_text(gather_fields(data, starts, lengths), True, where, ids_of)
    else:
        values = _scores(data, starts, lengths, where, ids_of)
    del data, starts, lengths  # only the documents' fields are needed from here on
    doc = sorted_ids(texts.pop())
    check_unique_documents(query, doc, where)
    return TrecRows(query, doc, values, tag)


def _used_lines(lines: LineFields, name: str, what: str, has_bytes: bool) -> np.ndarray:
    """The lines that hold data; warnings for the skipped and errors for the malformed ones."""
    fields = TREC_KINDS[what][0]
    count, comment = lines.count, lines.comment
    for skipped, message in (
        (comment, N_("{name}: skipped {n} comment line(s) starting with '#', as trec_eval does.")),
        (count == 0, N_("{name}: skipped {n} blank line(s).")),
    ):
        if skipped.any():
            warnings.warn(tr(message, name=name, n=int(skipped.sum())), UserWarning, stacklevel=5)
    used = (count > 0) & ~comment
    if not used.any():
        empty = N_("{name}: {file} is empty (no line holds data).") if has_bytes else _EMPTY
        raise ValueError(tr(empty, name=name, file=tr(FILE_NOUNS[what])))
    expected = tr(
        "a {what} line has {n} fields: {fields}",
        what=tr(SHOWN_NAMES[what]),
        n=len(fields),
        fields=" ".join(fields),
    )
    extra = used & (count > len(fields))
    wrong = (used & (count < len(fields))) | (extra if what == "qrels" else False)
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
                line=int(np.argmax(extra)) + 1,
            ),
            UserWarning,
            stacklevel=5,
        )
    return used


_EMPTY = N_("{name}: {file} is empty.")


def _tag(data: bytes, start: int) -> str:
    """The tag (6th field) of the run line whose first field starts at byte ``start``."""
    end = data.find(b"\n", start)
    return data[start : None if end < 0 else end].split()[_TAG].decode()


def read_rows(source: Source, what: str) -> TrecRows:
    """Read a TREC qrels (``what="qrels"``) or run (``"run"``) file into arrays.

    As :func:`read_qrels` and :func:`read_run`, with numpy alone; the same rules,
    warnings and errors.

    >>> import io
    >>> run = read_rows(io.BytesIO(b"q1 Q0 d2 1 2.5 bm25\\nq1 Q0 d1 2 1.5 bm25\\n"), "run")
    >>> run.doc.labels.tolist(), run.doc.codes.tolist(), run.values.tolist(), run.tag
    ([b'd1', b'd2'], [1, 0], [2.5, 1.5], 'bm25')
    """
    name = source_name(source)
    # the bytes are held in the list alone, so that _parse frees them once gathered
    held = [read_bytes(source, name, tr(SHOWN_NAMES[what]), file_format="TREC")]
    held[0] = checked_bytes(held[0], name, tr(FILE_NOUNS[what]))
    return _parse(held, name, what)


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
    return read_rows(source, "qrels").frame("qrels")


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
    return read_rows(source, "run").frame("run")


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
    path = Path(path)  # writing from a DataFrame: pandas is loaded already
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
        raise ValueError(tr("kind must be 'qrels' or 'run'; got {kind!r}.", kind=kind))
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path
