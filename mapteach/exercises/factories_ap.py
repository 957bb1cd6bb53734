"""Exercises on AP, AP@k, P@k, R@k and MAP, with their solutions.

Every factory builds its exercise from data (``exercise.data``: ``labels``,
``n_relevant``, ``k``; ``queries`` for MAP) through
:meth:`NumberExercise.from_data <mapteach.exercises.NumberExercise.from_data>`, so
the exercise recognises every mistake of its kind in the registry
(:mod:`mapteach.exercises.mistakes`). A prompt is a template the factory fills from
that data (:mod:`mapteach.exercises.prompts`); with ``vary=True`` and a learner or
group set, the data is the learner's own variant (:mod:`mapteach.exercises.variants`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from mapteach.exercises.mistakes import spoken_list
from mapteach.exercises.prompts import fill_prompt, ranking_fields
from mapteach.exercises.variants import variant_data
from mapteach.exercises.widgets import NumberExercise
from mapteach.explain.ap_trace import explain_ap, explain_table, trace_ap
from mapteach.explain.trace_display import trace_html
from mapteach.i18n import N_, language, ngettext, tr, widget_language
from mapteach.metrics import average_precision, mean_average_precision, precision_at_k, recall_at_k
from mapteach.metrics.validation import as_k, as_labels, as_n_relevant, as_rankings

__all__ = ["ap_exercise", "map_exercise", "precision_exercise", "recall_exercise"]

Data = Mapping[str, Any]


def ranking_data(
    labels: Sequence[int | bool], n_relevant: int | None, k: int | None
) -> dict[str, Any]:
    """One ranking's exercise data, checked: ``{"labels", "n_relevant", "k"}``.

    >>> ranking_data([True, False], None, 3)
    {'labels': [1, 0], 'n_relevant': 1, 'k': 3}
    """
    y = as_labels(labels)
    return {
        "labels": y.astype(int).tolist(),
        "n_relevant": as_n_relevant(n_relevant, int(y.sum())),
        "k": None if k is None else as_k(k),
    }


def _ap(data: Data) -> float:
    return average_precision(data["labels"], n_relevant=data["n_relevant"], k=data["k"])


def ap_exercise(
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
    """An exercise: compute AP (or trec_eval's AP@k) of a list, naming the learner's mistake.

    Every AP (``k`` None) or AP@k mistake of the registry is recognised on the
    list: the missed relevant results forgotten, the final hit count in every
    numerator (article 001's 0.48), the list's length as denominator, precision at
    every rank, off-by-one ranks, the cutoff ignored...; AP@k divided by the hits in
    the top k (torchmetrics) or by min(k, R) (Kaggle's ``apk``) is named as the other
    convention it is. Introduced in ``03_average_precision_by_hand``.

    ``prompt`` is a template filled from the data: ``{labels}``, ``{r}``, ``{k}``,
    ``{relevant_ranks}``, ``{measure}``, ``{decimals}`` (default: one that states
    trec_eval's convention). ``lang`` is the language of the default prompt, the
    solution and the verdicts (default: the current one). ``key`` (``"03.2"``)
    records each answer in the learner's progress; with ``vary=True`` it also gives
    a named learner (or group) a list of their own: the same length, R, cutoff and
    relevant results in the top k, with the same mistakes recognised.

    Examples
    --------
    >>> from mapteach.exercises import ap_exercise
    >>> exercise = ap_exercise([0, 0, 0, 0, 0, 0, 1, 1, 1, 1])
    >>> exercise.check("0.4790").misconception  # article 001's 0.48, to 4 decimals
    'final hit count in every numerator'
    >>> exercise.check("0.2815").correct, exercise.check("0.28").status
    (True, 'incomplete')
    >>> exercise.measure, exercise.data
    ('AP', {'labels': [0, 0, 0, 0, 0, 0, 1, 1, 1, 1], 'n_relevant': 4, 'k': None})
    """
    lang = widget_language(lang)
    with language(lang):
        data = ranking_data(labels, n_relevant, k)
        kind = "AP" if k is None else "AP@k"
        data = variant_data(data, kind=kind, truth=_ap, key=key, vary=vary, decimals=decimals)
        y, r = data["labels"], data["n_relevant"]
        measure = "AP" if k is None else f"AP@{k}"
        fields = ranking_fields(y, r=r, k=k, measure=measure, decimals=decimals)
        text = fill_prompt(prompt or _ap_prompt(k), fields, vary=vary and prompt is not None)
        table = trace_ap(y, n_relevant=r, k=k)
        explanation = explain_table(table)
        solution = (
            trace_html(table, caption=str(explanation)) + f"<p>{escape(explanation.note)}</p>"
        )
    return NumberExercise.from_data(
        text,
        _ap(data),
        solution,
        kind=kind,
        measure=measure,
        data=data,
        decimals=decimals,
        hint=N_("Trace it rank by rank, or open the solution."),
        lang=lang,
        key=key,
    )


def _ap_prompt(k: int | None) -> str:
    """The default AP or AP@k prompt template, in the current language."""
    if k is None:
        return tr(
            "Ranked labels <code>{labels}</code>, R = {r}. What is {measure}? "
            "Give {decimals} decimals or a fraction."
        )
    return tr(
        "A query has R = {r} relevant results; its ranked list is <code>{labels}</code>. "
        "What is {measure}, trec_eval's AP@k: the contributions of the relevant ranks down to "
        "{k}, summed and divided by R? Give {decimals} decimals or a fraction."
    )


def precision_exercise(
    labels: Sequence[int | bool],
    k: int,
    *,
    n_relevant: int | None = None,
    prompt: str | None = None,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
    vary: bool = False,
) -> NumberExercise:
    """An exercise: compute P@k, naming recall, a short list, hits below rank k and the rest.

    Introduced in ``02_precision_and_recall_at_k``. ``prompt`` is a template as in
    :func:`ap_exercise`; ``lang``, ``key`` and ``vary`` as there.

    Examples
    --------
    >>> from mapteach.exercises import precision_exercise
    >>> exercise = precision_exercise([1, 0, 1], 5)
    >>> exercise.check("2/3").misconception  # divided by the 3 results, not by k = 5
    "divided by the list's length"
    >>> exercise.measure
    'P@5'
    """
    lang = widget_language(lang)
    with language(lang):
        data = ranking_data(labels, n_relevant, as_k(k))
        data = variant_data(data, kind="P@k", truth=_precision, key=key, vary=vary)
        y, r, hits = data["labels"], data["n_relevant"], sum(data["labels"][:k])
        fields = ranking_fields(y, r=r, k=k, measure=f"P@{k}", decimals=decimals)
        default = _precision_prompt(n_relevant is None)
        text = fill_prompt(prompt or default, fields, vary=vary and prompt is not None)
        value = f"{_precision(data):.{decimals}f}"
        solution = ngettext(
            "The top {k} hold one relevant result, so P@{k} = 1/{k} = {value}.",
            "The top {k} hold {n} relevant results, so P@{k} = {n}/{k} = {value}.",
            hits,
            k=k,
            value=value,
        )
    return NumberExercise.from_data(
        text,
        _precision(data),
        f"<p>{solution}</p>",
        kind="P@k",
        measure=f"P@{k}",
        data=data,
        decimals=decimals,
        lang=lang,
        key=key,
    )


def _precision(data: Data) -> float:
    return precision_at_k(data["labels"], data["k"])


def _precision_prompt(without_r: bool) -> str:
    if without_r:
        return tr(
            "Ranked labels <code>{labels}</code>. What is P@{k}? "
            "Give {decimals} decimals or a fraction."
        )
    return tr(
        "Ranked labels <code>{labels}</code>. The query has R = {r} relevant results. "
        "What is P@{k}? Give {decimals} decimals or a fraction."
    )


def recall_exercise(
    labels: Sequence[int | bool],
    k: int,
    *,
    n_relevant: int | None = None,
    prompt: str | None = None,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
    vary: bool = False,
) -> NumberExercise:
    """An exercise: compute R@k, naming P@k, the missed relevant results, the cutoff ignored.

    Introduced in ``02_precision_and_recall_at_k``. ``prompt`` is a template as in
    :func:`ap_exercise`; ``lang``, ``key`` and ``vary`` as there.

    Examples
    --------
    >>> from mapteach.exercises import recall_exercise
    >>> exercise = recall_exercise([1, 0, 1, 1], 3, n_relevant=6)
    >>> round(exercise.truth, 4), exercise.check("2/3").misconception  # 2/3 = P@3
    (0.3333, 'divided by k')
    >>> exercise.measure
    'R@3'
    """
    lang = widget_language(lang)
    with language(lang):
        data = ranking_data(labels, n_relevant, as_k(k))
        data = variant_data(data, kind="R@k", truth=_recall, key=key, vary=vary)
        y, r, hits = data["labels"], data["n_relevant"], sum(data["labels"][:k])
        fields = ranking_fields(y, r=r, k=k, measure=f"R@{k}", decimals=decimals)
        default = tr(
            "Ranked labels <code>{labels}</code>. The query has R = {r} relevant results, "
            "retrieved or not. What is {measure}, the relevant results in the top {k} divided "
            "by R? Give {decimals} decimals or a fraction."
        )
        text = fill_prompt(prompt or default, fields, vary=vary and prompt is not None)
        solution = ngettext(
            "The top {k} hold one of the R = {r} relevant results, so R@{k} = 1/{r} = {value}.",
            "The top {k} hold {n} of the R = {r} relevant results, so R@{k} = {n}/{r} = {value}.",
            hits,
            k=k,
            r=r,
            value=f"{_recall(data):.{decimals}f}",
        )
    return NumberExercise.from_data(
        text,
        _recall(data),
        f"<p>{solution}</p>",
        kind="R@k",
        measure=f"R@{k}",
        data=data,
        decimals=decimals,
        lang=lang,
        key=key,
    )


def _recall(data: Data) -> float:
    return recall_at_k(data["labels"], data["k"], n_relevant=data["n_relevant"])


def queries_data(
    rankings: Sequence[Sequence[int | bool]], n_relevant: Sequence[int | None] | None
) -> dict[str, Any]:
    """A MAP-style exercise's data, checked: ``{"queries": [...], "k": None}``.

    >>> queries_data([[1, 0], [0, 0]], None)["queries"][1]
    {'labels': [0, 0], 'n_relevant': 0, 'k': None}
    """
    rankings = as_rankings(rankings)
    totals = [None] * len(rankings) if n_relevant is None else list(n_relevant)
    if len(totals) != len(rankings):
        raise ValueError(
            tr(
                "n_relevant has {got} entries for {n} rankings; give one R per query.",
                got=len(totals),
                n=len(rankings),
            )
        )
    queries = [ranking_data(y, r, None) for y, r in zip(rankings, totals, strict=True)]
    return {"queries": queries, "k": None}


def _map(data: Data) -> float:
    queries = data["queries"]
    return mean_average_precision(
        [q["labels"] for q in queries], n_relevant=[q["n_relevant"] for q in queries]
    )


def queries_text(data: Data, *, with_r: bool) -> str:
    """The queries of a MAP-style exercise as a prompt lists them: ``{queries}``.

    >>> queries_text({"queries": [{"labels": [1, 0], "n_relevant": 2},
    ...                           {"labels": [0, 1], "n_relevant": 1}]}, with_r=True)
    '<code>[1, 0]</code> (R = 2) and <code>[0, 1]</code> (R = 1)'
    """
    shown = [f"<code>{query['labels']}</code>" for query in data["queries"]]
    if with_r:
        shown = [
            tr("{labels} (R = {r})", labels=labels, r=query["n_relevant"])
            for labels, query in zip(shown, data["queries"], strict=True)
        ]
    return spoken_list(shown)


def map_exercise(
    rankings: Sequence[Sequence[int | bool]],
    *,
    n_relevant: Sequence[int | None] | None = None,
    prompt: str | None = None,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
    vary: bool = False,
) -> NumberExercise:
    """An exercise: compute MAP over queries, naming the learner's mistake.

    Every MAP mistake of the registry is recognised: skipping a query with no
    relevant result (article 003's convention, named as such), counting it as 1, MAP
    as the mean of each list's precision or of P@i, pooling every relevant result,
    the missed relevant results forgotten... Introduced in
    ``04_mean_average_precision``. ``prompt`` is a template with ``{queries}`` (each
    list, with its R when ``n_relevant`` is given), ``{n_queries}`` and
    ``{decimals}``; ``lang``, ``key`` and ``vary`` as in :func:`ap_exercise`.

    Examples
    --------
    >>> from mapteach.exercises import map_exercise
    >>> exercise = map_exercise([[1, 0, 1], [0, 1], [0, 0]])
    >>> feedback = exercise.check("0.6667")  # (5/6 + 1/2) / 2, the empty query left out
    >>> feedback.misconception, feedback.convention
    ('skip instead of zero', True)
    """
    lang = widget_language(lang)
    with language(lang):
        data = queries_data(rankings, n_relevant)
        data = variant_data(data, kind="MAP", truth=_map, key=key, vary=vary, decimals=decimals)
        fields = {
            "queries": queries_text(data, with_r=n_relevant is not None),
            "n_queries": len(data["queries"]),
            "decimals": decimals,
        }
        default = tr(
            "Queries, with their ranked labels: {queries}. A query with no relevant result "
            "scores 0 and stays in the mean, as in trec_eval. What is MAP? Give {decimals} "
            "decimals or a fraction."
        )
        text = fill_prompt(prompt or default, fields, vary=vary and prompt is not None)
        solution = _map_solution(data, decimals)
    return NumberExercise.from_data(
        text,
        _map(data),
        solution,
        kind="MAP",
        measure="MAP",
        data=data,
        decimals=decimals,
        hint=N_("Trace each query's AP first, or open the solution."),
        lang=lang,
        key=key,
    )


def queries_solution(arithmetic: Sequence[str], mean: str) -> str:
    """Each query's arithmetic as a list item, then the sentence that averages them, as HTML.

    >>> queries_solution(["1/1", "0"], "MAP = 0.5.")
    '<ul><li>query 1: <code>1/1</code></li><li>query 2: <code>0</code></li></ul><p>MAP = 0.5.</p>'
    """
    lines = "".join(
        "<li>" + tr("query {number}: <code>{arithmetic}</code>", number=n, arithmetic=a) + "</li>"
        for n, a in enumerate(arithmetic, start=1)
    )
    return f"<ul>{lines}</ul><p>{mean}</p>"


def _map_solution(data: Data, decimals: int) -> str:
    """Each query's AP written out, then their mean."""
    mean = tr(
        "MAP = the mean of these {n} values = {value}.",
        n=len(data["queries"]),
        value=f"{_map(data):.{decimals}f}",
    )
    return queries_solution(
        [str(explain_ap(q["labels"], n_relevant=q["n_relevant"])) for q in data["queries"]], mean
    )
