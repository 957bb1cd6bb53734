"""Exercises on the numbers beside MAP: R-precision and GMAP.

Built from data through :meth:`NumberExercise.from_data
<mapteach.exercises.NumberExercise.from_data>`, as :mod:`mapteach.exercises.factories_ap`
explains: each recognises every mistake of its kind in the registry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mapteach.exercises.factories_ap import ranking_data
from mapteach.exercises.mistakes import exact_number
from mapteach.exercises.prompts import fill_prompt, ranking_fields
from mapteach.exercises.variants import variant_data
from mapteach.exercises.widgets import NumberExercise
from mapteach.explain.pr_table import pr_curve
from mapteach.i18n import language, ngettext, tr, widget_language
from mapteach.metrics import average_precision, geometric_mean, r_precision
from mapteach.metrics.gmap import GM_FLOOR
from mapteach.metrics.r_precision import R_PRECISION
from mapteach.metrics.validation import as_k

__all__ = ["gmap_exercise", "r_precision_exercise"]

Data = Mapping[str, Any]


def _r_precision(data: Data) -> float:
    return r_precision(data["labels"], n_relevant=data["n_relevant"])


def r_precision_exercise(
    labels: Sequence[int | bool],
    n_relevant: int,
    *,
    prompt: str | None = None,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
    vary: bool = False,
) -> NumberExercise:
    """An exercise: R-precision of a list whose query has ``n_relevant`` relevant documents.

    Every R-precision mistake of the registry is recognised: P@10, precision at the
    hits found or at the last relevant result instead of at R, the list's recall,
    off-by-one ranks... Introduced in ``13_r_precision_and_other_numbers``.
    ``prompt`` is a template as in :func:`~mapteach.exercises.ap_exercise` (also
    ``{missed}``, the relevant documents never retrieved); ``key`` and ``vary`` as
    there (a variant keeps the hits in the top R).

    Examples
    --------
    >>> from mapteach.exercises import r_precision_exercise
    >>> exercise = r_precision_exercise([0, 1, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0], 6)
    >>> exercise.truth, exercise.check("0.4").misconception
    (0.5, 'P@10 for R-precision')
    >>> exercise.measure
    'Rprec'
    """
    lang = widget_language(lang)
    with language(lang):
        data = ranking_data(labels, n_relevant, None)
        r = data["n_relevant"]
        data = variant_data(
            data, kind="R-precision", truth=_r_precision, key=key, vary=vary, cutoff=r or None
        )
        y = data["labels"]
        fields = ranking_fields(y, r=r, k=None, measure=R_PRECISION.name, decimals=decimals)
        text = fill_prompt(prompt or _r_precision_prompt(r, r - sum(y)), fields, vary=vary)
        solution = tr(
            "Read rank R = {r}: {hits} of the top {r} are relevant, so R-precision = "
            "{hits}/{r} = {rprec:.4f}.",
            r=r,
            hits=sum(y[:r]),
            rprec=_r_precision(data),
        )
        table = pr_curve(y, n_relevant=r).round(4).to_html(index=False)
    return NumberExercise.from_data(
        text,
        _r_precision(data),
        f"<p>{solution}</p>{table}",
        kind="R-precision",
        measure=R_PRECISION.name,
        data=data,
        decimals=decimals,
        lang=lang,
        key=key,
    )


def _r_precision_prompt(r: int, missed: int) -> str:
    """The default R-precision prompt template (R and the missed count in words)."""
    has = ngettext(
        "A query has R = {n} relevant document", "A query has R = {n} relevant documents", r
    )
    if missed:
        never = ngettext(
            "{n} of them was never retrieved", "{n} of them were never retrieved", missed
        )
    else:
        never = tr("every one of them was retrieved")
    template = tr(
        "{has}; its ranked list is <code>{{labels}}</code> ({never}). What is its "
        "R-precision? Give {{decimals}} decimals or a fraction.",
        has=has,
        never=never,
    )
    return template


def _one_relevant_lists(ranks: Sequence[int | None], depth: int) -> list[list[int]]:
    """One list of ``depth`` labels per query, its one relevant document at its rank."""
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
    return [[int(i == rank) for i in range(1, depth + 1)] for rank in ranks]


def _aps(data: Data) -> list[float]:
    return [average_precision(q["labels"], n_relevant=q["n_relevant"]) for q in data["queries"]]


def _gmap(data: Data) -> float:
    return geometric_mean(_aps(data))


def gmap_exercise(
    ranks: Sequence[int | None],
    *,
    depth: int = 10,
    prompt: str | None = None,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
    vary: bool = False,
) -> NumberExercise:
    """An exercise: GMAP of queries with one relevant document each, found at ``ranks``.

    ``None`` is a query whose relevant document is not in the top ``depth`` (AP 0,
    floored at :data:`~mapteach.metrics.gmap.GM_FLOOR`). Every GMAP mistake of the
    registry is recognised: MAP given for GMAP, no floor, the mean log not turned back
    with exp, the product without its root, the failed query left out...
    ``exercise.data`` holds ``queries``, one list of ``depth`` labels each (R = 1).
    Introduced in ``13_r_precision_and_other_numbers``. ``prompt`` is a template with
    ``{n}``, ``{found_at}``, ``{aps}``, ``{floor}`` and ``{decimals}``; ``key`` and
    ``vary`` as in :func:`~mapteach.exercises.ap_exercise` (a variant keeps the
    number of failed queries).

    Examples
    --------
    >>> from mapteach.exercises import gmap_exercise
    >>> exercise = gmap_exercise([2, 1, 4, None])
    >>> round(exercise.truth, 4), exercise.check("0.4375").misconception
    (0.0334, 'the arithmetic mean (MAP)')
    >>> exercise.measure, len(exercise.data["queries"])
    ('GMAP', 4)
    """
    lang = widget_language(lang)
    with language(lang):
        lists = _one_relevant_lists(ranks, as_k(depth, name="depth"))
        data = {"queries": [ranking_data(y, 1, None) for y in lists], "k": None}
        data = variant_data(data, kind="GMAP", truth=_gmap, key=key, vary=vary, decimals=decimals)
        aps = _aps(data)
        fields = _gmap_fields(data, aps, decimals)
        default = tr(
            "System C answers {n} queries, each with one relevant document, found at ranks "
            "{found_at}. Its APs are {aps}. What is its GMAP as trec_eval computes it (each AP "
            "floored at {floor:g} first)? Give {decimals} decimals."
        )
        text = fill_prompt(prompt or default, fields, vary=vary and prompt is not None)
        solution = tr(
            "GMAP = ({product})^(1/{n}) = {gmap:.4f}; MAP would be {map:.4f}. The failed query, "
            "floored, drags GMAP far below MAP.",
            product=" × ".join(exact_number(max(ap, GM_FLOOR)) for ap in aps),
            n=len(aps),
            gmap=_gmap(data),
            map=sum(aps) / len(aps),
        )
    return NumberExercise.from_data(
        text,
        _gmap(data),
        f"<p>{solution}</p>",
        kind="GMAP",
        measure="GMAP",
        data=data,
        decimals=decimals,
        fraction=False,
        lang=lang,
        key=key,
    )


def _gmap_fields(data: Data, aps: list[float], decimals: int) -> dict[str, object]:
    """The placeholders of a GMAP prompt."""
    found = [q["labels"].index(1) + 1 if 1 in q["labels"] else None for q in data["queries"]]
    found_at = tr(", ").join(
        tr("{rank} ({query})", rank=rank, query=f"q{number}")
        if rank
        else tr("nowhere ({query})", query=f"q{number}")
        for number, rank in enumerate(found, start=1)
    )
    return {
        "n": len(found),
        "found_at": found_at,
        "aps": tr(", ").join(exact_number(ap) for ap in aps),
        "floor": GM_FLOOR,
        "decimals": decimals,
    }
