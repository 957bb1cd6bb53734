"""Reading and checking a learner's answer: one rule, its verdict and the feedback it gets.

Reading
-------
:func:`parse_answer` reads a number however a person types it: a decimal (``0.2815``),
a fraction (``2/3``, ``2 / 3``, ``2÷3``, Chinese ``3分之2``), a percentage (``28.15%``,
``百分之50``); with full-width characters, as a Chinese input method types them
(``０．５``, ``２／３``, ``５０％``, ``，``, ``＝``, the ideographic space), a unicode
minus (``−0.2``), surrounding spaces, a leading ``=`` and a trailing ``=`` or ``。``,
or a label before an ``=`` (``AP = 0.3250``, ``P@3=2/3``: the number after the last
``=`` is the answer). A comma is a decimal mark where nothing else can be meant
(``0,5``, ``0,2815``, ``1,5``); ``1,234`` could be 1.234 or 1234, and a number with
both a comma and a point leaves unclear which marks the decimals: neither is read.

The rule
--------
An exercise states the precision it asks for: ``decimals`` (4 for AP-style answers).
Answers come in two forms. A *decimal* (``0.2815``, ``0.28``, ``28.15%``) is read as
the number padded with zeros to the asked decimals; an *exact form* (a fraction such as
``2/3``, a whole number such as ``1``, a whole percentage such as ``50%``) is compared
exactly. :func:`check_number` gives each answer one status, trying in this order:

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
    and the truth rounds to it at the decimals given (``0.28`` for 0.2815 when 4
    decimals are asked). The feedback says "right so far: give 4 decimals".
``"incorrect"``, naming mistakes
    The answer matches a mistake's value at the asked precision (or exactly, for an
    exact form), by the same test as "correct"; every mistake it matches is named,
    once each, in the order given. A value that does not match the truth is never
    called right, and an under-precise guess is never pinned on a mistake it merely
    rounds to: ``0.48`` names no mistake when 4 decimals are asked, ``0.4790`` does.
    Nor is an answer within the asked precision of the truth (an exact ``0`` for
    0.03 at 1 decimal), whatever it equals. A value that is another convention
    (``WrongAnswer.convention``) is said to be one, not called a slip.
``"incorrect"``
    Anything else, with a generic hint.

Feedback is written in the current language (:func:`mapteach.i18n.tr`): a mistake's
explanation arrives already written in it (in the learner's own numbers); its name
and the hint are English messages (marked with :func:`~mapteach.i18n.N_` where they
are defined), translated when the feedback is given. :attr:`Feedback.misconception`
and :attr:`Feedback.mistakes` keep the English names, keys.
"""

from __future__ import annotations

import math
import numbers
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import reduce
from html import escape
from typing import Any, Literal

from mapteach.exercises.mistakes import WrongAnswer
from mapteach.i18n import N_, ngettext, tr

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


#: What people type for a minus, a division or an equals sign, that NFKC leaves alone.
_SPELLINGS = str.maketrans({"−": "-", "÷": "/", "⁄": "/", "∕": "/", "≈": "="})
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e[+-]?[0-9]+)?")
_FRACTION = re.compile(r"([+-]?[0-9]+)/([0-9]+)")
#: Chinese "b分之a", a over b: ``3分之2`` is 2/3.
_CHINESE_FRACTION = re.compile(r"([0-9]+)分之([+-]?[0-9]+)")
_CHINESE_PERCENT = "百分之"
#: The most characters (and the largest power of ten) a number is read with.
_LONGEST = 60


def _shown(answer: Any) -> str:
    """The answer as the feedback quotes it: stripped, and cut after 40 characters."""
    text = str(answer).strip()
    return text if len(text) <= 40 else text[:39] + "…"


def _unreadable(answer: Any) -> ValueError:
    return ValueError(
        tr(
            "Could not read {answer!r} as a number; type a decimal such as 0.5, "
            "a fraction such as 1/2, or a percentage such as 50%.",
            answer=_shown(answer),
        )
    )


def _normalised(text: str) -> str:
    """The text as the number's grammar reads it: NFKC, one spelling, no labels or spaces."""
    text = unicodedata.normalize("NFKC", text).translate(_SPELLINGS).lower()
    text = " ".join(text.split())
    # a space between two digits stays, so "0 5" is not read as 5
    text = re.sub(r"(?<![0-9]) | (?![0-9])", "", text).lstrip("=").rstrip("=。")
    text = text.rpartition("=")[2]
    text = re.sub(r"(?<=[0-9])。(?=[0-9])", ".", text)
    if text.startswith(_CHINESE_PERCENT):
        text = text.removeprefix(_CHINESE_PERCENT) + "%"
    return _CHINESE_FRACTION.sub(r"\2/\1", text)


def _decimal_point(text: str, answer: Any) -> str:
    """``text`` with its decimal comma made a point; a ValueError where that is unclear."""
    if "," not in text:
        return text
    whole, _, tail = text.partition(",")
    if "." in text:
        raise ValueError(
            tr(
                "{answer!r} has both a comma and a point, so which one marks the decimals "
                "is unclear; type one decimal point, such as 0.5.",
                answer=_shown(answer),
            )
        )
    if len(tail) == 3 and tail.isdigit() and whole.lstrip("+-") not in ("", "0"):
        raise ValueError(
            tr(
                "{answer!r} could be {point} or {thousands}: a comma marks decimals in some "
                "places and thousands in others. Type the decimal with a point, such as {point}.",
                answer=_shown(answer),
                point=f"{whole}.{tail}",
                thousands=whole + tail,
            )
        )
    return f"{whole}.{tail}"


def _read(text: str, answer: Any) -> tuple[Fraction, int | None]:
    """The exact value a normalised text stands for, and its decimals (None: exact form)."""
    percent = text.endswith("%")
    text = _decimal_point(text.removesuffix("%"), answer)
    fraction = _FRACTION.fullmatch(text)
    if fraction:
        if int(fraction.group(2)) == 0:
            raise ValueError(
                tr(
                    "{answer!r} divides by 0; type a fraction such as 1/2, "
                    "or a decimal such as 0.5.",
                    answer=_shown(answer),
                )
            )
        value, decimals = Fraction(int(fraction.group(1)), int(fraction.group(2))), None
    elif _DECIMAL.fullmatch(text) and len(text) <= _LONGEST:
        number = Decimal(text)
        exponent = int(number.as_tuple().exponent)
        if abs(exponent) > _LONGEST:
            raise _unreadable(answer)
        value, decimals = Fraction(number), (-exponent if exponent < 0 else None)
    else:
        raise _unreadable(answer)
    if percent:
        return value / 100, None if decimals is None else decimals + 2
    return value, decimals


def parse_answer(answer: Any) -> tuple[float, int | None]:
    """Read a typed answer (``0.2815``, ``2/3``, ``28.15%``, ``０．５``, ``0,5``, ...).

    Every form the module docstring lists is read. Returns the number and its
    decimals: None for exact forms (fractions, whole numbers, whole percentages); a
    percentage with decimals counts those of the fraction it stands for (``28.15%``
    is 0.2815, 4 decimals).

    Raises
    ------
    ValueError
        If the answer is not a finite number in any of those forms; the message, in
        the current language, says why and gives an example of what can be typed.

    Examples
    --------
    >>> from mapteach.exercises import parse_answer
    >>> parse_answer("0.2815"), parse_answer("2/3")[0], parse_answer("50%")
    ((0.2815, 4), 0.6666666666666666, (0.5, None))
    >>> parse_answer("０．５０００"), parse_answer("0,5"), parse_answer("AP = 28.15 %")
    ((0.5, 4), (0.5, 1), (0.2815, 4))
    >>> parse_answer("２／３") == parse_answer("3分之2") == parse_answer("2 ÷ 3")
    True
    >>> parse_answer(0.479)  # a float counts the decimals it prints with
    (0.479, 3)
    >>> parse_answer("1,234")
    Traceback (most recent call last):
    ...
    ValueError: '1,234' could be 1.234 or 1234: a comma marks decimals in some places and \
thousands in others. Type the decimal with a point, such as 1.234.
    """
    if isinstance(answer, numbers.Integral) and not isinstance(answer, bool):
        text = str(int(answer))
    elif isinstance(answer, Fraction):
        text = f"{answer.numerator}/{answer.denominator}"
    elif isinstance(answer, numbers.Real) and not isinstance(answer, bool):
        text = repr(float(answer))
    else:
        text = str(answer)
    value, decimals = _read(_normalised(text), answer)
    if not math.isfinite(float(value)):
        raise _unreadable(answer)
    return float(value), decimals


def agrees_at(value: float, target: float, decimals: int) -> bool:
    """Whether ``value`` is ``target`` at ``decimals`` decimals: within half a unit of the last.

    Examples
    --------
    >>> from mapteach.exercises import agrees_at
    >>> agrees_at(0.2815, 0.2815476, 4), agrees_at(0.28, 0.2815476, 4)
    (True, False)
    """
    return abs(value - target) <= 0.5 * 10.0**-decimals + 1e-12


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
    return ngettext(
        "{n} decimal or a fraction such as 2/3", "{n} decimals or a fraction such as 2/3", decimals
    )


def _matched(
    misconceptions: Sequence[WrongAnswer | tuple[Any, ...]], matches: Callable[[float], bool]
) -> list[WrongAnswer]:
    """The wrong answers whose value the answer matches, once per name, in order."""
    named: dict[str, WrongAnswer] = {}
    for item in misconceptions:
        wrong = item if isinstance(item, WrongAnswer) else WrongAnswer(*item)
        if wrong.name not in named and matches(wrong.value):
            named[wrong.name] = wrong
    return list(named.values())


def _listed(named: list[WrongAnswer]) -> str:
    """The names of ``named`` in the current language, as a list in a sentence."""
    names = [tr(wrong.name) for wrong in named] or [""]
    return reduce(lambda listed, name: tr("{listed}; {name}", listed=listed, name=name), names)


def _named_feedback(shown: str, named: list[WrongAnswer]) -> Feedback:
    """The feedback on an answer that matches ``named``: slips, other conventions, or both."""
    slips = [wrong for wrong in named if not wrong.convention]
    conventions = [wrong for wrong in named if wrong.convention]
    slip_names, convention_names = _listed(slips), _listed(conventions)
    sentences = []
    if slips:
        sentences.append(
            ngettext(
                "Not quite: {answer} is what you get when you made this mistake: {names}.",
                "Not quite: {answer} is what you get when you made any of these mistakes: {names}.",
                len(slips),
                answer=shown,
                names=slip_names,
            )
        )
    if conventions and slips:
        sentences.append(
            ngettext(
                "It is also what another convention gives: {names}.",
                "It is also what other conventions give: {names}.",
                len(conventions),
                names=convention_names,
            )
        )
    elif conventions:
        sentences.append(
            ngettext(
                "{answer} is another convention, not a slip: {names}.",
                "{answer} is what other conventions give, not a slip: {names}.",
                len(conventions),
                answer=shown,
                names=convention_names,
            )
        )
    sentences += [wrong.explanation for wrong in named if wrong.explanation]
    message = reduce(
        lambda sentence, then: tr("{sentence} {then}", sentence=sentence, then=then), sentences
    )
    mistakes = tuple(wrong.name for wrong in named)
    return Feedback("incorrect", message, mistakes=mistakes, convention=not slips)


def check_number(
    answer: Any,
    truth: float,
    *,
    decimals: int = 4,
    misconceptions: Sequence[WrongAnswer | tuple[Any, ...]] = (),
    hint: str = N_("Check your working, or open the solution."),
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
        Wrong answers worth recognising, with what to tell the learner. The name is
        an English message, translated here (``tr``); the explanation is already in
        the current language. Two of the same name count once.
    hint : str
        Said after "Not quite." to an answer that matches nothing known; an
        English message, translated here.

    Returns
    -------
    Feedback
        Its ``status`` is one of :data:`STATUSES`; ``mistakes`` names every mistake
        matched, ``misconception`` the first.

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
    >>> print(check_number("0.28", 0.2815476))
    Right so far: give 4 decimals.
    >>> print(check_number("abc", 0.5))
    Could not read 'abc' as a number; type a decimal such as 0.5, a fraction such as 1/2, or a
    percentage such as 50%.
    """
    if decimals < 0:
        raise ValueError(tr("decimals must be >= 0; got {decimals}.", decimals=decimals))
    asked = asked_precision(decimals)
    if answer is None or not str(answer).strip():
        return Feedback("empty", tr("Type an answer: {asked}.", asked=asked))
    try:
        value, given = parse_answer(answer)
    except ValueError as error:
        return Feedback("unreadable", str(error))

    def matches(target: float) -> bool:
        if given is None:
            return math.isclose(value, target, rel_tol=1e-9, abs_tol=1e-12)
        return agrees_at(value, target, decimals)

    if matches(truth):
        rounded = f"{truth:.{decimals}f}"
        return Feedback("correct", tr("Correct: {truth}.", truth=rounded))
    if given is not None and given < decimals and agrees_at(value, truth, given):
        return Feedback(
            "incomplete",
            ngettext(
                "Right so far: give {n} decimal.", "Right so far: give {n} decimals.", decimals
            ),
        )
    # an answer within the asked precision of the truth (an exact "0" for 0.03 at 1
    # decimal) is not pinned on a mistake, even if it equals one exactly
    named = [] if agrees_at(value, truth, decimals) else _matched(misconceptions, matches)
    if named:
        return _named_feedback(_shown(answer), named)
    return Feedback("incorrect", tr("Not quite. {hint} Give {asked}.", hint=tr(hint), asked=asked))
