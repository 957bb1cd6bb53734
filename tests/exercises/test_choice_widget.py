"""Choice exercises: one reply per option, the right one known by its label, and options shown
in an order of each group's or learner's own, the same every run."""

from __future__ import annotations

import hashlib
import random

import pytest
import traitlets

from mapteach.classroom import forget_learner, learner
from mapteach.exercises import ChoiceExercise, Feedback
from mapteach.exercises.choice_widget import option_order

OPTIONS = {f"option {n}": f"reply {n}" for n in range(6)}


@pytest.fixture(autouse=True)
def _nobody():
    forget_learner()
    yield
    forget_learner()


def shuffled(key: str = "00.2", **kwargs) -> ChoiceExercise:
    return ChoiceExercise(
        "Which?", OPTIONS, correct="option 0", solution_html="", shuffle=True, key=key, **kwargs
    )


def test_choice_exercise():
    exercise = ChoiceExercise("Pick", {"a": "Right.", "b": "No."}, correct="a", solution_html="a")
    assert (exercise.kind, exercise.options) == ("choice", ["a", "b"])
    assert exercise.check("a") == Feedback("correct", "Right.")
    assert exercise.check("b") == Feedback("incorrect", "No.", "b")
    assert exercise.check("").status == "empty"
    assert exercise.check("c").status == "unreadable"
    exercise.answer = "b"
    exercise.check_request += 1
    assert (exercise.status, exercise.feedback) == ("incorrect", "No.")
    exercise.answer = "a"
    assert exercise.status == "empty"
    with pytest.raises(ValueError, match=r"correct='z' is not one of the options"):
        ChoiceExercise("Pick", {"a": ""}, correct="z", solution_html="")
    with pytest.raises(traitlets.TraitError, match=r"answer must be one of 'a', 'b'"):
        exercise.answer = "c"
    with pytest.raises(traitlets.TraitError, match="options must be distinct"):
        ChoiceExercise("Pick", {"": "Blank."}, correct="", solution_html="")


def test_an_unreadable_choice_lists_the_options_as_its_language_lists_them():
    replies = {"高于系统 A": "不对。", "介于 A 和 B 之间": "对。", "低于系统 B": "不对。"}
    chinese = ChoiceExercise(
        "AP 落在哪里？", replies, correct="介于 A 和 B 之间", solution_html="", lang="zh"
    )
    listed = "高于系统 A、介于 A 和 B 之间、低于系统 B"
    assert chinese.check("C").message == f"请从这些选项中选一个：{listed}。"
    english = ChoiceExercise("Pick", {"a": "", "b": ""}, correct="a", solution_html="")
    assert english.check("c").message == "Choose one of: a, b."


def test_without_shuffle_the_options_keep_their_order():
    exercise = ChoiceExercise("Which?", OPTIONS, correct="option 0", solution_html="", key="00.2")
    assert exercise.options == list(OPTIONS)


def test_the_order_is_seeded_by_the_learner_and_the_key():
    def expected(who: str, key: str) -> list[str]:
        digest = hashlib.sha256(f"{who}\n{key}".encode()).digest()
        order = list(OPTIONS)
        random.Random(int.from_bytes(digest[:8], "big")).shuffle(order)
        return order

    assert shuffled().options == expected("", "00.2") == shuffled().options  # nobody named
    orders = {}
    for name in ("ada", "bob", "cai", "dee"):
        learner(name)
        orders[name] = shuffled().options
        assert orders[name] == expected(name, "00.2") == shuffled().options  # every run
        assert sorted(orders[name]) == sorted(OPTIONS)
        assert shuffled(key="00.3").options == expected(name, "00.3")
    assert len({tuple(order) for order in orders.values()}) > 1  # learners differ


def test_a_group_sees_one_order_and_the_right_answer_stays_by_label():
    learner("ada", group="pair 3")
    ada = shuffled()
    learner("bob", group="pair 3")
    bob = shuffled()
    assert ada.options == bob.options == option_order(list(OPTIONS), "00.2", "Which?")
    assert bob.check("option 0").correct and bob.submit("option 0").correct
    assert [bob.check(o).status for o in bob.options].count("correct") == 1
