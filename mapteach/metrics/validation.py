"""Checks at the public boundary.

Every public function converts its arguments here first, so that bad input fails
with a message that states the rule, the value received and where it was found
(position and rank), never with a traceback from inside numpy.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from mapteach.i18n import N_, tr

__all__ = [
    "as_gains",
    "as_k",
    "as_labels",
    "as_n_relevant",
    "as_rankings",
    "check_choice",
    "query_error",
]

_ARRAY_KINDS = "biuf"


def _where(name: str, index: int) -> str:
    return tr("{name}[{index}] (rank {rank})", name=name, index=index, rank=index + 1)


def _type_name(value: Any) -> str:
    return type(value).__name__


def _as_vector(values: Any, *, name: str, what: str) -> np.ndarray:
    """Return a 1-D float array, checking the container and each element's type."""
    if isinstance(values, (str, bytes)) or not (
        isinstance(values, Sequence) or hasattr(values, "__array__")
    ):
        raise TypeError(
            tr(
                "{name} must be a sequence of {what} (a list, tuple, numpy array or "
                "pandas Series), ranked best first; got {got}.",
                name=name,
                what=tr(what),
                got=_type_name(values),
            )
        )
    if hasattr(values, "__array__") and not isinstance(values, Sequence):
        array = np.asarray(values)
        if array.ndim != 1:
            raise ValueError(
                tr(
                    "{name} must be one-dimensional (one ranked list); got an array of "
                    "shape {shape}.",
                    name=name,
                    shape=array.shape,
                )
            )
        if array.dtype.kind in _ARRAY_KINDS:
            return array.astype(float, copy=False)
        values = array.tolist()
    for index, value in enumerate(values):
        if isinstance(value, (bool, np.bool_)):
            continue
        if not isinstance(value, numbers.Real):
            raise TypeError(
                tr(
                    "{where} is {value!r} ({type}); {name} must hold {what}.",
                    where=_where(name, index),
                    value=value,
                    type=_type_name(value),
                    name=name,
                    what=tr(what),
                )
            )
    return np.asarray(values, dtype=float).reshape(-1)


def as_labels(labels: Any, *, name: str = "labels") -> np.ndarray:
    """Return ``labels`` as a boolean array after checking every element is 0/1."""
    array = _as_vector(labels, name=name, what=N_("0/1 or bool relevance labels"))
    bad = np.flatnonzero((array != 0) & (array != 1))
    if bad.size:
        index = int(bad[0])
        value = array[index]
        shown = "NaN" if math.isnan(value) else f"{value:g}"
        raise ValueError(
            tr(
                "{where} is {shown}; {name} must be 0 or 1 (or bool). Graded judgments "
                "belong in ndcg_at_k or must be turned into 0/1 with a relevance "
                "threshold first.",
                where=_where(name, index),
                shown=shown,
                name=name,
            )
        )
    return array.astype(bool)


def as_gains(gains: Any, *, name: str = "gains") -> np.ndarray:
    """Return ``gains`` as a float array after checking they are finite and >= 0."""
    array = _as_vector(gains, name=name, what=N_("numeric gains (graded relevance)"))
    bad = np.flatnonzero(~np.isfinite(array) | (array < 0))
    if bad.size:
        index = int(bad[0])
        raise ValueError(
            tr(
                "{where} is {value:g}; {name} must be finite and >= 0.",
                where=_where(name, index),
                value=array[index],
                name=name,
            )
        )
    return array


def as_k(k: Any, *, name: str = "k") -> int:
    """Return ``k`` as an int after checking it is a whole number >= 1."""
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral):
        raise TypeError(
            tr(
                "{name} must be a positive integer (a rank cutoff); got {k!r} ({type}).",
                name=name,
                k=k,
                type=_type_name(k),
            )
        )
    if k < 1:
        raise ValueError(tr("{name} must be >= 1 (a rank cutoff); got {k}.", name=name, k=k))
    return int(k)


def as_n_relevant(n_relevant: Any, hits: int, *, name: str = "n_relevant") -> int:
    """Return R, the number of relevant documents, defaulting to the hits in the list."""
    if n_relevant is None:
        return hits
    if isinstance(n_relevant, (bool, np.bool_)) or not isinstance(n_relevant, numbers.Integral):
        raise TypeError(
            tr(
                "{name} must be a whole number (the query's total relevant documents, "
                "retrieved or not) or None; got {value!r} ({type}).",
                name=name,
                value=n_relevant,
                type=_type_name(n_relevant),
            )
        )
    if n_relevant < 0:
        raise ValueError(tr("{name} must be >= 0; got {value}.", name=name, value=n_relevant))
    if n_relevant < hits:
        raise ValueError(
            tr(
                "{name}={value} is smaller than the {hits} relevant items in the ranked "
                "list; R counts every relevant document of the query, retrieved or not, "
                "so it can never be smaller than the hits.",
                name=name,
                value=n_relevant,
                hits=hits,
            )
        )
    return int(n_relevant)


def as_rankings(rankings: Any, *, name: str = "rankings") -> list[Any]:
    """Return a non-empty list of per-query label lists (not yet checked one by one)."""
    if isinstance(rankings, (str, bytes)) or not isinstance(rankings, Sequence):
        if hasattr(rankings, "__array__") and np.ndim(rankings) == 2:
            return list(np.asarray(rankings))
        raise TypeError(
            tr(
                "{name} must be a sequence of ranked label lists, one per query; got {type}.",
                name=name,
                type=_type_name(rankings),
            )
        )
    if len(rankings) == 0:
        raise ValueError(
            tr("{name} is empty; a mean over queries needs at least one query.", name=name)
        )
    return list(rankings)


def check_choice(value: Any, choices: Sequence[str], *, name: str) -> str:
    """Return ``value`` if it is one of ``choices``; otherwise raise naming them all."""
    if value not in choices:
        listed = ", ".join(repr(choice) for choice in choices)
        raise ValueError(
            tr(
                "{name} must be one of {listed}; got {value!r}.",
                name=name,
                listed=listed,
                value=value,
            )
        )
    return value


def query_error(index: int, error: Exception) -> Exception:
    """Return ``error`` again with the query's position in ``rankings`` in front."""
    return type(error)(f"rankings[{index}]: {error}")
