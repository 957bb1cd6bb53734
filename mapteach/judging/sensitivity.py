"""How each label moves AP: flip sensitivity, judged-only AP, and grade checks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from mapteach.explain.display import ShownSeries, ShownTable
from mapteach.i18n import N_, tr
from mapteach.metrics import average_precision
from mapteach.metrics.validation import as_labels, as_n_relevant

__all__ = [
    "JUDGING_HEADERS",
    "JudgingSeries",
    "JudgingTable",
    "check_grades",
    "flip_sensitivity",
    "judged_only_ap",
]

Judgments = Mapping[str, Mapping[str, int]]


#: The header that shows each key of the judging tables: this module's, :func:`agreement`'s
#: and a calibration report's (and of :meth:`CalibrationReport.row` and
#: :func:`agreement_many`, for tables built from them).
JUDGING_HEADERS: dict[str, str] = {
    "rank": N_("rank"),
    "label": N_("label"),
    "ap_if_flipped": N_("AP if flipped"),
    "change": N_("change"),
    "ap_a": N_("AP (A)"),
    "ap_b": N_("AP (B)"),
    "difference": N_("difference"),
    "query": N_("query"),
    "doc": N_("doc"),
    "yours": N_("yours"),
    "gold": N_("gold"),
    "ap_change": N_("AP change"),
    "accuracy": N_("accuracy"),
    "kappa": N_("Cohen's kappa"),
    "reading": N_("reading of kappa (IIR)"),
    "kappa_linear": N_("weighted kappa (linear)"),
    "kappa_quadratic": N_("weighted kappa (quadratic)"),
    "bias": N_("bias"),
    "tendency": N_("tendency"),
    "missing": N_("not graded"),
    "after_reveal": N_("changed after the reveal (not scored)"),
    "no_phase": N_("records without a phase (counted blind)"),
    "to_recheck": N_("to re-check"),
    "rule": N_("rule"),
    "fleiss_kappa": N_("Fleiss' kappa"),
    "krippendorff_alpha": N_("Krippendorff's alpha"),
    "annotators": N_("annotators"),
    "documents": N_("documents"),
}


class JudgingTable(ShownTable):
    """A judging table: stable keys, shown with :data:`JUDGING_HEADERS` by ``display()``.

    Its ``reading`` and ``tendency`` columns hold English messages, translated when shown.
    """

    headers = JUDGING_HEADERS
    text_columns = frozenset({"reading", "tendency"})


class JudgingSeries(ShownSeries):
    """One record of judging numbers (:meth:`CalibrationReport.row`): stable keys, shown
    with :data:`JUDGING_HEADERS` by ``display()``."""

    headers = JUDGING_HEADERS
    text_columns = frozenset({"reading", "tendency"})
    frame = JudgingTable


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
    JudgingTable
        A DataFrame keyed for code (``.display()`` shows it to people), one row per
        rank. Columns:

        - ``rank``: the rank, from 1;
        - ``label``: its label, 0 or 1;
        - ``ap_if_flipped``: AP with that label flipped (and R moved with it);
        - ``change``: ``ap_if_flipped`` minus AP.

    Examples
    --------
    >>> from mapteach.judging import flip_sensitivity
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
    >>> from mapteach.judging import check_grades
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
    >>> from mapteach.judging import judged_only_ap
    >>> judged_only_ap(["u1", "a", "u2", "b"], {"a": 1, "b": 1})  # unjudged u1, u2 dropped
    1.0
    >>> judged_only_ap(["a", "b"], {"a": -1, "b": 1})  # a's negative grade drops it, as -J does
    1.0
    """
    kept = [doc for doc in ranking if judgments.get(doc, -1) >= 0]
    labels = [int(judgments[doc] >= relevance_threshold) for doc in kept]
    r = sum(grade >= relevance_threshold for grade in judgments.values())
    return average_precision(labels, n_relevant=r)
