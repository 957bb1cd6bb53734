"""Self-check exercises with feedback that names the mistake behind a wrong answer.

Each exercise is an anywidget (``static/exercise.js``) whose synced traits are the
only state: the browser writes ``answer`` (what the learner typed or picked) and
counts ``check_request`` up on *Check* or Enter; the kernel judges the answer with
:mod:`mapteach.exercises.answers`, writes ``status``, ``feedback`` (the verdict's text)
and ``feedback_html`` (the same, with its formulas as MathML), records the check in
the learner's progress, and clears the verdict as soon as the answer changes. In code,
``exercise.submit(answer)`` does all of that for an answer given as an argument, and
``exercise.check(answer)`` only judges it. The ``text/html`` fallback holds two parts
(:func:`~mapteach.offline.offline_html`): the widget's state with its answer table
(:mod:`~mapteach.exercises.answer_table`), from which a page without a kernel (the
static site) runs the same view live, judging answers in the browser
(``static/checker.js``, ``static/exercise_offline.js``); and the static exercise, shown
where nothing runs, which tells learners to call ``submit`` and keeps the solution
folded inside a ``<details>`` element. Introduced in ``01_why_order_matters``.

An exercise speaks the language current when it is made, or its ``lang=``, and
keeps it: its buttons and labels (the ``texts`` trait the browser reads), its
verdicts, its default prompt and solution, its static fallback. A prompt, options
or feedback the notebook passes in are shown as given, their TeX formulas
(``$...$``, ``$$...$$``) as MathML (:func:`~mapteach.exercises.math_markup.render_math`).

A check is an attempt, recorded with :func:`~mapteach.classroom.record_check`, unless
its status is ``"empty"`` or ``"unreadable"`` (:data:`UNRECORDED`).

Examples
--------
>>> from mapteach.exercises import NumberExercise
>>> exercise = NumberExercise("AP of [0, 1]?", 0.5, [], "1/2 over R = 1")
>>> exercise.answer = "0.5"  # as typing does
>>> exercise.check_request += 1  # as Check or Enter does
>>> exercise.status, exercise.feedback
('correct', 'Correct: 0.5000.')
>>> exercise.answer = "0.25"  # a new answer clears the old verdict
>>> exercise.status, exercise.feedback
('empty', '')
>>> exercise.submit("1/2").status, exercise.answer  # answering in code shows it too
('correct', '1/2')
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

import traitlets

from mapteach.classroom.progress_folder import waits_for_name
from mapteach.classroom.progress_log import record_check
from mapteach.exercises.answers import (
    STATUSES,
    Feedback,
    WrongAnswer,
    agrees_at,
    asked_precision,
    check_number,
    states_precision,
)
from mapteach.exercises.math_markup import MathMarkupError, render_math
from mapteach.exercises.mistakes import wrong_answers
from mapteach.exercises.registry import record_exercise
from mapteach.i18n import HTML_LANG, N_, joined_sentences, language, tr, widget_language
from mapteach.offline import TEXT_JS, bundle, offline_html, offline_state
from mapteach.offline.kernel_widget import KernelOwnedWidget

__all__ = [
    "UNRECORDED",
    "Exercise",
    "NumberExercise",
    "check_texts",
    "feedback_html",
    "split_key",
]

_STATIC = Path(__file__).parent / "static"

#: What a number exercise says to an answer that matches no known mistake, by default.
_HINT = N_("Check your working, or open the solution.")

#: The statuses that are not attempts, never recorded: nothing typed, or nothing that
#: reads as an answer.
UNRECORDED: tuple[str, ...] = ("empty", "unreadable")

#: Said after the verdict of a check that waits for the learner's name (a progress
#: folder, no name yet: :mod:`~mapteach.classroom.progress_folder`).
_WAITING = N_("Waiting for your name: this check is recorded under it as soon as you give it.")


def split_key(key: str | None) -> tuple[str, str] | None:
    """An exercise's key as the progress file records it: its notebook and its number there.

    Parameters
    ----------
    key : str or None
        ``"03.2"``: exercise 2 of notebook 03; None for an exercise that is not recorded.

    Returns
    -------
    tuple of str, or None
        ``(notebook, exercise)``, or None when ``key`` is None.

    Raises
    ------
    ValueError
        If ``key`` does not look like ``"03.2"``.

    Examples
    --------
    >>> from mapteach.exercises.widgets import split_key
    >>> split_key("03.2"), split_key("06.10"), split_key(None)
    (('03', '2'), ('06', '10'), None)
    >>> split_key("03")
    Traceback (most recent call last):
    ...
    ValueError: key must look like '03.2' (notebook, then the exercise's number); got '03'.
    """
    if key is None:
        return None
    notebook, dot, number = key.partition(".") if isinstance(key, str) else ("", "", "")
    if not (dot and notebook and number):
        raise ValueError(
            tr(
                "key must look like '03.2' (notebook, then the exercise's number); got {key!r}.",
                key=key,
            )
        )
    return notebook, number


def exercise_texts(lang: str) -> dict[str, str]:
    """Every text an exercise's browser view shows itself, in ``lang``.

    >>> exercise_texts("en")["check"]
    'Check'
    """
    with language(lang):
        return {
            "lang": HTML_LANG[lang],
            "exercise": tr("Exercise."),
            "answer_aria": tr("Your answer"),
            "options_aria": tr("Options"),
            "check": tr("Check"),
            "show_solution": tr("Show solution"),
            "hide_solution": tr("Hide solution"),
            "arrange_help": tr(
                "Drag a result, or focus it and press ↑/↓, to move it; the relevant ones "
                "are marked ✔. Then press Check."
            ),
            "arrange_reset": tr("Reset"),
            "arrange_reset_title": tr("Back to the starting order"),
            "arrange_readout_aria": tr("The measures of the order shown"),
        }


def feedback_html(message: str) -> str:
    """A verdict's text as HTML: escaped (quotes too, as the browser's ``escapeHtml`` of
    ``mapteach/offline/static/text.js`` escapes), its TeX formulas as MathML.

    An exercise checks every formula of its own texts when it is made; a formula that
    cannot be converted here can only come from what the learner typed (which a
    verdict may quote), and is shown as typed.

    >>> from mapteach.exercises.widgets import feedback_html
    >>> feedback_html("Not quite: <b> is not $\\\\frac{1}{2}$.").startswith("Not quite: &lt;b&gt;")
    True
    >>> feedback_html("Could not read '$x^$' as a number.")
    'Could not read &#x27;$x^$&#x27; as a number.'
    """
    text = escape(message)
    try:
        return render_math(text)
    except MathMarkupError:
        return text


class Exercise(KernelOwnedWidget):
    """Prompt, an answer control, Check, feedback and a folded solution, in one widget.

    The base of :class:`NumberExercise`, :class:`ChoiceExercise` and
    :class:`~mapteach.exercises.ArrangeExercise`: each judges an answer with its own
    :meth:`check`, and :meth:`submit` answers in code as the Check button does.
    """

    _esm = bundle(TEXT_JS, _STATIC / "arrangement.js", _STATIC / "exercise.js")
    _css = _STATIC / "exercise.css"

    #: What the view changes: the answer typed or picked, the Check, Reset and solution
    #: buttons; the kernel owns the verdict and everything else a page might send.
    browser_traits = frozenset({"answer", "check_request", "reset_request", "show_solution"})
    #: The browser module that shows an exercise on a page without a kernel.
    offline_module = "exercise"

    prompt = traitlets.Unicode("").tag(sync=True)
    solution = traitlets.Unicode("").tag(sync=True)
    show_solution = traitlets.Bool(False).tag(sync=True)
    answer = traitlets.Unicode("").tag(sync=True, echo_update=False)
    check_request = traitlets.Int(0).tag(sync=True, echo_update=False)
    status = traitlets.Unicode("empty").tag(sync=True)
    feedback = traitlets.Unicode("").tag(sync=True)
    #: ``feedback`` as the browser shows it: escaped, with its formulas as MathML.
    feedback_html = traitlets.Unicode("").tag(sync=True)
    #: The labels the browser view shows itself (buttons, aria labels), in ``lang``.
    texts = traitlets.Dict(traitlets.Unicode()).tag(sync=True)
    #: The exercise's key (``"03.2"``, or ``""``): the page's ``data-key`` hook.
    exercise_key = traitlets.Unicode("").tag(sync=True)

    #: The language the exercise speaks, fixed when it is made.
    lang: str

    #: ``"03.2"``: the notebook and the exercise's number in it (None: not recorded).
    key: str | None

    #: The measure asked, in ir_measures' spelling (``"AP@3"``), or None.
    measure: str | None = None
    #: What the exercise was built from (``labels``, ``n_relevant``, ``k``, ...), or None.
    data: dict[str, Any] | None = None
    #: The kind of the mistake registry the exercise applies (``"AP@k"``), or None.
    mistake_kind: str | None = None

    #: Whether the exercise asks about what is on screen just above it, so its answer
    #: may be shown there (the notebooks' "no answer above its exercise" test allows it).
    about_shown: bool = False

    def __init__(
        self,
        prompt: str,
        solution_html: str,
        *,
        lang: str,
        key: str | None = None,
        about_shown: bool = False,
        **kwargs: Any,
    ) -> None:
        self.lang = lang
        split_key(key)
        self.key = key
        self.about_shown = about_shown
        #: The prompt as given, its formulas in TeX: the plain-text form of the exercise.
        self.prompt_source = prompt
        with language(lang):
            prompt_html, solution = render_math(prompt), render_math(solution_html)
        super().__init__(
            prompt=prompt_html,
            solution=solution,
            texts=exercise_texts(lang),
            exercise_key=key or "",
            **kwargs,
        )
        record_exercise(self)

    @traitlets.validate("status")
    def _check_status(self, proposal: traitlets.Bunch) -> str:
        if proposal.value not in STATUSES:
            raise traitlets.TraitError(
                tr(
                    "status must be one of {statuses}; got {status!r}.",
                    lang=self.lang,
                    statuses=", ".join(STATUSES),
                    status=proposal.value,
                )
            )
        return proposal.value

    @traitlets.validate("check_request")
    def _check_counter(self, proposal: traitlets.Bunch) -> int:
        if proposal.value < self.check_request:
            raise traitlets.TraitError(
                tr(
                    "check_request counts the learner's checks and only goes up; "
                    "got {new} after {old}.",
                    lang=self.lang,
                    new=proposal.value,
                    old=self.check_request,
                )
            )
        return proposal.value

    #: The answer the verdict on screen judged (None: no verdict). A message from the
    #: browser that carries a new answer and a check request gets that answer's verdict,
    #: whichever of the two changes is observed first.
    _judged: str | None = None

    def _clear(self, change: traitlets.Bunch | None = None) -> None:
        self._judged = None
        with self.hold_sync():
            self.status = "empty"
            self.feedback = ""
            self.feedback_html = ""

    @traitlets.observe("answer")
    def _answer_changed(self, change: traitlets.Bunch) -> None:
        if change.new != self._judged:
            self._clear()

    @traitlets.observe("check_request")
    def _judge(self, change: traitlets.Bunch) -> None:
        current = self._current()
        self._settle(current, str(current))

    def _settle(self, answer: Any, shown: str) -> Feedback:
        """Judge ``answer``, show the verdict, record it as ``shown``: Check and submit's path."""
        where = split_key(self.key)
        with language(self.lang):
            verdict = self.check(answer)
            recorded = where is not None and verdict.status not in UNRECORDED
            waiting = tr(_WAITING) if recorded and waits_for_name() else ""
            message = joined_sentences([verdict.message, waiting])
        self._judged = self.answer
        with self.hold_sync():
            self.status = verdict.status
            self.feedback = message
            self.feedback_html = feedback_html(message)
        if where is not None and recorded:
            record_check(*where, shown, verdict.status, mistake=verdict.misconception)
        return verdict

    def submit(self, answer: Any = None) -> Feedback:
        """Answer in code, as typing the answer and pressing Check does; return the verdict.

        The answer is shown in the widget with its verdict, and the check is recorded in
        the learner's progress, as the Check button records it (not when the verdict is
        ``"empty"`` or ``"unreadable"``). :meth:`check` judges without either. A number
        is shown as Python writes it; what is not an option picks no option.

        >>> from mapteach.exercises import ChoiceExercise, NumberExercise
        >>> number = NumberExercise("1/2 + 1/4?", 0.75, [], "3/4")
        >>> number.submit(0.75).status, number.answer, number.status
        ('correct', '0.75', 'correct')
        >>> choice = ChoiceExercise("?", {"a": "Yes.", "b": "No."}, correct="a", solution_html="")
        >>> choice.submit("b").status, choice.answer, choice.submit("c").status, choice.answer
        ('incorrect', 'b', 'unreadable', '')
        """
        return self._settle(answer, self._show(answer))

    def _show(self, answer: Any) -> str:
        """Put ``answer`` in the answer control; return it as the progress file records it."""
        raise NotImplementedError

    def check(self, answer: Any) -> Feedback:
        """Judge an answer."""
        raise NotImplementedError

    def _current(self) -> Any:
        return self.answer

    def _static_answer_html(self) -> str:
        return ""

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """The live widget, and as ``text/html`` its state with its answer table (a page
        without a kernel runs it live) beside the static exercise (where nothing runs)."""
        from mapteach.exercises.answer_table import answer_table  # it reads this module

        data, metadata = super()._repr_mimebundle_(**kwargs) or ({}, {})
        state = offline_state(self, answer_table=answer_table(self))
        data["text/html"] = offline_html(
            self.offline_module, state, self._static_html(), lang=HTML_LANG[self.lang]
        )
        return data, metadata

    def _static_html(self) -> str:
        """The exercise without scripts: the prompt, how to answer in code, the folded solution."""
        with language(self.lang):
            heading = escape(tr("Exercise."))
            offline = tr(
                "Without the answer box, answer in code: "
                "<code>exercise.submit(your_answer)</code>, where <code>exercise</code> is this "
                "exercise (<code>exercise = _</code> in the next cell names it)."
            )
            show = escape(tr("Show solution"))
            question = joined_sentences([f"<b>{heading}</b>", self.prompt])
            return (
                f'<div class="mapteach-exercise-static" lang="{HTML_LANG[self.lang]}">'
                f"<p>{question}</p>"
                f"{self._static_answer_html()}<p><i>{offline}</i></p>"
                f"<details><summary>{show}</summary>{self.solution}</details></div>"
            )

    def __repr__(self) -> str:
        prompt = re.sub(r"<[^>]+>", "", self.prompt_source)
        return tr(
            "Exercise: {prompt}\n(answer with exercise.submit(your_answer))",
            lang=self.lang,
            prompt=prompt,
        )


def check_texts(texts: Sequence[str], lang: str) -> None:
    """Fail now, as an exercise is made, on a formula of its replies that could not be shown.

    Each text (an English message is translated into ``lang`` first) must convert with
    :func:`~mapteach.exercises.math_markup.render_math`.

    Raises
    ------
    MathMarkupError
        Naming the first formula that cannot be shown as MathML.

    Examples
    --------
    >>> from mapteach.exercises.widgets import check_texts
    >>> check_texts(["AP = $\\\\frac{1}{2}$."], "en")
    >>> check_texts(["AP = $\\\\frac{1}{$."], "en")
    Traceback (most recent call last):
    ...
    mapteach.exercises.math_markup.MathMarkupError: Cannot show the formula '\\\\frac{1}{' as \
MathML (NoAvailableTokensError); write it in the TeX that latex2mathml converts.
    """
    with language(lang):
        for text in texts:
            render_math(tr(text))


class NumberExercise(Exercise):
    """Type a number; feedback names the mistake a wrong answer matches.

    Answers are judged by :func:`mapteach.exercises.answers.check_number`.

    Parameters
    ----------
    prompt : str
        The question (HTML allowed, TeX formulas between ``$`` shown as MathML).
    answer : float
        The right answer (kept as ``truth``; the ``answer`` trait holds what the
        learner typed).
    misconceptions : sequence of WrongAnswer or (name, value, explanation)
        Wrong answers worth recognising, with what to tell the learner. Those
        equal to the right answer at the asked precision are dropped.
    solution_html : str
        The worked solution, shown only on request.
    decimals : int, default 4
        The precision asked for; the answer box says it.
    fraction : bool, default True
        Whether the answer box and the feedback offer a fraction (``"2/3"``); False where the prompt
        asks for decimals only (a measure with logarithms or roots). A typed fraction is
        read either way.
    hint : str, optional
        What to tell an answer that matches nothing known; an English message is
        translated when shown (see :func:`~mapteach.exercises.answers.check_number`).
    lang : {"en", "zh"}, optional
        The language of the exercise's own texts and verdicts; default the current one.
    key : str, optional
        ``"03.2"``: where the exercise is, for the progress file (None: not recorded).
    measure : str, optional
        The measure asked, in ir_measures' spelling (``"AP@3"``), where the answer is a
        measure of a ranking (it lies in [0, 1]); None otherwise (a pool size, a p-value).
    data : mapping, optional
        What the exercise is built from (``labels``, ``n_relevant``, ``k``, ...), kept as
        ``exercise.data`` for outside checks.

    Raises
    ------
    ValueError
        If ``decimals`` is negative, or the key is not like ``"03.2"``.
    MathMarkupError
        If a formula of the prompt, the solution, the hint or an explanation cannot be
        shown as MathML.

    Examples
    --------
    >>> from mapteach.exercises import NumberExercise
    >>> exercise = NumberExercise("1/2 + 1/4?", 0.75, [("added the denominators", 2 / 6,
    ...                           "Add fractions over a common denominator.")], "3/4")
    >>> print(exercise.check("0.3333"))
    Not quite: 0.3333 is what you get when you made this mistake: added the denominators.
    Add fractions over a common denominator.
    >>> exercise.check("3/4").correct, exercise.check("0.7").status
    (True, 'incomplete')
    """

    kind = traitlets.Unicode("number", read_only=True).tag(sync=True)
    placeholder = traitlets.Unicode("").tag(sync=True)

    def __init__(
        self,
        prompt: str,
        answer: float,
        misconceptions: Sequence[WrongAnswer | tuple[str, float, str]],
        solution_html: str,
        *,
        decimals: int = 4,
        fraction: bool = True,
        hint: str = _HINT,
        lang: str | None = None,
        key: str | None = None,
        measure: str | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> None:
        lang = widget_language(lang)
        if decimals < 0:
            raise ValueError(
                tr("decimals must be >= 0; got {decimals}.", lang=lang, decimals=decimals)
            )
        self.truth = float(answer)
        self.decimals, self.fraction = decimals, fraction
        self.hint = hint
        self.misconceptions = [
            wrong
            for wrong in (WrongAnswer(*item) for item in misconceptions)
            if not agrees_at(wrong.value, self.truth, decimals)
        ]
        check_texts([hint, *(wrong.explanation for wrong in self.misconceptions)], lang)
        with language(lang):
            placeholder = asked_precision(decimals, fraction=fraction)
        self.measure, self.data = measure, None if data is None else dict(data)
        super().__init__(prompt, solution_html, lang=lang, key=key, placeholder=placeholder)

    @classmethod
    def from_data(
        cls,
        prompt: str,
        truth: float,
        solution_html: str,
        *,
        kind: str,
        measure: str | None,
        data: Mapping[str, Any],
        decimals: int = 4,
        fraction: bool = True,
        hint: str = _HINT,
        lang: str | None = None,
        key: str | None = None,
        extra: Sequence[WrongAnswer | tuple[str, float, str]] = (),
    ) -> NumberExercise:
        """A number exercise that recognises every mistake of its kind, on its own data.

        ``kind`` names the mistakes (:func:`~mapteach.exercises.mistakes.mistakes_for`)
        that are computed on ``data`` and explained in the learner's numbers, in
        ``lang``; ``extra`` adds hand-written ones. ``measure`` and ``data`` stay on
        the exercise, for outside checks.

        Examples
        --------
        >>> from mapteach.exercises import NumberExercise
        >>> data = {"labels": [1, 0, 1], "n_relevant": 3, "k": None}
        >>> exercise = NumberExercise.from_data("AP of [1, 0, 1], R = 3?", 5 / 9, "5/9",
        ...                                     kind="AP", measure="AP", data=data)
        >>> exercise.measure, exercise.check("5/6").misconception
        ('AP', 'forgot the missed relevant results')
        """
        lang = widget_language(lang)
        with language(lang):
            wrong = [*wrong_answers(kind, data, truth), *extra]
        exercise = cls(
            prompt,
            truth,
            wrong,
            solution_html,
            decimals=decimals,
            fraction=fraction,
            hint=hint,
            lang=lang,
            key=key,
            measure=measure,
            data=data,
        )
        exercise.mistake_kind = kind
        return exercise

    def check(self, answer: Any) -> Feedback:
        """Judge an answer (a number, or text such as ``"0.2815"`` or ``"2/3"``)."""
        with language(self.lang):
            return check_number(
                answer,
                self.truth,
                decimals=self.decimals,
                misconceptions=self.misconceptions,
                hint=self.hint,
                measure=self.measure,
                fraction=self.fraction,
            )

    def _show(self, answer: Any) -> str:
        if answer is None:
            shown = ""
        elif isinstance(answer, numbers.Real) and not isinstance(answer, bool):
            shown = repr(float(answer))
        else:
            shown = str(answer)
        self.answer = shown
        return shown

    def _static_answer_html(self) -> str:
        """How to answer, where the prompt does not say it already."""
        with language(self.lang):
            if states_precision(self.prompt_source, self.decimals):
                return ""
            answer = tr("Answer with {placeholder}.", placeholder=self.placeholder)
        return f"<p>{escape(answer)}</p>"
