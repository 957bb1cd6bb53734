"""The judging board's browser model: its synced traits, their validation and its texts.

:class:`JudgingWidget` is the anywidget the board (:mod:`mapteach.judging.judging_board`)
drives; its traits are the only state of the browser view (``static/judging.js``). A
change that does not fit the model raises a :class:`BoardStateError` (a TraitError), so
a rejected change from the browser is rolled back before any observer sees it.

What the browser view keeps on its own, and why: every change it sends is also kept in
the browser (``localStorage``, keyed by the judgments file) until the ``saved`` trait,
which the kernel sets only after a change is appended and flushed to disk, shows it.
So a row whose judgment has not reached the file says so (``data-saved="false"``), a
kernel that does not answer is shown on the board, and a later board on the same file
offers to replay what never arrived.
"""

from __future__ import annotations

import numbers
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from mapteach.i18n import HTML_LANG, language, tr

__all__ = ["UNGRADED", "BoardStateError", "GradeError", "JudgingWidget", "check_grade"]

#: The grade of a result nobody has graded yet.
UNGRADED = -1


class BoardStateError(traitlets.TraitError, ValueError):
    """A change to the board's model that does not fit it (reasons, the query position),
    or a change the board cannot save (it is read-only: another board writes its file).

    A TraitError, so a rejected change from the browser is rolled back before any
    observer sees it; a ValueError, as every other invalid argument here.
    """


class GradeError(BoardStateError):
    """A grade off the board's scale, or a list of grades that does not fit its results."""


def check_grade(
    doc: str, grade: object, scale: int, *, ungraded: bool = False, lang: str | None = None
) -> int:
    """``grade`` as an int, or a GradeError naming ``doc`` if it is not on the scale 0-``scale``.

    With ``ungraded=True``, ``UNGRADED`` (-1) is accepted too. The error speaks ``lang``.

    >>> check_grade("r1", 2, 3)
    2
    >>> check_grade("r1", 4, 3)
    Traceback (most recent call last):
    ...
    mapteach.judging.judging_widget.GradeError: result 'r1': grade 4 is not on the scale 0-3.
    """
    if isinstance(grade, numbers.Integral) and not isinstance(grade, bool):
        value = int(grade)
        if 0 <= value <= scale or (ungraded and value == UNGRADED):
            return value
    if ungraded:
        raise GradeError(
            tr(
                "result {doc!r}: grade {grade!r} is not on the scale 0-{scale} "
                "(or {ungraded}, ungraded).",
                lang=lang,
                doc=doc,
                grade=grade,
                scale=scale,
                ungraded=UNGRADED,
            )
        )
    raise GradeError(
        tr(
            "result {doc!r}: grade {grade!r} is not on the scale 0-{scale}.",
            lang=lang,
            doc=doc,
            grade=grade,
            scale=scale,
        )
    )


def judging_texts(lang: str) -> dict[str, str]:
    """Every text the judging board's browser view shows, in ``lang`` (``{names}`` kept).

    >>> judging_texts("en")["progress"]
    'query {position} of {total}; {done} of {n} results judged'
    """
    with language(lang):
        return {
            "lang": HTML_LANG[lang],
            "query": tr("Query: {query} ({gloss})"),
            "query_plain": tr("Query: {query}"),
            "progress": tr("query {position} of {total}; {done} of {n} results judged"),
            "reveal": tr("Compare with the reference judgments"),
            "next": tr("Next query"),
            "your_ap": tr("your AP"),
            "reference_ap": tr("reference AP"),
            "grade_aria": tr("Grade for result {doc}"),
            "reason_aria": tr("Reason for result {doc}"),
            "reason_needed": tr("reason or rule id (needed)"),
            "reason_optional": tr("reason (optional)"),
            "clear": tr("clear"),
            "clear_aria": tr("Clear the grade of result {doc}"),
            "incomplete": tr("incomplete: a grade between the ends of the scale needs a reason"),
            "reference": tr("reference: {grade}"),
            "saved_in": tr("Judgments are saved in {path}"),
            "not_saved": tr("not saved"),
            "offline": tr(
                "The kernel does not answer: changes made here are not saved ({n} so far). "
                "They are kept in this browser: download them, or restart the kernel and "
                "run the cell again to replay them."
            ),
            "conflict": tr(
                "Another board wrote to this file since this board last read it. This board "
                "is read-only now and shows what the file holds; run the cell again to go on "
                "judging here."
            ),
            "kept": tr("Changes made here that the file does not hold: {n}."),
            "replay_offer": tr(
                "Judgments made in this browser earlier that never reached the file: {n}."
            ),
            "replay": tr("Replay them into the file"),
            "download": tr("Download the unsaved judgments (JSONL)"),
            "after_reveal": tr(
                "The reference judgments of this query have been shown: changes to it are "
                "recorded as made after the reveal."
            ),
        }


class JudgingWidget(anywidget.AnyWidget):
    """The judging board's model in the browser (see the module notes)."""

    _esm = Path(__file__).parent / "static" / "judging.js"
    _css = Path(__file__).parent / "static" / "judging.css"
    #: The current query's results in true rank order: doc, text, gloss, rank (1-based).
    items: traitlets.List[dict[str, Any]] = traitlets.List().tag(sync=True)
    #: The order the results are shown in: indices into ``items``.
    order: traitlets.List[int] = traitlets.List().tag(sync=True)
    grades: traitlets.List[int] = traitlets.List().tag(sync=True)
    reasons: traitlets.List[str] = traitlets.List().tag(sync=True)
    #: Per result (rank order), once revealed: the reference grade, rule, reason.
    key: traitlets.List[dict[str, Any]] = traitlets.List().tag(sync=True)
    show_reference = traitlets.Bool(False).tag(sync=True)
    summary = traitlets.Dict().tag(sync=True)
    scale = traitlets.Int(3).tag(sync=True)
    query = traitlets.Unicode().tag(sync=True)
    gloss = traitlets.Unicode().tag(sync=True)
    annotator = traitlets.Unicode().tag(sync=True)
    #: Which query of the set is shown (0-based); the browser's *Next query* raises it.
    position = traitlets.Int(0).tag(sync=True)
    n_queries = traitlets.Int(1).tag(sync=True)
    #: Every label the browser view shows, in the board's language.
    texts = traitlets.Dict(traitlets.Unicode()).tag(sync=True)
    #: The judgments file (absolute): where changes go, and the key of the browser's copy.
    path = traitlets.Unicode().tag(sync=True)
    #: The guideline version, written into the judgments the browser keeps.
    guideline = traitlets.Unicode().tag(sync=True)
    #: This board's own id: the browser tells its own unsaved changes from earlier ones.
    session = traitlets.Unicode().tag(sync=True)
    #: What the file holds, ``{query: {doc: [grade, reason]}}``, set after each append.
    saved = traitlets.Dict().tag(sync=True)
    #: The queries whose reference has been shown (their changes are ``after_reveal``).
    revealed: traitlets.List[str] = traitlets.List().tag(sync=True)
    #: True once another writer appended to the file: the board writes nothing more.
    read_only = traitlets.Bool(False).tag(sync=True)
    #: Why the last change could not be written (empty: it was).
    save_error = traitlets.Unicode().tag(sync=True)
    #: A message for the annotator (what a replay did), in the board's language.
    notice = traitlets.Unicode().tag(sync=True)

    def __init__(self, *, lang: str, **kwargs: Any) -> None:
        #: The language of the board's texts and errors.
        self.lang = lang
        super().__init__(texts=judging_texts(lang), **kwargs)

    @traitlets.validate("grades")
    def _check_grades(self, proposal: traitlets.Bunch) -> list[int]:
        docs = [item["doc"] for item in self.items]
        grades = list(proposal.value)
        if len(grades) > len(docs):
            raise GradeError(
                tr(
                    "grades has {n_grades} entries for {n_results} results; grade {grade!r} "
                    "at position {position} has no result.",
                    lang=self.lang,
                    n_grades=len(grades),
                    n_results=len(docs),
                    grade=grades[len(docs)],
                    position=len(docs) + 1,
                )
            )
        if len(grades) < len(docs):
            raise GradeError(
                tr(
                    "grades has {n_grades} entries for {n_results} results; result {doc!r} "
                    "has no grade (use {ungraded} for ungraded).",
                    lang=self.lang,
                    n_grades=len(grades),
                    n_results=len(docs),
                    doc=docs[len(grades)],
                    ungraded=UNGRADED,
                )
            )
        return [
            check_grade(doc, grade, self.scale, ungraded=True, lang=self.lang)
            for doc, grade in zip(docs, grades, strict=True)
        ]

    @traitlets.validate("reasons")
    def _check_reasons(self, proposal: traitlets.Bunch) -> list[str]:
        reasons = list(proposal.value)
        if len(reasons) != len(self.items) or not all(isinstance(r, str) for r in reasons):
            raise BoardStateError(
                tr(
                    "reasons must be {n} strings, one per result; got {reasons!r}.",
                    lang=self.lang,
                    n=len(self.items),
                    reasons=reasons,
                )
            )
        return reasons

    @traitlets.validate("position")
    def _check_position(self, proposal: traitlets.Bunch) -> int:
        if not 0 <= proposal.value < self.n_queries:
            raise BoardStateError(
                tr(
                    "position {position} is not a query of the set (0-{last}).",
                    lang=self.lang,
                    position=proposal.value,
                    last=self.n_queries - 1,
                )
            )
        return int(proposal.value)
