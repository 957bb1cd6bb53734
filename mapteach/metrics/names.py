"""Measure names as ir_measures spells them (``AP``, ``AP@10``, ``P@10``, ``nDCG@10``).

One declaration per measure family gives its name, whether it takes a cutoff,
a one-line description, and how to score one ranked list of 0/1 labels.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np
from numpy.typing import ArrayLike

from mapteach.metrics import (
    average_precision,
    hit_at_k,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
)
from mapteach.metrics._validation import as_k, as_labels, as_n_relevant

__all__ = ["FAMILIES", "Family", "Labels", "Measure", "parse_measure"]

#: One ranked list of 0/1 (or bool) relevance labels, best first.
Labels = ArrayLike


@dataclass(frozen=True)
class Family:
    """A measure family such as AP: its name, cutoff rule, description and scorer."""

    name: str
    cutoff: str  # "optional" or "required"
    description: str
    score: Callable[[np.ndarray, int, int | None], float]


def _ndcg(labels: np.ndarray, r: int, k: int | None) -> float:
    # Without a cutoff the ideal ranking holds all R relevant documents.
    return ndcg_at_k(labels, k or max(labels.size, r, 1), ideal=np.ones(r))


#: Every measure family by name, read-only: a measure is added here, not by callers.
FAMILIES: Mapping[str, Family] = MappingProxyType(
    {
        family.name: family
        for family in (
            Family(
                "AP",
                "optional",
                "average precision: mean of P@i over the ranks i of relevant documents, "
                "over R (trec_eval map / map_cut_k)",
                lambda y, r, k: average_precision(y, n_relevant=r, k=k),
            ),
            Family(
                "P",
                "required",
                "precision at k: relevant documents in the top k, over k (trec_eval P_k)",
                lambda y, r, k: precision_at_k(y, as_k(k)),
            ),
            Family(
                "R",
                "required",
                "recall at k: relevant documents in the top k, over R (trec_eval recall_k)",
                lambda y, r, k: recall_at_k(y, as_k(k), n_relevant=r),
            ),
            Family(
                "RR",
                "optional",
                "reciprocal rank: 1 / rank of the first relevant document (trec_eval recip_rank)",
                lambda y, r, k: reciprocal_rank(y, k=k),
            ),
            Family(
                "nDCG",
                "optional",
                "normalised discounted cumulative gain, linear gain and log2 discount "
                "(trec_eval ndcg / ndcg_cut_k)",
                _ndcg,
            ),
            Family(
                "Success",
                "required",
                "hit at k: 1 if any relevant document is in the top k, else 0 (also written Hit@k)",
                lambda y, r, k: hit_at_k(y, as_k(k)),
            ),
        )
    }
)

_ALIASES = {"Hit": "Success", "MAP": "AP", "MRR": "RR"}
_PATTERN = re.compile(r"^(?P<family>[A-Za-z]+)(?:@(?P<k>\d+))?$")


@dataclass(frozen=True)
class Measure:
    """A parsed measure: a family and an optional rank cutoff ``k``."""

    family: str
    k: int | None = None

    @property
    def name(self) -> str:
        """The canonical name, such as ``AP@10``."""
        return self.family if self.k is None else f"{self.family}@{self.k}"

    @property
    def description(self) -> str:
        """One line on what the measure computes."""
        return FAMILIES[self.family].description

    def score(self, labels: Labels, *, n_relevant: int | None = None) -> float:
        """Score one ranked list of 0/1 labels whose query has R = ``n_relevant``.

        Examples
        --------
        >>> from mapteach.metrics.names import parse_measure
        >>> parse_measure("AP@3").score([1, 0, 1, 1], n_relevant=3)  # (1/1 + 2/3) / 3
        0.5555555555555555
        """
        y = as_labels(labels)
        r = as_n_relevant(n_relevant, int(y.sum()))
        return FAMILIES[self.family].score(y, r, self.k)

    def __str__(self) -> str:
        return self.name


def parse_measure(name: str) -> Measure:
    """Parse a measure name as ir_measures writes it.

    Families: ``AP``, ``P``, ``R``, ``RR``, ``nDCG``, ``Success`` (alias ``Hit``),
    each optionally followed by ``@k``; ``MAP`` and ``MRR`` are read as ``AP``
    and ``RR`` (the mean over queries is taken by whoever averages).

    Parameters
    ----------
    name : str
        Such as ``"AP"``, ``"AP@10"``, ``"P@5"``, ``"nDCG@10"``.

    Returns
    -------
    Measure

    Raises
    ------
    TypeError
        If ``name`` is not a string.
    ValueError
        If the family is unknown, a required cutoff is missing, or k < 1.

    Examples
    --------
    >>> from mapteach.metrics.names import parse_measure
    >>> parse_measure("AP@10")
    Measure(family='AP', k=10)
    >>> parse_measure("Hit@3").name
    'Success@3'
    """
    if not isinstance(name, str):
        raise TypeError(f"a measure name must be a string such as 'AP@10'; got {name!r}.")
    match = _PATTERN.match(name.strip())
    family = _ALIASES.get(match["family"], match["family"]) if match else ""
    if not match or family not in FAMILIES:
        known = ", ".join(FAMILIES)
        raise ValueError(
            f"unknown measure {name!r}; use one of {known} (Hit for Success), "
            "optionally with a cutoff such as '@10'."
        )
    k = None if match["k"] is None else int(match["k"])
    if k is not None and k < 1:
        raise ValueError(f"the cutoff in {name!r} must be >= 1.")
    if k is None and FAMILIES[family].cutoff == "required":
        raise ValueError(f"{family} needs a cutoff, such as '{family}@10'; got {name!r}.")
    return Measure(family, k)
