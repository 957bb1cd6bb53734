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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from mapteach.i18n import tr

__all__ = [
    "KINDS",
    "Mistake",
    "WrongAnswer",
    "exact_number",
    "mistakes_for",
    "number",
    "register",
    "same_value",
    "spoken_list",
    "wrong_answers",
]

#: Every kind of numeric exercise the registry knows, with the measure it asks for.
KINDS: tuple[str, ...] = (
    "AP",
    "AP@k",
    "P@k",
    "R@k",
    "micro R@k",
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


def number(value: float) -> str:
    """A value as explanations show it: 4 decimals.

    >>> from mapteach.exercises.mistakes import number
    >>> number(5 / 9)
    '0.5556'
    """
    return f"{value:.4f}"


def exact_number(value: float) -> str:
    """A value as a prompt states it, exactly: its short decimal (``0.25``, ``1e-05``), else
    a fraction with a denominator up to 1000 (``1/7``), else 4 decimals.

    >>> from mapteach.exercises.mistakes import exact_number
    >>> exact_number(0.25), exact_number(1 / 7), exact_number(1e-05), exact_number(0.1 + 0.2)
    ('0.25', '1/7', '1e-05', '0.3')
    >>> exact_number(2 ** -0.5)
    '0.7071'
    """
    short = f"{value:.6g}"
    if abs(float(short) - value) <= 1e-12:
        return short
    fraction = Fraction(value).limit_denominator(1000)
    if abs(float(fraction) - value) <= 1e-12:
        return f"{fraction.numerator}/{fraction.denominator}"
    return number(value)


def spoken_list(items: Sequence[object]) -> str:
    """Items as a sentence lists them, in the current language: ``"1, 4 and 6"``.

    >>> from mapteach.exercises.mistakes import spoken_list
    >>> spoken_list([2]), spoken_list([1, 4, 6])
    ('2', '1, 4 and 6')
    """
    words = [str(item) for item in items]
    if len(words) < 2:
        return "".join(words)
    return tr("{first} and {second}", first=tr(", ").join(words[:-1]), second=words[-1])


def spoken_ranks(ranks: Sequence[int]) -> str:
    """Ranks as a sentence lists them, in the current language: ``"1, 4 and 6"``; in
    Chinese ``"1、4、6"``, for ``第 1、4、6 位``.

    >>> from mapteach.exercises.mistakes import spoken_ranks
    >>> from mapteach.i18n import language
    >>> spoken_ranks([2]), spoken_ranks([1, 4, 6])
    ('2', '1, 4 and 6')
    >>> with language("zh"):
    ...     spoken_ranks([1, 4, 6])
    '1、4、6'
    """
    words = [str(rank) for rank in ranks]
    if len(words) < 2:
        return "".join(words)
    return tr("{ranks} and {last}", ranks=tr(", ").join(words[:-1]), last=words[-1])


def same_value(value: float | None, truth: float) -> bool:
    """Whether a mistake's ``value`` is ``truth`` itself (to rounding error): then the
    mistake costs nothing on this data and is not offered.

    >>> from mapteach.exercises.mistakes import same_value
    >>> same_value(0.1 + 0.2, 0.3), same_value(None, 0.3), same_value(0.3001, 0.3)
    (True, False, False)
    """
    return value is not None and abs(value - truth) <= 1e-12


class WrongAnswer(NamedTuple):
    """A wrong answer an exercise recognises: the mistake's name (an English key), its
    value on the exercise's data, what to tell the learner (already in the exercise's
    language) and, when it is another convention rather than a blunder, who computes
    it that way (an English message, translated when the feedback is given; None for
    a slip). ``bool(wrong.convention)`` says whether it is a convention."""

    name: str
    value: float
    explanation: str
    convention: str | None = None


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
    ValueError: Unknown kind of exercise 'F1'; known: AP, AP@k, P@k, R@k, micro R@k, MAP, RR, \
MRR, nDCG@k, R-precision, GMAP, IPrec, Bpref, pooled AP, kappa, pool.
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
                mistake.convention,
            )
        )
    return found
