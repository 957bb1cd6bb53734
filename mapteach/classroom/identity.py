"""Who is learning: the learner's name and group, from :func:`learner` or the environment.

The name comes from :func:`learner` (else ``MAPTEACH_LEARNER``); the group, the pair or
team the learner works in, from ``learner(group=...)`` (else ``MAPTEACH_GROUP``).
Everyone in a group gets the same exercise variants, so partners can compare.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from mapteach.i18n import tr

__all__ = ["current_group", "forget_learner", "learner", "when_named"]

LEARNER_VARIABLE = "MAPTEACH_LEARNER"
GROUP_VARIABLE = "MAPTEACH_GROUP"


#: What :func:`learner` set (None: the environment decides).
_state: dict[str, Any] = {"learner": None, "group": None}

#: What :func:`learner` calls, in order, with each name it sets.
_listeners: list[Callable[[str], None]] = []


def when_named(listener: Callable[[str], None]) -> None:
    """Call ``listener`` with the name each time :func:`learner` sets one, after setting it.

    The progress log records the checks waiting for a name this way
    (:mod:`mapteach.classroom.progress_folder`).
    """
    _listeners.append(listener)


def check_name(name: object) -> str:
    """A learner's name, stripped; a ValueError for anything but a non-empty string.

    >>> check_name("  ada ")
    'ada'
    """
    if not isinstance(name, str) or not name.strip():
        raise ValueError(
            tr("The learner's name must be a non-empty string; got {name!r}.", name=name)
        )
    return name.strip()


def check_group(group: object) -> str:
    """A group's name, stripped; a ValueError for anything but a non-empty string.

    >>> check_group(" pair 3 ")
    'pair 3'
    >>> check_group("")
    Traceback (most recent call last):
    ...
    ValueError: The group must be a non-empty string; got ''.
    """
    if not isinstance(group, str) or not group.strip():
        raise ValueError(tr("The group must be a non-empty string; got {group!r}.", group=group))
    return group.strip()


def current_group() -> str | None:
    """The group set by :func:`learner`, else ``MAPTEACH_GROUP``, else None.

    >>> from mapteach.classroom import current_group, forget_learner, learner
    >>> _ = learner("ada", group="pair 3"); current_group()
    'pair 3'
    >>> forget_learner()
    """
    if _state["group"] is not None:
        return str(_state["group"])
    return os.environ.get(GROUP_VARIABLE, "").strip() or None


def current_learner() -> str | None:
    """The learner set by :func:`learner`, else ``MAPTEACH_LEARNER``, else None."""
    if _state["learner"] is not None:
        return str(_state["learner"])
    return os.environ.get(LEARNER_VARIABLE, "").strip() or None


def learner(name: str | None = None, group: str | None = None) -> str | None:
    """Set the current learner's name (and group), or (with no argument) return the name.

    Both are stripped of surrounding white space. Before any name is set, the
    environment variable ``MAPTEACH_LEARNER`` gives it; with neither, it is None and
    checks are recorded as anonymous (learner ``""``), or, in a progress folder
    (:mod:`~mapteach.classroom.progress_folder`), wait and are recorded under the name
    this sets. The group works the same way,
    with ``MAPTEACH_GROUP``; :func:`current_group` returns it.

    Parameters
    ----------
    name : str, optional
        The learner's name, a non-empty string.
    group : str, optional
        The group (a pair, a team) the learner works in, a non-empty string: everyone
        in a group gets the same exercise variants.

    Returns
    -------
    str or None
        The current learner's name (None if none is set).

    Raises
    ------
    ValueError
        If ``name`` or ``group`` is not a string with something other than white
        space in it; then neither is set.

    Examples
    --------
    >>> from mapteach.classroom import current_group, learner
    >>> learner("  Ada Lovelace ", group="pair 3")
    'Ada Lovelace'
    >>> learner(), current_group()
    ('Ada Lovelace', 'pair 3')
    >>> learner("   ")
    Traceback (most recent call last):
    ...
    ValueError: The learner's name must be a non-empty string; got '   '.
    >>> forget_learner(); learner() is None, current_group() is None
    (True, True)
    """
    checked_name = None if name is None else check_name(name)
    checked_group = None if group is None else check_group(group)
    if checked_group is not None:
        _state["group"] = checked_group
    if checked_name is not None:
        _state["learner"] = checked_name
        for listener in _listeners:
            listener(checked_name)
    return current_learner()


def forget_learner() -> None:
    """Go back to no learner and no group: checks are anonymous, exercises as written.

    ``MAPTEACH_LEARNER`` and ``MAPTEACH_GROUP``, if set, name them again.

    >>> import os
    >>> _ = learner("ada"); forget_learner()
    >>> learner() == (os.environ.get("MAPTEACH_LEARNER", "").strip() or None)
    True
    """
    _state["learner"] = None
    _state["group"] = None
