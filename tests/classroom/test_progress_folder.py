"""A progress folder: one file per learner, safe names, and checks that wait for a name."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import mapteach.log as log
from mapteach.classroom import identity
from mapteach.classroom import progress_folder as room
from mapteach.classroom.identity import learner
from mapteach.classroom.progress_folder import (
    progress_file,
    progress_path_for,
    set_progress_file,
    waiting_checks,
    waits_for_name,
)
from mapteach.classroom.progress_log import read_progress, record_check


@pytest.fixture(autouse=True)
def folder(tmp_path, monkeypatch):
    """A progress folder named by the environment, no learner, nothing waiting."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for variable in ("MAPTEACH_LEARNER", "MAPTEACH_PROGRESS", "MAPTEACH_GROUP"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setitem(identity._state, "learner", None)
    monkeypatch.setitem(identity._state, "group", None)
    monkeypatch.setitem(room._file, "path", None)
    monkeypatch.setattr(room, "_waiting", [])
    monkeypatch.setitem(room._saved, "count", 0)
    monkeypatch.setattr(room, "_unsaved_listeners", [])
    progress = tmp_path / "room"
    monkeypatch.setenv("MAPTEACH_PROGRESS_DIR", str(progress))
    return progress


def _hash8(name: str) -> str:
    """The hash of the name as typed, folded by hand: lower case, one space, NFKC."""
    return hashlib.sha256(name.encode("utf-8")).hexdigest()[:8]


def _lines(path: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize(
    ("name", "expected_slug", "counted"),
    [
        ("Ada Lovelace", "ada-lovelace", "ada lovelace"),
        ("  Zoë  O'Brien_Smith ", "zoe-obrien-smith", "zoë o'brien_smith"),
        ("Ｂｏ ２", "bo-2", "bo 2"),
        ("张三", "learner", "张三"),
        ("---", "learner", "---"),
        ("李雷 Li Lei", "li-lei", "李雷 li lei"),
        ("a" * 40, "a" * 32, "a" * 40),
    ],
)
def test_a_learners_file_is_a_safe_slug_and_a_hash_of_the_name(
    folder, name, expected_slug, counted
):
    path = progress_path_for(folder, name)
    assert path == folder / f"{expected_slug}-{_hash8(counted)}.jsonl"


def test_names_with_the_same_slug_never_share_a_file(folder):
    names = ["张三", "李四", "Ada", "ada!", "Ada Lovelace", "Ada  Byron"]
    assert len({progress_path_for(folder, name) for name in names}) == len(names)
    assert {progress_path_for(folder, name).name[:-15] for name in names[:4]} == {"learner", "ada"}


@pytest.mark.parametrize(
    "same",
    [
        ("Ada", "ada", " ADA "),
        ("Zo\u00eb", "Zoe\u0308", "ZOË"),  # composed, decomposed, upper case
        ("Ada Lovelace", "ada   lovelace", "Ada\tLovelace"),
        ("Ｂｏ", "Bo"),  # full-width letters
    ],
)
def test_one_learner_typed_differently_is_one_file(folder, same):
    assert len({progress_path_for(folder, name) for name in same}) == 1


def test_a_name_that_is_not_a_string_is_refused(folder):
    with pytest.raises(TypeError, match="must be a string; got int 7"):
        progress_path_for(folder, 7)  # type: ignore[arg-type]


def test_the_folder_gives_each_named_learner_their_own_file(folder):
    learner("Ada")
    assert progress_file() == progress_path_for(folder, "Ada")
    record_check("04", "1", "0.5", "correct")
    record_check("04", "1", "1", "incorrect", learner="Bo")
    assert [line["learner"] for line in _lines(progress_path_for(folder, "Ada"))] == ["Ada"]
    assert [line["learner"] for line in _lines(progress_path_for(folder, "Bo"))] == ["Bo"]


def test_a_named_file_comes_before_the_folder(folder, tmp_path, monkeypatch):
    monkeypatch.setenv("MAPTEACH_PROGRESS", str(tmp_path / "one.jsonl"))
    assert progress_file() == tmp_path / "one.jsonl"
    assert not waits_for_name()
    record_check("04", "1", "0.5", "correct")
    assert read_progress(tmp_path / "one.jsonl")["learner"].tolist() == [""]
    monkeypatch.delenv("MAPTEACH_PROGRESS")
    assert set_progress_file(tmp_path / "two.jsonl") == tmp_path / "two.jsonl"
    assert not waits_for_name()


def test_a_check_before_a_name_waits_and_lands_under_the_name(folder):
    assert waits_for_name()
    first = record_check("04", "1", "1", "incorrect", mistake="AP over retrieved")
    second = record_check("04", "2", "", "incorrect")
    assert waiting_checks() == (first, second)
    assert _lines(room.waiting_file(folder)) == [first, second]  # saved, in case of a crash
    assert not list(folder.glob("*.jsonl"))
    learner("张三", group="pair 3")
    assert waiting_checks() == ()
    assert not waits_for_name()
    named = [{**check, "learner": "张三", "group": "pair 3"} for check in (first, second)]
    assert _lines(progress_path_for(folder, "张三")) == named
    assert [path.name for path in folder.glob("*.jsonl")] == [
        progress_path_for(folder, "张三").name
    ]
    assert not room.waiting_file(folder).exists()


def test_a_waiting_check_keeps_the_group_it_was_made_in(folder):
    record_check("04", "1", "0.5", "correct", group="pair 1")
    learner("Bo", group="pair 2")
    assert [line["group"] for line in _lines(progress_path_for(folder, "Bo"))] == ["pair 1"]


def test_checks_after_the_name_go_straight_to_the_file(folder):
    learner("Ada")
    record_check("04", "1", "0.5", "correct")
    assert waiting_checks() == ()
    learner("Bo")  # a new name takes no check of Ada's with it
    assert len(_lines(progress_path_for(folder, "Ada"))) == 1
    assert not progress_path_for(folder, "Bo").exists()


def test_without_a_folder_an_unnamed_check_is_recorded_anonymously(folder, tmp_path, monkeypatch):
    monkeypatch.delenv("MAPTEACH_PROGRESS_DIR")
    assert not waits_for_name()
    record_check("04", "1", "0.5", "correct")
    assert waiting_checks() == ()
    assert read_progress(progress_file())["learner"].tolist() == [""]


def test_a_check_that_cannot_be_saved_while_waiting_is_saved_at_the_next(folder, monkeypatch):
    told: list[int] = []
    room.when_unsaved(told.append)
    appended = log.append

    def read_only(path, record, schema):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(log, "append", read_only)
    first = record_check("04", "1", "1", "incorrect")
    assert told == [1] and waiting_checks() == (first,)
    assert not room.waiting_file(folder).exists()
    monkeypatch.setattr(log, "append", appended)
    second = record_check("04", "2", "1", "incorrect")
    assert _lines(room.waiting_file(folder)) == [first, second] and told == [1]


def test_a_failed_recording_under_the_name_is_retried_at_the_next_check(folder, monkeypatch):
    waiting = record_check("04", "1", "1", "incorrect")
    appended = log.append

    def full_disk(path, record, schema):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(log, "append", full_disk)
    learner("Ada")
    assert waiting_checks() == (waiting,)  # not lost: it still waits
    monkeypatch.setattr(log, "append", appended)
    record_check("04", "2", "0.5", "correct")
    assert [line["exercise"] for line in _lines(progress_path_for(folder, "Ada"))] == ["1", "2"]
    assert waiting_checks() == () and not room.waiting_file(folder).exists()
