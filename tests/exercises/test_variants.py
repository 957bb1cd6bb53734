"""Per-learner variants: a named learner gets their own numbers, as hard and as well checked.

Each exercise factory is built with and without a learner: with none it is as
written (nbval stays deterministic); with one, the prompt changes, the same learner
always gets the same variant, the answer is the factory's own computation on the
variant, and the same mistakes are recognised.
"""

from __future__ import annotations

import pytest

from mapteach import exercises as ex
from mapteach.classroom.identity import forget_learner, learner

COMPLETE = {"u1": 1, "j1": 1, "j2": 1, "j3": 1, "n1": 0, "u2": 0}
JUDGED = {"j1": 1, "j2": 1, "j3": 1, "n1": 0}
FACTORIES = {
    "ap": lambda key: ex.ap_exercise([0, 1, 1, 0, 1, 0], n_relevant=4, key=key),
    "ap@3": lambda key: ex.ap_exercise([1, 1, 0, 0, 0, 1, 1, 1, 0, 0], k=3, n_relevant=5, key=key),
    "p@k": lambda key: ex.precision_exercise([1, 0, 1, 0, 0, 1], 5, key=key),
    "map": lambda key: ex.map_exercise([[1, 0, 1, 0], [0, 0, 1], [0, 0, 0, 0]], key=key),
    "interpolated": lambda key: ex.interpolated_precision_exercise(
        [1, 0, 0, 1, 1, 0], "2/3", key=key
    ),
    "rprec": lambda key: ex.r_precision_exercise([0, 1, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0], 6, key=key),
    "gmap": lambda key: ex.gmap_exercise([2, 1, 4, None], key=key),
    "pool": lambda key: ex.pool_exercise(
        ["d3", "d7", "d1", "d9"], ["d7", "d2", "d3", "d5"], 2, key=key
    ),
    "pooled": lambda key: ex.pooled_ap_exercise(
        ["u1", "j1", "n1", "u2", "j2"], COMPLETE, JUDGED, key=key
    ),
}


@pytest.fixture(autouse=True)
def no_learner():
    forget_learner()
    yield
    forget_learner()


@pytest.mark.parametrize("name", FACTORIES)
def test_a_learner_gets_a_variant_of_the_same_difficulty(name):
    make = FACTORIES[name]
    plain = make("99.1")
    assert make(None).prompt == plain.prompt  # no learner: as written
    learner("ada")
    ada, again = make("99.1"), make("99.1")
    assert ada.prompt == again.prompt and ada.truth == again.truth
    assert ada.prompt != plain.prompt
    assert ada.check(f"{ada.truth:.{ada.decimals}f}").correct
    assert [m[0] for m in ada.misconceptions] == [m[0] for m in plain.misconceptions]
    other = make("99.2")  # another exercise of the same learner: its own seed
    assert other.key == "99.2"
    learner("bo")
    assert [make(f"99.{i}").prompt for i in range(5)] != [
        (learner("ada"), make(f"99.{i}").prompt)[1] for i in range(5)
    ]


def test_a_prompt_that_hides_its_list_stays_as_written():
    learner("ada")
    exercise = ex.ap_exercise([0, 1, 1], prompt="AP of the list on the slide?", key="99.1")
    assert exercise.prompt == "AP of the list on the slide?"
    assert round(exercise.truth, 4) == round((1 / 2 + 2 / 3) / 2, 4)
