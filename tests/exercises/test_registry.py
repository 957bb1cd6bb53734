"""The answer key's way in: every exercise made inside ``collect_exercises``, in order."""

from __future__ import annotations

import pytest

from mapteach.exercises.choice_widget import ChoiceExercise
from mapteach.exercises.factories_ap import ap_exercise, precision_exercise
from mapteach.exercises.registry import collect_exercises


def test_nested_blocks_each_collect_what_is_made_while_they_are_open():
    before = ap_exercise([1, 0])
    with collect_exercises() as outer:
        first = ap_exercise([0, 1], key="01.1")
        with collect_exercises() as inner:
            second = ChoiceExercise("?", {"a": ""}, correct="a", solution_html="", key="01.2")
        third = precision_exercise([1, 0], 2)
    after = ap_exercise([1, 1])
    assert [id(e) for e in outer] == [id(first), id(second), id(third)]
    assert [id(e) for e in inner] == [id(second)]
    assert all(id(e) not in {id(before), id(after)} for e in outer)


def test_a_block_left_by_an_error_stops_collecting():
    with pytest.raises(ValueError), collect_exercises() as made:
        ap_exercise([1, 0])
        ap_exercise([2, 0])  # not a 0/1 label
    ap_exercise([0, 1])
    assert len(made) == 1
