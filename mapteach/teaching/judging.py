"""Relevance judgments: how each label moves AP, judged-only AP, and annotator agreement.

The labels are the ground the metric stands on (article 001 §3.1 and §4.1;
article 000 §6.1). Introduced in ``12_judging_relevance``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from sklearn.metrics import cohen_kappa_score

from mapteach.metrics import average_precision
from mapteach.metrics._validation import as_labels, as_n_relevant

__all__ = [
    "LEGAL_RESULTS",
    "agreement",
    "check_grades",
    "flip_sensitivity",
    "judged_only_ap",
    "judging_summary",
]

Judgments = Mapping[str, Mapping[str, int]]


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
    return pd.DataFrame(
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
                    f"query {query!r}, document {doc!r}: grade {grade!r} is not on the scale "
                    f"{', '.join(map(str, allowed))}."
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
    for first, second, name in ((a, b, "second"), (b, a, "first")):
        for query, docs in first.items():
            if query not in second:
                raise ValueError(f"query {query!r} is judged in one set but not in the {name}.")
            for doc in docs:
                if doc not in second[query]:
                    raise ValueError(
                        f"query {query!r}, document {doc!r} is judged in one set but not in the "
                        f"{name}; agreement needs both annotators to judge the same documents."
                    )
    return [(q, d) for q, docs in sorted(a.items()) for d in sorted(docs)]


def agreement(
    judgments_a: Judgments,
    judgments_b: Judgments,
    run: Mapping[str, Sequence[str]] | None = None,
    *,
    relevance_threshold: int = 1,
) -> tuple[float, pd.DataFrame | None]:
    """Cohen's kappa between two annotators, and AP per query under each (if a run is given).

    Kappa comes from scikit-learn (``cohen_kappa_score``) on the binary labels
    (grade >= ``relevance_threshold``) of every (query, document) pair.

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
    """
    pairs = _aligned(judgments_a, judgments_b)
    label_a = [int(judgments_a[q][d] >= relevance_threshold) for q, d in pairs]
    label_b = [int(judgments_b[q][d] >= relevance_threshold) for q, d in pairs]
    kappa = float(cohen_kappa_score(label_a, label_b))
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
    return kappa, pd.DataFrame.from_dict(rows, orient="index")


#: Ten results for article 001's query "劳动仲裁赔偿标准" (labour-arbitration compensation
#: standards), written for the workbook, each with a reference grade on a 0-3 scale.
LEGAL_RESULTS: tuple[tuple[str, str, int], ...] = (
    (
        "r1",
        "Labour Contract Law, Art. 47: economic compensation is one month's wage for each "
        "full year of service.",
        3,
    ),
    ("r2", "Advertisement: 'Win your labour case! Free consultation, call now.'", 0),
    ("r3", "A city's 2008 guideline on severance pay, repealed since 2017.", 1),
    (
        "r4",
        "Supreme People's Court interpretation on labour disputes: double wages when there "
        "is no written contract.",
        3,
    ),
    ("r5", "Forum thread: 'How much did you get in your arbitration?' (anecdotes)", 0),
    ("r6", "Labour Dispute Mediation and Arbitration Law, Art. 27: apply within one year.", 2),
    ("r7", "The text of Art. 47 again, copied by another website.", 1),
    ("r8", "News: a company fined for unpaid overtime.", 0),
    ("r9", "Arbitration award: double compensation (2N) for unlawful termination, Art. 87.", 3),
    ("r10", "How to file for labour arbitration: the documents to bring.", 1),
)


def judging_summary(grades: Sequence[int], reference: Sequence[int], threshold: int) -> dict:
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
    }
