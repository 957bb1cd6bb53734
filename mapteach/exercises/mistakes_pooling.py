"""The mistakes learners make with pooled judgments: the pool's size, pooled AP and bpref.

Each mistake is a function of an exercise's data (see
:mod:`mapteach.exercises.mistakes`), with the keys the factories of
:mod:`mapteach.exercises.factories_pooling` document:

- a pool (kind ``"pool"``): ``runs`` (each run's ranked document ids) and ``depth``;
- pooled AP (kind ``"pooled AP"``): ``labels`` (the run's list under the pooled
  judgments, unjudged = 0), ``judged`` (0/1 per rank), ``n_relevant`` (the judged
  relevant documents), ``complete_labels`` and ``complete_n_relevant`` (under the
  complete judgments), ``missed`` (the relevant documents nobody judged);
- bpref (kind ``"Bpref"``): ``labels``, ``judged``, ``n_relevant`` (R) and
  ``n_nonrelevant`` (N, the judged non-relevant documents, retrieved or not).

AP over condensed lists (judged documents only) and the bpref of Buckley and
Voorhees' paper (n divided by R) are other measures or conventions, not blunders.
Introduced in ``14_incomplete_judgments_and_pooling``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mapteach.exercises.mistakes import ExerciseData, Mistake, register, same_value, spoken_list
from mapteach.exercises.mistakes import number as _shown
from mapteach.i18n import N_, ngettext, tr
from mapteach.metrics import average_precision, bpref

__all__: list[str] = []


def _tops(data: ExerciseData) -> list[set[str]]:
    """Each run's top ``depth`` documents."""
    return [set(run[: int(data["depth"])]) for run in data["runs"]]


def _pool_mistake(name: str, value: Callable[[ExerciseData], float], explanation: str) -> None:
    """Register a pool-size mistake; ``explanation`` has the fields depth, value, truth."""

    def of_data(data: ExerciseData) -> float | None:
        found = value(data)
        return None if found == len(set.union(*_tops(data))) else found

    def explain(data: ExerciseData, found: float) -> str:
        truth = len(set.union(*_tops(data)))
        return tr(explanation, depth=data["depth"], value=f"{found:g}", truth=truth)

    register(Mistake(name, ("pool",), of_data, explain))


_pool_mistake(
    N_("added the runs' depths"),
    lambda data: float(sum(len(top) for top in _tops(data))),
    N_(
        "You counted each run's top {depth} separately ({value} documents). The pool is their "
        "union: a document several runs found is judged once, so {truth}."
    ),
)
_pool_mistake(
    N_("only documents every run found"),
    lambda data: float(len(set.intersection(*_tops(data)))),
    N_(
        "You kept only the {value} documents every run put in its top {depth} (the "
        "intersection). The pool is the union: a document any run put in its top {depth} is "
        "judged, {truth} in all."
    ),
)
_pool_mistake(
    N_("pooled the whole lists"),
    lambda data: float(len(set().union(*map(set, data["runs"])))),
    N_(
        "You pooled every result ({value} documents). A pool of depth {depth} takes each run's "
        "top {depth} only: {truth} documents."
    ),
)


def _pooled_ap(data: ExerciseData) -> float:
    return average_precision(data["labels"], n_relevant=int(data["n_relevant"]))


def _pooled_mistake(
    name: str,
    value: Callable[[ExerciseData], float | None],
    explain: Callable[[ExerciseData, float], str],
    convention: str | None = None,
) -> None:
    """Register a pooled-AP mistake whose value is dropped where it equals the truth."""

    def of_data(data: ExerciseData) -> float | None:
        found = value(data)
        return None if found is None or same_value(found, _pooled_ap(data)) else found

    register(Mistake(name, ("pooled AP",), of_data, explain, convention))


_pooled_mistake(
    N_("counted the unjudged relevant document"),
    lambda data: average_precision(
        data["complete_labels"], n_relevant=int(data["complete_n_relevant"])
    ),
    lambda data, value: ngettext(
        "{value} is the AP with complete judgments. With the pooled judgments nobody judged "
        "{missed}, so trec_eval counts it as not relevant; R is the {r} judged relevant "
        "documents.",
        "{value} is the AP with complete judgments. With the pooled judgments nobody judged "
        "{missed}, so trec_eval counts them as not relevant; R is the {r} judged relevant "
        "documents.",
        len(data["missed"]),
        value=_shown(value),
        missed=spoken_list(data["missed"]),
        r=data["n_relevant"],
    ),
)


def _condensed(data: ExerciseData) -> list[int]:
    return [label for label, judged in zip(data["labels"], data["judged"], strict=True) if judged]


_pooled_mistake(
    N_("left the unjudged documents out (condensed list)"),
    lambda data: average_precision(_condensed(data), n_relevant=int(data["n_relevant"])),
    lambda data, value: tr(
        "{value} is AP over the condensed list (trec_eval -J, judged-only AP): the unjudged "
        "documents removed, {labels}. That is another measure, one of the remedies of section 4 "
        "of this notebook; this exercise asks for plain AP, which keeps them, as not relevant.",
        value=_shown(value),
        labels=_condensed(data),
    ),
    N_("AP over condensed lists (trec_eval -J), judged documents only"),
)
_pooled_mistake(
    N_("divided by the true R"),
    lambda data: average_precision(data["labels"], n_relevant=int(data["complete_n_relevant"])),
    lambda data, value: tr(
        "You divided by {true_r}, the true number of relevant documents. The pooled qrels know "
        "only {r}.",
        true_r=data["complete_n_relevant"],
        r=data["n_relevant"],
    ),
)


def _hits(data: ExerciseData) -> int:
    return int(sum(data["labels"]))


_pooled_mistake(
    N_("forgot the judged relevant documents the run missed"),
    lambda data: (
        average_precision(data["labels"]) if _hits(data) < int(data["n_relevant"]) else None
    ),
    lambda data, value: tr(
        "You divided by {hits}, the judged relevant documents the run retrieved. The pooled "
        "judgments hold {r}: the ones the run missed count in R too.",
        hits=_hits(data),
        r=data["n_relevant"],
    ),
)


def _unjudged_as_relevant(data: ExerciseData) -> tuple[list[int], int]:
    """The list and R of a learner who counts every unjudged document as relevant."""
    pairs = zip(data["labels"], data["judged"], strict=True)
    labels = [int(label or not judged) for label, judged in pairs]
    return labels, int(data["n_relevant"]) + sum(not judged for judged in data["judged"])


def _unjudged_as_relevant_ap(data: ExerciseData) -> float | None:
    if all(data["judged"]):
        return None
    labels, r = _unjudged_as_relevant(data)
    return average_precision(labels, n_relevant=r)


def _unjudged_as_relevant_explain(data: ExerciseData, value: float) -> str:
    labels, r = _unjudged_as_relevant(data)
    return tr(
        "You counted the unjudged documents as relevant: {labels} with R = {r}, AP = {value}. "
        "trec_eval counts a document nobody judged as not relevant.",
        labels=labels,
        r=r,
        value=_shown(value),
    )


_pooled_mistake(
    N_("counted the unjudged documents as relevant"),
    _unjudged_as_relevant_ap,
    _unjudged_as_relevant_explain,
)


@dataclass(frozen=True)
class _Bpref:
    """A bpref exercise's list: for each retrieved relevant document, what lies above it."""

    labels: list[int]
    judged: list[int]
    r: int
    n: int

    @classmethod
    def of(cls, data: ExerciseData) -> _Bpref:
        return cls(
            [int(v) for v in data["labels"]],
            [int(v) for v in data["judged"]],
            int(data["n_relevant"]),
            int(data["n_nonrelevant"]),
        )

    @property
    def truth(self) -> float:
        return bpref(self.labels, judged=self.judged, n_relevant=self.r, n_nonrelevant=self.n)

    def above(self, counts: Callable[[int, int], bool]) -> list[int]:
        """For each relevant result, how many results above it ``counts(label, judged)``."""
        found, seen = [], 0
        for label, judged in zip(self.labels, self.judged, strict=True):
            if label:
                found.append(seen)
            seen += counts(label, judged)
        return found

    @property
    def nonrelevant_above(self) -> list[int]:
        return self.above(lambda label, judged: bool(judged and not label))

    @property
    def nonrelevant_listed(self) -> int:
        """The judged non-relevant documents in the list."""
        return sum(bool(j and not label) for label, j in zip(self.labels, self.judged, strict=True))


@dataclass(frozen=True)
class _Sum:
    """A bpref as a learner writes it: each relevant result's term, then the division."""

    terms: list[tuple[int, int]]  # (numerator, denominator) of each term 1 - a/b
    divisor: int

    @property
    def value(self) -> float | None:
        if self.divisor == 0 or any(b == 0 and a for a, b in self.terms):
            return None
        return sum(1.0 - (a / b if a else 0.0) for a, b in self.terms) / self.divisor

    @property
    def text(self) -> str:
        terms = " + ".join("1" if a == 0 else f"(1 − {a}/{b})" for a, b in self.terms) or "0"
        return f"({terms}) / {self.divisor}"


def _trec_sum(b: _Bpref, above: list[int], n: int, divisor: int, cap: bool = True) -> _Sum:
    """trec_eval's terms 1 - min(n, R)/min(N, R) for the counts ``above``, over ``divisor``."""
    denominator = max(min(n, b.r), 1)
    return _Sum([(min(a, b.r) if cap else a, denominator) for a in above], divisor)


def _bpref_mistake(
    name: str, learner: Callable[[_Bpref], _Sum], explanation: str, convention: str | None = None
) -> None:
    """Register a bpref mistake; ``explanation`` has the fields sum, value, r, n, right."""

    def of_data(data: ExerciseData) -> float | None:
        b = _Bpref.of(data)
        found = learner(b).value
        return None if found is None or same_value(found, b.truth) else found

    def explain(data: ExerciseData, value: float) -> str:
        b = _Bpref.of(data)
        right = f"{_trec_sum(b, b.nonrelevant_above, b.n, b.r).text} = {_shown(b.truth)}"
        return tr(
            explanation,
            sum=learner(b).text,
            value=_shown(value),
            r=b.r,
            n=b.n,
            right=right,
        )

    register(Mistake(name, ("Bpref",), of_data, explain, convention))


_bpref_mistake(
    N_("n divided by R (Buckley and Voorhees' paper)"),
    lambda b: _Sum([(min(a, b.r), b.r) for a in b.nonrelevant_above], b.r),
    N_(
        "{sum} = {value} divides each n by R = {r}, as Buckley and Voorhees' 2004 paper writes "
        "bpref. This exercise asks for trec_eval's bpref, which divides by min(R, N) = "
        "min({r}, {n}): {right}."
    ),
    N_("Buckley and Voorhees' 2004 paper, n ÷ R"),
)
_bpref_mistake(
    N_("counted the unjudged documents as non-relevant"),
    lambda b: _trec_sum(b, b.above(lambda label, judged: not label), b.n + b.judged.count(0), b.r),
    N_(
        "You counted the unjudged documents as judged non-relevant: {sum} = {value}. bpref "
        "skips them: n counts only the judged non-relevant documents above, and N = {n}."
    ),
)
_bpref_mistake(
    N_("divided by the relevant documents retrieved"),
    lambda b: _trec_sum(b, b.nonrelevant_above, b.n, sum(b.labels)),
    N_(
        "You divided by the relevant documents the list retrieved: {sum} = {value}. bpref "
        "divides by R = {r}, every relevant document of the query: {right}."
    ),
)
_bpref_mistake(
    N_("N from the list only"),
    lambda b: _trec_sum(b, b.nonrelevant_above, b.nonrelevant_listed, b.r),
    N_(
        "You took N from the judged non-relevant documents in the list: {sum} = {value}. N "
        "counts every judged non-relevant document of the query, retrieved or not: N = {n}, "
        "so {right}."
    ),
)
_bpref_mistake(
    N_("counted every result above, not only the judged non-relevant"),
    lambda b: _trec_sum(b, b.above(lambda label, judged: True), b.n, b.r),
    N_(
        "You counted every result above each relevant one: {sum} = {value}. n counts only the "
        "judged non-relevant documents above it; relevant and unjudged ones do not count: "
        "{right}."
    ),
)
_bpref_mistake(
    N_("n not capped at R"),
    lambda b: _trec_sum(b, b.nonrelevant_above, b.n, b.r, cap=False),
    N_(
        "You used n itself where more than R = {r} judged non-relevant documents lie above: "
        "{sum} = {value}. trec_eval counts at most R of them, min(n, R), so no term is below "
        "0: {right}."
    ),
)
