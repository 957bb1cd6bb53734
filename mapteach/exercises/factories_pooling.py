"""Exercises on pooling: the pool's size, and AP when only the pool is judged."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mapteach.analysis.pooling import pool
from mapteach.exercises.variants import variant_orders
from mapteach.exercises.widgets import NumberExercise
from mapteach.explain.ap_trace import explain_ap
from mapteach.i18n import N_, language, tr, widget_language
from mapteach.metrics.validation import as_k
from mapteach.runs.evaluation import evaluate

__all__ = ["pool_exercise", "pooled_ap_exercise"]


def _as_run(order: Sequence[str]) -> dict[str, dict[str, float]]:
    """One query's ranked documents as a run: scores falling from the top."""
    return {"q": {doc: float(len(order) - rank) for rank, doc in enumerate(order)}}


_ADDED_DEPTHS = N_("added the runs' depths")


_INTERSECTION = N_("only documents every run found")


_WHOLE_LISTS = N_("pooled the whole lists")


def _pool_scores(depth: int, a: list[str], b: list[str]) -> tuple[float, dict[str, float]]:
    """The size of the pool of depth ``depth`` of runs ``a`` and ``b``, and each mistake's value."""
    wrong = {
        _ADDED_DEPTHS: float(len(set(a[:depth])) + len(set(b[:depth]))),
        _INTERSECTION: float(len(set(a[:depth]) & set(b[:depth]))),
        _WHOLE_LISTS: float(len(set(a) | set(b))),
    }
    return float(len(pool({"A": _as_run(a), "B": _as_run(b)}, depth=depth))), wrong


def pool_exercise(
    run_a: Sequence[str],
    run_b: Sequence[str],
    depth: int,
    *,
    lang: str | None = None,
    key: str | None = None,
) -> NumberExercise:
    """An exercise: how many documents a pool of two runs sends to the assessors.

    Recognises adding the two runs' depths, keeping only the documents both runs
    found, and pooling the whole lists. Introduced in
    ``14_incomplete_judgments_and_pooling``. ``key`` records checks and gives a named
    learner runs of their own (the same documents in other orders).

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
        a, b = variant_orders(
            [list(run_a), list(run_b)], key, lambda *o: _pool_scores(depth, *o), 0
        )
        scores = _pool_scores(depth, a, b)
        prompt = tr(
            "Run A ranks <code>{a}</code> and run B ranks <code>{b}</code> for one query. "
            "How many documents do the assessors judge for a pool of depth {depth}?",
            a=", ".join(a),
            b=", ".join(b),
            depth=depth,
        )
        table = pool({"A": _as_run(a), "B": _as_run(b)}, depth=depth).to_html(index=False)
        explanations = _pool_explanations(depth)
    return NumberExercise.from_scores(
        prompt, scores, explanations, table, decimals=0, lang=lang, key=key
    )


def _pool_explanations(depth: int) -> dict[str, str]:
    """What to tell the learner of each mistake on a pool of depth ``depth``."""
    return {
        _ADDED_DEPTHS: tr(
            "You counted each run's top {depth} separately. The pool is their union: "
            "a document both runs found is judged once.",
            depth=depth,
        ),
        _INTERSECTION: tr(
            "You kept only the documents both runs put in their top {depth} (the "
            "intersection). The pool is the union: a document any run put in its top "
            "{depth} is judged.",
            depth=depth,
        ),
        _WHOLE_LISTS: tr(
            "You pooled every result. A pool of depth {depth} takes each run's top {depth} only.",
            depth=depth,
        ),
    }


_UNJUDGED_RELEVANT = N_("counted the unjudged relevant document")


_CONDENSED = N_("left the unjudged documents out (condensed list)")


_TRUE_R = N_("divided by the true R")


class _Pooling:
    """One query's true grades and the pooled judgments (a subset), and what follows."""

    def __init__(self, complete: Mapping[str, int], judged: Mapping[str, int]) -> None:
        self.complete = complete
        self.judged = judged
        #: R as the pooled judgments know it, and the true R.
        self.r_judged = sum(grade > 0 for grade in judged.values())
        self.r_true = sum(grade > 0 for grade in complete.values())
        #: The relevant documents nobody judged, in the order of ``complete``.
        self.missed = [doc for doc in complete if doc not in judged and complete[doc] > 0]

    def scores(self, order: list[str]) -> tuple[float, dict[str, float]]:
        """The AP trec_eval gives the ranking ``order`` under the pooled judgments, and
        each mistake's value."""
        run = _as_run(order)

        def ap(qrels: Mapping[str, int], judged_only: bool = False) -> float:
            table = evaluate({"q": dict(qrels)}, run, ["AP"], judged_only=judged_only)
            return float(table["AP"].iloc[0])

        pooled = ap(self.judged)
        wrong = {
            _UNJUDGED_RELEVANT: ap(self.complete),
            _CONDENSED: ap(self.judged, judged_only=True),
            _TRUE_R: pooled * self.r_judged / self.r_true,
        }
        return pooled, wrong

    def explanations(self) -> dict[str, str]:
        """What to tell the learner of each mistake, in the current language."""
        return {
            _UNJUDGED_RELEVANT: tr(
                "That is the AP with complete judgments. With the pooled ones nobody judged "
                "{missed}, so trec_eval counts it as not relevant, and R is the {r} judged "
                "relevant documents.",
                missed=", ".join(self.missed),
                r=self.r_judged,
            ),
            _CONDENSED: tr(
                "That is judged-only AP (trec_eval -J): the unjudged documents removed from "
                "the list. Plain AP keeps them, as not relevant."
            ),
            _TRUE_R: tr(
                "You divided by {true_r}, the true number of relevant documents. The pooled "
                "qrels know only {r}.",
                true_r=self.r_true,
                r=self.r_judged,
            ),
        }


def pooled_ap_exercise(
    ranking: Sequence[str],
    complete: Mapping[str, int],
    judged: Mapping[str, int],
    *,
    decimals: int = 4,
    lang: str | None = None,
    key: str | None = None,
) -> NumberExercise:
    """An exercise: the AP trec_eval gives a run that was not in the pool.

    ``complete`` holds the true grades, ``judged`` the pooled judgments (a subset).
    Recognises using the complete judgments, dropping unjudged documents (judged-only
    AP) and dividing by the true R. Introduced in
    ``14_incomplete_judgments_and_pooling``. ``key`` records checks and gives a named
    learner the same documents in another order.

    Examples
    --------
    >>> from mapteach.exercises import pooled_ap_exercise
    >>> complete = {"u1": 1, "j1": 1, "j2": 1, "j3": 1, "n1": 0, "u2": 0}
    >>> judged = {"j1": 1, "j2": 1, "j3": 1, "n1": 0}
    >>> exercise = pooled_ap_exercise(["u1", "j1", "n1", "u2", "j2"], complete, judged)
    >>> round(exercise.truth, 4), exercise.check("0.3").misconception
    (0.3, None)
    """
    lang = widget_language(lang)
    pooling = _Pooling(complete, judged)
    [order] = variant_orders([list(ranking)], key, pooling.scores, decimals)
    scores = pooling.scores(order)
    labels = [int(judged.get(doc, 0) > 0) for doc in order]
    with language(lang):
        prompt = tr(
            "A run that was not in the pool ranks <code>{ranking}</code>. The pooled "
            "judgments say {relevant} are relevant and {nonrelevant} is not; {unjudged} were "
            "never judged (in truth {missed} is relevant). What AP does trec_eval give the run "
            "with the pooled judgments? Give {decimals} decimals or a fraction.",
            ranking=", ".join(order),
            relevant=", ".join(sorted(doc for doc, grade in judged.items() if grade > 0)),
            nonrelevant=", ".join(sorted(d for d, g in judged.items() if g <= 0)),
            unjudged=", ".join(sorted(d for d in complete if d not in judged)),
            missed=", ".join(sorted(pooling.missed)),
            decimals=decimals,
        )
        solution = tr(
            "The pooled judgments make the list <code>{labels}</code> with R = {r}: {arithmetic}",
            labels=labels,
            r=pooling.r_judged,
            arithmetic=explain_ap(labels, n_relevant=pooling.r_judged),
        )
        explanations = pooling.explanations()
    return NumberExercise.from_scores(
        prompt, scores, explanations, f"<p>{solution}</p>", decimals=decimals, lang=lang, key=key
    )
