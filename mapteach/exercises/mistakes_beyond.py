"""The mistakes learners make with reciprocal rank (RR, MRR), in the registry.

Each mistake is a function of an exercise's data (see
:mod:`mapteach.exercises.mistakes`): for RR ``labels``, ``n_relevant`` and ``k``; for
MRR ``queries``, a list of such dicts. An RR slip is made once per query, so each one
is registered twice: on one list (kind ``"RR"``) and averaged over the queries of an
MRR exercise (kind ``"MRR"``), where a query the slip does not change keeps its right
RR. Two slips belong to MRR alone: the reciprocal of the mean rank, and leaving out
the queries with no relevant result. Scoring a query with no relevant result (R = 0)
1 is another convention, not a slip: torchmetrics' ``empty_target_action="pos"``;
scoring 1 a list that found none of its R > 0 relevant results is a slip. Introduced
in ``08_choosing_a_metric``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from mapteach.exercises.mistakes import ExerciseData, Mistake, register, same_value
from mapteach.exercises.mistakes import number as _shown
from mapteach.exercises.mistakes_ranking import Ranking as _Query
from mapteach.i18n import N_, ngettext, tr
from mapteach.metrics import reciprocal_rank

__all__: list[str] = []

#: One query's RR as a learner who makes a slip computes it, and the term they write
#: (``"1/3"``); None where the slip cannot be made (a division by zero).
Learned = tuple[float, str] | None


def _rr(q: _Query) -> float:
    return reciprocal_rank(q.labels, k=q.k)


def _term(q: _Query) -> str:
    return f"1/{q.first}" if q.first else "0"


def _reciprocal(rank: int | None) -> Learned:
    return (0.0, "0") if rank is None else (1.0 / rank, f"1/{rank}")


def _last_relevant(q: _Query) -> Learned:
    return _reciprocal(q.ranks[-1] if q.ranks else None)


def _from_zero(q: _Query) -> Learned:
    if q.first == 1:
        return None
    return _reciprocal(None if q.first is None else q.first - 1)


def _one_past(q: _Query) -> Learned:
    return _reciprocal(None if q.first is None else q.first + 1)


def _over_r(q: _Query) -> Learned:
    return _reciprocal(q.r) if q.first else (0.0, "0")


def _rank_itself(q: _Query) -> Learned:
    return (0.0, "0") if q.first is None else (float(q.first), str(q.first))


def _empty_as_one(q: _Query) -> Learned:
    return (1.0, "1") if q.r == 0 else (_rr(q), _term(q))


def _nothing_found_as_one(q: _Query) -> Learned:
    return (1.0, "1") if q.first is None and q.r else (_rr(q), _term(q))


def _cutoff_ignored(q: _Query) -> Learned:
    if q.k is None:
        return None
    whole = q._replace(k=None)
    return _rr(whole), _term(whole)


def _ap_for_rr(q: _Query) -> Learned:
    ap = q.ap()
    return ap, _shown(ap)


@dataclass(frozen=True)
class _Slip:
    """An RR slip: its name, the learner's RR of one query, and what to tell them."""

    name: str
    learned: Callable[[_Query], Learned]
    #: Fields: value, term, first, last, r, k, rank, truth.
    one: str
    #: Fields: terms, n, value.
    many: str
    #: Who computes the value this way, when it is another convention (an English message).
    convention: str | None = None


_SLIPS: tuple[_Slip, ...] = (
    _Slip(
        N_("1/rank of the last relevant result"),
        _last_relevant,
        N_(
            "You took {term}, the reciprocal of the rank of the last relevant result. RR looks "
            "only at the first one, at rank {first}: RR = 1/{first} = {truth}."
        ),
        N_(
            "You took 1/rank of each query's last relevant result: ({terms}) / {n} = {value}. "
            "RR looks only at each query's first relevant result."
        ),
    ),
    _Slip(
        N_("rank counted from 0"),
        _from_zero,
        N_(
            "You took {term}: you counted the ranks from 0, as Python indexes a list. The top "
            "result is rank 1, so the first relevant result is at rank {first}: RR = 1/{first} "
            "= {truth}."
        ),
        N_(
            "You counted the ranks from 0, as Python indexes a list: ({terms}) / {n} = {value}. "
            "The top result is rank 1."
        ),
    ),
    _Slip(
        N_("one past the rank"),
        _one_past,
        N_(
            "You took {term}, one past the rank. RR divides 1 by the rank itself, {first} (it is "
            "nDCG that discounts by log2(rank + 1)): RR = 1/{first} = {truth}."
        ),
        N_(
            "You divided 1 by each first relevant rank plus one: ({terms}) / {n} = {value}. RR "
            "divides 1 by the rank itself (it is nDCG that discounts by log2(rank + 1))."
        ),
    ),
    _Slip(
        N_("1/R instead of 1/rank"),
        _over_r,
        N_(
            "You took {term}, one over the R = {r} relevant results of the query. RR is one over "
            "the rank of the first relevant result: RR = 1/{first} = {truth}."
        ),
        N_(
            "You took one over each query's R: ({terms}) / {n} = {value}. RR is one over the "
            "rank of the first relevant result."
        ),
    ),
    _Slip(
        N_("the rank, not its reciprocal"),
        _rank_itself,
        N_(
            "You gave the rank of the first relevant result, {rank}. RR is its reciprocal: "
            "1/{rank} = {truth}."
        ),
        N_(
            "You averaged the first relevant ranks themselves: ({terms}) / {n} = {value}. MRR "
            "takes the reciprocal of each query's first relevant rank, then averages over the "
            "queries."
        ),
    ),
    _Slip(
        N_("a query with no relevant result counted as 1"),
        _empty_as_one,
        N_(
            'That is RR as torchmetrics computes it with empty_target_action="pos", which '
            "scores 1 a query with nothing relevant to find (R = 0). This exercise asks for "
            "trec_eval's RR, which scores it 0."
        ),
        N_(
            'That is MRR as torchmetrics computes it with empty_target_action="pos", scoring 1 '
            "each query with no relevant result (R = 0): ({terms}) / {n} = {value}. This "
            "exercise asks for trec_eval's MRR, which scores such a query 0 and keeps it in "
            "the mean."
        ),
        N_('torchmetrics\' empty_target_action="pos", scoring 1 a query with R = 0'),
    ),
    _Slip(
        N_("a list that found nothing counted as 1"),
        _nothing_found_as_one,
        N_(
            "You gave 1 to a list that found none of its R = {r} relevant results in the ranks "
            "that count. Its RR is 0, the worst score, not the best."
        ),
        N_(
            "You gave RR = 1 to a query whose list found none of its relevant results: "
            "({terms}) / {n} = {value}. Such a query's RR is 0, a real failure."
        ),
    ),
    _Slip(
        N_("ignored the cutoff"),
        _cutoff_ignored,
        N_(
            "You took {term} from the whole list. RR@{k} reads only the top {k}, where no "
            "result is relevant: RR@{k} = 0."
        ),
        N_(
            "You read each whole list, past the cutoff: ({terms}) / {n} = {value}. A first "
            "relevant result below the cutoff scores 0."
        ),
    ),
    _Slip(
        N_("AP, not RR"),
        _ap_for_rr,
        N_(
            "That is the list's AP, {value}, which averages the precision at every relevant "
            "rank. RR looks at the first relevant result only: RR = 1/{first} = {truth}."
        ),
        N_(
            "That is MAP, the mean of the queries' APs ({terms}) / {n} = {value}. MRR is the "
            "mean of their reciprocal ranks: each looks at the first relevant result only."
        ),
    ),
)


def _one_value(slip: _Slip) -> Callable[[ExerciseData], float | None]:
    def value(data: ExerciseData) -> float | None:
        q = _Query.of(data)
        learned = slip.learned(q)
        if learned is None or same_value(learned[0], _rr(q)):
            return None
        return learned[0]

    return value


def _one_explain(slip: _Slip) -> Callable[[ExerciseData, float], str]:
    def explain(data: ExerciseData, value: float) -> str:
        q = _Query.of(data)
        learned = slip.learned(q)
        return tr(
            slip.one,
            value=_shown(value),
            term=learned[1] if learned else "",
            first=q.first,
            last=q.ranks[-1] if q.ranks else None,
            r=q.r,
            k=q.k,
            rank=q.first,
            truth=_shown(_rr(q)),
        )

    return explain


def _queries(data: ExerciseData) -> list[_Query]:
    return [_Query.of(query) for query in data["queries"]]


def _mrr(queries: list[_Query]) -> float:
    return float(np.mean([_rr(q) for q in queries]))


def _learned_all(slip: _Slip, queries: list[_Query]) -> list[tuple[float, str]] | None:
    """Every query's RR as the learner computes it; None if the slip cannot be made."""
    learned = [slip.learned(q) for q in queries]
    if any(item is None for item in learned):
        return None
    return [item for item in learned if item is not None]


def _many_value(slip: _Slip) -> Callable[[ExerciseData], float | None]:
    def value(data: ExerciseData) -> float | None:
        queries = _queries(data)
        learned = _learned_all(slip, queries)
        if learned is None:
            return None
        mean = float(np.mean([v for v, _ in learned]))
        return None if same_value(mean, _mrr(queries)) else mean

    return value


def _many_explain(slip: _Slip) -> Callable[[ExerciseData, float], str]:
    def explain(data: ExerciseData, value: float) -> str:
        queries = _queries(data)
        learned = _learned_all(slip, queries) or []
        terms = " + ".join(term for _, term in learned)
        return tr(slip.many, terms=terms, n=len(queries), value=_shown(value))

    return explain


for _slip in _SLIPS:
    register(Mistake(_slip.name, ("RR",), _one_value(_slip), _one_explain(_slip), _slip.convention))
    register(
        Mistake(_slip.name, ("MRR",), _many_value(_slip), _many_explain(_slip), _slip.convention)
    )


def _found(data: ExerciseData) -> tuple[list[_Query], list[_Query]]:
    """The queries with a relevant result within the cutoff, and all of them."""
    queries = _queries(data)
    return [q for q in queries if q.first is not None], queries


def _mean_rank_value(data: ExerciseData) -> float | None:
    found, queries = _found(data)
    if not found:
        return None
    value = 1.0 / float(np.mean([q.first for q in found]))
    return None if same_value(value, _mrr(queries)) else value


def _mean_rank_explain(data: ExerciseData, value: float) -> str:
    found, _ = _found(data)
    return tr(
        "You averaged the first relevant ranks, ({ranks}) / {n} = {mean:g}, and took the "
        "reciprocal: 1/{mean:g} = {value}. MRR averages the reciprocals, one per query: "
        "({terms}) / {all} = {truth}.",
        ranks=" + ".join(str(q.first) for q in found),
        n=len(found),
        mean=float(np.mean([q.first for q in found])),
        value=_shown(value),
        terms=" + ".join(_term(q) for q in _queries(data)),
        all=len(_queries(data)),
        truth=_shown(_mrr(_queries(data))),
    )


def _skipped_value(data: ExerciseData) -> float | None:
    found, queries = _found(data)
    if not found or len(found) == len(queries):
        return None
    return _mrr(found)


def _skipped_explain(data: ExerciseData, value: float) -> str:
    found, queries = _found(data)
    return ngettext(
        "You left out the query with no relevant result: ({terms}) / {kept} = {value}. It "
        "counts, with RR = 0: MRR divides by all {all} queries.",
        "You left out the {n} queries with no relevant result: ({terms}) / {kept} = {value}. "
        "They count, with RR = 0: MRR divides by all {all} queries.",
        len(queries) - len(found),
        terms=" + ".join(_term(q) for q in found),
        kept=len(found),
        value=_shown(value),
        all=len(queries),
    )


register(Mistake(N_("reciprocal of the mean rank"), ("MRR",), _mean_rank_value, _mean_rank_explain))
register(
    Mistake(
        N_("skipped the queries with no relevant result"),
        ("MRR",),
        _skipped_value,
        _skipped_explain,
    )
)
