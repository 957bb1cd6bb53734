"""Exercises on averaging over queries: micro-averaged R@k, told apart from the macro average.

The exercise's data is that of a MAP exercise with a shared cutoff
(``{"queries": [{"labels", "n_relevant", "k": None}, ...], "k": k}``). Its wrong
answers are computed from that data and explained in the learner's numbers: the
macro average (the mean of the queries' R@k), the hits added up over the results
counted (micro P@k), and every relevant result of the lists counted, the cutoff
ignored. Introduced in ``04_mean_average_precision``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from mapteach.exercises.factories_ap import queries_data, queries_text
from mapteach.exercises.mistakes import WrongAnswer
from mapteach.exercises.mistakes_ranking import number
from mapteach.exercises.prompts import fill_prompt
from mapteach.exercises.widgets import NumberExercise
from mapteach.explain.averaging_trace import trace_averaging
from mapteach.i18n import N_, language, tr, widget_language
from mapteach.metrics.micro_average import hits_and_relevant, micro_precision_at_k
from mapteach.metrics.recall import recall_at_k
from mapteach.metrics.validation import as_k

__all__ = ["micro_recall_exercise"]

Data = Mapping[str, Any]


def _counts(data: Data) -> tuple[list[list[int]], np.ndarray, np.ndarray]:
    """The queries' lists, their hits in the top k and their R."""
    lists = [query["labels"] for query in data["queries"]]
    totals = [query["n_relevant"] for query in data["queries"]]
    hits, relevant = hits_and_relevant(lists, data["k"], n_relevant=totals)
    return lists, hits, relevant


def _added(values: Sequence[int]) -> str:
    return " + ".join(str(value) for value in values)


def _facts(data: Data) -> dict[str, Any]:
    """Every number the exercise's explanations and solution show."""
    lists, hits, relevant = _counts(data)
    k = data["k"]
    recalls = [recall_at_k(y, k, n_relevant=int(r)) for y, r in zip(lists, relevant, strict=True)]
    micro = hits.sum() / relevant.sum()
    return {
        "k": data["k"],
        "q": len(lists),
        "hits": _added(hits.tolist()),
        "totals": _added(relevant.tolist()),
        "recalls": " + ".join(number(value) for value in recalls),
        "counted": len(lists) * data["k"],
        "found": _added([int(sum(y)) for y in lists]),
        "right": number(micro),
        "micro": float(micro),
        "macro": float(np.mean(recalls)),
        "pooled_precision": micro_precision_at_k(lists, data["k"]),
        "whole_lists": sum(int(sum(y)) for y in lists) / relevant.sum(),
    }


def _wrong_answers(facts: Mapping[str, Any]) -> list[WrongAnswer]:
    """The macro average, micro P@k and the cutoff ignored, each in the learner's numbers."""
    shown = {key: value for key, value in facts.items() if isinstance(value, str | int)}
    candidates = [
        (
            N_("took the macro average"),
            facts["macro"],
            N_(
                "That is the macro average, the mean of the queries' R@{k}: ({recalls}) / {q} "
                "= {value}. The micro average adds up the counts first: ({hits}) / ({totals}) "
                "= {right}."
            ),
        ),
        (
            N_("divided by the results counted"),
            facts["pooled_precision"],
            N_(
                "You divided the hits, added up, by the results counted, {q} x {k} = {counted}: "
                "({hits}) / {counted} = {value}, the micro-averaged P@{k}. Recall divides by "
                "the relevant results: ({hits}) / ({totals}) = {right}."
            ),
        ),
        (
            N_("ignored the cutoff"),
            facts["whole_lists"],
            N_(
                "You counted every relevant result of the lists, ({found}) / ({totals}) = "
                "{value}. R@{k} counts only those in the top {k}: ({hits}) / ({totals}) = "
                "{right}."
            ),
        ),
    ]
    return [
        WrongAnswer(name, value, tr(template).format(**shown, value=number(value)))
        for name, value, template in candidates
        if not np.isclose(value, facts["micro"])
    ]


def micro_recall_exercise(
    rankings: Sequence[Sequence[int | bool]],
    k: int,
    *,
    n_relevant: Sequence[int | None] | None = None,
    prompt: str | None = None,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
) -> NumberExercise:
    """An exercise: add up the queries' counts into micro-averaged R@k, naming the mistake.

    The wrong answers recognised are the macro average (the mean of the queries'
    R@k), the hits added up over the Q x k results counted (micro-averaged P@k) and
    every relevant result of the lists counted (the cutoff ignored), each where it
    differs from the truth. Introduced in ``04_mean_average_precision``.

    Parameters
    ----------
    rankings : sequence of label sequences
        One ranked list of 0/1 labels per query, best first.
    k : int
        The cutoff shared by every query.
    n_relevant : sequence of int or None, optional
        R per query (None: the hits in its list).
    prompt : str, optional
        A template with ``{queries}`` (each list with its R), ``{k}`` and ``{decimals}``.
    decimals : int, default 4
        The precision asked for.
    lang : {"en", "zh"}, optional
        The language of the prompt, the solution and the verdicts (default: the current one).
    key : str, optional
        ``"04.3"``: where the exercise is, for the progress file.

    Returns
    -------
    NumberExercise
        Its ``data`` is ``{"queries": [...], "k": k}``; its ``measure`` is None.

    Raises
    ------
    TypeError, ValueError
        If a ranking, R or ``k`` is invalid, or no query has a relevant result.

    Examples
    --------
    >>> from mapteach.exercises import micro_recall_exercise
    >>> exercise = micro_recall_exercise([[1, 1, 0], [0, 1]], 2, n_relevant=[4, 1])
    >>> exercise.check("3/5").correct  # (2 + 1) / (4 + 1)
    True
    >>> exercise.check("0.75").misconception  # (2/4 + 1/1) / 2
    'took the macro average'
    """
    lang = widget_language(lang)
    with language(lang):
        data = {**queries_data(rankings, n_relevant), "k": as_k(k)}
        if not _counts(data)[2].sum():
            raise ValueError(
                tr(
                    "No query has a relevant result, so micro-averaged R@k is 0 / 0; give "
                    "some query R > 0."
                )
            )
        facts = _facts(data)
        default = tr(
            "Queries, with their ranked labels and R: {queries}. Add up their counts: what is "
            "the micro-averaged R@{k}? Give {decimals} decimals or a fraction."
        )
        fields = {"queries": queries_text(data, with_r=True), "k": k, "decimals": decimals}
        text = fill_prompt(prompt or default, fields)
        solution = _solution(data, facts, decimals)
        wrong = _wrong_answers(facts)
    exercise = NumberExercise(
        text,
        facts["micro"],
        wrong,
        solution,
        decimals=decimals,
        hint=N_("Add up the hits in the top k, add up the R, then divide once."),
        lang=lang,
        key=key,
    )
    exercise.data = data
    return exercise


def _solution(data: Data, facts: Mapping[str, Any], decimals: int) -> str:
    """The averaging table of the exercise's queries, and the micro average written out."""
    names = [tr("query {number}", number=n) for n in range(1, len(data["queries"]) + 1)]
    table = trace_averaging(
        {name: query["labels"] for name, query in zip(names, data["queries"], strict=True)},
        data["k"],
        n_relevant={
            name: query["n_relevant"] for name, query in zip(names, data["queries"], strict=True)
        },
    )
    line = tr(
        "Micro-averaged R@{k} = ({hits}) / ({totals}) = {value}.",
        k=facts["k"],
        hits=facts["hits"],
        totals=facts["totals"],
        value=f"{facts['micro']:.{decimals}f}",
    )
    return table.display(digits=decimals).to_html() + f"<p>{line}</p>"
