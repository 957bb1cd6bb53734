"""Where checks are recorded: one progress file, or a progress folder of one per learner.

The file is :func:`set_progress_file`'s, else the one the environment variable
``MAPTEACH_PROGRESS`` names, else (see below) the learner's file in a progress folder,
else ``~/.mapteach/progress.jsonl``: :func:`progress_file`.

A progress folder, for a server a whole room shares
--------------------------------------------------

When the environment variable ``MAPTEACH_PROGRESS_DIR`` names a folder (and neither
``MAPTEACH_PROGRESS`` nor :func:`~mapteach.classroom.set_progress_file` names a file),
every check is recorded in the current learner's file in it,
:func:`progress_path_for`: ``<slug>-<hash8>.jsonl``. The name counts as
:func:`normalised_name` gives it (NFKC, case folded, stripped, inner white space one
space), so "Ada", "ada " and "ADA" are one learner, and "Zoë" typed either way one
file. The slug is that name's lowercase ASCII letters, digits and hyphens (white space
becomes a hyphen, the rest is dropped; at most 32 characters; ``learner`` when nothing
is left) and ``hash8`` the first 8 hexadecimal digits of its SHA-256, so that 张三 and
李四, whose slugs are both ``learner``, never share a file.

There, a check is never recorded as the anonymous learner ``""``: a check made before
the learner is named **waits** (:func:`waiting_checks`). It is kept in memory and
appended (and flushed to disk) to this session's waiting file,
:func:`waiting_file`: ``<folder>/.waiting/<session>.jsonl``, so that it outlives a
closed tab or a dead kernel. As soon as :func:`~mapteach.classroom.learner` names the
learner, every waiting check is recorded in their file, with its own time, and the
waiting file is removed. A check that cannot be saved or recorded stays waiting and is
tried again at the next check; :func:`when_unsaved`'s listeners (the name bar) say so
on screen.

Examples
--------
>>> import pathlib
>>> from mapteach.classroom import progress_path_for
>>> progress_path_for(pathlib.Path("room"), "Ada Lovelace").as_posix()
'room/ada-lovelace-177f85df.jsonl'
>>> progress_path_for(pathlib.Path("room"), "张三").name
'learner-1d841bc0.jsonl'
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import os
import re
import unicodedata
import uuid
import weakref
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import mapteach.log as log
from mapteach.classroom.identity import current_learner
from mapteach.i18n import tr

__all__ = [
    "FOLDER_VARIABLE",
    "configured_folder",
    "progress_file",
    "progress_path_for",
    "set_progress_file",
    "waiting_checks",
    "waits_for_name",
]

#: The environment variable that names the progress folder.
FOLDER_VARIABLE = "MAPTEACH_PROGRESS_DIR"

#: The longest slug a file name starts with.
SLUG_LENGTH = 32

#: The slug of a name with no ASCII letter or digit in it.
EMPTY_SLUG = "learner"

#: The environment variable that names the one progress file.
FILE_VARIABLE = "MAPTEACH_PROGRESS"

#: The progress file when nothing names another.
DEFAULT_FILE = Path("~") / ".mapteach" / "progress.jsonl"

#: What :func:`set_progress_file` set (None: the environment decides).
_file: dict[str, Path | None] = {"path": None}

#: The folder, in a progress folder, that the waiting files are in.
WAITING_FOLDER = ".waiting"

#: This session (this kernel): its waiting file's name.
SESSION = uuid.uuid4().hex

#: Checks made before the learner was named, oldest first, waiting for the name.
_waiting: list[dict[str, str]] = []

#: How many of the first waiting checks the waiting file holds.
_saved: dict[str, int] = {"count": 0}

#: What :func:`when_unsaved` registered: each gives the listener, or None once it is gone.
_unsaved_listeners: list[Callable[[], Callable[[int], None] | None]] = []


def set_progress_file(path: str | os.PathLike[str] | None) -> Path:
    """Record checks in ``path`` from now on (None: back to the default); return the file.

    ``~`` is expanded. The default is ``MAPTEACH_PROGRESS`` if set, else the learner's
    file in ``MAPTEACH_PROGRESS_DIR`` if set, else ``~/.mapteach/progress.jsonl``.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from mapteach.classroom import progress_file, set_progress_file
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "mine.jsonl"
    >>> set_progress_file(path) == path == progress_file()
    True
    >>> set_progress_file(None) == progress_file()
    True
    """
    _file["path"] = None if path is None else Path(path).expanduser()
    return progress_file()


def progress_file() -> Path:
    """The file checks are recorded in: :func:`set_progress_file`'s, else the default.

    In a progress folder, the current learner's file there (before a name, a file no
    check is written to: checks wait for the name).

    Examples
    --------
    >>> import os
    >>> from mapteach.classroom import progress_file
    >>> progress_file().name if "MAPTEACH_PROGRESS" not in os.environ else "progress.jsonl"
    'progress.jsonl'
    """
    return file_for(current_learner() or "")


def folder_in_use() -> Path | None:
    """The progress folder checks go to (None: one file, named or the default).

    >>> import os
    >>> from mapteach.classroom.progress_folder import folder_in_use
    >>> (folder_in_use() is None) == (
    ...     "MAPTEACH_PROGRESS" in os.environ or "MAPTEACH_PROGRESS_DIR" not in os.environ)
    True
    """
    if _file["path"] is not None or os.environ.get(FILE_VARIABLE, ""):
        return None
    return configured_folder()


def file_for(learner: str) -> Path:
    """The file a check of ``learner`` goes to when no path is given.

    >>> import pathlib, tempfile
    >>> from mapteach.classroom import set_progress_file
    >>> from mapteach.classroom.progress_folder import file_for
    >>> path = set_progress_file(pathlib.Path(tempfile.mkdtemp()) / "one.jsonl")
    >>> file_for("ada") == file_for("bo") == path
    True
    >>> _ = set_progress_file(None)
    """
    folder = folder_in_use()
    if folder is not None:
        return progress_path_for(folder, learner)
    if _file["path"] is not None:
        return Path(_file["path"])
    return Path(os.environ.get(FILE_VARIABLE, "") or DEFAULT_FILE).expanduser()


def waits_for_name() -> bool:
    """Whether a check made now waits for a name: in a progress folder, with no learner.

    >>> import pathlib, tempfile
    >>> from mapteach.classroom import set_progress_file, waits_for_name
    >>> _ = set_progress_file(pathlib.Path(tempfile.mkdtemp()) / "one.jsonl")
    >>> waits_for_name()  # a file named: checks never wait
    False
    >>> _ = set_progress_file(None)
    """
    return folder_in_use() is not None and not current_learner()


def slug(name: str) -> str:
    """``name``'s lowercase ASCII letters, digits and hyphens, as a file name starts.

    >>> slug("  Zoë O'Brien-Smith "), slug("张三"), slug("--")
    ('zoe-obrien-smith', 'learner', 'learner')
    """
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    hyphened = re.sub(r"[\s_]+", "-", ascii_name.strip().lower())
    kept = re.sub(r"-{2,}", "-", re.sub(r"[^a-z0-9-]", "", hyphened))
    return kept[:SLUG_LENGTH].strip("-") or EMPTY_SLUG


def normalised_name(name: str) -> str:
    """``name`` as a learner's file counts it: NFKC, case folded, stripped, one space inside.

    >>> normalised_name("  ADA   Lovelace "), normalised_name("Zoe\u0308") == normalised_name("Zoë")
    ('ada lovelace', True)
    """
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def progress_path_for(folder: str | os.PathLike[str], name: str) -> Path:
    """The progress file of the learner ``name`` in the progress folder ``folder``.

    Parameters
    ----------
    folder : path
        The progress folder (``~`` is expanded).
    name : str
        The learner's name, as :func:`normalised_name` counts it: case, surrounding and
        repeated white space and the Unicode form do not count.

    Returns
    -------
    pathlib.Path
        ``folder / "<slug>-<hash8>.jsonl"`` (see the module notes).

    Raises
    ------
    TypeError
        If ``name`` is not a string.

    Examples
    --------
    >>> from mapteach.classroom import progress_path_for
    >>> progress_path_for("room", " ada ") == progress_path_for("room", "ADA")
    True
    >>> progress_path_for("room", "ada") == progress_path_for("room", "bo")
    False
    """
    if not isinstance(name, str):
        raise TypeError(
            tr(
                "The learner's name must be a string; got {kind} {name!r}.",
                kind=type(name).__name__,
                name=name,
            )
        )
    counted = normalised_name(name)
    digest = hashlib.sha256(counted.encode("utf-8")).hexdigest()[:8]
    return Path(folder).expanduser() / f"{slug(counted)}-{digest}.jsonl"


def configured_folder() -> Path | None:
    """The folder ``MAPTEACH_PROGRESS_DIR`` names (``~`` expanded), or None if unset.

    >>> import os
    >>> from mapteach.classroom.progress_folder import configured_folder
    >>> configured_folder() is None or "MAPTEACH_PROGRESS_DIR" in os.environ
    True
    """
    configured = os.environ.get(FOLDER_VARIABLE, "").strip()
    return Path(configured).expanduser() if configured else None


def waiting_file(folder: str | os.PathLike[str]) -> Path:
    """The file this session's checks wait for a name in: ``<folder>/.waiting/<session>.jsonl``.

    >>> from mapteach.classroom.progress_folder import SESSION, waiting_file
    >>> waiting_file("room").as_posix() == f"room/.waiting/{SESSION}.jsonl"
    True
    """
    return Path(folder).expanduser() / WAITING_FOLDER / f"{SESSION}.jsonl"


def when_unsaved(listener: Callable[[int], None]) -> None:
    """Call ``listener`` with how many checks wait unsaved, each time one cannot be saved.

    A bound method is held weakly: a name bar that is gone is no longer called.
    """
    held = weakref.WeakMethod(listener) if inspect.ismethod(listener) else (lambda: listener)
    _unsaved_listeners.append(held)


def _tell_unsaved(count: int) -> None:
    for held in list(_unsaved_listeners):
        listener = held()
        if listener is None:
            _unsaved_listeners.remove(held)
        else:
            listener(count)


def wait_for_name(record: Mapping[str, str], schema: log.Schema[Any]) -> int:
    """Keep ``record``, a check made before a name, and save what waits; return the unsaved.

    Every waiting check the waiting file does not hold yet is appended to it, oldest
    first; one that cannot be (the folder is not writable, the disk is full) is kept in
    memory and tried again at the next check, and :func:`when_unsaved`'s listeners are
    told.

    >>> import os, pathlib, tempfile
    >>> from mapteach.classroom import forget_learner, learner, record_check, waiting_checks
    >>> from mapteach.classroom.progress_folder import waiting_file
    >>> named = ("MAPTEACH_PROGRESS", "MAPTEACH_LEARNER")  # a file or a name: no waiting
    >>> kept = {name: os.environ.pop(name, "") for name in named}
    >>> forget_learner(); folder = pathlib.Path(tempfile.mkdtemp())
    >>> os.environ["MAPTEACH_PROGRESS_DIR"] = str(folder)
    >>> record = record_check("03", "1", "0.5", "correct")  # no name yet: it waits
    >>> len(waiting_file(folder).read_text().splitlines()), waiting_checks() == (record,)
    (1, True)
    >>> _ = learner("ada"); waiting_checks(), waiting_file(folder).exists()
    ((), False)
    >>> forget_learner(); del os.environ["MAPTEACH_PROGRESS_DIR"]
    >>> os.environ.update({name: value for name, value in kept.items() if value})
    """
    _waiting.append(dict(record))
    folder = folder_in_use()
    if folder is None:  # no folder to save in: it waits in memory only
        return len(_waiting) - _saved["count"]
    try:
        for waiting in _waiting[_saved["count"] :]:
            log.append(waiting_file(folder), waiting, schema)
            _saved["count"] += 1
    except OSError:
        _tell_unsaved(len(_waiting) - _saved["count"])
    return len(_waiting) - _saved["count"]


def record_waiting(
    name: str,
    schema: log.Schema[Any],
    named: Callable[[Mapping[str, str], str], Mapping[str, str]],
) -> int:
    """Record every waiting check, ``named(check, name)``, in ``name``'s file; return the rest.

    Oldest first; one that cannot be recorded stops the rest, which stay waiting (tried
    again at the next check; :func:`when_unsaved`'s listeners are told). Once none is
    left, the waiting file is removed.

    >>> from mapteach.classroom.progress_log import PROGRESS
    >>> from mapteach.classroom.progress_folder import record_waiting
    >>> record_waiting("ada", PROGRESS, lambda check, name: {**check, "learner": name})
    0
    """
    try:
        while _waiting:
            log.append(file_for(name), named(_waiting[0], name), schema)
            del _waiting[0]
            _saved["count"] = max(0, _saved["count"] - 1)
    except OSError:
        _tell_unsaved(len(_waiting))
        return len(_waiting)
    folder = folder_in_use()
    if folder is not None:
        with contextlib.suppress(OSError):
            waiting_file(folder).unlink(missing_ok=True)
    return 0


def waiting_checks() -> tuple[dict[str, str], ...]:
    """The checks made before the learner was named, oldest first, waiting for the name.

    Each is a check as :func:`~mapteach.classroom.record_check` returned it, with
    ``"learner": ""``; they are recorded under the name as soon as
    :func:`~mapteach.classroom.learner` gives one.

    >>> from mapteach.classroom import waiting_checks
    >>> waiting_checks()
    ()
    """
    return tuple(dict(record) for record in _waiting)
