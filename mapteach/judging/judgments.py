"""Judgments saved as they are made: an append-only JSON-lines file per annotator.

Every change (a grade, a new reason, a clear) is one line, appended and flushed at
once to an append-only log (:mod:`mapteach.log`: one ``os.write`` under the file's
lock; the file is never truncated or rewritten)::

    {"annotator": "alice", "query": "劳动仲裁赔偿标准", "doc": "r3", "grade": 1,
     "reason": "R-OLD: repealed", "time": "2026-11-30T14:00:00Z", "guideline": "2026.1",
     "phase": "blind", "seq": 7}

A line is the whole state of one (query, document) judgment after the change;
``"grade": null`` is a clear. Replaying the file (the last line per document wins)
gives the judgments back, so a new board on the same file resumes where the last
one stopped.

``phase`` says whether the annotator could have seen the answer: ``"blind"`` before
the query's reference judgments were revealed, ``"after_reveal"`` after. A reveal is
a line of its own, so a board started later still knows the query was revealed::

    {"annotator": "alice", "query": "劳动仲裁赔偿标准", "revealed": true,
     "time": "2026-11-30T14:05:00Z", "guideline": "2026.1", "seq": 8}

``seq`` numbers a file's lines 1, 2, 3, ...: each writer writes the last number it
read plus one, so a writer that finds a line it did not write knows that someone else
is writing to the file too. Lines written before phases and sequence numbers existed
have neither (their phase counts as blind).

Each annotator's file has a stable place, :func:`judgments_file`, in the folder
:func:`judgments_folder` names, so a restarted notebook finds it again.

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

import hashlib
import numbers
import os
import string
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pandas as pd

import mapteach.log as log
from mapteach.i18n import N_, tr
from mapteach.log import TruncatedLineWarning
from mapteach.runs.trec import write_trec

__all__ = [
    "FOLDER_VARIABLE",
    "PHASES",
    "Event",
    "Reveal",
    "TruncatedLineWarning",
    "append_event",
    "judgments_file",
    "judgments_folder",
    "last_record",
    "load_judgments",
    "read_events",
    "read_records",
    "record_of",
    "replay",
    "to_qrels",
]

#: The environment variable naming the folder of the judgments files.
FOLDER_VARIABLE = "MAPTEACH_JUDGMENTS"
DEFAULT_FOLDER = Path("~") / ".mapteach" / "judgments"
#: A judgment's phase: made before the query's reference was revealed, or after.
PHASES = ("blind", "after_reveal")
_SLUG_CHARACTERS = frozenset(string.ascii_lowercase + string.digits + "-")

_FIELDS: dict[str, type | tuple[type, ...]] = {
    "annotator": str,
    "query": str,
    "doc": str,
    "grade": (int, type(None)),
    "reason": str,
    "time": str,
    "guideline": str,
}
_REVEAL_FIELDS: dict[str, type | tuple[type, ...]] = {
    "annotator": str,
    "query": str,
    "revealed": bool,
    "time": str,
    "guideline": str,
}
#: Fields a line may leave out (lines written before they existed do).
_OPTIONAL: dict[str, type | tuple[type, ...]] = {"phase": str, "seq": int}


# --- where the files are -----------------------------------------------------------------


def judgments_folder() -> Path:
    """The folder the judgments files are kept in: ``MAPTEACH_JUDGMENTS``, else
    ``~/.mapteach/judgments/`` (``~`` expanded).

    Examples
    --------
    >>> import os, pathlib
    >>> chosen = os.environ.get("MAPTEACH_JUDGMENTS") or "~/.mapteach/judgments"
    >>> judgments_folder() == pathlib.Path(chosen).expanduser()
    True
    """
    configured = os.environ.get(FOLDER_VARIABLE, "").strip()
    return Path(configured or DEFAULT_FOLDER).expanduser()


def judgments_file(annotator: str, folder: str | os.PathLike | None = None) -> Path:
    """The file an annotator's judgments are kept in: the same one in every session.

    Its name is ``<slug>-<hash>.jsonl``: the slug keeps the name's lower-case ASCII
    letters, digits and ``-`` (it may be empty), the hash is the first 8 hex digits of
    the SHA-256 of the name (UTF-8), so two names never share a file. Spaces, ``/``
    and Chinese names are all fine; the name itself is kept inside the records.

    Parameters
    ----------
    annotator : str
        Who judges, as they write their name.
    folder : path, optional
        Where the file is; default :func:`judgments_folder`.

    Raises
    ------
    ValueError
        If ``annotator`` is not a non-empty string.

    Examples
    --------
    >>> judgments_file("Mei Lin", "team").as_posix()
    'team/meilin-d086ed7a.jsonl'
    >>> judgments_file("李雷", "team").name, judgments_file("a/b", "team").name
    ('-3a47328a.jsonl', 'ab-c14cddc0.jsonl')
    """
    if not isinstance(annotator, str) or not annotator.strip():
        raise ValueError(
            tr("annotator must be a non-empty name; got {annotator!r}.", annotator=annotator)
        )
    slug = "".join(c for c in annotator.lower() if c in _SLUG_CHARACTERS)
    digest = hashlib.sha256(annotator.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return Path(judgments_folder() if folder is None else folder) / f"{slug}-{digest}.jsonl"


# --- the records -------------------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    """One change to one judgment: its state afterwards (``grade=None``: cleared).

    ``phase`` is ``"blind"`` or ``"after_reveal"`` (None: a line written before phases
    existed, which counts as blind); ``seq`` is the line's number in its file's
    sequence (None: not numbered).
    """

    annotator: str
    query: str
    doc: str
    grade: int | None
    reason: str
    time: str
    guideline: str
    phase: str | None = None
    seq: int | None = None

    @classmethod
    def now(
        cls,
        annotator: str,
        query: str,
        doc: str,
        grade: int | None,
        reason: str,
        guideline: str,
        *,
        phase: str | None = "blind",
        seq: int | None = None,
    ) -> Event:
        """The event, stamped with the current time (ISO 8601, UTC, whole seconds, ``Z``)."""
        return cls(annotator, query, doc, grade, reason, log.now(), guideline, phase, seq)


@dataclass(frozen=True)
class Reveal:
    """The moment an annotator saw a query's reference judgments: later changes to the
    query's judgments are ``after_reveal``."""

    annotator: str
    query: str
    time: str
    guideline: str
    seq: int | None = None

    @classmethod
    def now(cls, annotator: str, query: str, guideline: str, *, seq: int | None = None) -> Reveal:
        """The reveal, stamped with the current time."""
        return cls(annotator, query, log.now(), guideline, seq)


def record_of(entry: Event | Reveal) -> dict[str, Any]:
    """The JSON object a line holds for ``entry`` (fields that are None left out).

    >>> record_of(Reveal("alice", "q1", "2026-11-30T14:05:00Z", "v1", seq=8))
    {'annotator': 'alice', 'query': 'q1', 'revealed': True, 'time': '2026-11-30T14:05:00Z', \
'guideline': 'v1', 'seq': 8}
    """
    fields = asdict(entry)
    if isinstance(entry, Reveal):
        fields = {"annotator": entry.annotator, "query": entry.query, "revealed": True, **fields}
    return {key: value for key, value in fields.items() if value is not None or key == "grade"}


#: The message for a field of the wrong type, by field (default: not a string).
_EXPECTED = {
    "grade": N_("{where}: field {field!r} is {kind} {value!r}, not an integer or null."),
    "seq": N_("{where}: field {field!r} is {kind} {value!r}, not a positive integer."),
    "revealed": N_("{where}: field {field!r} is {kind} {value!r}, not true."),
}
_NOT_A_STRING = N_("{where}: field {field!r} is {kind} {value!r}, not a string.")


def _fits(field: str, kind: type | tuple[type, ...], value: Any) -> bool:
    if field == "revealed":
        return value is True
    if isinstance(value, bool) or not isinstance(value, kind):
        return False
    return field != "seq" or (isinstance(value, int) and value >= 1)


def _check_fields(record: Any, where: str, fields: Mapping[str, Any], message: str) -> None:
    """Raise unless ``record`` is an object with ``fields`` (and optional ones), of their types."""
    if isinstance(record, dict):
        fields = {**fields, **{key: _OPTIONAL[key] for key in _OPTIONAL if key in record}}
    log.check_object(record, where, fields, message)
    for field, kind in fields.items():
        value = record[field]
        if not _fits(field, kind, value):
            template = _EXPECTED.get(field, _NOT_A_STRING)
            kind_name = type(value).__name__
            raise ValueError(tr(template, where=where, field=field, kind=kind_name, value=value))
    if "phase" in record and record["phase"] not in PHASES:
        raise ValueError(
            tr(
                "{where}: phase {phase!r} is not one of {phases}.",
                where=where,
                phase=record["phase"],
                phases=", ".join(PHASES),
            )
        )


def _check_time(record: dict[str, Any], context: str) -> None:
    if log.parse_time(record["time"]) is None:
        raise ValueError(
            tr(
                "{context}: time {time!r} is not ISO 8601 with a time zone.",
                context=context,
                time=record["time"],
            )
        )


def _event(record: dict[str, Any], where: str) -> Event:
    """The event ``record`` (at ``where``, a file and line) holds; a ValueError if none."""
    _check_fields(
        record,
        where,
        _FIELDS,
        N_("{where}: not a judgment (missing fields {missing}, unknown fields {extra})."),
    )
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
    _check_time(record, context)
    return Event(**record)


def _reveal(record: dict[str, Any], where: str) -> Reveal:
    """The reveal ``record`` holds; a ValueError if none."""
    _check_fields(
        record,
        where,
        _REVEAL_FIELDS,
        N_("{where}: not a reveal (missing fields {missing}, unknown fields {extra})."),
    )
    _check_time(record, tr("{where} (query {query!r})", where=where, query=record["query"]))
    return Reveal(**{key: value for key, value in record.items() if key != "revealed"})


def _record(record: Any, where: str) -> Event | Reveal:
    """The judgment or reveal a line holds: a line with ``revealed`` and no ``doc`` is a
    reveal, any other a judgment."""
    if isinstance(record, dict) and "revealed" in record and "doc" not in record:
        return _reveal(record, where)
    return _event(record, where)


#: What a judgments file holds, for :mod:`mapteach.log`.
JUDGMENTS = log.Schema(N_("judgments"), _record, N_("Judge it again."))


# --- writing and reading -----------------------------------------------------------------


def append_event(path: str | os.PathLike, event: Event | Reveal) -> None:
    """Append ``event`` (a judgment or a reveal) as one JSON line, flushed to disk.

    The file and its folder are created if needed. If the file's last line was cut
    short, it is first ended and a repair note naming it is appended (see the module
    notes). Nothing already in the file is ever changed.

    Raises
    ------
    ValueError
        If the event would not read back (a field of the wrong type, a negative
        grade, a time without a time zone, an unknown phase), before anything is written.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "ada.jsonl"
    >>> first = Event("ada", "q1", "d1", 2, "R-FULL", "2026-12-01T09:00:00Z", "2026.1", "blind", 1)
    >>> append_event(path, first)
    >>> append_event(path, Reveal("ada", "q1", "2026-12-01T09:01:00Z", "2026.1", 2))
    >>> [type(record).__name__ for _, record in read_records(path)]
    ['Event', 'Reveal']
    """
    log.append(Path(path), record_of(event), JUDGMENTS)


def read_records(path: str | os.PathLike) -> list[tuple[int, Event | Reveal]]:
    """Every judgment and reveal in the file with its line number; a missing file has none.

    Errors and warnings as :func:`read_events`.

    >>> import pathlib, tempfile
    >>> read_records(pathlib.Path(tempfile.mkdtemp()) / "nobody.jsonl")
    []
    """
    return log.read(Path(path), JUDGMENTS, missing_ok=True)


def read_events(path: str | os.PathLike) -> list[tuple[int, Event]]:
    """Every judgment in the file with its line number (reveals left out); a missing file
    has none.

    Raises
    ------
    ValueError
        For a line that is not a judgment or a reveal (naming the file and the line).

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
    return [(line, entry) for line, entry in read_records(path) if isinstance(entry, Event)]


def last_record(path: str | os.PathLike) -> Event | Reveal | None:
    """The file's last judgment or reveal (None if it has none), read cheaply.

    As :func:`mapteach.log.last` reads it: only the file's end, as :func:`read_records`
    would read it; a last line cut short is ignored (and warned about only by a full
    read). Unless the last line is longer than 64 KiB or is not a record: then the whole
    file is read, with :func:`read_records`' errors and warnings.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "alice.jsonl"
    >>> last_record(path) is None
    True
    >>> append_event(path, Event.now("alice", "q1", "d1", 3, "", "v1", seq=1))
    >>> append_event(path, Reveal.now("alice", "q1", "v1", seq=2))
    >>> with open(path, "a", encoding="utf-8") as file:  # a crash in mid-write
    ...     _ = file.write('{"annotator": "alice", "query": "q1", "do')
    >>> last_record(path).seq
    2
    """
    return log.last(Path(path), JUDGMENTS)


def replay(events: list[tuple[int, Event]]) -> dict[str, dict[str, Event]]:
    """The judgments the events leave: ``{query: {doc: last event}}``, clears removed.

    Queries and documents keep the order they were first judged in.

    >>> made = [Event("ada", "q1", doc, grade, "", "2026-12-01T09:00:00Z", "2026.1")
    ...         for doc, grade in [("d1", 2), ("d2", 1), ("d1", None)]]
    >>> state = replay(list(enumerate(made)))
    >>> {query: {doc: event.grade for doc, event in docs.items()} for query, docs in state.items()}
    {'q1': {'d2': 1}}
    """
    state: dict[str, dict[str, Event]] = {}
    for _, event in events:
        docs = state.setdefault(event.query, {})
        if event.grade is None:
            docs.pop(event.doc, None)
        else:
            docs[event.doc] = event
    return {query: docs for query, docs in state.items() if docs}


def load_judgments(
    path: str | os.PathLike, *, phase: str | None = None
) -> dict[str, dict[str, int]]:
    """The judgments in a file, ``{query: {doc: grade}}``: the last line per document wins.

    A clear removes the document. Errors and warnings as :func:`read_events`.

    Parameters
    ----------
    path : path
        The judgments file.
    phase : {None, "blind"}
        None: every judgment. ``"blind"``: only those made before the query's reference
        was revealed (and lines without a phase), so what the annotator did after seeing
        the answer does not count.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "alice.jsonl"
    >>> append_event(path, Event.now("alice", "q1", "d1", 1, "R-PART", "v1"))
    >>> append_event(path, Reveal.now("alice", "q1", "v1"))
    >>> append_event(path, Event.now("alice", "q1", "d1", 3, "", "v1", phase="after_reveal"))
    >>> load_judgments(path), load_judgments(path, phase="blind")
    ({'q1': {'d1': 3}}, {'q1': {'d1': 1}})
    """
    if phase not in (None, "blind"):
        raise ValueError(tr("phase must be None or 'blind'; got {phase!r}.", phase=phase))
    events = read_events(path)
    if phase == "blind":
        events = [(line, event) for line, event in events if event.phase in (None, "blind")]
    return {
        query: {doc: event.grade for doc, event in docs.items() if event.grade is not None}
        for query, docs in replay(events).items()
    }


def _check_id_type(query: Any, doc: Any, value: Any, *, is_query: bool) -> None:
    """Raise unless ``value``, the query id (or the document id), is a str."""
    if not isinstance(value, str):
        message = (
            N_("query {query!r}, document {doc!r}: the query id is {kind}, not str.")
            if is_query
            else N_("query {query!r}, document {doc!r}: the document id is {kind}, not str.")
        )
        raise TypeError(tr(message, query=query, doc=doc, kind=type(value).__name__))


def to_qrels(judgments: Mapping[str, Mapping[str, int]], path: str | os.PathLike) -> Path:
    """Write judgments as a TREC qrels file (``query 0 doc grade``), UTF-8; return the path.

    Raises
    ------
    ValueError
        From :func:`mapteach.runs.write_trec`, if a query or document id is empty or
        holds white space (TREC files split fields at white space) or a query id starts
        with ``#``; or if a grade is not an integer.
    TypeError
        If a query or document id is not a str.

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
    rows: list[tuple[str, str, int]] = []
    for query, docs in judgments.items():
        for doc, grade in docs.items():
            _check_id_type(query, doc, query, is_query=True)
            _check_id_type(query, doc, doc, is_query=False)
            if isinstance(grade, bool) or not isinstance(grade, numbers.Integral):
                raise ValueError(
                    tr(
                        "query {query!r}, document {doc!r}: grade {grade!r} is not int.",
                        query=query,
                        doc=doc,
                        grade=grade,
                    )
                )
            rows.append((query, doc, int(grade)))
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "relevance"], dtype=object)
    return write_trec(frame, path, kind="qrels")
