"""Checking a learner's answer: one rule, its verdict and the feedback it gets.

Answers are read by :func:`~mapteach.exercises.reading.parse_answer`, however they are
typed (decimals, fractions, percentages, full-width characters, comma decimals).

The rule
--------
An exercise states the precision it asks for: ``decimals`` (4 for AP-style answers).
Answers come in two forms. A *decimal* (``0.2815``, ``0.28``, ``28.15%``) is read as
the number padded with zeros to the asked decimals; a percentage counts the decimals
of the fraction it stands for, so a whole percentage such as ``58%`` has 2. An *exact
form* (a fraction such as ``2/3``, a whole number such as ``1``) is compared exactly.
:func:`check_number` gives each answer one status, trying in this order:

``"empty"``
    Nothing was typed.
``"unreadable"``
    The text is not a number in any of the forms above; the feedback says why and
    gives an example of what can be typed. It is not an attempt: nothing is recorded.
``"correct"``
    The answer matches the truth at the asked precision: a decimal is the truth
    rounded to ``decimals`` (with more decimals than asked, it lies within half a
    unit of the last asked decimal); an exact form equals the truth.
``"incomplete"``
    The answer is right so far but under-precise: it has fewer decimals than asked,
    and the truth rounds to it at the decimals given (``0.28`` or ``28%`` for 0.2815
    when 4 decimals are asked). The feedback says "right so far: give 4 decimals".
``"incorrect"``, naming mistakes
    The answer matches a mistake's value at the asked precision (or exactly, for an
    exact form), by the same test as "correct". An under-precise answer with at
    least 2 decimals also names a mistake whose value rounds to it at the answer's
    own decimals (``0.48`` for article 001's 0.4790, when the truth does not round to
    0.48), and still asks for the asked decimals. A value that does not match the
    truth is never called right, and an answer within the asked precision of the
    truth (an exact ``0`` for 0.03 at 1 decimal) is pinned on no mistake, whatever
    it equals. Every mistake matched is named, once each, the likeliest first (the
    value closest to the answer, then in the order given); where several share the
    value, one sentence names them all, numbered, and the two likeliest are
    explained. A value that is another convention (``WrongAnswer.convention``) is
    said to be one, with who computes it that way, not called a slip.
``"incorrect"``, truncated
    The answer, with at least 2 decimals (or all those asked), is the truth cut off
    instead of rounded (``0.6666`` for 2/3): it is named ``"truncated instead of
    rounded"`` and the learner is told to round.
``"incorrect"``
    Anything else, with a generic hint; for a measure (``measure`` given) whose truth
    lies in [0, 1], an answer outside [0, 1] is told that the measure lies there.

Feedback is written in the current language (:func:`mapteach.i18n.tr`): a mistake's
explanation arrives already written in it (in the learner's own numbers); its name,
a convention's label and the hint are English messages (marked with
:func:`~mapteach.i18n.N_` where they are defined), translated when the feedback is
given. :attr:`Feedback.misconception` and :attr:`Feedback.mistakes` keep the English
names, keys.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any, Literal

from mapteach.exercises.mistakes import WrongAnswer
from mapteach.exercises.reading import parse_answer, shown_answer
from mapteach.i18n import JOINER, N_, joined_sentences, ngettext, plural_message, tr

__all__ = [
    "JOINER",
    "STATUSES",
    "Feedback",
    "Status",
    "WrongAnswer",
    "agrees_at",
    "asked_precision",
    "check_number",
    "joined_sentences",
    "parse_answer",
    "tolerance",
]

Status = Literal["correct", "incorrect", "incomplete", "empty", "unreadable"]

#: Every status an answer can get, as :class:`Feedback` and the exercise widgets use them.
STATUSES: tuple[Status, ...] = ("correct", "incorrect", "incomplete", "empty", "unreadable")


_COLORS = {
    "correct": "#1b7f6b",
    "incorrect": "#b3261e",
    "incomplete": "#8a5a00",
    "empty": "#555",
    "unreadable": "#1f5fa8",
}


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer: its status, what to tell, which mistakes it matches.

    ``message`` is in the language of the moment it was given. ``mistakes`` are the
    English names (keys, the same in every language) of every mistake the answer
    matches, once each; ``misconception`` is the first of them (None: no mistake is
    named). ``convention`` is True when every value named is another convention
    rather than a slip. Give either ``misconception`` or ``mistakes``: the other follows.

    Raises
    ------
    ValueError
        If the status is unknown, or the mistakes named are repeated, disagree with
        ``misconception``, or come with a status other than ``"incorrect"``.

    Examples
    --------
    >>> from mapteach.exercises import Feedback
    >>> feedback = Feedback("incomplete", "Right so far: give 4 decimals.")
    >>> feedback.correct, str(feedback)
    (False, 'Right so far: give 4 decimals.')
    >>> Feedback("incorrect", "No.", "b").mistakes
    ('b',)
    """

    status: Status
    message: str
    misconception: str | None = None
    mistakes: tuple[str, ...] = ()
    convention: bool = False

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(
                tr(
                    "status must be one of {statuses}; got {status!r}.",
                    statuses=STATUSES,
                    status=self.status,
                )
            )
        given = self.misconception
        mistakes = tuple(self.mistakes) or (() if given is None else (given,))
        if len(set(mistakes)) != len(mistakes) or (given is not None and given != mistakes[0]):
            raise ValueError(
                tr(
                    "mistakes must be named once each, the first being the misconception; "
                    "got {mistakes!r} and {misconception!r}.",
                    mistakes=mistakes,
                    misconception=given,
                )
            )
        if (mistakes and self.status != "incorrect") or (self.convention and not mistakes):
            raise ValueError(
                tr(
                    "Mistakes and conventions are named only for an incorrect answer that "
                    "matches them; got status {status!r}, mistakes {mistakes!r}, "
                    "convention={convention}.",
                    status=self.status,
                    mistakes=mistakes,
                    convention=self.convention,
                )
            )
        object.__setattr__(self, "mistakes", mistakes)
        object.__setattr__(self, "misconception", mistakes[0] if mistakes else None)

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


#: The mistake named for the truth cut off instead of rounded (``0.6666`` for 2/3).
TRUNCATED = N_("truncated instead of rounded")

# Every sentence check_number writes, as its message id: translated and filled when said
# (the static site's checker, fed by mapteach.exercises.answer_table, fills them itself).
EMPTY = N_("Type an answer: {asked}.")
CORRECT = N_("Correct: {truth}.")
RIGHT_SO_FAR = plural_message("Right so far: give {n} decimal.", "Right so far: give {n} decimals.")
LEAD_CONVENTION = N_("{answer} is another convention, not a slip: {convention}.")
LEAD_SLIP = N_("Not quite: {answer} is what you get when you made this mistake: {name}.")
LEAD_CONVENTIONS = N_("{answer} is what other conventions give, not a slip: {items}.")
LEAD_SLIPS = N_("Not quite: {answer} is what you get from one of these mistakes: {items}.")
LEAD_MIXED = N_("Not quite: {answer} is what you get from one of these: {items}.")
CONVENTION_ITEM = N_("{convention} (another convention, not a slip)")
NUMBERED = N_("({n}) {text}")
LAST_OF = N_("{first}, or {last}")
SEPARATOR = N_(", ")
TELL_APART = plural_message(
    "To tell it apart from other values, give {n} decimal, as the exercise asks.",
    "To tell it apart from other values, give {n} decimals, as the exercise asks.",
)
CUT_OFF = plural_message(
    "Almost: {answer} is the value cut off after {n} decimal. Round it instead: the "
    "next digit is 5 or more, so the last digit you give goes up.",
    "Almost: {answer} is the value cut off after {n} decimals. Round it instead: the "
    "next digit is 5 or more, so the last digit you give goes up.",
)
GIVE = N_("Give {asked}.")
OUTSIDE = N_(
    "Not quite: {measure} lies between 0 and 1, and {answer} does not. {hint} Give {asked}."
)
NOT_QUITE = N_("Not quite. {hint} Give {asked}.")
#: ``_truncated`` cuts ``truth * 10**n`` off with this guard, so 0.29 * 100 stays 29.
CUT_GUARD = 1e-9


def tolerance(decimals: int) -> float:
    """How far a value may lie from a target and still be it at ``decimals`` decimals.

    Half a unit of the last decimal, and a little more for the rounding error of floats.

    >>> from mapteach.exercises.answers import tolerance
    >>> abs(0.285 - 0.28) <= tolerance(2), abs(0.2851 - 0.28) <= tolerance(2)
    (True, False)
    """
    return 0.5 * 10.0**-decimals + 1e-12


def agrees_at(value: float, target: float, decimals: int) -> bool:
    """Whether ``value`` is ``target`` at ``decimals`` decimals: within half a unit of the last.

    Examples
    --------
    >>> from mapteach.exercises import agrees_at
    >>> agrees_at(0.2815, 0.2815476, 4), agrees_at(0.28, 0.2815476, 4)
    (True, False)
    """
    return abs(value - target) <= tolerance(decimals)


def asked_precision(decimals: int, *, fraction: bool = True) -> str:
    """What an exercise asking for ``decimals`` decimals tells the learner to type; with
    ``fraction=False`` (a measure with logarithms or roots), decimals only.

    >>> from mapteach.exercises import asked_precision
    >>> asked_precision(4), asked_precision(1)
    ('4 decimals or a fraction such as 2/3', '1 decimal or a fraction such as 2/3')
    >>> asked_precision(4, fraction=False), asked_precision(0)
    ('4 decimals', 'a whole number')
    """
    if decimals == 0:
        return tr("a whole number")
    if not fraction:
        return ngettext("{n} decimal", "{n} decimals", decimals)
    return ngettext(
        "{n} decimal or a fraction such as 2/3", "{n} decimals or a fraction such as 2/3", decimals
    )


def states_precision(prompt: str, decimals: int) -> bool:
    """Whether ``prompt`` (in the current language) already says how precise the answer
    must be (``"Give 4 decimals"``, ``"请给出 4 位小数"``), so that an exercise does not
    say it a second time.

    >>> from mapteach.exercises.answers import states_precision
    >>> states_precision("What is AP? Give 4 decimals or a fraction.", 4)
    True
    >>> states_precision("What is AP? Give 14 decimals.", 4), states_precision("How many?", 0)
    (False, False)
    """
    asked = asked_precision(decimals, fraction=False)
    return re.search(rf"(?<!\d){re.escape(asked)}", re.sub(r"<[^>]+>", "", prompt)) is not None


@dataclass(frozen=True)
class _Reading:
    """An answer as read, and the precision its exercise asks for."""

    shown: str
    value: float
    given: int | None  # the answer's decimals; None for an exact form
    decimals: int

    def matches(self, target: float) -> bool:
        """The answer is ``target`` at the asked precision (exactly, for an exact form)."""
        if self.given is None:
            return math.isclose(self.value, target, rel_tol=1e-9, abs_tol=1e-12)
        return agrees_at(self.value, target, self.decimals)

    @property
    def under_precise(self) -> bool:
        return self.given is not None and self.given < self.decimals

    def rounds_to(self, target: float) -> bool:
        """An under-precise answer of at least 2 decimals is ``target`` at its own decimals."""
        return (
            self.under_precise
            and self.given is not None
            and self.given >= 2
            and (agrees_at(self.value, target, self.given))
        )


def _matched(
    misconceptions: Sequence[WrongAnswer | tuple[Any, ...]], reading: _Reading
) -> list[WrongAnswer]:
    """The wrong answers the answer matches, once per name, the likeliest first: the value
    closest to the answer, then in the order given."""
    named: dict[str, WrongAnswer] = {}
    for item in misconceptions:
        wrong = item if isinstance(item, WrongAnswer) else WrongAnswer(*item)
        if wrong.name not in named and (
            reading.matches(wrong.value) or reading.rounds_to(wrong.value)
        ):
            named[wrong.name] = wrong
    return sorted(named.values(), key=lambda wrong: abs(wrong.value - reading.value))


def _one_of(items: Sequence[str]) -> str:
    """``"(1) a, (2) b, or (3) c"``: numbered items, as a sentence offers a choice."""
    numbered = [tr(NUMBERED, n=n, text=text) for n, text in enumerate(items, start=1)]
    return tr(LAST_OF, first=tr(SEPARATOR).join(numbered[:-1]), last=numbered[-1])


def _lead(reading: _Reading, named: list[WrongAnswer]) -> str:
    """The sentence that names what ``named`` are: one slip or convention, or several."""
    slips = [wrong for wrong in named if not wrong.convention]
    if len(named) == 1:
        (wrong,) = named
        if wrong.convention:
            return tr(LEAD_CONVENTION, answer=reading.shown, convention=tr(wrong.convention))
        return tr(LEAD_SLIP, answer=reading.shown, name=tr(wrong.name))
    if not slips:
        items = _one_of([tr(str(wrong.convention)) for wrong in named])
        return tr(LEAD_CONVENTIONS, answer=reading.shown, items=items)
    if len(slips) == len(named):
        items = _one_of([tr(wrong.name) for wrong in named])
        return tr(LEAD_SLIPS, answer=reading.shown, items=items)
    texts = [
        tr(CONVENTION_ITEM, convention=tr(wrong.convention)) if wrong.convention else tr(wrong.name)
        for wrong in named
    ]
    return tr(LEAD_MIXED, answer=reading.shown, items=_one_of(texts))


def _named_feedback(reading: _Reading, named: list[WrongAnswer]) -> Feedback:
    """The feedback on an answer that matches ``named`` (the likeliest first): one sentence
    naming them all, then the explanations of the two likeliest."""
    if len(named) == 1:
        explanations = [named[0].explanation]
    else:
        explanations = [
            tr(NUMBERED, n=n, text=wrong.explanation)
            for n, wrong in enumerate(named[:2], start=1)
            if wrong.explanation
        ]
    sentences = [_lead(reading, named), *explanations]
    if not all(reading.matches(wrong.value) for wrong in named):
        sentences.append(ngettext(*TELL_APART, reading.decimals))
    mistakes = tuple(wrong.name for wrong in named)
    convention = all(wrong.convention for wrong in named)
    return Feedback(
        "incorrect", joined_sentences(sentences), mistakes=mistakes, convention=convention
    )


def _truncated(reading: _Reading, truth: float, asked: str) -> Feedback | None:
    """The feedback on the truth cut off instead of rounded (``0.6666`` for 2/3), or None."""
    given = reading.given
    if given is None or given < min(2, reading.decimals) or truth < 0:
        return None
    scale = 10**given
    cut = math.floor(truth * scale + CUT_GUARD) / scale
    if not math.isclose(reading.value, cut, rel_tol=0.0, abs_tol=1e-12):
        return None
    sentences = [ngettext(*CUT_OFF, given, answer=reading.shown)]
    if reading.under_precise:
        sentences.append(tr(GIVE, asked=asked))
    return Feedback("incorrect", joined_sentences(sentences), mistakes=(TRUNCATED,))


def check_number(
    answer: Any,
    truth: float,
    *,
    decimals: int = 4,
    misconceptions: Sequence[WrongAnswer | tuple[Any, ...]] = (),
    hint: str = N_("Check your working, or open the solution."),
    measure: str | None = None,
    fraction: bool = True,
) -> Feedback:
    """Judge a typed number by the module's rule (see the module docstring).

    Parameters
    ----------
    answer : str or number
        What the learner typed: ``"0.2815"``, ``"2/3"``, ``"28.15%"``, ``"０．５"``, or
        a number.
    truth : float
        The right answer.
    decimals : int, default 4
        The precision the exercise asks for.
    misconceptions : sequence of WrongAnswer or (name, value, explanation)
        Wrong answers worth recognising, with what to tell the learner. The name and
        a convention's label are English messages, translated here (``tr``); the
        explanation is already in the current language. Two of the same name count once.
    hint : str
        Said after "Not quite." to an answer that matches nothing known; an
        English message, translated here.
    measure : str, optional
        The measure asked (``"AP@3"``), when the answer is a measure of a ranking:
        such a measure lies in [0, 1], and an answer outside is told so.
    fraction : bool, default True
        Whether the exercise offers a fraction (``"2/3"``) besides decimals: False where
        it asks for decimals only, and then no message offers one (a typed fraction is
        still read).

    Returns
    -------
    Feedback
        Its ``status`` is one of :data:`STATUSES`; ``mistakes`` names every mistake
        matched, ``misconception`` the likeliest.

    Raises
    ------
    ValueError
        If ``decimals`` is negative.

    Examples
    --------
    >>> from mapteach.exercises import check_number
    >>> slip = [("final hit count in every numerator", 0.47897, "Count the hits so far.")]
    >>> for typed in ["0.2815", "0.28", "0.4790", "0.48", "0.5", "", "abc"]:
    ...     print(f"{typed!r:9}", check_number(typed, 0.2815476, misconceptions=slip).status)
    '0.2815'  correct
    '0.28'    incomplete
    '0.4790'  incorrect
    '0.48'    incorrect
    '0.5'     incorrect
    ''        empty
    'abc'     unreadable
    >>> print(check_number("0.4790", 0.2815476, misconceptions=slip))
    Not quite: 0.4790 is what you get when you made this mistake: final hit count in every
    numerator. Count the hits so far.
    >>> check_number("0.48", 0.2815476, misconceptions=slip).mistakes  # rounds to it
    ('final hit count in every numerator',)
    >>> print(check_number("0.28", 0.2815476))
    Right so far: give 4 decimals.
    >>> print(check_number("", 0.5))
    Type an answer: 4 decimals or a fraction such as 2/3.
    >>> print(check_number("", 0.5, fraction=False))
    Type an answer: 4 decimals.
    >>> print(check_number("abc", 0.5))
    Could not read "abc" as a number; type a decimal such as 0.5, a fraction such as 1/2, or a
    percentage such as 50%.
    """
    if decimals < 0:
        raise ValueError(tr("decimals must be >= 0; got {decimals}.", decimals=decimals))
    asked = asked_precision(decimals, fraction=fraction)
    if answer is None or not str(answer).strip():
        return Feedback("empty", tr(EMPTY, asked=asked))
    try:
        reading = _Reading(shown_answer(answer), *parse_answer(answer), decimals)
    except ValueError as error:
        return Feedback("unreadable", str(error))
    if reading.matches(truth):
        return Feedback("correct", tr(CORRECT, truth=f"{truth:.{decimals}f}"))
    if reading.under_precise and agrees_at(reading.value, truth, reading.given or 0):
        return Feedback("incomplete", ngettext(*RIGHT_SO_FAR, decimals))
    # an answer within the asked precision of the truth (an exact "0" for 0.03 at 1
    # decimal) is not pinned on a mistake, even if it equals one exactly
    named = [] if agrees_at(reading.value, truth, decimals) else _matched(misconceptions, reading)
    if named:
        return _named_feedback(reading, named)
    return _truncated(reading, truth, asked) or _unmatched(reading, truth, tr(hint), asked, measure)


def _unmatched(
    reading: _Reading, truth: float, hint: str, asked: str, measure: str | None
) -> Feedback:
    """The feedback on an answer no known mistake explains."""
    if measure is not None and 0 <= truth <= 1 and not 0 <= reading.value <= 1:
        message = tr(OUTSIDE, measure=measure, answer=reading.shown, hint=hint, asked=asked)
        return Feedback("incorrect", message)
    return Feedback("incorrect", tr(NOT_QUITE, hint=hint, asked=asked))
