"""Precision-recall curve arrays of one ranked list: raw and interpolated precision, and
11-point interpolated average precision (Manning et al., IIR ch. 8)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from mapteach.metrics._validation import as_labels, as_n_relevant

__all__ = ["curve_arrays", "eleven_point_average_precision", "interpolated_precision"]


def curve_arrays(y: np.ndarray, r: int) -> tuple[np.ndarray, np.ndarray]:
    """Recall and precision after each rank of a validated boolean array ``y``."""
    hits = np.cumsum(y)
    precision = hits / np.arange(1, y.size + 1)
    return (hits / r if r else np.zeros(y.size)), precision


def interpolated_precision(precision: ArrayLike) -> np.ndarray:
    """The highest precision at this point or any later one (a running max from the end).

    Examples
    --------
    >>> from mapteach.metrics.curves import interpolated_precision
    >>> interpolated_precision([1.0, 0.5, 0.667, 0.5]).tolist()
    [1.0, 0.667, 0.667, 0.5]
    """
    values = np.asarray(precision, dtype=float)
    return np.maximum.accumulate(values[::-1])[::-1] if values.size else values


def eleven_point_average_precision(
    labels: ArrayLike, *, n_relevant: int | None = None
) -> float:
    """Mean interpolated precision at recall 0.0, 0.1, ..., 1.0 (IIR ch. 8, TREC 1990s).

    At each recall level the interpolated precision is the best precision at
    that recall or higher; a level the ranking never reaches scores 0. It is
    close to AP but not equal: it looks at 11 fixed recall levels, not at every
    relevant rank. Introduced in ``07_pr_curves``.

    Examples
    --------
    >>> from mapteach.metrics.curves import eleven_point_average_precision
    >>> round(eleven_point_average_precision([1, 0, 1, 1, 0]), 4)  # (4 x 1.0 + 7 x 0.75) / 11
    0.8409
    """
    y = as_labels(labels)
    recall, precision = curve_arrays(y, as_n_relevant(n_relevant, int(y.sum())))
    levels = np.linspace(0.0, 1.0, 11)
    best = [precision[recall >= level - 1e-12].max(initial=0.0) for level in levels]
    return float(np.mean(best))
