"""Slow, obviously-correct reference implementations, written from the definitions.

They loop rank by rank like the formulas on the blackboard; the package's
vectorised code is tested against them.
"""

from __future__ import annotations


def reference_ap(labels, n_relevant=None, k=None):
    """Sum of P@i at relevant ranks i <= k, divided by R."""
    r = sum(labels) if n_relevant is None else n_relevant
    if r == 0:
        return 0.0
    total, hits = 0.0, 0
    for rank, label in enumerate(labels, start=1):
        if k is not None and rank > k:
            break
        if label:
            hits += 1
            total += hits / rank
    return total / r
