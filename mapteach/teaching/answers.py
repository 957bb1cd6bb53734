"""Reading and checking a learner's answer: the verdict and the feedback it gets."""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from typing import Any

__all__ = ["Feedback", "matches", "parse_answer"]


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer: right or not, what to tell, which mistake it matches."""

    correct: bool
    message: str
    misconception: str | None = None

    def __str__(self) -> str:
        return self.message

    def _repr_html_(self) -> str:
        color = "#1b7f6b" if self.correct else "#b3261e"
        return f'<div style="color:{color};">{escape(self.message)}</div>'


def parse_answer(answer: Any) -> tuple[float, int | None]:
    """Read a typed answer: ``0.2815``, ``2/3`` or ``28.15%``; return it and its decimals.

    The decimals are None for exact forms (fractions, whole numbers).

    Raises
    ------
    ValueError
        If the text is not a number, a fraction or a percentage.

    Examples
    --------
    >>> from mapteach.views.exercises import parse_answer
    >>> parse_answer("0.2815"), parse_answer("2/3")[0], parse_answer("50%")
    ((0.2815, 4), 0.6666666666666666, (0.5, None))
    """
    if isinstance(answer, numbers.Real) and not isinstance(answer, bool):
        answer = repr(float(answer))  # 0.479 was typed with 3 decimals
    text = str(answer).strip().replace(" ", "")
    try:
        if text.endswith("%"):
            value, decimals = parse_answer(text[:-1])
            return value / 100, None if decimals is None else decimals + 2
        if "/" in text:
            return float(Fraction(text)), None
        value = float(text)
    except (ValueError, ZeroDivisionError):
        raise ValueError(
            f"could not read {answer!r} as a number; type a decimal such as 0.5, "
            "a fraction such as 1/2, or a percentage such as 50%."
        ) from None
    decimals = len(text.partition(".")[2]) if "." in text and "e" not in text.lower() else None
    return value, decimals


def matches(value: float, decimals: int | None, target: float) -> bool:
    """An answer matches when exact, or when ``target`` rounds to it (2+ decimals given)."""
    if abs(value - target) <= 1e-9:
        return True
    return (
        decimals is not None
        and decimals >= 2
        and abs(value - target) <= 0.5 * 10**-decimals + 1e-12
    )
