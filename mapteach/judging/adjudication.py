"""Adjudication: every disagreement among the annotators, the lead's decisions, one qrels file.

:func:`adjudicate` reads the annotators' judgments files (one per annotator, as the
judging board writes them) and takes each annotator's latest grade of each result.
An **item** (a query and a document) is a **disagreement** when the annotators who
graded it gave different grades; it is **agreed** when they all gave the same one
(an item only one annotator graded is agreed). The lead decides each disagreement
with :meth:`Adjudication.decide`; every decision is appended, with its time, to the
decisions log, an append-only JSON-lines file (:mod:`mapteach.log`), one line per
decision::

    {"query": "q1", "doc": "r4", "grade": 2, "reason": "R-PART: the amount only",
     "who": "lead", "time": "2026-11-30T15:00:00Z"}

Nothing in the log is ever changed: deciding an item again appends a new line, and
the latest decision of each item wins. Opening the same files and log again shows
what is decided. The lead's decision, where there is one, is the item's grade;
otherwise the agreed grade is. :func:`merged_qrels` writes those grades as one TREC
qrels file, and refuses while any disagreement is undecided (naming each one):
a grade is never guessed.

Nothing goes into the qrels unchecked: every line of every judgments file must be
made under the guideline's version and every grade, judged or decided, must be on
its scale (the errors name the file, the line, the query and the document); a
decision for an item no judgments file holds is refused too.

Introduced for the lead of a calibration round (see :mod:`mapteach.judging.workflow`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pandas as pd

import mapteach.log as log
from mapteach.explain.display import ShownTable
from mapteach.i18n import N_, tr
from mapteach.judging.guideline import Guideline, load_guideline
from mapteach.judging.judgments import Event, read_events, replay, to_qrels

__all__ = [
    "ADJUDICATION_HEADERS",
    "DECISIONS_FILE",
    "Adjudication",
    "AdjudicationTable",
    "Decision",
    "adjudicate",
    "merged_qrels",
]

#: The usual name of the decisions log in a judging folder.
DECISIONS_FILE = "decisions.jsonl"

Item = tuple[str, str]

#: The header that shows each fixed key of :attr:`Adjudication.table` (the annotators'
#: columns are headed by their names).
ADJUDICATION_HEADERS: dict[str, str] = {
    "query": N_("query"),
    "doc": N_("doc"),
    "decided": N_("decided"),
    "decision": N_("decided grade"),
    "reason": N_("reason"),
    "who": N_("decided by"),
    "time": N_("time"),
}
_TEXT_FIELDS = ("query", "doc", "reason", "who", "time")
#: The columns of :attr:`Adjudication.table` after the annotators' grades.
_DECISION_COLUMNS = ("decided", "decision", "reason", "who", "time")


class AdjudicationTable(ShownTable):
    """The disagreements: stable keys, shown with :data:`ADJUDICATION_HEADERS` by ``display()``."""

    headers = ADJUDICATION_HEADERS

    def display(self, *, lang: str | None = None, digits: int | None = None) -> Any:
        """As :meth:`ShownTable.display`, but not rounded by default: the grades stay
        integers (``<NA>``: not graded)."""
        return super().display(lang=lang, digits=digits)


@dataclass(frozen=True)
class Decision:
    """The lead's grade for one item, why, who decided and when (ISO 8601, UTC)."""

    query: str
    doc: str
    grade: int
    reason: str
    who: str
    time: str


def _decision(record: Any, where: str) -> Decision:
    """The decision ``record`` (at ``where``, a file and line) holds; a ValueError if none."""
    fields = [*_TEXT_FIELDS, "grade"]
    log.check_object(
        record,
        where,
        fields,
        N_("{where}: not a decision (missing fields {missing}, unknown fields {extra})."),
    )
    for field in _TEXT_FIELDS:
        if not isinstance(record[field], str) or not record[field].strip():
            raise ValueError(
                tr("{where}: field {field!r} is not a non-empty string.", where=where, field=field)
            )
    grade = record["grade"]
    if isinstance(grade, bool) or not isinstance(grade, int) or grade < 0:
        raise ValueError(
            tr("{where}: grade {grade!r} is not a grade (0, 1, 2, ...).", where=where, grade=grade)
        )
    if log.parse_time(record["time"]) is None:
        raise ValueError(
            tr(
                "{where}: time {time!r} is not ISO 8601 with a time zone.",
                where=where,
                time=record["time"],
            )
        )
    return Decision(**record)


#: What a decisions log holds, for :mod:`mapteach.log`.
DECISIONS = log.Schema(N_("decisions"), _decision, N_("Decide it again."))


def _located(path: Path, line: int, item: Item) -> str:
    """Where a line is: its file and number, and the query and document it is about."""
    where = tr("{name}, line {line}", name=os.fsdecode(path), line=line)
    query, doc = item
    return tr("{where} (query {query!r}, document {doc!r})", where=where, query=query, doc=doc)


def _check_grade(grade: Any, scale: Sequence[int], where: str) -> None:
    """Raise a ValueError beginning with ``where`` unless ``grade`` is a grade of ``scale``."""
    if isinstance(grade, bool) or not isinstance(grade, int) or grade not in scale:
        raise ValueError(
            tr(
                "{item}: grade {grade!r} is not on the guideline's scale ({scale}).",
                item=where,
                grade=grade,
                scale=", ".join(map(str, scale)),
            )
        )


def _check_event(path: Path, line: int, event: Event, guideline: Guideline) -> None:
    """Raise a ValueError naming the line unless it is made under ``guideline``, on its scale."""
    where = _located(path, line, (event.query, event.doc))
    if event.guideline != guideline.version:
        raise ValueError(
            tr(
                "{where}: judged under guideline {saved!r}, not {version!r}; judgments "
                "made under different versions cannot be adjudicated together (pass "
                "guideline= the guideline they were made under).",
                where=where,
                saved=event.guideline,
                version=guideline.version,
            )
        )
    if event.grade is not None:
        _check_grade(event.grade, [grade.grade for grade in guideline.scale], where)


def _file_grades(path: Path, guideline: Guideline) -> tuple[str, dict[Item, int], set[Item]] | None:
    """The annotator of a judgments file, their latest grade of each item, and every item
    the file has a line about (None: the file holds no judgment)."""
    events = read_events(path)
    for line, event in events:
        _check_event(path, line, event, guideline)
    names = sorted({event.annotator for _, event in events})
    if not names:
        return None
    if len(names) > 1:
        raise ValueError(
            tr(
                "{file}: holds the judgments of several annotators ({names}); "
                "give one file per annotator.",
                file=os.fsdecode(path),
                names=", ".join(names),
            )
        )
    state = replay(events)
    grades = {
        (query, doc): event.grade for query, docs in state.items() for doc, event in docs.items()
    }
    held = {(event.query, event.doc) for _, event in events}
    return names[0], {item: grade for item, grade in grades.items() if grade is not None}, held


def _read_files(
    files: Iterable[str | os.PathLike[str]], guideline: Guideline
) -> tuple[dict[str, dict[Item, int]], set[Item]]:
    """Each annotator's latest grades, annotators in the order of their files, and every
    item some file has a line about."""
    graded: dict[str, dict[Item, int]] = {}
    held: set[Item] = set()
    seen: dict[str, Path] = {}
    for file in files:
        path = Path(file)
        found = _file_grades(path, guideline)
        if found is None:
            continue
        name, grades, items = found
        if name in seen:
            raise ValueError(
                tr(
                    "annotator {name!r} has two judgments files, {first} and {second}; "
                    "give one file per annotator.",
                    name=name,
                    first=os.fsdecode(seen[name]),
                    second=os.fsdecode(path),
                )
            )
        seen[name] = path
        graded[name] = grades
        held |= items
    return graded, held


def _by_item(graded: Mapping[str, Mapping[Item, int]]) -> dict[Item, dict[str, int]]:
    """Each item someone graded (in the order first met) and its grade from each annotator."""
    items: dict[Item, dict[str, int]] = {}
    for name, grades in graded.items():
        for item, grade in grades.items():
            items.setdefault(item, {})[name] = grade
    return items


def _decision_cells(decision: Decision | None) -> dict[str, Any]:
    """The decision columns of one row of :attr:`Adjudication.table`."""
    if decision is None:
        return {"decided": False, **dict.fromkeys(_DECISION_COLUMNS[1:])}
    given = {field: getattr(decision, field) for field in ("reason", "who", "time")}
    return {"decided": True, "decision": decision.grade, **given}


def _described(item: Item) -> str:
    return tr("query {query!r}, document {doc!r}", query=item[0], doc=item[1])


class Adjudication:
    """The disagreements among annotators' judgments, and the lead's decisions on them.

    Made by :func:`adjudicate`. :attr:`table` lists every disagreement;
    :meth:`decide` records a decision; :meth:`merged` gives the adjudicated
    judgments. Every read of the decisions goes to the log, so what another
    session decided is seen too.

    Attributes
    ----------
    annotators : tuple of str
        The annotators whose files were read, in the order of their files.
    grades : dict
        ``{(query, doc): {annotator: grade}}``: each annotator's latest grade of
        every item someone graded.
    held : frozenset of (str, str)
        Every item some judgments file has a line about (graded, or graded and then
        cleared): the only items a decision can be for.
    decisions_file : Path or None
        The decisions log (None: no decisions, and :meth:`decide` refuses).
    """

    def __init__(
        self,
        graded: Mapping[str, Mapping[Item, int]],
        held: Iterable[Item],
        decisions: Path | None,
        guideline: Guideline,
    ) -> None:
        self.annotators = tuple(graded)
        self.grades = _by_item(graded)
        self.held = frozenset(held)
        self.decisions_file = decisions
        self._scale = tuple(grade.grade for grade in guideline.scale)

    def decisions(self) -> dict[Item, Decision]:
        """The latest decision of each item, as the decisions log holds them now; a
        ValueError for a line that is not a decision or whose grade is off the
        guideline's scale (naming the file, the line, the query and the document)."""
        if self.decisions_file is None:
            return {}
        latest: dict[Item, Decision] = {}
        for line, decision in log.read(self.decisions_file, DECISIONS, missing_ok=True):
            item = (decision.query, decision.doc)
            _check_grade(decision.grade, self._scale, _located(self.decisions_file, line, item))
            latest[item] = decision
        return latest

    def disagreements(self) -> list[Item]:
        """Every item its annotators graded differently, in the order first graded."""
        return [item for item, grades in self.grades.items() if len(set(grades.values())) > 1]

    def undecided(self) -> list[Item]:
        """The disagreements with no decision yet."""
        decided = self.decisions()
        return [item for item in self.disagreements() if item not in decided]

    @property
    def table(self) -> AdjudicationTable:
        """Every disagreement, one row each (see :func:`adjudicate`)."""
        decided = self.decisions()
        rows = [
            {
                "query": item[0],
                "doc": item[1],
                **{name: self.grades[item].get(name) for name in self.annotators},
                **_decision_cells(decided.get(item)),
            }
            for item in self.disagreements()
        ]
        table = AdjudicationTable(
            rows, columns=["query", "doc", *self.annotators, *_DECISION_COLUMNS]
        )
        for column in [*self.annotators, "decision"]:
            table[column] = table[column].astype("Int64")
        table["decided"] = table["decided"].astype(bool)
        return table

    def display(self, *, lang: str | None = None) -> pd.DataFrame:
        """:attr:`table` for people: headers in the current language (or ``lang``)."""
        return self.table.display(lang=lang)

    def __repr__(self) -> str:
        return repr(self.table)

    def _repr_html_(self) -> str | None:
        return self.table._repr_html_()

    def _check_decision(self, item: Item, grade: Any, reason: Any, who: Any) -> None:
        grades = self.grades.get(item)
        if grades is None:
            raise ValueError(
                tr(
                    "{item}: no annotator graded it; there is nothing to decide.",
                    item=_described(item),
                )
            )
        if len(set(grades.values())) == 1:
            raise ValueError(
                tr(
                    "{item}: not a disagreement (every annotator graded it {grade}); "
                    "only disagreements are decided.",
                    item=_described(item),
                    grade=next(iter(grades.values())),
                )
            )
        _check_grade(grade, self._scale, _described(item))
        for field, value in (("reason", reason), ("who", who)):
            if not isinstance(value, str) or not value.strip():
                raise ValueError(
                    tr(
                        "{item}: a decision needs {field} (a non-empty string); got {value!r}.",
                        item=_described(item),
                        field=field,
                        value=value,
                    )
                )

    def decide(self, query: str, doc: str, grade: int, reason: str, who: str) -> Decision:
        """Decide the grade of one disagreement; append the decision to the log; return it.

        Parameters
        ----------
        query, doc : str
            The item: it must be a disagreement.
        grade : int
            A grade of the guideline's scale.
        reason : str
            Why (the rule it applies, for example ``"R-DUP: a copy of r1"``); not empty.
        who : str
            Who decided; not empty.

        Raises
        ------
        ValueError
            Naming the item, for an item that is not a disagreement, a grade off the
            scale, an empty reason or an empty ``who``; nothing is written.
        """
        item = (query, doc)
        if self.decisions_file is None:
            raise ValueError(
                tr(
                    "{item}: this adjudication has no decisions log; open it with "
                    "adjudicate(files, decisions=PATH).",
                    item=_described(item),
                )
            )
        self._check_decision(item, grade, reason, who)
        decision = Decision(query, doc, grade, reason, who, log.now())
        log.append(self.decisions_file, asdict(decision), DECISIONS)
        return decision

    def merged(self) -> dict[str, dict[str, int]]:
        """The adjudicated judgments ``{query: {doc: grade}}``: decided, else agreed.

        Raises
        ------
        ValueError
            Naming every undecided disagreement (query and document); or every decision
            for an item no judgments file holds (written by hand, or a file left out).
        """
        undecided = self.undecided()
        if undecided:
            raise ValueError(
                tr(
                    "{count} disagreement(s) not decided yet: {items}. Decide each with "
                    "decide(query, doc, grade, reason, who).",
                    count=len(undecided),
                    items="; ".join(map(_described, undecided)),
                )
            )
        decided = self.decisions()
        unknown = [item for item in decided if item not in self.held]
        if unknown:
            raise ValueError(
                tr(
                    "{file}: {count} decision(s) for items no judgments file holds: {items}. "
                    "A decision is only for an item an annotator judged; give every "
                    "annotator's judgments file.",
                    file=os.fsdecode(self.decisions_file or ""),
                    count=len(unknown),
                    items="; ".join(map(_described, unknown)),
                )
            )
        merged: dict[str, dict[str, int]] = {}
        for item in [*self.grades, *(item for item in decided if item not in self.grades)]:
            grade = (
                decided[item].grade if item in decided else next(iter(self.grades[item].values()))
            )
            merged.setdefault(item[0], {})[item[1]] = grade
        return merged


def _paths(files: Any) -> list[Path]:
    if isinstance(files, (str, bytes, os.PathLike)) or not isinstance(files, Iterable):
        raise TypeError(
            tr(
                "files must be a list of judgments files (one per annotator); got {kind}.",
                kind=type(files).__name__,
            )
        )
    return [Path(file) for file in files]


def adjudicate(
    files: Iterable[str | os.PathLike[str]],
    decisions: str | os.PathLike[str] | None,
    *,
    guideline: Guideline | None = None,
) -> Adjudication:
    """Every disagreement among the annotators' judgments files, and the decisions on them.

    Parameters
    ----------
    files : iterable of paths
        One judgments file per annotator (as the judging board writes them); each
        annotator's latest grade of each result counts. A file that does not exist
        or holds nothing is skipped (an annotator who has not started).
    decisions : path or None
        The decisions log: read if it exists, created by the first decision. None:
        no decisions (to list the disagreements only).
    guideline : Guideline, optional
        The guideline the judgments were made under: every line of every file must
        name its version, and every grade (judged or decided) be on its scale
        (default: the package's guideline).

    Returns
    -------
    Adjudication
        Its :attr:`~Adjudication.table` is keyed for code (``.display()`` shows it to
        people): one row per disagreement, in the order first graded, columns

        - ``query``, ``doc``: the item;
        - one column per annotator, named by the annotator: their grade (``<NA>``:
          not graded);
        - ``decided``: whether the lead has decided it;
        - ``decision``, ``reason``, ``who``, ``time``: the latest decision (empty
          while undecided).

    Raises
    ------
    ValueError
        For a file holding several annotators, an annotator with two files, an
        annotator named like a column of the table, the decisions log among the
        files, a line of a file that is not a judgment or a decision (naming the
        file and the line), or a judgment made under another guideline version or
        a grade off its scale (naming the file, the line, the query and the document).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from mapteach.judging import Event, adjudicate, append_event
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> for name, grades in [("ada", [3, 0]), ("bo", [2, 0]), ("chen", [3, 0])]:
    ...     for doc, grade in zip(["r1", "r2"], grades):
    ...         append_event(folder / f"{name}.jsonl",
    ...                      Event.now(name, "q1", doc, grade, "R-AUTH", "2026.1"))
    >>> files = [folder / f"{name}.jsonl" for name in ["ada", "bo", "chen"]]
    >>> adjudication = adjudicate(files, decisions=folder / "decisions.jsonl")
    >>> adjudication.table[["query", "doc", "ada", "bo", "chen", "decided"]]
      query doc  ada  bo  chen  decided
    0    q1  r1    3   2     3    False
    >>> _ = adjudication.decide("q1", "r1", 3, "R-AUTH: the statute itself", who="lead")
    >>> adjudicate(files, decisions=folder / "decisions.jsonl").merged()
    {'q1': {'r1': 3, 'r2': 0}}
    >>> try:
    ...     adjudication.decide("q1", "r2", 1, "R-PART", who="lead")
    ... except ValueError as error:
    ...     print(error)
    query 'q1', document 'r2': not a disagreement (every annotator graded it 0); only
    disagreements are decided.

    A file made under another version of the guideline is refused:

    >>> append_event(folder / "dan.jsonl", Event.now("dan", "q1", "r1", 2, "", "1999.0"))
    >>> try:
    ...     adjudicate([*files, folder / "dan.jsonl"], decisions=None)
    ... except ValueError as error:
    ...     print(str(error).replace(str(folder), "FOLDER"))
    FOLDER/dan.jsonl, line 1 (query 'q1', document 'r1'): judged under guideline '1999.0',
    not '2026.1'; judgments made under different versions cannot be adjudicated together
    (pass guideline= the guideline they were made under).
    """
    paths = _paths(files)
    guideline = guideline or load_guideline()
    log_path = None if decisions is None else Path(decisions)
    for path in paths:
        if log_path is not None and os.path.abspath(path) == os.path.abspath(log_path):
            raise ValueError(
                tr(
                    "{file} is the decisions log; it cannot be a judgments file too.",
                    file=os.fsdecode(path),
                )
            )
    graded, held = _read_files(paths, guideline)
    reserved = {"query", "doc", *_DECISION_COLUMNS}
    for name in graded:
        if name in reserved:
            raise ValueError(
                tr(
                    "annotator {name!r} has the name of a column of the adjudication table "
                    "({columns}); rename the annotator.",
                    name=name,
                    columns=", ".join(sorted(reserved)),
                )
            )
    return Adjudication(graded, held, log_path, guideline)


def merged_qrels(
    files: Iterable[str | os.PathLike[str]],
    decisions: str | os.PathLike[str] | None,
    path: str | os.PathLike[str],
    *,
    guideline: Guideline | None = None,
) -> Path:
    """Write the adjudicated judgments as one TREC qrels file; return its path.

    Each item's grade is the lead's latest decision, else the grade its annotators
    agree on (see :func:`adjudicate`); queries and documents in the order first
    graded.

    Parameters
    ----------
    files, decisions, guideline
        As :func:`adjudicate` (``decisions=None``: every item must be agreed).
    path : path
        The qrels file to write.

    Raises
    ------
    ValueError
        If a disagreement is not decided, or a decision is for an item no file
        holds (the message names each query and document; nothing is written), or
        as :func:`adjudicate` and :func:`~mapteach.judging.judgments.to_qrels`.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from mapteach.judging import Event, append_event, merged_qrels
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> for name, grade in [("ada", 2), ("bo", 1)]:
    ...     append_event(folder / f"{name}.jsonl", Event.now(name, "q1", "r1", grade, "", "2026.1"))
    >>> files = [folder / "ada.jsonl", folder / "bo.jsonl"]
    >>> try:
    ...     merged_qrels(files, None, folder / "merged.qrels")
    ... except ValueError as error:
    ...     print(error)
    1 disagreement(s) not decided yet: query 'q1', document 'r1'. Decide each with
    decide(query, doc, grade, reason, who).
    """
    return to_qrels(adjudicate(files, decisions, guideline=guideline).merged(), path)
