"""Self-check exercises with feedback that names the misconception behind a wrong answer.

Each exercise is an anywidget (``static/exercise.js``) whose synced traits are the
only state: the browser writes ``answer`` (what the learner typed or picked) and
counts ``check_request`` up on *Check* or Enter; the kernel judges the answer with
:mod:`mapteach.teaching.answers` and writes ``status`` and ``feedback``, and clears
them as soon as the answer changes. Without a widget front end it still works in
plain text: call ``exercise.check(answer)``; the static HTML keeps the solution
folded inside a ``<details>`` element. Introduced in ``01_why_order_matters``.

An exercise speaks the language current when it is made, or its ``lang=``, and
keeps it: its buttons and labels (the ``texts`` trait the browser reads), its
verdicts, its default prompt and solution, its static fallback. A prompt, options
or feedback the notebook passes in are shown as given.

Examples
--------
>>> from mapteach.views.exercises import ap_exercise
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

import contextlib
import fractions
import hashlib
import itertools
import random
import re
from collections.abc import Iterator, Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets
import traitlets

from mapteach.i18n import N_, language, tr
from mapteach.metrics import (
    average_precision,
    geometric_mean,
    mean_average_precision,
    precision_at_k,
    r_precision,
)
from mapteach.metrics._validation import as_k, as_labels
from mapteach.metrics.gmap import GM_FLOOR
from mapteach.metrics.names import parse_measure
from mapteach.runs.evaluate import evaluate
from mapteach.runs.pooling import pool
from mapteach.teaching.answers import (
    STATUSES,
    Feedback,
    WrongAnswer,
    agrees_at,
    asked_precision,
    check_number,
)
from mapteach.teaching.beyond_misconceptions import GMAP_MISCONCEPTIONS, RPREC_MISCONCEPTIONS
from mapteach.teaching.misconceptions import (
    AP_MISCONCEPTIONS,
    MAP_MISCONCEPTIONS,
    PRECISION_MISCONCEPTIONS,
)
from mapteach.teaching.pr_curve import pr_curve
from mapteach.teaching.progress import learner as current_learner
from mapteach.teaching.progress import record_check
from mapteach.teaching.trace import explain_ap, explain_table, trace_ap
from mapteach.views.ranking_board import RankingList
from mapteach.views.render import HTML_LANG, trace_html, widget_language

__all__ = [
    "ArrangeExercise",
    "ChoiceExercise",
    "NumberExercise",
    "ap_exercise",
    "collect_exercises",
    "gmap_exercise",
    "interpolated_precision_exercise",
    "map_exercise",
    "pool_exercise",
    "pooled_ap_exercise",
    "precision_exercise",
    "r_precision_exercise",
]

_STATIC = Path(__file__).parent / "static"

#: The lists :func:`collect_exercises` is filling (one per open ``with`` block).
_collectors: list[list[_Exercise]] = []


@contextlib.contextmanager
def collect_exercises() -> Iterator[list[_Exercise]]:
    """Collect every exercise made inside the ``with`` block, in order (the answer key's way in).

    >>> with collect_exercises() as made:
    ...     _ = ChoiceExercise("AP or AP@3?", {"AP": "Yes.", "AP@3": "No."}, correct="AP",
    ...                        solution_html="AP", key="00.1")
    >>> [(exercise.key, exercise.correct) for exercise in made]
    [('00.1', 'AP')]
    """
    made: list[_Exercise] = []
    _collectors.append(made)
    try:
        yield made
    finally:
        _collectors.remove(made)


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


def variant_rng(key: str | None) -> random.Random | None:
    """The learner's own random numbers for exercise ``key`` (None: no learner, or no key).

    With :func:`mapteach.learner` set, a keyed numeric exercise draws its ranking
    from these, so two learners get different lists of the same difficulty and the
    same learner always gets the same one. With no learner the exercise is as written.

    >>> from mapteach.teaching.progress import learner
    >>> variant_rng("03.1") is None
    True
    """
    name = current_learner()
    if key is None or not name:
        return None
    digest = hashlib.sha256(f"{name}\n{key}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


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


class _Exercise(anywidget.AnyWidget):
    """Prompt, an answer control, Check, feedback and a folded solution, in one widget."""

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
        for made in _collectors:
            made.append(self)

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


class NumberExercise(_Exercise):
    """Type a number; feedback names the misconception a wrong answer matches.

    Answers are judged by :func:`mapteach.teaching.answers.check_number`.

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
        translated when shown (see :func:`~mapteach.teaching.answers.check_number`).
    lang : {"en", "zh"}, optional
        The language of the exercise's own texts and verdicts; default the current one.

    Examples
    --------
    >>> from mapteach.views.exercises import NumberExercise
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
        hint: str = N_("Check your working, or open the solution."),
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


class ChoiceExercise(_Exercise):
    """Pick one option; each option has its own feedback.

    The options and their replies are shown as given; ``lang`` (default: the
    current language) is that of the exercise's own texts.

    Examples
    --------
    >>> from mapteach.views.exercises import ChoiceExercise
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


class ArrangeExercise(_Exercise):
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
    >>> from mapteach.views.exercises import ArrangeExercise
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


def ap_exercise(
    labels: Sequence[int | bool],
    *,
    n_relevant: int | None = None,
    k: int | None = None,
    prompt: str | None = None,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
) -> NumberExercise:
    """An exercise: compute AP (or AP@k) of a list, with feedback on the classic mistakes.

    Recognises dividing by the retrieved hits instead of R, dividing AP@k by the
    hits in the top k, using the final hit count in every numerator (article
    001's 0.48), dividing by the list's length, and averaging P@i over every
    rank. Introduced in ``03_average_precision_by_hand``. ``lang`` is the
    language of the default prompt, the solution and the verdicts (default: the
    current one). ``key`` (``"03.2"``) records each check in the learner's
    progress and, once :func:`mapteach.learner` names a learner, gives that
    learner a ranking of their own: the same length, relevant results, R and
    cutoff, with the same mistakes recognised (see :func:`variant_labels`).

    Examples
    --------
    >>> from mapteach.views.exercises import ap_exercise
    >>> exercise = ap_exercise([0, 0, 0, 0, 0, 0, 1, 1, 1, 1])
    >>> exercise.check("0.4790").misconception  # article 001's 0.48, to 4 decimals
    'final hit count in every numerator'
    >>> exercise.check("0.2815").correct, exercise.check("0.28").status
    (True, 'incomplete')
    """
    lang = widget_language(lang)
    [labels], prompt = _variant(
        [labels], prompt, key, lambda y: _ap_wrong(y, n_relevant, k), decimals, k
    )
    with language(lang):
        answer = average_precision(labels, n_relevant=n_relevant, k=k)
        name = "AP" if k is None else f"AP@{k}"
        wrong = [
            (m.name, m.compute(labels, n_relevant=n_relevant, k=k), m.explanation)
            for m in AP_MISCONCEPTIONS
            if m.applies(k)
        ]
        table = trace_ap(labels, n_relevant=n_relevant, k=k)
        explanation = explain_table(table)
        default = tr(
            "Ranked labels <code>{labels}</code>, R = {r}. What is {measure}? "
            "Give {decimals} decimals or a fraction.",
            labels=as_labels(labels).astype(int).tolist(),
            r=table.attrs["n_relevant"],
            measure=name,
            decimals=decimals,
        )
        solution = (
            trace_html(table, caption=str(explanation)) + f"<p>{escape(explanation.note)}</p>"
        )
        hint = N_("Trace it rank by rank, or open the solution.")
    return NumberExercise(
        prompt or default,
        answer,
        wrong,
        solution,
        decimals=decimals,
        hint=hint,
        lang=lang,
        key=key,
    )


def precision_exercise(
    labels: Sequence[int | bool],
    k: int,
    *,
    n_relevant: int | None = None,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
) -> NumberExercise:
    """An exercise: compute P@k, recognising recall, a short list and hits below rank k.

    Introduced in ``02_precision_and_recall_at_k``. ``lang`` is the language of
    the prompt, the solution and the verdicts (default: the current one).

    Examples
    --------
    >>> from mapteach.views.exercises import precision_exercise
    >>> exercise = precision_exercise([1, 0, 1], 5)
    >>> exercise.check("2/3").misconception  # divided by the 3 results, not by k = 5
    "divided by the list's length"
    """
    lang = widget_language(lang)
    [labels], _ = _variant(
        [labels], None, key, lambda y: _precision_wrong(y, n_relevant, k), decimals, k
    )
    with language(lang):
        answer = precision_at_k(labels, k)
        wrong = [
            (m.name, m.compute(labels, n_relevant=n_relevant, k=k), m.explanation)
            for m in PRECISION_MISCONCEPTIONS
        ]
        y = as_labels(labels).astype(int).tolist()
        hits = sum(y[:k])
        solution = tr(
            "The top {k} hold {hits} relevant results, so P@{k} = {hits}/{k} = {value}.",
            k=k,
            hits=hits,
            value=f"{answer:.{decimals}f}",
        )
        prompt = (
            tr(
                "Ranked labels <code>{labels}</code>. What is P@{k}? "
                "Give {decimals} decimals or a fraction.",
                labels=y,
                k=k,
                decimals=decimals,
            )
            if n_relevant is None
            else tr(
                "Ranked labels <code>{labels}</code>. The query has R = {r} relevant results. "
                "What is P@{k}? Give {decimals} decimals or a fraction.",
                labels=y,
                r=n_relevant,
                k=k,
                decimals=decimals,
            )
        )
    return NumberExercise(
        prompt, answer, wrong, f"<p>{solution}</p>", decimals=decimals, lang=lang, key=key
    )


def map_exercise(
    rankings: Sequence[Sequence[int | bool]],
    *,
    n_relevant: Sequence[int | None] | None = None,
    prompt: str | None = None,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
) -> NumberExercise:
    """An exercise: compute MAP over queries, recognising a skipped empty query.

    Introduced in ``04_mean_average_precision``. ``lang`` is the language of the
    default prompt, the solution and the verdicts (default: the current one).

    Examples
    --------
    >>> from mapteach.views.exercises import map_exercise
    >>> exercise = map_exercise([[1, 0], [0, 1], [0, 0]])
    >>> exercise.check("0.75").misconception  # (1 + 1/2) / 2 instead of / 3
    'skip instead of zero'
    """
    lang = widget_language(lang)
    rankings, prompt = _variant(
        rankings, prompt, key, lambda *ys: _map_wrong(ys, n_relevant), decimals, None
    )
    with language(lang):
        answer = mean_average_precision(rankings, n_relevant=n_relevant)
        wrong = [
            (m.name, m.compute(rankings, n_relevant=n_relevant), m.explanation)
            for m in MAP_MISCONCEPTIONS
        ]
        totals = list(n_relevant) if n_relevant is not None else [None] * len(rankings)
        lines = "".join(
            "<li>"
            + tr(
                "query {number}: <code>{arithmetic}</code>",
                number=i + 1,
                arithmetic=explain_ap(y, n_relevant=r),
            )
            + "</li>"
            for i, (y, r) in enumerate(zip(rankings, totals, strict=True))
        )
        mean = tr(
            "MAP = the mean of these {n} values = {value}.",
            n=len(rankings),
            value=f"{answer:.{decimals}f}",
        )
        queries = "".join(
            f"<li><code>{as_labels(y).astype(int).tolist()}</code>"
            + ("" if r is None else f", R = {r}")
            + "</li>"
            for y, r in zip(rankings, totals, strict=True)
        )
        default = tr(
            "Queries:<ol>{queries}</ol>What is MAP? Give {decimals} decimals or a fraction.",
            queries=queries,
            decimals=decimals,
        )
        hint = N_("Trace each query's AP first, or open the solution.")
    return NumberExercise(
        prompt or default,
        answer,
        wrong,
        f"<ul>{lines}</ul><p>{mean}</p>",
        decimals=decimals,
        hint=hint,
        lang=lang,
        key=key,
    )


def _ap_wrong(
    labels: Sequence[int], n_relevant: int | None, k: int | None
) -> tuple[float, dict[str, float]]:
    wrong = {
        m.name: m.compute(labels, n_relevant=n_relevant, k=k)
        for m in AP_MISCONCEPTIONS
        if m.applies(k)
    }
    return average_precision(labels, n_relevant=n_relevant, k=k), wrong


def _precision_wrong(
    labels: Sequence[int], n_relevant: int | None, k: int
) -> tuple[float, dict[str, float]]:
    wrong = {
        m.name: m.compute(labels, n_relevant=n_relevant, k=k) for m in PRECISION_MISCONCEPTIONS
    }
    return precision_at_k(labels, k), wrong


def _map_wrong(
    rankings: Sequence[Sequence[int]], n_relevant: Sequence[int | None] | None
) -> tuple[float, dict[str, float]]:
    wrong = {m.name: m.compute(rankings, n_relevant=n_relevant) for m in MAP_MISCONCEPTIONS}
    return mean_average_precision(rankings, n_relevant=n_relevant), wrong


def _recognised(scores: tuple[float, dict[str, float]], decimals: int) -> frozenset[str]:
    """The mistakes an exercise tells apart from the right answer at the asked precision."""
    truth, wrong = scores
    return frozenset(name for name, value in wrong.items() if not agrees_at(value, truth, decimals))


def variant_labels(
    rankings: Sequence[Sequence[int | bool]],
    rng: random.Random,
    scores: Any,
    decimals: int,
    k: int | None,
    tries: int = 500,
) -> list[list[int]]:
    """Shuffle each ranking until the exercise stays as hard and as well checked.

    A variant keeps each list's length and relevant results (so R and the cutoff
    stay), keeps the number of relevant results in the top ``k`` between 1 and
    ``k - 1`` when the original had that, differs from the original, and lets the
    exercise recognise exactly the same mistakes (``scores(*rankings)`` returns
    the right answer and each mistake's value). After ``tries`` misses the
    original comes back.

    >>> import random
    >>> variant_labels([[1, 0, 1, 0, 0]], random.Random(0),
    ...                lambda y: (sum(y[:2]) / 2, {}), 4, 2)
    [[0, 1, 0, 0, 1]]
    """
    original = [as_labels(y).astype(int).tolist() for y in rankings]
    wanted = _recognised(scores(*original), decimals)

    def top_mixed(y: list[int]) -> bool:
        return k is None or 0 < sum(y[:k]) < min(k, len(y))

    mixed = [top_mixed(y) for y in original]
    for _ in range(tries):
        candidate = [rng.sample(y, len(y)) for y in original]
        if candidate == original:
            continue
        if any(m and not top_mixed(y) for m, y in zip(mixed, candidate, strict=True)):
            continue
        if _recognised(scores(*candidate), decimals) == wanted:
            return candidate
    return original


def _variant(
    rankings: Sequence[Sequence[int | bool]],
    prompt: str | None,
    key: str | None,
    scores: Any,
    decimals: int,
    k: int | None,
) -> tuple[list[Any], str | None]:
    """The learner's rankings and prompt (the lists as written when there is no learner).

    A prompt the notebook wrote must show every list literally (``[1, 0, 1]``) for
    the learner's lists to replace them; otherwise the exercise stays as written.
    """
    rng = variant_rng(key)
    if rng is None:
        return list(rankings), prompt
    original = [as_labels(y).astype(int).tolist() for y in rankings]
    if prompt is not None and not all(str(y) in prompt for y in original):
        return list(rankings), prompt
    variant = variant_labels(original, rng, scores, decimals, k)
    if prompt is not None:
        marks = [f"\x00{index}\x00" for index in range(len(original))]
        for mark, y in zip(marks, original, strict=True):
            prompt = prompt.replace(str(y), mark)
        for mark, y in zip(marks, variant, strict=True):
            prompt = prompt.replace(mark, str(y))
    return variant, prompt


_RAW_AT_LEVEL = N_("gave the raw precision at the rank where recall reaches the level")
_BEST_ANYWHERE = N_("took the best precision anywhere in the list")


def _interpolated_scores(
    labels: Sequence[int], n_relevant: int | None, level: float
) -> tuple[float, dict[str, float], int]:
    curve = pr_curve(labels, n_relevant=n_relevant)
    first = curve[curve["recall"] >= level - 1e-12].iloc[0]
    wrong = {_RAW_AT_LEVEL: float(first["precision"]), _BEST_ANYWHERE: curve["precision"].max()}
    return float(first["interpolated"]), wrong, int(first["rank"])


def interpolated_precision_exercise(
    labels: Sequence[int | bool],
    recall: str | fractions.Fraction,
    *,
    n_relevant: int | None = None,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
) -> NumberExercise:
    """An exercise: interpolated precision at a recall level, read off the PR curve.

    Recognises the raw precision at the first rank that reaches the level, and the
    best precision anywhere in the list. Introduced in ``07_pr_curves``. ``key``
    records checks and gives a named learner a list of their own, as
    :func:`ap_exercise` does.

    Examples
    --------
    >>> from mapteach.views.exercises import interpolated_precision_exercise
    >>> exercise = interpolated_precision_exercise([1, 0, 0, 1, 1, 0], "2/3")
    >>> round(exercise.truth, 4), exercise.check("0.5").misconception
    (0.6, 'gave the raw precision at the rank where recall reaches the level')
    """
    lang = widget_language(lang)
    level = fractions.Fraction(recall)
    [labels], _ = _variant(
        [labels],
        None,
        key,
        lambda y: _interpolated_scores(y, n_relevant, float(level))[:2],
        decimals,
        None,
    )
    with language(lang):
        y = as_labels(labels).astype(int).tolist()
        answer, wrong, rank = _interpolated_scores(y, n_relevant, float(level))
        explanations = {
            _RAW_AT_LEVEL: tr(
                "That is the raw precision at rank {rank}, where recall first reaches {level}. "
                "Interpolated precision takes the best precision at recall {level} or higher, "
                "and precision can recover at a later rank.",
                rank=rank,
                level=str(level),
            ),
            _BEST_ANYWHERE: tr(
                "That maximum includes ranks whose recall is below {level}; only recall "
                "{level} or higher counts.",
                level=str(level),
            ),
        }
        prompt = tr(
            "For the list <code>{labels}</code> (R = {r}), what is the <b>interpolated</b> "
            "precision at recall {level}? Give {decimals} decimals or a fraction.",
            labels=y,
            r=sum(y) if n_relevant is None else n_relevant,
            level=str(level),
            decimals=decimals,
        )
        solution = tr(
            "The best precision at recall {level} or higher is {answer:.4f}: the table gives "
            "precision and recall after each rank.",
            level=str(level),
            answer=answer,
        )
        table = pr_curve(y, n_relevant=n_relevant).round(4).to_html(index=False)
    return NumberExercise(
        prompt,
        answer,
        [(name, value, explanations[name]) for name, value in wrong.items()],
        f"<p>{solution}</p>{table}",
        decimals=decimals,
        lang=lang,
        key=key,
    )


def _r_precision_scores(labels: Sequence[int], n_relevant: int) -> tuple[float, dict[str, float]]:
    wrong = {m.name: m.compute(labels, n_relevant=n_relevant) for m in RPREC_MISCONCEPTIONS}
    return r_precision(labels, n_relevant=n_relevant), wrong


def r_precision_exercise(
    labels: Sequence[int | bool],
    n_relevant: int,
    *,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
) -> NumberExercise:
    """An exercise: R-precision of a list whose query has ``n_relevant`` relevant documents.

    Recognises P@10, precision at the hits found instead of at R, and precision at
    the last relevant result. Introduced in ``13_r_precision_and_other_numbers``.
    ``key`` records checks and gives a named learner a list of their own, as
    :func:`ap_exercise` does.

    Examples
    --------
    >>> from mapteach.views.exercises import r_precision_exercise
    >>> exercise = r_precision_exercise([0, 1, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0], 6)
    >>> exercise.truth, exercise.check("0.4").misconception
    (0.5, 'P@10 for R-precision')
    """
    lang = widget_language(lang)
    [labels], _ = _variant(
        [labels], None, key, lambda y: _r_precision_scores(y, n_relevant), decimals, n_relevant
    )
    with language(lang):
        y = as_labels(labels).astype(int).tolist()
        answer, wrong = _r_precision_scores(y, n_relevant)
        missed = n_relevant - sum(y)
        prompt = tr(
            "A query has R = {r} relevant documents; its ranked list is <code>{labels}</code> "
            "({missed} of its relevant documents were never retrieved). What is its "
            "R-precision? Give {decimals} decimals or a fraction.",
            r=n_relevant,
            labels=y,
            missed=missed,
            decimals=decimals,
        )
        solution = tr(
            "Read rank R = {r}: {hits} of the top {r} are relevant, so R-precision = "
            "{hits}/{r} = {rprec:.4f}.",
            r=n_relevant,
            hits=sum(y[:n_relevant]),
            rprec=answer,
        )
        table = pr_curve(y, n_relevant=n_relevant).round(4).to_html(index=False)
    misconceptions = [(m.name, wrong[m.name], m.explanation) for m in RPREC_MISCONCEPTIONS]
    return NumberExercise(
        prompt,
        answer,
        misconceptions,
        f"<p>{solution}</p>{table}",
        decimals=decimals,
        lang=lang,
        key=key,
    )


def _gmap_scores(rankings: Sequence[Sequence[int]]) -> tuple[float, dict[str, float]]:
    aps = [average_precision(y, n_relevant=1) for y in rankings]
    return geometric_mean(aps), {m.name: m.compute(aps) for m in GMAP_MISCONCEPTIONS}


def gmap_exercise(
    ranks: Sequence[int | None],
    *,
    depth: int = 10,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
) -> NumberExercise:
    """An exercise: GMAP of queries with one relevant document each, found at ``ranks``.

    ``None`` is a query whose relevant document is not in the top ``depth`` (AP 0,
    floored at :data:`~mapteach.metrics.gmap.GM_FLOOR`). Recognises MAP given for
    GMAP, the product without the floor, and the mean log not turned back with exp.
    Introduced in ``13_r_precision_and_other_numbers``. ``key`` records checks and
    gives a named learner ranks of their own (the same number of failed queries),
    as :func:`ap_exercise` does.

    Examples
    --------
    >>> from mapteach.views.exercises import gmap_exercise
    >>> exercise = gmap_exercise([2, 1, 4, None])
    >>> round(exercise.truth, 4), exercise.check("0.4375").misconception
    (0.0334, 'the arithmetic mean (MAP)')
    """
    lang = widget_language(lang)
    with language(lang):
        depth = as_k(depth, name="depth")
        for index, rank in enumerate(ranks):
            if rank is not None and not (isinstance(rank, int) and 1 <= rank <= depth):
                raise ValueError(
                    tr(
                        "ranks[{index}] is {rank!r}; a rank must be a whole number from 1 to "
                        "{depth}, or None for a query that found nothing.",
                        index=index,
                        rank=rank,
                        depth=depth,
                    )
                )
    lists = [[int(i == rank) for i in range(1, depth + 1)] for rank in ranks]
    lists, _ = _variant(lists, None, key, lambda *ys: _gmap_scores(ys), decimals, None)
    found = [y.index(1) + 1 if 1 in y else None for y in lists]
    answer, wrong = _gmap_scores(lists)
    aps = [average_precision(y, n_relevant=1) for y in lists]
    with language(lang):
        found_at = ", ".join(
            tr("{rank} ({query})", rank=rank, query=f"q{number}")
            if rank
            else tr("nowhere ({query})", query=f"q{number}")
            for number, rank in enumerate(found, start=1)
        )
        prompt = tr(
            "System C answers {n} queries, each with one relevant document, found at ranks "
            "{found_at}. Its APs are {aps}. What is its GMAP as trec_eval computes it (each AP "
            "floored at {floor:g} first)? Give {decimals} decimals.",
            n=len(found),
            found_at=found_at,
            aps=", ".join(f"{ap:g}" for ap in aps),
            floor=GM_FLOOR,
            decimals=decimals,
        )
        solution = tr(
            "GMAP = ({product})^(1/{n}) = {gmap:.4f}; MAP would be {map:.4f}. The failed query, "
            "floored, drags GMAP far below MAP.",
            product=" × ".join(f"{max(ap, GM_FLOOR):g}" for ap in aps),
            n=len(aps),
            gmap=answer,
            map=sum(aps) / len(aps),
        )
    misconceptions = [(m.name, wrong[m.name], m.explanation) for m in GMAP_MISCONCEPTIONS]
    return NumberExercise(
        prompt, answer, misconceptions, f"<p>{solution}</p>", decimals=decimals, lang=lang, key=key
    )


def _variant_orders(
    orders: list[list[str]], key: str | None, scores: Any, decimals: int
) -> list[list[str]]:
    """The learner's own orders of some ranked document lists (as written with no learner).

    As :func:`variant_labels`: a variant differs from the original and lets the
    exercise recognise exactly the same mistakes.
    """
    rng = variant_rng(key)
    if rng is None:
        return orders
    wanted = _recognised(scores(*orders), decimals)
    for _ in range(500):
        candidate = [rng.sample(order, len(order)) for order in orders]
        if candidate != orders and _recognised(scores(*candidate), decimals) == wanted:
            return candidate
    return orders


def _as_run(order: Sequence[str]) -> dict[str, dict[str, float]]:
    """One query's ranked documents as a run: scores falling from the top."""
    return {"q": {doc: float(len(order) - rank) for rank, doc in enumerate(order)}}


_ADDED_DEPTHS = N_("added the runs' depths")
_INTERSECTION = N_("only documents every run found")
_WHOLE_LISTS = N_("pooled the whole lists")


def _pool_scores(depth: int, a: list[str], b: list[str]) -> tuple[float, dict[str, float]]:
    wrong = {
        _ADDED_DEPTHS: float(len(set(a[:depth])) + len(set(b[:depth]))),
        _INTERSECTION: float(len(set(a[:depth]) & set(b[:depth]))),
        _WHOLE_LISTS: float(len(set(a) | set(b))),
    }
    return float(len(pool({"A": _as_run(a), "B": _as_run(b)}, depth=depth))), wrong


def pool_exercise(
    run_a: Sequence[str],
    run_b: Sequence[str],
    depth: int,
    *,
    lang: str | None = None,
    key: str | None = None,
) -> NumberExercise:
    """An exercise: how many documents a pool of two runs sends to the assessors.

    Recognises adding the two runs' depths, keeping only the documents both runs
    found, and pooling the whole lists. Introduced in
    ``14_incomplete_judgments_and_pooling``. ``key`` records checks and gives a named
    learner runs of their own (the same documents in other orders).

    Examples
    --------
    >>> from mapteach.views.exercises import pool_exercise
    >>> exercise = pool_exercise(["d3", "d7", "d1", "d9"], ["d7", "d2", "d3", "d5"], 2)
    >>> exercise.truth, exercise.check("4").misconception
    (3.0, "added the runs' depths")
    """
    lang = widget_language(lang)
    with language(lang):
        depth = as_k(depth, name="depth")
        a, b = _variant_orders(
            [list(run_a), list(run_b)], key, lambda *o: _pool_scores(depth, *o), 0
        )
        answer, wrong = _pool_scores(depth, a, b)
        explanations = {
            _ADDED_DEPTHS: tr(
                "You counted each run's top {depth} separately. The pool is their union: "
                "a document both runs found is judged once.",
                depth=depth,
            ),
            _INTERSECTION: tr(
                "You kept only the documents both runs put in their top {depth} (the "
                "intersection). The pool is the union: a document any run put in its top "
                "{depth} is judged.",
                depth=depth,
            ),
            _WHOLE_LISTS: tr(
                "You pooled every result. A pool of depth {depth} takes each run's top "
                "{depth} only.",
                depth=depth,
            ),
        }
        prompt = tr(
            "Run A ranks <code>{a}</code> and run B ranks <code>{b}</code> for one query. "
            "How many documents do the assessors judge for a pool of depth {depth}?",
            a=", ".join(a),
            b=", ".join(b),
            depth=depth,
        )
        table = pool({"A": _as_run(a), "B": _as_run(b)}, depth=depth).to_html(index=False)
    return NumberExercise(
        prompt,
        answer,
        [(name, value, explanations[name]) for name, value in wrong.items()],
        table,
        decimals=0,
        lang=lang,
        key=key,
    )


_UNJUDGED_RELEVANT = N_("counted the unjudged relevant document")
_CONDENSED = N_("left the unjudged documents out (condensed list)")
_TRUE_R = N_("divided by the true R")


def _pooled_scores(
    complete: Mapping[str, int], judged: Mapping[str, int], order: list[str]
) -> tuple[float, dict[str, float]]:
    run = _as_run(order)

    def ap(qrels: Mapping[str, int], judged_only: bool = False) -> float:
        table = evaluate({"q": dict(qrels)}, run, ["AP"], judged_only=judged_only)
        return float(table["AP"].iloc[0])

    pooled = ap(judged)
    r_judged = sum(grade > 0 for grade in judged.values())
    r_true = sum(grade > 0 for grade in complete.values())
    wrong = {
        _UNJUDGED_RELEVANT: ap(complete),
        _CONDENSED: ap(judged, judged_only=True),
        _TRUE_R: pooled * r_judged / r_true,
    }
    return pooled, wrong


def pooled_ap_exercise(
    ranking: Sequence[str],
    complete: Mapping[str, int],
    judged: Mapping[str, int],
    *,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
) -> NumberExercise:
    """An exercise: the AP trec_eval gives a run that was not in the pool.

    ``complete`` holds the true grades, ``judged`` the pooled judgments (a subset).
    Recognises using the complete judgments, dropping unjudged documents (judged-only
    AP) and dividing by the true R. Introduced in
    ``14_incomplete_judgments_and_pooling``. ``key`` records checks and gives a named
    learner the same documents in another order.

    Examples
    --------
    >>> from mapteach.views.exercises import pooled_ap_exercise
    >>> complete = {"u1": 1, "j1": 1, "j2": 1, "j3": 1, "n1": 0, "u2": 0}
    >>> judged = {"j1": 1, "j2": 1, "j3": 1, "n1": 0}
    >>> exercise = pooled_ap_exercise(["u1", "j1", "n1", "u2", "j2"], complete, judged)
    >>> round(exercise.truth, 4), exercise.check("0.3").misconception
    (0.3, None)
    """
    lang = widget_language(lang)
    [order] = _variant_orders(
        [list(ranking)], key, lambda o: _pooled_scores(complete, judged, o), decimals
    )
    answer, wrong = _pooled_scores(complete, judged, order)
    labels = [int(judged.get(doc, 0) > 0) for doc in order]
    r_judged = sum(grade > 0 for grade in judged.values())
    with language(lang):
        relevant = sorted(doc for doc, grade in judged.items() if grade > 0)
        explanations = {
            _UNJUDGED_RELEVANT: tr(
                "That is the AP with complete judgments. With the pooled ones nobody judged "
                "{missed}, so trec_eval counts it as not relevant, and R is the {r} judged "
                "relevant documents.",
                missed=", ".join(d for d in complete if d not in judged and complete[d] > 0),
                r=r_judged,
            ),
            _CONDENSED: tr(
                "That is judged-only AP (trec_eval -J): the unjudged documents removed from "
                "the list. Plain AP keeps them, as not relevant."
            ),
            _TRUE_R: tr(
                "You divided by {true_r}, the true number of relevant documents. The pooled "
                "qrels know only {r}.",
                true_r=sum(grade > 0 for grade in complete.values()),
                r=r_judged,
            ),
        }
        prompt = tr(
            "A run that was not in the pool ranks <code>{ranking}</code>. The pooled "
            "judgments say {relevant} are relevant and {nonrelevant} is not; {unjudged} were "
            "never judged (in truth {missed} is relevant). What AP does trec_eval give the run "
            "with the pooled judgments? Give {decimals} decimals or a fraction.",
            ranking=", ".join(order),
            relevant=", ".join(relevant),
            nonrelevant=", ".join(sorted(d for d, g in judged.items() if g <= 0)),
            unjudged=", ".join(sorted(d for d in complete if d not in judged)),
            missed=", ".join(sorted(d for d in complete if d not in judged and complete[d] > 0)),
            decimals=decimals,
        )
        solution = tr(
            "The pooled judgments make the list <code>{labels}</code> with R = {r}: {arithmetic}",
            labels=labels,
            r=r_judged,
            arithmetic=explain_ap(labels, n_relevant=r_judged),
        )
    return NumberExercise(
        prompt,
        answer,
        [(name, value, explanations[name]) for name, value in wrong.items()],
        f"<p>{solution}</p>",
        decimals=decimals,
        lang=lang,
        key=key,
    )
