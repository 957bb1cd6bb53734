"""The exercises a notebook builds, collected by key for the answer key."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mapteach.exercises.widgets import _Exercise
import contextlib
from collections.abc import Iterator

__all__ = ["collect_exercises"]

#: The lists :func:`collect_exercises` is filling (one per open ``with`` block).
_collectors: list[list[_Exercise]] = []


@contextlib.contextmanager
def collect_exercises() -> Iterator[list[_Exercise]]:
    """Collect every exercise made inside the ``with`` block, in order (the answer key's way in).

    >>> from mapteach.exercises import ChoiceExercise
    >>> with collect_exercises() as made:
    ...     _ = ChoiceExercise("AP or AP@3?", {"AP": "Yes.", "AP@3": "No."}, correct="AP",
    ...                        solution_html="AP", key="00.1")
    >>> [(exercise.key, exercise.correct) for exercise in made]
    [('00.1', 'AP')]
    """
    made: list[_Exercise] = []
    _collectors.append(made)
    try:
        yield made
    finally:
        _collectors.remove(made)
