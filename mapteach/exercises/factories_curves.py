"""Exercises on the precision-recall curve: interpolated precision at a recall level."""

from __future__ import annotations

import fractions
from collections.abc import Sequence

from mapteach.exercises.variants import variant_rankings
from mapteach.exercises.widgets import NumberExercise
from mapteach.explain.pr_table import pr_curve
from mapteach.i18n import N_, language, tr, widget_language
from mapteach.metrics.validation import as_labels

__all__ = ["interpolated_precision_exercise"]

_RAW_AT_LEVEL = N_("gave the raw precision at the rank where recall reaches the level")


_BEST_ANYWHERE = N_("took the best precision anywhere in the list")


def _interpolated_scores(
    labels: Sequence[int], n_relevant: int | None, level: float
) -> tuple[float, dict[str, float], int]:
    """Interpolated precision at recall ``level``, each mistake's value, and the first rank
    that reaches the level."""
    curve = pr_curve(labels, n_relevant=n_relevant)
    first = curve[curve["recall"] >= level - 1e-12].iloc[0]
    wrong = {_RAW_AT_LEVEL: float(first["precision"]), _BEST_ANYWHERE: curve["precision"].max()}
    return float(first["interpolated"]), wrong, int(first["rank"])


def interpolated_precision_exercise(
    labels: Sequence[int | bool],
    recall: str | fractions.Fraction,
    *,
    n_relevant: int | None = None,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
) -> NumberExercise:
    """An exercise: interpolated precision at a recall level, read off the PR curve.

    Recognises the raw precision at the first rank that reaches the level, and the
    best precision anywhere in the list. Introduced in ``07_pr_curves``. ``key``
    records checks and gives a named learner a list of their own, as
    :func:`ap_exercise` does.

    Examples
    --------
    >>> from mapteach.exercises import interpolated_precision_exercise
    >>> exercise = interpolated_precision_exercise([1, 0, 0, 1, 1, 0], "2/3")
    >>> round(exercise.truth, 4), exercise.check("0.5").misconception
    (0.6, 'gave the raw precision at the rank where recall reaches the level')
    """
    lang = widget_language(lang)
    level = fractions.Fraction(recall)
    [labels], _ = variant_rankings(
        [labels],
        None,
        key,
        lambda y: _interpolated_scores(y, n_relevant, float(level))[:2],
        decimals,
        None,
    )
    with language(lang):
        y = as_labels(labels).astype(int).tolist()
        answer, wrong, rank = _interpolated_scores(y, n_relevant, float(level))
        prompt = tr(
            "For the list <code>{labels}</code> (R = {r}), what is the <b>interpolated</b> "
            "precision at recall {level}? Give {decimals} decimals or a fraction.",
            labels=y,
            r=sum(y) if n_relevant is None else n_relevant,
            level=str(level),
            decimals=decimals,
        )
        solution = tr(
            "The best precision at recall {level} or higher is {answer:.4f}: the table gives "
            "precision and recall after each rank.",
            level=str(level),
            answer=answer,
        )
        table = pr_curve(y, n_relevant=n_relevant).round(4).to_html(index=False)
        explanations = _explanations(rank, str(level))
    return NumberExercise.from_scores(
        prompt,
        (answer, wrong),
        explanations,
        f"<p>{solution}</p>{table}",
        decimals=decimals,
        lang=lang,
        key=key,
    )


def _explanations(rank: int, level: str) -> dict[str, str]:
    """What to tell the learner of each mistake, in the current language."""
    return {
        _RAW_AT_LEVEL: tr(
            "That is the raw precision at rank {rank}, where recall first reaches {level}. "
            "Interpolated precision takes the best precision at recall {level} or higher, "
            "and precision can recover at a later rank.",
            rank=rank,
            level=level,
        ),
        _BEST_ANYWHERE: tr(
            "That maximum includes ranks whose recall is below {level}; only recall "
            "{level} or higher counts.",
            level=level,
        ),
    }
