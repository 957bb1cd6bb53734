"""A calibration round's report: each annotator against the reference, and a simulated annotator."""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import cohen_kappa_score, confusion_matrix

from mapteach.i18n import N_, tr
from mapteach.judging.annotator_agreement import kappa_reading
from mapteach.judging.guideline import RELEVANCE_THRESHOLD, load_judging_set
from mapteach.judging.judgments import read_events, replay
from mapteach.judging.sensitivity import (
    JudgingSeries,
    JudgingTable,
    Judgments,
    check_grades,
    flip_sensitivity,
)
from mapteach.metrics import average_precision

__all__ = [
    "LEGAL_RESULTS",
    "CalibrationReport",
    "calibration_report",
    "judging_summary",
    "simulate_annotator",
]


@dataclass(frozen=True)
class CalibrationReport:
    """How one annotator's blind grades compare with the gold (reference) grades.

    Only blind judgments count: those made before the reference of their query was
    revealed. A change made after the reveal is counted in :attr:`after_reveal` and
    scored nowhere, so looking at the answer cannot raise these numbers.
    """

    #: Share of documents graded exactly as the gold.
    accuracy: float
    #: Cohen's kappa over the grades, unweighted: :attr:`accuracy` corrected for chance.
    #: The one kappa that IIR's scale reads (:func:`interpret_kappa`).
    kappa: float
    #: Cohen's kappa over the grades, linear weights: a miss by one grade earns part credit.
    kappa_linear: float
    #: Cohen's kappa over the grades, quadratic weights: a miss by one grade earns more credit.
    kappa_quadratic: float
    #: Counts: rows the gold grade, columns the annotator's.
    confusion: pd.DataFrame
    #: Mean of (annotator's grade - gold grade): above 0 grades too high, below 0 too low.
    bias: float
    #: Documents of the annotator's queries (assigned or judged) without a blind grade,
    #: left out of the numbers above.
    missing: int
    #: The documents to re-check first: one row per binary disagreement, largest AP move first.
    recheck: pd.DataFrame
    #: Changes recorded after the reference was revealed: counted, never scored.
    after_reveal: int = 0
    #: Records written before judgments had a phase: counted as blind.
    no_phase: int = 0

    @property
    def tendency(self) -> str:
        """``"too high"``, ``"too low"`` or ``"balanced"`` (within a tenth of a grade), in
        the current language; ``"no grades"`` when nothing was graded (the bias is NaN)."""
        return tr(self._tendency)

    @property
    def _tendency(self) -> str:
        if math.isnan(self.bias):
            return N_("no grades")
        if self.bias > 0.1:
            return N_("too high")
        return N_("too low") if self.bias < -0.1 else N_("balanced")

    def row(self) -> dict[str, object]:
        """The headline numbers, keyed for code, for a table with one row per annotator.

        Show one with :meth:`display`, a table of several with
        :func:`~mapteach.explain.display.display_table`
        (``display_table(pd.DataFrame({name: r.row() ...}).T)``).

        Returns
        -------
        dict
            - ``accuracy``: :attr:`accuracy`;
            - ``kappa``: :attr:`kappa` (Cohen's, unweighted);
            - ``reading``: what that kappa says on IIR's scale (an English message,
              :func:`~mapteach.judging.annotator_agreement.kappa_reading`; "no reading"
              when kappa is undefined). The weighted kappas get no reading: IIR's scale
              is for plain kappa;
            - ``kappa_linear``, ``kappa_quadratic``: :attr:`kappa_linear`,
              :attr:`kappa_quadratic`, shown with their weighting named;
            - ``bias``: :attr:`bias`;
            - ``tendency``: ``"too high"``, ``"too low"`` or ``"balanced"`` (an
              English message);
            - ``missing``: :attr:`missing`;
            - ``after_reveal``: :attr:`after_reveal`;
            - ``no_phase``: :attr:`no_phase`;
            - ``to_recheck``: the number of documents in :attr:`recheck`.
        """
        return {
            "accuracy": self.accuracy,
            "kappa": self.kappa,
            "reading": _reading(self.kappa),
            "kappa_linear": self.kappa_linear,
            "kappa_quadratic": self.kappa_quadratic,
            "bias": self.bias,
            "tendency": self._tendency,
            "missing": self.missing,
            "after_reveal": self.after_reveal,
            "no_phase": self.no_phase,
            "to_recheck": len(self.recheck),
        }

    def display(self, *, lang: str | None = None, digits: int | None = 4) -> pd.Series:
        """:meth:`row`'s display form: headers and readings in the current language (or
        ``lang``), floats rounded to ``digits``; the values of :meth:`row`.

        >>> from mapteach.judging import calibration_report
        >>> report = calibration_report({"q": {"d1": 3, "d2": 1}}, {"q": {"d1": 3, "d2": 0}})
        >>> report.display(lang="zh")["倾向"]
        '偏高'
        """
        return JudgingSeries(self.row()).display(lang=lang, digits=digits)


def _reading(kappa: float) -> str:
    """IIR's reading of a plain kappa, an English message; "no reading" if it is undefined."""
    return N_("no reading: kappa is undefined") if math.isnan(kappa) else kappa_reading(kappa)


@dataclass(frozen=True)
class _Blind:
    """An annotator's blind grades, the queries they judged, and what was left unscored."""

    grades: dict[str, dict[str, int]]
    judged: set[str]
    after_reveal: int = 0
    no_phase: int = 0


def _blind(judgments: Judgments | str | os.PathLike) -> _Blind:
    """The blind state of a judgments file (or of grades given as a mapping: all blind)."""
    if isinstance(judgments, Mapping):
        grades = {query: dict(docs) for query, docs in judgments.items() if docs}
        return _Blind(grades, set(grades))
    events = read_events(judgments)
    blind = [(line, event) for line, event in events if event.phase != "after_reveal"]
    grades = {
        query: {doc: event.grade for doc, event in docs.items() if event.grade is not None}
        for query, docs in replay(blind).items()
    }
    return _Blind(
        grades,
        judged={event.query for _, event in events},
        after_reveal=len(events) - len(blind),
        no_phase=sum(event.phase is None for _, event in events),
    )


def _check_queries(blind: _Blind, gold: Judgments, assigned: Collection[str]) -> None:
    for query in assigned:
        if query not in gold:
            raise ValueError(tr("assigned query {query!r} has no gold grades.", query=query))
    for query in blind.judged:
        if query not in gold:
            raise ValueError(tr("query {query!r} has no gold grades.", query=query))
    for query, docs in blind.grades.items():
        for doc in docs:
            if doc not in gold[query]:
                raise ValueError(
                    tr("query {query!r}, document {doc!r} has no gold grade.", query=query, doc=doc)
                )


def _kappas(golds: np.ndarray, yours: np.ndarray, grades: list[int]) -> tuple[float, ...]:
    """Cohen's kappa unweighted, linear and quadratic (scikit-learn); NaN where undefined."""
    if not golds.size:
        return math.nan, math.nan, math.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)  # one grade only: NaN
        return tuple(
            float(cohen_kappa_score(golds, yours, labels=grades, weights=weights))
            for weights in (None, "linear", "quadratic")
        )


def _confusion(golds: np.ndarray, yours: np.ndarray, grades: list[int]) -> JudgingTable:
    """Counts, rows the gold grade and columns the annotator's; all 0 with nothing graded."""
    counts = confusion_matrix(golds, yours, labels=grades) if golds.size else 0
    return JudgingTable(
        counts, index=pd.Index(grades, name="gold"), columns=pd.Index(grades, name="yours")
    )


def _recheck(
    judgments: Judgments, gold: Judgments, run: Mapping[str, Sequence[str]], threshold: int
) -> JudgingTable:
    """One row per binary disagreement, ordered by how far correcting it moves AP."""
    rows = []
    for query, ranking in run.items():
        judged = judgments.get(query, {})
        labels = [int(judged.get(doc, 0) >= threshold) for doc in ranking]
        changes = flip_sensitivity(labels)["change"].tolist() if ranking else []
        for rank, doc in enumerate(ranking, start=1):
            if doc not in judged or doc not in gold.get(query, {}):
                continue
            if labels[rank - 1] != int(gold[query][doc] >= threshold):
                move = changes[rank - 1]
                rows.append((query, doc, rank, judged[doc], gold[query][doc], move))
    recheck = JudgingTable(rows, columns=["query", "doc", "rank", "yours", "gold", "ap_change"])
    return recheck.sort_values(
        "ap_change", key=lambda change: -change.abs(), kind="stable"
    ).reset_index(drop=True)


def calibration_report(
    judgments: Judgments | str | os.PathLike,
    gold: Judgments,
    *,
    assigned: Collection[str] = (),
    run: Mapping[str, Sequence[str]] | None = None,
    relevance_threshold: int = RELEVANCE_THRESHOLD,
    scale: int = 3,
) -> CalibrationReport:
    """One annotator's blind grades against the gold: accuracy, kappas, confusion, bias, re-checks.

    ``judgments`` is the annotator's judgments file (a path) or their grades
    (``{query: {doc: grade}}``, taken as blind). From a file, only the blind
    judgments count (made before the query's reference was revealed, or written
    before judgments had a phase); changes made after the reveal are counted in
    ``after_reveal`` and scored nowhere.

    The report covers the annotator's queries: those ``assigned`` to them and those
    they judged, not the whole gold. Documents of those queries without a blind grade
    are counted in ``missing`` and left out of the numbers. Kappa (Cohen's, from
    scikit-learn's ``cohen_kappa_score``) compares the grades three ways: unweighted
    (``kappa``, the one IIR's scale reads), with linear and with quadratic weights.
    The re-check list holds the documents where the annotator's relevant /
    not-relevant call (grade >= ``relevance_threshold``) differs from the gold,
    ordered by how far flipping the annotator's label moves AP
    (:func:`flip_sensitivity` over ``run``, default: each query's gold order).

    Returns
    -------
    CalibrationReport
        Its numbers (``accuracy``, ``kappa``, ``kappa_linear``, ``kappa_quadratic``,
        ``bias``, ``missing``, ``after_reveal``, ``no_phase``; the keys of
        :meth:`CalibrationReport.row`, shown by :meth:`CalibrationReport.display`)
        and two tables keyed for code (``.display()`` shows them to people):

        - ``confusion``: counts, index ``gold`` (the gold grade), columns ``yours``
          (the annotator's grade), one of each per grade of the scale;
        - ``recheck``: one row per binary disagreement, largest AP move first, with
          columns ``query``, ``doc``, ``rank`` (in the run), ``yours``, ``gold`` (the
          two grades) and ``ap_change`` (how the annotator's AP moves once that
          label is corrected).

    Raises
    ------
    ValueError
        If the annotator judged, or was assigned, a query or document the gold does
        not have; for a judgments file that cannot be read (see :func:`read_events`).

    Examples
    --------
    >>> from mapteach.judging import calibration_report
    >>> gold = {"q": {"d1": 3, "d2": 0, "d3": 2, "d4": 1}, "other": {"x": 1}}
    >>> mine = {"q": {"d1": 3, "d2": 1, "d3": 1, "d4": 2}}
    >>> report = calibration_report(mine, gold)  # "other" is not one of my queries
    >>> report.accuracy, report.bias, report.tendency, report.missing
    (0.25, 0.25, 'too high', 0)
    >>> round(report.kappa, 4), round(report.kappa_linear, 4), round(report.kappa_quadratic, 4)
    (0.0, 0.3333, 0.625)
    >>> report.recheck.round(4)  # ap_change: how your AP moves once that label is corrected
      query doc  rank  yours  gold  ap_change
    0     q  d4     4      2     1     0.2500
    1     q  d3     3      1     2     0.0556
    >>> calibration_report(mine, gold, assigned=["other"]).missing  # assigned, not judged
    1
    """
    blind = _blind(judgments)
    _check_queries(blind, gold, assigned)
    check_grades(blind.grades, range(scale + 1))
    mine = blind.grades
    queries = [query for query in gold if query in blind.judged or query in assigned]
    pairs = [(q, d) for q in queries for d in gold[q] if d in mine.get(q, {})]
    yours = np.array([mine[q][d] for q, d in pairs], dtype=int)
    golds = np.array([gold[q][d] for q, d in pairs], dtype=int)
    grades = list(range(scale + 1))
    kappa, linear, quadratic = _kappas(golds, yours, grades)
    ranking = run or {q: list(gold[q]) for q in queries}
    return CalibrationReport(
        accuracy=float(np.mean(yours == golds)) if pairs else math.nan,
        kappa=kappa,
        kappa_linear=linear,
        kappa_quadratic=quadratic,
        confusion=_confusion(golds, yours, grades),
        bias=float(np.mean(yours - golds)) if pairs else math.nan,
        missing=sum(len(gold[q]) for q in queries) - len(pairs),
        recheck=_recheck(mine, gold, ranking, relevance_threshold),
        after_reveal=blind.after_reveal,
        no_phase=blind.no_phase,
    )


def simulate_annotator(
    gold: Judgments, *, bias: int = 0, noise: float = 0.0, seed: int = 0, scale: int = 3
) -> dict[str, dict[str, int]]:
    """A made-up annotator, for demonstrations: the gold grades shifted and jittered.

    Each grade is moved by ``bias`` (clipped to 0-``scale``); then, with probability
    ``noise``, replaced by a grade drawn uniformly from the scale. The same seed gives
    the same annotator.

    Examples
    --------
    >>> from mapteach.judging import simulate_annotator
    >>> simulate_annotator({"q": {"d1": 3, "d2": 0, "d3": 1}}, bias=+1)
    {'q': {'d1': 3, 'd2': 1, 'd3': 2}}
    >>> simulate_annotator({"q": {"d1": 3, "d2": 0, "d3": 1}}, noise=0.5, seed=1)  # d2 redrawn
    {'q': {'d1': 3, 'd2': 3, 'd3': 1}}
    """
    if not 0.0 <= noise <= 1.0:
        raise ValueError(tr("noise is a probability, from 0 to 1; got {noise!r}.", noise=noise))
    rng = np.random.default_rng(seed)
    simulated: dict[str, dict[str, int]] = {}
    for query, docs in gold.items():
        simulated[query] = {}
        for doc, grade in docs.items():
            shifted = min(max(grade + bias, 0), scale)
            jitter = rng.random() < noise
            drawn = int(rng.integers(0, scale + 1))
            simulated[query][doc] = drawn if jitter else shifted
    return simulated


#: Ten results for article 001's query "劳动仲裁赔偿标准" (labour-arbitration compensation
#: standards), written for the workbook, each with a reference grade on a 0-3 scale: the
#: first query of the judging set (``data/legal_set.json``), as (doc, English gloss, grade).
#: The gloss is an English message: show ``tr(gloss)``.
LEGAL_RESULTS: tuple[tuple[str, str, int], ...] = tuple(
    (result.doc, result.gloss, result.grade)
    for result in load_judging_set(lang="en").queries[0].results
)


def judging_summary(grades: Sequence[int], reference: Sequence[int], threshold: int) -> dict:
    """The judging board's readouts: AP, P@5, nDCG@10 of ``grades`` and the reference AP.

    Ungraded results (grade -1) count as not relevant.

    Returns
    -------
    dict
        One record, keyed for code:

        - ``ap``, ``p5``, ``ndcg10``: AP, P@5 and nDCG@10 of ``grades``;
        - ``ref_ap``: AP of the reference grades;
        - ``disagree``: the ranks (0-based) whose relevant / not-relevant call
          differs from the reference;
        - ``differs``: the graded ranks (0-based) whose grade differs.

    Examples
    --------
    >>> from mapteach.judging import judging_summary
    >>> summary = judging_summary([3, -1, 1], [3, 0, 2], threshold=2)
    >>> summary["ap"], summary["disagree"], summary["differs"]
    (1.0, [2], [2])
    """
    from mapteach.metrics import ndcg_at_k, precision_at_k

    labels = [int(g >= threshold) for g in grades]
    ref_labels = [int(g >= threshold) for g in reference]
    gains = [max(g, 0) for g in grades]
    return {
        "ap": average_precision(labels),
        "p5": precision_at_k(labels, 5),
        "ndcg10": ndcg_at_k(gains, 10),
        "ref_ap": average_precision(ref_labels),
        "disagree": [i for i, (a, b) in enumerate(zip(labels, ref_labels, strict=True)) if a != b],
        "differs": [
            i for i, (a, b) in enumerate(zip(grades, reference, strict=True)) if 0 <= a != b
        ],
    }
