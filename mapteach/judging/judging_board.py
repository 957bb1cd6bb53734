"""The judging board: a calibration round for an annotator, saved as it is made.

The annotator grades each result of a query from the judging set (shown in an
order shuffled per annotator; the true rank stays in the model for scoring),
writes a reason for every middle grade (1-2 on a 0-3 scale), and sees AP, P@5 and
nDCG@10 of their judgments. Once every result is judged, or on *reveal*, the board
shows the reference grade, its reason and rule for each result, and marks where
the annotator disagreed. *Next query* moves on through the set.

Nothing a judge does is lost:

- every change is appended to the annotator's judgments file at once
  (:mod:`mapteach.judging.judgments`): by default ``judgments_file(annotator,
  folder)``, the same file in every session, so a restarted kernel's new board
  resumes where the last one stopped (``board.path`` says where it is);
- each change carries its phase: ``blind`` until the query's reference is shown,
  ``after_reveal`` after (the reveal itself is a line of the file);
- before each append, and each time the browser view asks (on focus, when the tab
  is shown, every few seconds while it is visible), the board reads the file's last
  line: if another writer appended since (a line it did not write), the board says
  so, becomes read-only and shows what the file holds (and goes on following it), so
  the screen and the file never disagree unseen;
- the browser view marks each row saved only once the kernel has written it
  (:mod:`mapteach.judging.judging_widget`), keeps unsaved changes in the browser,
  says on the board when the kernel does not answer, and lets a later board on the
  same file replay them (or :meth:`JudgingBoard.restore` a downloaded file).

With a ``folder`` holding ``assignments.json`` (:func:`mapteach.judging.assign`),
the board shows the annotator only the queries assigned to them.

The widget's synced traits are the only state of the browser view; a click and
:meth:`JudgingBoard.set_grade` take the same path (a change of the ``grades`` trait).
The board speaks the language current when it is made, or its ``lang=``: the
browser's labels come from the ``texts`` trait, filled from the message catalogue.
"""

from __future__ import annotations

import hashlib
import html
import os
import random
import uuid
from pathlib import Path
from typing import Any

import traitlets

from mapteach.i18n import HTML_LANG, language, tr, widget_language
from mapteach.judging.assignment import ASSIGNMENTS_FILE, assigned_queries
from mapteach.judging.calibration import CalibrationReport, calibration_report, judging_summary
from mapteach.judging.guideline import (
    RELEVANCE_THRESHOLD,
    Guideline,
    JudgingSet,
    load_guideline,
    load_judging_set,
)
from mapteach.judging.judging_widget import (
    UNGRADED,
    BoardStateError,
    GradeError,
    JudgingWidget,
    check_grade,
)
from mapteach.judging.judgments import judgments_file, judgments_folder, read_events
from mapteach.judging.judgments_writer import JudgmentsWriter

__all__ = ["LEARNER", "BoardStateError", "GradeError", "JudgingBoard", "shown_annotator"]


def _shown_gloss(gloss: str, text: str, lang: str) -> str:
    """The English ``gloss`` of ``text`` in ``lang``, or "" if ``text`` is already in ``lang``.

    A gloss serves a reader who does not read the snippet's language; to a reader who
    does, a paraphrase beside the snippet only shows it twice, in two wordings.

    >>> _shown_gloss("Art. 27: apply within one year.", "第二十七条：时效期间为一年。", "zh")
    ''
    >>> _shown_gloss("Art. 27: apply within one year.", "第二十七条：时效期间为一年。", "en")
    'Art. 27: apply within one year.'
    """
    snippet_lang = "zh" if any("\u4e00" <= char <= "\u9fff" for char in text) else "en"
    return "" if snippet_lang == lang else tr(gloss, lang=lang)


#: The name the workbook's notebooks give the learner's own board (``annotator="you"``).
LEARNER = "you"


def shown_annotator(annotator: str, lang: str | None = None) -> str:
    """An annotator's name as a page shows it: :data:`LEARNER`, the placeholder for the
    learner, in the current language (or ``lang``); any other name as it is written.

    >>> shown_annotator("you", "zh"), shown_annotator("you", "en"), shown_annotator("hao", "zh")
    ('你', 'you', 'hao')
    """
    return tr("you", lang=lang) if annotator == LEARNER else annotator


def annotator_seed(annotator: str) -> int:
    """A seed derived from the annotator's name: the same on every machine and run.

    >>> annotator_seed("alice") == annotator_seed("alice") != annotator_seed("bob")
    True
    """
    return int.from_bytes(hashlib.sha256(annotator.encode("utf-8")).digest()[:8], "big")


class JudgingBoard:
    """A calibration round: grade each result (with reasons), then compare with the reference.

    Parameters
    ----------
    judging_set : JudgingSet, path or None
        The queries and reference judgments; default the package's legal set.
    query : str, optional
        The query to start with; default the query judged last in the file, or the first.
    annotator : str
        Who judges; recorded in every saved line, the seed of the shuffle, and the
        name of the default file.
    seed : int, optional
        The seed of the order the results are shown in; default derived from
        ``annotator``, so an annotator sees the same order in every session.
    save_to : path, optional
        The JSON-lines file to append every change to; default
        ``judgments_file(annotator, folder)``. If it exists, the board resumes from it.
    folder : path, optional
        The judging folder: where the default file is (default ``judgments_folder()``),
        and, if it holds ``assignments.json``, which queries the annotator judges.
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
    and the round is not finished. :attr:`judgments` holds every grade saved,
    complete or not; it is what the file holds.

    Examples
    --------
    >>> import tempfile
    >>> from mapteach.judging import JudgingBoard
    >>> board = JudgingBoard(folder=tempfile.mkdtemp())
    >>> board.path.name
    'alice-2bd806c9.jsonl'
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
    >>> JudgingBoard(folder=board.path.parent).judgments  # a new session resumes
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
        folder: str | os.PathLike | None = None,
        guideline: Guideline | str | os.PathLike | None = None,
        relevance_threshold: int = RELEVANCE_THRESHOLD,
        lang: str | None = None,
    ) -> None:
        #: The language the board speaks, fixed when it is made.
        self.lang = widget_language(lang)
        with language(self.lang):
            own_file = judgments_file(annotator, folder)  # checks the name too
        #: The judgments file: every change is appended to it.
        self.path = own_file if save_to is None else Path(save_to)
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
        self.threshold = relevance_threshold
        with language(self.lang):
            #: The queries the folder's plan assigns the annotator (None: no plan).
            self.assigned = self._assigned(folder)
            #: The queries the annotator judges here: their assignment, else the whole set.
            self.queries = (
                list(self.judging_set.queries)
                if self.assigned is None
                else [self.judging_set.find(query) for query in self.assigned]
            )
            #: The judgments file as this board reads and writes it.
            self.file = JudgmentsWriter(self.path, annotator, self.guideline, self.judging_set)
            start = self._start(query)
        self._showing_file = False
        self.widget = JudgingWidget(
            lang=self.lang,
            scale=self.guideline.max_grade,
            annotator=annotator,
            n_queries=len(self.queries),
            position=start,
            path=os.path.abspath(self.path),
            guideline=self.guideline.version,
            session=uuid.uuid4().hex,
        )
        self.widget.observe(self._changed, names=["grades", "reasons"])
        self.widget.observe(self._revealed, names="show_reference")
        self.widget.observe(self._load, names="position")
        self.widget.on_msg(self._message)
        self._load()

    @property
    def save_to(self) -> Path:
        """The judgments file (the same as :attr:`path`)."""
        return self.path

    def _assigned(self, folder: str | os.PathLike | None) -> list[str] | None:
        """The queries the judging folder's ``assignments.json`` assigns the annotator.

        The folder is ``folder``, else :func:`judgments_folder`; None when it holds no
        plan. A plan that gives the annotator no query is an error that says so.
        """
        where = judgments_folder() if folder is None else Path(folder)
        if not (where / ASSIGNMENTS_FILE).exists():
            return None
        queries = assigned_queries(where, self.annotator)
        if not queries:
            raise ValueError(
                tr(
                    "{plan} assigns {annotator!r} no query: ask the lead for an assignment.",
                    plan=os.fspath(where / ASSIGNMENTS_FILE),
                    annotator=self.annotator,
                )
            )
        return queries

    def _start(self, query: str | None) -> int:
        """The position to start at: ``query``'s, else the query judged last, else 0."""
        names = [q.query for q in self.queries]
        if query is not None:
            wanted = self.judging_set.find(query).query
            if wanted not in names:
                raise ValueError(
                    tr(
                        "query {query!r} is not among the queries assigned to {annotator!r}: "
                        "{assigned}.",
                        query=wanted,
                        annotator=self.annotator,
                        assigned=", ".join(names),
                    )
                )
            return names.index(wanted)
        last = self.file.last.query if self.file.last is not None else None
        return names.index(last) if last in names else 0

    # --- the model -------------------------------------------------------------------

    def _load(self, change: traitlets.Bunch | None = None) -> None:
        """Show the query at ``position``: its results, shuffled, with the judgments so far."""
        current = self.queries[self.widget.position]
        order = list(range(len(current.results)))
        random.Random(f"{self.seed}/{current.query}").shuffle(order)
        with self.widget.hold_sync(), self.widget.hold_trait_notifications():
            self.widget.query = current.query
            self.widget.gloss = _shown_gloss(current.gloss, current.query, self.lang)
            self.widget.items = [
                {
                    "doc": r.doc,
                    "text": r.text,
                    "gloss": _shown_gloss(r.gloss, r.text, self.lang),
                    "rank": rank,
                }
                for rank, r in enumerate(current.results, start=1)
            ]
            self.widget.order = order
            self.widget.key = []
            self.widget.show_reference = False
        self._show_file()

    def _show_file(self) -> None:
        """Set the current query's grades and reasons, and ``saved``, to what the file holds."""
        judged = self.file.judged.get(self.widget.query, {})
        docs = [item["doc"] for item in self.widget.items]
        with self.widget.hold_sync():
            self._showing_file = True
            try:
                with self.widget.hold_trait_notifications():
                    self.widget.grades = [judged.get(doc, (UNGRADED, ""))[0] for doc in docs]
                    self.widget.reasons = [judged.get(doc, (UNGRADED, ""))[1] for doc in docs]
            finally:
                self._showing_file = False
            self._sync_file()
            self._refresh()

    def _sync_file(self) -> None:
        """Tell the browser what the file holds, and whether the last change reached it."""
        self.widget.saved = {
            query: {doc: [grade, reason] for doc, (grade, reason) in docs.items()}
            for query, docs in self.file.judged.items()
            if docs
        }
        self.widget.revealed = sorted(self.file.revealed)
        self.widget.read_only = self.file.read_only
        self.widget.save_error = self.file.error

    def _complete(self, grade: int, reason: str) -> bool:
        return (
            grade == 0 or grade == self.guideline.max_grade or (grade > 0 and bool(reason.strip()))
        )

    def _changed(self, change: traitlets.Bunch) -> None:
        """Save each result whose grade or reason differs from the file, then rescore."""
        if self._showing_file:
            return
        query = self.widget.query
        judged = self.file.judged.get(query, {})
        shown = zip(self.widget.items, self.widget.grades, self.widget.reasons, strict=True)
        with language(self.lang):
            for item, grade, reason in list(shown):
                wanted = None if grade == UNGRADED else (grade, reason)
                if wanted != judged.get(item["doc"]):
                    grade_or_none, text = wanted or (None, "")
                    if not self.file.save(query, item["doc"], grade_or_none, text):
                        break
        if self.file.read_only:
            self._show_file()
            return
        with self.widget.hold_sync():
            self._sync_file()
            self._refresh()

    def _refresh(self) -> None:
        grades, reasons = self.widget.grades, self.widget.reasons
        complete = [
            g != UNGRADED and self._complete(g, r) for g, r in zip(grades, reasons, strict=True)
        ]
        counted = [g if ok else UNGRADED for g, ok in zip(grades, complete, strict=True)]
        reference = [r.grade for r in self.queries[self.widget.position].results]
        summary = judging_summary(counted, reference, self.threshold)
        summary["complete"] = complete
        summary["n_complete"] = sum(complete)
        self.widget.summary = summary
        if all(complete):
            self.widget.show_reference = True

    def _revealed(self, change: traitlets.Bunch) -> None:
        if change.new:
            with language(self.lang):
                self.file.reveal(self.widget.query)
            self._sync_file()
        results = self.queries[self.widget.position].results
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

    # --- judgments the browser kept --------------------------------------------------

    def _message(self, widget: Any, content: Any, buffers: Any) -> None:
        """A message from the browser: ``{"kind": "replay", "entries": [...]}``, or
        ``{"kind": "ping"}`` (is the kernel still there, has another board written the
        file?), answered ``{"kind": "pong"}`` once the screen shows what the file holds."""
        if isinstance(content, dict) and content.get("kind") == "ping":
            self._follow_file()
            self.widget.send({"kind": "pong"})
        if not isinstance(content, dict) or content.get("kind") != "replay":
            return
        entries = content.get("entries")
        with language(self.lang):
            events, refused = self.file.kept(entries if isinstance(entries, list) else [])
            written = self.file.restore(events)
            notice = tr("Judgments replayed into the file: {n}.", n=written)
        self.widget.notice = "\n".join([notice, *refused])
        self._show_file()

    def _follow_file(self) -> None:
        """If another writer appended to the file, turn read-only and show what it holds."""
        with language(self.lang):
            others = self.file.check_for_others()
        if others:
            self._show_file()
        else:
            self.widget.save_error = self.file.error

    def restore(self, path: str | os.PathLike) -> int:
        """Append the judgments of ``path`` (the board's *download* of unsaved judgments)
        that the file does not hold yet; return how many were written.

        Raises
        ------
        ValueError
            If a judgment in ``path`` does not fit this board (another annotator,
            guideline, query or result), before anything is written.
        BoardStateError
            If another writer appended to the file: nothing more is written.
        """
        with language(self.lang):
            events = [event for _, event in read_events(path)]
            for number, event in enumerate(events, start=1):
                self.file.check(event, number)
            written = self.file.restore(events)
        self._show_file()
        self._raise_if_unsaved()
        return written

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

    def _raise_if_unsaved(self) -> None:
        if self.file.read_only:
            raise BoardStateError(
                tr(
                    "{path}: another board wrote to this file since this board last read it; "
                    "this board is read-only now. Make a new board to go on judging.",
                    lang=self.lang,
                    path=self.path,
                )
            )
        if self.file.error:
            raise OSError(self.file.error)

    def _set(self, doc: str, grade: int, reason: str) -> None:
        self._raise_if_unsaved()
        index = self._index(doc)
        grades, reasons = list(self.widget.grades), list(self.widget.reasons)
        grades[index], reasons[index] = grade, reason
        with self.widget.hold_trait_notifications():
            self.widget.grades = grades
            self.widget.reasons = reasons
        self._raise_if_unsaved()

    def set_grade(self, doc: str, grade: int, reason: str = "") -> None:
        """Grade result ``doc`` of the current query, with ``reason``, as a click does.

        A new grade comes with its own reason: the old one is not kept.

        Raises
        ------
        GradeError
            If ``grade`` is off the scale.
        BoardStateError
            If the board is read-only (another board wrote to its file).
        OSError
            If the file could not be written.
        """
        self._set(doc, check_grade(doc, grade, self.widget.scale, lang=self.lang), reason)

    def grade(self, doc: str, grade: int) -> None:
        """Grade result ``doc`` without a reason (an alias of :meth:`set_grade`)."""
        self.set_grade(doc, grade)

    def clear_grade(self, doc: str) -> None:
        """Remove the grade (and reason) of result ``doc``, as its *clear* button does."""
        self._set(doc, UNGRADED, "")

    def reveal(self) -> None:
        """Show the reference grades, reasons and rules, as the *reveal* box does.

        Changes to the query's judgments from now on are recorded as ``after_reveal``.
        """
        self.widget.show_reference = True

    def next_query(self) -> None:
        """Move to the next query of the set, as the *Next query* button does."""
        self.widget.position = self.widget.position + 1

    @property
    def query(self) -> str:
        """The query shown now."""
        return self.widget.query

    @property
    def phase(self) -> str:
        """The phase a change to the current query is recorded with now."""
        return self.file.phase(self.widget.query)

    @property
    def read_only(self) -> bool:
        """True once another writer appended to the file: the board writes nothing more."""
        return self.file.read_only

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

    def _saved_rows(self) -> list[bool]:
        """Per result of the current query (rank order): whether the file holds what is shown."""
        judged = self.file.judged.get(self.widget.query, {})
        return [
            judged.get(item["doc"], (UNGRADED, "")) == (grade, reason if grade != UNGRADED else "")
            for item, grade, reason in zip(
                self.widget.items, self.widget.grades, self.widget.reasons, strict=True
            )
        ]

    @property
    def judgments(self) -> dict[str, dict[str, int]]:
        """Every grade saved so far, ``{query: {doc: grade}}`` (what the file holds)."""
        return self.file.judgments

    def report(self) -> CalibrationReport:
        """Your blind judgments against the reference (see ``calibration_report``), over
        the queries you were assigned or judged."""
        gold = self.judging_set.gold()
        return calibration_report(
            self.path,
            gold,
            assigned=self.assigned or (),
            relevance_threshold=self.threshold,
            scale=self.widget.scale,
        )

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        data, metadata = self.widget._repr_mimebundle_(**kwargs) or ({}, {})
        items, saved = self.widget.items, self._saved_rows()
        rows = "".join(
            f'<li data-doc="{html.escape(items[i]["doc"])}" data-saved="{str(saved[i]).lower()}">'
            f"{html.escape(items[i]['text'])}"
            + (f" <i>({html.escape(items[i]['gloss'])})</i>" if items[i]["gloss"] else "")
            + "</li>"
            for i in self.widget.order
        )
        annotator = html.escape(shown_annotator(self.annotator, self.lang))
        fields = {
            "query": html.escape(self.widget.query),
            "annotator": annotator,
            "lang": self.lang,
        }
        if gloss := html.escape(self.widget.gloss):
            heading = tr("Query: {query} ({gloss}), judged by {annotator}", gloss=gloss, **fields)
        else:
            heading = tr("Query: {query}, judged by {annotator}", **fields)
        data["text/html"] = (
            f'<div lang="{HTML_LANG[self.lang]}"><p>{heading}</p><ol>{rows}</ol></div>'
        )
        data["text/plain"] = repr(self)
        return data, metadata

    def __repr__(self) -> str:
        return tr(
            "JudgingBoard({annotator}, query {position} of {total}: {done} of {n} results judged)",
            lang=self.lang,
            annotator=shown_annotator(self.annotator, self.lang),
            position=self.widget.position + 1,
            total=self.widget.n_queries,
            done=self.summary["n_complete"],
            n=len(self.widget.grades),
        )
