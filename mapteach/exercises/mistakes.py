"""One registry of the mistakes learners make, each a function of an exercise's data.

A :class:`Mistake` belongs to one or more *kinds* of exercise (``"AP"``, ``"AP@k"``,
``"P@k"``, ...: :data:`KINDS`). Given an exercise's data (the plain dict
:attr:`NumberExercise.data <mapteach.exercises.NumberExercise>` exposes: ``labels``,
``n_relevant``, ``k``, or ``queries``, ``grades``, ...), it returns the value a learner
who makes it would get (None when it cannot be made on that data) and explains it in
the learner's own numbers. Every numeric exercise of a kind applies every mistake of
that kind: :func:`wrong_answers` is the one place that does it. A mistake that is a
legitimate other convention says who computes it that way (``convention``), so the
feedback never calls it a blunder.

The mistakes themselves live in the modules named ``mistakes_*``, one per family of
measures; each registers its mistakes with :func:`register` when imported, and
:func:`mistakes_for` imports them all.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from mapteach.i18n import tr

__all__ = ["KINDS", "Mistake", "WrongAnswer", "mistakes_for", "register", "wrong_answers"]

#: Every kind of numeric exercise the registry knows, with the measure it asks for.
KINDS: tuple[str, ...] = (
    "AP",
    "AP@k",
    "P@k",
    "R@k",
    "MAP",
    "RR",
    "MRR",
    "nDCG@k",
    "R-precision",
    "GMAP",
    "IPrec",
    "Bpref",
    "pooled AP",
    "kappa",
    "pool",
)

#: The modules that define mistakes; :func:`mistakes_for` imports each once.
MISTAKE_MODULES: tuple[str, ...] = (
    "mapteach.exercises.mistakes_ranking",
    "mapteach.exercises.mistakes_precision",
    "mapteach.exercises.mistakes_map",
    "mapteach.exercises.mistakes_beyond",
    "mapteach.exercises.mistakes_graded",
    "mapteach.exercises.mistakes_pooling",
    "mapteach.exercises.mistakes_agreement",
)

ExerciseData = Mapping[str, Any]


class WrongAnswer(NamedTuple):
    """A wrong answer an exercise recognises: the mistake's name (an English key), its
    value on the exercise's data, what to tell the learner (already in the exercise's
    language) and whether it is another convention rather than a blunder."""

    name: str
    value: float
    explanation: str
    convention: bool = False


@dataclass(frozen=True)
class Mistake:
    """A named wrong way to compute a measure, as a function of an exercise's data.

    ``name`` is an English message marked with :func:`~mapteach.i18n.N_` (the key
    :attr:`Feedback.misconception` keeps). ``value(data)`` is the number a learner
    who makes the mistake gets, or None where it cannot be made on that data.
    ``explain(data, value)`` says what the learner did, in their own numbers, in the
    current language. ``convention`` (an English message, or None) names who
    computes the value this way, when it is a legitimate convention.
    """

    name: str
    kinds: tuple[str, ...]
    value: Callable[[ExerciseData], float | None]
    explain: Callable[[ExerciseData, float], str]
    convention: str | None = None

    def __post_init__(self) -> None:
        unknown = [kind for kind in self.kinds if kind not in KINDS]
        if unknown or not self.kinds:
            raise ValueError(
                tr(
                    "A mistake's kinds must be among {kinds}; got {got!r} for {name!r}.",
                    kinds=", ".join(KINDS),
                    got=list(self.kinds),
                    name=self.name,
                )
            )

    @property
    def shown_name(self) -> str:
        """The name in the current language (``name`` itself is the English key)."""
        return tr(self.name)


_REGISTRY: dict[str, list[Mistake]] = {kind: [] for kind in KINDS}


def register(mistake: Mistake) -> Mistake:
    """Add a mistake to every kind it names; a second mistake of the same name is refused.

    >>> from mapteach.exercises.mistakes import mistakes_for, register
    >>> register(mistakes_for("AP")[0])  # every mistake is registered when its module loads
    Traceback (most recent call last):
    ...
    ValueError: The mistake 'forgot the missed relevant results' is registered twice.
    """
    for kind in mistake.kinds:
        if any(known.name == mistake.name for known in _REGISTRY[kind]):
            raise ValueError(tr("The mistake {name!r} is registered twice.", name=mistake.name))
    for kind in mistake.kinds:
        _REGISTRY[kind].append(mistake)
    return mistake


def mistakes_for(kind: str) -> tuple[Mistake, ...]:
    """Every mistake of one kind of exercise, in the order they were registered.

    >>> from mapteach.exercises.mistakes import mistakes_for
    >>> len(mistakes_for("AP")) >= 5
    True
    >>> mistakes_for("F1")
    Traceback (most recent call last):
    ...
    ValueError: Unknown kind of exercise 'F1'; known: AP, AP@k, P@k, R@k, MAP, RR, MRR, \
nDCG@k, R-precision, GMAP, IPrec, Bpref, pooled AP, kappa, pool.
    """
    if kind not in _REGISTRY:
        raise ValueError(
            tr(
                "Unknown kind of exercise {kind!r}; known: {known}.",
                kind=kind,
                known=", ".join(KINDS),
            )
        )
    for module in MISTAKE_MODULES:
        importlib.import_module(module)
    return tuple(_REGISTRY[kind])


def wrong_answers(kind: str, data: ExerciseData, truth: float) -> list[WrongAnswer]:
    """Every mistake of ``kind`` that can be made on ``data``, with its value and explanation.

    Mistakes whose value is None (cannot be made here) are left out; the caller
    (the exercise) drops those that equal the truth at its precision. Explanations are
    written in the current language, in the learner's own numbers.

    >>> from mapteach.exercises.mistakes import wrong_answers
    >>> names = [w.name for w in wrong_answers("AP", {"labels": [1, 0, 1], "n_relevant": 3,
    ...                                                "k": None}, 5 / 9)]
    >>> "forgot the missed relevant results" in names
    True
    """
    found = []
    for mistake in mistakes_for(kind):
        value = mistake.value(data)
        if value is None:
            continue
        found.append(
            WrongAnswer(
                mistake.name,
                float(value),
                mistake.explain(data, float(value)),
                mistake.convention is not None,
            )
        )
    return found
