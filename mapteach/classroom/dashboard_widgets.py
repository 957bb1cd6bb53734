"""The teacher's dashboard: a room's progress folder, followed live, legible on a projector.

:class:`RoomDashboard` shows :func:`~mapteach.classroom.read_room`'s views of a progress
folder: per exercise, who passed, who is stuck, who is trying and who has not started,
with the most common named mistakes (count and one answer each); per learner, passed,
stuck and not started. :meth:`RoomDashboard.refresh` reads the folder again when a file
in it changed; :meth:`RoomDashboard.start` does so every few seconds in the background.

Examples
--------
>>> import pathlib, tempfile
>>> from mapteach.classroom import RoomDashboard, progress_path_for, record_check
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> board = RoomDashboard(folder, lang="en")
>>> board.exercises.value
'No answer checked yet.'
>>> _ = record_check("03", "1", "0.5", "correct", learner="ada",
...                  path=progress_path_for(folder, "ada"))
>>> board.refresh(), "ada" in board.learners.value
(True, True)
>>> board.refresh()  # nothing changed: nothing read
False
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterable
from datetime import datetime, timezone
from html import escape
from pathlib import Path

import ipywidgets

from mapteach.classroom.progress_folder import WAITING_FOLDER
from mapteach.classroom.room_progress import (
    STATUSES,
    STUCK_AFTER,
    Expected,
    Room,
    common_mistakes,
    exercise_summary,
    learner_summary,
    read_room,
    waiting_for_names,
    waiting_note,
)
from mapteach.i18n import N_, check_language, get_language, language, tr

__all__ = ["RoomDashboard"]

#: The column headings, per status (``{n}``: :data:`~mapteach.classroom.STUCK_AFTER`).
STATUS_HEADINGS = {
    "passed": N_("Passed"),
    "stuck": N_("Stuck ({n}+ attempts)"),
    "trying": N_("Trying"),
    "not_started": N_("Not started"),
}

#: Large type and clear lines, for the back of a room.
STYLE = (
    "<style>.mapteach-room table{border-collapse:collapse;font-size:1.35em;margin:.4em 0}"
    ".mapteach-room th,.mapteach-room td{border:1px solid #888;padding:.25em .6em;"
    "text-align:left;vertical-align:top}.mapteach-room th{background:#eee}"
    ".mapteach-room .stuck{color:#b00020;font-weight:bold}</style>"
)


def _table(headings: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{escape(text)}</th>" for text in headings)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f'<div class="mapteach-room"><table><tr>{head}</tr>{body}</table></div>'


def _counted(count: int, names: str, css: str = "") -> str:
    shown = f"<b>{count}</b>" + (f": {escape(names)}" if names else "")
    return f'<span class="{css}">{shown}</span>' if css and count else shown


class RoomDashboard(ipywidgets.VBox):
    """A room's progress folder, per exercise and per learner, re-read when it changes.

    Parameters
    ----------
    folder : path
        The progress folder (``MAPTEACH_PROGRESS_DIR``); it may not exist yet.
    exercises : iterable of IndexedExercise, optional
        The exercises expected (:func:`mapteach.exercises.exercise_index`).
    learners : iterable of str, optional
        The roster: learners with no check yet are shown too.
    lang : {"en", "zh"}, optional
        The language it speaks (default: the current one).
    interval : float, default 5
        Seconds between two looks at the folder once :meth:`start` is called.
    """

    def __init__(
        self,
        folder: str | os.PathLike[str],
        exercises: Iterable[Expected] = (),
        *,
        learners: Iterable[str] = (),
        lang: str | None = None,
        interval: float = 5.0,
    ) -> None:
        if not interval > 0:
            raise ValueError(
                tr(
                    "interval must be a positive number of seconds; got {interval!r}.",
                    interval=interval,
                )
            )
        self.folder = Path(folder).expanduser()
        self.expected = list(exercises)
        self.roster = list(learners)
        self.lang = check_language(lang or get_language())
        self.interval = float(interval)
        self.status = ipywidgets.HTML()
        self.exercises = ipywidgets.HTML()
        self.mistakes = ipywidgets.HTML()
        self.learners = ipywidgets.HTML()
        self._seen: tuple[tuple[Path, int, int], ...] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        super().__init__([self.status, self.exercises, self.mistakes, self.learners])
        self.refresh()

    def _files(self) -> tuple[tuple[Path, int, int], ...]:
        """Each learner's file and each waiting file, with its modification time and size."""
        if not self.folder.is_dir():
            return ()
        found = []
        waiting = sorted((self.folder / WAITING_FOLDER).glob("*.jsonl"))
        for path in [*sorted(self.folder.glob("*.jsonl")), *waiting]:
            with contextlib.suppress(FileNotFoundError):  # a waiting file goes when named
                stat = path.stat()
                found.append((path, stat.st_mtime_ns, stat.st_size))
        return tuple(found)

    def refresh(self) -> bool:
        """Read the folder again if a file in it changed; return whether it was read.

        >>> import tempfile
        >>> from mapteach.classroom import RoomDashboard
        >>> board = RoomDashboard(tempfile.mkdtemp(), lang="en")  # reads it once
        >>> board.refresh()
        False
        """
        files = self._files()
        if files == self._seen:
            return False
        self._seen = files
        paths = [path for path, _, _ in files if path.parent == self.folder]
        room = read_room(*paths, exercises=self.expected, learners=self.roster, skip_corrupt=True)
        self._show(room)
        return True

    def _show(self, room: Room) -> None:
        lang = self.lang
        now = datetime.now(timezone.utc).astimezone().strftime("%H:%M:%S")
        self.status.value = (
            STYLE
            + "<p style='font-size:1.2em'>"
            + escape(
                tr(
                    "{folder}: {learners} learners; read at {time}, again when a file changes.",
                    lang=lang,
                    folder=str(self.folder),
                    learners=len(set(room.table["learner"])),
                    time=now,
                )
            )
            + "</p>"
            + self._waiting_line()
        )
        if room.table.empty:
            self.exercises.value = escape(tr("No answer checked yet.", lang=lang))
            self.mistakes.value = self.learners.value = ""
            return
        self.exercises.value = self._per_exercise(room)
        self.mistakes.value = self._mistakes(room)
        self.learners.value = self._per_learner(room)

    def _waiting_line(self) -> str:
        """The checks that wait for a name in the folder, said (nothing when there are none)."""
        waiting = waiting_for_names(self.folder)
        if not waiting.checks:
            return ""
        with language(self.lang):
            note = waiting_note(waiting, self.folder)
        return f"<p data-testid='room-waiting'>{escape(note)}</p>"

    def _heading(self, status: str) -> str:
        return tr(STATUS_HEADINGS[status], lang=self.lang, n=STUCK_AFTER)

    def _per_exercise(self, room: Room) -> str:
        lang = self.lang
        headings = [tr("Exercise", lang=lang), tr("Question", lang=lang)]
        headings += [self._heading(status) for status in STATUSES]
        rows = [
            [escape(f"{row['notebook']}.{row['exercise']}"), escape(row["prompt"])]
            + [_counted(row[status], row[f"{status}_names"], status) for status in STATUSES]
            for row in exercise_summary(room).to_dict("records")
        ]
        return _table(headings, rows)

    def _mistakes(self, room: Room) -> str:
        lang = self.lang
        found = common_mistakes(room).to_dict("records")
        if not found:
            return escape(tr("No named mistake yet.", lang=lang))
        headings = [
            tr("Exercise", lang=lang),
            tr("Most common mistakes", lang=lang),
            tr("Learners", lang=lang),
            tr("Checks", lang=lang),
            tr("Example answer", lang=lang),
        ]
        rows = [
            [
                escape(f"{row['notebook']}.{row['exercise']}"),
                escape(tr(row["mistake"], lang=lang)),
                str(row["learners"]),
                str(row["count"]),
                f"<code>{escape(row['example_answer'])}</code>",
            ]
            for row in found
        ]
        return _table(headings, rows)

    def _per_learner(self, room: Room) -> str:
        lang = self.lang
        headings = [tr("Learner", lang=lang)]
        headings += [self._heading(status) for status in STATUSES]
        headings.append(tr("Stuck on", lang=lang))
        rows = [
            [escape(row["learner"])]
            + [_counted(row[status], "", status) for status in STATUSES]
            + [escape(row["stuck_on"])]
            for row in learner_summary(room).to_dict("records")
        ]
        return _table(headings, rows)

    def start(self) -> None:
        """Look at the folder every :attr:`interval` seconds, in the background, until stopped.

        Starting a dashboard that is already following its folder changes nothing. A
        folder that cannot be read is said in the status line, and looked at again.

        >>> import tempfile
        >>> from mapteach.classroom import RoomDashboard
        >>> board = RoomDashboard(tempfile.mkdtemp(), lang="en", interval=60)
        >>> board.start(); board.start(); board.following()
        True
        >>> board.stop(); board.following()
        False
        """
        if self.following():
            return
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._follow, args=(self._stop,), name="mapteach-dashboard", daemon=True
        )
        self._thread.start()

    def following(self) -> bool:
        """Whether :meth:`start` is following the folder (and :meth:`stop` was not called)."""
        return self._thread is not None and self._thread.is_alive() and not self._stop.is_set()

    def _follow(self, stop: threading.Event) -> None:
        while not stop.wait(self.interval):
            self._refresh_in_background()

    def _refresh_in_background(self) -> None:
        """:meth:`refresh`, saying in the status line why the folder could not be read."""
        try:
            self.refresh()
        except (OSError, ValueError) as error:
            self._seen = None  # read it again next time
            said = tr(
                "{folder} could not be read ({error}); it is looked at again in {seconds} s.",
                lang=self.lang,
                folder=str(self.folder),
                error=str(error),
                seconds=f"{self.interval:g}",
            )
            self.status.value = (
                STYLE + f"<div class='mapteach-room'><p class='stuck'>{escape(said)}</p></div>"
            )

    def stop(self) -> None:
        """Stop following the folder (:meth:`refresh` still reads it on demand).

        >>> import tempfile
        >>> from mapteach.classroom import RoomDashboard
        >>> board = RoomDashboard(tempfile.mkdtemp(), lang="en")
        >>> board.stop(); board.following()
        False
        """
        self._stop.set()
