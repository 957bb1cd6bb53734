"""Choice exercises: pick one option, each with its own reply, in a stable order of one's own.

A :class:`ChoiceExercise` is an :class:`~mapteach.exercises.widgets.Exercise` (the
same widget, checks, progress and static fallback) whose answer control is a radio
group. With ``shuffle=True`` each group or learner sees the options in an order of
their own, the same every run (:func:`option_order`), so the right answer is not
always where the notebook wrote it.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

import traitlets

from mapteach.classroom.identity import current_group, current_learner
from mapteach.exercises.answers import Feedback
from mapteach.exercises.widgets import Exercise, check_texts
from mapteach.i18n import tr, widget_language

__all__ = ["ChoiceExercise", "option_order"]


def option_order(options: Sequence[str], key: str | None, prompt: str) -> list[str]:
    """``options`` shuffled, the same way every run, for the current group or learner.

    The seed is the group (:func:`mapteach.classroom.identity.current_group`), else the
    learner's name (nobody: ``""``), with the exercise's key (no key: its prompt), so
    partners in a group see one order, and each learner the same order every time.

    >>> from mapteach.exercises.choice_widget import option_order
    >>> options = ["AP", "AP@3", "P@3", "RR"]
    >>> order = option_order(options, "00.2", "Which?")
    >>> sorted(order) == sorted(options), order == option_order(options, "00.2", "Which?")
    (True, True)
    """
    who = current_group() or current_learner() or ""
    digest = hashlib.sha256(f"{who}\n{key if key is not None else prompt}".encode()).digest()
    order = list(options)
    random.Random(int.from_bytes(digest[:8], "big")).shuffle(order)
    return order


class ChoiceExercise(Exercise):
    """Pick one option; each option has its own feedback.

    The options and their replies are shown as given, their TeX formulas as MathML;
    ``lang`` (default: the current language) is that of the exercise's own texts.
    ``correct`` names the right option by its label, wherever it is shown.

    Parameters
    ----------
    prompt : str
        The question.
    options : mapping of label to reply
        Each option and what choosing it tells the learner.
    correct : str
        The right option's label.
    solution_html : str
        The worked solution, shown only on request.
    shuffle : bool, default False
        Show the options in an order of their own for each group or learner (and
        exercise), the same every run (:func:`option_order`); else as given.
    lang : {"en", "zh"}, optional
        The language of the exercise's own texts; default the current one.
    key : str, optional
        ``"00.2"``: where the exercise is, for the progress file (None: not recorded).

    Examples
    --------
    >>> from mapteach.exercises import ChoiceExercise
    >>> exercise = ChoiceExercise("Which is larger?", {"AP": "Yes.", "AP@3": "AP@3 <= AP."},
    ...                           correct="AP", solution_html="AP, since R stays the same.")
    >>> exercise.check("AP@3").message
    'AP@3 <= AP.'
    >>> exercise.answer = "AP@5"
    Traceback (most recent call last):
    ...
    traitlets.traitlets.TraitError: answer must be one of 'AP', 'AP@3' (or '' for none); got 'AP@5'.
    """

    kind = traitlets.Unicode("choice", read_only=True).tag(sync=True)
    options = traitlets.List(traitlets.Unicode()).tag(sync=True)

    def __init__(
        self,
        prompt: str,
        options: Mapping[str, str],
        *,
        correct: str,
        solution_html: str,
        shuffle: bool = False,
        lang: str | None = None,
        key: str | None = None,
    ) -> None:
        lang = widget_language(lang)
        if correct not in options:
            raise ValueError(
                tr(
                    "correct={correct!r} is not one of the options {options}.",
                    lang=lang,
                    correct=correct,
                    options=list(options),
                )
            )
        self.replies = dict(options)
        self.correct = correct
        check_texts(list(self.replies.values()), lang)
        shown = option_order(list(options), key, prompt) if shuffle else list(options)
        super().__init__(prompt, solution_html, lang=lang, key=key, options=shown)

    @traitlets.validate("options")
    def _check_options(self, proposal: traitlets.Bunch) -> list[str]:
        options = list(proposal.value)
        if not options or len(set(options)) != len(options) or "" in options:
            raise traitlets.TraitError(
                tr(
                    "options must be distinct, non-empty labels, at least one; got {options!r}.",
                    lang=self.lang,
                    options=options,
                )
            )
        return options

    @traitlets.validate("answer")
    def _check_answer(self, proposal: traitlets.Bunch) -> str:
        if proposal.value and proposal.value not in self.options:
            raise traitlets.TraitError(
                tr(
                    "answer must be one of {options} (or '' for none); got {answer!r}.",
                    lang=self.lang,
                    options=", ".join(map(repr, self.options)),
                    answer=proposal.value,
                )
            )
        return proposal.value

    def check(self, answer: Any) -> Feedback:
        """Judge a chosen option: ``"unreadable"`` for what is not one of them."""
        if answer is None or answer == "":
            return Feedback("empty", tr("Choose one of the options.", lang=self.lang))
        if answer not in self.replies:
            options = tr(", ", lang=self.lang).join(self.options)
            return Feedback(
                "unreadable", tr("Choose one of: {options}.", lang=self.lang, options=options)
            )
        if answer == self.correct:
            return Feedback("correct", self.replies[answer])
        return Feedback("incorrect", self.replies[answer], answer)

    def _show(self, answer: Any) -> str:
        self.answer = answer if isinstance(answer, str) and answer in self.options else ""
        return "" if answer is None else str(answer)

    def _static_answer_html(self) -> str:
        return "<ul>" + "".join(f"<li>{escape(option)}</li>" for option in self.options) + "</ul>"
