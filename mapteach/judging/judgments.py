"""Judgments saved as they are made: an append-only JSON-lines file per annotator.

Every change (a grade, a new reason, a clear) is one line, appended and flushed at
once (the file is opened in append mode and never truncated or rewritten)::

    {"annotator": "alice", "query": "劳动仲裁赔偿标准", "doc": "r3", "grade": 1,
     "reason": "R-OLD: repealed", "time": "2026-11-30T14:00:00+00:00", "guideline": "2026.1"}

A line is the whole state of one (query, document) judgment after the change;
``"grade": null`` is a clear. Replaying the file (the last line per document wins)
gives the judgments back, so a new board on the same file resumes where the last
one stopped.

What reading does with a line it cannot use, and never silently:

- not JSON, fields missing or extra, a field of the wrong type, a time that is not
  ISO 8601 with a time zone: ``ValueError`` naming the file and the line (1-based);
- the **last** line, when it is not JSON and has no newline after it (a write cut
  short, by a crash or a full disk): a :class:`TruncatedLineWarning` naming the
  file and line, and the line is ignored (its judgment is lost; judge it again);
- the next write after such a line first ends it with a newline and then appends
  a repair note, ``{"repairs_line": N, "time": ...}``; from then on the cut line
  is no longer last, and reading warns about it again (and ignores it) because the
  note names it. A line that is not JSON and is not named by a note is an error.

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

import json
import numbers
import os
import re
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from mapteach.i18n import tr

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
_REPAIR = ("repairs_line", "time")


class TruncatedLineWarning(UserWarning):
    """The file's last line was cut short while it was written; it is ignored."""


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
        """The event, stamped with the current time (ISO 8601, UTC, whole seconds)."""
        return cls(annotator, query, doc, grade, reason, _now(), guideline)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _ends_cut(path: Path) -> int | None:
    """The number of the file's last line if it has no newline after it (else None)."""
    try:
        with open(path, "rb") as file:
            if file.seek(0, os.SEEK_END) == 0:
                return None
            file.seek(-1, os.SEEK_END)
            if file.read(1) == b"\n":
                return None
            file.seek(0)
            return sum(chunk.count(b"\n") for chunk in iter(lambda: file.read(1 << 20), b"")) + 1
    except FileNotFoundError:
        return None


def append_event(path: str | os.PathLike, event: Event) -> None:
    """Append ``event`` as one JSON line and flush it to disk (``os.fsync``).

    The file and its folder are created if needed. If the file's last line was cut
    short, it is first ended and a repair note naming it is appended (see the module
    notes). Nothing already in the file is ever changed.
    """
    path = Path(path)
    where = tr("{name}, the event to append", name=os.fsdecode(path))
    _event(where, json.loads(json.dumps(asdict(event))))
    path.parent.mkdir(parents=True, exist_ok=True)
    cut = _ends_cut(path)
    lines = ""
    if cut is not None:
        lines = "\n" + json.dumps({"repairs_line": cut, "time": _now()}) + "\n"
    lines += json.dumps(asdict(event), ensure_ascii=False) + "\n"
    with open(path, "a", encoding="utf-8") as file:
        file.write(lines)
        file.flush()
        os.fsync(file.fileno())


def _event(where: str, record: Any) -> Event:
    if not isinstance(record, dict):
        raise ValueError(
            tr(
                "{where}: expected a JSON object, got {kind}.",
                where=where,
                kind=type(record).__name__,
            )
        )
    if set(record) != set(_FIELDS):
        missing = sorted(set(_FIELDS) - set(record))
        extra = sorted(set(record) - set(_FIELDS))
        raise ValueError(
            tr(
                "{where}: not a judgment (missing fields {missing}, unknown fields {extra}).",
                where=where,
                missing=missing,
                extra=extra,
            )
        )
    for field, kind in _FIELDS.items():
        value = record[field]
        if isinstance(value, bool) or not isinstance(value, kind):
            kind_name = type(value).__name__
            if field == "grade":
                message = tr(
                    "{where}: field {field!r} is {kind} {value!r}, not an integer or null.",
                    where=where,
                    field=field,
                    kind=kind_name,
                    value=value,
                )
            else:
                message = tr(
                    "{where}: field {field!r} is {kind} {value!r}, not a string.",
                    where=where,
                    field=field,
                    kind=kind_name,
                    value=value,
                )
            raise ValueError(message)
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
    try:
        stamp = datetime.fromisoformat(record["time"])
    except ValueError:
        stamp = None
    if stamp is None or stamp.tzinfo is None:
        raise ValueError(
            tr(
                "{context}: time {time!r} is not ISO 8601 with a time zone.",
                context=context,
                time=record["time"],
            )
        )
    return Event(**record)


def _lines(path: Path) -> Iterator[tuple[int, str | None, str, bool]]:
    """(number, text or None, why it could not be read, ended by a newline) for each line."""
    name = os.fsdecode(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return
    except OSError as error:
        raise ValueError(
            tr(
                "{name}: cannot read the judgments file ({reason}).",
                name=name,
                reason=error.strerror,
            )
        ) from None
    lines = data.split(b"\n")
    for number, raw in enumerate(lines, start=1):
        ended = number < len(lines)
        if not raw and not ended:
            return
        try:
            yield number, raw.decode("utf-8"), "", ended
        except UnicodeDecodeError as error:
            yield number, None, tr("not UTF-8 (byte {byte})", byte=error.start + 1), ended


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
    path = Path(path)
    name = os.fsdecode(path)
    parsed: list[tuple[int, Any | None, str, bool]] = []
    for number, text, unreadable, ended in _lines(path):
        if text is None:
            parsed.append((number, None, unreadable, ended))
            continue
        try:
            parsed.append((number, json.loads(text), "", ended))
        except json.JSONDecodeError as error:
            problem = tr(
                "not JSON ({reason}: line 1 column {column})", reason=error.msg, column=error.colno
            )
            parsed.append((number, None, problem, ended))
    repaired = {
        record["repairs_line"]
        for _, record, _, _ in parsed
        if isinstance(record, dict) and set(record) == set(_REPAIR)
    }
    events = []
    for number, record, problem, ended in parsed:
        if record is None:
            if not ended or number in repaired:
                warnings.warn(
                    tr(
                        "{name}, line {line}: cut short (a write that did not finish); "
                        "ignored. Judge it again.",
                        name=name,
                        line=number,
                    ),
                    TruncatedLineWarning,
                    stacklevel=2,
                )
                continue
            raise ValueError(
                tr("{name}, line {line}: {problem}.", name=name, line=number, problem=problem)
            )
        if isinstance(record, dict) and set(record) == set(_REPAIR):
            continue
        where = tr("{name}, line {line}", name=name, line=number)
        events.append((number, _event(where, record)))
    return events


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
