"""The mistakes learners make averaging AP over queries: MAP and GMAP, in their own numbers.

Registered in :mod:`mapteach.exercises.mistakes` when this module is imported. The data
is ``{"queries": [{"labels": [...], "n_relevant": R, "k": k or None}, ...], "k": k or
None}`` (a query's own ``k`` wins over the shared one). Two MAP values are other
conventions, not blunders: leaving out a query with no relevant result (article 003,
torchmetrics' ``empty_target_action="skip"``) and scoring it 1 (torchmetrics'
``empty_target_action="pos"``); their explanations say so, and that the exercise asks
for trec_eval's, which scores such a query 0 and keeps it in the mean.

With a failed query (AP 0, floored at 1e-5), the product of the floored APs is at most
1e-5, 0 at any precision an exercise asks: the mistakes that stop at the product (or
divide it) are then not offered, as forgetting the floor (a product of 0) explains
that answer.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from mapteach.exercises.mistakes import Mistake, exact_number, register
from mapteach.exercises.mistakes import number as shown
from mapteach.exercises.mistakes_ranking import (
    Ranking,
    explained,
    final_hits_in_every_numerator,
    mean_precision_every_rank,
)
from mapteach.i18n import N_, tr
from mapteach.metrics import geometric_mean
from mapteach.metrics.gmap import GM_FLOOR

__all__ = ["queries_of"]

ExerciseData = Mapping[str, Any]


def queries_of(data: ExerciseData) -> list[Ranking]:
    """Each query of a MAP-style exercise's data, read and checked.

    >>> [q.r for q in queries_of({"queries": [{"labels": [1, 0], "n_relevant": 2},
    ...                                      {"labels": [0, 0], "n_relevant": 0}], "k": None})]
    [2, 0]
    """
    queries = data["queries"]
    if not isinstance(queries, list) or not queries:
        raise ValueError(
            tr("data['queries'] must be a non-empty list of queries; got {got!r}.", got=queries)
        )
    shared = data.get("k")
    return [
        Ranking.of({**query, "k": shared if query.get("k") is None else query["k"]})
        for query in queries
    ]


def _aps(queries: list[Ranking]) -> list[float]:
    return [query.ap() for query in queries]


def _mean(values: list[float]) -> float:
    return float(sum(values) / len(values))


def _added(values: list[float]) -> str:
    return " + ".join(shown(value) for value in values)


def _map_facts(data: ExerciseData) -> dict[str, object]:
    """Every number a MAP explanation may show."""
    queries = queries_of(data)
    aps = _aps(queries)
    kept = [ap for ap, query in zip(aps, queries, strict=True) if query.r]
    right = f"MAP = ({_added(aps)}) / {len(aps)} = {shown(_mean(aps))}"
    return {
        "q": len(queries),
        "aps": _added(aps),
        "right": right,
        "kept": _added(kept) or "0",
        "kept_n": len(kept),
        "as_one": _added([ap if query.r else 1.0 for ap, query in zip(aps, queries, strict=True)]),
        "empty": len(queries) - len(kept),
        "sums": " + ".join(shown(ap * query.r) for ap, query in zip(aps, queries, strict=True)),
        "total_r": sum(query.r for query in queries),
    }


def _mistake(
    name: str,
    kinds: tuple[str, ...],
    value: Callable[[list[Ranking]], float | None],
    template: str,
    facts: Callable[[ExerciseData], dict[str, object]],
    convention: str | None = None,
) -> Mistake:
    """Register a mistake of a mean over queries; ``value`` gets the queries."""

    def value_of(data: ExerciseData) -> float | None:
        return value(queries_of(data))

    return register(Mistake(name, kinds, value_of, explained(template, facts), convention))


def _skip_empty(queries: list[Ranking]) -> float | None:
    kept = [query.ap() for query in queries if query.r]
    return _mean(kept) if kept and len(kept) < len(queries) else None


def _empty_as_one(queries: list[Ranking]) -> float | None:
    if all(query.r for query in queries):
        return None
    return _mean([query.ap() if query.r else 1.0 for query in queries])


def _over_found(queries: list[Ranking]) -> float | None:
    if all(query.found == query.r for query in queries):
        return None
    return _mean([query.ap() * query.r / query.found if query.found else 0.0 for query in queries])


def _mean_precision(queries: list[Ranking]) -> float:
    return _mean([sum(query.top) / len(query.top) if query.top else 0.0 for query in queries])


def _mean_every_rank(queries: list[Ranking]) -> float:
    return _mean([mean_precision_every_rank(query) or 0.0 for query in queries])


def _micro(queries: list[Ranking]) -> float | None:
    total = sum(query.r for query in queries)
    return sum(query.ap() * query.r for query in queries) / total if total else None


def _final_hits(queries: list[Ranking]) -> float | None:
    if all(len(query.ranks) < 2 for query in queries):
        return None
    return _mean([final_hits_in_every_numerator(q.labels, n_relevant=q.r, k=q.k) for q in queries])


def _skip_failed(queries: list[Ranking]) -> float | None:
    kept = [query.ap() for query in queries if query.found or not query.r]
    return _mean(kept) if kept and len(kept) < len(queries) else None


_mistake(
    N_("skip instead of zero"),
    ("MAP",),
    _skip_empty,
    N_(
        "That is MAP as article 003 computes it, leaving out each query with no relevant "
        "result ({empty} of {q}): ({kept}) / {kept_n} = {value}. This exercise asks for "
        "trec_eval's MAP (and articles 000 and 001's), which scores such a query 0 and keeps "
        "it in the mean: {right}."
    ),
    _map_facts,
    convention=N_(
        "article 003's and torchmetrics' empty_target_action=\"skip\", leaving out a query "
        "with no relevant result"
    ),
)
_mistake(
    N_("counted an empty query as 1"),
    ("MAP",),
    _empty_as_one,
    N_(
        'That is MAP as torchmetrics computes it with empty_target_action="pos", scoring '
        "each query with no relevant result ({empty} of {q}) 1: MAP = ({as_one}) / {q} = "
        "{value}. Its AP is 0 / 0, and conventions differ; this exercise asks for trec_eval's "
        "MAP, which scores such a query 0 and keeps it in the mean: {right}."
    ),
    _map_facts,
    convention=N_('torchmetrics\' empty_target_action="pos", scoring 1 a query with R = 0'),
)
_mistake(
    N_("forgot the missed relevant results"),
    ("MAP",),
    _over_found,
    N_(
        "Some query's AP was divided by the relevant results its list found, not by its R: "
        "{value}. R counts the ones it missed too; with each query's AP divided by its R, "
        "{right}."
    ),
    _map_facts,
)
_mistake(
    N_("mean of each list's precision"),
    ("MAP",),
    _mean_precision,
    N_(
        "You averaged each list's precision, its relevant results over its length: {value}. "
        "MAP averages each query's AP, the precision at every relevant rank added and "
        "divided by R: {right}."
    ),
    _map_facts,
)
_mistake(
    N_("mean of P@i over every rank"),
    ("MAP",),
    _mean_every_rank,
    N_(
        "You averaged the precision at every rank of each list, relevant or not: {value}. "
        "Each query's AP adds the precision only at its relevant ranks and divides by its R; "
        "MAP is the mean of those APs: {right}."
    ),
    _map_facts,
)
_mistake(
    N_("averaged over all relevant results, not per query"),
    ("MAP",),
    _micro,
    N_(
        "You pooled the queries: every query's sum added ({sums}) and divided by all their "
        "relevant results, {total_r}: {value}. MAP gives each query the same weight: the mean "
        "of their APs, {right}."
    ),
    _map_facts,
)
_mistake(
    N_("final hit count in every numerator"),
    ("MAP",),
    _final_hits,
    N_(
        "You put each list's final hit count in every term of its AP: {value}. At each "
        "relevant rank count only the hits so far: {right}."
    ),
    _map_facts,
)
_mistake(
    N_("added the APs without dividing"),
    ("MAP",),
    lambda queries: sum(_aps(queries)) if len(queries) > 1 else None,
    N_("You stopped at the sum of the APs, {aps} = {value}. MAP is their mean: {right}."),
    _map_facts,
)
_mistake(
    N_("left out a query that found nothing"),
    ("MAP",),
    _skip_failed,
    N_(
        "You left out a query whose list found none of its relevant results: {value}. Its AP "
        "is 0, a real failure, and it stays in the mean: {right}."
    ),
    _map_facts,
)


# GMAP --------------------------------------------------------------------------------------


def _floored(queries: list[Ranking]) -> list[float]:
    return [max(ap, GM_FLOOR) for ap in _aps(queries)]


def _gmap_facts(data: ExerciseData) -> dict[str, object]:
    """Every number a GMAP explanation may show."""
    queries = queries_of(data)
    floored = _floored(queries)
    product = " × ".join(exact_number(ap) for ap in floored)
    truth = geometric_mean(_aps(queries))
    return {
        "q": len(queries),
        "aps": tr(", ").join(exact_number(ap) for ap in _aps(queries)),
        "product": product,
        "floor": f"{GM_FLOOR:g}",
        "right": f"GMAP = ({product})^(1/{len(queries)}) = {shown(truth)}",
    }


def _no_floor(queries: list[Ranking]) -> float | None:
    aps = _aps(queries)
    if min(aps) >= GM_FLOOR:
        return None
    return float(np.prod(aps) ** (1 / len(aps)))


def _skip_zero(queries: list[Ranking]) -> float | None:
    kept = [ap for ap in _aps(queries) if ap > 0]
    if not kept or len(kept) == len(queries):
        return None
    return float(np.prod(kept) ** (1 / len(kept)))


_mistake(
    N_("the arithmetic mean (MAP)"),
    ("GMAP",),
    lambda queries: _mean(_aps(queries)),
    N_(
        "You added the APs ({aps}) and divided by their number: {value}, that is MAP. GMAP "
        "multiplies them and takes the n-th root (n = {q}), so a query near 0 pulls it down "
        "far more: "
        "{right}."
    ),
    _gmap_facts,
)
_mistake(
    N_("no floor under a zero AP"),
    ("GMAP",),
    _no_floor,
    N_(
        "One AP is 0, and you let it make the product 0: {value}. trec_eval's gm_map first "
        "raises every AP below {floor} to {floor}, so a failed query costs a lot, not "
        "everything: {right}."
    ),
    _gmap_facts,
)
_mistake(
    N_("mean of the logs, not exponentiated"),
    ("GMAP",),
    lambda queries: _mean([math.log(ap) for ap in _floored(queries)]),
    N_(
        "You stopped at the mean of the logs, {value}. GMAP is the exponential of that mean, "
        "a number between the smallest and the largest AP: {right}."
    ),
    _gmap_facts,
)


def _product(queries: list[Ranking]) -> float | None:
    """The product of the floored APs; None with one query, or where a floored AP makes it
    0 at any precision asked (forgetting the floor explains that answer)."""
    floored = _floored(queries)
    if len(queries) < 2 or min(floored) <= GM_FLOOR:
        return None
    return float(np.prod(floored))


def _product_over_queries(queries: list[Ranking]) -> float | None:
    product = _product(queries)
    return None if product is None else product / len(queries)


_mistake(
    N_("multiplied the APs without the root"),
    ("GMAP",),
    _product,
    N_(
        "You stopped at the product, {product} = {value}. GMAP takes its n-th root, n = {q} "
        "queries: {right}."
    ),
    _gmap_facts,
)
_mistake(
    N_("divided the product by the number of queries"),
    ("GMAP",),
    _product_over_queries,
    N_(
        "You divided the product by {q}, as an arithmetic mean divides the sum: {value}. A "
        "geometric mean takes the n-th root of the product (n = {q}): {right}."
    ),
    _gmap_facts,
)
_mistake(
    N_("left out the failed query"),
    ("GMAP",),
    _skip_zero,
    N_(
        "You left out the query with AP 0: {value}. GMAP keeps every query, a failed one "
        "floored at {floor}, and that is what makes it reward systems that do not fail: "
        "{right}."
    ),
    _gmap_facts,
)
