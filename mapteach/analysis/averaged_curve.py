"""The PR curve averaged over many queries at fixed recall levels (IIR ch. 8)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from mapteach.i18n import tr

__all__ = ["mean_interpolated_precision"]


def mean_interpolated_precision(
    scores: np.ndarray,
    relevance: np.ndarray,
    levels: Sequence[float] = tuple(np.linspace(0, 1, 11)),
) -> pd.Series:
    """Interpolated precision at fixed recall levels, averaged over queries (rows).

    The classic averaged PR curve (IIR ch. 8): each row of ``scores`` ranks its
    candidates (ties keep column order); at each recall level take the best
    precision at any rank whose recall is that level or higher (interpolation by
    recall, as :func:`~mapteach.metrics.curves.eleven_point_precisions` with
    ``convention="iir"``), then average over rows. Rows with no
    relevant candidate are left out, as trec_eval leaves queries with no relevant
    document out of its averaged curve. Introduced in ``10_from_scores_to_map``.

    Raises
    ------
    ValueError
        If the shapes differ, or no row has a relevant candidate (there is no curve
        to average).

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.analysis import mean_interpolated_precision
    >>> curve = mean_interpolated_precision(np.array([[3.0, 2.0, 1.0]]), np.array([[1, 0, 1]]),
    ...                                     levels=[0.0, 0.5, 1.0])
    >>> curve.round(4).tolist()  # precision 1, 1/2, 2/3 at recall 1/2, 1/2, 1
    [1.0, 1.0, 0.6667]
    """
    s, rel = np.asarray(scores, dtype=float), np.asarray(relevance).astype(bool)
    if s.shape != rel.shape or s.ndim != 2:
        raise ValueError(
            tr(
                "scores and relevance must be 2-D of one shape; got {scores}, {relevance}.",
                scores=s.shape,
                relevance=rel.shape,
            )
        )
    order = np.argsort(-s, axis=1, kind="stable")
    ranked = np.take_along_axis(rel, order, axis=1)[rel.any(axis=1)]
    if not ranked.size:
        raise ValueError(
            tr(
                "none of the {rows} rows has a relevant candidate: with R = 0 everywhere there "
                "is no recall, so there is no precision-recall curve to average.",
                rows=s.shape[0],
            )
        )
    hits = np.cumsum(ranked, axis=1)
    precision = hits / np.arange(1, ranked.shape[1] + 1)
    recall = hits / hits[:, -1:]
    values = [
        np.where(recall >= level - 1e-12, precision, 0.0).max(axis=1).mean() for level in levels
    ]
    return pd.Series(values, index=pd.Index(list(levels), name="recall"), name="precision")
