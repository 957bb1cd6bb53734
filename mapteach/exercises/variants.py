"""Learner variants: each named learner's own numbers for a keyed exercise, with the same
difficulty and the same recognisable mistakes.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Any

from mapteach.classroom.identity import learner as current_learner
from mapteach.exercises.answers import agrees_at
from mapteach.metrics.validation import as_labels


def variant_rng(key: str | None) -> random.Random | None:
    """The learner's own random numbers for exercise ``key`` (None: no learner, or no key).

    With :func:`mapteach.learner` set, a keyed numeric exercise draws its ranking
    from these, so two learners get different lists of the same difficulty and the
    same learner always gets the same one. With no learner the exercise is as written.

    >>> from mapteach.classroom import learner
    >>> variant_rng("03.1") is None
    True
    """
    name = current_learner()
    if key is None or not name:
        return None
    digest = hashlib.sha256(f"{name}\n{key}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def variant_labels(
    rankings: Sequence[Sequence[int | bool]],
    rng: random.Random,
    scores: Any,
    decimals: int,
    k: int | None,
    tries: int = 500,
) -> list[list[int]]:
    """Shuffle each ranking until the exercise stays as hard and as well checked.

    A variant keeps each list's length and relevant results (so R and the cutoff
    stay), keeps the number of relevant results in the top ``k`` between 1 and
    ``k - 1`` when the original had that, differs from the original, and lets the
    exercise recognise exactly the same mistakes (``scores(*rankings)`` returns
    the right answer and each mistake's value). After ``tries`` misses the
    original comes back.

    >>> import random
    >>> variant_labels([[1, 0, 1, 0, 0]], random.Random(0),
    ...                lambda y: (sum(y[:2]) / 2, {}), 4, 2)
    [[0, 1, 0, 0, 1]]
    """
    original = [as_labels(y).astype(int).tolist() for y in rankings]
    wanted = _recognised(scores(*original), decimals)

    def top_mixed(y: list[int]) -> bool:
        return k is None or 0 < sum(y[:k]) < min(k, len(y))

    mixed = [top_mixed(y) for y in original]
    for _ in range(tries):
        candidate = [rng.sample(y, len(y)) for y in original]
        if candidate == original:
            continue
        if any(m and not top_mixed(y) for m, y in zip(mixed, candidate, strict=True)):
            continue
        if _recognised(scores(*candidate), decimals) == wanted:
            return candidate
    return original


def variant_rankings(
    rankings: Sequence[Sequence[int | bool]],
    prompt: str | None,
    key: str | None,
    scores: Any,
    decimals: int,
    k: int | None,
) -> tuple[list[Any], str | None]:
    """The learner's own rankings and prompt for exercise ``key`` (as written with no learner).

    The rankings come from :func:`variant_labels` (``scores``, ``decimals`` and ``k``
    as there). A prompt the notebook wrote must show every list literally
    (``[1, 0, 1]``) for the learner's lists to replace them; otherwise the exercise
    stays as written. A prompt of None is left to the factory to write.

    >>> from mapteach.classroom import forget_learner, learner
    >>> def scores(y):
    ...     return sum(y[:2]) / 2, {}
    >>> forget_learner()
    >>> variant_rankings([[1, 0, 1, 0, 0]], "P@2 of [1, 0, 1, 0, 0]?", "03.1", scores, 4, 2)
    ([[1, 0, 1, 0, 0]], 'P@2 of [1, 0, 1, 0, 0]?')
    >>> _ = learner("ada")
    >>> rankings, prompt = variant_rankings([[1, 0, 1, 0, 0]], "P@2 of [1, 0, 1, 0, 0]?", "03.1",
    ...                                     scores, 4, 2)
    >>> prompt == f"P@2 of {rankings[0]}?", sorted(rankings[0]), sum(rankings[0][:2])
    (True, [0, 0, 0, 1, 1], 1)
    >>> forget_learner()
    """
    rng = variant_rng(key)
    if rng is None:
        return list(rankings), prompt
    original = [as_labels(y).astype(int).tolist() for y in rankings]
    if prompt is not None and not all(str(y) in prompt for y in original):
        return list(rankings), prompt
    variant = variant_labels(original, rng, scores, decimals, k)
    if prompt is not None:
        marks = [f"\x00{index}\x00" for index in range(len(original))]
        for mark, y in zip(marks, original, strict=True):
            prompt = prompt.replace(str(y), mark)
        for mark, y in zip(marks, variant, strict=True):
            prompt = prompt.replace(mark, str(y))
    return variant, prompt


def variant_orders(
    orders: list[list[str]], key: str | None, scores: Any, decimals: int
) -> list[list[str]]:
    """The learner's own orders of some ranked document lists (as written with no learner).

    As :func:`variant_labels`: a variant holds the same documents, differs from the
    original and lets the exercise recognise exactly the same mistakes
    (``scores(*orders)`` returns the right answer and each mistake's value).

    >>> from mapteach.classroom import forget_learner, learner
    >>> def scores(order):
    ...     return float(order.index("d1")), {}
    >>> forget_learner()
    >>> variant_orders([["d1", "d2", "d3"]], "14.1", scores, 0)
    [['d1', 'd2', 'd3']]
    >>> _ = learner("ada")
    >>> [order] = variant_orders([["d1", "d2", "d3"]], "14.1", scores, 0)
    >>> order != ["d1", "d2", "d3"], sorted(order)
    (True, ['d1', 'd2', 'd3'])
    >>> forget_learner()
    """
    rng = variant_rng(key)
    if rng is None:
        return orders
    wanted = _recognised(scores(*orders), decimals)
    for _ in range(500):
        candidate = [rng.sample(order, len(order)) for order in orders]
        if candidate != orders and _recognised(scores(*candidate), decimals) == wanted:
            return candidate
    return orders


def _recognised(scores: tuple[float, dict[str, float]], decimals: int) -> frozenset[str]:
    """The mistakes an exercise tells apart from the right answer at the asked precision."""
    truth, wrong = scores
    return frozenset(name for name, value in wrong.items() if not agrees_at(value, truth, decimals))
