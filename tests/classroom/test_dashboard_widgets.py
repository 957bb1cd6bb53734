"""The teacher's dashboard on a folder of three learners: stuck, passing, not started."""

import time

import pytest

from mapteach.classroom import RoomDashboard, progress_path_for, record_check
from mapteach.exercises import IndexedExercise

EXPECTED = [
    IndexedExercise("03", str(n), f"03.{n}", "number", f"question {n}", "en", "03.ipynb")
    for n in (1, 2)
]
HITS = "divided by the hits, not by R"


@pytest.fixture
def folder(tmp_path):
    room = tmp_path / "room"
    ada, bo = progress_path_for(room, "ada"), progress_path_for(room, "bo")
    for answer in ("1", "0.9", "1.0"):
        record_check("03", "1", answer, "incorrect", learner="ada", mistake=HITS, path=ada)
    record_check("03", "1", "0.8056", "correct", learner="bo", path=bo)
    return room


def _row(html, first_cell):
    """The cells of the table row whose first cell is ``first_cell``."""
    for row in html.split("<tr>")[1:]:
        cells = [cell.split("</td>")[0] for cell in row.split("<td>")[1:]]
        if cells and cells[0] == first_cell:
            return cells
    raise AssertionError(f"no row {first_cell!r}")


def test_the_dashboard_shows_who_is_stuck_passing_and_not_started(folder):
    board = RoomDashboard(folder, EXPECTED, learners=["cy"], lang="en")
    first = _row(board.exercises.value, "03.1")
    assert first[1:] == [
        "question 1",
        '<span class="passed"><b>1</b>: bo</span>',
        '<span class="stuck"><b>1</b>: ada</span>',
        "<b>0</b>",
        '<span class="not_started"><b>1</b>: cy</span>',
    ]
    assert _row(board.learners.value, "cy")[4] == '<span class="not_started"><b>2</b></span>'
    assert _row(board.learners.value, "ada")[-1] == "03.1"
    assert _row(board.mistakes.value, "03.1")[1:] == [HITS, "1", "3", "<code>1.0</code>"]


def test_a_refresh_picks_up_a_new_line_and_nothing_else(folder):
    board = RoomDashboard(folder, EXPECTED, lang="en")
    assert board.refresh() is False
    record_check("03", "2", "0.5", "correct", learner="ada", path=progress_path_for(folder, "ada"))
    assert board.refresh() is True
    assert _row(board.exercises.value, "03.2")[2] == '<span class="passed"><b>1</b>: ada</span>'


def test_following_the_folder_in_the_background(folder):
    board = RoomDashboard(folder, EXPECTED, lang="en", interval=0.05)
    board.start()
    try:
        record_check(
            "03", "2", "1", "incorrect", learner="bo", path=progress_path_for(folder, "bo")
        )
        deadline = time.monotonic() + 10
        while "<b>1</b>: bo" not in _row(board.exercises.value, "03.2")[4]:
            assert time.monotonic() < deadline, "the dashboard did not pick up the new line"
            time.sleep(0.05)
    finally:
        board.stop()


def test_it_speaks_chinese_and_waits_for_a_folder_not_yet_made(tmp_path):
    board = RoomDashboard(tmp_path / "later", EXPECTED, lang="zh")
    assert board.exercises.value == "还没有检查过任何答案。"
    with pytest.raises(ValueError, match="interval must be a positive number"):
        RoomDashboard(tmp_path, interval=0)


def test_starting_twice_follows_with_one_thread(folder):
    board = RoomDashboard(folder, EXPECTED, lang="en", interval=0.05)
    board.start()
    try:
        first = board._thread
        board.start()
        assert board._thread is first and board.following()
    finally:
        board.stop()
    assert not board.following()


def test_a_folder_that_cannot_be_read_is_said_and_followed_again(folder, monkeypatch):
    board = RoomDashboard(folder, EXPECTED, lang="en", interval=0.05)

    def unreadable() -> bool:
        raise PermissionError("Permission denied: 'room'")

    monkeypatch.setattr(board, "refresh", unreadable)
    board.start()
    try:
        deadline = time.monotonic() + 10
        while "could not be read" not in board.status.value:
            assert time.monotonic() < deadline, "the error was not shown"
            time.sleep(0.05)
        assert "Permission denied" in board.status.value
        assert board.following()  # the thread lives on
    finally:
        board.stop()


def test_checks_waiting_for_a_name_are_shown_and_followed(folder):
    from mapteach.classroom.progress_folder import WAITING_FOLDER

    board = RoomDashboard(folder, exercises=EXPECTED, lang="en")
    assert "room-waiting" not in board.status.value
    waiting = folder / WAITING_FOLDER / "closed-tab.jsonl"
    waiting.parent.mkdir()
    waiting.write_text('{"exercise": "1"}\n{"exercise": "2"}\n', encoding="utf-8")
    assert board.refresh()  # a waiting file is followed like a learner's
    assert "2 checks in" in board.status.value and "wait for a name" in board.status.value
    waiting.unlink()  # its learner gave a name
    assert board.refresh() and "room-waiting" not in board.status.value
