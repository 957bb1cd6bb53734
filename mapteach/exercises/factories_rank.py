"""Exercises on reciprocal rank: RR of one list, MRR over queries, with their solutions.

Each factory builds its exercise from data (``exercise.data``: ``labels``,
``n_relevant``, ``k``; ``queries`` for MRR) through
:meth:`NumberExercise.from_data <mapteach.exercises.NumberExercise.from_data>`, so the
exercise recognises every RR (or MRR) mistake of the registry
(:mod:`mapteach.exercises.mistakes_beyond`). The truth is
:func:`~mapteach.metrics.reciprocal_rank`, trec_eval's ``recip_rank``. Introduced in
``08_choosing_a_metric``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mapteach.exercises.factories_ap import (
    queries_data,
    queries_solution,
    queries_text,
    ranking_data,
)
from mapteach.exercises.prompts import fill_prompt, ranking_fields
from mapteach.exercises.variants import variant_data
from mapteach.exercises.widgets import NumberExercise
from mapteach.explain.display import display_table
from mapteach.explain.rr_trace import explain_rr, trace_rr
from mapteach.i18n import N_, language, tr, widget_language
from mapteach.metrics import mean_reciprocal_rank, reciprocal_rank
from mapteach.metrics.validation import as_k

__all__ = ["mrr_exercise", "rr_exercise"]

Data = Mapping[str, Any]

_HINT = N_("Find the first relevant result, or open the solution.")


def _rr(data: Data) -> float:
    return reciprocal_rank(data["labels"], k=data["k"])


def _rr_prompt(k: int | None) -> str:
    if k is None:
        return tr(
            "A ranked list is <code>{labels}</code>. What is its reciprocal rank (RR)? Give "
            "{decimals} decimals or a fraction."
        )
    return tr(
        "A ranked list is <code>{labels}</code>. What is its {measure}, the reciprocal rank "
        "within the top {k}? Give {decimals} decimals or a fraction."
    )


def _rr_solution(labels: Sequence[int], k: int | None, decimals: int) -> str:
    """The arithmetic of RR above its rank-by-rank trace, as HTML."""
    shown = display_table(trace_rr(labels, k=k), digits=4)
    for column in shown.select_dtypes(bool).columns:
        shown[column] = shown[column].map({True: "✔", False: "✘"})
    table = shown.to_html(index=False)
    return f"<p>{explain_rr(labels, k=k, decimals=decimals)}</p>{table}"


def rr_exercise(
    labels: Sequence[int | bool],
    *,
    n_relevant: int | None = None,
    k: int | None = None,
    prompt: str | None = None,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
    vary: bool = False,
) -> NumberExercise:
    """An exercise: the reciprocal rank of one ranked list (RR, or RR@k with ``k``).

    Every RR mistake of the registry is recognised: 1/rank of the last relevant
    result, ranks counted from 0 or one past the rank, 1/R, the rank itself, a list
    with no relevant result counted as 1, the cutoff ignored, AP given for RR.
    Introduced in ``08_choosing_a_metric``.

    Parameters
    ----------
    labels : sequence of {0, 1} or bool
        Relevance of each result, best-ranked first.
    n_relevant : int, optional
        R, the query's relevant documents, retrieved or not (RR does not use it; some
        learners do). Default: the hits in ``labels``.
    k : int, optional
        Rank cutoff: ask for RR@k.
    prompt : str, optional
        A template (``tr("...")`` with no fields) with ``{labels}``, ``{r}``, ``{k}``,
        ``{relevant_ranks}``, ``{measure}``, ``{decimals}``; default one that says what
        is asked.
    decimals : int, default 4
        The precision asked for.
    lang, key
        The exercise's language, and the key that records its checks.
    vary : bool, default False
        Give a named learner (or group) a list of their own, as hard and with the
        same mistakes recognised.

    Returns
    -------
    NumberExercise
        ``measure`` ``"RR"`` (``"RR@k"``), ``data`` ``{"labels", "n_relevant", "k"}``.

    Raises
    ------
    TypeError, ValueError
        If ``labels`` is not a 0/1 sequence, R is smaller than the hits, ``k < 1``, or
        ``prompt`` names a field it does not fill.

    Examples
    --------
    >>> from mapteach.exercises import rr_exercise
    >>> exercise = rr_exercise([0, 1, 0, 1])
    >>> exercise.truth, exercise.measure
    (0.5, 'RR')
    >>> exercise.check("1/4").misconception
    '1/rank of the last relevant result'
    """
    lang = widget_language(lang)
    with language(lang):
        data = ranking_data(labels, n_relevant, k)
        data = variant_data(data, kind="RR", truth=_rr, key=key, vary=vary, decimals=decimals)
        measure = "RR" if k is None else f"RR@{data['k']}"
        fields = ranking_fields(
            data["labels"], r=data["n_relevant"], k=data["k"], measure=measure, decimals=decimals
        )
        text = fill_prompt(prompt or _rr_prompt(data["k"]), fields, vary=vary and bool(prompt))
        solution = _rr_solution(data["labels"], data["k"], decimals)
    return NumberExercise.from_data(
        text,
        _rr(data),
        solution,
        kind="RR",
        measure=measure,
        data=data,
        decimals=decimals,
        hint=_HINT,
        lang=lang,
        key=key,
    )


def _mrr(data: Data) -> float:
    return mean_reciprocal_rank([q["labels"] for q in data["queries"]], k=data["k"])


def _mrr_solution(data: Data, decimals: int) -> str:
    """Each query's RR written out, then their mean, as HTML."""
    mean = tr(
        "MRR = the mean of these {n} values = {value}.",
        n=len(data["queries"]),
        value=f"{_mrr(data):.{decimals}f}",
    )
    return queries_solution(
        [explain_rr(q["labels"], k=data["k"], decimals=decimals) for q in data["queries"]], mean
    )


def mrr_exercise(
    rankings: Sequence[Sequence[int | bool]],
    *,
    n_relevant: Sequence[int | None] | None = None,
    k: int | None = None,
    prompt: str | None = None,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
    vary: bool = False,
) -> NumberExercise:
    """An exercise: the mean reciprocal rank (MRR) of several queries' ranked lists.

    Every MRR mistake of the registry is recognised: each RR slip of
    :func:`rr_exercise` made on every query, the reciprocal of the mean rank, and
    leaving out the queries with no relevant result. Introduced in
    ``08_choosing_a_metric``.

    Parameters
    ----------
    rankings : sequence of label sequences
        One ranked list of 0/1 labels per query.
    n_relevant : sequence of int or None, optional
        Each query's R (default: its hits).
    k : int, optional
        Rank cutoff applied to every query: ask for MRR@k.
    prompt : str, optional
        A template with ``{queries}`` (each list), ``{n_queries}``, ``{k}``,
        ``{measure}`` and ``{decimals}``; default one that says what is asked.
    decimals, lang, key, vary
        As :func:`rr_exercise`.

    Returns
    -------
    NumberExercise
        ``measure`` ``"RR"`` (ir_measures' RR averaged over queries is MRR; ``"RR@k"``
        with a cutoff), ``data`` ``{"queries": [{"labels", "n_relevant", "k"}, ...],
        "k"}``, ``mistake_kind`` ``"MRR"``.

    Raises
    ------
    TypeError, ValueError
        As :func:`rr_exercise`, for any query; also if ``n_relevant`` has another
        length than ``rankings``.

    Examples
    --------
    >>> from mapteach.exercises import mrr_exercise
    >>> exercise = mrr_exercise([[0, 1], [1, 0], [0, 0]])
    >>> exercise.truth, exercise.measure, exercise.mistake_kind
    (0.5, 'RR', 'MRR')
    >>> exercise.check("0.75").misconception  # (1/2 + 1/1) / 2: the empty query left out
    'skipped the queries with no relevant result'
    """
    lang = widget_language(lang)
    with language(lang):
        cutoff = None if k is None else as_k(k)
        data = queries_data(rankings, n_relevant)
        data = {"queries": [{**q, "k": cutoff} for q in data["queries"]], "k": cutoff}
        data = variant_data(data, kind="MRR", truth=_mrr, key=key, vary=vary, decimals=decimals)
        measure = "RR" if cutoff is None else f"RR@{cutoff}"
        fields = {
            "queries": queries_text(data, with_r=n_relevant is not None),
            "n_queries": len(data["queries"]),
            "k": cutoff,
            "measure": "MRR" if cutoff is None else f"MRR@{cutoff}",
            "decimals": decimals,
        }
        text = fill_prompt(prompt or _mrr_prompt(cutoff), fields, vary=vary and bool(prompt))
        solution = _mrr_solution(data, decimals)
    return NumberExercise.from_data(
        text,
        _mrr(data),
        solution,
        kind="MRR",
        measure=measure,
        data=data,
        decimals=decimals,
        hint=_HINT,
        lang=lang,
        key=key,
    )


def _mrr_prompt(k: int | None) -> str:
    if k is None:
        return tr(
            "{n_queries} queries, with their ranked labels: {queries}. What is their mean "
            "reciprocal rank (MRR)? Give {decimals} decimals or a fraction."
        )
    return tr(
        "{n_queries} queries, with their ranked labels: {queries}. What is their {measure}, "
        "the mean of each query's reciprocal rank within the top {k}? Give {decimals} "
        "decimals or a fraction."
    )
