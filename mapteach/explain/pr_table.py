"""The precision-recall table of one ranked list, rank by rank."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from mapteach.explain.display import ShownTable
from mapteach.i18n import N_
from mapteach.metrics.curves import curve_arrays, interpolated_precision
from mapteach.metrics.validation import as_k, as_labels, as_n_relevant

__all__ = ["PR_HEADERS", "PRTable", "pr_curve"]

#: The header that shows each column key of :func:`pr_curve`.
PR_HEADERS: dict[str, str] = {
    "rank": N_("rank"),
    "relevant": N_("relevant"),
    "recall": N_("recall"),
    "precision": N_("precision"),
    "interpolated": N_("interpolated precision"),
}


class PRTable(ShownTable):
    """A precision-recall table: English column keys, shown in the current language."""

    headers = PR_HEADERS


def pr_curve(
    labels: Sequence[int | bool], *, n_relevant: int | None = None, k: int | None = None
) -> pd.DataFrame:
    """Precision and recall after each rank.

    Recall rises only at relevant ranks; precision falls at every other rank,
    so the curve is a saw-tooth. The area under its steps, each relevant rank's
    precision times the recall it adds (1 / R), is exactly AP. Introduced in
    ``07_pr_curves``.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    n_relevant : int, optional
        R, the query's total relevant documents. Default: the hits in ``labels``.
    k : int, optional
        Only the top ``k`` ranks.

    Returns
    -------
    pandas.DataFrame
        Columns ``rank``, ``relevant``, ``recall``, ``precision`` and
        ``interpolated`` (the best precision at this recall or higher, IIR ch. 8:
        every rank at one recall shares one value). Recall is 0 everywhere
        when R = 0. The keys are English; the table is shown with headers in the
        current language (a :class:`PRTable`).

    Examples
    --------
    Article 003's query B; its third relevant item was never retrieved (R = 3):

    >>> from mapteach import pr_curve
    >>> print(pr_curve([1, 0, 1, 0, 0, 0, 0, 0], n_relevant=3).round(4).to_string(index=False))
     rank  relevant  recall  precision  interpolated
        1      True  0.3333     1.0000        1.0000
        2     False  0.3333     0.5000        1.0000
        3      True  0.6667     0.6667        0.6667
        4     False  0.6667     0.5000        0.6667
        5     False  0.6667     0.4000        0.6667
        6     False  0.6667     0.3333        0.6667
        7     False  0.6667     0.2857        0.6667
        8     False  0.6667     0.2500        0.6667

    Rank 2 is still at recall 1/3, where precision 1/1 was reached: its
    interpolated precision is 1.0, not the 2/3 of a later rank.
    """
    y = as_labels(labels)
    r = as_n_relevant(n_relevant, int(y.sum()))
    if k is not None:
        y = y[: as_k(k)]
    recall, precision = curve_arrays(y, r)
    return PRTable(
        {
            "rank": np.arange(1, y.size + 1),
            "relevant": y,
            "recall": recall,
            "precision": precision,
            "interpolated": interpolated_precision(recall, precision),
        }
    )
