"""Judgments saved as they are made: an append-only JSON-lines file per annotator.

Every change (a grade, a new reason, a clear) is one line, appended and flushed at
once to an append-only log (:mod:`mapteach.log`: one ``os.write`` under the file's
lock; the file is never truncated or rewritten)::

    {"annotator": "alice", "query": "劳动仲裁赔偿标准", "doc": "r3", "grade": 1,
     "reason": "R-OLD: repealed", "time": "2026-11-30T14:00:00Z", "guideline": "2026.1"}

A line is the whole state of one (query, document) judgment after the change;
``"grade": null`` is a clear. Replaying the file (the last line per document wins)
gives the judgments back, so a new board on the same file resumes where the last
one stopped.

What reading does with a line it cannot use, and never silently:

- not UTF-8, not JSON, fields missing or extra, a field of the wrong type, a time
  that is not ISO 8601 with a time zone: ``ValueError`` naming the file and the
  line (1-based);
- the **last** line, when it cannot be read and has no newline after it (a write cut
  short, by a crash or a full disk): a :class:`TruncatedLineWarning` naming the
  file and line, and the line is ignored (its judgment is lost; judge it again);
- the next write after such a line first ends it with a repair note, so the cut line
  is no longer last; reading keeps warning about it (and ignoring it) because the
  note names it. A line that cannot be read and is not named by a note is an error;
- blank lines are skipped.

Errors and warnings are in the current language (:func:`mapteach.i18n.tr`).

Introduced in ``12_judging_relevance``.

Examples
--------
>>> import pathlib, tempfile
>>> from mapteach.judging import Event, append_event, load_judgments
>>> path = pathlib.Path(tempfile.mkdtemp()) / "alice.jsonl"
>>> append_event(path, Event.now("alice", "q1", "d1", 2, "R-PART: the amount only", "v1"))
>>> append_event(path, Event.now("alice", "q1", "d2", 0, "", "v1"))
>>> append_event(path, Event.now("alice", "q1", "d1", None, "", "v1"))  # a clear
>>> load_judgments(path)
{'q1': {'d2': 0}}
"""

from __future__ import annotations

import numbers
import os
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import mapteach.log as log
from mapteach.i18n import N_, tr
from mapteach.log import TruncatedLineWarning

__all__ = [
    "Event",
    "TruncatedLineWarning",
    "append_event",
    "load_judgments",
    "read_events",
    "replay",
    "to_qrels",
]

_FIELDS: dict[str, type | tuple[type, ...]] = {
    "annotator": str,
    "query": str,
    "doc": str,
    "grade": (int, type(None)),
    "reason": str,
    "time": str,
    "guideline": str,
}


@dataclass(frozen=True)
class Event:
    """One change to one judgment: its state afterwards (``grade=None``: cleared)."""

    annotator: str
    query: str
    doc: str
    grade: int | None
    reason: str
    time: str
    guideline: str

    @classmethod
    def now(
        cls, annotator: str, query: str, doc: str, grade: int | None, reason: str, guideline: str
    ) -> Event:
        """The event, stamped with the current time (ISO 8601, UTC, whole seconds, ``Z``)."""
        return cls(annotator, query, doc, grade, reason, log.now(), guideline)


def _wrong_type(where: str, field: str, value: Any) -> str:
    kind = type(value).__name__
    if field == "grade":
        return tr(
            "{where}: field {field!r} is {kind} {value!r}, not an integer or null.",
            where=where,
            field=field,
            kind=kind,
            value=value,
        )
    return tr(
        "{where}: field {field!r} is {kind} {value!r}, not a string.",
        where=where,
        field=field,
        kind=kind,
        value=value,
    )


def _check_fields(record: Any, where: str) -> None:
    """Raise unless ``record`` is an object with exactly the event's fields, of their types."""
    log.check_object(
        record,
        where,
        _FIELDS,
        N_("{where}: not a judgment (missing fields {missing}, unknown fields {extra})."),
    )
    for field, kind in _FIELDS.items():
        if isinstance(record[field], bool) or not isinstance(record[field], kind):
            raise ValueError(_wrong_type(where, field, record[field]))


def _event(record: Any, where: str) -> Event:
    """The event ``record`` (at ``where``, a file and line) holds; a ValueError if none."""
    _check_fields(record, where)
    context = tr(
        "{where} (query {query!r}, document {doc!r})",
        where=where,
        query=record["query"],
        doc=record["doc"],
    )
    if record["grade"] is not None and record["grade"] < 0:
        raise ValueError(
            tr("{context}: grade {grade} is negative.", context=context, grade=record["grade"])
        )
    if log.parse_time(record["time"]) is None:
        raise ValueError(
            tr(
                "{context}: time {time!r} is not ISO 8601 with a time zone.",
                context=context,
                time=record["time"],
            )
        )
    return Event(**record)


#: What a judgments file holds, for :mod:`mapteach.log`.
JUDGMENTS = log.Schema(N_("judgments"), _event, N_("Judge it again."))


def append_event(path: str | os.PathLike, event: Event) -> None:
    """Append ``event`` as one JSON line and flush it to disk (``os.fsync``).

    The file and its folder are created if needed. If the file's last line was cut
    short, it is first ended and a repair note naming it is appended (see the module
    notes). Nothing already in the file is ever changed.

    Raises
    ------
    ValueError
        If the event would not read back (a field of the wrong type, a negative
        grade, a time without a time zone), before anything is written.
    """
    log.append(Path(path), asdict(event), JUDGMENTS)


def read_events(path: str | os.PathLike) -> list[tuple[int, Event]]:
    """Every event in the file with its line number; a missing file has none.

    Raises
    ------
    ValueError
        For a line that is not an event (naming the file and the line).

    Warns
    -----
    TruncatedLineWarning
        For a last line cut short, which is ignored (and for such a line that a
        later write repaired).

    Examples
    --------
    >>> import pathlib, tempfile, warnings
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "bob.jsonl"
    >>> append_event(path, Event.now("bob", "q1", "d1", 3, "", "v1"))
    >>> with open(path, "a", encoding="utf-8") as file:  # a crash in mid-write
    ...     _ = file.write('{"annotator": "bob", "query": "q1", "do')
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     events = read_events(path)
    >>> [(line, event.doc, event.grade) for line, event in events]
    [(1, 'd1', 3)]
    >>> print(str(caught[0].message).replace(str(path), "bob.jsonl"))
    bob.jsonl, line 2: cut short (a write that did not finish); ignored. Judge it again.
    >>> with open(path, "a", encoding="utf-8") as file:  # another program appends to it
    ...     _ = file.write("\\nhello\\n")
    >>> try:
    ...     read_events(path)
    ... except ValueError as error:
    ...     print(str(error).replace(str(path), "bob.jsonl"))
    bob.jsonl, line 2: not JSON (Unterminated string starting at: line 1 column 37).
    """
    return log.read(Path(path), JUDGMENTS, missing_ok=True)


def replay(events: list[tuple[int, Event]]) -> dict[str, dict[str, Event]]:
    """The judgments the events leave: ``{query: {doc: last event}}``, clears removed.

    Queries and documents keep the order they were first judged in.
    """
    state: dict[str, dict[str, Event]] = {}
    for _, event in events:
        docs = state.setdefault(event.query, {})
        if event.grade is None:
            docs.pop(event.doc, None)
        else:
            docs[event.doc] = event
    return {query: docs for query, docs in state.items() if docs}


def load_judgments(path: str | os.PathLike) -> dict[str, dict[str, int]]:
    """The judgments in a file, ``{query: {doc: grade}}``: the last line per document wins.

    A clear removes the document. Errors and warnings as :func:`read_events`.
    """
    return {
        query: {doc: event.grade for doc, event in docs.items() if event.grade is not None}
        for query, docs in replay(read_events(path)).items()
    }


def _check_id(query: Any, doc: Any, value: Any, *, is_query: bool) -> None:
    """Raise if ``value``, the query id (or the document id), cannot go in a TREC file."""
    fields = {"query": query, "doc": doc}
    if not isinstance(value, str):
        kind = type(value).__name__
        if is_query:
            message = tr(
                "query {query!r}, document {doc!r}: the query id is {kind}, not str.",
                kind=kind,
                **fields,
            )
        else:
            message = tr(
                "query {query!r}, document {doc!r}: the document id is {kind}, not str.",
                kind=kind,
                **fields,
            )
        raise TypeError(message)
    if not value or re.search(r"\s", value):
        if is_query:
            message = tr(
                "query {query!r}, document {doc!r}: the query id is empty or holds white "
                "space, which a TREC file cannot keep.",
                **fields,
            )
        else:
            message = tr(
                "query {query!r}, document {doc!r}: the document id is empty or holds white "
                "space, which a TREC file cannot keep.",
                **fields,
            )
        raise ValueError(message)


def to_qrels(judgments: Mapping[str, Mapping[str, int]], path: str | os.PathLike) -> Path:
    """Write judgments as a TREC qrels file (``query 0 doc grade``), UTF-8; return the path.

    Raises
    ------
    ValueError
        If a query or document id is empty or holds white space (TREC files split
        fields at white space), or a grade is not an integer.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from mapteach import read_qrels
    >>> path = to_qrels({"劳动仲裁赔偿标准": {"r1": 3, "r2": 0}},
    ...                 pathlib.Path(tempfile.mkdtemp()) / "alice.qrels")
    >>> print(path.read_text(encoding="utf-8"), end="")
    劳动仲裁赔偿标准 0 r1 3
    劳动仲裁赔偿标准 0 r2 0
    >>> read_qrels(path)["relevance"].tolist()
    [3, 0]
    """
    lines: list[str] = []
    for query, docs in judgments.items():
        for doc, grade in docs.items():
            _check_id(query, doc, query, is_query=True)
            _check_id(query, doc, doc, is_query=False)
            if query.startswith("#"):
                raise ValueError(
                    tr(
                        "query {query!r}, document {doc!r}: a line starting with '#' is a "
                        "comment to trec_eval, so this judgment would be lost; rename the query.",
                        query=query,
                        doc=doc,
                    )
                )
            if isinstance(grade, bool) or not isinstance(grade, numbers.Integral):
                raise ValueError(
                    tr(
                        "query {query!r}, document {doc!r}: grade {grade!r} is not int.",
                        query=query,
                        doc=doc,
                        grade=grade,
                    )
                )
            lines.append(f"{query} 0 {doc} {int(grade)}\n")
    path = Path(path)
    path.write_text("".join(lines), encoding="utf-8")
    return path
