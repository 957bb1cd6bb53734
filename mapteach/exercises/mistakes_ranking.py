"""The mistakes learners make computing AP and AP@k of one ranked list, in their own numbers.

Each mistake is registered in :mod:`mapteach.exercises.mistakes` when this module is
imported. Its value is a function of an exercise's data, ``{"labels": [...],
"n_relevant": R, "k": k or None}``; its explanation shows the learner's arithmetic and
the right one, with the exercise's numbers. Two values are legitimate other
conventions, not blunders: AP@k divided by the hits in the top k (torchmetrics'
``top_k``) and by min(k, R) (Kaggle's ``apk``); their explanations say whose they are
and that the exercise asks for trec_eval's, divided by R.

This module also reads one ranking's data (:class:`Ranking`), for the other
``mistakes_*`` modules of ranked lists.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from mapteach.exercises.mistakes import Mistake, number, register
from mapteach.i18n import N_, tr
from mapteach.i18n.spacing import spaced_format
from mapteach.metrics import average_precision
from mapteach.metrics.options import Denominator
from mapteach.metrics.validation import as_k, as_labels, as_n_relevant

__all__ = [
    "Ranking",
    "explained",
    "final_hits_in_every_numerator",
    "fractions",
    "mean_precision_every_rank",
]

ExerciseData = Mapping[str, Any]
Facts = Callable[[ExerciseData], dict[str, object]]


class Ranking(NamedTuple):
    """One ranked list as an exercise states it: labels best first, R and the cutoff."""

    labels: tuple[int, ...]
    r: int
    k: int | None

    @classmethod
    def of(cls, data: ExerciseData) -> Ranking:
        """Read and check ``data["labels"]``, ``data["n_relevant"]`` and ``data.get("k")``.

        >>> Ranking.of({"labels": [0, 1], "n_relevant": 3, "k": None})
        Ranking(labels=(0, 1), r=3, k=None)
        """
        y = as_labels(data["labels"], name="data['labels']")
        r = as_n_relevant(data.get("n_relevant"), int(y.sum()), name="data['n_relevant']")
        k = data.get("k")
        return cls(tuple(int(v) for v in y), r, None if k is None else as_k(k, name="data['k']"))

    @property
    def top(self) -> tuple[int, ...]:
        """The ranks that count: the top k, or the whole list without a cutoff."""
        return self.labels if self.k is None else self.labels[: self.k]

    def hits_at(self, depth: int) -> int:
        """The relevant results in the top ``depth`` of the whole list."""
        return sum(self.labels[:depth])

    @property
    def ranks(self) -> list[int]:
        """The ranks (from 1) of the relevant results in the ranks that count."""
        return [rank for rank, label in enumerate(self.top, start=1) if label]

    @property
    def first(self) -> int | None:
        """The rank of the first relevant result in the ranks that count (None: none)."""
        return self.ranks[0] if self.ranks else None

    @property
    def found(self) -> int:
        """The relevant results anywhere in the list."""
        return sum(self.labels)

    @property
    def measure(self) -> str:
        """``"AP"``, or ``"AP@3"`` with a cutoff."""
        return "AP" if self.k is None else f"AP@{self.k}"

    def ap(self, *, whole: bool = False, denominator: Denominator = "relevant") -> float:
        """AP (or AP@k, unless ``whole``): :func:`~mapteach.metrics.average_precision`,
        trec_eval's ÷ R unless another ``denominator`` is asked.

        >>> ranking = Ranking((1, 0, 1), 3, None)
        >>> ranking.ap(), ranking.ap(denominator="retrieved")  # (1/1 + 2/3) / 3, then / 2
        (0.5555555555555555, 0.8333333333333333)
        """
        k = None if whole else self.k
        return average_precision(self.labels, n_relevant=self.r, k=k, denominator=denominator)


def fractions(numerators: Sequence[int], denominators: Sequence[int]) -> str:
    """A sum of fractions as written by hand: ``"1/1 + 2/3"`` (``"0"`` for no term).

    >>> fractions([1, 2], [1, 3]), fractions([], [])
    ('1/1 + 2/3', '0')
    """
    terms = [f"{a}/{b}" for a, b in zip(numerators, denominators, strict=True)]
    return " + ".join(terms) or "0"


def explained(template: str, facts: Facts) -> Callable[[ExerciseData, float], str]:
    """An explanation: ``template`` (an ``N_`` message) filled with the data's facts and
    the learner's value (``{value}``, at 4 decimals), in the current language.

    >>> explain = explained("{value} for {n} results", lambda data: {"n": 2})
    >>> explain({}, 0.25)
    '0.2500 for 2 results'
    """

    def explain(data: ExerciseData, value: float) -> str:
        return spaced_format(tr(template), **facts(data), value=number(value))

    return explain


def _sum(numerators: Sequence[int] | range, denominators: Sequence[int]) -> float:
    return float(sum(a / b for a, b in zip(numerators, denominators, strict=True)))


def final_hits_in_every_numerator(
    labels: Sequence[int | bool], *, n_relevant: int | None = None, k: int | None = None
) -> float:
    """Article 001's slip: H/rank at each relevant rank, H the final hit count, ÷ R.

    With a cutoff k, H counts the hits in the top k.

    >>> round(final_hits_in_every_numerator([0, 0, 0, 0, 0, 0, 1, 1, 1, 1]), 2)  # the 0.48
    0.48
    """
    return _with_final_hits(Ranking.of({"labels": labels, "n_relevant": n_relevant, "k": k}))


def _with_final_hits(ranking: Ranking) -> float:
    ranks = ranking.ranks
    return _sum([len(ranks)] * len(ranks), ranks) / ranking.r if ranking.r else 0.0


def _facts(data: ExerciseData) -> dict[str, object]:
    """Every number an AP explanation may show, as text."""
    ranking = Ranking.of(data)
    ranks, h = ranking.ranks, len(ranking.ranks)
    counts = list(range(1, h + 1))
    terms, truth = fractions(counts, ranks), number(ranking.ap())
    whole = [rank for rank, label in enumerate(ranking.labels, start=1) if label]
    return {
        "r": ranking.r,
        "k": ranking.k,
        "n": len(ranking.labels),
        "h": h,
        "found": ranking.found,
        "depth": len(ranking.top),
        "measure": ranking.measure,
        "ranks": tr(", ").join(map(str, ranks)),
        "first": ranks[0] if ranks else 0,
        "terms": terms,
        "truth": truth,
        "right": f"{ranking.measure} = ({terms}) / {ranking.r} = {truth}",
        "final_terms": fractions([h] * h, ranks),
        "reciprocal_terms": fractions([1] * h, ranks),
        "zero_based_terms": fractions(counts, [rank - 1 for rank in ranks]),
        "before_terms": fractions([c - 1 for c in counts], ranks),
        "whole": f"({fractions(range(1, len(whole) + 1), whole)}) / {ranking.r}",
    }


def _ap_mistake(
    name: str,
    kinds: tuple[str, ...],
    value: Callable[[Ranking], float | None],
    template: str,
    convention: str | None = None,
) -> Mistake:
    """Register a mistake of AP or AP@k; it cannot be made on a query with R = 0."""

    def value_of(data: ExerciseData) -> float | None:
        ranking = Ranking.of(data)
        return None if ranking.r == 0 else value(ranking)

    return register(Mistake(name, kinds, value_of, explained(template, _facts), convention))


def _forgot_missed(ranking: Ranking) -> float | None:
    if ranking.k is not None or not 0 < len(ranking.ranks) < ranking.r:
        return None
    return ranking.ap(denominator="retrieved")


def _over_hits_in_top(ranking: Ranking) -> float | None:
    return ranking.ap(denominator="retrieved") if 0 < len(ranking.ranks) < ranking.r else None


def _over_min_k_r(ranking: Ranking) -> float | None:
    k = ranking.k
    return None if k is None or k >= ranking.r else ranking.ap(denominator="min_relevant_k")


def _over_k(ranking: Ranking) -> float | None:
    # with k <= R, dividing by k is dividing by min(k, R): the convention above
    k = ranking.k
    return None if k is None or k <= ranking.r else ranking.ap() * ranking.r / k


def _over_length(ranking: Ranking) -> float | None:
    n = len(ranking.labels)
    if n in {ranking.r, ranking.k}:  # the truth, or dividing by k
        return None
    return ranking.ap() * ranking.r / n


def _final_hits(ranking: Ranking) -> float | None:
    return _with_final_hits(ranking) if len(ranking.ranks) > 1 else None


def mean_precision_every_rank(ranking: Ranking) -> float | None:
    """The mean of P@i over every rank i that counts, relevant or not (None: no rank).

    >>> mean_precision_every_rank(Ranking((0, 1), 1, None))  # (0/1 + 1/2) / 2
    0.25
    """
    top = np.asarray(ranking.top, dtype=float)
    if top.size == 0:
        return None
    return float((np.cumsum(top) / np.arange(1, top.size + 1)).mean())


def _reciprocal_ranks(ranking: Ranking) -> float | None:
    ranks = ranking.ranks
    return _sum([1] * len(ranks), ranks) / ranking.r if len(ranks) > 1 else None


def _first_reciprocal_rank(ranking: Ranking) -> float | None:
    return 1 / ranking.ranks[0] if ranking.ranks else None


def _sum_undivided(ranking: Ranking) -> float | None:
    return ranking.ap() * ranking.r if ranking.r > 1 else None


def _ranks_from_zero(ranking: Ranking) -> float | None:
    ranks = ranking.ranks
    if not ranks or ranks[0] == 1:
        return None
    return _sum(range(1, len(ranks) + 1), [rank - 1 for rank in ranks]) / ranking.r


def _hits_before(ranking: Ranking) -> float | None:
    ranks = ranking.ranks
    return _sum(range(len(ranks)), ranks) / ranking.r if ranks else None


def _whole_list(ranking: Ranking) -> float | None:
    if ranking.k is None or ranking.hits_at(ranking.k) == ranking.found:
        return None
    return ranking.ap(whole=True)


def _precision_at_k(ranking: Ranking) -> float | None:
    return None if ranking.k is None else len(ranking.ranks) / ranking.k


BOTH = ("AP", "AP@k")

#: The mistake :func:`~mapteach.exercises.mistakes.wrong_answers` names for AP ÷ hits found.
FORGOT_MISSED = _ap_mistake(
    N_("forgot the missed relevant results"),
    ("AP",),
    _forgot_missed,
    N_(
        "You divided by the relevant results the list found ({h}): ({terms}) / {h} = {value}. "
        "R = {r} counts the ones it missed too, and each still costs, so {right}."
    ),
)
_ap_mistake(
    N_("divided AP@k by the hits in the top k"),
    ("AP@k",),
    _over_hits_in_top,
    N_(
        "That is {measure} as torchmetrics (with top_k) and many cross-modal retrieval papers "
        "compute it, dividing by the relevant results in the top {k}: ({terms}) / {h} = "
        "{value}. This exercise asks for trec_eval's {measure}, which divides by R = {r}, so "
        "{right}."
    ),
    convention=N_(
        "torchmetrics' top_k and many cross-modal retrieval papers, ÷ the hits in the top k"
    ),
)
_ap_mistake(
    N_("divided AP@k by min(k, R)"),
    ("AP@k",),
    _over_min_k_r,
    N_(
        "That is {measure} as Kaggle's apk (ml_metrics, MAP@k competitions) computes it, "
        "dividing by min(k, R) = min({k}, {r}): ({terms}) / {k} = {value}. This exercise asks "
        "for trec_eval's {measure}, which divides by R = {r}, so {right}."
    ),
    convention=N_("Kaggle's apk (ml_metrics), ÷ min(k, R)"),
)
_ap_mistake(
    N_("divided by k"),
    ("AP@k",),
    _over_k,
    N_(
        "You divided by the cutoff: ({terms}) / {k} = {value}. The cutoff only says which "
        "ranks count; the sum is divided by R = {r}, the query's relevant results, so {right}."
    ),
)
_ap_mistake(
    N_("divided by the list's length"),
    BOTH,
    _over_length,
    N_(
        "You divided by the number of results in the list ({n}): ({terms}) / {n} = {value}. "
        "{measure} divides by R = {r}, the query's relevant results; a non-relevant result "
        "already costs by lowering the precision of every relevant result below it: {right}."
    ),
)
_ap_mistake(
    N_("final hit count in every numerator"),
    BOTH,
    _final_hits,
    N_(
        "You put the final hit count, {h}, in every term: ({final_terms}) / {r} = {value}. "
        "At each relevant rank count only the hits so far: the 1st relevant result adds "
        "1/rank, the 2nd 2/rank, and so on, so {right}."
    ),
)
_ap_mistake(
    N_("mean of P@i over every rank"),
    BOTH,
    mean_precision_every_rank,
    N_(
        "You averaged the precision at every rank from 1 to {depth}, relevant or not: {value}. "
        "{measure} adds the precision only at the relevant ranks ({ranks}) and divides that "
        "sum by R = {r}: {right}."
    ),
)
_ap_mistake(
    N_("1/rank at every relevant rank"),
    BOTH,
    _reciprocal_ranks,
    N_(
        "You added 1/rank at each relevant rank: ({reciprocal_terms}) / {r} = {value}. 1/rank "
        "is the whole story only for a single relevant result; the n-th relevant result adds "
        "n/rank, the hits so far over its rank, so {right}."
    ),
)
_ap_mistake(
    N_("gave the reciprocal rank"),
    BOTH,
    _first_reciprocal_rank,
    N_(
        "That is 1/{first} = {value}, the reciprocal rank of the first relevant result: RR, not "
        "{measure}. {measure} adds the precision at every relevant rank and divides by "
        "R = {r}: {right}."
    ),
)
_ap_mistake(
    N_("forgot to divide the sum"),
    BOTH,
    _sum_undivided,
    N_(
        "You stopped at the sum, {terms} = {value}. {measure} is that sum divided by R = {r}, "
        "the query's relevant results: {right}."
    ),
)
_ap_mistake(
    N_("counted ranks from 0"),
    BOTH,
    _ranks_from_zero,
    N_(
        "You counted the ranks from 0, as Python's list indexes do: ({zero_based_terms}) / {r} "
        "= {value}. Ranks start at 1 (the first result is at rank 1), so {right}."
    ),
)
_ap_mistake(
    N_("counted the hits before the current one"),
    BOTH,
    _hits_before,
    N_(
        "You counted the hits before each relevant result, not including it: "
        "({before_terms}) / {r} = {value}. At a relevant rank the hits so far include that "
        "result itself (the 1st relevant result adds 1/rank), so {right}."
    ),
)
_ap_mistake(
    N_("ignored the cutoff"),
    ("AP@k",),
    _whole_list,
    N_(
        "You used the whole list: {whole} = {value}, which is AP. {measure} stops at rank {k}: "
        "only the relevant results in the top {k} add to the sum, still divided by R = {r}, so "
        "{right}."
    ),
)
_ap_mistake(
    N_("gave P@k"),
    ("AP@k",),
    _precision_at_k,
    N_(
        "That is P@{k}: {h}/{k} = {value}, the share of relevant results in the top {k}. "
        "{measure} adds the precision at each relevant rank up to {k} and divides by R = {r}: "
        "{right}."
    ),
)
