"""A room's progress: who passed, who is stuck and why, who has not started.

:func:`read_room` reads a progress folder (one file per learner,
:mod:`~mapteach.classroom.progress_folder`) or progress files, and the exercises the
teacher expects (e.g. :func:`mapteach.exercises.exercise_index` of ``notebooks/``); its
:attr:`Room.table` has one row per learner and exercise, with a ``status`` among
:data:`STATUSES`: ``passed``, ``stuck`` (:data:`STUCK_AFTER` attempts or more and no
pass), ``trying`` and ``not_started`` (a row for every exercise expected that the
learner never checked). :func:`exercise_summary`, :func:`common_mistakes` and
:func:`learner_summary` are the teacher's three views of it. Keys, not words: a display
translates them.

Checks made before a learner was named (the anonymous learner ``""``, which a folder
never holds) are reported under :data:`ANONYMOUS`, with a warning saying so. In a
folder, such checks wait in ``.waiting/`` for the name; a tab closed before its learner
named themselves leaves them there, kept: :func:`waiting_for_names` counts them, and
:func:`read_room` warns about them, so that the teacher sees what nobody claimed.
"""

from __future__ import annotations

import io
import os
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NamedTuple, Protocol

from mapteach.classroom.progress_folder import WAITING_FOLDER
from mapteach.classroom.progress_log import (
    RETIRED_VERDICTS,
    _in_time_order,
    _tally,
    read_progress,
)
from mapteach.i18n import ngettext, tr

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "ANONYMOUS",
    "STATUSES",
    "STUCK_AFTER",
    "Room",
    "Waiting",
    "common_mistakes",
    "exercise_summary",
    "learner_summary",
    "read_room",
    "waiting_for_names",
    "waiting_note",
]

#: The statuses of a learner on an exercise, as machine keys.
STATUSES = ("passed", "stuck", "trying", "not_started")

#: Attempts without a pass after which a learner is stuck.
STUCK_AFTER = 3

#: The learner that checks made before anyone was named are reported under.
ANONYMOUS = "(anonymous)"

#: The columns of :attr:`Room.table` (and of ``python -m mapteach progress --folder``'s CSV).
ROOM_COLUMNS = (
    "learner",
    "notebook",
    "exercise",
    "prompt",
    "attempts",
    "passed",
    "status",
    "last_verdict",
    "last_answer",
    "last_mistake",
    "last_time",
)


class Expected(Protocol):
    """An exercise the teacher expects, as :class:`~mapteach.exercises.IndexedExercise`."""

    @property
    def notebook(self) -> str: ...
    @property
    def exercise(self) -> str: ...
    @property
    def prompt(self) -> str: ...


class Room(NamedTuple):
    """What :func:`read_room` read: every check, and one row per learner and exercise."""

    checks: pd.DataFrame
    """Every check that counts as an attempt, oldest first (:func:`read_progress`'s columns)."""
    table: pd.DataFrame
    """One row per learner and exercise: the columns :data:`ROOM_COLUMNS`."""


class Waiting(NamedTuple):
    """The checks of a progress folder that wait for a name, and the sessions they come from."""

    checks: int
    sessions: int


def waiting_for_names(folder: str | os.PathLike[str]) -> Waiting:
    """Count the checks in ``folder``'s ``.waiting/``: made before a learner was named.

    Each session (a browser tab's kernel) that checked an answer before its learner
    gave a name has a waiting file there; the file goes once the name is given. What
    is left is from a tab still waiting for its name, or closed before it had one: kept
    on disk, counted here, never recorded under a name it might not be.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from mapteach.classroom import waiting_for_names
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> (folder / ".waiting").mkdir()
    >>> _ = (folder / ".waiting" / "a1.jsonl").write_text('{"exercise": "1"}\\n' * 2)
    >>> waiting_for_names(folder)
    Waiting(checks=2, sessions=1)
    """
    files = sorted((Path(folder).expanduser() / WAITING_FOLDER).glob("*.jsonl"))
    counts = [sum(1 for line in _lines(path) if line.strip()) for path in files]
    return Waiting(sum(counts), sum(1 for count in counts if count))


def _lines(path: Path) -> list[str]:
    """A waiting file's lines; none when it went meanwhile (its learner was just named)."""
    try:
        return path.read_text(encoding="utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return []


def waiting_note(waiting: Waiting, folder: str | os.PathLike[str]) -> str:
    """What a teacher is told about the checks that wait for a name in ``folder``.

    >>> from mapteach.classroom.room_progress import Waiting, waiting_note
    >>> print(waiting_note(Waiting(checks=1, sessions=1), "room"))
    1 check in room/.waiting waits for a name (from a tab not named yet, or closed \
before it was): kept there, counted nowhere else.
    """
    return ngettext(
        "{n} check in {folder} waits for a name (from a tab not named yet, or closed before "
        "it was): kept there, counted nowhere else.",
        "{n} checks in {folder} wait for a name (from tabs not named yet, or closed before "
        "they were): kept there, counted nowhere else.",
        waiting.checks,
        folder=(Path(folder) / WAITING_FOLDER).as_posix(),
    )


def _warn_waiting(sources: Iterable[str | os.PathLike[str] | IO[Any]]) -> None:
    for source in sources:
        if isinstance(source, str | os.PathLike) and Path(source).expanduser().is_dir():
            waiting = waiting_for_names(source)
            if waiting.checks:
                warnings.warn(waiting_note(waiting, source), UserWarning, stacklevel=3)


def _files(sources: Iterable[str | os.PathLike[str] | IO[Any]]) -> list[Path | IO[Any]]:
    files: list[Path | IO[Any]] = []
    for source in sources:
        if not isinstance(source, str | os.PathLike):
            files.append(source)
            continue
        path = Path(source).expanduser()
        files.extend(sorted(path.glob("*.jsonl")) if path.is_dir() else [path])
    return files


def _ordered_checks(files: list[Path | IO[Any]], skip_corrupt: bool) -> pd.DataFrame:
    # an empty folder (a room before its first check) reads as no checks
    checks = read_progress(*(files or [io.BytesIO()]), skip_corrupt=skip_corrupt)
    ordered = _in_time_order(checks[~checks["verdict"].isin(RETIRED_VERDICTS)])
    anonymous = ordered["learner"] == ""
    if anonymous.any():
        warnings.warn(
            tr(
                "Checks made before a learner was named ({count}) are reported as {anonymous}.",
                count=int(anonymous.sum()),
                anonymous=ANONYMOUS,
            ),
            UserWarning,
            stacklevel=3,
        )
    return ordered.assign(learner=ordered["learner"].where(~anonymous, ANONYMOUS))


def _tried(checks: pd.DataFrame, prompts: dict[tuple[str, str], str]) -> list[dict[str, Any]]:
    rows = []
    for tally in _tally(checks, ["learner", "notebook", "exercise"]):
        stuck = tally["attempts"] >= STUCK_AFTER
        where = (str(tally["notebook"]), str(tally["exercise"]))
        rows.append(
            {field: tally[field] for field in ROOM_COLUMNS if field in tally}
            | {
                "prompt": prompts.get(where, ""),
                "status": "passed" if tally["passed"] else "stuck" if stuck else "trying",
            }
        )
    return rows


def read_room(
    *sources: str | os.PathLike[str] | IO[Any],
    exercises: Iterable[Expected] = (),
    learners: Iterable[str] = (),
    skip_corrupt: bool = False,
) -> Room:
    """Read a room's progress: a progress folder, or progress files, and the exercises expected.

    Parameters
    ----------
    *sources : path or file object
        Progress folders (every ``*.jsonl`` in each) or progress files (or open files).
    exercises : iterable of IndexedExercise, optional
        The exercises expected (anything with ``notebook``, ``exercise`` and ``prompt``):
        each gives its prompt, and a ``not_started`` row for every learner who never
        checked it. The first of two with the same notebook and exercise is kept.
    learners : iterable of str, optional
        The room's roster: a learner on it with no check yet gets ``not_started`` rows
        too (in a folder, a learner's file appears with their first check).
    skip_corrupt : bool, default False
        As :func:`~mapteach.classroom.read_progress`.

    Returns
    -------
    Room
        ``table`` sorted by learner, notebook and exercise.

    Raises
    ------
    ValueError
        As :func:`~mapteach.classroom.read_progress`, naming the file and line.

    Warns
    -----
    UserWarning
        When checks made before a learner was named are reported as :data:`ANONYMOUS`,
        and when a folder's checks still wait for a name (:func:`waiting_for_names`).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from mapteach.classroom import progress_path_for, read_room, record_check
    >>> from mapteach.exercises import IndexedExercise
    >>> room = pathlib.Path(tempfile.mkdtemp())
    >>> _ = record_check("03", "1", "0.5", "correct", learner="ada",
    ...                  path=progress_path_for(room, "ada"))
    >>> expected = [IndexedExercise("03", "1", "03.1", "number", "AP?", "en", "03.ipynb"),
    ...             IndexedExercise("03", "2", "03.2", "number", "MAP?", "en", "03.ipynb")]
    >>> read_room(room, exercises=expected).table[["exercise", "prompt", "status"]].to_dict(
    ...     "records")
    [{'exercise': '1', 'prompt': 'AP?', 'status': 'passed'}, \
{'exercise': '2', 'prompt': 'MAP?', 'status': 'not_started'}]
    """
    import pandas as pd

    _warn_waiting(sources)
    checks = _ordered_checks(_files(sources), skip_corrupt)
    prompts: dict[tuple[str, str], str] = {}
    for item in exercises:
        prompts.setdefault((item.notebook, item.exercise), item.prompt)
    rows = _tried(checks, prompts)
    seen = {(row["learner"], row["notebook"], row["exercise"]) for row in rows}
    names = {name.strip() for name in learners if name.strip()}
    for name in sorted(names | set(checks["learner"])):
        rows.extend(
            {"learner": name, "notebook": notebook, "exercise": exercise, "prompt": prompt}
            | {"attempts": 0, "passed": False, "status": "not_started", "last_verdict": ""}
            | {"last_answer": "", "last_mistake": "", "last_time": pd.NaT}
            for (notebook, exercise), prompt in prompts.items()
            if (name, notebook, exercise) not in seen
        )
    table = pd.DataFrame(rows, columns=list(ROOM_COLUMNS))
    by = ["learner", "notebook", "exercise"]
    table = table.sort_values(by, key=_natural, kind="stable", ignore_index=True)
    table["last_time"] = pd.to_datetime(table["last_time"], utc=True)
    return Room(checks.reset_index(drop=True), table.astype({"attempts": "int64", "passed": bool}))


def _natural(column: pd.Series) -> pd.Series:
    """A column sorted numbers first by value (exercise ``"2"`` before ``"10"``), then text."""
    return column.map(lambda text: (0, int(text), "") if text.isdigit() else (1, 0, text))


def _names(group: pd.DataFrame, status: str) -> str:
    return ", ".join(group.loc[group["status"] == status, "learner"])


def _status_counts(group: pd.DataFrame) -> dict[str, int]:
    """How many of ``group``'s rows have each status of :data:`STATUSES`."""
    return {status: int((group["status"] == status).sum()) for status in STATUSES}


def exercise_summary(room: Room) -> pd.DataFrame:
    """Per exercise: how many learners passed, are stuck, trying or not started, and who.

    Parameters
    ----------
    room : Room
        What :func:`read_room` read.

    Returns
    -------
    pandas.DataFrame
        One row per notebook and exercise: ``notebook``, ``exercise``, ``prompt``, then
        for each status of :data:`STATUSES` its count and (``<status>_names``) the
        learners, comma-separated.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from mapteach.classroom import read_room, record_check
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "p.jsonl"
    >>> for name in ("ada", "bo"):
    ...     _ = record_check("03", "1", "1", "incorrect", learner=name, path=path)
    >>> _ = record_check("03", "1", "0.5", "correct", learner="bo", path=path)
    >>> exercise_summary(read_room(path))[["passed", "trying", "trying_names"]].to_dict("records")
    [{'passed': 1, 'trying': 1, 'trying_names': 'ada'}]
    """
    import pandas as pd

    rows = []
    for (notebook, exercise), group in room.table.groupby(["notebook", "exercise"]):
        row: dict[str, Any] = {"notebook": notebook, "exercise": exercise}
        row["prompt"] = group["prompt"].iloc[0]
        row |= _status_counts(group)
        row |= {f"{status}_names": _names(group, status) for status in STATUSES}
        rows.append(row)
    columns = ["notebook", "exercise", "prompt"]
    columns += [name for status in STATUSES for name in (status, f"{status}_names")]
    return _by_exercise(pd.DataFrame(rows, columns=columns))


def _by_exercise(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` in notebook and exercise order, numbers by value; rows of one kept in order."""
    by = ["notebook", "exercise"]
    return frame.sort_values(by, key=_natural, kind="stable", ignore_index=True)


def common_mistakes(room: Room, top: int = 3) -> pd.DataFrame:
    """Per exercise, its most common named mistakes: how many learners made each, and one answer.

    Parameters
    ----------
    room : Room
        What :func:`read_room` read.
    top : int, default 3
        How many mistakes per exercise, the most common first: made by the most learners,
        then by the most checks (ties: the first made), so that one learner repeating a
        mistake does not outrank a mistake many learners made.

    Returns
    -------
    pandas.DataFrame
        Columns ``notebook``, ``exercise``, ``mistake`` (its English message id, as
        recorded), ``learners`` (how many made it), ``count`` (checks that made it) and
        ``example_answer`` (the latest answer that made it); exercises in order, numbers
        by value (``"2"`` before ``"10"``).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from mapteach.classroom import read_room, record_check
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "p.jsonl"
    >>> for name, answer, mistake in [("ada", "1", "hits"), ("ada", "1.0", "hits"),
    ...                               ("bo", "2", "rank"), ("cy", "3", "rank")]:
    ...     _ = record_check("03", "1", answer, "incorrect", learner=name, path=path,
    ...                      mistake=mistake)
    >>> common_mistakes(read_room(path))[["mistake", "learners", "count"]].to_dict("records")
    [{'mistake': 'rank', 'learners': 2, 'count': 2}, {'mistake': 'hits', 'learners': 1, 'count': 2}]
    """
    import pandas as pd

    if top < 1:
        raise ValueError(tr("top must be a positive integer; got {top!r}.", top=top))
    named = room.checks[room.checks["mistake"] != ""]
    rows: list[dict[str, Any]] = []
    for (notebook, exercise), group in named.groupby(["notebook", "exercise"]):
        made = group.groupby("mistake", sort=False)
        tally = made.agg(learners=("learner", "nunique"), count=("learner", "size"))
        ranked = tally.sort_values(["learners", "count"], ascending=False, kind="stable")
        rows.extend(
            {
                "notebook": notebook,
                "exercise": exercise,
                "mistake": mistake,
                "learners": int(learners),
                "count": int(count),
                "example_answer": made.get_group(mistake)["answer"].iloc[-1],
            }
            for mistake, learners, count in ranked.head(top).itertuples()
        )
    columns = ["notebook", "exercise", "mistake", "learners", "count", "example_answer"]
    return _by_exercise(pd.DataFrame(rows, columns=columns))


def learner_summary(room: Room) -> pd.DataFrame:
    """Per learner: how many exercises passed, stuck, trying and not started.

    Parameters
    ----------
    room : Room
        What :func:`read_room` read.

    Returns
    -------
    pandas.DataFrame
        One row per learner: ``learner``, then a count per status of :data:`STATUSES`,
        then ``stuck_on`` (the keys ``"03.2"`` of the exercises they are stuck on).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from mapteach.classroom import read_room, record_check
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "p.jsonl"
    >>> for answer in ("1", "2", "3"):
    ...     _ = record_check("03", "2", answer, "incorrect", learner="ada", path=path)
    >>> learner_summary(read_room(path))[["learner", "stuck", "stuck_on"]].to_dict("records")
    [{'learner': 'ada', 'stuck': 1, 'stuck_on': '03.2'}]
    """
    import pandas as pd

    rows = []
    for name, group in room.table.groupby("learner"):
        row: dict[str, Any] = {"learner": name, **_status_counts(group)}
        stuck = group[group["status"] == "stuck"]
        row["stuck_on"] = ", ".join(stuck["notebook"] + "." + stuck["exercise"])
        rows.append(row)
    return pd.DataFrame(rows, columns=["learner", *STATUSES, "stuck_on"])
