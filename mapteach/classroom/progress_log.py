"""Progress that stays: every checked answer, one line in an append-only JSON-lines file.

Each time an exercise checks an answer, :func:`record_check` appends one line::

    {"learner": "ada", "notebook": "03_average_precision_by_hand", "exercise": "ap-1",
     "answer": "0.8056", "verdict": "correct", "time": "2026-11-30T14:00:00Z"}

Every field is a string: ``verdict`` is one of :data:`VERDICTS`, ``time`` is ISO 8601
in UTC with whole seconds and ``Z`` (``+00:00`` in older files reads the same). A
learner in a group (``learner(name, group=...)``) also gets a ``"group"``, which decides
the exercise's variant; an incorrect answer that matches a named mistake, a
``"mistake"`` (its English name, the first one named). An unreadable answer is no
attempt and never recorded; older files' ``"invalid"`` lines (:data:`RETIRED_VERDICTS`)
read, but do not count. :func:`progress` turns the lines into one row per exercise
(attempts, last answer, passed or pending); an instructor merges the files the learners hand in with
:func:`merge_progress` or ``python -m mapteach progress``.

Who and where
-------------
- The learner is the name given to :func:`learner` (else ``MAPTEACH_LEARNER``). With
  no name set, checks are recorded with ``"learner": ""`` (anonymous), so nothing is lost.
- The file is :func:`set_progress_file`'s, else ``MAPTEACH_PROGRESS``, else the
  learner's file in the folder ``MAPTEACH_PROGRESS_DIR`` (where a check before a name
  waits for it: :mod:`~mapteach.classroom.progress_folder`), else
  ``~/.mapteach/progress.jsonl``. Its folder is created with the first check.

Writing and reading
-------------------
The file is an append-only log (:mod:`mapteach.log`): each check is appended with one
``os.write`` under the file's lock and flushed to disk, so two notebooks open at once
never mix their lines, and nothing already in the file is ever changed.

- A line that is not JSON (or not UTF-8), has missing, extra or non-string fields, an
  unknown verdict, or a time that is not ISO 8601 with a time zone is a ``ValueError``
  naming the file and the line (1-based); with ``skip_corrupt=True`` it is a
  :class:`CorruptLineWarning` naming them, and the line is skipped.
- The **last** line, when no newline ends it and it cannot be read, is a write cut
  short (a crash, a full disk): a :class:`TruncatedLineWarning` naming the file and
  line, and the line is ignored. The next check first ends it, with a repair note,
  so its record has a line of its own; reading keeps warning about the cut line.
- Blank lines hold no check and are skipped.

Examples
--------
>>> import pathlib, tempfile
>>> from mapteach.classroom import progress, record_check
>>> path = pathlib.Path(tempfile.mkdtemp()) / "progress.jsonl"
>>> _ = record_check("03_ap_by_hand", "ap-1", "0.81", "incomplete", learner="ada", path=path)
>>> _ = record_check("03_ap_by_hand", "ap-1", "0.8056", "correct", learner="ada", path=path)
>>> table = progress("ada", path=path, exercises=[("03_ap_by_hand", "ap-2")])
>>> print(table[["exercise", "attempts", "last_answer", "passed", "status"]].to_string())
  exercise  attempts last_answer  passed   status
0     ap-1         2      0.8056    True   passed
1     ap-2         0         NaN   False  pending
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import mapteach.log as log
from mapteach.classroom import progress_folder as room
from mapteach.classroom.identity import (
    check_group,
    check_name,
    current_group,
    current_learner,
    when_named,
)
from mapteach.i18n import N_, tr
from mapteach.log import CorruptLineWarning, TruncatedLineWarning
from mapteach.sources import source_name

__all__ = [
    "FIELDS",
    "RETIRED_VERDICTS",
    "VERDICTS",
    "CorruptLineWarning",
    "TruncatedLineWarning",
    "merge_progress",
    "progress",
    "read_progress",
    "record_check",
]


if TYPE_CHECKING:
    import pandas as pd


#: The fields of every line, in the order they are written.
FIELDS: tuple[str, ...] = ("learner", "notebook", "exercise", "answer", "verdict", "time")


#: The fields a check may have besides :data:`FIELDS`, written after them in this order:
#: the learner's group, and the first mistake an incorrect answer was named.
OPTIONAL_FIELDS: tuple[str, ...] = ("group", "mistake")


#: Every verdict a check can record.
VERDICTS: tuple[str, ...] = ("correct", "incomplete", "incorrect")


#: Verdicts older files hold that are no longer written: read, but not attempts.
RETIRED_VERDICTS: tuple[str, ...] = ("invalid",)


#: The columns of :func:`progress` (:func:`merge_progress` puts ``learner`` first).
PROGRESS_COLUMNS: tuple[str, ...] = (
    "notebook",
    "exercise",
    "attempts",
    "first_time",
    "last_time",
    "last_answer",
    "last_verdict",
    "passed",
    "status",
)


# --- writing -----------------------------------------------------------------------------


def _text_field(field: str, value: object, *, empty: bool = False) -> str:
    if not isinstance(value, str):
        raise TypeError(
            tr(
                "{field} must be a string; got {kind} {value!r}.",
                field=field,
                kind=type(value).__name__,
                value=value,
            )
        )
    if not empty and not value.strip():
        raise ValueError(tr("{field} must not be empty.", field=field))
    return value


def _check_verdict(verdict: object) -> str:
    if verdict in ("unreadable", "empty"):
        raise ValueError(
            tr(
                "verdict {verdict!r} is never recorded: an answer that could not be read, "
                "or no answer, is not an attempt.",
                verdict=verdict,
            )
        )
    if verdict not in VERDICTS:
        raise ValueError(
            tr(
                "verdict must be one of {verdicts}; got {verdict!r}.",
                verdicts=", ".join(VERDICTS),
                verdict=verdict,
            )
        )
    return str(verdict)


def record_check(
    notebook: str,
    exercise: str,
    answer: str,
    verdict: str,
    *,
    learner: str | None = None,
    group: str | None = None,
    mistake: str | None = None,
    path: str | os.PathLike[str] | None = None,
) -> dict[str, str]:
    """Append one checked answer to the progress file, flushed to disk; return the record.

    In a progress folder, a check made before a learner is named waits for the name
    instead (:func:`waits_for_name`), and is recorded under it.

    Parameters
    ----------
    notebook, exercise : str
        Which exercise was checked (non-empty).
    answer : str
        What the learner typed, exactly (any text; may be empty).
    verdict : {"correct", "incomplete", "incorrect"}
        What the check said (an ``"unreadable"`` or ``"empty"`` answer is no attempt).
    learner : str, optional
        Whose answer it was (default: :func:`~mapteach.classroom.identity.learner`'s
        name; ``""``, anonymous, when none is set: the check is recorded all the same).
    group : str, optional
        The learner's group (default: :func:`~mapteach.classroom.identity.current_group`);
        none, no ``"group"`` field.
    mistake : str, optional
        The English name of the first mistake the answer was named (only for an
        ``"incorrect"`` verdict); none, no ``"mistake"`` field.
    path : path, optional
        The file (default: :func:`progress_file`). It and its folder are created.

    Returns
    -------
    dict of str to str
        The record written, with the fields of :data:`FIELDS`.

    Raises
    ------
    TypeError
        If a field is not a string.
    ValueError
        If the notebook, the exercise, a given learner or group name or mistake is
        empty, the verdict is unknown or not an attempt (``"unreadable"``,
        ``"empty"``), or a mistake comes with a verdict other than ``"incorrect"``.

    Notes
    -----
    The line goes in with a single ``os.write`` on a file opened with
    ``O_APPEND | O_CREAT``, under the file's lock, and is then ``fsync``-ed, so
    processes appending at the same time never mix their lines. If the file's last
    line was cut short, it is first ended, with a repair note (see
    :mod:`mapteach.log`). Nothing already in the file is ever changed.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from mapteach.classroom import record_check
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "new folder" / "progress.jsonl"
    >>> record = record_check("04_map", "map-1", "0.5", "incorrect", learner="李雷", path=path)
    >>> record["learner"], record["verdict"], record["time"].endswith("Z")
    ('李雷', 'incorrect', True)
    >>> print(path.read_text(encoding="utf-8").replace(record["time"], "TIME"), end="")
    {"learner": "李雷", "notebook": "04_map", "exercise": "map-1", "answer": "0.5", \
"verdict": "incorrect", "time": "TIME"}
    """
    who = (current_learner() or "") if learner is None else check_name(learner)
    record = {
        "learner": who,
        "notebook": _text_field("notebook", notebook),
        "exercise": _text_field("exercise", exercise),
        "answer": _text_field("answer", answer, empty=True),
        "verdict": _check_verdict(verdict),
        "time": log.now(),
    }
    team = current_group() if group is None else check_group(group)
    if team is not None:
        record["group"] = team
    if mistake is not None:
        record["mistake"] = _check_mistake(mistake, record["verdict"])
    if path is None and room.folder_in_use():
        if not who:
            room.wait_for_name(record, PROGRESS)
            return record
        if room.waiting_checks() and (named := current_learner()):
            _record_waiting(named)  # a retry: they could not be recorded before
    log.append(room.file_for(who) if path is None else Path(path).expanduser(), record, PROGRESS)
    return record


def _check_mistake(mistake: object, verdict: str) -> str:
    if verdict != "incorrect":
        raise ValueError(
            tr("A mistake is named only for an incorrect answer; got {verdict!r}.", verdict=verdict)
        )
    return _text_field("mistake", mistake)


def _named(record: Any, name: str) -> dict[str, str]:
    """A check that waited for a name, under ``name`` (and the group, if it had none)."""
    named = {**record, "learner": name, "group": record.get("group") or current_group()}
    fields = (*FIELDS, *OPTIONAL_FIELDS)
    return {field: named[field] for field in fields if named.get(field) is not None}


def _record_waiting(name: str) -> None:
    """Record every check waiting for a name under ``name``, oldest first, each as made."""
    room.record_waiting(name, PROGRESS, _named)


when_named(_record_waiting)


# --- reading -----------------------------------------------------------------------------


def _check_fields(record: Any, where: str) -> None:
    """Raise unless ``record`` is an object with exactly the fields of a check, all strings."""
    given = record if isinstance(record, dict) else {}
    fields = (*FIELDS, *(field for field in OPTIONAL_FIELDS if field in given))
    log.check_object(
        record,
        where,
        fields,
        N_("{where}: not a check (missing fields {missing}, unknown fields {extra})."),
    )
    for field in fields:
        if not isinstance(record[field], str):
            raise ValueError(
                tr(
                    "{where}: field {field!r} is {kind} {value!r}, not a string.",
                    where=where,
                    field=field,
                    kind=type(record[field]).__name__,
                    value=record[field],
                )
            )


def _check(record: Any, where: str) -> dict[str, str]:
    """The check ``record`` (at ``where``, a file and line) holds; a ValueError if none."""
    _check_fields(record, where)
    for field in ("notebook", "exercise", *OPTIONAL_FIELDS):
        if field in record and not record[field].strip():
            raise ValueError(tr("{where}: field {field!r} is empty.", where=where, field=field))
    if record["verdict"] not in (*VERDICTS, *RETIRED_VERDICTS):
        raise ValueError(
            tr(
                "{where}: verdict {verdict!r} is not one of {verdicts}.",
                where=where,
                verdict=record["verdict"],
                verdicts=", ".join((*VERDICTS, *RETIRED_VERDICTS)),
            )
        )
    if log.parse_time(record["time"]) is None:
        raise ValueError(
            tr(
                "{where}: time {time!r} is not ISO 8601 with a time zone.",
                where=where,
                time=record["time"],
            )
        )
    return {field: record[field] for field in (*FIELDS, *OPTIONAL_FIELDS) if field in record}


#: What a progress file holds, for :mod:`mapteach.log`.
PROGRESS = log.Schema(N_("progress"), _check, N_("Check that answer again."))


def _frame(rows: list[dict[str, Any]], columns: Iterable[str]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(rows, columns=list(columns))


def read_progress(
    *paths: str | os.PathLike[str] | IO[Any], skip_corrupt: bool = False
) -> pd.DataFrame:
    """Every check in the progress files, in file order, with the file and line it is on.

    Parameters
    ----------
    *paths : path or file object
        Progress files (or open files, read from where they are). None given: the
        current :func:`progress_file`, which may not exist yet (no checks). A path
        given that does not exist is an error.
    skip_corrupt : bool, default False
        Warn about an unreadable line (:class:`CorruptLineWarning`) and go on,
        instead of raising.

    Returns
    -------
    pandas.DataFrame
        Columns ``learner, notebook, exercise, answer, verdict, time`` (strings, as
        written), ``group`` (``""`` for a check made outside a group), ``mistake``
        (``""`` for a check that named none), ``file`` (the
        name it was read from) and ``line`` (1-based). Lines with a retired verdict
        (``"invalid"``) are read too.

    Raises
    ------
    ValueError
        Naming the file and the line, for a line that is not a check (see the module
        notes); or naming the file, for a file that cannot be read.

    Warns
    -----
    TruncatedLineWarning
        For a last line cut short, which is ignored.
    CorruptLineWarning
        With ``skip_corrupt=True``, for each line skipped.

    Examples
    --------
    >>> import pathlib, tempfile, warnings
    >>> from mapteach.classroom import read_progress, record_check
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "p.jsonl"
    >>> _ = record_check("02_p_at_k", "p@3", '2/3 "exactly"\\n', "correct", learner="bo", path=path)
    >>> with open(path, "ab") as file:  # a crash in mid-write
    ...     _ = file.write(b'{"learner": "bo", "noteb')
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     table = read_progress(path)
    >>> table[["exercise", "answer", "line"]].to_dict("records")
    [{'exercise': 'p@3', 'answer': '2/3 "exactly"\\n', 'line': 1}]
    >>> print(str(caught[0].message).replace(str(path), "p.jsonl"))
    p.jsonl, line 2: cut short (a write that did not finish); ignored. Check that answer again.
    >>> with open(path, "ab") as file:  # another program writes to it
    ...     _ = file.write(b'\\nhello\\n')
    >>> try:
    ...     read_progress(path)
    ... except ValueError as error:
    ...     print(str(error).replace(str(path), "p.jsonl"))
    p.jsonl, line 2: not JSON (Unterminated string starting at: line 1 column 19).
    """
    return _read(paths or (room.progress_file(),), skip_corrupt, missing_ok=not paths)


def _read(sources: Iterable[Any], skip_corrupt: bool, missing_ok: bool) -> pd.DataFrame:
    rows: list[dict[str, Any]] = []
    for given in sources:
        source = Path(given).expanduser() if isinstance(given, (str, os.PathLike)) else given
        name = source_name(source)
        checks = log.read(source, PROGRESS, skip_corrupt=skip_corrupt, missing_ok=missing_ok)
        blank = dict.fromkeys(OPTIONAL_FIELDS, "")
        rows.extend({**blank, **record, "file": name, "line": number} for number, record in checks)
    text = [*FIELDS, *OPTIONAL_FIELDS, "file"]
    return _frame(rows, [*text, "line"]).astype({**dict.fromkeys(text, "str"), "line": "int64"})


def _in_time_order(checks: pd.DataFrame) -> pd.DataFrame:
    """``checks`` oldest first, each time parsed in a ``stamp`` column (UTC); ties as read."""
    import pandas as pd

    # every time was checked when it was read: each parses to an aware datetime
    times = [log.parse_time(text) for text in checks["time"]]
    stamps = pd.to_datetime([time for time in times if time is not None], utc=True)
    return checks.assign(stamp=stamps).sort_values("stamp", kind="stable")


def _tally(checks: pd.DataFrame, by: list[str]) -> list[dict[str, Any]]:
    """One row per ``by`` key: attempts, first and last time, passed, last answer, verdict, mistake.

    The last check is the latest by time; checks at the same time keep the order read.
    A check with a retired verdict (:data:`RETIRED_VERDICTS`) is not an attempt.
    """
    rows: dict[tuple[str, ...], dict[str, Any]] = {}
    for record in _in_time_order(checks).to_dict("records"):
        if record["verdict"] in RETIRED_VERDICTS:
            continue
        key = tuple(record[column] for column in by)
        row = rows.get(key)
        if row is None:
            row = rows[key] = {
                **dict(zip(by, key, strict=True)),
                "attempts": 0,
                "first_time": record["stamp"],
                "passed": False,
            }
        row["attempts"] += 1
        row["last_time"] = record["stamp"]
        row["last_answer"] = record["answer"]
        row["last_verdict"] = record["verdict"]
        row["last_mistake"] = record["mistake"]
        row["passed"] = row["passed"] or record["verdict"] == "correct"
    return list(rows.values())


def _table(rows: list[dict[str, Any]], by: list[str]) -> pd.DataFrame:
    import pandas as pd

    for row in rows:
        row["status"] = "passed" if row["passed"] else "pending"
    columns = [*by, *PROGRESS_COLUMNS[2:]]
    table = _frame(rows, columns).sort_values(by, kind="stable", ignore_index=True)
    for column in ("first_time", "last_time"):
        table[column] = pd.to_datetime(table[column], utc=True).dt.as_unit("us")
    text = [*by, "last_answer", "last_verdict", "status"]
    return table.astype({**dict.fromkeys(text, "str"), "attempts": "int64", "passed": "bool"})


def progress(
    learner: str | None = None,
    *,
    path: str | os.PathLike[str] | None = None,
    exercises: Iterable[tuple[str, str]] | None = None,
    skip_corrupt: bool = False,
) -> pd.DataFrame:
    """A learner's progress: one row per exercise checked (or listed), passed or pending.

    Parameters
    ----------
    learner : str, optional
        Whose progress (default: the current learner; ``""``, the anonymous checks,
        when none is set).
    path : path, optional
        The progress file (default: :func:`progress_file`); a missing file has no checks.
    exercises : iterable of (notebook, exercise), optional
        Exercises the caller knows of: those never checked show as pending, with
        0 attempts.
    skip_corrupt : bool, default False
        As :func:`read_progress`.

    Returns
    -------
    pandas.DataFrame
        Sorted by notebook, then exercise; columns ``notebook``, ``exercise``,
        ``attempts``, ``first_time`` and ``last_time`` (UTC timestamps; NaT if never
        checked), ``last_answer`` and ``last_verdict`` (of the latest check; missing,
        NaN, if never checked), ``passed`` (True once any check was correct, even if a later
        one was not) and ``status`` (``"passed"`` or ``"pending"``, stable keys).

    Raises
    ------
    ValueError
        As :func:`read_progress`, or for an ``exercises`` item that is not a pair of
        non-empty strings.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from mapteach.classroom import progress, record_check
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "p.jsonl"
    >>> for answer, verdict in [("0.5", "correct"), ("1/3", "incorrect")]:
    ...     _ = record_check("04_map", "map-1", answer, verdict, learner="ada", path=path)
    >>> _ = record_check("04_map", "map-1", "0.5", "correct", learner="bo", path=path)
    >>> progress("ada", path=path)[["attempts", "last_verdict", "passed"]].to_dict("records")
    [{'attempts': 2, 'last_verdict': 'incorrect', 'passed': True}]
    """
    import pandas as pd

    who = (current_learner() or "") if learner is None else learner
    if not isinstance(who, str):
        raise ValueError(
            tr("The learner's name must be a non-empty string; got {name!r}.", name=who)
        )
    source = room.progress_file() if path is None else Path(path).expanduser()
    checks = _read([source], skip_corrupt, missing_ok=True)
    checks = checks[checks["learner"] == who.strip()]
    rows = _tally(checks, ["notebook", "exercise"])
    seen = {(row["notebook"], row["exercise"]) for row in rows}
    for item in exercises or ():
        if (
            not isinstance(item, tuple | list)
            or len(item) != 2
            or not all(isinstance(part, str) and part.strip() for part in item)
        ):
            raise ValueError(
                tr(
                    "exercises must hold (notebook, exercise) pairs of non-empty strings; "
                    "got {item!r}.",
                    item=item,
                )
            )
        key = (item[0], item[1])
        if key not in seen:
            seen.add(key)
            rows.append(
                {
                    "notebook": key[0],
                    "exercise": key[1],
                    "attempts": 0,
                    "first_time": pd.NaT,
                    "last_time": pd.NaT,
                    "last_answer": pd.NA,
                    "last_verdict": pd.NA,
                    "passed": False,
                }
            )
    return _table(rows, ["notebook", "exercise"])


def merge_progress(
    *paths: str | os.PathLike[str] | IO[Any],
    learner: str | None = None,
    skip_corrupt: bool = False,
) -> pd.DataFrame:
    """The progress files an instructor collects, as one table per learner and exercise.

    Parameters
    ----------
    *paths : path or file object
        The files (at least one), read as :func:`read_progress` reads them.
    learner : str, optional
        Only this learner (``""``: the anonymous checks); default every learner.
    skip_corrupt : bool, default False
        As :func:`read_progress`.

    Returns
    -------
    pandas.DataFrame
        Column ``learner`` and then the columns of :func:`progress`, sorted by
        learner, notebook and exercise. A learner's checks spread over several files
        are counted together; the latest check (by time) gives the last verdict.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from mapteach.classroom import merge_progress, record_check
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = record_check("04_map", "map-1", "0.5", "correct", learner="bo", path=folder / "b")
    >>> _ = record_check("04_map", "map-1", "1", "incorrect", learner="ada", path=folder / "a")
    >>> table = merge_progress(folder / "a", folder / "b")
    >>> table[["learner", "attempts", "status"]].to_dict("records")
    [{'learner': 'ada', 'attempts': 1, 'status': 'pending'}, \
{'learner': 'bo', 'attempts': 1, 'status': 'passed'}]
    """
    if not paths:
        raise ValueError(tr("Give at least one progress file."))
    checks = read_progress(*paths, skip_corrupt=skip_corrupt)
    if learner is not None:
        checks = checks[checks["learner"] == learner.strip()]
    by = ["learner", "notebook", "exercise"]
    return _table(_tally(checks, by), by)
