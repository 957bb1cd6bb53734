"""Learner variants: a learner's (or a group's) own data for a keyed exercise, as hard and
as well checked as the original.

Only an exercise built with ``vary=True`` varies: one that stands for an article's
example, or whose data the notebook refers to elsewhere, stays as written. A variant
shuffles the ranked lists of the exercise's data (:attr:`NumberExercise.data
<mapteach.exercises.NumberExercise>`), so R, the cutoff, each list's length and its
relevant results in the top k stay; it recognises exactly the same mistakes of the
registry (:func:`~mapteach.exercises.mistakes.mistakes_for`), and no two of them that
had different values come to share one. Everyone in a group
(``mapteach.learner(name, group=...)``) gets the same variant.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Mapping
from typing import Any

from mapteach.classroom.identity import current_group, current_learner
from mapteach.exercises.answers import agrees_at
from mapteach.exercises.mistakes import mistakes_for

__all__ = ["variant_data", "variant_orders", "variant_rng"]

ExerciseData = Mapping[str, Any]
#: The keys of a ranking's data that hold one value per rank, shuffled together.
RANKED_KEYS = ("labels", "grades")


def variant_rng(key: str | None) -> random.Random | None:
    """The random numbers of exercise ``key`` for the current group, else the current learner.

    None with no key, or with neither a group nor a learner: the exercise is then as
    written. The same group (or learner) always gets the same numbers for one key.

    >>> from mapteach.classroom import forget_learner, learner
    >>> forget_learner()
    >>> variant_rng("03.1") is None
    True
    >>> _ = learner("ada")
    >>> variant_rng("03.1").random() == variant_rng("03.1").random()
    True
    >>> forget_learner()
    """
    if key is None:
        return None
    group, name = current_group(), current_learner()
    if group:
        seed = f"group\n{group}\n{key}"
    elif name:
        seed = f"{name}\n{key}"
    else:
        return None
    digest = hashlib.sha256(seed.encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def variant_data(
    data: ExerciseData,
    *,
    kind: str,
    truth: Callable[[ExerciseData], float],
    key: str | None,
    vary: bool,
    decimals: int = 4,
    cutoff: int | None = None,
    tries: int = 500,
) -> dict[str, Any]:
    """The data exercise ``key`` is built from: a variant of ``data``, or ``data`` itself.

    With ``vary`` and a group or learner set (:func:`variant_rng`), each ranked list
    of ``data`` (``labels``, with ``grades`` alongside; each of ``queries``) is
    shuffled within its top ``cutoff`` ranks and within the rest (``cutoff`` defaults
    to the data's ``k``; the whole list without one). A shuffle is kept when it
    differs from ``data``, recognises the same mistakes of ``kind`` at ``decimals``
    (those whose value differs from ``truth(variant)``), and makes no two of them
    newly share a value. After ``tries`` misses ``data`` comes back.

    Examples
    --------
    >>> from mapteach.classroom import forget_learner, learner
    >>> data = {"labels": [0, 1, 1, 0, 1, 0], "n_relevant": 4, "k": None}
    >>> from mapteach.metrics import average_precision
    >>> def ap(d):
    ...     return average_precision(d["labels"], n_relevant=d["n_relevant"])
    >>> forget_learner()
    >>> variant_data(data, kind="AP", truth=ap, key="03.1", vary=True) == data  # no learner
    True
    >>> _ = learner("ada")
    >>> variant_data(data, kind="AP", truth=ap, key="03.1", vary=False) == data
    True
    >>> mine = variant_data(data, kind="AP", truth=ap, key="03.1", vary=True)
    >>> mine != data, sorted(mine["labels"]), mine["n_relevant"]
    (True, [0, 0, 0, 1, 1, 1], 4)
    >>> forget_learner()
    """
    rng = variant_rng(key) if vary else None
    if rng is None:
        return dict(data)
    depth = data.get("k") if cutoff is None else cutoff
    wanted, collided = _recognised(kind, data, truth, decimals)
    for _ in range(tries):
        candidate = _shuffled(data, rng, depth)
        if candidate == data:
            continue
        recognised, collisions = _recognised(kind, candidate, truth, decimals)
        if recognised == wanted and collisions <= collided:
            return candidate
    return dict(data)


def _shuffled(data: ExerciseData, rng: random.Random, depth: int | None) -> dict[str, Any]:
    """``data`` with each of its ranked lists shuffled above and below ``depth``."""
    if "queries" in data:
        queries = [
            _shuffled(query, rng, _first_set(depth, query.get("k"), data.get("k")))
            for query in data["queries"]
        ]
        return {**data, "queries": queries}
    keys = [name for name in RANKED_KEYS if name in data]
    rows = list(zip(*(data[name] for name in keys), strict=True))
    split = len(rows) if depth is None else min(depth, len(rows))
    rows = rng.sample(rows[:split], split) + rng.sample(rows[split:], len(rows) - split)
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in keys]
    shuffled = {name: [int(v) for v in column] for name, column in zip(keys, columns, strict=True)}
    return {**data, **shuffled}


def _first_set(*depths: int | None) -> int | None:
    return next((depth for depth in depths if depth is not None), None)


def _recognised(
    kind: str, data: ExerciseData, truth: Callable[[ExerciseData], float], decimals: int
) -> tuple[frozenset[str], frozenset[frozenset[str]]]:
    """The mistakes of ``kind`` told apart from the truth on ``data``, and the pairs of
    them that share a value at the asked precision."""
    right = truth(data)
    values = {}
    for mistake in mistakes_for(kind):
        value = mistake.value(data)
        if value is not None and not agrees_at(value, right, decimals):
            values[mistake.name] = value
    pairs = frozenset(
        frozenset((a, b))
        for a in values
        for b in values
        if a < b and agrees_at(values[a], values[b], decimals)
    )
    return frozenset(values), pairs


def variant_orders(
    orders: list[list[str]], key: str | None, scores: Any, decimals: int, *, vary: bool = False
) -> list[list[str]]:
    """The learner's own orders of some ranked document lists (as written with no learner).

    A variant holds the same documents, differs from the original and lets the
    exercise recognise exactly the same mistakes (``scores(*orders)`` returns the
    right answer and ``{mistake: value}``). Without ``vary`` the orders stay.

    >>> from mapteach.classroom import forget_learner, learner
    >>> def scores(order):
    ...     return float(order.index("d1")), {}
    >>> forget_learner()
    >>> variant_orders([["d1", "d2", "d3"]], "14.1", scores, 0, vary=True)
    [['d1', 'd2', 'd3']]
    >>> _ = learner("ada")
    >>> variant_orders([["d1", "d2", "d3"]], "14.1", scores, 0)  # vary=False: as written
    [['d1', 'd2', 'd3']]
    >>> [order] = variant_orders([["d1", "d2", "d3"]], "14.1", scores, 0, vary=True)
    >>> order != ["d1", "d2", "d3"], sorted(order)
    (True, ['d1', 'd2', 'd3'])
    >>> forget_learner()
    """
    rng = variant_rng(key) if vary else None
    if rng is None:
        return orders
    wanted = _told_apart(scores(*orders), decimals)
    for _ in range(500):
        candidate = [rng.sample(order, len(order)) for order in orders]
        if candidate != orders and _told_apart(scores(*candidate), decimals) == wanted:
            return candidate
    return orders


def _told_apart(scores: tuple[float, dict[str, float]], decimals: int) -> frozenset[str]:
    """The mistakes an exercise tells apart from the right answer at the asked precision."""
    truth, wrong = scores
    return frozenset(name for name, value in wrong.items() if not agrees_at(value, truth, decimals))
