"""Self-check exercises with feedback that names the misconception behind a wrong answer.

Each exercise is an anywidget (``static/exercise.js``) whose synced traits are the
only state: the browser writes ``answer`` (what the learner typed or picked) and
counts ``check_request`` up on *Check* or Enter; the kernel judges the answer with
:mod:`mapteach.teaching.answers` and writes ``status`` and ``feedback``, and clears
them as soon as the answer changes. Without a widget front end it still works in
plain text: call ``exercise.check(answer)``; the static HTML keeps the solution
folded inside a ``<details>`` element. Introduced in ``01_why_order_matters``.

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

import itertools
import re
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets
import traitlets

from mapteach.metrics import average_precision, mean_average_precision, precision_at_k
from mapteach.metrics._validation import as_k, as_labels
from mapteach.metrics.names import parse_measure
from mapteach.teaching.answers import (
    STATUSES,
    Feedback,
    WrongAnswer,
    agrees_at,
    asked_precision,
    check_number,
)
from mapteach.teaching.misconceptions import (
    AP_MISCONCEPTIONS,
    MAP_MISCONCEPTIONS,
    PRECISION_MISCONCEPTIONS,
)
from mapteach.teaching.trace import explain_ap, explain_table, trace_ap
from mapteach.views.ranking_board import RankingList
from mapteach.views.render import trace_html

__all__ = [
    "ArrangeExercise",
    "ChoiceExercise",
    "NumberExercise",
    "ap_exercise",
    "map_exercise",
    "precision_exercise",
]

_STATIC = Path(__file__).parent / "static"


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

    def __init__(self, prompt: str, solution_html: str, **kwargs: Any) -> None:
        super().__init__(prompt=prompt, solution=solution_html, **kwargs)

    @traitlets.validate("status")
    def _check_status(self, proposal: traitlets.Bunch) -> str:
        if proposal.value not in STATUSES:
            raise traitlets.TraitError(
                f"status must be one of {', '.join(STATUSES)}; got {proposal.value!r}."
            )
        return proposal.value

    @traitlets.validate("check_request")
    def _check_counter(self, proposal: traitlets.Bunch) -> int:
        if proposal.value < self.check_request:
            raise traitlets.TraitError(
                f"check_request counts the learner's checks and only goes up; got "
                f"{proposal.value} after {self.check_request}."
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
        verdict = self.check(self._current())
        self._judged = self.answer
        with self.hold_sync():
            self.status = verdict.status
            self.feedback = verdict.message

    def check(self, answer: Any) -> Feedback:
        """Judge an answer."""
        raise NotImplementedError

    def _current(self) -> Any:
        return self.answer

    def _static_answer_html(self) -> str:
        return ""

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        data, metadata = super()._repr_mimebundle_(**kwargs) or ({}, {})
        data["text/html"] = (
            f'<div class="mapteach-exercise-static"><p><b>Exercise.</b> {self.prompt}</p>'
            f"{self._static_answer_html()}<p><i>Without a live kernel, answer in code: "
            "<code>exercise.check(your_answer)</code>.</i></p>"
            f"<details><summary>Show solution</summary>{self.solution}</details></div>"
        )
        return data, metadata

    def __repr__(self) -> str:
        prompt = re.sub(r"<[^>]+>", "", self.prompt)
        return f"Exercise: {prompt}\n(answer with .check(your_answer))"


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
        What to tell an answer that matches nothing known.

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
        hint: str = "Check your working, or open the solution.",
    ) -> None:
        if decimals < 0:
            raise ValueError(f"decimals must be >= 0; got {decimals}.")
        self.truth = float(answer)
        self.decimals = decimals
        self.hint = hint
        self.misconceptions = [
            (name, float(value), text)
            for name, value, text in misconceptions
            if not agrees_at(float(value), self.truth, decimals)
        ]
        super().__init__(prompt, solution_html, placeholder=asked_precision(decimals))

    def check(self, answer: Any) -> Feedback:
        """Judge an answer (a number, or text such as ``"0.2815"`` or ``"2/3"``)."""
        return check_number(
            answer,
            self.truth,
            decimals=self.decimals,
            misconceptions=self.misconceptions,
            hint=self.hint,
        )

    def _static_answer_html(self) -> str:
        return f"<p>Answer with {self.placeholder}.</p>"


class ChoiceExercise(_Exercise):
    """Pick one option; each option has its own feedback.

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
        self, prompt: str, options: Mapping[str, str], *, correct: str, solution_html: str
    ) -> None:
        if correct not in options:
            raise ValueError(f"correct={correct!r} is not one of the options {list(options)}.")
        self.replies = dict(options)
        self.correct = correct
        super().__init__(prompt, solution_html, options=list(options))

    @traitlets.validate("options")
    def _check_options(self, proposal: traitlets.Bunch) -> list[str]:
        options = list(proposal.value)
        if not options or len(set(options)) != len(options) or "" in options:
            raise traitlets.TraitError(
                f"options must be distinct, non-empty labels, at least one; got {options!r}."
            )
        return options

    @traitlets.validate("answer")
    def _check_answer(self, proposal: traitlets.Bunch) -> str:
        if proposal.value and proposal.value not in self.options:
            known = ", ".join(map(repr, self.options))
            raise traitlets.TraitError(
                f"answer must be one of {known} (or '' for none); got {proposal.value!r}."
            )
        return proposal.value

    def check(self, answer: Any) -> Feedback:
        """Judge a chosen option."""
        if answer is None or answer == "":
            return Feedback("empty", "Choose one of the options.")
        if answer not in self.replies:
            return Feedback("incorrect", f"Choose one of: {', '.join(self.replies)}.")
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
        self, prompt: str, targets: Mapping[str, float], n_results: int, n_relevant_items: int
    ) -> None:
        self.targets = {parse_measure(name).name: float(value) for name, value in targets.items()}
        self.n_results = as_k(n_results, name="n_results")
        if not 0 < n_relevant_items <= self.n_results:
            raise ValueError(
                f"n_relevant_items must be between 1 and n_results={self.n_results}; "
                f"got {n_relevant_items}."
            )
        self.n_relevant_items = n_relevant_items
        start = [0] * (self.n_results - n_relevant_items) + [1] * n_relevant_items
        solution = self.solve()
        solution_html = (
            "One arrangement that works (found by trying all of them): "
            f"<code>{solution}</code>"
            + trace_html(trace_ap(solution), caption=str(explain_ap(solution)))
            if solution
            else "No arrangement reaches every target exactly."
        )
        board = RankingList(start, compact=True, query_name="Drag the results, then Check")
        super().__init__(prompt, solution_html, board=board)
        board.observe(self._clear, names="items")

    def _current(self) -> list[int]:
        return self.board.labels

    def _scores(self, labels: Sequence[int]) -> dict[str, float]:
        return {name: parse_measure(name).score(labels) for name in self.targets}

    def check(self, labels: Sequence[int | bool] | None = None) -> Feedback:
        """Judge an arrangement (default: the board's current order)."""
        y = as_labels(self.board.labels if labels is None else labels).astype(int).tolist()
        if len(y) != self.n_results or sum(y) != self.n_relevant_items:
            return Feedback(
                "incorrect",
                f"Use {self.n_results} results of which {self.n_relevant_items} are relevant; "
                f"got {len(y)} results with {sum(y)} relevant.",
            )
        scores = self._scores(y)
        report = ", ".join(
            f"{name} = {scores[name]:.4f} (target {t:g})" for name, t in self.targets.items()
        )
        if all(abs(scores[name] - t) <= 1e-12 for name, t in self.targets.items()):
            return Feedback("correct", f"Correct: {report}.")
        return Feedback("incorrect", f"Not yet: {report}.")

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
) -> NumberExercise:
    """An exercise: compute AP (or AP@k) of a list, with feedback on the classic mistakes.

    Recognises dividing by the retrieved hits instead of R, dividing AP@k by the
    hits in the top k, using the final hit count in every numerator (article
    001's 0.48), dividing by the list's length, and averaging P@i over every
    rank. Introduced in ``03_average_precision_by_hand``.

    Examples
    --------
    >>> from mapteach.views.exercises import ap_exercise
    >>> exercise = ap_exercise([0, 0, 0, 0, 0, 0, 1, 1, 1, 1])
    >>> exercise.check("0.4790").misconception  # article 001's 0.48, to 4 decimals
    'final hit count in every numerator'
    >>> exercise.check("0.2815").correct, exercise.check("0.28").status
    (True, 'incomplete')
    """
    answer = average_precision(labels, n_relevant=n_relevant, k=k)
    name = "AP" if k is None else f"AP@{k}"
    wrong = [
        (m.name, m.compute(labels, n_relevant=n_relevant, k=k), m.explanation)
        for m in AP_MISCONCEPTIONS
        if m.applies(k)
    ]
    table = trace_ap(labels, n_relevant=n_relevant, k=k)
    explanation = explain_table(table)
    default = (
        f"Ranked labels <code>{as_labels(labels).astype(int).tolist()}</code>, "
        f"R = {table.attrs['n_relevant']}. What is {name}? "
        f"Give {decimals} decimals or a fraction."
    )
    return NumberExercise(
        prompt or default,
        answer,
        wrong,
        trace_html(table, caption=str(explanation)) + f"<p>{escape(explanation.note)}</p>",
        decimals=decimals,
        hint="Trace it rank by rank, or open the solution.",
    )


def precision_exercise(
    labels: Sequence[int | bool], k: int, *, n_relevant: int | None = None, decimals: int = 4
) -> NumberExercise:
    """An exercise: compute P@k, recognising recall, a short list and hits below rank k.

    Introduced in ``02_precision_and_recall_at_k``.

    Examples
    --------
    >>> from mapteach.views.exercises import precision_exercise
    >>> exercise = precision_exercise([1, 0, 1], 5)
    >>> exercise.check("2/3").misconception  # divided by the 3 results, not by k = 5
    "divided by the list's length"
    """
    answer = precision_at_k(labels, k)
    wrong = [
        (m.name, m.compute(labels, n_relevant=n_relevant, k=k), m.explanation)
        for m in PRECISION_MISCONCEPTIONS
    ]
    y = as_labels(labels).astype(int).tolist()
    r = "" if n_relevant is None else f" The query has R = {n_relevant} relevant results."
    hits = sum(y[:k])
    solution = (
        f"<p>The top {k} hold {hits} relevant results, so "
        f"P@{k} = {hits}/{k} = {answer:.{decimals}f}.</p>"
    )
    prompt = (
        f"Ranked labels <code>{y}</code>.{r} What is P@{k}? Give {decimals} decimals or a fraction."
    )
    return NumberExercise(prompt, answer, wrong, solution, decimals=decimals)


def map_exercise(
    rankings: Sequence[Sequence[int | bool]],
    *,
    n_relevant: Sequence[int | None] | None = None,
    prompt: str | None = None,
    decimals: int = 4,
) -> NumberExercise:
    """An exercise: compute MAP over queries, recognising a skipped empty query.

    Introduced in ``04_mean_average_precision``.

    Examples
    --------
    >>> from mapteach.views.exercises import map_exercise
    >>> exercise = map_exercise([[1, 0], [0, 1], [0, 0]])
    >>> exercise.check("0.75").misconception  # (1 + 1/2) / 2 instead of / 3
    'skip instead of zero'
    """
    answer = mean_average_precision(rankings, n_relevant=n_relevant)
    wrong = [
        (m.name, m.compute(rankings, n_relevant=n_relevant), m.explanation)
        for m in MAP_MISCONCEPTIONS
    ]
    totals = list(n_relevant) if n_relevant is not None else [None] * len(rankings)
    lines = "".join(
        f"<li>query {i + 1}: <code>{explain_ap(y, n_relevant=r)}</code></li>"
        for i, (y, r) in enumerate(zip(rankings, totals, strict=True))
    )
    solution = (
        f"<ul>{lines}</ul><p>MAP = the mean of these {len(rankings)} values = "
        f"{answer:.{decimals}f}.</p>"
    )
    queries = "".join(
        f"<li><code>{as_labels(y).astype(int).tolist()}</code>"
        + ("" if r is None else f", R = {r}")
        + "</li>"
        for y, r in zip(rankings, totals, strict=True)
    )
    default = f"Queries:<ol>{queries}</ol>What is MAP? Give {decimals} decimals or a fraction."
    return NumberExercise(
        prompt or default,
        answer,
        wrong,
        solution,
        decimals=decimals,
        hint="Trace each query's AP first, or open the solution.",
    )
