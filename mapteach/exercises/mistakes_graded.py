"""The mistakes learners make with nDCG@k, in the registry.

Each mistake is a function of an exercise's data (see
:mod:`mapteach.exercises.mistakes`): ``grades`` (the ranked list's), ``ideal_grades``
(every judged grade of the query, retrieved or not) and ``k``. The right value is
trec_eval's: linear gain (the grade itself), discount log2(rank + 1), the ideal
ranking built from every judged grade and cut at k.

Two values are other conventions, not blunders: exponential gain (Burges et al. 2005)
and Järvelin and Kekäläinen's original discount, log2(rank) with ranks 1 and 2
undiscounted. Natural logarithms in place of log2 are no mistake at all: DCG and
IDCG change by the same factor, so their ratio does not, and no mistake is
registered for them. Introduced in ``05_legal_search_walkthrough`` and
``08_choosing_a_metric``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from mapteach.exercises.mistakes import ExerciseData, Mistake, register, same_value
from mapteach.exercises.mistakes import number as _shown
from mapteach.i18n import N_, tr
from mapteach.metrics import ndcg_at_k

__all__: list[str] = []


@dataclass(frozen=True)
class _Graded:
    """An nDCG@k exercise's grades: the list's, every judged one of the query, the cutoff."""

    grades: np.ndarray
    ideal: np.ndarray
    k: int

    @classmethod
    def of(cls, data: ExerciseData) -> _Graded:
        return cls(
            np.asarray(data["grades"], dtype=float),
            np.asarray(data["ideal_grades"], dtype=float),
            int(data["k"]),
        )

    @property
    def truth(self) -> float:
        return ndcg_at_k(self.grades, self.k, ideal=self.ideal)

    @property
    def best(self) -> np.ndarray:
        """The ideal ranking's grades, best first (every judged document)."""
        return np.sort(self.ideal)[::-1]

    def dcg(self, gains: np.ndarray, discount: Callable[[np.ndarray], np.ndarray]) -> float:
        """DCG of ``gains`` (in rank order) under ``discount``(ranks 1, 2, ...)."""
        return float(np.sum(gains / discount(np.arange(1, gains.size + 1))))


def _log2_next(ranks: np.ndarray) -> np.ndarray:
    return np.log2(ranks + 1.0)


def _log2_jk(ranks: np.ndarray) -> np.ndarray:
    return np.maximum(np.log2(ranks.astype(float)), 1.0)


def _by_rank(ranks: np.ndarray) -> np.ndarray:
    return ranks.astype(float)


def _grades_text(grades: np.ndarray) -> str:
    return tr(", ").join(f"{g:g}" for g in grades)


def _ndcg_mistake(
    name: str,
    value: Callable[[_Graded], float | None],
    explain: Callable[[_Graded, float], str],
    convention: str | None = None,
) -> None:
    """Register an nDCG@k mistake whose value is dropped where it equals the truth."""

    def of_data(data: ExerciseData) -> float | None:
        graded = _Graded.of(data)
        found = value(graded)
        return None if found is None or same_value(found, graded.truth) else found

    register(
        Mistake(
            name,
            ("nDCG@k",),
            of_data,
            lambda data, v: explain(_Graded.of(data), v),
            convention,
        )
    )


def _ratio(g: _Graded, discount: Callable[[np.ndarray], np.ndarray]) -> tuple[float, float]:
    """DCG@k and IDCG@k (ideal from every judged grade, cut at k) under ``discount``."""
    return g.dcg(g.grades[: g.k], discount), g.dcg(g.best[: g.k], discount)


def _exponential(g: _Graded) -> float | None:
    return ndcg_at_k(g.grades, g.k, ideal=g.ideal, gain="exponential")


def _exponential_explain(g: _Graded, value: float) -> str:
    top = float(g.best[0]) if g.best.size else 0.0
    return tr(
        "With gain 2^grade - 1 a grade-{top:g} result counts {gain:g}: nDCG@{k} = {value}. "
        "That is nDCG with exponential gain (Burges et al. 2005), as ranx's ndcg_burges, "
        "ir_measures' nDCG(dcg='exp-log2') and LightGBM's default label_gain compute it; this "
        "exercise asks for linear gain, the grade itself, as trec_eval and ir_measures' "
        "default nDCG.",
        top=top,
        gain=2**top - 1,
        k=g.k,
        value=_shown(value),
    )


_ndcg_mistake(
    N_("exponential gain 2^grade - 1"),
    _exponential,
    _exponential_explain,
    N_("exponential gain (Burges et al. 2005; ranx's ndcg_burges, LightGBM)"),
)


def _normalised(g: _Graded, discount: Callable[[np.ndarray], np.ndarray]) -> float | None:
    """nDCG@k under another ``discount`` (None where the ideal DCG is 0)."""
    dcg, idcg = _ratio(g, discount)
    return dcg / idcg if idcg else None


def _jarvelin(g: _Graded) -> float | None:
    return _normalised(g, _log2_jk)


def _jarvelin_explain(g: _Graded, value: float) -> str:
    dcg, idcg = _ratio(g, _log2_jk)
    return tr(
        "You discounted by log2(rank), leaving rank 1 undiscounted (log2 1 = 0): {dcg} / "
        "{idcg} = {value}. That is Järvelin and Kekäläinen's original DCG (2002, base b = 2: "
        "ranks 1 and 2 undiscounted, log2(rank) after); this exercise asks for log2(rank + 1) "
        "at every rank, as trec_eval.",
        dcg=_shown(dcg),
        idcg=_shown(idcg),
        value=_shown(value),
    )


_ndcg_mistake(
    N_("discount log2(rank), rank 1 undiscounted"),
    _jarvelin,
    _jarvelin_explain,
    N_("Järvelin and Kekäläinen's original DCG (2002), log2(rank), b = 2"),
)


def _unnormalised(g: _Graded) -> float | None:
    return _ratio(g, _log2_next)[0]


def _unnormalised_explain(g: _Graded, value: float) -> str:
    _, idcg = _ratio(g, _log2_next)
    return tr(
        "You stopped at DCG@{k} = {value}. nDCG divides it by IDCG@{k} = {idcg}, the DCG@{k} "
        "of the ideal ranking: {value} / {idcg} = {truth}.",
        k=g.k,
        value=_shown(value),
        idcg=_shown(idcg),
        truth=_shown(g.truth),
    )


_ndcg_mistake(N_("DCG not normalised"), _unnormalised, _unnormalised_explain)


def _list_ideal(g: _Graded) -> float | None:
    return ndcg_at_k(g.grades, g.k)


def _list_ideal_explain(g: _Graded, value: float) -> str:
    listed = np.sort(g.grades)[::-1][: g.k]
    return tr(
        "You built the ideal ranking from the retrieved results only (grades {listed}): "
        "nDCG@{k} = {value}. The ideal ranking holds every judged document of the query, "
        "retrieved or not: grades {best}, so IDCG@{k} = {idcg}.",
        listed=_grades_text(listed[listed > 0]),
        k=g.k,
        value=_shown(value),
        best=_grades_text(g.best[: g.k][g.best[: g.k] > 0]),
        idcg=_shown(_ratio(g, _log2_next)[1]),
    )


_ndcg_mistake(N_("ideal ranking from the retrieved list only"), _list_ideal, _list_ideal_explain)


def _uncut_idcg(g: _Graded) -> float:
    return g.dcg(g.best[g.best > 0], _log2_next)


def _ideal_uncut(g: _Graded) -> float | None:
    idcg = _uncut_idcg(g)
    return _ratio(g, _log2_next)[0] / idcg if idcg else None


def _ideal_uncut_explain(g: _Graded, value: float) -> str:
    return tr(
        "You summed the ideal ranking over all {n} relevant documents (IDCG = {wrong}): "
        "nDCG@{k} = {value}. IDCG@{k} stops at rank {k} too: {idcg}.",
        n=int((g.best > 0).sum()),
        wrong=_shown(_uncut_idcg(g)),
        k=g.k,
        value=_shown(value),
        idcg=_shown(_ratio(g, _log2_next)[1]),
    )


_ndcg_mistake(N_("ideal ranking not cut at k"), _ideal_uncut, _ideal_uncut_explain)


def _binary(g: _Graded) -> float | None:
    return ndcg_at_k((g.grades > 0).astype(float), g.k, ideal=(g.ideal > 0).astype(float))


def _binary_explain(g: _Graded, value: float) -> str:
    return tr(
        "You gave every relevant result gain 1: nDCG@{k} = {value}. nDCG keeps the grades "
        "(gain = grade), so a grade-{top:g} result is worth {top:g} times a grade-1 one.",
        k=g.k,
        value=_shown(value),
        top=float(g.best[0]) if g.best.size else 0.0,
    )


_ndcg_mistake(N_("binary gains instead of the grades"), _binary, _binary_explain)


def _rank_discount(g: _Graded) -> float | None:
    return _normalised(g, _by_rank)


def _rank_discount_explain(g: _Graded, value: float) -> str:
    dcg, idcg = _ratio(g, _by_rank)
    return tr(
        "You divided each gain by its rank, as RR divides 1 by it: {dcg} / {idcg} = {value}. "
        "nDCG's discount is log2(rank + 1), gentler: rank 3 is divided by log2 4 = 2, not 3.",
        dcg=_shown(dcg),
        idcg=_shown(idcg),
        value=_shown(value),
    )


_ndcg_mistake(N_("discount by the rank"), _rank_discount, _rank_discount_explain)


def _whole_list(g: _Graded) -> float | None:
    if g.grades.size <= g.k:
        return None
    return ndcg_at_k(g.grades, max(g.grades.size, g.ideal.size), ideal=g.ideal)


def _whole_list_explain(g: _Graded, value: float) -> str:
    return tr(
        "You scored all {n} results: nDCG = {value}. nDCG@{k} stops at rank {k}, in DCG and "
        "in IDCG.",
        n=g.grades.size,
        value=_shown(value),
        k=g.k,
    )


_ndcg_mistake(N_("ignored the cutoff"), _whole_list, _whole_list_explain)
