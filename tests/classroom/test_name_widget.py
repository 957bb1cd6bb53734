"""The name bar of the app for a room: a learner names themselves, waiting checks follow."""

from __future__ import annotations

import json

import pytest

import mapteach.log as log
from mapteach.classroom import identity, name_widget
from mapteach.classroom import progress_folder as room
from mapteach.classroom.identity import learner
from mapteach.classroom.name_widget import LearnerName, name_bar
from mapteach.classroom.progress_folder import progress_path_for, waiting_checks
from mapteach.classroom.progress_log import record_check
from mapteach.exercises import NumberExercise
from mapteach.i18n import tr


@pytest.fixture(autouse=True)
def folder(tmp_path, monkeypatch):
    """A progress folder named by the environment, no learner, nothing waiting."""
    for variable in ("MAPTEACH_LEARNER", "MAPTEACH_PROGRESS", "MAPTEACH_GROUP"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setitem(identity._state, "learner", None)
    monkeypatch.setitem(identity._state, "group", None)
    monkeypatch.setitem(room._file, "path", None)
    monkeypatch.setattr(room, "_waiting", [])
    monkeypatch.setitem(room._saved, "count", 0)
    monkeypatch.setattr(room, "_unsaved_listeners", [])
    monkeypatch.setattr(name_widget, "_named_here", set())
    progress = tmp_path / "room"
    monkeypatch.setenv("MAPTEACH_PROGRESS_DIR", str(progress))
    return progress


def _save(bar: LearnerName, name: str) -> None:
    bar.name = name
    bar.save_request += 1


def _lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_the_bar_asks_then_names_the_learner():
    bar = LearnerName(lang="en")
    assert bar.status.startswith("Type your name")
    _save(bar, "  ")
    assert learner() is None and bar.status == "Type your name first, then press Save name."
    _save(bar, " Ada ")
    assert learner() == "Ada"
    assert bar.status == "Your checks are recorded as Ada."


def test_the_bar_speaks_its_language_and_shows_a_name_already_given():
    learner("李雷")
    bar = LearnerName(lang="zh")
    assert bar.name == "李雷"
    assert bar.texts["save"] == tr("Save name", lang="zh") != "Save name"
    assert bar.status == tr("Your checks are recorded as {name}.", lang="zh", name="李雷")
    with pytest.raises(ValueError, match="lang must be one of"):
        LearnerName(lang="fr")


def test_a_check_before_the_name_is_shown_waits_and_lands_under_the_name(folder):
    exercise = NumberExercise("1/2?", 0.5, [("halved", 0.25, "You took 1/4.")], "", key="99.1")
    wrong = exercise.submit("0.25")
    assert exercise.feedback.startswith(wrong.message)
    assert "Waiting for your name" in exercise.feedback
    assert not list(folder.glob("*.jsonl")) and len(waiting_checks()) == 1
    assert [line["answer"] for line in _lines(room.waiting_file(folder))] == ["0.25"]
    bar = LearnerName(lang="en")
    _save(bar, "张三")
    assert bar.status == (
        "Your checks are recorded as 张三. The check you made before is recorded under it too."
    )
    exercise.submit("0.5")
    assert exercise.feedback == exercise.check("0.5").message
    lines = _lines(progress_path_for(folder, "张三"))
    assert [(line["learner"], line["answer"]) for line in lines] == [
        ("张三", "0.25"),
        ("张三", "0.5"),
    ]
    assert lines[0]["mistake"] == wrong.misconception == "halved"
    assert "mistake" not in lines[1]


def test_the_bar_is_shown_only_where_checks_go_to_a_progress_folder(monkeypatch):
    assert isinstance(name_bar(lang="en"), LearnerName)
    monkeypatch.delenv("MAPTEACH_PROGRESS_DIR")
    assert name_bar() is None


def test_a_name_whose_file_holds_checks_from_elsewhere_is_warned_about(folder):
    record_check("03", "1", "0.5", "correct", learner="Ada")  # another session's check
    bar = LearnerName(lang="en")
    _save(bar, "ada")  # the same learner's file, as the name is normalised
    assert bar.status.endswith(
        "If they are not yours, type your full name and press Save name again."
    )
    _save(bar, "Ada")  # this bar named it: no warning again
    assert bar.status == "Your checks are recorded as Ada."
    _save(bar, "Bo")  # a file not made yet
    assert bar.status == "Your checks are recorded as Bo."
    reopened = LearnerName(lang="en")
    name_widget._named_here.clear()  # a new kernel, as a reopened page has
    reopened.name, reopened.restored = "Ada", True  # as the browser gives its session's name
    reopened.save_request += 1
    assert reopened.status == "Your checks are recorded as Ada."


def test_checks_that_cannot_be_saved_or_recorded_are_said_and_retried(folder, monkeypatch):
    bar = LearnerName(lang="en")
    appended = log.append

    def failing(path, record, schema):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(log, "append", failing)
    record_check("03", "1", "0.25", "incorrect")
    assert bar.status.startswith("The check you made before your name could not be saved yet")
    _save(bar, "Ada")
    assert "could not be saved yet" in bar.status and len(waiting_checks()) == 1
    monkeypatch.setattr(log, "append", appended)
    record_check("03", "1", "0.5", "correct")  # the next check retries first
    answers = [line["answer"] for line in _lines(progress_path_for(folder, "Ada"))]
    assert answers == ["0.25", "0.5"] and waiting_checks() == ()
