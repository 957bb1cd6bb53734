"""Exercises on pooled judgments: the pool's size, AP when only the pool is judged, bpref.

Each factory builds its exercise from data (``exercise.data``, documented in each
factory) through :meth:`NumberExercise.from_data
<mapteach.exercises.NumberExercise.from_data>`, so the exercise recognises every
mistake of its kind in the registry (:mod:`mapteach.exercises.mistakes_pooling`).
Truths are trec_eval's: a document nobody judged is not relevant for AP, and skipped
by bpref. Introduced in ``14_incomplete_judgments_and_pooling``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd

from mapteach.analysis.pooling import pool
from mapteach.exercises.mistakes import mistakes_for, spoken_list
from mapteach.exercises.prompts import fill_prompt
from mapteach.exercises.variants import variant_orders
from mapteach.exercises.widgets import NumberExercise
from mapteach.explain.ap_trace import explain_ap
from mapteach.explain.display import display_table
from mapteach.i18n import language, tr, widget_language
from mapteach.metrics import average_precision, bpref
from mapteach.metrics.validation import as_k

__all__ = ["bpref_exercise", "pool_exercise", "pooled_ap_exercise", "registry_scores"]

Data = Mapping[str, Any]


def registry_scores(
    kind: str, data_of: Callable[..., Data], truth: Callable[[Data], float]
) -> Callable[..., tuple[float, dict[str, float]]]:
    """The scores :func:`~mapteach.exercises.variants.variant_orders` compares variants by:
    for some orders, the truth and each registered mistake's value on their data.

    >>> from mapteach.exercises.factories_pooling import registry_scores
    >>> scores = registry_scores("pool", lambda a, b: {"runs": [a, b], "depth": 1},
    ...                          lambda data: 2.0)
    >>> scores(["d1", "d2"], ["d3", "d1"])  # adding the depths gives 2, the truth: left out
    (2.0, {'only documents every run found': 0.0, 'pooled the whole lists': 3.0})
    """

    def scores(*orders: list[str]) -> tuple[float, dict[str, float]]:
        data = data_of(*orders)
        values = {mistake.name: mistake.value(data) for mistake in mistakes_for(kind)}
        return truth(data), {name: value for name, value in values.items() if value is not None}

    return scores


def _as_run(order: Sequence[str]) -> dict[str, dict[str, float]]:
    """One query's ranked documents as a run: scores falling from the top."""
    return {"q": {doc: float(len(order) - rank) for rank, doc in enumerate(order)}}


def _pool_table(data: Data) -> pd.DataFrame:
    runs = {name: _as_run(run) for name, run in zip("AB", data["runs"], strict=True)}
    return pool(runs, depth=data["depth"])


def _pool_size(data: Data) -> float:
    return float(len(_pool_table(data)))


def pool_exercise(
    run_a: Sequence[str],
    run_b: Sequence[str],
    depth: int,
    *,
    prompt: str | None = None,
    lang: str | None = None,
    key: str | None = None,
    vary: bool = False,
) -> NumberExercise:
    """An exercise: how many documents a pool of two runs sends to the assessors.

    Recognises adding the two runs' depths, keeping only the documents both runs
    found, and pooling the whole lists. Introduced in
    ``14_incomplete_judgments_and_pooling``.

    Parameters
    ----------
    run_a, run_b : sequence of str
        The two runs' ranked document ids for one query, best first.
    depth : int
        The pool's depth: each run's top ``depth`` documents are judged.
    prompt : str, optional
        A template with ``{a}``, ``{b}`` (the runs, as text), ``{runs}`` and
        ``{depth}``; default one that asks for the pool's size.
    lang, key
        The exercise's language, and the key that records its checks.
    vary : bool, default False
        Give a named learner (or group) runs of their own: the same documents in
        other orders, with the same mistakes recognised.

    Returns
    -------
    NumberExercise
        Answered with a whole number (``decimals`` 0); ``measure`` None (a pool's
        size is no measure of a ranking); ``data`` ``{"runs": [run_a, run_b],
        "depth"}``.

    Raises
    ------
    TypeError, ValueError
        If ``depth`` is not a whole number >= 1, or ``prompt`` names a field it does
        not fill.

    Examples
    --------
    >>> from mapteach.exercises import pool_exercise
    >>> exercise = pool_exercise(["d3", "d7", "d1", "d9"], ["d7", "d2", "d3", "d5"], 2)
    >>> exercise.truth, exercise.check("4").misconception
    (3.0, "added the runs' depths")
    """
    lang = widget_language(lang)
    with language(lang):
        depth = as_k(depth, name="depth")

        def data_of(a: list[str], b: list[str]) -> dict[str, Any]:
            return {"runs": [a, b], "depth": depth}

        scores = registry_scores("pool", data_of, _pool_size)
        orders = variant_orders([list(run_a), list(run_b)], key, scores, 0, vary=vary)
        data = data_of(*orders)
        a, b = (", ".join(run) for run in data["runs"])
        fields = {"a": a, "b": b, "runs": data["runs"], "depth": depth}
        default = tr(
            "Run A ranks <code>{a}</code> and run B ranks <code>{b}</code> for one query. "
            "How many documents do the assessors judge for a pool of depth {depth}?"
        )
        text = fill_prompt(prompt or default, fields, vary=vary and bool(prompt))
        table = display_table(_pool_table(data)).to_html(index=False)
    return NumberExercise.from_data(
        text,
        _pool_size(data),
        table,
        kind="pool",
        measure=None,
        data=data,
        decimals=0,
        lang=lang,
        key=key,
    )


def _judgments(judged: Mapping[str, int], complete: Mapping[str, int]) -> None:
    """Raise unless every pooled judgment is one of the complete judgments, and one is relevant."""
    for doc, grade in judged.items():
        if complete.get(doc) != grade:
            raise ValueError(
                tr(
                    "judged[{doc!r}] is {grade!r} but complete[{doc!r}] is {truth!r}; the pooled "
                    "judgments are some of the complete ones, with the same grades.",
                    doc=doc,
                    grade=grade,
                    truth=complete.get(doc),
                )
            )
    if not any(grade > 0 for grade in judged.values()):
        raise ValueError(
            tr(
                "The pooled judgments hold no relevant document, so AP is 0 whatever the run "
                "does; judge at least one relevant document."
            )
        )


def _ranked(ranking: Sequence[str], complete: Mapping[str, int]) -> list[str]:
    """The ranking's documents, each one of the complete judgments; raise naming one that is not."""
    for rank, doc in enumerate(ranking, start=1):
        if doc not in complete:
            raise ValueError(
                tr(
                    "The document {doc!r} at rank {rank} has no complete judgment; give every "
                    "ranked document's true grade in complete.",
                    doc=doc,
                    rank=rank,
                )
            )
    return list(ranking)


def _pooled_data(
    order: list[str], complete: Mapping[str, int], judged: Mapping[str, int]
) -> dict[str, Any]:
    return {
        "ranking": order,
        "complete": dict(complete),
        "judgments": dict(judged),
        "labels": [int(judged.get(doc, 0) > 0) for doc in order],
        "judged": [int(doc in judged) for doc in order],
        "n_relevant": sum(grade > 0 for grade in judged.values()),
        "complete_labels": [int(complete[doc] > 0) for doc in order],
        "complete_n_relevant": sum(grade > 0 for grade in complete.values()),
        "missed": [doc for doc, grade in complete.items() if grade > 0 and doc not in judged],
        "k": None,
    }


def _pooled_ap(data: Data) -> float:
    return average_precision(data["labels"], n_relevant=data["n_relevant"])


def _judgment_fields(data: Data) -> dict[str, object]:
    judged = data["judgments"]
    none = tr("none")
    return {
        "ranking": ", ".join(data["ranking"]),
        "relevant": spoken_list(sorted(d for d, g in judged.items() if g > 0)) or none,
        "nonrelevant": spoken_list(sorted(d for d, g in judged.items() if g <= 0)) or none,
        "unjudged": spoken_list(sorted(d for d in data["ranking"] if d not in judged)) or none,
    }


def pooled_ap_exercise(
    ranking: Sequence[str],
    complete: Mapping[str, int],
    judged: Mapping[str, int],
    *,
    prompt: str | None = None,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
    vary: bool = False,
) -> NumberExercise:
    """An exercise: the AP trec_eval gives a run that was not in the pool.

    Recognises using the complete judgments, dividing by the true R, forgetting the
    judged relevant documents the run missed, counting unjudged documents as
    relevant, and AP over the condensed list (judged documents only: another
    measure, named as such). Introduced in ``14_incomplete_judgments_and_pooling``.

    Parameters
    ----------
    ranking : sequence of str
        The run's ranked document ids, best first.
    complete : mapping of str to int
        The true grade of every document of the query (grade > 0 is relevant).
    judged : mapping of str to int
        The pooled judgments: some of ``complete``, with the same grades.
    prompt : str, optional
        A template with ``{ranking}``, ``{relevant}``, ``{nonrelevant}``,
        ``{unjudged}``, ``{missed}`` and ``{decimals}``.
    decimals, lang, key
        The precision asked for, the language, the key that records checks.
    vary : bool, default False
        Give a named learner (or group) the same documents in another order.

    Returns
    -------
    NumberExercise
        ``measure`` ``"AP"`` (AP under the pooled qrels); ``data`` holds ``ranking``,
        ``complete``, ``judgments`` (the pooled ones), ``labels`` (unjudged = 0),
        ``judged`` (0/1 per rank), ``n_relevant`` (judged relevant),
        ``complete_labels``, ``complete_n_relevant``, ``missed`` (the relevant
        documents nobody judged) and ``k`` (None).

    Raises
    ------
    ValueError
        If a pooled judgment differs from the complete one, no pooled judgment is
        relevant, a ranked document has no complete judgment, or ``prompt`` names a
        field it does not fill.

    Examples
    --------
    >>> from mapteach.exercises import pooled_ap_exercise
    >>> complete = {"u1": 1, "j1": 1, "j2": 1, "j3": 1, "n1": 0, "u2": 0}
    >>> judged = {"j1": 1, "j2": 1, "j3": 1, "n1": 0}
    >>> exercise = pooled_ap_exercise(["u1", "j1", "n1", "u2", "j2"], complete, judged)
    >>> round(exercise.truth, 4), exercise.check("0.3").misconception
    (0.3, None)
    >>> exercise.check("5/9").convention  # (1 + 2/3) / 3: the condensed list
    True
    """
    lang = widget_language(lang)
    with language(lang):
        _judgments(judged, complete)
        order = _ranked(ranking, complete)

        def data_of(candidate: list[str]) -> dict[str, Any]:
            return _pooled_data(candidate, complete, judged)

        scores = registry_scores("pooled AP", data_of, _pooled_ap)
        [order] = variant_orders([order], key, scores, decimals, vary=vary)
        data = data_of(order)
        fields = _judgment_fields(data) | {
            "missed": spoken_list(data["missed"]) or tr("none"),
            "decimals": decimals,
        }
        default = tr(
            "A run that was not in the pool ranks <code>{ranking}</code>. Pooled judgments: "
            "relevant {relevant}; not relevant {nonrelevant}; never judged {unjudged} (the "
            "relevant documents nobody judged: {missed}). What AP does trec_eval give the run "
            "with the pooled judgments? Give {decimals} decimals or a fraction."
        )
        text = fill_prompt(prompt or default, fields, vary=vary and bool(prompt))
        solution = tr(
            "The pooled judgments make the list <code>{labels}</code> with R = {r}: {arithmetic}",
            labels=data["labels"],
            r=data["n_relevant"],
            arithmetic=explain_ap(data["labels"], n_relevant=data["n_relevant"]),
        )
    return NumberExercise.from_data(
        text,
        _pooled_ap(data),
        f"<p>{solution}</p>",
        kind="pooled AP",
        measure="AP",
        data=data,
        decimals=decimals,
        lang=lang,
        key=key,
    )


def _bpref_data(order: list[str], judgments: Mapping[str, int]) -> dict[str, Any]:
    return {
        "ranking": order,
        "judgments": dict(judgments),
        "labels": [int(judgments.get(doc, 0) > 0) for doc in order],
        "judged": [int(doc in judgments) for doc in order],
        "n_relevant": sum(grade > 0 for grade in judgments.values()),
        "n_nonrelevant": sum(grade <= 0 for grade in judgments.values()),
        "k": None,
    }


def _bpref(data: Data) -> float:
    return bpref(
        data["labels"],
        judged=data["judged"],
        n_relevant=data["n_relevant"],
        n_nonrelevant=data["n_nonrelevant"],
    )


def _bpref_solution(data: Data, decimals: int) -> str:
    """Each retrieved relevant document's term, in a table, then their sum over R, as HTML."""
    r, n = data["n_relevant"], data["n_nonrelevant"]
    denominator, rows, above = max(min(r, n), 1), [], 0
    for rank, (doc, label, judged) in enumerate(
        zip(data["ranking"], data["labels"], data["judged"], strict=True), start=1
    ):
        if label:
            term = "1" if above == 0 else f"1 − {min(above, r)}/{denominator}"
            rows.append({"rank": rank, "doc_id": doc, "n": above, tr("bpref term"): term})
        above += bool(judged and not label)
    terms = " + ".join(t if t == "1" else f"({t})" for t in (row[tr("bpref term")] for row in rows))
    text = tr(
        "R = {r}, N = {n}, min(R, N) = {denominator}. bpref = ({terms}) / {r} = {value}.",
        r=r,
        n=n,
        denominator=min(r, n),
        terms=terms,
        value=f"{_bpref(data):.{decimals}f}",
    )
    return display_table(pd.DataFrame(rows)).to_html(index=False) + f"<p>{text}</p>"


def bpref_exercise(
    ranking: Sequence[str],
    judgments: Mapping[str, int],
    *,
    prompt: str | None = None,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
    vary: bool = False,
) -> NumberExercise:
    """An exercise: the bpref trec_eval gives a run under incomplete judgments.

    For each relevant document retrieved, n is the judged non-relevant documents
    ranked above it; it scores 1 - min(n, R)/min(R, N), and bpref is the sum over R
    (R the judged relevant documents, N the judged non-relevant ones, retrieved or
    not); unjudged documents are skipped. Recognises Buckley and Voorhees' n ÷ R
    (a convention, named as such), unjudged documents counted as non-relevant, the
    sum over the relevant documents retrieved, N from the list only, every
    document above counted, and n not capped at R. Introduced in
    ``14_incomplete_judgments_and_pooling``.

    Parameters
    ----------
    ranking : sequence of str
        The run's ranked document ids, best first.
    judgments : mapping of str to int
        The query's judgments (grade > 0 is relevant); a document absent from them
        is unjudged.
    prompt : str, optional
        A template with ``{ranking}``, ``{relevant}``, ``{nonrelevant}``,
        ``{unjudged}``, ``{r}``, ``{n}`` and ``{decimals}``; default one that states
        trec_eval's formula.
    decimals, lang, key
        The precision asked for, the language, the key that records checks.
    vary : bool, default False
        Give a named learner (or group) the same documents in another order.

    Returns
    -------
    NumberExercise
        ``measure`` ``"Bpref"``; ``data`` ``{"ranking", "judgments", "labels",
        "judged", "n_relevant", "n_nonrelevant", "k"}`` (``labels``: judged
        relevant; ``judged``: 0/1 per rank; ``k`` None).

    Raises
    ------
    ValueError
        If no judgment is relevant (bpref is then 0 whatever the order), or
        ``prompt`` names a field it does not fill.

    Examples
    --------
    >>> from mapteach.exercises import bpref_exercise
    >>> judgments = {"a": 1, "b": 1, "c": 1, "x": 0, "y": 0}
    >>> exercise = bpref_exercise(["a", "x", "u", "b", "y", "c"], judgments)
    >>> exercise.truth, exercise.measure  # (1 + (1 - 1/2) + (1 - 2/2)) / 3
    (0.5, 'Bpref')
    >>> exercise.check("0.6667").misconception  # n counted over R: (1 + 2/3 + 1/3) / 3
    "n divided by R (Buckley and Voorhees' paper)"
    """
    lang = widget_language(lang)
    with language(lang):
        if not any(grade > 0 for grade in judgments.values()):
            raise ValueError(
                tr(
                    "The judgments hold no relevant document, so bpref is 0 whatever the run "
                    "does; give at least one relevant judgment."
                )
            )

        def data_of(candidate: list[str]) -> dict[str, Any]:
            return _bpref_data(candidate, judgments)

        scores = registry_scores("Bpref", data_of, _bpref)
        [order] = variant_orders([list(ranking)], key, scores, decimals, vary=vary)
        data = data_of(order)
        fields = _judgment_fields(data) | {
            "r": data["n_relevant"],
            "n": data["n_nonrelevant"],
            "decimals": decimals,
        }
        default = tr(
            "A run ranks <code>{ranking}</code>. Judged relevant: {relevant}; judged not "
            "relevant: {nonrelevant}; never judged: {unjudged}. What is its bpref, as trec_eval "
            "computes it: each relevant document retrieved scores 1 - min(n, R)/min(R, N), n "
            "being the judged non-relevant documents above it, and the sum is divided by R? "
            "Give {decimals} decimals or a fraction."
        )
        text = fill_prompt(prompt or default, fields, vary=vary and bool(prompt))
        solution = _bpref_solution(data, decimals)
    return NumberExercise.from_data(
        text,
        _bpref(data),
        solution,
        kind="Bpref",
        measure="Bpref",
        data=data,
        decimals=decimals,
        lang=lang,
        key=key,
    )
