"""Precision-recall curves of one ranked list: the raw step curve, the interpolated one,
and 11-point interpolated average precision (Manning et al., IIR ch. 8)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from mapteach._validation import as_k, as_labels, as_n_relevant

__all__ = [
    "curve_arrays",
    "eleven_point_average_precision",
    "interpolated_precision",
    "mean_interpolated_precision",
    "pr_curve",
]


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
        ``interpolated`` (the best precision at this recall or higher).
        Recall is 0 everywhere when R = 0.

    Examples
    --------
    >>> from mapteach.curves import pr_curve
    >>> print(pr_curve([1, 0, 1], n_relevant=4).round(3).to_string(index=False))
     rank  relevant  recall  precision  interpolated
        1      True    0.25      1.000         1.000
        2     False    0.25      0.500         0.667
        3      True    0.50      0.667         0.667
    """
    y = as_labels(labels)
    r = as_n_relevant(n_relevant, int(y.sum()))
    if k is not None:
        y = y[: as_k(k)]
    recall, precision = curve_arrays(y, r)
    return pd.DataFrame(
        {
            "rank": np.arange(1, y.size + 1),
            "relevant": y,
            "recall": recall,
            "precision": precision,
            "interpolated": interpolated_precision(precision),
        }
    )


def curve_arrays(y: np.ndarray, r: int) -> tuple[np.ndarray, np.ndarray]:
    """Recall and precision after each rank of a validated boolean array ``y``."""
    hits = np.cumsum(y)
    precision = hits / np.arange(1, y.size + 1)
    return (hits / r if r else np.zeros(y.size)), precision


def interpolated_precision(precision: Sequence[float]) -> np.ndarray:
    """The highest precision at this point or any later one (a running max from the end).

    Examples
    --------
    >>> from mapteach.curves import interpolated_precision
    >>> interpolated_precision([1.0, 0.5, 0.667, 0.5]).tolist()
    [1.0, 0.667, 0.667, 0.5]
    """
    values = np.asarray(precision, dtype=float)
    return np.maximum.accumulate(values[::-1])[::-1] if values.size else values


def eleven_point_average_precision(
    labels: Sequence[int | bool], *, n_relevant: int | None = None
) -> float:
    """Mean interpolated precision at recall 0.0, 0.1, ..., 1.0 (IIR ch. 8, TREC 1990s).

    At each recall level the interpolated precision is the best precision at
    that recall or higher; a level the ranking never reaches scores 0. It is
    close to AP but not equal: it looks at 11 fixed recall levels, not at every
    relevant rank. Introduced in ``07_pr_curves``.

    Examples
    --------
    >>> from mapteach.curves import eleven_point_average_precision
    >>> round(eleven_point_average_precision([1, 0, 1, 1, 0]), 4)  # (4 x 1.0 + 7 x 0.75) / 11
    0.8409
    """
    curve = pr_curve(labels, n_relevant=n_relevant)
    recall, precision = curve["recall"].to_numpy(), curve["precision"].to_numpy()
    levels = np.linspace(0.0, 1.0, 11)
    best = [precision[recall >= level - 1e-12].max(initial=0.0) for level in levels]
    return float(np.mean(best))


def mean_interpolated_precision(
    scores: np.ndarray,
    relevance: np.ndarray,
    levels: Sequence[float] = tuple(np.linspace(0, 1, 11)),
) -> pd.Series:
    """Interpolated precision at fixed recall levels, averaged over queries (rows).

    The classic averaged PR curve (IIR ch. 8): each row of ``scores`` ranks its
    candidates (ties keep column order); at each recall level take the best
    precision at that recall or higher, then average over rows. Rows with no
    relevant candidate are left out. Introduced in ``10_from_scores_to_map``.

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.curves import mean_interpolated_precision
    >>> curve = mean_interpolated_precision(np.array([[3.0, 2.0, 1.0]]), np.array([[1, 0, 1]]),
    ...                                     levels=[0.0, 0.5, 1.0])
    >>> curve.round(4).tolist()  # precision 1, 1/2, 2/3 at recall 1/2, 1/2, 1
    [1.0, 1.0, 0.6667]
    """
    s, rel = np.asarray(scores, dtype=float), np.asarray(relevance).astype(bool)
    if s.shape != rel.shape or s.ndim != 2:
        raise ValueError(
            f"scores and relevance must be 2-D of one shape; got {s.shape}, {rel.shape}."
        )
    order = np.argsort(-s, axis=1, kind="stable")
    ranked = np.take_along_axis(rel, order, axis=1)[rel.any(axis=1)]
    hits = np.cumsum(ranked, axis=1)
    precision = hits / np.arange(1, ranked.shape[1] + 1)
    recall = hits / hits[:, -1:]
    best = np.maximum.accumulate(precision[:, ::-1], axis=1)[:, ::-1]
    values = [np.where(recall >= level - 1e-12, best, 0.0).max(axis=1).mean() for level in levels]
    return pd.Series(values, index=pd.Index(list(levels), name="recall"), name="precision")
