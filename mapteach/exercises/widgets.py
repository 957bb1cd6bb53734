"""Self-check exercises with feedback that names the misconception behind a wrong answer.

Each exercise is an anywidget (``static/exercise.js``) whose synced traits are the
only state: the browser writes ``answer`` (what the learner typed or picked) and
counts ``check_request`` up on *Check* or Enter; the kernel judges the answer with
:mod:`mapteach.exercises.answers` and writes ``status`` and ``feedback``, and clears
them as soon as the answer changes. Without a widget front end it still works in
plain text: call ``exercise.check(answer)``; the static HTML keeps the solution
folded inside a ``<details>`` element. Introduced in ``01_why_order_matters``.

An exercise speaks the language current when it is made, or its ``lang=``, and
keeps it: its buttons and labels (the ``texts`` trait the browser reads), its
verdicts, its default prompt and solution, its static fallback. A prompt, options
or feedback the notebook passes in are shown as given.

Examples
--------
>>> from mapteach.exercises import ap_exercise
>>> exercise = ap_exercise([0, 1])  # AP = 1/2
>>> exercise.answer = "0.5"  # as typing does
>>> exercise.check_request += 1  # as Check or Enter does
>>> exercise.status, exercise.feedback
('correct', 'Correct: 0.5000.')
>>> exercise.answer = "0.25"  # a new answer clears the old verdict
>>> exercise.status, exercise.feedback
('empty', '')
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets
import traitlets

from mapteach.board.list_widget import RankingList
from mapteach.classroom.progress_log import record_check
from mapteach.exercises.answers import (
    STATUSES,
    Feedback,
    WrongAnswer,
    agrees_at,
    asked_precision,
    check_number,
)
from mapteach.exercises.registry import record_exercise
from mapteach.explain.ap_trace import explain_ap, trace_ap
from mapteach.explain.trace_display import trace_html
from mapteach.i18n import HTML_LANG, N_, language, tr, widget_language
from mapteach.metrics.names import parse_measure
from mapteach.metrics.validation import as_k, as_labels

__all__ = ["ArrangeExercise", "ChoiceExercise", "NumberExercise"]

_STATIC = Path(__file__).parent / "static"

#: What a number exercise says to an answer that matches no known mistake, by default.
_HINT = N_("Check your working, or open the solution.")


def _split_key(key: str | None) -> tuple[str, str] | None:
    """``"03.2"`` -> ("03", "2"): the notebook and the exercise's number in it."""
    if key is None:
        return None
    notebook, dot, number = key.partition(".")
    if not (isinstance(key, str) and dot and notebook and number):
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
        }


class Exercise(anywidget.AnyWidget):
    """Prompt, an answer control, Check, feedback and a folded solution, in one widget.

    The base of :class:`NumberExercise`, :class:`ChoiceExercise` and
    :class:`ArrangeExercise`: each judges an answer with its own :meth:`check`.
    """

    _esm = _STATIC / "exercise.js"
    _css = _STATIC / "exercise.css"

    prompt = traitlets.Unicode("").tag(sync=True)
    solution = traitlets.Unicode("").tag(sync=True)
    show_solution = traitlets.Bool(False).tag(sync=True)
    answer = traitlets.Unicode("").tag(sync=True, echo_update=False)
    check_request = traitlets.Int(0).tag(sync=True, echo_update=False)
    status = traitlets.Unicode("empty").tag(sync=True)
    feedback = traitlets.Unicode("").tag(sync=True)
    #: The labels the browser view shows itself (buttons, aria labels), in ``lang``.
    texts = traitlets.Dict(traitlets.Unicode()).tag(sync=True)

    #: The language the exercise speaks, fixed when it is made.
    lang: str

    #: ``"03.2"``: the notebook and the exercise's number in it (None: not recorded).
    key: str | None

    def __init__(
        self, prompt: str, solution_html: str, *, lang: str, key: str | None = None, **kwargs: Any
    ) -> None:
        self.lang = lang
        _split_key(key)
        self.key = key
        super().__init__(
            prompt=prompt, solution=solution_html, texts=exercise_texts(lang), **kwargs
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

    @traitlets.observe("answer")
    def _answer_changed(self, change: traitlets.Bunch) -> None:
        if change.new != self._judged:
            self._clear()

    @traitlets.observe("check_request")
    def _judge(self, change: traitlets.Bunch) -> None:
        with language(self.lang):
            verdict = self.check(self._current())
        self._judged = self.answer
        with self.hold_sync():
            self.status = verdict.status
            self.feedback = verdict.message
        where = _split_key(self.key)
        if where is not None and verdict.status != "empty":
            record_check(*where, str(self._current()), verdict.status)

    def check(self, answer: Any) -> Feedback:
        """Judge an answer."""
        raise NotImplementedError

    def _current(self) -> Any:
        return self.answer

    def _static_answer_html(self) -> str:
        return ""

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        data, metadata = super()._repr_mimebundle_(**kwargs) or ({}, {})
        with language(self.lang):
            heading = escape(tr("Exercise."))
            offline = tr(
                "Without a live kernel, answer in code: <code>exercise.check(your_answer)</code>."
            )
            show = escape(tr("Show solution"))
            data["text/html"] = (
                f'<div class="mapteach-exercise-static" lang="{HTML_LANG[self.lang]}">'
                f"<p><b>{heading}</b> {self.prompt}</p>"
                f"{self._static_answer_html()}<p><i>{offline}</i></p>"
                f"<details><summary>{show}</summary>{self.solution}</details></div>"
            )
        return data, metadata

    def __repr__(self) -> str:
        prompt = re.sub(r"<[^>]+>", "", self.prompt)
        return tr(
            "Exercise: {prompt}\n(answer with .check(your_answer))", lang=self.lang, prompt=prompt
        )


class NumberExercise(Exercise):
    """Type a number; feedback names the misconception a wrong answer matches.

    Answers are judged by :func:`mapteach.exercises.answers.check_number`.

    Parameters
    ----------
    prompt : str
        The question (HTML allowed).
    answer : float
        The right answer (kept as ``truth``; the ``answer`` trait holds what the
        learner typed).
    misconceptions : sequence of (name, value, explanation)
        Wrong answers worth recognising, with what to tell the learner. Those
        equal to the right answer at the asked precision are dropped.
    solution_html : str
        The worked solution, shown only on request.
    decimals : int, default 4
        The precision asked for; the answer box says it.
    hint : str, optional
        What to tell an answer that matches nothing known; an English message is
        translated when shown (see :func:`~mapteach.exercises.answers.check_number`).
    lang : {"en", "zh"}, optional
        The language of the exercise's own texts and verdicts; default the current one.

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
        misconceptions: Sequence[WrongAnswer],
        solution_html: str,
        *,
        decimals: int = 4,
        hint: str = _HINT,
        lang: str | None = None,
        key: str | None = None,
    ) -> None:
        lang = widget_language(lang)
        if decimals < 0:
            raise ValueError(
                tr("decimals must be >= 0; got {decimals}.", lang=lang, decimals=decimals)
            )
        self.truth = float(answer)
        self.decimals = decimals
        self.hint = hint
        self.misconceptions = [
            (name, float(value), text)
            for name, value, text in misconceptions
            if not agrees_at(float(value), self.truth, decimals)
        ]
        with language(lang):
            placeholder = asked_precision(decimals)
        super().__init__(prompt, solution_html, lang=lang, key=key, placeholder=placeholder)

    @classmethod
    def from_scores(
        cls,
        prompt: str,
        scores: tuple[float, Mapping[str, float]],
        explanations: Mapping[str, str],
        solution_html: str,
        *,
        decimals: int = 4,
        hint: str = _HINT,
        lang: str | None = None,
        key: str | None = None,
    ) -> NumberExercise:
        """A number exercise from one computation of its right answer and its mistakes.

        ``scores`` is what an exercise factory's score function returns (the one its
        learner variants are checked with, see
        :func:`~mapteach.exercises.variants.variant_labels`): the right answer and
        ``{mistake: value}``. ``explanations`` tells the learner what each mistake
        is, by the same names; the mistakes keep the order of ``scores``. The other
        arguments are the constructor's.

        Examples
        --------
        >>> from mapteach.exercises import NumberExercise
        >>> scores = (0.75, {"added the denominators": 2 / 6})
        >>> exercise = NumberExercise.from_scores(
        ...     "1/2 + 1/4?", scores, {"added the denominators": "Use a common denominator."},
        ...     "3/4")
        >>> exercise.truth, exercise.check("1/3").misconception
        (0.75, 'added the denominators')
        """
        answer, wrong = scores
        return cls(
            prompt,
            answer,
            [(name, value, explanations[name]) for name, value in wrong.items()],
            solution_html,
            decimals=decimals,
            hint=hint,
            lang=lang,
            key=key,
        )

    def check(self, answer: Any) -> Feedback:
        """Judge an answer (a number, or text such as ``"0.2815"`` or ``"2/3"``)."""
        with language(self.lang):
            return check_number(
                answer,
                self.truth,
                decimals=self.decimals,
                misconceptions=self.misconceptions,
                hint=self.hint,
            )

    def _static_answer_html(self) -> str:
        answer = tr("Answer with {placeholder}.", lang=self.lang, placeholder=self.placeholder)
        return f"<p>{escape(answer)}</p>"


class ChoiceExercise(Exercise):
    """Pick one option; each option has its own feedback.

    The options and their replies are shown as given; ``lang`` (default: the
    current language) is that of the exercise's own texts.

    Examples
    --------
    >>> from mapteach.exercises import ChoiceExercise
    >>> exercise = ChoiceExercise("Which is larger?", {"AP": "Yes.", "AP@3": "AP@3 <= AP."},
    ...                           correct="AP", solution_html="AP, since R stays the same.")
    >>> exercise.check("AP@3")
    Feedback(status='incorrect', message='AP@3 <= AP.', misconception='AP@3')
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
        super().__init__(prompt, solution_html, lang=lang, key=key, options=list(options))

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
        """Judge a chosen option."""
        if answer is None or answer == "":
            return Feedback("empty", tr("Choose one of the options.", lang=self.lang))
        if answer not in self.replies:
            options = ", ".join(self.replies)
            return Feedback(
                "incorrect", tr("Choose one of: {options}.", lang=self.lang, options=options)
            )
        if answer == self.correct:
            return Feedback("correct", self.replies[answer])
        return Feedback("incorrect", self.replies[answer], answer)

    def _static_answer_html(self) -> str:
        return "<ul>" + "".join(f"<li>{escape(option)}</li>" for option in self.options) + "</ul>"


class ArrangeExercise(Exercise):
    """Arrange a list (drag it on the board, or pass labels) so that measures hit targets.

    Parameters
    ----------
    prompt : str
        The task.
    targets : mapping of measure name to float
        Such as ``{"AP": 0.5, "P@5": 0.6}`` (names as :func:`mapteach.parse_measure`).
    n_results, n_relevant_items : int
        The list's length and how many of its results are relevant; R equals the
        relevant results (none is missed).
    lang : {"en", "zh"}, optional
        The language of the board, the verdicts and the solution; default the current one.

    Examples
    --------
    >>> from mapteach.exercises import ArrangeExercise
    >>> task = ArrangeExercise("AP = 0.5 and P@5 = 0.6", {"AP": 0.5, "P@5": 0.6}, 10, 4)
    >>> task.check([1, 1, 1, 1, 0, 0, 0, 0, 0, 0]).status
    'incorrect'
    >>> task.solve()  # found by trying every arrangement
    [0, 1, 0, 1, 1, 0, 0, 0, 0, 1]
    """

    kind = traitlets.Unicode("arrange", read_only=True).tag(sync=True)
    board = traitlets.Instance(RankingList).tag(sync=True, **ipywidgets.widget_serialization)

    def __init__(
        self,
        prompt: str,
        targets: Mapping[str, float],
        n_results: int,
        n_relevant_items: int,
        *,
        lang: str | None = None,
        key: str | None = None,
    ) -> None:
        self.lang = lang = widget_language(lang)
        with language(lang):
            self.targets = {
                parse_measure(name).name: float(value) for name, value in targets.items()
            }
            self.n_results = as_k(n_results, name="n_results")
            if not 0 < n_relevant_items <= self.n_results:
                raise ValueError(
                    tr(
                        "n_relevant_items must be between 1 and n_results={n_results}; "
                        "got {value}.",
                        n_results=self.n_results,
                        value=n_relevant_items,
                    )
                )
            self.n_relevant_items = n_relevant_items
            start = [0] * (self.n_results - n_relevant_items) + [1] * n_relevant_items
            solution = self.solve()
            solution_html = (
                tr(
                    "One arrangement that works (found by trying all of them): "
                    "<code>{solution}</code>",
                    solution=solution,
                )
                + trace_html(trace_ap(solution), caption=str(explain_ap(solution)))
                if solution
                else tr("No arrangement reaches every target exactly.")
            )
            query_name = tr("Drag the results, then Check")
        board = RankingList(start, compact=True, query_name=query_name, lang=lang)
        super().__init__(prompt, solution_html, lang=lang, key=key, board=board)
        board.observe(self._clear, names="items")

    def _current(self) -> list[int]:
        return self.board.labels

    def _scores(self, labels: Sequence[int]) -> dict[str, float]:
        return {name: parse_measure(name).score(labels) for name in self.targets}

    def check(self, labels: Sequence[int | bool] | None = None) -> Feedback:
        """Judge an arrangement (default: the board's current order)."""
        with language(self.lang):
            y = as_labels(self.board.labels if labels is None else labels).astype(int).tolist()
            if len(y) != self.n_results or sum(y) != self.n_relevant_items:
                return Feedback(
                    "incorrect",
                    tr(
                        "Use {n_results} results of which {n_relevant} are relevant; "
                        "got {n_got} results with {n_got_relevant} relevant.",
                        n_results=self.n_results,
                        n_relevant=self.n_relevant_items,
                        n_got=len(y),
                        n_got_relevant=sum(y),
                    ),
                )
            scores = self._scores(y)
            report = ", ".join(
                tr(
                    "{name} = {score:.4f} (target {target:g})",
                    name=name,
                    score=scores[name],
                    target=t,
                )
                for name, t in self.targets.items()
            )
            if all(abs(scores[name] - t) <= 1e-12 for name, t in self.targets.items()):
                return Feedback("correct", tr("Correct: {report}.", report=report))
            return Feedback("incorrect", tr("Not yet: {report}.", report=report))

    def solve(self) -> list[int] | None:
        """The first arrangement (in rank order of the relevant results) meeting every target."""
        for ranks in itertools.combinations(range(self.n_results), self.n_relevant_items):
            labels = [int(i in ranks) for i in range(self.n_results)]
            if self.check(labels).correct:
                return labels
        return None
