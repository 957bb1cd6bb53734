"""The mistakes learners make with Cohen's kappa between two judges, in the registry.

Each mistake is a function of a kappa exercise's data (see
:mod:`mapteach.exercises.mistakes` and
:func:`~mapteach.exercises.factories_agreement.kappa_exercise`): ``judge_a`` and
``judge_b`` (the two judges' grades of the same items), ``threshold`` (the lowest
grade counted as relevant, or None to compare the grades themselves), and
``labels_a``, ``labels_b``, ``categories``: what kappa compares. The right value is
Cohen's kappa, (p_o - p_e) / (1 - p_e), with p_e from each judge's own frequencies
(scikit-learn's ``cohen_kappa_score``, what notebook 12 computes).

Chance agreement from the two judges' pooled frequencies is another convention, not
a blunder: it is how *Introduction to Information Retrieval* (ch. 8, Table 8.2)
computes P(E), Scott's pi, the two-judge case of Fleiss' kappa. Introduced in
``12_judging_relevance``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from mapteach.exercises.mistakes import ExerciseData, Mistake, register, same_value
from mapteach.exercises.mistakes import number as _shown
from mapteach.i18n import N_, tr

__all__: list[str] = []


@dataclass(frozen=True)
class _Agreement:
    """Two judges' calls on the same items, and the shares kappa is made of."""

    a: np.ndarray
    b: np.ndarray
    categories: list[int]

    @classmethod
    def of(cls, data: ExerciseData) -> _Agreement:
        return cls.between(data["labels_a"], data["labels_b"], data["categories"])

    @classmethod
    def between(cls, a: Sequence[int], b: Sequence[int], categories: Sequence[int]) -> _Agreement:
        return cls(np.asarray(a), np.asarray(b), [int(c) for c in categories])

    @property
    def p_o(self) -> float:
        """The observed agreement: the share of items both judges call the same."""
        return float(np.mean(self.a == self.b))

    def share(self, calls: np.ndarray, category: int) -> float:
        return float(np.mean(calls == category))

    @property
    def p_e(self) -> float:
        """Cohen's chance agreement: each judge's own frequencies, multiplied."""
        return sum(self.share(self.a, c) * self.share(self.b, c) for c in self.categories)

    @property
    def p_e_pooled(self) -> float:
        """IIR's chance agreement: the two judges' pooled frequencies, squared."""
        return sum(
            ((self.share(self.a, c) + self.share(self.b, c)) / 2) ** 2 for c in self.categories
        )

    def kappa(self, p_e: float) -> float | None:
        return None if p_e >= 1.0 else (self.p_o - p_e) / (1.0 - p_e)

    @property
    def truth(self) -> float | None:
        return self.kappa(self.p_e)


def _kappa_mistake(
    name: str,
    value: Callable[[_Agreement, ExerciseData], float | None],
    explanation: str,
    convention: str | None = None,
) -> None:
    """Register a kappa mistake; ``explanation`` has the fields value, p_o, p_e, q, truth,
    pooled, relevant_only, threshold."""

    def of_data(data: ExerciseData) -> float | None:
        agreement = _Agreement.of(data)
        found, truth = value(agreement, data), agreement.truth
        if found is None or truth is None or same_value(found, truth):
            return None
        return found

    def explain(data: ExerciseData, found: float) -> str:
        agreement = _Agreement.of(data)
        return tr(
            explanation,
            value=_shown(found),
            p_o=_shown(agreement.p_o),
            p_e=_shown(agreement.p_e),
            q=len(agreement.categories),
            truth=_shown(agreement.truth or 0.0),
            pooled=_shown(agreement.p_e_pooled),
            relevant_only=_shown(_relevant_only(agreement) or 0.0),
            threshold=data.get("threshold"),
        )

    register(Mistake(name, ("kappa",), of_data, explain, convention))


_kappa_mistake(
    N_("observed agreement given as kappa"),
    lambda agreement, data: agreement.p_o,
    N_(
        "{value} is p_o, the share of items the judges call the same. Kappa corrects it for "
        "the agreement chance alone would give, p_e = {p_e}: (p_o - p_e) / (1 - p_e) = "
        "({p_o} - {p_e}) / (1 - {p_e}) = {truth}."
    ),
)
_kappa_mistake(
    N_("chance agreement 1/(number of categories)"),
    lambda agreement, data: agreement.kappa(1.0 / len(agreement.categories)),
    N_(
        "You took chance agreement as 1/{q}, as if each judge picked among the {q} categories "
        "evenly: {value}. Cohen's p_e multiplies each judge's own frequencies, category by "
        "category, and adds them: p_e = {p_e}, so kappa = ({p_o} - {p_e}) / (1 - {p_e}) = "
        "{truth}."
    ),
)
_kappa_mistake(
    N_("chance agreement from the pooled frequencies (IIR, Scott's pi)"),
    lambda agreement, data: agreement.kappa(agreement.p_e_pooled),
    N_(
        "{value} takes p_e = {pooled} from the two judges' pooled frequencies, as "
        "Introduction to Information Retrieval (ch. 8, Table 8.2) computes P(E): that is "
        "Scott's pi, the two-judge case of Fleiss' kappa. This exercise asks for Cohen's "
        "kappa, with each judge's own frequencies (scikit-learn's cohen_kappa_score): p_e = "
        "{p_e}, kappa = {truth}."
    ),
    N_("IIR's pooled marginals (Scott's pi, Fleiss' kappa for two judges)"),
)
_kappa_mistake(
    N_("forgot the 1 - p_e denominator"),
    lambda agreement, data: agreement.p_o - agreement.p_e,
    N_(
        "You stopped at p_o - p_e = {p_o} - {p_e} = {value}. Kappa divides it by 1 - p_e, the "
        "most agreement beyond chance there could be: ({p_o} - {p_e}) / (1 - {p_e}) = {truth}."
    ),
)
_kappa_mistake(
    N_("divided by p_e, not 1 - p_e"),
    lambda agreement, data: (
        (agreement.p_o - agreement.p_e) / agreement.p_e if agreement.p_e else None
    ),
    N_(
        "You divided by p_e = {p_e}: {value}. Kappa divides by 1 - p_e, the most agreement "
        "beyond chance there could be: ({p_o} - {p_e}) / (1 - {p_e}) = {truth}."
    ),
)


def _relevant_only(agreement: _Agreement) -> float | None:
    """p_e counting only the chance that both call an item relevant (binary calls)."""
    if agreement.categories != [0, 1]:
        return None
    return agreement.share(agreement.a, 1) * agreement.share(agreement.b, 1)


def _relevant_only_kappa(agreement: _Agreement, data: ExerciseData) -> float | None:
    p_e = _relevant_only(agreement)
    return None if p_e is None else agreement.kappa(p_e)


_kappa_mistake(
    N_("chance agreement on 'relevant' only"),
    _relevant_only_kappa,
    N_(
        "You took p_e = {relevant_only}, the chance that both call an item relevant, and left "
        "out the chance that both call it not relevant: {value}. p_e adds both: p_e = {p_e}, "
        "so kappa = ({p_o} - {p_e}) / (1 - {p_e}) = {truth}."
    ),
)


def _grades_kappa(agreement: _Agreement, data: ExerciseData) -> float | None:
    if data.get("threshold") is None:
        return None
    a, b = list(data["judge_a"]), list(data["judge_b"])
    return _Agreement.between(a, b, sorted(set(a) | set(b))).truth


_kappa_mistake(
    N_("forgot the relevance threshold"),
    _grades_kappa,
    N_(
        "{value} is the kappa of the grades themselves. This exercise asks for the kappa of "
        "the relevant / not relevant calls, grade {threshold} or more counting as relevant: "
        "p_o = {p_o}, p_e = {p_e}, kappa = {truth}."
    ),
)
