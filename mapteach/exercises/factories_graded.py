"""Exercises on graded relevance: nDCG@k of a ranked list, with its solution.

The exercise is built from data (``exercise.data``: ``labels``, ``grades``,
``ideal_grades``, ``n_relevant``, ``k``) through
:meth:`NumberExercise.from_data <mapteach.exercises.NumberExercise.from_data>`, so it
recognises every nDCG@k mistake of the registry
(:mod:`mapteach.exercises.mistakes_graded`). The truth is
:func:`~mapteach.metrics.ndcg_at_k`, trec_eval's ``ndcg_cut``: linear gain, discount
log2(rank + 1), the ideal ranking from every judged grade of the query. Introduced
in ``08_choosing_a_metric``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from mapteach.exercises.mistakes import spoken_list
from mapteach.exercises.prompts import fill_prompt
from mapteach.exercises.variants import variant_data
from mapteach.exercises.widgets import NumberExercise
from mapteach.explain.display import display_table
from mapteach.explain.ndcg_trace import explain_ndcg, trace_ndcg
from mapteach.i18n import N_, language, tr, widget_language
from mapteach.metrics import ndcg_at_k
from mapteach.metrics.validation import as_gains, as_k

__all__ = ["ndcg_exercise"]

Data = Mapping[str, Any]


def _whole_grades(grades: Sequence[int], name: str) -> list[int]:
    """The grades as whole numbers >= 0; raise naming the first that is not one."""
    values = as_gains(grades, name=name)
    for index, value in enumerate(values.tolist()):
        if not float(value).is_integer():
            raise ValueError(
                tr(
                    "{name}[{index}] is {value:g}; a grade is a whole number (0 = not "
                    "relevant, 1, 2, ...).",
                    name=name,
                    index=index,
                    value=value,
                )
            )
    return [int(value) for value in values]


def graded_data(
    grades: Sequence[int], k: int, ideal_grades: Sequence[int] | None
) -> dict[str, Any]:
    """An nDCG@k exercise's data, checked: the list's grades, every judged grade, the cutoff.

    >>> data = graded_data([2, 0, 1], 2, [2, 1, 3, 0])
    >>> data["labels"], data["n_relevant"], data["k"]
    ([1, 0, 1], 3, 2)
    """
    listed = _whole_grades(grades, "grades")
    ideal = listed if ideal_grades is None else _whole_grades(ideal_grades, "ideal_grades")
    ndcg_at_k(listed, as_k(k), ideal=ideal)  # raises if ideal misses a grade of the list
    return {
        "labels": [int(grade > 0) for grade in listed],
        "grades": listed,
        "ideal_grades": list(ideal),
        "n_relevant": sum(grade > 0 for grade in ideal),
        "k": as_k(k),
    }


def _ndcg(data: Data) -> float:
    return ndcg_at_k(data["grades"], data["k"], ideal=data["ideal_grades"])


def _missed(data: Data) -> list[int]:
    """The positive grades of the judged documents the list did not retrieve, best first."""
    missing = Counter(g for g in data["ideal_grades"] if g > 0)
    missing.subtract(g for g in data["grades"] if g > 0)
    return sorted(missing.elements(), reverse=True)


def _fields(data: Data, decimals: int) -> dict[str, object]:
    return {
        "labels": data["labels"],
        "grades": data["grades"],
        "ideal_grades": sorted(data["ideal_grades"], reverse=True),
        "missed": spoken_list(_missed(data)),
        "r": data["n_relevant"],
        "k": data["k"],
        "measure": f"nDCG@{data['k']}",
        "decimals": decimals,
    }


def _default_prompt(data: Data) -> str:
    """The default prompt: it fixes the gain, the discount and the ideal ranking it asks for."""
    if _missed(data):
        return tr(
            "A system ranks documents whose grades are <code>{grades}</code>, best first (0 = "
            "not relevant). Every judged document of the query, retrieved or not, has grades "
            "<code>{ideal_grades}</code>: the list missed relevant documents graded {missed}. What "
            "is its {measure}, with linear gain (gain = grade, as trec_eval), discount "
            "log2(rank + 1), and the ideal ranking built from every judged document? Give "
            "{decimals} decimals."
        )
    return tr(
        "A system ranks documents whose grades are <code>{grades}</code>, best first (0 = not "
        "relevant); it retrieved every relevant document the query has. What is its {measure}, "
        "with linear gain (gain = grade, as trec_eval), discount log2(rank + 1), and the ideal "
        "ranking built from every judged document? Give {decimals} decimals."
    )


def _solution(data: Data, decimals: int) -> str:
    """The arithmetic of nDCG@k (its lines kept) above its rank-by-rank trace, as HTML (no TeX)."""
    arithmetic = explain_ndcg(
        data["grades"], k=data["k"], ideal=data["ideal_grades"], decimals=decimals
    )
    table = trace_ndcg(data["grades"], k=data["k"], ideal=data["ideal_grades"])
    shown = display_table(table, digits=4).to_html(index=False)
    return f"<pre>{arithmetic}</pre><p>{arithmetic.note}</p>{shown}"


def ndcg_exercise(
    grades: Sequence[int],
    k: int,
    *,
    ideal_grades: Sequence[int] | None = None,
    prompt: str | None = None,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
    vary: bool = False,
) -> NumberExercise:
    """An exercise: nDCG@k of a graded ranked list, as trec_eval computes it.

    Every nDCG@k mistake of the registry is recognised: exponential gain and
    Järvelin and Kekäläinen's log2(rank) discount (named as the conventions they
    are), DCG not normalised, the ideal ranking built from the retrieved list only
    or not cut at k, binary gains, the rank as discount, the cutoff ignored.
    Introduced in ``08_choosing_a_metric``.

    Parameters
    ----------
    grades : sequence of int
        The grade of each result, best-ranked first (0 = not relevant).
    k : int
        Rank cutoff, ``k >= 1``.
    ideal_grades : sequence of int, optional
        Every judged grade of the query, retrieved or not, in any order; it holds
        each positive grade of ``grades``. Default: ``grades`` (every relevant
        document was retrieved).
    prompt : str, optional
        A template with ``{grades}``, ``{ideal_grades}`` (best first), ``{missed}``
        (the positive grades the list did not retrieve), ``{labels}``, ``{r}``,
        ``{k}``, ``{measure}`` and ``{decimals}``; default one that fixes linear
        gain, log2(rank + 1) and the ideal ranking from every judged grade.
    decimals : int, default 4
        The precision asked for.
    lang, key
        The exercise's language, and the key that records its checks.
    vary : bool, default False
        Give a named learner (or group) a list of their own: the same grades,
        shuffled within the top ``k`` and below it, with the same mistakes recognised.

    Returns
    -------
    NumberExercise
        ``measure`` ``"nDCG@k"``; ``data`` ``{"labels", "grades", "ideal_grades",
        "n_relevant", "k"}`` (``labels``: grade > 0; ``n_relevant``: the positive
        judged grades).

    Raises
    ------
    TypeError, ValueError
        If a grade is not a whole number >= 0, ``k < 1``, ``ideal_grades`` misses a
        grade of the list, or ``prompt`` names a field it does not fill.

    Examples
    --------
    >>> from mapteach.exercises import ndcg_exercise
    >>> exercise = ndcg_exercise([1, 0, 1], 3, ideal_grades=[3, 1, 1])
    >>> round(exercise.truth, 4), exercise.measure  # 1.5 / (3/1 + 1/log2(3) + 1/2)
    (0.3631, 'nDCG@3')
    >>> exercise.check("0.9197").misconception  # the ideal from the list: [1, 1, 0]
    'ideal ranking from the retrieved list only'
    """
    lang = widget_language(lang)
    with language(lang):
        data = graded_data(grades, k, ideal_grades)
        data = variant_data(data, kind="nDCG@k", truth=_ndcg, key=key, vary=vary, decimals=decimals)
        text = fill_prompt(
            prompt or _default_prompt(data), _fields(data, decimals), vary=vary and bool(prompt)
        )
        solution = _solution(data, decimals)
    return NumberExercise.from_data(
        text,
        _ndcg(data),
        solution,
        kind="nDCG@k",
        measure=f"nDCG@{data['k']}",
        data=data,
        decimals=decimals,
        fraction=False,
        hint=N_("Write each rank's gain / log2(rank + 1), or open the solution."),
        lang=lang,
        key=key,
    )
