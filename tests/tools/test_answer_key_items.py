"""The answer key's record of an exercise: its own answer, each accepted or named by its check.

``tools/answer_key_items.py`` reads an exercise into the key: the answer shown as the
exercise shows numbers, the verdict its own ``check`` gives that answer, each
misconception with the feedback its value gets, and for a choice every option's reply.
The key as a whole (every notebook, the saved states against the executed ones) is held
in ``tests/tools/test_answer_key.py``.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from mapteach.exercises import ChoiceExercise, NumberExercise

ROOT = Path(__file__).parents[2]
_spec = importlib.util.spec_from_file_location(
    "answer_key_items", ROOT / "tools" / "answer_key_items.py"
)
assert _spec and _spec.loader
items = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(items)


def test_a_number_reads_as_its_truth_with_each_mistake_and_its_feedback():
    mistakes = [("quartered", 0.25, "You halved it twice.")]
    exercise = NumberExercise("Half of 1?", 0.5, mistakes, "<p>1/2</p>", decimals=2, key="99.1")
    item = items.read_exercise(exercise)
    assert (item["key"], item["kind"], item["answer"]) == ("99.1", "number", "0.50")
    assert item["self_check"]["status"] == "correct"
    assert item["unreadable"]["status"] == "unreadable"
    [wrong] = item["misconceptions"]
    assert (wrong["name"], wrong["value"]) == ("quartered", "0.25")
    assert wrong["feedback"]["status"] == "incorrect"
    assert wrong["feedback"]["misconception"] == "quartered"


def test_a_choice_reads_as_its_correct_option_and_every_options_reply():
    exercise = ChoiceExercise(
        "Which?", {"a": "Yes.", "b": "No."}, correct="a", solution_html="<p>a</p>", key="99.2"
    )
    item = items.read_exercise(exercise)
    assert item["answer"] == "a" and item["self_check"]["status"] == "correct"
    assert [(o["option"], o["correct"]) for o in item["options"]] == [("a", True), ("b", False)]
    assert [m["name"] for m in item["misconceptions"]] == ["b"]
    assert item["options"][1]["reply"] == exercise.check("b").message
