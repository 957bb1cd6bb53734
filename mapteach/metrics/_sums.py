"""Summation in rank order, shared by the scalar measures."""

from __future__ import annotations

import numpy as np

__all__ = ["sum_in_rank_order"]


def sum_in_rank_order(values: np.ndarray) -> float:
    """Add rank by rank, as trec_eval and the batch kernels do, so that sums agree to the bit.

    ``numpy.sum`` adds in pairs, which rounds differently once a list is longer
    than eight entries; a running sum adds each value to the total so far.

    Examples
    --------
    >>> import numpy as np
    >>> from mapteach.metrics._sums import sum_in_rank_order
    >>> sum_in_rank_order(np.array([1.0, 2 / 3, 3 / 4]))
    2.4166666666666665
    >>> sum_in_rank_order(np.array([]))
    0.0
    """
    return float(np.cumsum(values)[-1]) if values.size else 0.0
