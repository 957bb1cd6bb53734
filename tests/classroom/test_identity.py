"""Who is learning: a name and a group, set in code or by the environment, forgotten together."""

from __future__ import annotations

import pytest

import mapteach
from mapteach.classroom import identity
from mapteach.classroom.identity import current_group, forget_learner, learner


@pytest.fixture(autouse=True)
def nobody(monkeypatch):
    monkeypatch.delenv("MAPTEACH_LEARNER", raising=False)
    monkeypatch.delenv("MAPTEACH_GROUP", raising=False)
    monkeypatch.setitem(identity._state, "learner", None)
    monkeypatch.setitem(identity._state, "group", None)


def test_a_group_comes_from_the_environment_then_from_learner(monkeypatch):
    assert current_group() is None
    monkeypatch.setenv("MAPTEACH_GROUP", "  第 3 组 ")
    assert current_group() == "第 3 组"
    assert learner(group=" pair 3 ") is None  # a group without a name
    assert current_group() == "pair 3"
    assert learner("ada", group="pair 4") == "ada"
    assert (learner(), current_group()) == ("ada", "pair 4")
    assert learner("bo") == "bo"  # a new name keeps the group
    assert current_group() == "pair 4"


def test_a_bad_group_sets_nothing():
    learner("ada", group="pair 1")
    for bad in ["", "   ", 3, b"pair"]:
        with pytest.raises(ValueError, match=f"The group must be a non-empty string; got {bad!r}"):
            learner("bo", group=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="learner's name must be a non-empty string"):
        learner(" ", group="pair 2")
    assert (learner(), current_group()) == ("ada", "pair 1")


def test_forget_learner_forgets_the_group_too(monkeypatch):
    learner("ada", group="pair 1")
    forget_learner()
    assert (learner(), current_group()) == (None, None)
    monkeypatch.setenv("MAPTEACH_GROUP", "pair 9")
    assert current_group() == "pair 9"


def test_the_public_names():
    assert mapteach.learner is learner
    assert mapteach.classroom.current_group is current_group
