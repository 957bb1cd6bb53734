"""Relevance judgments: how each label moves AP, judged-only AP, and annotator agreement.

The labels are the ground the metric stands on (article 001 §3.1 and §4.1;
article 000 §6.1). Introduced in ``12_judging_relevance``.

Readings (:func:`interpret_kappa`, :attr:`CalibrationReport.tendency`) and errors are
in the current language; tables keep English keys and are shown with headers in the
current language (:class:`JudgingTable`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd
from sklearn.metrics import cohen_kappa_score, confusion_matrix

from mapteach.i18n import N_, tr
from mapteach.metrics import average_precision
from mapteach.metrics._validation import as_labels, as_n_relevant
from mapteach.teaching.display import ShownTable
from mapteach.teaching.guideline import load_judging_set

__all__ = [
    "ALPHA_SCALE",
    "JUDGING_HEADERS",
    "KAPPA_SCALE",
    "LEGAL_RESULTS",
    "CalibrationReport",
    "JudgingTable",
    "agreement",
    "agreement_many",
    "calibration_report",
    "check_grades",
    "flip_sensitivity",
    "interpret_alpha",
    "interpret_kappa",
    "judged_only_ap",
    "judging_summary",
    "simulate_annotator",
]

Judgments = Mapping[str, Mapping[str, int]]

#: The header that shows each key of this module's tables (and of
#: :meth:`CalibrationReport.row` and :func:`agreement_many`, for tables built from them).
JUDGING_HEADERS: dict[str, str] = {
    "rank": N_("rank"),
    "label": N_("label"),
    "ap_if_flipped": N_("AP if flipped"),
    "change": N_("change"),
    "AP (A)": N_("AP (A)"),
    "AP (B)": N_("AP (B)"),
    "difference": N_("difference"),
    "query": N_("query"),
    "doc": N_("doc"),
    "yours": N_("yours"),
    "gold": N_("gold"),
    "ap_change": N_("AP change"),
    "accuracy": N_("accuracy"),
    "weighted kappa": N_("weighted kappa"),
    "reading (IIR)": N_("reading (IIR)"),
    "bias": N_("bias"),
    "tendency": N_("tendency"),
    "missing": N_("not graded"),
    "to re-check": N_("to re-check"),
    "fleiss_kappa": N_("Fleiss' kappa"),
    "krippendorff_alpha": N_("Krippendorff's alpha"),
    "annotators": N_("annotators"),
    "documents": N_("documents"),
}


class JudgingTable(ShownTable):
    """A judging table: English keys, shown with :data:`JUDGING_HEADERS` in the current language."""

    headers = JUDGING_HEADERS


def flip_sensitivity(
    labels: Sequence[int | bool], *, n_relevant: int | None = None
) -> pd.DataFrame:
    """How much AP moves when one judgment at a time is flipped.

    Flipping rank i's label from 0 to 1 adds a relevant document (R + 1);
    from 1 to 0 removes one (R - 1). Relevant documents that were never
    retrieved stay as they are.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        The judged ranked list, best first.
    n_relevant : int, optional
        R, including relevant documents never retrieved. Default: the hits.

    Returns
    -------
    pandas.DataFrame
        One row per rank: ``rank``, ``label``, ``ap_if_flipped``, ``change``.

    Examples
    --------
    >>> from mapteach.teaching.judging import flip_sensitivity
    >>> flip_sensitivity([1, 0, 1]).round(4)  # AP = (1/1 + 2/3) / 2 = 0.8333
       rank  label  ap_if_flipped  change
    0     1      1         0.3333 -0.5000
    1     2      0         1.0000  0.1667
    2     3      1         1.0000  0.1667
    """
    y = as_labels(labels).astype(int)
    r = as_n_relevant(n_relevant, int(y.sum()))
    base = average_precision(y, n_relevant=r)
    flipped = []
    for rank in range(y.size):
        other = y.copy()
        other[rank] = 1 - other[rank]
        flipped.append(average_precision(other, n_relevant=r + (1 if other[rank] else -1)))
    return JudgingTable(
        {
            "rank": np.arange(1, y.size + 1),
            "label": y,
            "ap_if_flipped": flipped,
            "change": np.array(flipped) - base,
        }
    )


def check_grades(judgments: Judgments, scale: Sequence[int]) -> None:
    """Raise a ValueError naming the first document whose grade is not on ``scale``.

    Examples
    --------
    >>> from mapteach.teaching.judging import check_grades
    >>> check_grades({"q1": {"d1": 4}}, scale=range(4))
    Traceback (most recent call last):
    ...
    ValueError: query 'q1', document 'd1': grade 4 is not on the scale 0, 1, 2, 3.
    """
    allowed = list(scale)
    for query, docs in judgments.items():
        for doc, grade in docs.items():
            if grade not in allowed:
                raise ValueError(
                    tr(
                        "query {query!r}, document {doc!r}: grade {grade!r} is not on the "
                        "scale {scale}.",
                        query=query,
                        doc=doc,
                        grade=grade,
                        scale=", ".join(map(str, allowed)),
                    )
                )


def judged_only_ap(
    ranking: Sequence[str], judgments: Mapping[str, int], *, relevance_threshold: int = 1
) -> float:
    """AP over the judged documents only (the "condensed list"; trec_eval ``-J``).

    Unjudged documents are removed from the ranking instead of counting as
    non-relevant, so missing judgments no longer push relevant documents down.
    As with ``-J``, a negative grade (trec_eval's "judged, but ignore") counts as
    unjudged: it is removed too.

    Examples
    --------
    >>> from mapteach.teaching.judging import judged_only_ap
    >>> judged_only_ap(["u1", "a", "u2", "b"], {"a": 1, "b": 1})  # unjudged u1, u2 dropped
    1.0
    >>> judged_only_ap(["a", "b"], {"a": -1, "b": 1})  # a's negative grade drops it, as -J does
    1.0
    """
    kept = [doc for doc in ranking if judgments.get(doc, -1) >= 0]
    labels = [int(judgments[doc] >= relevance_threshold) for doc in kept]
    r = sum(grade >= relevance_threshold for grade in judgments.values())
    return average_precision(labels, n_relevant=r)


def _aligned(a: Judgments, b: Judgments) -> list[tuple[str, str]]:
    for first, second, in_second in ((a, b, True), (b, a, False)):
        for query, docs in first.items():
            if query not in second:
                if in_second:
                    raise ValueError(
                        tr(
                            "query {query!r} is judged in one set but not in the second.",
                            query=query,
                        )
                    )
                raise ValueError(
                    tr("query {query!r} is judged in one set but not in the first.", query=query)
                )
            for doc in docs:
                if doc in second[query]:
                    continue
                if in_second:
                    raise ValueError(
                        tr(
                            "query {query!r}, document {doc!r} is judged in one set but not in "
                            "the second; agreement needs both annotators to judge the same "
                            "documents.",
                            query=query,
                            doc=doc,
                        )
                    )
                raise ValueError(
                    tr(
                        "query {query!r}, document {doc!r} is judged in one set but not in the "
                        "first; agreement needs both annotators to judge the same documents.",
                        query=query,
                        doc=doc,
                    )
                )
    return [(q, d) for q, docs in sorted(a.items()) for d in sorted(docs)]


def agreement(
    judgments_a: Judgments,
    judgments_b: Judgments,
    run: Mapping[str, Sequence[str]] | None = None,
    *,
    relevance_threshold: int = 1,
    weights: Literal["linear", "quadratic"] | None = None,
) -> tuple[float, pd.DataFrame | None]:
    """Cohen's kappa between two annotators, and AP per query under each (if a run is given).

    Kappa comes from scikit-learn (``cohen_kappa_score``). Without ``weights``, it
    compares the binary labels (grade >= ``relevance_threshold``) of every (query,
    document) pair. With ``weights="linear"`` or ``"quadratic"`` it compares the
    grades themselves, and a disagreement by two grades costs more than one by one
    grade (quadratic: four times as much). AP always uses the threshold.

    Returns
    -------
    kappa : float
    per_query : pandas.DataFrame or None
        Columns ``AP (A)``, ``AP (B)``, ``difference``, one row per query.

    Raises
    ------
    ValueError
        If the two sets do not judge the same documents (the message names one).

    Examples
    --------
    >>> from mapteach.teaching.judging import agreement
    >>> a = {"q": {"d1": 1, "d2": 0, "d3": 1, "d4": 0}}
    >>> b = {"q": {"d1": 1, "d2": 1, "d3": 1, "d4": 0}}
    >>> kappa, table = agreement(a, b, {"q": ["d2", "d1", "d3", "d4"]})
    >>> round(kappa, 4), table.round(4).loc["q"].tolist()
    (0.5, [0.5833, 1.0, 0.4167])
    >>> a3 = {"q": {"d1": 3, "d2": 0, "d3": 2, "d4": 1}}
    >>> b3 = {"q": {"d1": 2, "d2": 0, "d3": 2, "d4": 1}}  # one grade apart on d1
    >>> round(agreement(a3, b3, weights="quadratic")[0], 4)
    0.875
    """
    pairs = _aligned(judgments_a, judgments_b)
    if weights is None:
        label_a = [int(judgments_a[q][d] >= relevance_threshold) for q, d in pairs]
        label_b = [int(judgments_b[q][d] >= relevance_threshold) for q, d in pairs]
    elif weights in ("linear", "quadratic"):
        label_a = [judgments_a[q][d] for q, d in pairs]
        label_b = [judgments_b[q][d] for q, d in pairs]
    else:
        raise ValueError(
            tr("weights must be None, 'linear' or 'quadratic'; got {weights!r}.", weights=weights)
        )
    kappa = float(cohen_kappa_score(label_a, label_b, weights=weights))
    if run is None:
        return kappa, None
    rows = {}
    for query, ranking in run.items():
        if query not in judgments_a:
            continue
        aps = []
        for judged in (judgments_a[query], judgments_b[query]):
            labels = [int(judged.get(doc, 0) >= relevance_threshold) for doc in ranking]
            r = sum(grade >= relevance_threshold for grade in judged.values())
            aps.append(average_precision(labels, n_relevant=r))
        rows[query] = {"AP (A)": aps[0], "AP (B)": aps[1], "difference": aps[1] - aps[0]}
    return kappa, JudgingTable.from_dict(rows, orient="index")


def agreement_many(judgments: Sequence[Judgments]) -> dict[str, float]:
    """Agreement among two or more annotators over the grades: Fleiss' kappa, Krippendorff's alpha.

    Fleiss' kappa (statsmodels: ``aggregate_raters`` then ``fleiss_kappa``) treats
    each grade as a category; Krippendorff's alpha (the ``krippendorff`` package)
    treats grades as ordinal, so that 2 against 3 is a smaller disagreement than 0
    against 3. Every annotator must judge the same documents.

    Returns
    -------
    dict
        ``fleiss_kappa``, ``krippendorff_alpha``, ``annotators`` and ``documents``.

    Raises
    ------
    ValueError
        With fewer than two annotators, or if one judged a document another did not
        (the message names the query and the document).

    Examples
    --------
    >>> from mapteach.teaching.judging import agreement_many
    >>> a = {"q": {"d1": 3, "d2": 0, "d3": 2, "d4": 1, "d5": 0}}
    >>> b = {"q": {"d1": 3, "d2": 0, "d3": 1, "d4": 1, "d5": 0}}
    >>> c = {"q": {"d1": 2, "d2": 0, "d3": 2, "d4": 1, "d5": 1}}
    >>> {k: round(v, 4) for k, v in agreement_many([a, b, c]).items()}
    {'fleiss_kappa': 0.4444, 'krippendorff_alpha': 0.8287, 'annotators': 3, 'documents': 5}
    """
    import krippendorff
    from statsmodels.stats.inter_rater import (  # type: ignore[import-untyped]
        aggregate_raters,
        fleiss_kappa,
    )

    if len(judgments) < 2:
        raise ValueError(tr("agreement needs two or more annotators; got {n}.", n=len(judgments)))
    pairs = _aligned(judgments[0], judgments[0])
    for other in judgments[1:]:
        _aligned(judgments[0], other)
    grades = np.array([[judged[q][d] for q, d in pairs] for judged in judgments])
    table, _ = aggregate_raters(grades.T)
    alpha = krippendorff.alpha(reliability_data=grades, level_of_measurement="ordinal")
    return {
        "fleiss_kappa": float(fleiss_kappa(table, method="fleiss")),
        "krippendorff_alpha": float(alpha),
        "annotators": len(judgments),
        "documents": len(pairs),
    }


#: IIR ch. 8's reading of kappa: (lowest kappa, words), best first. The words are English
#: messages: show ``tr(words)`` (:func:`interpret_kappa` does).
KAPPA_SCALE: tuple[tuple[float, str], ...] = (
    (0.8, N_("good agreement")),
    (0.67, N_("fair agreement")),
    (-math.inf, N_("dubious: a weak basis for an evaluation")),
)


def interpret_kappa(kappa: float) -> str:
    """What a kappa says, on the scale of *Introduction to Information Retrieval*, ch. 8.

    Above 0.8: good agreement; from 0.67 to 0.8: fair agreement; below 0.67: a
    dubious basis for an evaluation. The words are in the current language.

    Examples
    --------
    >>> from mapteach.teaching.judging import interpret_kappa
    >>> interpret_kappa(0.89), interpret_kappa(0.7), interpret_kappa(0.62)
    ('good agreement', 'fair agreement', 'dubious: a weak basis for an evaluation')
    """
    if isinstance(kappa, bool) or not isinstance(kappa, (int, float)) or math.isnan(kappa):
        raise ValueError(tr("kappa must be a number; got {kappa!r}.", kappa=kappa))
    if kappa > 0.8:
        return tr(KAPPA_SCALE[0][1])
    return tr(KAPPA_SCALE[1][1] if kappa >= 0.67 else KAPPA_SCALE[2][1])


#: Krippendorff's own reading of his alpha (Content Analysis, 2004, ch. 11), not IIR's kappa
#: scale: (lowest alpha, what it allows). The words are English messages: show ``tr(words)``.
ALPHA_SCALE: tuple[tuple[float, str], ...] = (
    (0.8, N_("reliable (Krippendorff)")),
    (0.667, N_("tentative conclusions only (Krippendorff)")),
    (-math.inf, N_("not reliable (Krippendorff)")),
)


def interpret_alpha(alpha: float) -> str:
    """What a Krippendorff's alpha allows, on Krippendorff's own scale.

    From 0.8: reliable; from 0.667 to 0.8: tentative conclusions only; below
    0.667: not reliable. The words are in the current language.

    Examples
    --------
    >>> from mapteach.teaching.judging import interpret_alpha
    >>> interpret_alpha(0.85), interpret_alpha(0.7), interpret_alpha(0.5)
    ('reliable (Krippendorff)', 'tentative conclusions only (Krippendorff)', \
'not reliable (Krippendorff)')
    """
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or math.isnan(alpha):
        raise ValueError(tr("alpha must be a number; got {alpha!r}.", alpha=alpha))
    return tr(next(words for lowest, words in ALPHA_SCALE if alpha >= lowest))


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
        if self.bias > 0.1:
            return tr("too high")
        return tr("too low") if self.bias < -0.1 else tr("balanced")

    def row(self) -> dict[str, object]:
        """The headline numbers, for a table with one row per annotator.

        The keys are English (show a table of them with
        :func:`~mapteach.teaching.display.display_table`); the readings are in the
        current language.
        """
        return {
            "accuracy": self.accuracy,
            "weighted kappa": self.kappa,
            "reading (IIR)": interpret_kappa(self.kappa),
            "bias": self.bias,
            "tendency": self.tendency,
            "missing": self.missing,
            "to re-check": len(self.recheck),
        }


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

    Raises
    ------
    ValueError
        If the annotator graded a query or document the gold does not have.

    Examples
    --------
    >>> from mapteach.teaching.judging import calibration_report
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
    >>> from mapteach.teaching.judging import simulate_annotator
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

    Ungraded results (grade -1) count as not relevant. ``disagree`` lists the ranks
    (0-based) whose relevant / not-relevant call differs from the reference;
    ``differs``, the graded ranks whose grade differs.

    Examples
    --------
    >>> from mapteach.teaching.judging import judging_summary
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
