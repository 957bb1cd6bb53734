"""Reading a learner's answer: a number, however a person types it.

:func:`parse_answer` reads a number however a person types it: a decimal (``0.2815``,
or one of many digits such as ``0.58333333333333337``), a fraction (``2/3``, ``2 / 3``,
``2÷3``, Chinese ``3分之2``), a percentage (``28.15%``, ``百分之50``); with full-width
characters, as a Chinese input method types them (``０．５``, ``２／３``, ``５０％``,
``，``, ``＝``, the ideographic space), a unicode minus (``−0.2``), surrounding spaces,
a leading ``=`` and a trailing ``=`` or ``。``, or a label before an ``=`` (``AP =
0.3250``, ``P@3=2/3``: the number after the last ``=`` is the answer). A comma is a
decimal mark where nothing else can be meant (``0,5``, ``0,2815``, ``1,5``); ``1,234``
could be 1.234 or 1234, and a number with both a comma and a point leaves unclear
which marks the decimals: neither is read. Text of more than 200 characters is too
long to be a number anyone typed; numbers written in Chinese numerals (``三分之二``)
are not read either, and the message asks for digits (``3分之2``).
"""

from __future__ import annotations

import math
import numbers
import re
import unicodedata
from decimal import Decimal
from fractions import Fraction
from typing import Any

from mapteach.i18n import N_, tr

__all__ = ["LONGEST", "parse_answer", "shown_answer"]

#: What people type for a minus, a division or an equals sign, that NFKC leaves alone.
_SPELLINGS = str.maketrans({"−": "-", "÷": "/", "⁄": "/", "∕": "/", "≈": "="})
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e[+-]?[0-9]+)?")
_FRACTION = re.compile(r"([+-]?[0-9]+)/([0-9]+)")
#: Chinese "b分之a", a over b: ``3分之2`` is 2/3.
_CHINESE_FRACTION = re.compile(r"([0-9]+)分之([+-]?[0-9]+)")
_CHINESE_PERCENT = "百分之"
#: Chinese numerals, which a number must be typed without (``三分之二``: ``3分之2``).
_CHINESE_NUMERALS = re.compile("[零〇一二两三四五六七八九十百千万]")
#: The most characters (and the largest power of ten) a number is read with.
LONGEST = 200
#: What the feedback quotes of a long answer: this many characters, the last an ellipsis.
SHOWN_LENGTH = 40

# Why an answer cannot be read, as message ids (translated and filled when said; the
# static site's checker, fed by mapteach.exercises.answer_table, fills them itself).
UNREADABLE = N_(
    'Could not read "{answer}" as a number; type a decimal such as 0.5, '
    "a fraction such as 1/2, or a percentage such as 50%."
)
IN_DIGITS = N_(
    'Could not read "{answer}" as a number: type its numbers in digits, such as 3分之2 or 0.5.'
)
BOTH_MARKS = N_(
    '"{answer}" has both a comma and a point, so which one marks the decimals '
    "is unclear; type one decimal point, such as 0.5."
)
AMBIGUOUS_COMMA = N_(
    '"{answer}" could be {point} or {thousands}: a comma marks decimals in some '
    "places and thousands in others. Type the decimal with a point, such as {point}."
)
DIVIDES_BY_ZERO = N_(
    '"{answer}" divides by 0; type a fraction such as 1/2, or a decimal such as 0.5.'
)
TOO_LONG = N_(
    '"{answer}" is too long to be a number: {n} characters, where at most {longest} '
    "are read. Type the number with the decimals asked, such as 0.5833."
)


def shown_answer(answer: Any) -> str:
    """The answer as feedback quotes it: stripped, and cut after 40 characters.

    >>> from mapteach.exercises.reading import shown_answer
    >>> shown_answer(" 0.5 "), len(shown_answer("1" * 80))
    ('0.5', 40)
    """
    text = str(answer).strip()
    return text if len(text) <= SHOWN_LENGTH else text[: SHOWN_LENGTH - 1] + "…"


def _unreadable(answer: Any, text: str) -> ValueError:
    why = IN_DIGITS if _CHINESE_NUMERALS.search(text) else UNREADABLE
    return ValueError(tr(why, answer=shown_answer(answer)))


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
        raise ValueError(tr(BOTH_MARKS, answer=shown_answer(answer)))
    if len(tail) == 3 and tail.isdigit() and whole.lstrip("+-") not in ("", "0"):
        raise ValueError(
            tr(
                AMBIGUOUS_COMMA,
                answer=shown_answer(answer),
                point=f"{whole}.{tail}",
                thousands=whole + tail,
            )
        )
    return f"{whole}.{tail}"


def _read(text: str, answer: Any) -> tuple[Fraction, int | None]:
    """The exact value a normalised text stands for, and its decimals (None: exact form)."""
    if len(text) > LONGEST:
        raise ValueError(tr(TOO_LONG, answer=shown_answer(answer), n=len(text), longest=LONGEST))
    percent = text.endswith("%")
    text = _decimal_point(text.removesuffix("%"), answer)
    fraction = _FRACTION.fullmatch(text)
    if fraction:
        if int(fraction.group(2)) == 0:
            raise ValueError(tr(DIVIDES_BY_ZERO, answer=shown_answer(answer)))
        value = Fraction(int(fraction.group(1)), int(fraction.group(2)))
        return (value / 100 if percent else value), None
    if not _DECIMAL.fullmatch(text):
        raise _unreadable(answer, text)
    number = Decimal(text)
    exponent = int(number.as_tuple().exponent)
    if abs(exponent) > LONGEST:
        raise _unreadable(answer, text)
    decimals = max(-exponent, 0)
    if percent:  # a percentage has the decimals of the fraction it stands for: 58% is 0.58
        return Fraction(number) / 100, decimals + 2
    return Fraction(number), decimals or None


def parse_answer(answer: Any) -> tuple[float, int | None]:
    """Read a typed answer (``0.2815``, ``2/3``, ``28.15%``, ``０．５``, ``0,5``, ...).

    Every form the module docstring lists is read. Returns the number and its
    decimals: None for exact forms (fractions, whole numbers); a percentage counts the
    decimals of the fraction it stands for (``28.15%`` is 0.2815, 4 decimals; ``50%``
    is 0.50, 2 decimals).

    Raises
    ------
    ValueError
        If the answer is not a finite number in any of those forms; the message, in
        the current language, says why and gives an example of what can be typed.

    Examples
    --------
    >>> from mapteach.exercises import parse_answer
    >>> parse_answer("0.2815"), parse_answer("2/3")[0], parse_answer("50%")
    ((0.2815, 4), 0.6666666666666666, (0.5, 2))
    >>> parse_answer("０．５０００"), parse_answer("0,5"), parse_answer("AP = 28.15 %")
    ((0.5, 4), (0.5, 1), (0.2815, 4))
    >>> parse_answer("２／３") == parse_answer("3分之2") == parse_answer("2 ÷ 3")
    True
    >>> parse_answer(0.479)  # a float counts the decimals it prints with
    (0.479, 3)
    >>> parse_answer("1,234")
    Traceback (most recent call last):
    ...
    ValueError: "1,234" could be 1.234 or 1234: a comma marks decimals in some places and \
thousands in others. Type the decimal with a point, such as 1.234.
    >>> parse_answer("三分之二")
    Traceback (most recent call last):
    ...
    ValueError: Could not read "三分之二" as a number: type its numbers in digits, such as \
3分之2 or 0.5.
    """
    if isinstance(answer, numbers.Integral) and not isinstance(answer, bool):
        text = str(int(answer))
    elif isinstance(answer, Fraction):
        text = f"{answer.numerator}/{answer.denominator}"
    elif isinstance(answer, numbers.Real) and not isinstance(answer, bool):
        text = repr(float(answer))
    else:
        text = str(answer)
    normalised = _normalised(text)
    value, decimals = _read(normalised, answer)
    try:
        number = float(value)
    except OverflowError:  # beyond the largest float, such as 150 nines then e200
        number = math.inf
    if not math.isfinite(number):
        raise _unreadable(answer, normalised)
    return number, decimals
