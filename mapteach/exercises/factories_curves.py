"""Exercises on the precision-recall curve: interpolated precision at a recall level.

Built from data through :meth:`NumberExercise.from_data
<mapteach.exercises.NumberExercise.from_data>`, as :mod:`mapteach.exercises.factories_ap`
explains: the exercise recognises every interpolated-precision mistake of the registry.
"""

from __future__ import annotations

import fractions
from collections.abc import Mapping, Sequence
from typing import Any

from mapteach.exercises.factories_ap import ranking_data
from mapteach.exercises.mistakes import exact_number
from mapteach.exercises.mistakes_precision import interpolated_at_level
from mapteach.exercises.prompts import fill_prompt, ranking_fields
from mapteach.exercises.variants import variant_data
from mapteach.exercises.widgets import NumberExercise
from mapteach.explain.pr_table import pr_curve
from mapteach.i18n import language, tr, widget_language

__all__ = ["interpolated_precision_exercise", "level_measure"]

Data = Mapping[str, Any]


def level_measure(level: float) -> str:
    """The measure in ir_measures' spelling: ``IPrec@`` and the level's shortest exact
    decimal, else its 4 decimals (``IPrec@0.6667`` for 2/3: ir_measures hands trec_eval
    the level to 2 decimals, ``iprec_at_recall_0.67``; ``data["recall"]`` stays exact).

    >>> level_measure(0.5), level_measure(2 / 3)
    ('IPrec@0.5', 'IPrec@0.6667')
    """
    short = f"{level:g}"
    return f"IPrec@{short}" if float(short) == level else f"IPrec@{level:.4f}"


def _level(recall: str | float | fractions.Fraction, data: Data) -> fractions.Fraction:
    """The recall level asked, checked: a number from 0 to 1 that the list reaches."""
    try:
        level = fractions.Fraction(repr(recall) if isinstance(recall, float) else recall)
    except (TypeError, ValueError, ZeroDivisionError):
        raise ValueError(
            tr("recall must be a number or a fraction such as '2/3'; got {got!r}.", got=recall)
        ) from None
    found, r = sum(data["labels"]), data["n_relevant"]
    top = fractions.Fraction(found, r) if r else fractions.Fraction(0)
    if not 0 <= level <= 1 or level > top or r == 0:
        raise ValueError(
            tr(
                "The list never reaches recall {level}: it finds {found} of its R = {r} "
                "relevant results, so its top recall is {top}. Ask for a recall level from 0 "
                "to {top}.",
                level=str(level),
                found=found,
                r=r,
                top=str(top),
            )
        )
    return level


def interpolated_precision_exercise(
    labels: Sequence[int | bool],
    recall: str | float | fractions.Fraction,
    *,
    n_relevant: int | None = None,
    prompt: str | None = None,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
    vary: bool = False,
) -> NumberExercise:
    """An exercise: interpolated precision at a recall level, read off the PR curve.

    Interpolated precision at recall L is IIR's: the best precision at recall L or
    higher. Every mistake of the registry is recognised: the raw precision where
    recall reaches L, the best precision anywhere, looking at lower recall; trec_eval
    9's and 10's ways of turning L into a number of relevant results are named as the
    other conventions they are. ``exercise.data`` adds ``recall`` (L, a float) to the
    ranking's data. Introduced in ``07_pr_curves``. ``prompt`` is a template as in
    :func:`~mapteach.exercises.ap_exercise`, with ``{level}`` too; ``key`` and
    ``vary`` as there.

    Raises
    ------
    ValueError
        If ``recall`` is not a number from 0 to the list's top recall (hits found / R).

    Examples
    --------
    >>> from mapteach.exercises import interpolated_precision_exercise
    >>> exercise = interpolated_precision_exercise([1, 0, 0, 1, 1, 0], "2/3")
    >>> round(exercise.truth, 4), exercise.check("0.5").misconception
    (0.6, 'gave the raw precision at the rank where recall reaches the level')
    >>> exercise.measure, round(exercise.data["recall"], 12)
    ('IPrec@0.6667', 0.666666666667)
    >>> interpolated_precision_exercise([1, 0, 0], "1/2", n_relevant=3)
    Traceback (most recent call last):
    ...
    ValueError: The list never reaches recall 1/2: it finds 1 of its R = 3 relevant results, \
so its top recall is 1/3. Ask for a recall level from 0 to 1/3.
    """
    lang = widget_language(lang)
    with language(lang):
        data = ranking_data(labels, n_relevant, None)
        level = _level(recall, data)
        data["recall"] = float(level)
        data = variant_data(
            data, kind="IPrec", truth=interpolated_at_level, key=key, vary=vary, decimals=decimals
        )
        y, r = data["labels"], data["n_relevant"]
        fields = ranking_fields(y, r=r, k=None, measure="IPrec", decimals=decimals)
        fields["level"] = exact_number(float(level))
        default = tr(
            "For the list <code>{labels}</code> (R = {r}), what is the <b>interpolated</b> "
            "precision at recall {level}, the best precision at recall {level} or higher? "
            "Give {decimals} decimals or a fraction."
        )
        text = fill_prompt(prompt or default, fields, vary=vary and prompt is not None)
        solution = tr(
            "The best precision at recall {level} or higher is {answer:.4f}: the table gives "
            "precision and recall after each rank.",
            level=fields["level"],
            answer=interpolated_at_level(data),
        )
        table = pr_curve(y, n_relevant=r).round(4).to_html(index=False)
    return NumberExercise.from_data(
        text,
        interpolated_at_level(data),
        f"<p>{solution}</p>{table}",
        kind="IPrec",
        measure=level_measure(float(level)),
        data=data,
        decimals=decimals,
        lang=lang,
        key=key,
    )
