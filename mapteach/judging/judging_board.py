"""The judging board: a calibration round for an annotator, saved as it is made.

The annotator grades each result of a query from the judging set (shown in an
order shuffled per annotator; the true rank stays in the model for scoring),
writes a reason for every middle grade (1-2 on a 0-3 scale), and sees AP, P@5 and
nDCG@10 of their judgments. Once every result is judged, or on *reveal*, the board
shows the reference grade, its reason and rule for each result, and marks where
the annotator disagreed. *Next query* moves on through the set.

With ``save_to=``, every change is appended to a JSON-lines file at once
(:mod:`mapteach.judging.judgments`); a new board on the same file replays it
and resumes where the last one stopped.

The widget's synced traits are the only state of the browser view; a click and
:meth:`JudgingBoard.set_grade` take the same path (a change of the ``grades`` trait).
The board speaks the language current when it is made, or its ``lang=``: the
browser's labels come from the ``texts`` trait, filled from the message catalogue.
"""

from __future__ import annotations

import hashlib
import html
import numbers
import os
import random
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from mapteach.i18n import HTML_LANG, language, tr, widget_language
from mapteach.judging.calibration import CalibrationReport, calibration_report, judging_summary
from mapteach.judging.guideline import Guideline, JudgingSet, load_guideline, load_judging_set
from mapteach.judging.judgments import Event, append_event, read_events, replay

__all__ = ["BoardStateError", "GradeError", "JudgingBoard"]

#: The grade of a result nobody has graded yet.
UNGRADED = -1


class BoardStateError(traitlets.TraitError, ValueError):
    """A change to the board's model that does not fit it (reasons, the query position).

    A TraitError, so a rejected change from the browser is rolled back before any
    observer sees it; a ValueError, as every other invalid argument here.
    """


class GradeError(BoardStateError):
    """A grade off the board's scale, or a list of grades that does not fit its results."""


def _check_grade(
    doc: str, grade: object, scale: int, *, ungraded: bool = False, lang: str | None = None
) -> int:
    """``grade`` as an int, or a GradeError naming ``doc`` if it is not on the scale 0-``scale``.

    With ``ungraded=True``, ``UNGRADED`` (-1) is accepted too. The error speaks ``lang``.
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
        }


def annotator_seed(annotator: str) -> int:
    """A seed derived from the annotator's name: the same on every machine and run.

    >>> annotator_seed("alice") == annotator_seed("alice") != annotator_seed("bob")
    True
    """
    return int.from_bytes(hashlib.sha256(annotator.encode("utf-8")).digest()[:8], "big")


class _JudgingWidget(anywidget.AnyWidget):
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
            _check_grade(doc, grade, self.scale, ungraded=True, lang=self.lang)
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


class JudgingBoard:
    """A calibration round: grade each result (with reasons), then compare with the reference.

    Parameters
    ----------
    judging_set : JudgingSet, path or None
        The queries and reference judgments; default the package's legal set.
    query : str, optional
        The query to start with; default the query judged last in ``save_to``, or
        the first.
    annotator : str
        Who judges; recorded in every saved line, and the seed of the shuffle.
    seed : int, optional
        The seed of the order the results are shown in; default derived from
        ``annotator``, so an annotator sees the same order in every session.
    save_to : path, optional
        A JSON-lines file to append every change to; if it exists, the board
        resumes from it.
    guideline : Guideline, path or None
        The judging guideline; default the package's. A set or guideline loaded
        here comes in the board's language.
    relevance_threshold : int
        The grade from which a result counts as relevant for AP and P@5.
    lang : {"en", "zh"}, optional
        The language of the board's labels, messages and errors; default the
        current one, kept for the board's life.

    Notes
    -----
    A grade strictly between 0 and the top of the scale needs a reason before it
    counts: until then the result is shown as incomplete and scores as ungraded,
    and the round is not finished. :attr:`judgments` holds every grade made,
    complete or not; it is what the saved file holds.

    Examples
    --------
    >>> from mapteach.judging import JudgingBoard
    >>> board = JudgingBoard()
    >>> board.set_grade("r1", 3)
    >>> board.set_grade("r4", 2)  # a middle grade without a reason does not count yet
    >>> board.summary["ap"], board.incomplete
    (1.0, ['r4'])
    >>> board.set_grade("r4", 2, reason="R-AUTH? it gives the amount, but not for my case")
    >>> round(board.summary["ap"], 4)  # relevant at ranks 1 and 4: (1/1 + 2/4) / 2
    0.75
    >>> board.summary["disagree"]  # the reference also counts ranks 6 and 9
    [5, 8]
    >>> board.judgments
    {'劳动仲裁赔偿标准': {'r1': 3, 'r4': 2}}
    """

    def __init__(
        self,
        judging_set: JudgingSet | str | os.PathLike | None = None,
        *,
        query: str | None = None,
        annotator: str = "alice",
        seed: int | None = None,
        save_to: str | os.PathLike | None = None,
        guideline: Guideline | str | os.PathLike | None = None,
        relevance_threshold: int = 2,
        lang: str | None = None,
    ) -> None:
        #: The language the board speaks, fixed when it is made.
        self.lang = widget_language(lang)
        if not isinstance(annotator, str) or not annotator.strip():
            raise ValueError(
                tr(
                    "annotator must be a non-empty name; got {annotator!r}.",
                    lang=self.lang,
                    annotator=annotator,
                )
            )
        self.guideline = (
            guideline
            if isinstance(guideline, Guideline)
            else load_guideline(guideline, lang=self.lang)
        )
        self.judging_set = (
            judging_set
            if isinstance(judging_set, JudgingSet)
            else load_judging_set(judging_set, guideline=self.guideline, lang=self.lang)
        )
        self.annotator = annotator
        self.seed = annotator_seed(annotator) if seed is None else seed
        self.save_to = None if save_to is None else Path(save_to)
        self.threshold = relevance_threshold
        self._queries = [q.query for q in self.judging_set.queries]
        #: Every judgment made so far: {query: {doc: (grade, reason)}}.
        self._judged: dict[str, dict[str, tuple[int, str]]] = {}
        with language(self.lang):
            start = self._resume()
            if query is not None:
                start = self._queries.index(self.judging_set.find(query).query)
        self.widget = _JudgingWidget(
            lang=self.lang,
            scale=self.guideline.max_grade,
            annotator=annotator,
            n_queries=len(self._queries),
            position=start,
        )
        self.widget.observe(self._changed, names=["grades", "reasons"])
        self.widget.observe(self._revealed, names="show_reference")
        self.widget.observe(self._load, names="position")
        self._load()

    # --- the saved file --------------------------------------------------------------

    def _resume(self) -> int:
        """Replay ``save_to`` into the judgments; the position of the query judged last."""
        if self.save_to is None:
            return 0
        events = read_events(self.save_to)
        for line, event in events:
            self._check_event(line, event)
        for query, saved in replay(events).items():
            self._judged[query] = {
                doc: (event.grade, event.reason)
                for doc, event in saved.items()
                if event.grade is not None
            }
        return self._queries.index(events[-1][1].query) if events else 0

    def _check_event(self, line: int, event: Event) -> None:
        """Raise a ValueError naming the line if a saved judgment does not fit this board."""
        where = tr(
            "{path}, line {line} (query {query!r}, document {doc!r})",
            path=self.save_to,
            line=line,
            query=event.query,
            doc=event.doc,
        )
        if event.annotator != self.annotator:
            raise ValueError(
                tr(
                    "{where}: judged by {judge!r}, not {annotator!r}; "
                    "give each annotator a file of their own.",
                    where=where,
                    judge=event.annotator,
                    annotator=self.annotator,
                )
            )
        if event.guideline != self.guideline.version:
            raise ValueError(
                tr(
                    "{where}: judged under guideline {saved!r}, not {version!r}; "
                    "start a new file for the new version.",
                    where=where,
                    saved=event.guideline,
                    version=self.guideline.version,
                )
            )
        try:
            known = [r.doc for r in self.judging_set.find(event.query).results]
        except KeyError as error:
            raise ValueError(f"{where}: {error.args[0]}") from None
        if event.doc not in known:
            raise ValueError(tr("{where}: the query has no such result.", where=where))
        if event.grade is not None and event.grade > self.guideline.max_grade:
            raise ValueError(
                tr(
                    "{where}: grade {grade} is not on the scale 0-{scale}.",
                    where=where,
                    grade=event.grade,
                    scale=self.guideline.max_grade,
                )
            )

    def _save(self, doc: str, grade: int | None, reason: str) -> None:
        if self.save_to is not None:
            event = Event.now(
                self.annotator, self.widget.query, doc, grade, reason, self.guideline.version
            )
            append_event(self.save_to, event)

    # --- the model -------------------------------------------------------------------

    def _load(self, change: traitlets.Bunch | None = None) -> None:
        """Show the query at ``position``: its results, shuffled, with the judgments so far."""
        current = self.judging_set.queries[self.widget.position]
        judged = self._judged.get(current.query, {})
        order = list(range(len(current.results)))
        random.Random(f"{self.seed}/{current.query}").shuffle(order)
        with self.widget.hold_sync(), self.widget.hold_trait_notifications():
            self.widget.query = current.query
            gloss = tr(current.gloss, lang=self.lang)
            # a gloss in the query's own language says nothing new
            self.widget.gloss = "" if gloss == current.query else gloss
            self.widget.items = [
                {"doc": r.doc, "text": r.text, "gloss": tr(r.gloss, lang=self.lang), "rank": rank}
                for rank, r in enumerate(current.results, start=1)
            ]
            self.widget.order = order
            self.widget.grades = [judged.get(r.doc, (UNGRADED, ""))[0] for r in current.results]
            self.widget.reasons = [judged.get(r.doc, (UNGRADED, ""))[1] for r in current.results]
            self.widget.key = []
            self.widget.show_reference = False
        self._refresh()

    def _complete(self, grade: int, reason: str) -> bool:
        return (
            grade == 0 or grade == self.guideline.max_grade or (grade > 0 and bool(reason.strip()))
        )

    def _changed(self, change: traitlets.Bunch) -> None:
        """Save each result whose grade or reason differs from what is saved, then rescore."""
        judged = self._judged.setdefault(self.widget.query, {})
        for item, grade, reason in zip(
            self.widget.items, self.widget.grades, self.widget.reasons, strict=True
        ):
            doc = item["doc"]
            if grade == UNGRADED:
                if doc in judged:
                    del judged[doc]
                    self._save(doc, None, "")
            elif judged.get(doc) != (grade, reason):
                judged[doc] = (grade, reason)
                self._save(doc, grade, reason)
        self._refresh()

    def _refresh(self) -> None:
        grades, reasons = self.widget.grades, self.widget.reasons
        complete = [
            g != UNGRADED and self._complete(g, r) for g, r in zip(grades, reasons, strict=True)
        ]
        counted = [g if ok else UNGRADED for g, ok in zip(grades, complete, strict=True)]
        reference = [r.grade for r in self.judging_set.queries[self.widget.position].results]
        summary = judging_summary(counted, reference, self.threshold)
        summary["complete"] = complete
        summary["n_complete"] = sum(complete)
        self.widget.summary = summary
        if all(complete):
            self.widget.show_reference = True

    def _revealed(self, change: traitlets.Bunch) -> None:
        results = self.judging_set.queries[self.widget.position].results
        self.widget.key = (
            [
                {
                    "grade": r.grade,
                    "rule": r.rule,
                    "reason": tr(r.reason, lang=self.lang),
                    "statement": tr(self.guideline.rule(r.rule).statement, lang=self.lang),
                }
                for r in results
            ]
            if change.new
            else []
        )

    # --- what a notebook calls -------------------------------------------------------

    def _index(self, doc: str) -> int:
        docs = [item["doc"] for item in self.widget.items]
        if doc not in docs:
            raise ValueError(
                tr(
                    "query {query!r}: no result {doc!r}; the results are {docs}.",
                    lang=self.lang,
                    query=self.widget.query,
                    doc=doc,
                    docs=", ".join(docs),
                )
            )
        return docs.index(doc)

    def set_grade(self, doc: str, grade: int, reason: str = "") -> None:
        """Grade result ``doc`` of the current query, with ``reason``, as a click does."""
        index = self._index(doc)
        grades, reasons = list(self.widget.grades), list(self.widget.reasons)
        grades[index] = _check_grade(doc, grade, self.widget.scale, lang=self.lang)
        reasons[index] = reason
        with self.widget.hold_trait_notifications():
            self.widget.grades = grades
            self.widget.reasons = reasons

    def grade(self, doc: str, grade: int) -> None:
        """Grade result ``doc`` without a reason (an alias of :meth:`set_grade`)."""
        self.set_grade(doc, grade)

    def clear_grade(self, doc: str) -> None:
        """Remove the grade (and reason) of result ``doc``, as its *clear* button does."""
        index = self._index(doc)
        grades, reasons = list(self.widget.grades), list(self.widget.reasons)
        grades[index], reasons[index] = UNGRADED, ""
        with self.widget.hold_trait_notifications():
            self.widget.grades = grades
            self.widget.reasons = reasons

    def reveal(self) -> None:
        """Show the reference grades, reasons and rules, as the *reveal* box does."""
        self.widget.show_reference = True

    def next_query(self) -> None:
        """Move to the next query of the set, as the *Next query* button does."""
        self.widget.position = self.widget.position + 1

    @property
    def query(self) -> str:
        """The query shown now."""
        return self.widget.query

    @property
    def summary(self) -> dict[str, Any]:
        """Your AP, P@5, nDCG@10, the reference AP, the ranks (0-based) that disagree."""
        return dict(self.widget.summary)

    @property
    def incomplete(self) -> list[str]:
        """The current query's results graded but still missing a reason."""
        return [
            item["doc"]
            for item, grade, ok in zip(
                self.widget.items, self.widget.grades, self.summary["complete"], strict=True
            )
            if grade != UNGRADED and not ok
        ]

    @property
    def judgments(self) -> dict[str, dict[str, int]]:
        """Every grade made so far, ``{query: {doc: grade}}`` (what ``save_to`` holds)."""
        return {
            query: {doc: grade for doc, (grade, _) in docs.items()}
            for query, docs in self._judged.items()
            if docs
        }

    def report(self) -> CalibrationReport:
        """Your judgments against the reference (see ``calibration_report``), queries judged."""
        gold = self.judging_set.gold()
        judged = {query: gold[query] for query in self.judgments}
        return calibration_report(
            self.judgments, judged, relevance_threshold=self.threshold, scale=self.widget.scale
        )

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        data, metadata = self.widget._repr_mimebundle_(**kwargs) or ({}, {})
        items = self.widget.items
        rows = "".join(
            f"<li>{html.escape(items[i]['text'])} <i>({html.escape(items[i]['gloss'])})</i></li>"
            for i in self.widget.order
        )
        query, gloss = html.escape(self.widget.query), html.escape(self.widget.gloss)
        annotator = html.escape(self.annotator)
        heading = (
            tr(
                "Query: {query} ({gloss}), judged by {annotator}",
                lang=self.lang,
                query=query,
                gloss=gloss,
                annotator=annotator,
            )
            if gloss
            else tr(
                "Query: {query}, judged by {annotator}",
                lang=self.lang,
                query=query,
                annotator=annotator,
            )
        )
        data["text/html"] = (
            f'<div lang="{HTML_LANG[self.lang]}"><p>{heading}</p><ol>{rows}</ol></div>'
        )
        data["text/plain"] = repr(self)
        return data, metadata

    def __repr__(self) -> str:
        return tr(
            "JudgingBoard({annotator}, query {position} of {total}: {done} of {n} results judged)",
            lang=self.lang,
            annotator=self.annotator,
            position=self.widget.position + 1,
            total=self.widget.n_queries,
            done=self.summary["n_complete"],
            n=len(self.widget.grades),
        )
