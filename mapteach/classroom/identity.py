"""Who is learning: the learner's name, from :func:`learner` or ``MAPTEACH_LEARNER``."""

from __future__ import annotations

import os
from typing import Any

from mapteach.i18n import tr

__all__ = ["forget_learner", "learner"]

LEARNER_VARIABLE = "MAPTEACH_LEARNER"


#: What :func:`learner` set (None: the environment decides).
_state: dict[str, Any] = {"learner": None}


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


def current_learner() -> str | None:
    """The learner set by :func:`learner`, else ``MAPTEACH_LEARNER``, else None."""
    if _state["learner"] is not None:
        return str(_state["learner"])
    return os.environ.get(LEARNER_VARIABLE, "").strip() or None


def learner(name: str | None = None) -> str | None:
    """Set the current learner's name, or (with no argument) return it.

    The name is stripped of surrounding white space. Before any name is set, the
    environment variable ``MAPTEACH_LEARNER`` gives it; with neither, it is None and
    checks are recorded as anonymous (learner ``""``).

    Parameters
    ----------
    name : str, optional
        The learner's name, a non-empty string.

    Returns
    -------
    str or None
        The current learner's name (None if none is set).

    Raises
    ------
    ValueError
        If ``name`` is not a string with something other than white space in it.

    Examples
    --------
    >>> from mapteach.classroom import learner
    >>> learner("  Ada Lovelace ")
    'Ada Lovelace'
    >>> learner()
    'Ada Lovelace'
    >>> learner("   ")
    Traceback (most recent call last):
    ...
    ValueError: The learner's name must be a non-empty string; got '   '.
    >>> forget_learner(); learner() is None
    True
    """
    if name is not None:
        _state["learner"] = check_name(name)
    return current_learner()


def forget_learner() -> None:
    """Go back to no learner: checks are anonymous and exercises are as written.

    ``MAPTEACH_LEARNER``, if set, names the learner again.

    >>> import os
    >>> _ = learner("ada"); forget_learner()
    >>> learner() == (os.environ.get("MAPTEACH_LEARNER", "").strip() or None)
    True
    """
    _state["learner"] = None
