"""One append-only log: JSON lines, each record appended whole, nothing ever rewritten.

Standard library only. The progress store (:mod:`mapteach.classroom.progress_log`) and
the judgments store (:mod:`mapteach.judging.judgments`) keep their records here. Each
describes its records with a :class:`Schema`, whose ``validate`` checks a record both
before it is written and when it is read, so nothing invalid reaches the file.

Writing
-------
:func:`append` opens the file with ``O_APPEND | O_CREAT`` (creating its folder), takes
the file's advisory lock (``fcntl.flock`` on POSIX, ``msvcrt.locking`` on Windows),
writes the record with one ``os.write`` and flushes it to disk (``os.fsync``).
Appends from several processes never interleave, and nothing already in the file is
changed, truncated or rewritten.

Reading, and never silently losing a line
-----------------------------------------
:func:`read` reads the file once, under the same lock (so it never sees half a record):

- blank lines hold no record and are skipped;
- a line that is not UTF-8, not JSON, or a record the schema refuses is a
  ``ValueError`` naming the file and the line (1-based); with ``skip_corrupt=True``
  it is a :class:`CorruptLineWarning` and the line is skipped;
- the **last** line, when no newline ends it and it cannot be read, is a write cut
  short (a crash, a full disk): a :class:`TruncatedLineWarning` naming the file and
  the line, and the line is ignored;
- :func:`last` reads only the file's end, passing over a cut last line unwarned;
- the next append first ends such a line with a newline and a repair note,
  ``{"repairs_line": N, "time": ...}``, written with its record in the same
  ``os.write``. Reading skips the notes, and keeps warning about (and ignoring) the
  lines they name.

Time
----
:func:`now` stamps records in UTC, ISO 8601 with ``Z`` (``2026-11-30T14:00:00Z``);
:func:`parse_time` reads ISO 8601 with a time zone the same way on every Python the
package supports (``datetime.fromisoformat`` reads ``Z`` only from Python 3.11 on).

Examples
--------
>>> import pathlib, tempfile, warnings
>>> def note(record, where):  # a schema: {"text": a string, "time": a time}
...     if not isinstance(record, dict) or set(record) != {"text", "time"}:
...         raise ValueError(f"{where}: not a note")
...     return record["text"]
>>> NOTES = Schema("notes", note, "Write it again.")
>>> path = pathlib.Path(tempfile.mkdtemp()) / "notes.jsonl"
>>> append(path, {"text": "平均精度", "time": now()}, NOTES)
>>> with open(path, "ab") as file:  # a crash in mid-write
...     _ = file.write(b'{"text": "cut')
>>> append(path, {"text": "after", "time": now()}, NOTES)
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     read(path, NOTES)
[(1, '平均精度'), (4, 'after')]
>>> print(str(caught[0].message).replace(str(path), "notes.jsonl"))
notes.jsonl, line 2: cut short (a write that did not finish); ignored. Write it again.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import sys
import warnings
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Generic, TypeVar

from mapteach.i18n import tr
from mapteach.sources import read_bytes, source_name

if sys.platform == "win32":
    import msvcrt
else:
    import fcntl

__all__ = [
    "CorruptLineWarning",
    "Schema",
    "TruncatedLineWarning",
    "append",
    "check_object",
    "last",
    "now",
    "parse_time",
    "read",
]

Record = TypeVar("Record")

#: The fields of a repair note, which ends a cut line and names it.
REPAIR_FIELDS = ("repairs_line", "time")

#: ISO 8601 with a time zone: date, ``T`` (or ``t``, or a space), hours and minutes,
#: optional seconds and fraction, then ``Z`` or an offset ``+HH:MM``, ``+HHMM`` or ``+HH``.
_ISO_TIME = re.compile(
    r"(\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d)(?::(\d\d)(?:[.,](\d+))?)?"
    r"(?:[Zz]|([+-])(\d\d)(?::?(\d\d))?)",
    re.ASCII,
)

#: How much of a log's end :func:`last` reads: records are far shorter.
_TAIL_BYTES = 1 << 16

#: The byte Windows locks (``msvcrt`` locks are mandatory): far past any record.
_WINDOWS_LOCK_BYTE = 1 << 40


class TruncatedLineWarning(UserWarning):
    """A log's last line was cut short while it was written; it is ignored."""


class CorruptLineWarning(UserWarning):
    """A line of a log could not be read and was skipped (``skip_corrupt=True``)."""


@dataclass(frozen=True)
class Schema(Generic[Record]):
    """What a log holds, as its user describes it.

    Attributes
    ----------
    what : str
        The kind of file, in English (``"progress"``); messages translate it.
    validate : callable
        ``validate(record, where)``: the value a parsed JSON line stands for, or a
        ``ValueError`` whose message begins with ``where`` (the file and line).
    redo : str
        What to do about a record lost to a cut line (``"Judge it again."``), in
        English; messages translate it.
    """

    what: str
    validate: Callable[[Any, str], Record]
    redo: str


# --- time --------------------------------------------------------------------------------


def now() -> str:
    """The current time in UTC, ISO 8601 with whole seconds and ``Z``.

    Examples
    --------
    >>> stamp = now()
    >>> len(stamp), stamp[10], stamp[-1], parse_time(stamp).utcoffset()
    (20, 'T', 'Z', datetime.timedelta(0))
    """
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_time(text: object) -> datetime | None:
    """The time ``text`` gives, if it is ISO 8601 with a time zone; else None.

    The same on every Python version: ``YYYY-MM-DD``, then ``T`` (``t`` or a space),
    ``HH:MM`` with optional ``:SS`` and fraction (``.`` or ``,``, any number of digits,
    kept to the microsecond), then ``Z`` (``z``) or an offset ``±HH:MM``, ``±HHMM``
    or ``±HH``.

    Examples
    --------
    >>> parse_time("2026-11-30T14:00:00Z")
    datetime.datetime(2026, 11, 30, 14, 0, tzinfo=datetime.timezone.utc)
    >>> parse_time("2026-11-30 22:00:00.5+0800").isoformat()
    '2026-11-30T22:00:00.500000+08:00'
    >>> parse_time("2026-11-30T14:00:00") is None  # no time zone
    True
    """
    match = _ISO_TIME.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        return None
    *fields, fraction, sign, offset_hours, offset_minutes = match.groups()
    hours, minutes = int(offset_hours or 0), int(offset_minutes or 0)
    if hours > 23 or minutes > 59:
        return None
    offset = timedelta(hours=hours, minutes=minutes) * (-1 if sign == "-" else 1)
    microseconds = int((fraction or "")[:6].ljust(6, "0"))
    year, month, day, hour, minute, second = (int(field or 0) for field in fields)
    try:
        return datetime(
            year, month, day, hour, minute, second, microseconds, tzinfo=timezone(offset)
        )
    except ValueError:  # no such day, hour, minute or second
        return None


# --- writing -----------------------------------------------------------------------------


@contextlib.contextmanager
def _locked(fd: int, *, shared: bool) -> Iterator[None]:
    """Hold the file's advisory lock: one writer at a time, and no reader meanwhile.

    Readers share the lock on POSIX; Windows has no shared lock, so they take turns.
    """
    if sys.platform == "win32":
        os.lseek(fd, _WINDOWS_LOCK_BYTE, os.SEEK_SET)
        while True:
            try:
                msvcrt.locking(fd, msvcrt.LK_LOCK, 1)
                break
            except OSError as error:  # LK_LOCK gives up after 10 s: someone is still at it
                if error.errno != errno.EDEADLOCK:
                    raise
        try:
            yield
        finally:
            os.lseek(fd, _WINDOWS_LOCK_BYTE, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    else:
        fcntl.flock(fd, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)


def _encode(record: Mapping[str, Any]) -> bytes:
    """One JSON line; characters UTF-8 cannot hold (lone surrogates) are escaped."""
    try:
        return (json.dumps(record, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps(record, allow_nan=False) + "\n").encode("ascii")


def _cut_line(fd: int) -> int | None:
    """The number of the file's last line if no newline ends it (else None)."""
    size = os.fstat(fd).st_size
    if size == 0:
        return None
    os.lseek(fd, size - 1, os.SEEK_SET)
    if os.read(fd, 1) == b"\n":
        return None
    os.lseek(fd, 0, os.SEEK_SET)
    newlines = 0
    while chunk := os.read(fd, 1 << 20):
        newlines += chunk.count(b"\n")
    return newlines + 1


def _write(fd: int, line: bytes, name: str) -> None:
    """Append ``line`` with one ``os.write``, after ending a cut last line with a note."""
    cut = _cut_line(fd)
    data = line if cut is None else b"\n" + _encode({"repairs_line": cut, "time": now()}) + line
    written = os.write(fd, data)  # O_APPEND: at the end, wherever _cut_line left the offset
    if written != len(data):
        raise OSError(
            tr(
                "{file}: only {written} of {size} bytes of the record were written "
                "(is the disk full?).",
                file=name,
                written=written,
                size=len(data),
            )
        )
    os.fsync(fd)


def _sync_folder(folder: Path) -> None:
    """Make a new file's name durable too (POSIX; Windows cannot open a folder)."""
    if sys.platform == "win32":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def append(path: str | os.PathLike[str], record: Mapping[str, Any], schema: Schema[Any]) -> None:
    """Append ``record`` to the log at ``path`` as one JSON line, flushed to disk.

    Parameters
    ----------
    path : path
        The log; it and its folder are created if needed.
    record : mapping
        The record, which ``schema.validate`` must accept as it will be read back.
    schema : Schema
        What the log holds.

    Raises
    ------
    ValueError
        From ``schema.validate``, before anything is written.
    OSError
        If the file cannot be written, or only part of the line was.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> def text(record, where):
    ...     if not isinstance(record, dict) or not isinstance(record.get("text"), str):
    ...         raise ValueError(f"{where}: not a note")
    ...     return record["text"]
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "new" / "log.jsonl"
    >>> append(path, {"text": "hello"}, Schema("notes", text, ""))
    >>> try:
    ...     append(path, {"text": 7}, Schema("notes", text, ""))
    ... except ValueError as error:
    ...     print(str(error).replace(str(path), "log.jsonl"))
    log.jsonl, the record to append: not a note
    >>> path.read_text(encoding="utf-8")
    '{"text": "hello"}\\n'
    """
    target = Path(path)
    name = os.fsdecode(target)
    line = _encode(record)
    schema.validate(json.loads(line), tr("{file}, the record to append", file=name))
    target.parent.mkdir(parents=True, exist_ok=True)
    created = not target.exists()
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)
    fd = os.open(target, flags, 0o666)
    try:
        with _locked(fd, shared=False):
            _write(fd, line, name)
    finally:
        os.close(fd)
    if created:
        _sync_folder(target.parent)


# --- reading -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Line:
    """One line of a log: its number, its JSON (or why it has none), whether it is ended."""

    number: int
    record: Any
    problem: str | None
    ended: bool


def _is_repair(record: Any) -> bool:
    return (
        isinstance(record, dict)
        and set(record) == set(REPAIR_FIELDS)
        and isinstance(record["repairs_line"], int)
        and not isinstance(record["repairs_line"], bool)
    )


def _where(name: str, number: int) -> str:
    return tr("{name}, line {line}", name=name, line=number)


def _lines(data: bytes, name: str) -> Iterator[_Line]:
    """Every line that is not blank, parsed as JSON where it can be."""
    pieces = data.split(b"\n")
    for number, raw in enumerate(pieces, start=1):
        if not raw.strip():  # blank, or the empty piece after the final newline
            continue
        ended = number < len(pieces)
        where = _where(name, number)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            problem = tr("{where}: not UTF-8 (byte {byte}).", where=where, byte=error.start + 1)
            yield _Line(number, None, problem, ended)
            continue
        try:
            yield _Line(number, json.loads(text), None, ended)
        except json.JSONDecodeError as error:
            problem = tr(
                "{where}: not JSON ({reason}: line 1 column {column}).",
                where=where,
                reason=error.msg,
                column=error.colno,
            )
            yield _Line(number, None, problem, ended)


def _value(line: _Line, name: str, schema: Schema[Record]) -> Record:
    if line.problem is not None:
        raise ValueError(line.problem)
    return schema.validate(line.record, _where(name, line.number))


def _records(
    data: bytes, name: str, schema: Schema[Record], skip_corrupt: bool
) -> list[tuple[int, Record]]:
    """(line number, value) for every record in the log's bytes; see the module notes."""
    lines = list(_lines(data, name))
    repaired = {line.record["repairs_line"] for line in lines if _is_repair(line.record)}
    records: list[tuple[int, Record]] = []
    for line in lines:
        if line.problem is not None and (not line.ended or line.number in repaired):
            message = tr(
                "{where}: cut short (a write that did not finish); ignored. {redo}",
                where=_where(name, line.number),
                redo=tr(schema.redo),
            )
            warnings.warn(message.rstrip(), TruncatedLineWarning, stacklevel=4)
            continue
        if line.problem is None and _is_repair(line.record):
            continue
        try:
            records.append((line.number, _value(line, name, schema)))
        except ValueError as error:
            if not skip_corrupt:
                raise
            message = tr("{problem} The line is skipped.", problem=error)
            warnings.warn(message, CorruptLineWarning, stacklevel=4)
    return records


def _read_locked(source: Any, name: str, what: str, missing_ok: bool) -> bytes:
    """The source's bytes; a path's are read under its lock, so no append is half seen."""
    fd = None
    if isinstance(source, (str, os.PathLike)) and os.path.isfile(source):
        with contextlib.suppress(OSError):  # unreadable: read_bytes says why
            fd = os.open(source, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        with contextlib.nullcontext() if fd is None else _locked(fd, shared=True):
            return read_bytes(source, name, what, file_format="JSON-lines", missing_ok=missing_ok)
    finally:
        if fd is not None:
            os.close(fd)


def read(
    source: Any,
    schema: Schema[Record],
    *,
    skip_corrupt: bool = False,
    missing_ok: bool = False,
) -> list[tuple[int, Record]]:
    """Every record in a log, in file order, with its line number (1-based).

    Parameters
    ----------
    source : path or file object
        The log, or an open file, read from where it is.
    schema : Schema
        What the log holds: ``schema.validate`` turns each record into its value.
    skip_corrupt : bool, default False
        Warn about a line that cannot be read (:class:`CorruptLineWarning`) and go
        on, instead of raising.
    missing_ok : bool, default False
        A path that does not exist holds no records, instead of being an error.

    Returns
    -------
    list of (int, value)

    Raises
    ------
    ValueError
        Naming the file and the line, for a line that is not a record (see the module
        notes); or naming the file, for a file that cannot be read.

    Warns
    -----
    TruncatedLineWarning
        For a last line cut short, and for a cut line a repair note names.
    CorruptLineWarning
        With ``skip_corrupt=True``, for each line skipped.

    Examples
    --------
    >>> import io
    >>> def number(record, where):
    ...     if not isinstance(record, int):
    ...         raise ValueError(f"{where}: not a number")
    ...     return record
    >>> NUMBERS = Schema("numbers", number, "")
    >>> read(io.BytesIO(b"1\\n\\n  \\n2\\n"), NUMBERS)
    [(1, 1), (4, 2)]
    >>> read(io.BytesIO(b'1\\n"two"\\n'), NUMBERS)
    Traceback (most recent call last):
    ...
    ValueError: <buffer>, line 2: not a number
    """
    name = source_name(source)
    data = _read_locked(source, name, tr(schema.what), missing_ok)
    return _records(data, name, schema, skip_corrupt)


def _tail(path: Path) -> tuple[bytes, bool] | None:
    """The file's last bytes (under its lock) and whether they are all of it; None if none."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        return None
    chunks = []
    try:
        with _locked(fd, shared=True):
            start = max(0, os.fstat(fd).st_size - _TAIL_BYTES)
            os.lseek(fd, start, os.SEEK_SET)
            while chunk := os.read(fd, _TAIL_BYTES):
                chunks.append(chunk)
    finally:
        os.close(fd)
    return b"".join(chunks), start == 0


def _whole(raw: bytes, name: str, schema: Schema[Record]) -> tuple[Record] | None:
    """``(value,)`` of a line that holds a record, or None if it holds none."""
    try:
        return (schema.validate(json.loads(raw.decode("utf-8")), name),)
    except ValueError:  # UnicodeDecodeError and JSON errors included
        return None


def last(path: str | os.PathLike[str], schema: Schema[Record]) -> Record | None:
    """The value of a log's last record, reading only the file's end; None if it has none.

    Read as :func:`read` reads it, under the same lock: blank lines are skipped, a last
    line cut short is passed over (unwarned). If the end does not settle it (a last line
    over 64 KiB, or not a record), the whole file is read, with :func:`read`'s errors.

    Parameters
    ----------
    path : path
        The log; a missing or empty file has no record.
    schema : Schema
        What the log holds.

    Returns
    -------
    value or None

    Examples
    --------
    >>> import pathlib, tempfile
    >>> def text(record, where):
    ...     if not isinstance(record, dict) or not isinstance(record.get("text"), str):
    ...         raise ValueError(f"{where}: not a note")
    ...     return record["text"]
    >>> NOTES, path = Schema("notes", text, ""), pathlib.Path(tempfile.mkdtemp()) / "n.jsonl"
    >>> last(path, NOTES) is None
    True
    >>> for word in ("first", "second"):
    ...     append(path, {"text": word}, NOTES)
    >>> with open(path, "ab") as file:  # blank lines, then a crash in mid-write
    ...     _ = file.write(b'\\n  \\n{"text": "cu')
    >>> last(path, NOTES)
    'second'
    """
    name = os.fsdecode(path)
    tail = _tail(Path(path))
    if tail is None:
        return None
    data, whole = tail
    *ended, unended = data.split(b"\n")[0 if whole else 1 :] or [b""]  # 1: part of a line
    lines = [line for line in ended if line.strip()]
    unended_lines = [unended] if unended.strip() else []  # a record if whole, else cut short
    for raw in [*unended_lines, *lines[-1:]]:
        found = _whole(raw, name, schema)
        if found is not None:
            return found[0]
    if whole and not lines:
        return None
    records = read(Path(path), schema, missing_ok=True)
    return records[-1][1] if records else None


def check_object(record: Any, where: str, fields: Collection[str], other_fields: str) -> None:
    """Raise unless ``record`` is a JSON object with exactly ``fields``.

    ``other_fields`` is the catalogue message for an object with other fields; it names
    what the record should be and takes ``{where}``, ``{missing}`` and ``{extra}``.

    >>> check_object({"a": 1}, "f.jsonl, line 2", ("a",), "{where}: {missing} {extra}")
    >>> check_object([1], "f.jsonl, line 2", ("a",), "{where}: {missing} {extra}")
    Traceback (most recent call last):
    ...
    ValueError: f.jsonl, line 2: expected a JSON object, got list.
    >>> check_object({"b": 1}, "f.jsonl, line 2", ("a",), "{where}: missing {missing}, {extra}")
    Traceback (most recent call last):
    ...
    ValueError: f.jsonl, line 2: missing ['a'], ['b']
    """
    if not isinstance(record, dict):
        raise ValueError(
            tr(
                "{where}: expected a JSON object, got {kind}.",
                where=where,
                kind=type(record).__name__,
            )
        )
    if set(record) != set(fields):
        raise ValueError(
            tr(
                other_fields,
                where=where,
                missing=sorted(set(fields) - set(record)),
                extra=sorted(set(record) - set(fields)),
            )
        )
