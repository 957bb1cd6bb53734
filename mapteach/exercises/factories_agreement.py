"""Exercises on agreement between two judges: Cohen's kappa, with its solution.

The exercise is built from data (``exercise.data``) through
:meth:`NumberExercise.from_data <mapteach.exercises.NumberExercise.from_data>`, so it
recognises every kappa mistake of the registry
(:mod:`mapteach.exercises.mistakes_agreement`). The truth is scikit-learn's
``cohen_kappa_score``, what notebook 12 (``mapteach.judging.agreement``) computes:
unweighted, chance agreement from each judge's own frequencies. Introduced in
``12_judging_relevance``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
from sklearn.metrics import cohen_kappa_score

from mapteach.exercises.factories_pooling import registry_scores
from mapteach.exercises.prompts import fill_prompt
from mapteach.exercises.variants import variant_orders
from mapteach.exercises.widgets import NumberExercise
from mapteach.i18n import N_, language, tr, widget_language
from mapteach.metrics.validation import as_gains, as_k

__all__ = ["kappa_exercise"]

Data = Mapping[str, Any]


def _grades(grades: Sequence[int], name: str) -> list[int]:
    """A judge's grades as whole numbers >= 0; raise naming the first that is not one."""
    values = as_gains(grades, name=name).tolist()
    for index, value in enumerate(values):
        if not float(value).is_integer():
            raise ValueError(
                tr(
                    "{name}[{index}] is {value:g}; a grade is a whole number (0, 1, 2, ...).",
                    name=name,
                    index=index,
                    value=value,
                )
            )
    return [int(value) for value in values]


def agreement_data(
    judge_a: Sequence[int], judge_b: Sequence[int], threshold: int | None
) -> dict[str, Any]:
    """A kappa exercise's data, checked: both judges' grades and the calls kappa compares.

    >>> data = agreement_data([0, 2, 3, 1], [1, 2, 2, 0], 2)
    >>> data["labels_a"], data["labels_b"], data["categories"]
    ([0, 1, 1, 0], [0, 1, 1, 0], [0, 1])
    """
    a, b = _grades(judge_a, "judge_a"), _grades(judge_b, "judge_b")
    if len(a) != len(b) or len(a) < 2:
        raise ValueError(
            tr(
                "judge_a has {a} grades and judge_b {b}; give both judges' grades of the same "
                "items (at least 2), in the same order.",
                a=len(a),
                b=len(b),
            )
        )
    cut = None if threshold is None else as_k(threshold, name="threshold")
    labels_a, labels_b = (a, b) if cut is None else ([int(g >= cut) for g in x] for x in (a, b))
    categories = sorted(set(labels_a) | set(labels_b))
    if len(categories) < 2:  # chance agreement is 1
        raise ValueError(
            tr(
                "Both judges give every item the same call, {call}: chance agreement is 1, "
                "so kappa is undefined. Give judgments with at least two calls.",
                call=labels_a[0],
            )
        )
    return {
        "judge_a": a,
        "judge_b": b,
        "threshold": cut,
        "labels_a": labels_a,
        "labels_b": labels_b,
        "categories": categories,
    }


def _kappa(data: Data) -> float:
    return float(cohen_kappa_score(data["labels_a"], data["labels_b"]))


def _kappa_prompt(threshold: int | None) -> str:
    if threshold is None:
        return tr(
            "Two judges grade the same {n} results, in the same order: judge A "
            "<code>{judge_a}</code>, judge B <code>{judge_b}</code>. What is Cohen's kappa "
            "(unweighted) of their grades, with chance agreement p_e from each judge's own "
            "frequencies, as scikit-learn's cohen_kappa_score? Give {decimals} decimals."
        )
    return tr(
        "Two judges grade the same {n} results, in the same order: judge A "
        "<code>{judge_a}</code>, judge B <code>{judge_b}</code>. Grade {threshold} or more "
        "counts as relevant. What is Cohen's kappa of their relevant / not relevant calls, with "
        "chance agreement p_e from each judge's own frequencies, as scikit-learn's "
        "cohen_kappa_score? Give {decimals} decimals."
    )


def _solution(data: Data, decimals: int) -> str:
    """The two judges' calls crossed, then p_o, p_e and kappa written out, as HTML."""
    a, b, categories = data["labels_a"], data["labels_b"], data["categories"]
    n = len(a)
    crossed = pd.crosstab(
        pd.Categorical(a, categories=categories), pd.Categorical(b, categories=categories)
    )
    crossed.index.name, crossed.columns.name = tr("judge A"), tr("judge B")
    if data["threshold"] is not None:
        names = {0: tr("not relevant"), 1: tr("relevant")}
        crossed = crossed.rename(index=names, columns=names)
    agree = sum(x == y for x, y in zip(a, b, strict=True))
    products = " + ".join(f"({a.count(c)}/{n})({b.count(c)}/{n})" for c in categories)
    p_e = sum(a.count(c) * b.count(c) for c in categories) / n**2
    text = tr(
        "p_o = {agree}/{n} = {p_o}; p_e = {products} = {p_e}; kappa = (p_o - p_e) / (1 - p_e) "
        "= ({p_o} - {p_e}) / (1 - {p_e}) = {kappa}.",
        agree=agree,
        n=n,
        p_o=f"{agree / n:.4f}",
        products=products,
        p_e=f"{p_e:.4f}",
        kappa=f"{_kappa(data):.{decimals}f}",
    )
    return f"{crossed.to_html()}<p>{text}</p>"


def kappa_exercise(
    judge_a: Sequence[int],
    judge_b: Sequence[int],
    *,
    threshold: int | None = None,
    prompt: str | None = None,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
    vary: bool = False,
) -> NumberExercise:
    """An exercise: Cohen's kappa between two judges, on their grades or their binary calls.

    Every kappa mistake of the registry is recognised: p_o given as kappa, chance
    agreement 1/(number of categories), chance agreement from the pooled frequencies
    (IIR's, Scott's pi: named as the convention it is), the 1 - p_e denominator
    forgotten or replaced by p_e, chance agreement on "relevant" only, the threshold
    forgotten. Introduced in ``12_judging_relevance``.

    Parameters
    ----------
    judge_a, judge_b : sequence of int
        The two judges' grades of the same items, in the same order.
    threshold : int, optional
        The lowest grade that counts as relevant: kappa then compares the binary calls
        (notebook 12's ``agreement``). Default: kappa of the grades themselves
        (unweighted, as the calibration report's ``kappa``).
    prompt : str, optional
        A template with ``{judge_a}``, ``{judge_b}``, ``{threshold}``, ``{n}`` and
        ``{decimals}``; default one that says which kappa is asked.
    decimals : int, default 4
        The precision asked for.
    lang, key
        The exercise's language, and the key that records its checks.
    vary : bool, default False
        Give a named learner (or group) the items in an order of their own: both
        judges' grades move together, so each item keeps its pair of grades, and p_o,
        both judges' frequencies, kappa and every mistake's value stay. The prompt
        shows other lists; the answer is the same: the variant is for a pair that must
        not copy each other's working, not for a different question.

    Returns
    -------
    NumberExercise
        ``measure`` None (kappa measures judges, not a ranking); ``data``
        ``{"judge_a", "judge_b", "threshold", "labels_a", "labels_b", "categories"}``:
        the grades, and the calls kappa compares with their categories.

    Raises
    ------
    TypeError, ValueError
        If a grade is not a whole number >= 0, the judges graded different numbers
        of items (or fewer than 2), ``threshold < 1``, both judges make one same call
        on every item (kappa undefined), or ``prompt`` names a field it does not fill.

    Examples
    --------
    >>> from mapteach.exercises import kappa_exercise
    >>> exercise = kappa_exercise([0, 1, 1, 0, 1, 1], [0, 1, 0, 0, 1, 1])
    >>> round(exercise.truth, 4), exercise.measure  # p_o 5/6, p_e 1/2
    (0.6667, None)
    >>> exercise.check("0.8333").misconception
    'observed agreement given as kappa'
    """
    lang = widget_language(lang)
    with language(lang):
        data = agreement_data(judge_a, judge_b, threshold)
        data = _variant(data, key, vary, decimals)
        fields = {
            "judge_a": data["judge_a"],
            "judge_b": data["judge_b"],
            "threshold": data["threshold"],
            "n": len(data["judge_a"]),
            "decimals": decimals,
        }
        default = _kappa_prompt(data["threshold"])
        text = fill_prompt(prompt or default, fields, vary=vary and bool(prompt))
        solution = _solution(data, decimals)
    return NumberExercise.from_data(
        text,
        _kappa(data),
        solution,
        kind="kappa",
        measure=None,
        data=data,
        decimals=decimals,
        fraction=False,
        hint=N_("Count p_o and p_e first, or open the solution."),
        lang=lang,
        key=key,
    )


def _variant(data: dict[str, Any], key: str | None, vary: bool, decimals: int) -> dict[str, Any]:
    """The data with its items in the learner's own order, both judges' grades moving
    together (kept as given with no learner)."""

    def rebuilt(order: list[str]) -> dict[str, Any]:
        a, b = (
            [grades[int(index)] for index in order] for grades in (data["judge_a"], data["judge_b"])
        )
        return agreement_data(a, b, data["threshold"])

    scores = registry_scores("kappa", rebuilt, _kappa)
    identity = [str(index) for index in range(len(data["judge_b"]))]
    [order] = variant_orders([identity], key, scores, decimals, vary=vary)
    return rebuilt(order)
