"""Exercises on the numbers beside MAP: R-precision and GMAP."""

from __future__ import annotations

from collections.abc import Sequence

from mapteach.exercises.misconceptions_beyond import GMAP_MISCONCEPTIONS, RPREC_MISCONCEPTIONS
from mapteach.exercises.variants import variant_rankings
from mapteach.exercises.widgets import NumberExercise
from mapteach.explain.pr_table import pr_curve
from mapteach.i18n import language, tr, widget_language
from mapteach.metrics import (
    average_precision,
    geometric_mean,
    r_precision,
)
from mapteach.metrics.gmap import GM_FLOOR
from mapteach.metrics.validation import as_k, as_labels

__all__ = ["gmap_exercise", "r_precision_exercise"]


def _r_precision_scores(labels: Sequence[int], n_relevant: int) -> tuple[float, dict[str, float]]:
    """R-precision, and the value of each mistake."""
    wrong = {m.name: m.compute(labels, n_relevant=n_relevant) for m in RPREC_MISCONCEPTIONS}
    return r_precision(labels, n_relevant=n_relevant), wrong


def r_precision_exercise(
    labels: Sequence[int | bool],
    n_relevant: int,
    *,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
) -> NumberExercise:
    """An exercise: R-precision of a list whose query has ``n_relevant`` relevant documents.

    Recognises P@10, precision at the hits found instead of at R, and precision at
    the last relevant result. Introduced in ``13_r_precision_and_other_numbers``.
    ``key`` records checks and gives a named learner a list of their own, as
    :func:`ap_exercise` does.

    Examples
    --------
    >>> from mapteach.exercises import r_precision_exercise
    >>> exercise = r_precision_exercise([0, 1, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0], 6)
    >>> exercise.truth, exercise.check("0.4").misconception
    (0.5, 'P@10 for R-precision')
    """
    lang = widget_language(lang)
    [labels], _ = variant_rankings(
        [labels], None, key, lambda y: _r_precision_scores(y, n_relevant), decimals, n_relevant
    )
    with language(lang):
        y = as_labels(labels).astype(int).tolist()
        answer, wrong = _r_precision_scores(y, n_relevant)
        missed = n_relevant - sum(y)
        prompt = tr(
            "A query has R = {r} relevant documents; its ranked list is <code>{labels}</code> "
            "({missed} of its relevant documents were never retrieved). What is its "
            "R-precision? Give {decimals} decimals or a fraction.",
            r=n_relevant,
            labels=y,
            missed=missed,
            decimals=decimals,
        )
        solution = tr(
            "Read rank R = {r}: {hits} of the top {r} are relevant, so R-precision = "
            "{hits}/{r} = {rprec:.4f}.",
            r=n_relevant,
            hits=sum(y[:n_relevant]),
            rprec=answer,
        )
        table = pr_curve(y, n_relevant=n_relevant).round(4).to_html(index=False)
    return NumberExercise.from_scores(
        prompt,
        (answer, wrong),
        {m.name: m.explanation for m in RPREC_MISCONCEPTIONS},
        f"<p>{solution}</p>{table}",
        decimals=decimals,
        lang=lang,
        key=key,
    )


def _one_relevant_aps(rankings: Sequence[Sequence[int]]) -> list[float]:
    """The AP of each ranking of a query with one relevant document."""
    return [average_precision(y, n_relevant=1) for y in rankings]


def _gmap_scores(aps: Sequence[float]) -> tuple[float, dict[str, float]]:
    """GMAP of the APs, and the value of each mistake."""
    return geometric_mean(aps), {m.name: m.compute(aps) for m in GMAP_MISCONCEPTIONS}


def _check_ranks(ranks: Sequence[int | None], depth: int) -> None:
    """Raise unless each rank is a whole number from 1 to ``depth``, or None."""
    for index, rank in enumerate(ranks):
        if rank is not None and not (isinstance(rank, int) and 1 <= rank <= depth):
            raise ValueError(
                tr(
                    "ranks[{index}] is {rank!r}; a rank must be a whole number from 1 to "
                    "{depth}, or None for a query that found nothing.",
                    index=index,
                    rank=rank,
                    depth=depth,
                )
            )


def gmap_exercise(
    ranks: Sequence[int | None],
    *,
    depth: int = 10,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
) -> NumberExercise:
    """An exercise: GMAP of queries with one relevant document each, found at ``ranks``.

    ``None`` is a query whose relevant document is not in the top ``depth`` (AP 0,
    floored at :data:`~mapteach.metrics.gmap.GM_FLOOR`). Recognises MAP given for
    GMAP, the product without the floor, and the mean log not turned back with exp.
    Introduced in ``13_r_precision_and_other_numbers``. ``key`` records checks and
    gives a named learner ranks of their own (the same number of failed queries),
    as :func:`ap_exercise` does.

    Examples
    --------
    >>> from mapteach.exercises import gmap_exercise
    >>> exercise = gmap_exercise([2, 1, 4, None])
    >>> round(exercise.truth, 4), exercise.check("0.4375").misconception
    (0.0334, 'the arithmetic mean (MAP)')
    """
    lang = widget_language(lang)
    with language(lang):
        depth = as_k(depth, name="depth")
        _check_ranks(ranks, depth)
    lists = [[int(i == rank) for i in range(1, depth + 1)] for rank in ranks]
    lists, _ = variant_rankings(
        lists, None, key, lambda *ys: _gmap_scores(_one_relevant_aps(ys)), decimals, None
    )
    found = [y.index(1) + 1 if 1 in y else None for y in lists]
    aps = _one_relevant_aps(lists)
    answer, wrong = _gmap_scores(aps)
    with language(lang):
        found_at = ", ".join(
            tr("{rank} ({query})", rank=rank, query=f"q{number}")
            if rank
            else tr("nowhere ({query})", query=f"q{number}")
            for number, rank in enumerate(found, start=1)
        )
        prompt = tr(
            "System C answers {n} queries, each with one relevant document, found at ranks "
            "{found_at}. Its APs are {aps}. What is its GMAP as trec_eval computes it (each AP "
            "floored at {floor:g} first)? Give {decimals} decimals.",
            n=len(found),
            found_at=found_at,
            aps=", ".join(f"{ap:g}" for ap in aps),
            floor=GM_FLOOR,
            decimals=decimals,
        )
        solution = tr(
            "GMAP = ({product})^(1/{n}) = {gmap:.4f}; MAP would be {map:.4f}. The failed query, "
            "floored, drags GMAP far below MAP.",
            product=" × ".join(f"{max(ap, GM_FLOOR):g}" for ap in aps),
            n=len(aps),
            gmap=answer,
            map=sum(aps) / len(aps),
        )
    return NumberExercise.from_scores(
        prompt,
        (answer, wrong),
        {m.name: m.explanation for m in GMAP_MISCONCEPTIONS},
        f"<p>{solution}</p>",
        decimals=decimals,
        lang=lang,
        key=key,
    )
