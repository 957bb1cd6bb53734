"""The mistakes learners make with precision and recall at a cutoff, R-precision,
interpolated precision and micro-averaged R@k, each a function of an exercise's data, in
the learner's numbers.

Registered in :mod:`mapteach.exercises.mistakes` when this module is imported. The data
is ``{"labels": [...], "n_relevant": R, "k": k}`` (``k`` None for R-precision, where the
cutoff is R), plus ``"recall"`` (the level asked) for interpolated precision. Micro R@k
reads a MAP exercise's queries with a shared cutoff, ``{"queries": [{"labels",
"n_relevant", "k": None}, ...], "k": k}``: its mistakes are the macro average, micro P@k
(the hits over the Q x k results counted) and the cutoff ignored. Two
values of interpolated precision are other conventions, not blunders: trec_eval's
``iprec_at_recall`` turns the level into a number of relevant documents with
``(long)(L × R + 0.9)`` (trec_eval 9, pytrec_eval, ir_measures) or ``lround(L × R)``
(trec_eval 10), where the exercise asks for IIR's "recall at the level or higher".
trec_eval computes ``iprec_at_recall`` at the levels 0.0, 0.1, ..., 1.0 only, so those
two are offered at those levels (:func:`mapteach.metrics.eleven_point_precisions`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import numpy as np

from mapteach.exercises.mistakes import Mistake, exact_number, number, register
from mapteach.exercises.mistakes_ranking import Ranking, explained
from mapteach.i18n import N_
from mapteach.metrics import (
    eleven_point_precisions,
    hits_needed,
    micro_precision_at_k,
    micro_recall_at_k,
    recall_at_k,
)
from mapteach.metrics.curves import curve_arrays, interpolated_precision
from mapteach.metrics.micro_average import hits_and_relevant
from mapteach.metrics.options import ElevenPoint

__all__ = ["iir_hits_needed", "interpolated_at_level", "reached_level"]

ExerciseData = Mapping[str, Any]


def _cutoff(data: ExerciseData) -> tuple[Ranking, int]:
    """The ranking and its cutoff: k, or R for R-precision (``k`` None)."""
    ranking = Ranking.of(data)
    return ranking, ranking.r if ranking.k is None else ranking.k


def _precision_at(ranking: Ranking, depth: int) -> float:
    return ranking.hits_at(depth) / depth


def _facts(data: ExerciseData) -> dict[str, object]:
    """Every number a precision or recall explanation may show."""
    ranking, k = _cutoff(data)
    h, r = ranking.hits_at(k), ranking.r
    ranks = [rank for rank, label in enumerate(ranking.labels, start=1) if label]
    return {
        "r": r,
        "k": k,
        "n": len(ranking.labels),
        "h": h,
        "found": ranking.found,
        "precision": number(h / k),
        "recall": number(h / r) if r else number(0),
        "k_before": k - 1,
        "h_before": ranking.hits_at(k - 1),
        "k_after": k + 1,
        "h_after": ranking.hits_at(k + 1),
        "last": ranks[-1] if ranks else 0,
        "h_found": ranking.hits_at(ranking.found),
        "h_10": ranking.hits_at(10),
    }


def _mistake(
    name: str,
    kinds: tuple[str, ...],
    value: Callable[[Ranking, int], float | None],
    template: str,
) -> Mistake:
    """Register a mistake of one ranking at a cutoff; none can be made when R = 0."""

    def value_of(data: ExerciseData) -> float | None:
        ranking, k = _cutoff(data)
        return None if ranking.r == 0 else value(ranking, k)

    return register(Mistake(name, kinds, value_of, explained(template, _facts)))


# P@k ---------------------------------------------------------------------------------------

_mistake(
    N_("divided by R"),
    ("P@k",),
    lambda y, k: None if y.r == k else y.hits_at(k) / y.r,
    N_(
        "You divided by R = {r}, the query's relevant results: {h}/{r} = {value}, that is "
        "recall R@{k}. P@{k} divides the hits in the top {k} by {k}: P@{k} = {h}/{k} = "
        "{precision}."
    ),
)
_mistake(
    N_("divided by the list's length"),
    ("P@k",),
    lambda y, k: y.hits_at(k) / len(y.labels) if 0 < len(y.labels) < k else None,
    N_(
        "The list holds only {n} results, and you divided by that: {h}/{n} = {value}. "
        "trec_eval's P@{k} always divides by {k}: a system that returns fewer results is not "
        "excused, so P@{k} = {h}/{k} = {precision}."
    ),
)
_mistake(
    N_("counted hits below rank k"),
    ("P@k",),
    lambda y, k: None if y.found == y.hits_at(k) else y.found / k,
    N_(
        "You counted the relevant results of the whole list ({found}): {found}/{k} = {value}. "
        "P@{k} counts only those in the top {k} ({h}): {h}/{k} = {precision}."
    ),
)
_mistake(
    N_("precision of the whole list"),
    ("P@k",),
    lambda y, k: y.found / len(y.labels) if len(y.labels) > k else None,
    N_(
        "You took the precision of the whole list of {n} results: {found}/{n} = {value}. "
        "P@{k} stops at rank {k}: {h}/{k} = {precision}."
    ),
)
_mistake(
    N_("stopped one rank early"),
    ("P@k",),
    lambda y, k: _precision_at(y, k - 1) if 1 < k <= len(y.labels) else None,
    N_(
        "You stopped at rank {k_before}: {h_before}/{k_before} = {value}. The top {k} run from "
        "rank 1 to rank {k}, both included: P@{k} = {h}/{k} = {precision}."
    ),
)
_mistake(
    N_("went one rank too far"),
    ("P@k",),
    lambda y, k: _precision_at(y, k + 1) if k < len(y.labels) else None,
    N_(
        "You went on to rank {k_after}: {h_after}/{k_after} = {value}. Ranks count from 1, so "
        "the top {k} end at rank {k}: P@{k} = {h}/{k} = {precision}."
    ),
)

# R@k ---------------------------------------------------------------------------------------

_mistake(
    N_("divided by k"),
    ("R@k",),
    lambda y, k: None if y.r == k else y.hits_at(k) / k,
    N_(
        "You divided by k = {k}: {h}/{k} = {value}, that is precision P@{k}. R@{k} divides "
        "the hits in the top {k} by R = {r}, every relevant result of the query: R@{k} = "
        "{h}/{r} = {recall}."
    ),
)
_mistake(
    N_("forgot the missed relevant results"),
    ("R@k",),
    lambda y, k: y.hits_at(k) / y.found if 0 < y.found < y.r else None,
    N_(
        "You divided by the relevant results the list found ({found}): {h}/{found} = {value}. "
        "R = {r} counts the ones it never retrieved too: R@{k} = {h}/{r} = {recall}."
    ),
)
_mistake(
    N_("ignored the cutoff"),
    ("R@k",),
    lambda y, k: None if y.found == y.hits_at(k) else y.found / y.r,
    N_(
        "You counted the relevant results of the whole list ({found}): {found}/{r} = {value}. "
        "R@{k} counts only those in the top {k} ({h}): {h}/{r} = {recall}."
    ),
)
_mistake(
    N_("stopped one rank early"),
    ("R@k",),
    lambda y, k: y.hits_at(k - 1) / y.r if 1 < k <= len(y.labels) else None,
    N_(
        "You stopped at rank {k_before}: {h_before}/{r} = {value}. The top {k} run from rank 1 "
        "to rank {k}, both included: R@{k} = {h}/{r} = {recall}."
    ),
)
_mistake(
    N_("went one rank too far"),
    ("R@k",),
    lambda y, k: y.hits_at(k + 1) / y.r if k < len(y.labels) else None,
    N_(
        "You went on to rank {k_after}: {h_after}/{r} = {value}. Ranks count from 1, so the "
        "top {k} end at rank {k}: R@{k} = {h}/{r} = {recall}."
    ),
)

# R-precision -------------------------------------------------------------------------------

_mistake(
    N_("P@10 for R-precision"),
    ("R-precision",),
    lambda y, r: None if r == 10 else _precision_at(y, 10),
    N_(
        "You cut the list at 10, as P@10 does: {h_10}/10 = {value}. R-precision cuts each "
        "query at its own R, the number of its relevant results: {h}/{r} = {precision}."
    ),
)
_mistake(
    N_("cut at the hits found, not at R"),
    ("R-precision",),
    lambda y, r: _precision_at(y, y.found) if 0 < y.found < r else None,
    N_(
        "You cut the list at the number of relevant results it found ({found}): "
        "{h_found}/{found} = {value}. R = {r} counts every relevant result of the query, "
        "found or not: cut at rank {r} and divide by {r}, {h}/{r} = {precision}."
    ),
)
_mistake(
    N_("precision at the last relevant result"),
    ("R-precision",),
    lambda y, r: y.found / _last_relevant(y) if y.found else None,
    N_(
        "You took the precision where the last relevant result appears, at rank {last}: "
        "{found}/{last} = {value}. R-precision is the precision at a fixed rank, R = {r}, "
        "whatever lies there: {h}/{r} = {precision}."
    ),
)
_mistake(
    N_("gave the list's recall"),
    ("R-precision",),
    lambda y, r: None if y.found == y.hits_at(r) else y.found / r,
    N_(
        "You divided every relevant result the list found ({found}) by R: {found}/{r} = "
        "{value}, the recall of the whole list. R-precision counts only the top {r}: "
        "{h}/{r} = {precision}."
    ),
)
_mistake(
    N_("divided by the list's length"),
    ("R-precision",),
    lambda y, r: y.hits_at(r) / len(y.labels) if 0 < len(y.labels) < r else None,
    N_(
        "The list holds only {n} results, and you divided by that: {h}/{n} = {value}. "
        "R-precision divides by R = {r}, as P@{r} does: {h}/{r} = {precision}."
    ),
)
_mistake(
    N_("stopped one rank early"),
    ("R-precision",),
    lambda y, r: _precision_at(y, r - 1) if 1 < r <= len(y.labels) else None,
    N_(
        "You stopped at rank {k_before}: {h_before}/{k_before} = {value}. R-precision reads "
        "rank R = {r} itself: {h}/{r} = {precision}."
    ),
)
_mistake(
    N_("went one rank too far"),
    ("R-precision",),
    lambda y, r: _precision_at(y, r + 1) if r < len(y.labels) else None,
    N_(
        "You went on to rank {k_after}: {h_after}/{k_after} = {value}. R-precision reads rank "
        "R = {r}, the query's number of relevant results: {h}/{r} = {precision}."
    ),
)


def _last_relevant(ranking: Ranking) -> int:
    return max(rank for rank, label in enumerate(ranking.labels, start=1) if label)


# Interpolated precision --------------------------------------------------------------------


class _Curve(NamedTuple):
    """The ranking, the level asked, and the recall and precision after each rank."""

    ranking: Ranking
    level: float
    recall: np.ndarray
    precision: np.ndarray

    def reached(self) -> int | None:
        """The first rank whose recall reaches the level, None if no rank does."""
        reached = np.flatnonzero(self.recall >= self.level - 1e-12)
        return int(reached[0]) + 1 if reached.size else None

    def interpolated(self) -> float:
        """The best precision at the level's recall or higher, 0 if no rank reaches it."""
        rank = self.reached()
        if rank is None:
            return 0.0
        return float(interpolated_precision(self.recall, self.precision)[rank - 1])


def _curve(data: ExerciseData) -> _Curve:
    ranking = Ranking.of(data)
    recall, precision = curve_arrays(np.asarray(ranking.labels, dtype=bool), ranking.r)
    return _Curve(ranking, float(data["recall"]), recall, precision)


def reached_level(data: ExerciseData) -> int | None:
    """The first rank whose recall reaches the level asked, None if no rank does.

    >>> reached_level({"labels": [1, 0, 0, 1, 1, 0], "n_relevant": 3, "recall": 2 / 3})
    4
    """
    return _curve(data).reached()


def interpolated_at_level(data: ExerciseData) -> float:
    """IIR's interpolated precision at the level asked: the best precision at that recall or
    higher (:func:`~mapteach.metrics.curves.interpolated_precision`), 0 if no rank reaches it.

    >>> interpolated_at_level({"labels": [1, 0, 0, 1, 1, 0], "n_relevant": 3, "recall": 2 / 3})
    0.6
    """
    return _curve(data).interpolated()


def iir_hits_needed(level: float, n_relevant: int) -> int:
    """The relevant results recall ``level`` asks for by IIR's rule: the fewest whose recall
    is ``level`` or higher (:func:`~mapteach.metrics.hits_needed` at the 11 levels).

    >>> iir_hits_needed(2 / 3, 3), iir_hits_needed(0.5, 3), iir_hits_needed(0.0, 3)
    (2, 2, 0)
    """
    return next(h for h in range(n_relevant + 1) if h >= (level - 1e-12) * n_relevant)


def _eleven_point_index(level: float) -> int | None:
    """The index of ``level`` among 0.0, 0.1, ..., 1.0, or None for another level."""
    index = round(level * 10)
    return index if abs(level * 10 - index) < 1e-9 else None


def _trec_eval_hits(level: float, r: int, convention: ElevenPoint) -> int | None:
    """The relevant results trec_eval's convention asks for at ``level`` (None: a level
    trec_eval does not compute)."""
    index = _eleven_point_index(level)
    return None if index is None else int(hits_needed(r, convention=convention)[index])


def _interpolated_facts(data: ExerciseData) -> dict[str, object]:
    curve = _curve(data)
    ranking, level = curve.ranking, curve.level
    return {
        "level": exact_number(level),
        "r": ranking.r,
        "rank": curve.reached() or 0,
        "needed": iir_hits_needed(level, ranking.r),
        "truth": number(curve.interpolated()),
        "trec9": _trec_eval_hits(level, ranking.r, "trec_eval_9"),
        "trec10": _trec_eval_hits(level, ranking.r, "trec_eval_10"),
    }


def _interpolated_mistake(
    name: str,
    value: Callable[[ExerciseData, list[float], list[float]], float | None],
    template: str,
    convention: str | None = None,
) -> Mistake:
    """Register a mistake of interpolated precision; ``value`` gets the data, the recall
    and the precision after each rank."""

    def value_of(data: ExerciseData) -> float | None:
        ranking, _, recall, precision = _curve(data)
        if ranking.r == 0 or not precision.size:
            return None
        return value(data, recall.tolist(), precision.tolist())

    return register(
        Mistake(name, ("IPrec",), value_of, explained(template, _interpolated_facts), convention)
    )


def _at_recall(recall: list[float], precision: list[float], keep: Callable[[float], bool]):
    return max((p for r, p in zip(recall, precision, strict=True) if keep(r)), default=None)


def _convention(data: ExerciseData, convention: ElevenPoint) -> float | None:
    """The interpolated precision at the level under trec_eval's ``convention``: None at a
    level trec_eval does not compute, or where it asks for the relevant results IIR does."""
    ranking, level, _, _ = _curve(data)
    index = _eleven_point_index(level)
    hits = _trec_eval_hits(level, ranking.r, convention)
    if index is None or hits == iir_hits_needed(level, ranking.r):
        return None
    points = eleven_point_precisions(ranking.labels, n_relevant=ranking.r, convention=convention)
    return float(points[index])


_interpolated_mistake(
    N_("gave the raw precision at the rank where recall reaches the level"),
    lambda data, recall, precision: precision[(reached_level(data) or 1) - 1],
    N_(
        "That is the raw precision at rank {rank}, where recall first reaches {level}: "
        "{value}. Interpolated precision takes the best precision at recall {level} or "
        "higher, and precision can recover at a later rank: {truth}."
    ),
)
_interpolated_mistake(
    N_("took the best precision anywhere in the list"),
    lambda data, recall, precision: max(precision),
    N_(
        "That maximum, {value}, includes ranks whose recall is below {level}; only recall "
        "{level} or higher counts: {truth}."
    ),
)
_interpolated_mistake(
    N_("looked at recall below the level"),
    lambda data, recall, precision: _at_recall(
        recall, precision, lambda r: r <= float(data["recall"]) + 1e-12
    ),
    N_(
        "You took the best precision at recall {level} or lower: {value}. Interpolation looks "
        "the other way, to recall {level} or higher (from rank {rank} on): {truth}."
    ),
)
_interpolated_mistake(
    N_("left out the level itself"),
    lambda data, recall, precision: _at_recall(
        recall, precision, lambda r: r > float(data["recall"]) + 1e-12
    ),
    N_(
        "You took the best precision at recall strictly above {level}: {value}. Recall "
        "{level} itself counts too (from rank {rank} on): {truth}."
    ),
)
_interpolated_mistake(
    N_("trec_eval 9's recall levels"),
    lambda data, recall, precision: _convention(data, "trec_eval_9"),
    N_(
        "That is the interpolated precision as trec_eval 9's iprec_at_recall (and "
        "pytrec_eval, ir_measures) computes it: the relevant results it asks for are "
        "(long)({level} × {r} + 0.9) = {trec9}, and the best precision from there on is "
        "{value}. This exercise asks for IIR's definition, recall {level} or higher "
        "(relevant results: {needed}): {truth}."
    ),
    convention=N_("trec_eval 9's iprec_at_recall, asking for (long)(L × R + 0.9) relevant results"),
)
_interpolated_mistake(
    N_("trec_eval 10's recall levels"),
    lambda data, recall, precision: _convention(data, "trec_eval_10"),
    N_(
        "That is the interpolated precision as trec_eval 10's iprec_at_recall computes it: "
        "the relevant results it asks for are lround({level} × {r}) = {trec10}, and the best "
        "precision from there on is {value}. This exercise asks for IIR's definition, recall "
        "{level} or higher (relevant results: {needed}): {truth}."
    ),
    convention=N_("trec_eval 10's iprec_at_recall, asking for lround(L × R) relevant results"),
)


# Micro-averaged R@k ------------------------------------------------------------------------


def _averaged(data: ExerciseData) -> tuple[list[list[int]], list[int | None], int]:
    """The queries' lists, their R (None: the hits in the list) and the shared cutoff."""
    queries = data["queries"]
    return (
        [query["labels"] for query in queries],
        [query["n_relevant"] for query in queries],
        data["k"],
    )


def _recalls(data: ExerciseData) -> list[float]:
    """Each query's R@k."""
    lists, totals, k = _averaged(data)
    _, relevant = hits_and_relevant(lists, k, n_relevant=totals)
    return [recall_at_k(y, k, n_relevant=int(r)) for y, r in zip(lists, relevant, strict=True)]


def _added(values: list[int]) -> str:
    return " + ".join(str(value) for value in values)


def _micro_facts(data: ExerciseData) -> dict[str, object]:
    """Every number a micro R@k explanation shows."""
    lists, totals, k = _averaged(data)
    hits, relevant = hits_and_relevant(lists, k, n_relevant=totals)
    return {
        "k": k,
        "q": len(lists),
        "hits": _added(hits.tolist()),
        "totals": _added(relevant.tolist()),
        "recalls": " + ".join(number(value) for value in _recalls(data)),
        "counted": len(lists) * k,
        "found": _added([int(sum(y)) for y in lists]),
        "right": number(micro_recall_at_k(lists, k, n_relevant=totals)),
    }


def _whole_lists(data: ExerciseData) -> float:
    """Every relevant result of the lists over the R added up: the cutoff ignored."""
    lists, totals, k = _averaged(data)
    _, relevant = hits_and_relevant(lists, k, n_relevant=totals)
    return sum(int(sum(y)) for y in lists) / relevant.sum()


for _name, _value, _template in (
    (
        N_("took the macro average"),
        lambda data: float(np.mean(_recalls(data))),
        N_(
            "That is the macro average, the mean of the queries' R@{k}: ({recalls}) / {q} "
            "= {value}. The micro average adds up the counts first: ({hits}) / ({totals}) "
            "= {right}."
        ),
    ),
    (
        N_("divided by the results counted"),
        lambda data: micro_precision_at_k(_averaged(data)[0], data["k"]),
        N_(
            "You divided the hits, added up, by the results counted, {q} x {k} = {counted}: "
            "({hits}) / {counted} = {value}, the micro-averaged P@{k}. Recall divides by "
            "the relevant results: ({hits}) / ({totals}) = {right}."
        ),
    ),
    (
        N_("ignored the cutoff"),
        _whole_lists,
        N_(
            "You counted every relevant result of the lists, ({found}) / ({totals}) = "
            "{value}. R@{k} counts only those in the top {k}: ({hits}) / ({totals}) = "
            "{right}."
        ),
    ),
):
    register(Mistake(_name, ("micro R@k",), _value, explained(_template, _micro_facts)))
