"""The judging board: grade each result and watch AP, P@5 and nDCG@10 beside the reference."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from mapteach.teaching.judging import LEGAL_RESULTS, check_grades, judging_summary

__all__ = ["GradeError", "JudgingBoard"]

#: The grade of a result nobody has graded yet.
UNGRADED = -1


class GradeError(traitlets.TraitError, ValueError):
    """A grade off the board's scale, or a list of grades that does not fit its results.

    A TraitError, so a rejected change from the browser is rolled back before any
    observer sees it; a ValueError, as every other invalid argument here.
    """


def _check_grade(doc: str, grade: object, scale: int, *, ungraded: bool = False) -> int:
    """``grade`` as an int, or a GradeError naming ``doc`` if it is not on the scale 0-``scale``.

    With ``ungraded=True``, ``UNGRADED`` (-1) is accepted too.
    """
    if isinstance(grade, numbers.Integral) and not isinstance(grade, bool):
        value = int(grade)
        if 0 <= value <= scale or (ungraded and value == UNGRADED):
            return value
    also = f" (or {UNGRADED}, ungraded)" if ungraded else ""
    raise GradeError(f"result {doc!r}: grade {grade!r} is not on the scale 0-{scale}{also}.")


class _JudgingWidget(anywidget.AnyWidget):
    _esm = Path(__file__).parent / "static" / "judging.js"
    _css = Path(__file__).parent / "static" / "judging.css"
    items: traitlets.List[dict[str, str]] = traitlets.List().tag(sync=True)
    grades: traitlets.List[int] = traitlets.List().tag(sync=True)
    reasons: traitlets.List[str] = traitlets.List().tag(sync=True)
    reference: traitlets.List[int] = traitlets.List().tag(sync=True)
    show_reference = traitlets.Bool(False).tag(sync=True)
    summary = traitlets.Dict().tag(sync=True)
    scale = traitlets.Int(3).tag(sync=True)
    query = traitlets.Unicode().tag(sync=True)

    @traitlets.validate("grades")
    def _check_grades(self, proposal: traitlets.Bunch) -> list[int]:
        docs = [item["doc"] for item in self.items]
        grades = list(proposal.value)
        if len(grades) > len(docs):
            raise GradeError(
                f"grades has {len(grades)} entries for {len(docs)} results; grade "
                f"{grades[len(docs)]!r} at position {len(docs) + 1} has no result."
            )
        if len(grades) < len(docs):
            raise GradeError(
                f"grades has {len(grades)} entries for {len(docs)} results; result "
                f"{docs[len(grades)]!r} has no grade (use {UNGRADED} for ungraded)."
            )
        return [
            _check_grade(doc, grade, self.scale, ungraded=True)
            for doc, grade in zip(docs, grades, strict=True)
        ]


class JudgingBoard:
    """A labelling widget: grade each result; your AP, P@5 and nDCG@10 beside the reference's.

    Unlabelled results count as not relevant, as unjudged documents do in
    trec_eval. With ``scale=1`` the buttons read relevant / not relevant.

    Examples
    --------
    >>> from mapteach.views.judging_board import JudgingBoard
    >>> board = JudgingBoard()
    >>> board.grade("r1", 3); board.grade("r4", 2)
    >>> round(board.summary["ap"], 4)  # relevant at ranks 1 and 4: (1/1 + 2/4) / 2
    0.75
    >>> board.summary["disagree"]  # the reference also counts ranks 6 and 9
    [5, 8]
    """

    def __init__(
        self,
        results: Sequence[tuple[str, str, int]] = LEGAL_RESULTS,
        *,
        query: str = "劳动仲裁赔偿标准 (labour-arbitration compensation standards)",
        scale: int = 3,
        relevance_threshold: int = 2,
    ) -> None:
        check_grades({"query": {doc: grade for doc, _, grade in results}}, range(scale + 1))
        self.threshold = relevance_threshold
        self.widget = _JudgingWidget(
            items=[{"doc": doc, "text": text} for doc, text, _ in results],
            grades=[UNGRADED] * len(results),
            reasons=[""] * len(results),
            reference=[grade for _, _, grade in results],
            scale=scale,
            query=query,
        )
        self.widget.observe(self._refresh, names="grades")
        self._refresh()

    def _refresh(self, change: traitlets.Bunch | None = None) -> None:
        self.widget.summary = judging_summary(
            self.widget.grades, self.widget.reference, self.threshold
        )

    @property
    def summary(self) -> dict[str, Any]:
        """Your AP, P@5, nDCG@10, the reference AP, and the ranks (0-based) that disagree."""
        return dict(self.widget.summary)

    def grade(self, doc: str, grade: int) -> None:
        """Grade result ``doc``, as a click on its button does."""
        docs = [item["doc"] for item in self.widget.items]
        if doc not in docs:
            raise ValueError(f"no result {doc!r}; the results are {', '.join(docs)}.")
        grades = list(self.widget.grades)
        grades[docs.index(doc)] = _check_grade(doc, grade, self.widget.scale)
        self.widget.grades = grades

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        data, metadata = self.widget._repr_mimebundle_(**kwargs) or ({}, {})
        rows = "".join(f"<li>{item['text']}</li>" for item in self.widget.items)
        data["text/html"] = f"<p>Query: {self.widget.query}</p><ol>{rows}</ol>"
        data["text/plain"] = repr(self)
        return data, metadata

    def __repr__(self) -> str:
        judged = sum(g >= 0 for g in self.widget.grades)
        return f"JudgingBoard({judged} of {len(self.widget.grades)} results graded)"
