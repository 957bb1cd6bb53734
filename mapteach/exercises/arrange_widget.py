"""Arrangement exercises: order a list so that its measures hit given targets.

An :class:`ArrangeExercise` is an :class:`~mapteach.exercises.widgets.Exercise` whose
answer is the order of a :class:`~mapteach.board.RankingList` with fixed relevance: a
result can be dragged (or moved with ↑/↓), never marked. Beside it the exercise shows
the readout of every target measure on the order shown: the kernel writes the readout
of every arrangement once (``readouts``, by :func:`arrangement_key`; there are few), and
the browser shows the one of the board's order as it moves, with no round trip to the
kernel, which only clears a stale verdict on each move. Reset (``reset_request``, or
:meth:`ArrangeExercise.reset`) brings back the starting order; Check says what is still
wrong in the learner's terms ("AP is 0.4250, below the target 0.5: move a relevant
result up"). Introduced in ``06_playground``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from functools import reduce
from html import escape
from typing import Any

import ipywidgets
import traitlets

from mapteach.board.list_widget import RankingList
from mapteach.exercises.answers import Feedback
from mapteach.exercises.widgets import Exercise
from mapteach.explain.ap_trace import explain_ap, trace_ap
from mapteach.explain.trace_display import trace_html
from mapteach.i18n import N_, joined_sentences, language, ngettext, tr, widget_language
from mapteach.metrics.names import Measure, parse_measure
from mapteach.metrics.precision import PRECISION
from mapteach.metrics.recall import RECALL
from mapteach.metrics.validation import as_k, as_labels

__all__ = ["MOST_ARRANGEMENTS", "ArrangeExercise", "arrangement_key"]

#: The most arrangements an exercise may have: each has its readout, and a verdict in
#: the answer table a page without a kernel judges by.
MOST_ARRANGEMENTS = 5000
#: How close a score must come to its target to meet it (the targets are exact values).
_TOLERANCE = 1e-12
#: What labels that are not an order of the exercise's list are told.
WRONG_SIZE = N_(
    "Use {n_results} results of which {n_relevant} are relevant; "
    "got {n_got} results with {n_got_relevant} relevant."
)


def arrangement_key(labels: Sequence[int | bool]) -> str:
    """An order's 0/1 labels as one string: the key of ``readouts`` and of the answer table.

    >>> from mapteach.exercises.arrange_widget import arrangement_key
    >>> arrangement_key([0, 1, True, False])
    '0110'
    """
    return "".join("1" if label else "0" for label in labels)


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
        relevant results (none is missed). The board starts with them last. At most
        :data:`MOST_ARRANGEMENTS` orders: ``math.comb(n_results, n_relevant_items)``.
    lang : {"en", "zh"}, optional
        The language of the board, the verdicts and the solution; default the current one.
    key : str, optional
        ``"06.4"``: where the exercise is, for the progress file (None: not recorded).

    Raises
    ------
    ValueError
        If ``n_relevant_items`` is not between 1 and ``n_results``, or the list has more
        than :data:`MOST_ARRANGEMENTS` orders.

    Notes
    -----
    ``measure`` is None (the exercise asks for an order, not a number); ``data`` is
    ``{"targets": ..., "n_results": ..., "n_relevant_items": ...}``. ``readout`` is the
    readout of the board's order, read from ``readouts``.

    Examples
    --------
    >>> from mapteach.exercises import ArrangeExercise
    >>> task = ArrangeExercise("AP = 0.5 and P@5 = 0.6", {"AP": 0.5, "P@5": 0.6}, 10, 4)
    >>> task.readout
    'AP = 0.2815 (target 0.5) · P@5 = 0.0000 (target 0.6)'
    >>> print(task.check([1, 1, 1, 1, 0, 0, 0, 0, 0, 0]))
    Not yet. AP is 1.0000, above the target 0.5: move a relevant result down. P@5 is 0.8000: 4
    relevant results in the top 5; the target needs 3.
    >>> task.solve()  # found by trying every arrangement
    [0, 1, 0, 1, 1, 0, 0, 0, 0, 1]
    >>> task.submit(task.solve()).status, task.board.labels == task.solve()
    ('correct', True)
    """

    kind = traitlets.Unicode("arrange", read_only=True).tag(sync=True)
    board = traitlets.Instance(RankingList).tag(sync=True, **ipywidgets.widget_serialization)
    #: The readout of every order (by :func:`arrangement_key`): every target measure on
    #: it, with its target, ✓ where it is met. The browser shows the board's.
    readouts = traitlets.Dict(traitlets.Unicode(), read_only=True).tag(sync=True)
    reset_request = traitlets.Int(0).tag(sync=True, echo_update=False)

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
            self._measures = {parse_measure(name).name: parse_measure(name) for name in targets}
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
            self._check_size()
            readouts = {arrangement_key(y): self.report(y) for y in self.arrangements()}
            solution_html = self._solution_html()
            query_name = tr("Drag the results, then Check")
        start = [0] * (self.n_results - n_relevant_items) + [1] * n_relevant_items
        board = RankingList(
            start, compact=True, fixed_relevance=True, query_name=query_name, lang=lang
        )
        #: The board's items in the starting order, which Reset brings back.
        self.start_items: tuple[dict[str, Any], ...] = tuple(dict(item) for item in board.items)
        super().__init__(prompt, solution_html, lang=lang, key=key, board=board)
        self.data = {
            "targets": dict(self.targets),
            "n_results": self.n_results,
            "n_relevant_items": self.n_relevant_items,
        }
        self.set_trait("readouts", readouts)
        board.observe(self._clear, names="items")

    def _solution_html(self) -> str:
        solution = self.solve()
        if solution is None:
            return tr("No arrangement reaches every target exactly.")
        return tr(
            "One arrangement that works (found by trying all of them): <code>{solution}</code>",
            solution=solution,
        ) + trace_html(trace_ap(solution), caption=str(explain_ap(solution)))

    def _check_size(self) -> None:
        count = math.comb(self.n_results, self.n_relevant_items)
        if count > MOST_ARRANGEMENTS:
            raise ValueError(
                tr(
                    "An arrangement exercise of {n_results} results, {n_relevant} relevant, "
                    "has {count} arrangements; it may have at most {most}.",
                    n_results=self.n_results,
                    n_relevant=self.n_relevant_items,
                    count=count,
                    most=MOST_ARRANGEMENTS,
                )
            )

    @property
    def readout(self) -> str:
        """Every target measure on the board's order, with its target; ✓ where it is met."""
        return self.readouts[arrangement_key(self.board.labels)]

    def arrangements(self) -> Iterator[list[int]]:
        """Every order of the list, as 0/1 labels, in rank order of its relevant results.

        >>> from mapteach.exercises import ArrangeExercise
        >>> list(ArrangeExercise("?", {"AP": 1.0}, 3, 1).arrangements())
        [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
        """
        for ranks in itertools.combinations(range(self.n_results), self.n_relevant_items):
            yield [int(i in ranks) for i in range(self.n_results)]

    @traitlets.observe("reset_request")
    def _reset_on_request(self, change: traitlets.Bunch) -> None:
        self.reset()

    def reset(self) -> None:
        """Put the board back in its starting order (the relevant results last), as Reset does."""
        self.board.reset()

    def _current(self) -> list[int]:
        return self.board.labels

    def _scores(self, labels: Sequence[int]) -> dict[str, float]:
        return {name: measure.score(labels) for name, measure in self._measures.items()}

    def _met(self, name: str, score: float) -> bool:
        return abs(score - self.targets[name]) <= _TOLERANCE

    def report(self, labels: Sequence[int]) -> str:
        """Every target measure of ``labels`` with its target, ✓ where met (the readout).

        >>> from mapteach.exercises import ArrangeExercise
        >>> ArrangeExercise("?", {"AP": 1.0, "P@1": 1.0}, 3, 1).report([1, 0, 0])
        'AP = 1.0000 (target 1) ✓ · P@1 = 1.0000 (target 1) ✓'
        """
        scores = self._scores(labels)
        return " · ".join(
            tr("{name} = {score:.4f} (target {target:g})", name=name, score=score, target=target)
            + (" ✓" if self._met(name, score) else "")
            for (name, score), target in zip(scores.items(), self.targets.values(), strict=True)
        )

    def _arrangement(self, labels: Any) -> list[int] | str:
        """``labels`` as 0/1 ints, or what is wrong with them, in the exercise's terms."""
        try:
            y = as_labels(labels).astype(int).tolist()
        except (TypeError, ValueError) as error:
            return str(error)
        if len(y) != self.n_results or sum(y) != self.n_relevant_items:
            return tr(
                WRONG_SIZE,
                n_results=self.n_results,
                n_relevant=self.n_relevant_items,
                n_got=len(y),
                n_got_relevant=sum(y),
            )
        return list(y)

    def check(self, labels: Sequence[int | bool] | None = None) -> Feedback:
        """Judge an arrangement (default: the board's current order).

        Labels that are not an order of this list (another length, another number of
        relevant results, not 0/1) are ``"unreadable"``; an order that misses a target
        is ``"incorrect"``, with what to change for each target missed.
        """
        with language(self.lang):
            y = self._arrangement(self.board.labels if labels is None else labels)
            if isinstance(y, str):
                return Feedback("unreadable", y)
            scores = self._scores(y)
            if all(self._met(name, score) for name, score in scores.items()):
                report = reduce(
                    lambda first, second: tr("{first}, {second}", first=first, second=second),
                    (
                        tr(
                            "{name} = {score:.4f} (target {target:g})",
                            name=name,
                            score=score,
                            target=self.targets[name],
                        )
                        for name, score in scores.items()
                    ),
                )
                return Feedback("correct", tr("Correct: {report}.", report=report))
            advice = [self._advice(name, y, score) for name, score in scores.items()]
            return Feedback("incorrect", joined_sentences([tr("Not yet."), *advice]))

    def _advice(self, name: str, labels: list[int], score: float) -> str:
        """What one target's measure is on ``labels``, and how to move towards it."""
        target = self.targets[name]
        if self._met(name, score):
            return tr("{name} = {score:.4f}, on target.", name=name, score=score)
        counted = self._count_advice(self._measures[name], labels, score, target)
        if counted is not None:
            return counted
        template = (
            N_("{name} is {score:.4f}, below the target {target:g}: move a relevant result up.")
            if score < target
            else N_(
                "{name} is {score:.4f}, above the target {target:g}: move a relevant result down."
            )
        )
        return tr(template, name=name, score=score, target=target)

    def _count_advice(
        self, measure: Measure, labels: list[int], score: float, target: float
    ) -> str | None:
        """For P@k and R@k: the relevant results in the top k, and how many the target needs."""
        if measure.k is None or measure.family not in {PRECISION.name, RECALL.name}:
            return None
        per_hit = 1 / measure.k if measure.family == PRECISION.name else 1 / self.n_relevant_items
        exact = target / per_hit
        if abs(exact - round(exact)) > 1e-9:
            return None
        hits, needed = sum(labels[: int(measure.k)]), round(exact)
        if measure.family == PRECISION.name:
            return ngettext(
                "{name} is {score:.4f}: {n} relevant result in the top {k}; "
                "the target needs {needed}.",
                "{name} is {score:.4f}: {n} relevant results in the top {k}; "
                "the target needs {needed}.",
                hits,
                name=measure.name,
                score=score,
                k=measure.k,
                needed=needed,
            )
        return ngettext(
            "{name} is {score:.4f}: {n} of the {r} relevant results is in the top {k}; "
            "the target needs {needed}.",
            "{name} is {score:.4f}: {n} of the {r} relevant results are in the top {k}; "
            "the target needs {needed}.",
            hits,
            name=measure.name,
            score=score,
            r=self.n_relevant_items,
            k=measure.k,
            needed=needed,
        )

    def submit(self, labels: Sequence[int | bool] | None = None) -> Feedback:
        """Answer in code: put ``labels`` on the board (default: judge the board as it is),
        then Check, as the button does; return the verdict.

        The board shows the order given, the widget its verdict, and the check is
        recorded in the learner's progress, unless the labels are not an order of this
        list (``"unreadable"``, and the board stays as it was).
        """
        return super().submit(labels)

    def _show(self, labels: Any) -> str:
        if labels is None:
            return str(self.board.labels)
        y = self._arrangement(labels)
        if isinstance(y, str):
            return str(labels)
        relevant = iter([item for item in self.board.items if item["relevant"]])
        other = iter([item for item in self.board.items if not item["relevant"]])
        self.board.items = [dict(next(relevant) if label else next(other)) for label in y]
        return str(y)

    def solve(self) -> list[int] | None:
        """The first arrangement (in rank order of the relevant results) meeting every target."""
        for labels in self.arrangements():
            scores = self._scores(labels)
            if all(self._met(name, score) for name, score in scores.items()):
                return labels
        return None

    def _static_answer_html(self) -> str:
        return f"<p>{escape(self.readout)}</p>"
