"""The exercises a notebook builds, collected in order for the answer key."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mapteach.exercises.widgets import Exercise

__all__ = ["collect_exercises"]

#: The lists :func:`collect_exercises` is filling (one per open ``with`` block).
_collectors: list[list[Exercise]] = []


@contextlib.contextmanager
def collect_exercises() -> Iterator[list[Exercise]]:
    """Collect every exercise made inside the ``with`` block, in order (the answer key's way in).

    >>> from mapteach.exercises import ChoiceExercise
    >>> with collect_exercises() as made:
    ...     _ = ChoiceExercise("AP or AP@3?", {"AP": "Yes.", "AP@3": "No."}, correct="AP",
    ...                        solution_html="AP", key="00.1")
    >>> [(exercise.key, exercise.correct) for exercise in made]
    [('00.1', 'AP')]
    """
    made: list[Exercise] = []
    _collectors.append(made)
    try:
        yield made
    finally:
        _collectors.remove(made)


def record_exercise(exercise: Exercise) -> None:
    """Add a newly made exercise to every list an open :func:`collect_exercises` is filling.

    Every exercise calls it once, as it is made; outside a ``with collect_exercises()``
    block it does nothing.

    >>> with collect_exercises() as outer, collect_exercises() as inner:
    ...     record_exercise("an exercise")
    >>> outer, inner
    (['an exercise'], ['an exercise'])
    >>> record_exercise("unseen")
    """
    for made in _collectors:
        made.append(exercise)
