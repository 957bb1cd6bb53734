"""The judging board: grade each result and watch AP, P@5 and nDCG@10 beside the reference."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from mapteach.teaching.judging import LEGAL_RESULTS, check_grades, judging_summary

__all__ = ["JudgingBoard"]


class _JudgingWidget(anywidget.AnyWidget):
    _esm = Path(__file__).parent / "static" / "judging.js"
    _css = Path(__file__).parent / "static" / "judging.css"
    items = traitlets.List().tag(sync=True)
    grades = traitlets.List().tag(sync=True)
    reasons = traitlets.List().tag(sync=True)
    reference = traitlets.List().tag(sync=True)
    show_reference = traitlets.Bool(False).tag(sync=True)
    summary = traitlets.Dict().tag(sync=True)
    scale = traitlets.Int(3).tag(sync=True)
    query = traitlets.Unicode().tag(sync=True)


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
            grades=[-1] * len(results),
            reasons=[""] * len(results),
            reference=[grade for _, _, grade in results],
            scale=scale,
            query=query,
        )
        self.widget.observe(self._refresh, names="grades")
        self._refresh()

    def _refresh(self, change: Any = None) -> None:
        grades = self.widget.grades
        bad = [g for g in grades if not (g == -1 or 0 <= g <= self.widget.scale)]
        if bad:
            raise ValueError(f"grade {bad[0]!r} is not on the scale 0-{self.widget.scale}.")
        self.widget.summary = judging_summary(grades, self.widget.reference, self.threshold)

    @property
    def summary(self) -> dict:
        """Your AP, P@5, nDCG@10, the reference AP, and the ranks (0-based) that disagree."""
        return dict(self.widget.summary)

    def grade(self, doc: str, grade: int) -> None:
        """Grade result ``doc``, as a click on its button does."""
        docs = [item["doc"] for item in self.widget.items]
        if doc not in docs:
            raise ValueError(f"no result {doc!r}; the results are {', '.join(docs)}.")
        if not 0 <= grade <= self.widget.scale:
            raise ValueError(
                f"result {doc!r}: grade {grade!r} is not on the scale 0-{self.widget.scale}."
            )
        grades = list(self.widget.grades)
        grades[docs.index(doc)] = grade
        self.widget.grades = grades

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict, dict]:
        bundle = self.widget._repr_mimebundle_(**kwargs)
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        rows = "".join(f"<li>{item['text']}</li>" for item in self.widget.items)
        data["text/html"] = f"<p>Query: {self.widget.query}</p><ol>{rows}</ol>"
        data["text/plain"] = repr(self)
        return data, metadata

    def __repr__(self) -> str:
        judged = sum(g >= 0 for g in self.widget.grades)
        return f"JudgingBoard({judged} of {len(self.widget.grades)} results graded)"
