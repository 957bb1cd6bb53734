"""Exercises on averaging over queries: micro-averaged R@k, told apart from the macro average.

The exercise's data is that of a MAP exercise with a shared cutoff
(``{"queries": [{"labels", "n_relevant", "k": None}, ...], "k": k}``). Its wrong
answers are the registry's mistakes of kind ``"micro R@k"``
(:mod:`mapteach.exercises.mistakes_precision`), computed from that data and explained
in the learner's numbers: the macro average (the mean of the queries' R@k), the hits
added up over the results counted (micro P@k), and every relevant result of the lists
counted, the cutoff ignored. Introduced in ``04_mean_average_precision``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mapteach.exercises.factories_ap import queries_data, queries_text
from mapteach.exercises.prompts import fill_prompt
from mapteach.exercises.widgets import NumberExercise
from mapteach.explain.averaging_trace import AveragingTable, trace_averaging
from mapteach.i18n import N_, language, tr, widget_language
from mapteach.metrics.validation import as_k

__all__ = ["micro_recall_exercise"]


def _averaging_table(data: dict[str, Any]) -> AveragingTable:
    """The exercise's queries, named "query 1", "query 2"..., macro- and micro-averaged."""
    names = [tr("query {number}", number=n) for n in range(1, len(data["queries"]) + 1)]
    queries = dict(zip(names, data["queries"], strict=True))
    return trace_averaging(
        {name: query["labels"] for name, query in queries.items()},
        data["k"],
        n_relevant={name: query["n_relevant"] for name, query in queries.items()},
    )


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
        table = _averaging_table(data)
        if not table.loc["micro", "R"]:
            raise ValueError(
                tr(
                    "No query has a relevant result, so micro-averaged R@k is 0 / 0; give "
                    "some query R > 0."
                )
            )
        default = tr(
            "Queries, with their ranked labels and R: {queries}. Add up their counts: what is "
            "the micro-averaged R@{k}? Give {decimals} decimals or a fraction."
        )
        fields = {"queries": queries_text(data, with_r=True), "k": k, "decimals": decimals}
        text = fill_prompt(prompt or default, fields)
        micro_recall: Any = table.at["micro", f"R@{data['k']}"]
        truth = float(micro_recall)
        solution = _solution(table, data["k"], truth, decimals)
    return NumberExercise.from_data(
        text,
        truth,
        solution,
        kind="micro R@k",
        measure=None,
        data=data,
        decimals=decimals,
        hint=N_("Add up the hits in the top k, add up the R, then divide once."),
        lang=lang,
        key=key,
    )


def _added(values: Sequence[int]) -> str:
    return " + ".join(str(value) for value in values)


def _solution(table: AveragingTable, k: int, truth: float, decimals: int) -> str:
    """The averaging table of the exercise's queries, and the micro average written out."""
    queries = table.iloc[:-2]  # the macro and micro rows come last
    line = tr(
        "Micro-averaged R@{k} = ({hits}) / ({totals}) = {value}.",
        k=k,
        hits=_added(queries["hits"].tolist()),
        totals=_added(queries["R"].tolist()),
        value=f"{truth:.{decimals}f}",
    )
    return table.display(digits=decimals).to_html() + f"<p>{line}</p>"
