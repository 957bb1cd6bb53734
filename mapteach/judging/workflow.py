"""A lead's calibration round: assign, judge, adjudicate, export, and see where everyone is.

A round lives in one **judging folder**:

- ``assignments.json``: who judges which queries, written by
  :func:`~mapteach.judging.assignment.assign` (its format is documented there);
- one judgments file per annotator, ``judgments_file(annotator, folder)``, which the
  annotator's judging board (``JudgingBoard(annotator=..., folder=folder)``) writes,
  showing them only their queries;
- ``decisions.jsonl``: the lead's decisions on the disagreements
  (:func:`~mapteach.judging.adjudication.adjudicate`).

:func:`~mapteach.judging.adjudication.merged_qrels` writes the adjudicated qrels
file and :func:`judging_status` shows one row per annotator. Relevance (for the
kappas and the re-check count) is a grade of at least
:data:`~mapteach.judging.guideline.RELEVANCE_THRESHOLD`.

Adjudication and the status read the judgments differently, on purpose. The
disagreements the lead decides are in each annotator's **latest** grades: what the
annotators finally said, changes after the reveal included. The status's agreement
figures and re-check counts are **blind**: they use only the grades made before the
annotator saw the reference, so looking at the answer cannot raise them.

Examples
--------
A lead shares three queries of the judging set among three annotators, each query
judged by two of them:

>>> import pathlib, tempfile
>>> from mapteach.judging import (JudgingBoard, adjudicate, assign, judging_status,
...                               judgments_file, load_judging_set, merged_qrels)
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> judging_set = load_judging_set()
>>> queries = [query.query for query in judging_set.queries[:3]]
>>> plan = assign(["ada", "bo", "chen"], queries, overlap=2, seed=1, folder=folder)
>>> for name, assigned in plan.items():
...     print(name, assigned)
ada ['劳动仲裁赔偿标准', '竞业限制补偿金标准']
bo ['竞业限制补偿金标准', '试用期辞退赔偿']
chen ['劳动仲裁赔偿标准', '试用期辞退赔偿']

Each annotator judges their queries on their own board, which shows them only their
queries and appends every grade to ``judgments_file(name, folder)``. Here ada gives
the reference grades, bo one grade more to the 4th result, chen two less to the 6th:

>>> shift = {"ada": (0, 0), "bo": (3, +1), "chen": (5, -2)}
>>> for name, (rank, change) in shift.items():
...     board = JudgingBoard(annotator=name, folder=folder)
...     for number in range(len(plan[name])):
...         if number:
...             board.next_query()
...         for position, result in enumerate(judging_set.find(board.query).results):
...             grade = result.grade + (change if position == rank else 0)
...             board.set_grade(result.doc, max(0, min(3, grade)), reason=result.rule)
>>> sorted(path.name for path in folder.iterdir())
['ada-fdee430d.jsonl', 'assignments.json', 'bo-3d099d0f.jsonl', 'chen-3abd72ec.jsonl']

The lead lists the disagreements, and decides each one:

>>> files = [judgments_file(name, folder) for name in plan]
>>> adjudication = adjudicate(files, decisions=folder / "decisions.jsonl")
>>> adjudication.table[["query", "doc", "ada", "bo", "chen", "decided"]]
                query doc  ada    bo  chen  decided
0    劳动仲裁赔偿标准  r6    2  <NA>     0    False
1  竞业限制补偿金标准  j4    1     2  <NA>    False
>>> try:
...     merged_qrels(files, folder / "decisions.jsonl", folder / "merged.qrels")
... except ValueError as error:
...     print(error)
2 disagreement(s) not decided yet: query '劳动仲裁赔偿标准', document 'r6'; query
'竞业限制补偿金标准', document 'j4'. Decide each with decide(query, doc, grade, reason, who).
>>> _ = adjudication.decide("劳动仲裁赔偿标准", "r6", 2, "R-PART: the amount only", who="lead")
>>> _ = adjudication.decide("竞业限制补偿金标准", "j4", 1, "R-OLD: superseded", who="lead")
>>> path = merged_qrels(files, folder / "decisions.jsonl", folder / "merged.qrels")
>>> lines = path.read_text(encoding="utf-8").splitlines()
>>> len(lines), [line for line in lines if line.split()[2] in ("r6", "j4")]
(30, ['劳动仲裁赔偿标准 0 r6 2', '竞业限制补偿金标准 0 j4 1'])

Where everyone stands (kappas of relevant / not relevant calls):

>>> print(judging_status(folder).round(2).to_string())
           assigned  judged  blind_agreement_reference  agreement_others  to_recheck
annotator
ada               2       2                     1.0000            0.7800           0
bo                2       2                     0.8900            0.8900           1
chen              2       2                     0.8900            0.8900           1
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
from sklearn.metrics import cohen_kappa_score

from mapteach.explain.display import ShownTable
from mapteach.i18n import N_
from mapteach.judging.adjudication import DECISIONS_FILE, Adjudication, adjudicate
from mapteach.judging.assignment import read_assignments
from mapteach.judging.guideline import (
    RELEVANCE_THRESHOLD,
    Guideline,
    JudgingSet,
    load_judging_set,
)
from mapteach.judging.judgments import judgments_file, load_judgments

__all__ = ["STATUS_HEADERS", "StatusTable", "judging_status"]

Item = tuple[str, str]

#: The header that shows each key of :func:`judging_status`'s table.
STATUS_HEADERS: dict[str, str] = {
    "annotator": N_("annotator"),
    "assigned": N_("queries assigned"),
    "judged": N_("queries judged"),
    "blind_agreement_reference": N_("blind kappa with the reference"),
    "agreement_others": N_("mean kappa with the others"),
    "to_recheck": N_("to re-check"),
}


class StatusTable(ShownTable):
    """Where each annotator stands: stable keys, shown with :data:`STATUS_HEADERS`."""

    headers = STATUS_HEADERS


def _relevant(grade: int) -> int:
    return int(grade >= RELEVANCE_THRESHOLD)


def _kappa(pairs: Sequence[tuple[int, int]]) -> float:
    """Plain Cohen's kappa of the relevant / not relevant calls in ``pairs`` of grades.

    NaN with no pair, or when both sides make one and the same call throughout
    (kappa is then 0 / 0).
    """
    first = [_relevant(a) for a, _ in pairs]
    second = [_relevant(b) for _, b in pairs]
    if len(set(first) | set(second)) < 2:
        return math.nan
    return float(cohen_kappa_score(first, second, labels=[0, 1]))


def _targets(
    adjudication: Adjudication, reference: Mapping[str, Mapping[str, int]]
) -> dict[Item, int]:
    """Each item's grade to check against: the lead's decision, else the reference grade,
    else the grade its annotators agree on (none for an undecided disagreement)."""
    decided = adjudication.decisions()
    targets: dict[Item, int] = {}
    for item, grades in adjudication.grades.items():
        query, doc = item
        if item in decided:
            targets[item] = decided[item].grade
        elif doc in reference.get(query, {}):
            targets[item] = reference[query][doc]
        elif len(set(grades.values())) == 1:
            targets[item] = next(iter(grades.values()))
    return targets


def _blind_grades(path: Path) -> dict[Item, int]:
    """The grades of a judgments file made before each query's reference was revealed."""
    judgments = load_judgments(path, phase="blind")
    return {(query, doc): grade for query, docs in judgments.items() for doc, grade in docs.items()}


def _row(
    name: str,
    assigned: Sequence[str],
    latest: Mapping[Item, int],
    blind: Mapping[str, Mapping[Item, int]],
    reference: Mapping[str, Mapping[str, int]],
    targets: Mapping[Item, int],
) -> dict[str, float]:
    """One annotator's row: ``judged`` from their latest grades, the rest from blind ones."""
    mine = blind[name]
    to_reference = [
        (grade, reference[query][doc])
        for (query, doc), grade in mine.items()
        if doc in reference.get(query, {})
    ]
    others = [
        _kappa([(mine[item], theirs[item]) for item in mine if item in theirs])
        for other, theirs in blind.items()
        if other != name
    ]
    defined = [kappa for kappa in others if not math.isnan(kappa)]
    return {
        "assigned": len(assigned),
        "judged": len({query for query, _ in latest} & set(assigned)),
        "blind_agreement_reference": _kappa(to_reference),
        "agreement_others": float(np.mean(defined)) if defined else math.nan,
        "to_recheck": sum(
            _relevant(grade) != _relevant(targets[item])
            for item, grade in mine.items()
            if item in targets
        ),
    }


def judging_status(
    folder: str | os.PathLike[str],
    *,
    judging_set: JudgingSet | None = None,
    decisions: str | os.PathLike[str] | None = None,
    guideline: Guideline | None = None,
) -> StatusTable:
    """Where each annotator of a judging folder stands: one row per annotator of the plan.

    Parameters
    ----------
    folder : path
        The judging folder: its ``assignments.json`` names the annotators, and each
        one's judgments are in ``judgments_file(annotator, folder)``.
    judging_set : JudgingSet, optional
        Whose reference grades the blind judgments are compared with (default: the
        package's judging set).
    decisions : path, optional
        The lead's decisions log (default: ``folder/decisions.jsonl``, if it exists).
    guideline : Guideline, optional
        The guideline the judgments were made under (default: the package's), as
        :func:`~mapteach.judging.adjudication.adjudicate`.

    Returns
    -------
    StatusTable
        Keyed for code (``.display()`` shows it to people), index ``annotator`` (in
        the plan's order), columns

        - ``assigned``: the queries assigned to the annotator;
        - ``judged``: how many of them the annotator has graded a result of (in
          their latest grades);
        - ``blind_agreement_reference``: plain Cohen's kappa of the annotator's blind
          judgments (made before the reference was revealed) with the reference grades,
          over the results the judging set grades; NaN if there are none (a folder
          whose queries are not the judging set's);
        - ``agreement_others``: plain Cohen's kappa of the annotator's blind judgments
          with each other annotator's blind judgments, over the results both graded
          blind, averaged over the others (NaN: no shared results, or kappa undefined
          for every pair);
        - ``to_recheck``: the results where the relevant / not relevant call of the
          annotator's blind judgment differs from the lead's decision, else from the
          reference grade, else from the grade the annotators agree on.

        Kappas compare the calls grade >= ``RELEVANCE_THRESHOLD``. Every figure but
        ``judged`` is blind, so a grade changed after looking at the reference
        neither raises the agreement nor clears a re-check. The disagreements the
        lead decides (:func:`~mapteach.judging.adjudication.adjudicate`) and the
        agreed grades the re-checks are measured against are in the latest grades:
        what the annotators finally said.

    Raises
    ------
    ValueError
        As :func:`~mapteach.judging.assignment.read_assignments` and
        :func:`~mapteach.judging.adjudication.adjudicate`.

    Examples
    --------
    A round just assigned (the module's example shows one judged and adjudicated):

    >>> import tempfile
    >>> from mapteach.judging import assign, judging_status
    >>> folder = tempfile.mkdtemp()
    >>> _ = assign(["ada", "bo"], ["劳动仲裁赔偿标准"], overlap=2, folder=folder)
    >>> status = judging_status(folder)
    >>> status[["assigned", "judged", "to_recheck"]]
               assigned  judged  to_recheck
    annotator
    ada               1       0           0
    bo                1       0           0
    >>> status.display(lang="zh").columns[:2].tolist()
    ['分配的查询数', '已标注的查询数']
    """
    plan = read_assignments(folder)
    files = {name: judgments_file(name, folder) for name in plan}
    log_path = Path(folder) / DECISIONS_FILE if decisions is None else Path(decisions)
    adjudication = adjudicate(list(files.values()), log_path, guideline=guideline)
    reference = (judging_set or load_judging_set()).gold()
    targets = _targets(adjudication, reference)
    latest = {
        name: {item: grades[name] for item, grades in adjudication.grades.items() if name in grades}
        for name in plan
    }
    blind = {name: _blind_grades(files[name]) for name in plan}
    rows = {name: _row(name, plan[name], latest[name], blind, reference, targets) for name in plan}
    table = StatusTable.from_dict(rows, orient="index")
    table.index.name = "annotator"
    return table
