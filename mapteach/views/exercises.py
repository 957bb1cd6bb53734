"""Self-check exercises with feedback that names the misconception behind a wrong answer.

Each exercise is an ipywidgets box (type or pick an answer, press *Check*, open
*Show solution*). Without a widget front end it still works in plain text:
call ``exercise.check(answer)``; the static HTML keeps the solution folded
inside a ``<details>`` element. Introduced in ``01_why_order_matters``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

import ipywidgets

from mapteach.metrics import average_precision, mean_average_precision, precision_at_k
from mapteach.metrics._validation import as_k, as_labels
from mapteach.metrics.names import parse_measure
from mapteach.teaching.answers import Feedback, matches, parse_answer
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


class _Exercise(ipywidgets.VBox):
    """Prompt, an answer control, a Check button, feedback, and a folded solution."""

    def __init__(self, prompt: str, solution_html: str, control: ipywidgets.Widget) -> None:
        self.prompt = prompt
        self.solution_html = solution_html
        self.control = control
        self.feedback = ipywidgets.HTML()
        check = ipywidgets.Button(description="Check", button_style="primary")
        check.add_class("mapteach-check")
        check.on_click(lambda _: self._show(self.check(self._current())))
        self.solution = ipywidgets.HTML(solution_html, layout=ipywidgets.Layout(display="none"))
        reveal = ipywidgets.ToggleButton(description="Show solution")
        reveal.observe(self._reveal, names="value")
        super().__init__(
            [
                ipywidgets.HTML(f"<b>Exercise.</b> {prompt}"),
                ipywidgets.HBox([control, check, reveal]),
                self.feedback,
                self.solution,
            ]
        )

    def _reveal(self, change: Any) -> None:
        self.solution.layout.display = None if change.new else "none"
        change.owner.description = "Hide solution" if change.new else "Show solution"

    def _current(self) -> Any:
        return self.control.value

    def _show(self, feedback: Feedback) -> None:
        self.feedback.value = feedback._repr_html_()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = super()._repr_mimebundle_(**kwargs)
        data["text/plain"] = repr(self)
        data["text/html"] = (
            f"<p><b>Exercise.</b> {self.prompt}</p><p><i>Without a live kernel, answer in "
            "code: <code>exercise.check(your_answer)</code>.</i></p>"
            f"<details><summary>Show solution</summary>{self.solution_html}</details>"
        )
        return data

    def __repr__(self) -> str:
        prompt = re.sub(r"<[^>]+>", "", self.prompt)
        return f"Exercise: {prompt}\n(answer with .check(your_answer))"


class NumberExercise(_Exercise):
    """Type a number; feedback names the misconception a wrong answer matches.

    Parameters
    ----------
    prompt : str
        The question (HTML allowed).
    answer : float
        The right answer.
    misconceptions : sequence of (name, value, explanation)
        Wrong answers worth recognising, with what to tell the learner.
    solution_html : str
        The worked solution, shown only on request.

    Examples
    --------
    >>> from mapteach.views.exercises import NumberExercise
    >>> exercise = NumberExercise("1/2 + 1/4?", 0.75, [("added the denominators", 2 / 6,
    ...                           "Add fractions over a common denominator.")], "3/4")
    >>> print(exercise.check("0.3333"))
    Not quite: 0.3333 is what you get when you made this mistake: added the denominators.
    Add fractions over a common denominator.
    >>> exercise.check("3/4").correct
    True
    """

    def __init__(
        self,
        prompt: str,
        answer: float,
        misconceptions: Sequence[tuple[str, float, str]],
        solution_html: str,
    ) -> None:
        self.answer = float(answer)
        self.misconceptions = [
            (name, float(value), text)
            for name, value, text in misconceptions
            if abs(value - answer) > 1e-9
        ]
        control = ipywidgets.Text(placeholder="e.g. 0.5, 1/2 or 50%")
        control.add_class("mapteach-answer")
        super().__init__(prompt, solution_html, control)

    def check(self, answer: Any) -> Feedback:
        """Judge an answer (a number, or text such as ``"0.2815"`` or ``"2/3"``)."""
        try:
            value, decimals = parse_answer(answer)
        except ValueError as error:
            return Feedback(False, str(error).capitalize())
        if matches(value, decimals, self.answer):
            return Feedback(True, f"Correct: {self.answer:.4f}.")
        for name, wrong, text in self.misconceptions:
            if matches(value, decimals, wrong):
                return Feedback(
                    False,
                    f"Not quite: {answer} is what you get when you made this mistake: "
                    f"{name}. {text}",
                    name,
                )
        if decimals is not None and decimals < 2:
            return Feedback(False, "Not quite, or not precise enough: give at least 2 decimals.")
        return Feedback(False, "Not quite. Trace it rank by rank, or open the solution.")


class ChoiceExercise(_Exercise):
    """Pick one option; each option has its own feedback.

    Examples
    --------
    >>> from mapteach.views.exercises import ChoiceExercise
    >>> exercise = ChoiceExercise("Which is larger?", {"AP": "Yes.", "AP@3": "AP@3 <= AP."},
    ...                           correct="AP", solution_html="AP, since R stays the same.")
    >>> exercise.check("AP@3")
    Feedback(correct=False, message='AP@3 <= AP.', misconception='AP@3')
    """

    def __init__(
        self, prompt: str, options: Mapping[str, str], *, correct: str, solution_html: str
    ) -> None:
        if correct not in options:
            raise ValueError(f"correct={correct!r} is not one of the options {list(options)}.")
        self.options = dict(options)
        self.correct = correct
        control = ipywidgets.RadioButtons(options=list(options), value=None)
        super().__init__(prompt, solution_html, control)

    def check(self, answer: Any) -> Feedback:
        """Judge a chosen option."""
        if answer not in self.options:
            return Feedback(False, f"Choose one of: {', '.join(self.options)}.")
        right = answer == self.correct
        return Feedback(right, self.options[answer], None if right else answer)


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
    >>> task.check([1, 1, 1, 1, 0, 0, 0, 0, 0, 0]).correct
    False
    >>> task.solve()  # found by trying every arrangement
    [0, 1, 0, 1, 1, 0, 0, 0, 0, 1]
    """

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
        self.board = RankingList(start, compact=True, query_name="Drag the results, then Check")
        solution = self.solve()
        solution_html = (
            "One arrangement that works (found by trying all of them): "
            f"<code>{solution}</code>"
            + trace_html(trace_ap(solution), caption=str(explain_ap(solution)))
            if solution
            else "No arrangement reaches every target exactly."
        )
        super().__init__(prompt, solution_html, self.board)

    def _current(self) -> list[int]:
        return self.board.labels

    def _scores(self, labels: Sequence[int]) -> dict[str, float]:
        return {name: parse_measure(name).score(labels) for name in self.targets}

    def check(self, labels: Sequence[int | bool] | None = None) -> Feedback:
        """Judge an arrangement (default: the board's current order)."""
        y = as_labels(self.board.labels if labels is None else labels).astype(int).tolist()
        if len(y) != self.n_results or sum(y) != self.n_relevant_items:
            return Feedback(
                False,
                f"Use {self.n_results} results of which {self.n_relevant_items} are relevant; "
                f"got {len(y)} results with {sum(y)} relevant.",
            )
        scores = self._scores(y)
        report = ", ".join(
            f"{name} = {scores[name]:.4f} (target {t:g})" for name, t in self.targets.items()
        )
        if all(abs(scores[name] - t) <= 1e-12 for name, t in self.targets.items()):
            return Feedback(True, f"Correct: {report}.")
        return Feedback(False, f"Not yet: {report}.")

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
) -> NumberExercise:
    """An exercise: compute AP (or AP@k) of a list, with feedback on the classic mistakes.

    Recognises dividing by the retrieved hits instead of R, dividing AP@k by the
    hits in the top k, using the final hit count in every numerator (article
    001's 0.48), and averaging P@k over all ranks. Introduced in
    ``03_average_precision_by_hand``.

    Examples
    --------
    >>> from mapteach.views.exercises import ap_exercise
    >>> exercise = ap_exercise([0, 0, 0, 0, 0, 0, 1, 1, 1, 1])
    >>> exercise.check("0.48").misconception
    'final hit count in every numerator'
    >>> exercise.check("0.2815").correct
    True
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
        f"R = {table.attrs['n_relevant']}. What is {name}? Give 4 decimals or a fraction."
    )
    return NumberExercise(
        prompt or default,
        answer,
        wrong,
        trace_html(table, caption=str(explanation)) + f"<p>{escape(explanation.note)}</p>",
    )


def precision_exercise(
    labels: Sequence[int | bool], k: int, *, n_relevant: int | None = None
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
        f"<p>The top {k} hold {hits} relevant results, so P@{k} = {hits}/{k} = {answer:.4f}.</p>"
    )
    prompt = f"Ranked labels <code>{y}</code>.{r} What is P@{k}? Give 4 decimals or a fraction."
    return NumberExercise(prompt, answer, wrong, solution)


def map_exercise(
    rankings: Sequence[Sequence[int | bool]],
    *,
    n_relevant: Sequence[int | None] | None = None,
    prompt: str | None = None,
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
        f"<ul>{lines}</ul><p>MAP = the mean of these {len(rankings)} values = {answer:.4f}.</p>"
    )
    queries = "".join(
        f"<li><code>{as_labels(y).astype(int).tolist()}</code>"
        + ("" if r is None else f", R = {r}")
        + "</li>"
        for y, r in zip(rankings, totals, strict=True)
    )
    default = f"Queries:<ol>{queries}</ol>What is MAP? Give 4 decimals or a fraction."
    return NumberExercise(prompt or default, answer, wrong, solution)
