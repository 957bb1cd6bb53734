"""Annotator agreement: Cohen's kappa (plain and weighted), Fleiss' kappa, Krippendorff's
alpha, and how to read them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Literal

import numpy as np
import pandas as pd
from sklearn.metrics import cohen_kappa_score

from mapteach.i18n import N_, tr
from mapteach.judging.guideline import RELEVANCE_THRESHOLD
from mapteach.judging.sensitivity import JudgingTable, Judgments
from mapteach.metrics import average_precision

__all__ = [
    "ALPHA_SCALE",
    "KAPPA_SCALE",
    "agreement",
    "agreement_many",
    "interpret_alpha",
    "interpret_kappa",
    "kappa_reading",
]


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
    relevance_threshold: int = RELEVANCE_THRESHOLD,
    weights: Literal["linear", "quadratic"] | None = None,
) -> tuple[float, pd.DataFrame | None]:
    """Cohen's kappa between two annotators, and AP per query under each (if a run is given).

    Kappa comes from scikit-learn (``cohen_kappa_score``). Without ``weights``, it
    compares the binary labels (grade >= ``relevance_threshold``, default
    :data:`~mapteach.judging.guideline.RELEVANCE_THRESHOLD`) of every (query,
    document) pair: plain kappa, the one IIR's scale reads (:func:`interpret_kappa`).
    With ``weights="linear"`` or ``"quadratic"`` it compares the grades themselves,
    and a disagreement by two grades costs more than one by one grade (quadratic:
    four times as much); a weighted kappa is not read on IIR's scale. AP always uses
    the threshold.

    Returns
    -------
    kappa : float
    per_query : JudgingTable or None
        None without a run; else a DataFrame keyed for code (``.display()`` shows it
        to people), one row per query of the run (index ``query``). Columns:

        - ``ap_a``, ``ap_b``: AP of the run under A's and under B's judgments;
        - ``difference``: ``ap_b`` minus ``ap_a``.

    Raises
    ------
    ValueError
        If the two sets do not judge the same documents (the message names one).

    Examples
    --------
    >>> from mapteach.judging import agreement
    >>> a = {"q": {"d1": 2, "d2": 0, "d3": 3, "d4": 1}}
    >>> b = {"q": {"d1": 3, "d2": 2, "d3": 2, "d4": 0}}  # relevant: grade 2 or more
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
        rows[query] = {"ap_a": aps[0], "ap_b": aps[1], "difference": aps[1] - aps[0]}
    per_query = JudgingTable.from_dict(rows, orient="index")
    per_query.index.name = "query"
    return kappa, per_query


def agreement_many(judgments: Sequence[Judgments]) -> dict[str, float]:
    """Agreement among two or more annotators over the grades: Fleiss' kappa, Krippendorff's alpha.

    Fleiss' kappa (statsmodels: ``aggregate_raters`` then ``fleiss_kappa``) treats
    each grade as a category; Krippendorff's alpha (the ``krippendorff`` package)
    treats grades as ordinal, so that 2 against 3 is a smaller disagreement than 0
    against 3. Every annotator must judge the same documents.

    Returns
    -------
    dict
        One record, keyed for code (show it with
        ``display_table(pd.Series(result))``, :func:`~mapteach.explain.display.display_table`):

        - ``fleiss_kappa``: Fleiss' kappa over the grades as categories;
        - ``krippendorff_alpha``: Krippendorff's alpha, ordinal;
        - ``annotators``: how many annotators;
        - ``documents``: how many (query, document) pairs each judged.

    Raises
    ------
    ValueError
        With fewer than two annotators, or if one judged a document another did not
        (the message names the query and the document).

    Examples
    --------
    >>> from mapteach.judging import agreement_many
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


#: IIR ch. 8's reading of plain (unweighted) kappa: (lowest kappa, words), best first. Not
#: for a weighted kappa, whose weights give part credit for near misses. The words are
#: English messages: show ``tr(words)`` (:func:`interpret_kappa` does).
KAPPA_SCALE: tuple[tuple[float, str], ...] = (
    (0.8, N_("good agreement")),
    (0.67, N_("fair agreement")),
    (-math.inf, N_("dubious: a weak basis for an evaluation")),
)


def interpret_kappa(kappa: float) -> str:
    """What a plain kappa says, on the scale of *Introduction to Information Retrieval*, ch. 8.

    Above 0.8: good agreement; from 0.67 to 0.8: fair agreement; below 0.67: a
    dubious basis for an evaluation. The words are in the current language. The
    scale is for Cohen's (and Fleiss') unweighted kappa: a weighted kappa gives part
    credit for near misses and runs higher, so it is not read on this scale.

    Examples
    --------
    >>> from mapteach.judging import interpret_kappa
    >>> interpret_kappa(0.89), interpret_kappa(0.7), interpret_kappa(0.62)
    ('good agreement', 'fair agreement', 'dubious: a weak basis for an evaluation')
    """
    return tr(kappa_reading(kappa))


def kappa_reading(kappa: float) -> str:
    """:func:`interpret_kappa`'s words as an English message, the same in every language.

    For a table's machine form; the display step translates it.

    >>> from mapteach.judging import kappa_reading
    >>> kappa_reading(0.7)
    'fair agreement'
    """
    if isinstance(kappa, bool) or not isinstance(kappa, (int, float)) or math.isnan(kappa):
        raise ValueError(tr("kappa must be a number; got {kappa!r}.", kappa=kappa))
    if kappa > 0.8:
        return KAPPA_SCALE[0][1]
    return KAPPA_SCALE[1][1] if kappa >= 0.67 else KAPPA_SCALE[2][1]


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
    >>> from mapteach.judging import interpret_alpha
    >>> interpret_alpha(0.85), interpret_alpha(0.7), interpret_alpha(0.5)
    ('reliable (Krippendorff)', 'tentative conclusions only (Krippendorff)', \
'not reliable (Krippendorff)')
    """
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or math.isnan(alpha):
        raise ValueError(tr("alpha must be a number; got {alpha!r}.", alpha=alpha))
    return tr(next(words for lowest, words in ALPHA_SCALE if alpha >= lowest))
