"""A mistake is named only when it explains the answer: on random lists, an answer equal to
a mistake's value at the asked precision (and not the truth) names that mistake, every
mistake it names has that value, and an answer that matches none names none. An
under-precise answer (2 or 3 decimals where 4 are asked) names the mistakes whose value
rounds to it when the truth does not, and asks for the 4 decimals."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import assume, given
from hypothesis import strategies as st

from mapteach import exercises as ex
from mapteach.exercises.answers import agrees_at

labels_st = st.lists(st.integers(0, 1), min_size=1, max_size=14)


@st.composite
def one_ranking(draw):
    """A list with at least one relevant result, R (some missed) and a cutoff."""
    labels = draw(labels_st)
    assume(sum(labels))
    return labels, sum(labels) + draw(st.integers(0, 3)), draw(st.integers(1, 16))


@st.composite
def exercise(draw):
    """An exercise of one of the registry's ranking kinds, on random data."""
    labels, r, k = draw(one_ranking())
    kind = draw(st.sampled_from(["AP", "AP@k", "P@k", "R@k", "Rprec", "IPrec", "MAP", "GMAP"]))
    if kind in {"AP", "AP@k"}:
        return ex.ap_exercise(labels, n_relevant=r, k=None if kind == "AP" else k)
    if kind == "P@k":
        return ex.precision_exercise(labels, k, n_relevant=r)
    if kind == "R@k":
        return ex.recall_exercise(labels, k, n_relevant=r)
    if kind == "Rprec":
        return ex.r_precision_exercise(labels, r)
    if kind == "IPrec":
        level = Fraction(draw(st.integers(0, sum(labels))), r)
        return ex.interpolated_precision_exercise(labels, level, n_relevant=r)
    if kind == "MAP":
        more = draw(st.lists(labels_st, max_size=3))
        return ex.map_exercise([labels, *more])
    ranks = draw(st.lists(st.none() | st.integers(1, 6), min_size=1, max_size=5))
    return ex.gmap_exercise(ranks, depth=6)


def _matching(exercise, typed):
    """The mistakes ``typed`` matches by the rule, computed here from the exercise's values."""
    value, given = float(typed), len(typed.partition(".")[2])
    asked = exercise.decimals
    if agrees_at(value, exercise.truth, asked):
        return set()
    if given < asked and agrees_at(value, exercise.truth, given):
        return set()  # right so far

    def matches(target):
        return agrees_at(value, target, asked) or (
            2 <= given < asked and agrees_at(value, target, given)
        )

    return {w.name for w in exercise.misconceptions if matches(w.value)}


def _truncated(exercise, typed):
    """Whether ``typed`` is the truth's digits cut off (named "truncated instead of rounded")."""
    given = len(typed.partition(".")[2])
    cut = math.floor(exercise.truth * 10**given + 1e-9) / 10**given
    return exercise.truth >= 0 and given >= 2 and abs(float(typed) - cut) <= 1e-12


@given(exercise())
def test_an_answer_at_a_mistakes_value_names_exactly_the_mistakes_it_matches(made):
    for wrong in made.misconceptions:
        typed = f"{wrong.value:.{made.decimals}f}"
        expected = _matching(made, typed)
        feedback = made.check(typed)
        assert set(feedback.mistakes) == expected, (typed, feedback.mistakes)
        assert len(feedback.mistakes) == len(set(feedback.mistakes))
        if expected:
            assert wrong.name in expected and feedback.misconception in expected
            assert feedback.convention == all(
                w.convention for w in made.misconceptions if w.name in expected
            )


@given(exercise(), st.integers(0, 10_000))
def test_an_answer_that_matches_no_mistake_names_none(made, ten_thousandths):
    typed = f"{ten_thousandths / 10_000:.4f}"
    feedback = made.check(typed)
    if not _matching(made, typed):
        truncated = _truncated(made, typed) and not feedback.correct
        assert feedback.mistakes == (("truncated instead of rounded",) if truncated else ())
    else:
        assert set(feedback.mistakes) == _matching(made, typed)


@given(exercise(), st.sampled_from([2, 3]))
def test_an_under_precise_answer_names_what_rounds_to_it_and_asks_for_the_decimals(made, given):
    for wrong in made.misconceptions:
        typed = f"{wrong.value:.{given}f}"
        feedback = made.check(typed)
        if agrees_at(float(typed), made.truth, given):
            assert feedback.status in {"incomplete", "correct"}, (typed, feedback)
            continue
        expected = _matching(made, typed)
        assert wrong.name in expected
        assert set(feedback.mistakes) == expected, (typed, feedback.mistakes)
        padded = all(
            agrees_at(float(typed), w.value, 4) for w in made.misconceptions if w.name in expected
        )
        assert ("give 4 decimals" in feedback.message) == (not padded), feedback.message
