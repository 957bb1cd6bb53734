"""Reading and checking a learner's answer: one rule, its verdict and the feedback it gets.

The rule
--------
An exercise states the precision it asks for: ``decimals`` (4 for AP-style answers).
Answers come in two forms. A *decimal* (``0.2815``, ``0.28``, ``28.15%``) is read as
the number padded with zeros to the asked decimals; an *exact form* (a fraction such as
``2/3``, a whole number such as ``1``, a whole percentage such as ``50%``) is compared
exactly. :func:`check_number` gives each answer one status, trying in this order:

``"empty"``
    Nothing was typed.
``"correct"``
    The answer matches the truth at the asked precision: a decimal is the truth
    rounded to ``decimals`` (with more decimals than asked, it lies within half a
    unit of the last asked decimal); an exact form equals the truth.
``"incomplete"``
    The answer is right so far but under-precise: it has fewer decimals than asked,
    and the truth rounds to it at the decimals given (``0.28`` for 0.2815 when 4
    decimals are asked). The feedback says "right so far: give 4 decimals".
``"incorrect"``, naming a misconception
    The answer matches a misconception's value at the asked precision (or exactly,
    for an exact form), by the same test as "correct". A value that does not match
    the truth is never called right, and an under-precise guess is never pinned on
    a misconception it merely rounds to: ``0.48`` names no mistake when 4 decimals
    are asked, ``0.4790`` does. Nor is an answer within the asked precision of the
    truth (an exact ``0`` for 0.03 at 1 decimal), whatever it equals.
``"incorrect"``
    Anything else, with a generic hint; text that is not a number gets a note on
    what can be typed.

Feedback is written in the current language (:func:`mapteach.i18n.tr`): a
misconception's name and explanation and the hint are English messages (marked with
:func:`~mapteach.i18n.N_` where they are defined), translated when the feedback is
given; :attr:`Feedback.misconception` keeps the English name, a key.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from typing import Any, Literal

from mapteach.i18n import N_, tr

__all__ = [
    "STATUSES",
    "Feedback",
    "Status",
    "WrongAnswer",
    "agrees_at",
    "asked_precision",
    "check_number",
    "parse_answer",
]

Status = Literal["correct", "incorrect", "incomplete", "empty"]

#: Every status an answer can get, as :class:`Feedback` and the exercise widgets use them.
STATUSES: tuple[Status, ...] = ("correct", "incorrect", "incomplete", "empty")

#: A wrong answer worth recognising: its name, its value, and what to tell the learner
#: (name and explanation in English, as messages; they are translated when shown).
WrongAnswer = tuple[str, float, str]

_COLORS = {"correct": "#1b7f6b", "incorrect": "#b3261e", "incomplete": "#8a5a00", "empty": "#555"}


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer: its status, what to tell, which mistake it matches.

    ``message`` is in the language of the moment it was given; ``misconception`` is
    the English name of the mistake matched (a key, the same in every language).

    Examples
    --------
    >>> from mapteach.exercises import Feedback
    >>> feedback = Feedback("incomplete", "Right so far: give 4 decimals.")
    >>> feedback.correct, str(feedback)
    (False, 'Right so far: give 4 decimals.')
    """

    status: Status
    message: str
    misconception: str | None = None

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(
                tr(
                    "status must be one of {statuses}; got {status!r}.",
                    statuses=STATUSES,
                    status=self.status,
                )
            )

    @property
    def correct(self) -> bool:
        """Whether the answer is right."""
        return self.status == "correct"

    def __str__(self) -> str:
        return self.message

    def _repr_html_(self) -> str:
        return (
            f'<div data-status="{self.status}" style="color:{_COLORS[self.status]};">'
            f"{escape(self.message)}</div>"
        )


def parse_answer(answer: Any) -> tuple[float, int | None]:
    """Read a typed answer: ``0.2815``, ``2/3`` or ``28.15%``; return it and its decimals.

    The decimals are None for exact forms (fractions, whole numbers, whole
    percentages); a percentage with decimals counts those of the fraction it
    stands for (``28.15%`` is 0.2815, 4 decimals).

    Raises
    ------
    ValueError
        If the text is not a number, a fraction or a percentage.

    Examples
    --------
    >>> from mapteach.exercises import parse_answer
    >>> parse_answer("0.2815"), parse_answer("2/3")[0], parse_answer("50%")
    ((0.2815, 4), 0.6666666666666666, (0.5, None))
    >>> parse_answer(0.479)  # a float counts the decimals it prints with
    (0.479, 3)
    """
    if isinstance(answer, numbers.Real) and not isinstance(answer, bool):
        answer = repr(float(answer))
    text = str(answer).strip().replace(" ", "")
    try:
        if text.endswith("%"):
            value, decimals = parse_answer(text[:-1])
            return value / 100, None if decimals is None else decimals + 2
        if "/" in text:
            return float(Fraction(text)), None
        value = float(text)
    except (ValueError, ZeroDivisionError):
        raise ValueError(_unreadable(answer)) from None
    decimals = len(text.partition(".")[2]) if "." in text and "e" not in text.lower() else None
    return value, decimals


def agrees_at(value: float, target: float, decimals: int) -> bool:
    """Whether ``value`` is ``target`` at ``decimals`` decimals: within half a unit of the last.

    Examples
    --------
    >>> from mapteach.exercises import agrees_at
    >>> agrees_at(0.2815, 0.2815476, 4), agrees_at(0.28, 0.2815476, 4)
    (True, False)
    """
    return abs(value - target) <= 0.5 * 10.0**-decimals + 1e-12


def _unreadable(answer: Any, *, capital: bool = False) -> str:
    if capital:
        return tr(
            "Could not read {answer!r} as a number; type a decimal such as 0.5, "
            "a fraction such as 1/2, or a percentage such as 50%.",
            answer=answer,
        )
    return tr(
        "could not read {answer!r} as a number; type a decimal such as 0.5, "
        "a fraction such as 1/2, or a percentage such as 50%.",
        answer=answer,
    )


def asked_precision(decimals: int) -> str:
    """What an exercise asking for ``decimals`` decimals tells the learner to type.

    >>> from mapteach.exercises import asked_precision
    >>> asked_precision(4), asked_precision(1)
    ('4 decimals or a fraction such as 2/3', '1 decimal or a fraction such as 2/3')
    >>> asked_precision(0)
    'a whole number'
    """
    if decimals == 0:
        return tr("a whole number")
    if decimals == 1:
        return tr("1 decimal or a fraction such as 2/3")
    return tr("{n} decimals or a fraction such as 2/3", n=decimals)


def check_number(
    answer: Any,
    truth: float,
    *,
    decimals: int = 4,
    misconceptions: Sequence[WrongAnswer] = (),
    hint: str = N_("Check your working, or open the solution."),
) -> Feedback:
    """Judge a typed number by the module's rule (see the module docstring).

    Parameters
    ----------
    answer : str or number
        What the learner typed: ``"0.2815"``, ``"2/3"``, ``"28.15%"``, or a number.
    truth : float
        The right answer.
    decimals : int, default 4
        The precision the exercise asks for.
    misconceptions : sequence of (name, value, explanation)
        Wrong answers worth recognising, with what to tell the learner. The name
        and the explanation are English messages, translated here (``tr``).
    hint : str
        Said after "Not quite." to an answer that matches nothing known; an
        English message, translated here.

    Returns
    -------
    Feedback
        Its ``status`` is ``"correct"``, ``"incomplete"``, ``"incorrect"`` or
        ``"empty"``; ``misconception`` names the first mistake matched.

    Raises
    ------
    ValueError
        If ``decimals`` is negative.

    Examples
    --------
    >>> from mapteach.exercises import check_number
    >>> slip = [("final hit count in every numerator", 0.47897, "Count the hits so far.")]
    >>> for typed in ["0.2815", "0.28", "0.4790", "0.48", "0.5", ""]:
    ...     print(f"{typed!r:9}", check_number(typed, 0.2815476, misconceptions=slip).status)
    '0.2815'  correct
    '0.28'    incomplete
    '0.4790'  incorrect
    '0.48'    incorrect
    '0.5'     incorrect
    ''        empty
    >>> print(check_number("0.4790", 0.2815476, misconceptions=slip))
    Not quite: 0.4790 is what you get when you made this mistake: final hit count in every
    numerator. Count the hits so far.
    >>> print(check_number("0.28", 0.2815476))
    Right so far: give 4 decimals.
    """
    if decimals < 0:
        raise ValueError(tr("decimals must be >= 0; got {decimals}.", decimals=decimals))
    asked = asked_precision(decimals)
    if answer is None or not str(answer).strip():
        return Feedback("empty", tr("Type an answer: {asked}.", asked=asked))
    try:
        value, given = parse_answer(answer)
    except ValueError:
        return Feedback("incorrect", _unreadable(answer, capital=True))

    def matches(target: float) -> bool:
        if given is None:
            return math.isclose(value, target, rel_tol=1e-9, abs_tol=1e-12)
        return agrees_at(value, target, decimals)

    if matches(truth):
        rounded = f"{truth:.{decimals}f}"
        return Feedback("correct", tr("Correct: {truth}.", truth=rounded))
    if given is not None and given < decimals and agrees_at(value, truth, given):
        if decimals == 1:
            return Feedback("incomplete", tr("Right so far: give 1 decimal."))
        return Feedback("incomplete", tr("Right so far: give {n} decimals.", n=decimals))
    # an answer within the asked precision of the truth (an exact "0" for 0.03 at 1
    # decimal) is not pinned on a mistake, even if it equals one exactly
    close = agrees_at(value, truth, decimals)
    named = [(name, text) for name, wrong, text in misconceptions if matches(wrong) and not close]
    if named:
        shown = str(answer).strip() if isinstance(answer, str) else repr(answer)
        names = "; ".join(tr(name) for name, _ in named)
        explanations = " ".join(tr(text) for _, text in named)
        if len(named) == 1:
            message = tr(
                "Not quite: {answer} is what you get when you made this mistake: {names}. "
                "{explanations}",
                answer=shown,
                names=names,
                explanations=explanations,
            )
        else:
            message = tr(
                "Not quite: {answer} is what you get when you made any of these mistakes: "
                "{names}. {explanations}",
                answer=shown,
                names=names,
                explanations=explanations,
            )
        return Feedback("incorrect", message, named[0][0])
    return Feedback("incorrect", tr("Not quite. {hint} Give {asked}.", hint=tr(hint), asked=asked))
