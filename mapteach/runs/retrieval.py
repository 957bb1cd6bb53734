"""Turn labelled items into a retrieval task: every item a query, every other a candidate.

Article 003 §5.2's pipeline: a similarity matrix, relevance = "same class", the
query itself removed from its own candidates. Introduced in
``10_from_scores_to_map``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mapteach.i18n import tr

__all__ = ["same_class_task", "similarity_matrix"]


def similarity_matrix(features: Any, *, metric: str = "cosine") -> np.ndarray:
    """All-pairs similarity of the rows of ``features`` (higher is more similar).

    Parameters
    ----------
    features : array of shape (n_items, n_features)
    metric : {"cosine", "euclidean"}
        Cosine similarity, or the negative Euclidean distance.

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.runs import similarity_matrix
    >>> similarity_matrix(np.array([[1.0, 0.0], [1.0, 1.0]])).round(4)
    array([[1.    , 0.7071],
           [0.7071, 1.    ]])
    """
    x = np.asarray(features, dtype=float)
    if x.ndim != 2 or not np.isfinite(x).all():
        raise ValueError(
            tr("features must be a finite 2-D array; got shape {shape}.", shape=x.shape)
        )
    if metric == "cosine":
        norms = np.linalg.norm(x, axis=1, keepdims=True)
        if (norms == 0).any():
            raise ValueError(
                tr(
                    "features row {row} is all zeros; its cosine similarity is undefined.",
                    row=int(np.flatnonzero(norms == 0)[0]),
                )
            )
        unit = x / norms
        return np.clip(unit @ unit.T, -1.0, 1.0)
    if metric == "euclidean":
        squared = (x**2).sum(axis=1)
        return -np.sqrt(np.maximum(squared[:, None] + squared[None, :] - 2 * x @ x.T, 0.0))
    raise ValueError(tr("metric must be 'cosine' or 'euclidean'; got {metric!r}.", metric=metric))


def same_class_task(similarity: Any, classes: Any) -> tuple[np.ndarray, np.ndarray]:
    """Scores and relevance for "find the other items of my class", self excluded.

    Parameters
    ----------
    similarity : array of shape (n, n)
    classes : array of shape (n,)

    Returns
    -------
    scores, relevance : arrays of shape (n, n - 1)
        Row i ranks every item but i; relevance[i, j] says whether that
        candidate has item i's class.

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.runs import same_class_task
    >>> scores, relevance = same_class_task(np.arange(9.0).reshape(3, 3), [0, 1, 0])
    >>> scores
    array([[1., 2.],
           [3., 5.],
           [6., 7.]])
    >>> relevance
    array([[False,  True],
           [False, False],
           [ True, False]])
    """
    s = np.asarray(similarity, dtype=float)
    c = np.asarray(classes)
    if s.ndim != 2 or s.shape[0] != s.shape[1] or c.shape != (s.shape[0],):
        raise ValueError(
            tr(
                "similarity must be square (n, n) and classes have n entries; got {similarity} "
                "and {classes}.",
                similarity=s.shape,
                classes=c.shape,
            )
        )
    others = ~np.eye(len(c), dtype=bool)
    n = len(c)
    return s[others].reshape(n, n - 1), (c[:, None] == c[None, :])[others].reshape(n, n - 1)
