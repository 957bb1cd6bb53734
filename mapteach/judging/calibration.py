"""A calibration round's report: each annotator against the reference, and a simulated annotator."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.metrics import cohen_kappa_score, confusion_matrix

from mapteach.i18n import N_, tr
from mapteach.judging.annotator_agreement import kappa_reading
from mapteach.judging.guideline import load_judging_set
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
    """How one annotator's grades compare with the gold (reference) grades."""

    #: Share of documents graded exactly as the gold.
    accuracy: float
    #: Cohen's kappa over the grades, quadratic weights.
    kappa: float
    #: Counts: rows the gold grade, columns the annotator's.
    confusion: pd.DataFrame
    #: Mean of (annotator's grade - gold grade): above 0 grades too high, below 0 too low.
    bias: float
    #: Gold documents the annotator has not graded (left out of the numbers above).
    missing: int
    #: The documents to re-check first: one row per binary disagreement, largest AP move first.
    recheck: pd.DataFrame

    @property
    def tendency(self) -> str:
        """``"too high"``, ``"too low"`` or ``"balanced"`` (within a tenth of a grade), in
        the current language."""
        return tr(self._tendency)

    @property
    def _tendency(self) -> str:
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
            - ``weighted_kappa``: :attr:`kappa`;
            - ``reading``: what that kappa says on IIR's scale (an English message,
              :func:`~mapteach.judging.annotator_agreement.kappa_reading`);
            - ``bias``: :attr:`bias`;
            - ``tendency``: ``"too high"``, ``"too low"`` or ``"balanced"`` (an
              English message);
            - ``missing``: :attr:`missing`;
            - ``to_recheck``: the number of documents in :attr:`recheck`.
        """
        return {
            "accuracy": self.accuracy,
            "weighted_kappa": self.kappa,
            "reading": kappa_reading(self.kappa),
            "bias": self.bias,
            "tendency": self._tendency,
            "missing": self.missing,
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


def calibration_report(
    judgments: Judgments,
    gold: Judgments,
    *,
    run: Mapping[str, Sequence[str]] | None = None,
    relevance_threshold: int = 2,
    scale: int = 3,
) -> CalibrationReport:
    """One annotator against the gold grades: accuracy, weighted kappa, confusion, bias, re-checks.

    Only documents in ``gold`` count; those the annotator has not graded are counted
    in ``missing``. The re-check list holds the documents where the annotator's
    relevant / not-relevant call (grade >= ``relevance_threshold``) differs from the
    gold, ordered by how far flipping the annotator's label moves AP
    (:func:`flip_sensitivity` over ``run``, default: each query's gold order).

    Returns
    -------
    CalibrationReport
        Its numbers (``accuracy``, ``kappa``, ``bias``, ``missing``; the keys of
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
        If the annotator graded a query or document the gold does not have.

    Examples
    --------
    >>> from mapteach.judging import calibration_report
    >>> gold = {"q": {"d1": 3, "d2": 0, "d3": 2, "d4": 1}}
    >>> mine = {"q": {"d1": 3, "d2": 1, "d3": 1, "d4": 2}}
    >>> report = calibration_report(mine, gold)
    >>> report.accuracy, report.bias, report.tendency
    (0.25, 0.25, 'too high')
    >>> report.recheck.round(4)  # ap_change: how your AP moves once that label is corrected
      query doc  rank  yours  gold  ap_change
    0     q  d4     4      2     1     0.2500
    1     q  d3     3      1     2     0.0556
    """
    for query, docs in judgments.items():
        for doc in docs:
            if doc not in gold.get(query, {}):
                raise ValueError(
                    tr("query {query!r}, document {doc!r} has no gold grade.", query=query, doc=doc)
                )
    check_grades(judgments, range(scale + 1))
    pairs = [(q, d) for q, docs in gold.items() for d in docs if d in judgments.get(q, {})]
    yours = np.array([judgments[q][d] for q, d in pairs], dtype=int)
    golds = np.array([gold[q][d] for q, d in pairs], dtype=int)
    grades = list(range(scale + 1))
    confusion = JudgingTable(
        confusion_matrix(golds, yours, labels=grades),
        index=pd.Index(grades, name="gold"),
        columns=pd.Index(grades, name="yours"),
    )
    rows = []
    for query, ranking in (run or {q: list(docs) for q, docs in gold.items()}).items():
        judged = judgments.get(query, {})
        labels = [int(judged.get(doc, 0) >= relevance_threshold) for doc in ranking]
        changes = flip_sensitivity(labels)["change"].tolist() if ranking else []
        for rank, doc in enumerate(ranking, start=1):
            if doc not in judged or doc not in gold.get(query, {}):
                continue
            if labels[rank - 1] != int(gold[query][doc] >= relevance_threshold):
                move = changes[rank - 1]
                rows.append((query, doc, rank, judged[doc], gold[query][doc], move))
    recheck = JudgingTable(rows, columns=["query", "doc", "rank", "yours", "gold", "ap_change"])
    recheck = recheck.sort_values(
        "ap_change", key=lambda change: -change.abs(), kind="stable"
    ).reset_index(drop=True)
    return CalibrationReport(
        accuracy=float(np.mean(yours == golds)) if pairs else math.nan,
        kappa=float(cohen_kappa_score(golds, yours, labels=grades, weights="quadratic")),
        confusion=confusion,
        bias=float(np.mean(yours - golds)) if pairs else math.nan,
        missing=sum(len(docs) for docs in gold.values()) - len(pairs),
        recheck=recheck,
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
