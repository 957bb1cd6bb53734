"""An exercise's answer table: what a page without a kernel needs to judge its answers.

The static site (``make site``) runs every exercise live in the browser: the page holds
each exercise's state with its answer table, and ``static/checker.js`` judges what the
learner types by the rule of :mod:`mapteach.exercises.answers`, in the exercise's
language, as :meth:`~mapteach.exercises.NumberExercise.check` does. The table holds
only what Python computed or wrote, in the exercise's language:

- a number exercise: the truth, the asked precision, every recognised mistake (its
  value, its name, its explanation, its convention's label), the sentences that do
  not depend on the answer (already written) and the templates of those that do (the
  message translated, its ``{placeholders}`` left for the browser to fill);
- a choice: the verdict on each option, on none, and on anything else;
- an arrangement: the verdict on every arrangement (there are few: C(n_results,
  n_relevant_items), at most :data:`~mapteach.exercises.arrange_widget.MOST_ARRANGEMENTS`),
  and the starting order Reset brings back; each arrangement's readout is the
  exercise's own ``readouts``, which the view reads, with a kernel or without.

Every text the feedback shows is a *piece*: ``{"text": ...}``, with ``"html"`` (its
formulas as MathML, as :func:`~mapteach.exercises.widgets.feedback_html` writes them)
where that is more than the escaped text.
"""

from __future__ import annotations

import math
from html import escape
from typing import TYPE_CHECKING, Any

from mapteach.exercises.answers import (
    CONVENTION_ITEM,
    CORRECT,
    CUT_GUARD,
    CUT_OFF,
    EMPTY,
    GIVE,
    LAST_OF,
    LEAD_CONVENTION,
    LEAD_CONVENTIONS,
    LEAD_MIXED,
    LEAD_SLIP,
    LEAD_SLIPS,
    NOT_QUITE,
    NUMBERED,
    OUTSIDE,
    RIGHT_SO_FAR,
    SEPARATOR,
    TELL_APART,
    TRUNCATED,
    Feedback,
    asked_precision,
    tolerance,
)
from mapteach.exercises.arrange_widget import WRONG_SIZE, arrangement_key
from mapteach.exercises.reading import (
    AMBIGUOUS_COMMA,
    BOTH_MARKS,
    DIVIDES_BY_ZERO,
    IN_DIGITS,
    LONGEST,
    SHOWN_LENGTH,
    TOO_LONG,
    UNREADABLE,
)
from mapteach.exercises.widgets import UNRECORDED, feedback_html, split_key
from mapteach.i18n import JOINER, language, ngettext, plural_forms, tr

if TYPE_CHECKING:
    from mapteach.exercises.arrange_widget import ArrangeExercise
    from mapteach.exercises.choice_widget import ChoiceExercise
    from mapteach.exercises.widgets import Exercise, NumberExercise

__all__ = ["answer_table", "piece"]


def piece(text: str) -> dict[str, str]:
    """A text of the feedback as the checker joins it: ``text``, and ``html`` if needed.

    ``html`` is the text as the feedback shows it (escaped, its formulas as MathML); it
    is left out where that is just the escaped text.

    >>> from mapteach.exercises.answer_table import piece
    >>> piece("AP < 1.")
    {'text': 'AP < 1.'}
    >>> piece("AP is $\\\\frac{1}{2}$.")["html"].startswith("AP is <math")
    True
    """
    html = feedback_html(text)
    return {"text": text} if html == escape(text) else {"text": text, "html": html}


def answer_table(exercise: Exercise) -> dict[str, Any]:
    """Everything a browser needs to judge ``exercise``'s answers and say it as Python does.

    Parameters
    ----------
    exercise : NumberExercise, ChoiceExercise or ArrangeExercise
        The exercise, in its own language.

    Returns
    -------
    dict
        Plain JSON. Every table has ``kind``; ``key`` (``{"notebook": "03",
        "exercise": "2"}``, as the progress file records it, or None: not recorded);
        ``unrecorded`` (the statuses never recorded) and ``joiner`` (the template
        that joins two sentences). A number's has ``truth``, ``decimals``,
        ``tolerances`` (by decimals, as :func:`~mapteach.exercises.answers.agrees_at`
        allows), ``cut_guard``, ``truncated`` (the name of the mistake of cutting the
        truth off), ``measure``, ``hint``, ``asked``, ``said`` (the fixed
        sentences), ``templates``, ``reading`` (what an unreadable answer is told) and
        ``mistakes``; a choice's ``options``, ``correct``, ``verdicts`` (by option),
        ``empty`` and ``unreadable``; an arrangement's ``n_results``,
        ``n_relevant_items``, ``start`` (the board's items Reset brings back),
        ``arrangements`` (each verdict, by
        :func:`~mapteach.exercises.arrange_widget.arrangement_key`) and
        ``wrong_size``. A verdict is ``{"status", "message", "mistakes"}``, its message
        a piece (:func:`piece`).

    Raises
    ------
    TypeError
        If ``exercise`` is not an exercise of a kind this module knows.

    Examples
    --------
    >>> from mapteach.exercises import NumberExercise
    >>> from mapteach.exercises.answer_table import answer_table
    >>> table = answer_table(NumberExercise("1/2?", 0.5, [("halved", 0.25, "Halved.")], "",
    ...                                     key="99.1"))
    >>> table["truth"], table["key"], table["said"]["correct"]
    (0.5, {'notebook': '99', 'exercise': '1'}, {'text': 'Correct: 0.5000.'})
    >>> [(wrong["key"], wrong["value"]) for wrong in table["mistakes"]]
    [('halved', 0.25)]
    """
    tables = {"number": _number_table, "choice": _choice_table, "arrange": _arrange_table}
    kind = getattr(exercise, "kind", None)
    if kind not in tables:
        raise TypeError(
            tr(
                "An answer table is made for a number, choice or arrangement exercise; got {type}.",
                type=type(exercise).__name__,
            )
        )
    with language(exercise.lang):
        table = tables[kind](exercise)
        where = split_key(exercise.key)
        table.update(
            kind=kind,
            key=None if where is None else {"notebook": where[0], "exercise": where[1]},
            unrecorded=list(UNRECORDED),
            joiner=tr(JOINER),
        )
    return table


def _verdict(feedback: Feedback) -> dict[str, Any]:
    return {
        "status": feedback.status,
        "message": piece(feedback.message),
        "mistakes": list(feedback.mistakes),
    }


def _number_table(exercise: NumberExercise) -> dict[str, Any]:
    decimals = exercise.decimals
    asked = asked_precision(decimals, fraction=exercise.fraction)
    hint = tr(exercise.hint)
    return {
        "truth": exercise.truth,
        "decimals": decimals,
        "tolerances": [tolerance(places) for places in range(decimals + 1)],
        "cut_guard": CUT_GUARD,
        "truncated": TRUNCATED,
        "measure": exercise.measure,
        "hint": piece(hint),
        "asked": asked,
        "said": {
            "empty": piece(tr(EMPTY, asked=asked)),
            "correct": piece(tr(CORRECT, truth=f"{exercise.truth:.{decimals}f}")),
            "incomplete": piece(ngettext(*RIGHT_SO_FAR, decimals)),
            "tell_apart": piece(ngettext(*TELL_APART, decimals)),
            "give": piece(tr(GIVE, asked=asked)),
            "not_quite": piece(tr(NOT_QUITE, hint=hint, asked=asked)),
        },
        "templates": {
            "lead_convention": tr(LEAD_CONVENTION),
            "lead_slip": tr(LEAD_SLIP),
            "lead_conventions": tr(LEAD_CONVENTIONS),
            "lead_slips": tr(LEAD_SLIPS),
            "lead_mixed": tr(LEAD_MIXED),
            "convention_item": tr(CONVENTION_ITEM),
            "numbered": tr(NUMBERED),
            "last_of": tr(LAST_OF),
            "separator": tr(SEPARATOR),
            "cut_off": plural_forms(*CUT_OFF),
            "outside": tr(OUTSIDE),
        },
        "reading": _reading_texts(),
        # a value that is not finite matches no answer (answers are finite numbers)
        "mistakes": [
            {
                "key": wrong.name,
                "name": piece(tr(wrong.name)),
                "value": wrong.value,
                "explanation": piece(wrong.explanation),
                "convention": piece(tr(wrong.convention)) if wrong.convention else None,
            }
            for wrong in exercise.misconceptions
            if math.isfinite(wrong.value)
        ],
    }


def _reading_texts() -> dict[str, Any]:
    """What :func:`~mapteach.exercises.parse_answer` tells an answer it cannot read."""
    return {
        "unreadable": tr(UNREADABLE),
        "in_digits": tr(IN_DIGITS),
        "both_marks": tr(BOTH_MARKS),
        "ambiguous_comma": tr(AMBIGUOUS_COMMA),
        "divides_by_zero": tr(DIVIDES_BY_ZERO),
        "too_long": tr(TOO_LONG),
        "longest": LONGEST,
        "shown_length": SHOWN_LENGTH,
    }


#: Not an option of any exercise: what a choice's check calls unreadable.
_NOT_AN_OPTION = object()


def _choice_table(exercise: ChoiceExercise) -> dict[str, Any]:
    return {
        "options": list(exercise.options),
        "correct": exercise.correct,
        "verdicts": {option: _verdict(exercise.check(option)) for option in exercise.options},
        "empty": _verdict(exercise.check("")),
        "unreadable": _verdict(exercise.check(_NOT_AN_OPTION)),
    }


def _arrange_table(exercise: ArrangeExercise) -> dict[str, Any]:
    return {
        "n_results": exercise.n_results,
        "n_relevant_items": exercise.n_relevant_items,
        "start": [dict(item) for item in exercise.start_items],
        "arrangements": {
            arrangement_key(labels): _verdict(exercise.check(labels))
            for labels in exercise.arrangements()
        },
        "wrong_size": tr(WRONG_SIZE),
    }
