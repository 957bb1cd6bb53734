"""Exercises on P@k, AP and MAP of one ranked list or several, with their solutions."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from html import escape

from mapteach.exercises.misconceptions import (
    AP_MISCONCEPTIONS,
    MAP_MISCONCEPTIONS,
    PRECISION_MISCONCEPTIONS,
)
from mapteach.exercises.variants import variant_rankings
from mapteach.exercises.widgets import NumberExercise
from mapteach.explain.ap_trace import explain_ap, explain_table, trace_ap
from mapteach.explain.trace_display import trace_html
from mapteach.i18n import N_, language, tr, widget_language
from mapteach.metrics import (
    average_precision,
    mean_average_precision,
    precision_at_k,
)
from mapteach.metrics.validation import as_labels

__all__ = ["ap_exercise", "map_exercise", "precision_exercise"]


def ap_exercise(
    labels: Sequence[int | bool],
    *,
    n_relevant: int | None = None,
    k: int | None = None,
    prompt: str | None = None,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
) -> NumberExercise:
    """An exercise: compute AP (or AP@k) of a list, with feedback on the classic mistakes.

    Recognises dividing by the retrieved hits instead of R, dividing AP@k by the
    hits in the top k, using the final hit count in every numerator (article
    001's 0.48), dividing by the list's length, and averaging P@i over every
    rank. Introduced in ``03_average_precision_by_hand``. ``lang`` is the
    language of the default prompt, the solution and the verdicts (default: the
    current one). ``key`` (``"03.2"``) records each check in the learner's
    progress and, once :func:`mapteach.learner` names a learner, gives that
    learner a ranking of their own: the same length, relevant results, R and
    cutoff, with the same mistakes recognised (see :func:`variant_labels`).

    Examples
    --------
    >>> from mapteach.exercises import ap_exercise
    >>> exercise = ap_exercise([0, 0, 0, 0, 0, 0, 1, 1, 1, 1])
    >>> exercise.check("0.4790").misconception  # article 001's 0.48, to 4 decimals
    'final hit count in every numerator'
    >>> exercise.check("0.2815").correct, exercise.check("0.28").status
    (True, 'incomplete')
    """
    lang = widget_language(lang)
    scores = functools.partial(_ap_scores, n_relevant=n_relevant, k=k)
    [labels], prompt = variant_rankings([labels], prompt, key, scores, decimals, k)
    with language(lang):
        answer, wrong = scores(labels)
        table = trace_ap(labels, n_relevant=n_relevant, k=k)
        explanation = explain_table(table)
        default = tr(
            "Ranked labels <code>{labels}</code>, R = {r}. What is {measure}? "
            "Give {decimals} decimals or a fraction.",
            labels=as_labels(labels).astype(int).tolist(),
            r=table.attrs["n_relevant"],
            measure="AP" if k is None else f"AP@{k}",
            decimals=decimals,
        )
        solution = (
            trace_html(table, caption=str(explanation)) + f"<p>{escape(explanation.note)}</p>"
        )
    return NumberExercise.from_scores(
        prompt or default,
        (answer, wrong),
        {m.name: m.explanation for m in AP_MISCONCEPTIONS},
        solution,
        decimals=decimals,
        hint=N_("Trace it rank by rank, or open the solution."),
        lang=lang,
        key=key,
    )


def precision_exercise(
    labels: Sequence[int | bool],
    k: int,
    *,
    n_relevant: int | None = None,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
) -> NumberExercise:
    """An exercise: compute P@k, recognising recall, a short list and hits below rank k.

    Introduced in ``02_precision_and_recall_at_k``. ``lang`` is the language of
    the prompt, the solution and the verdicts (default: the current one).

    Examples
    --------
    >>> from mapteach.exercises import precision_exercise
    >>> exercise = precision_exercise([1, 0, 1], 5)
    >>> exercise.check("2/3").misconception  # divided by the 3 results, not by k = 5
    "divided by the list's length"
    """
    lang = widget_language(lang)
    scores = functools.partial(_precision_scores, n_relevant=n_relevant, k=k)
    [labels], _ = variant_rankings([labels], None, key, scores, decimals, k)
    with language(lang):
        answer, wrong = scores(labels)
        y = as_labels(labels).astype(int).tolist()
        hits = sum(y[:k])
        solution = tr(
            "The top {k} hold {hits} relevant results, so P@{k} = {hits}/{k} = {value}.",
            k=k,
            hits=hits,
            value=f"{answer:.{decimals}f}",
        )
        prompt = (
            tr(
                "Ranked labels <code>{labels}</code>. What is P@{k}? "
                "Give {decimals} decimals or a fraction.",
                labels=y,
                k=k,
                decimals=decimals,
            )
            if n_relevant is None
            else tr(
                "Ranked labels <code>{labels}</code>. The query has R = {r} relevant results. "
                "What is P@{k}? Give {decimals} decimals or a fraction.",
                labels=y,
                r=n_relevant,
                k=k,
                decimals=decimals,
            )
        )
    return NumberExercise.from_scores(
        prompt,
        (answer, wrong),
        {m.name: m.explanation for m in PRECISION_MISCONCEPTIONS},
        f"<p>{solution}</p>",
        decimals=decimals,
        lang=lang,
        key=key,
    )


def map_exercise(
    rankings: Sequence[Sequence[int | bool]],
    *,
    n_relevant: Sequence[int | None] | None = None,
    prompt: str | None = None,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
) -> NumberExercise:
    """An exercise: compute MAP over queries, recognising a skipped empty query.

    Introduced in ``04_mean_average_precision``. ``lang`` is the language of the
    default prompt, the solution and the verdicts (default: the current one).

    Examples
    --------
    >>> from mapteach.exercises import map_exercise
    >>> exercise = map_exercise([[1, 0], [0, 1], [0, 0]])
    >>> exercise.check("0.75").misconception  # (1 + 1/2) / 2 instead of / 3
    'skip instead of zero'
    """
    lang = widget_language(lang)
    rankings, prompt = variant_rankings(
        rankings, prompt, key, lambda *ys: _map_scores(ys, n_relevant), decimals, None
    )
    with language(lang):
        answer, wrong = _map_scores(rankings, n_relevant)
        totals = list(n_relevant) if n_relevant is not None else [None] * len(rankings)
        lines = "".join(
            "<li>"
            + tr(
                "query {number}: <code>{arithmetic}</code>",
                number=i + 1,
                arithmetic=explain_ap(y, n_relevant=r),
            )
            + "</li>"
            for i, (y, r) in enumerate(zip(rankings, totals, strict=True))
        )
        mean = tr(
            "MAP = the mean of these {n} values = {value}.",
            n=len(rankings),
            value=f"{answer:.{decimals}f}",
        )
        queries = "".join(
            f"<li><code>{as_labels(y).astype(int).tolist()}</code>"
            + ("" if r is None else f", R = {r}")
            + "</li>"
            for y, r in zip(rankings, totals, strict=True)
        )
        default = tr(
            "Queries:<ol>{queries}</ol>What is MAP? Give {decimals} decimals or a fraction.",
            queries=queries,
            decimals=decimals,
        )
    return NumberExercise.from_scores(
        prompt or default,
        (answer, wrong),
        {m.name: m.explanation for m in MAP_MISCONCEPTIONS},
        f"<ul>{lines}</ul><p>{mean}</p>",
        decimals=decimals,
        hint=N_("Trace each query's AP first, or open the solution."),
        lang=lang,
        key=key,
    )


def _ap_scores(
    labels: Sequence[int | bool], n_relevant: int | None, k: int | None
) -> tuple[float, dict[str, float]]:
    """AP (or AP@k), and the value of each mistake that can be made with this cutoff."""
    answer = average_precision(labels, n_relevant=n_relevant, k=k)
    wrong = {
        m.name: m.compute(labels, n_relevant=n_relevant, k=k)
        for m in AP_MISCONCEPTIONS
        if m.applies(k)
    }
    return answer, wrong


def _precision_scores(
    labels: Sequence[int | bool], n_relevant: int | None, k: int
) -> tuple[float, dict[str, float]]:
    """P@k, and the value of each mistake."""
    answer = precision_at_k(labels, k)
    wrong = {
        m.name: m.compute(labels, n_relevant=n_relevant, k=k) for m in PRECISION_MISCONCEPTIONS
    }
    return answer, wrong


def _map_scores(
    rankings: Sequence[Sequence[int | bool]], n_relevant: Sequence[int | None] | None
) -> tuple[float, dict[str, float]]:
    """MAP, and the value of each mistake."""
    answer = mean_average_precision(rankings, n_relevant=n_relevant)
    wrong = {m.name: m.compute(rankings, n_relevant=n_relevant) for m in MAP_MISCONCEPTIONS}
    return answer, wrong
