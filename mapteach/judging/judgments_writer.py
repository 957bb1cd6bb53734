"""One annotator's judgments file as a judging board writes it: one writer per file.

A :class:`JudgmentsWriter` reads the file once (checking that every line fits the
annotator, the guideline and the judging set), keeps what it holds, and appends each
change through :func:`mapteach.judging.judgments.append_event`, numbered with the next
sequence number and carrying its phase (``after_reveal`` once the query's reference
has been shown, which is a line of its own).

Before each append, and whenever asked (:meth:`JudgmentsWriter.check_for_others`: a
board asks each time its browser view looks, every few seconds), it reads the file's
last line (:func:`~mapteach.judging.judgments.last_record`). If that is not the line
it last read or wrote, another writer has appended since: the writer reads the file
again, becomes read-only and writes nothing more, so what it shows is what the file
holds. No lock is held between appends (a board's own appends would wait on it).

Examples
--------
>>> import pathlib, tempfile
>>> from mapteach.judging import load_guideline, load_judging_set
>>> path = pathlib.Path(tempfile.mkdtemp()) / "alice.jsonl"
>>> guideline, judging_set = load_guideline(), load_judging_set()
>>> first = JudgmentsWriter(path, "alice", guideline, judging_set)
>>> second = JudgmentsWriter(path, "alice", guideline, judging_set)  # another tab
>>> first.save("劳动仲裁赔偿标准", "r1", 3, "")
True
>>> second.save("劳动仲裁赔偿标准", "r2", 0, "")  # it finds a line it did not write
False
>>> second.read_only, second.judgments == first.judgments == {"劳动仲裁赔偿标准": {"r1": 3}}
(True, True)
>>> third = JudgmentsWriter(path, "alice", guideline, judging_set)  # a newer tab writes
>>> third.save("劳动仲裁赔偿标准", "r1", 0, "")
True
>>> first.check_for_others(), first.read_only, first.judgments  # the older one is told
(True, True, {'劳动仲裁赔偿标准': {'r1': 0}})
>>> third.check_for_others()  # nobody else wrote
False
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from mapteach.i18n import tr
from mapteach.judging.guideline import Guideline, JudgingSet
from mapteach.judging.judgments import (
    JUDGMENTS,
    Event,
    Reveal,
    append_event,
    last_record,
    read_records,
    replay,
)

__all__ = ["JudgmentsWriter"]

Record = Event | Reveal


class JudgmentsWriter:
    """One annotator's judgments file, read once and then appended to (see the module notes).

    Parameters
    ----------
    path : path
        The judgments file; it need not exist yet.
    annotator : str
        Whose file it is: every line must be theirs.
    guideline : Guideline
        The guideline the judgments are made under: every line must name its version.
    judging_set : JudgingSet
        The queries and results judged: every line must name one of them.

    Raises
    ------
    ValueError
        Naming the file and line, for a line that does not fit (see
        :func:`~mapteach.judging.judgments.read_records` for lines that are not judgments).
    """

    def __init__(
        self, path: str | os.PathLike, annotator: str, guideline: Guideline, judging_set: JudgingSet
    ) -> None:
        self.path = Path(path)
        self.annotator = annotator
        self.guideline = guideline
        self.judging_set = judging_set
        #: True once another writer appended: nothing more is written.
        self.read_only = False
        #: Why the last append failed (empty: it did not).
        self.error = ""
        self.read()

    def read(self) -> None:
        """Replay the file; note its last line and its last sequence number."""
        records = read_records(self.path)
        for line, record in records:
            self.check(record, line)
        events = [(line, record) for line, record in records if isinstance(record, Event)]
        #: What the file holds: ``{query: {doc: (grade, reason)}}``.
        self.judged: dict[str, dict[str, tuple[int, str]]] = {
            query: {doc: (e.grade, e.reason) for doc, e in saved.items() if e.grade is not None}
            for query, saved in replay(events).items()
        }
        #: The queries whose reference has been shown: their changes are after_reveal.
        self.revealed = {r.query for _, r in records if isinstance(r, Reveal)} | {
            e.query for _, e in events if e.phase == "after_reveal"
        }
        #: The line read or written last (None: the file has none).
        self.last: Record | None = records[-1][1] if records else None
        self.seq = max((r.seq or 0 for _, r in records), default=0)

    def check(self, record: Record, line: int) -> None:
        """Raise a ValueError naming ``line`` if ``record`` does not fit this file."""
        doc = record.doc if isinstance(record, Event) else ""
        where = tr(
            "{path}, line {line} (query {query!r}, document {doc!r})",
            path=self.path,
            line=line,
            query=record.query,
            doc=doc,
        )
        if record.annotator != self.annotator:
            raise ValueError(
                tr(
                    "{where}: judged by {judge!r}, not {annotator!r}; "
                    "give each annotator a file of their own.",
                    where=where,
                    judge=record.annotator,
                    annotator=self.annotator,
                )
            )
        if record.guideline != self.guideline.version:
            raise ValueError(
                tr(
                    "{where}: judged under guideline {saved!r}, not {version!r}; "
                    "start a new file for the new version.",
                    where=where,
                    saved=record.guideline,
                    version=self.guideline.version,
                )
            )
        try:
            known = [r.doc for r in self.judging_set.find(record.query).results]
        except KeyError as error:
            raise ValueError(f"{where}: {error.args[0]}") from None
        if isinstance(record, Event):
            self._check_judgment(where, record, known)

    def _check_judgment(self, where: str, event: Event, known: list[str]) -> None:
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

    # --- other writers -----------------------------------------------------------------

    def check_for_others(self) -> bool:
        """Whether another writer appended since this one last read or wrote the file.

        If one did, the file is read again (:attr:`judged`, :attr:`revealed` are what it
        holds now) and the writer turns read-only. A read-only writer goes on following
        the file: each call reads it again if it has grown (see the module's example).
        A last line that does not fit the file (another annotator's) turns it read-only
        too; a file that cannot be read at all is not taken for another writer. Either
        way :attr:`error` says why.

        Returns
        -------
        bool
            True if the file holds lines this writer had not seen: it has read them now,
            or :attr:`error` says why it could not.
        """
        try:
            if last_record(self.path) == self.last:
                return False
            self.read_only = True
            self.read()
        except (OSError, ValueError) as error:
            self.error = tr("Could not read {path}: {error}", path=self.path, error=error)
            return self.read_only
        return True

    # --- appending ---------------------------------------------------------------------

    def _append(self, make: Callable[[int], Record]) -> bool:
        """Append ``make(seq)`` unless another writer appended since this one last looked
        (then read the file again and turn read-only); True if it was written."""
        if self.read_only or self.check_for_others():
            return False
        try:
            record = make(self.seq + 1)
            append_event(self.path, record)
        except (OSError, ValueError) as error:
            self.error = tr("Could not write to {path}: {error}", path=self.path, error=error)
            return False
        self.last, self.seq, self.error = record, self.seq + 1, ""
        return True

    def phase(self, query: str) -> str:
        """The phase a change to ``query``'s judgments is recorded with now."""
        return "after_reveal" if query in self.revealed else "blind"

    def save(self, query: str, doc: str, grade: int | None, reason: str, time: str = "") -> bool:
        """Append the judgment of ``doc`` (``grade=None``: a clear), made at ``time``
        (default now); True if it was written."""
        phase, version = self.phase(query), self.guideline.version

        def event(seq: int) -> Event:
            made = Event.now(self.annotator, query, doc, grade, reason, version, phase=phase)
            return dataclasses.replace(made, time=time or made.time, seq=seq)

        if not self._append(event):
            return False
        judged = self.judged.setdefault(query, {})
        if grade is None:
            judged.pop(doc, None)
        else:
            judged[doc] = (grade, reason)
        return True

    def reveal(self, query: str) -> None:
        """Note that ``query``'s reference has been shown (a line of the file, the first time)."""
        if query not in self.revealed:
            version = self.guideline.version
            self._append(lambda seq: Reveal.now(self.annotator, query, version, seq=seq))
            self.revealed.add(query)

    # --- judgments kept elsewhere --------------------------------------------------------

    def kept(self, entries: Iterable[Any]) -> tuple[list[Event], list[str]]:
        """The judgments among ``entries`` (JSON objects: what a browser kept) that fit this
        file, and why the others do not."""
        events, refused = [], []
        for number, entry in enumerate(entries, start=1):
            where = tr("{file}, unsaved judgment {number}", file=self.path, number=number)
            try:
                event = JUDGMENTS.validate(entry, where)
                if not isinstance(event, Event):
                    raise ValueError(tr("{where}: not a judgment.", where=where))
                self.check(event, number)
            except ValueError as error:
                refused.append(str(error))
                continue
            events.append(event)
        return events, refused

    def restore(self, events: Iterable[Event]) -> int:
        """Append the judgments the file does not hold yet, in order, with their time;
        return how many were written.

        A judgment kept as ``after_reveal`` marks its query revealed; one kept as blind
        of a query revealed since is written as ``after_reveal`` (when in doubt, not blind).
        """
        written = 0
        for event in events:
            wanted = None if event.grade is None else (event.grade, event.reason)
            if self.judged.get(event.query, {}).get(event.doc) == wanted:
                continue
            if event.phase == "after_reveal":
                self.revealed.add(event.query)
            if not self.save(event.query, event.doc, event.grade, event.reason, event.time):
                break
            written += 1
        return written

    @property
    def judgments(self) -> dict[str, dict[str, int]]:
        """Every grade the file holds, ``{query: {doc: grade}}``."""
        return {
            query: {doc: grade for doc, (grade, _) in docs.items()}
            for query, docs in self.judged.items()
            if docs
        }
