"""A room's progress from a folder of three learners: one stuck, one passing, one not started."""

import csv
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mapteach.classroom import (
    ANONYMOUS,
    common_mistakes,
    exercise_summary,
    learner_summary,
    progress_path_for,
    read_room,
    record_check,
)
from mapteach.exercises import IndexedExercise, exercise_index

NOTEBOOKS = Path(__file__).parents[2] / "notebooks"
COLUMNS = (
    "learner,notebook,exercise,prompt,attempts,passed,status,"
    "last_verdict,last_answer,last_mistake,last_time"
)
HITS = "divided by the hits, not by R"
RANK = "divided by the rank"


def _expected(*keys):
    return [
        IndexedExercise(*key.split("."), key, "number", f"prompt of {key}", "en", "x.ipynb")
        for key in keys
    ]


@pytest.fixture
def room(tmp_path):
    """ada: stuck on 03.1 (three wrong); bo: passed 03.1 and 03.2; cy: on the roster only."""
    folder = tmp_path / "room"
    ada, bo = progress_path_for(folder, "ada"), progress_path_for(folder, "bo")
    for answer, mistake in [("1", RANK), ("0.9", HITS), ("1.0", HITS)]:
        record_check("03", "1", answer, "incorrect", learner="ada", mistake=mistake, path=ada)
    record_check("03", "1", "2", "incorrect", learner="bo", mistake=RANK, path=bo)
    record_check("03", "1", "0.8056", "correct", learner="bo", path=bo)
    record_check("03", "2", "0.5", "correct", learner="bo", path=bo)
    return folder


def test_the_table_says_who_passed_who_is_stuck_and_who_has_not_started(room):
    table = read_room(room, exercises=_expected("03.1", "03.2"), learners=["cy"]).table
    got = {(r.learner, r.notebook + "." + r.exercise): r.status for r in table.itertuples()}
    assert got == {
        ("ada", "03.1"): "stuck",
        ("ada", "03.2"): "not_started",
        ("bo", "03.1"): "passed",
        ("bo", "03.2"): "passed",
        ("cy", "03.1"): "not_started",
        ("cy", "03.2"): "not_started",
    }
    ada = table.iloc[0]
    assert (ada.attempts, ada.last_answer, ada.last_mistake) == (3, "1.0", HITS)
    assert ada.prompt == "prompt of 03.1"


def test_two_wrong_attempts_are_trying_and_exercises_sort_by_number(tmp_path):
    path = tmp_path / "p.jsonl"
    for exercise in ("10", "2"):
        for answer in ("1", "2"):
            record_check("03", exercise, answer, "incorrect", learner="ada", path=path)
    table = read_room(path).table
    assert table["exercise"].tolist() == ["2", "10"]
    assert set(table["status"]) == {"trying"}


def test_the_summaries_per_exercise_and_per_learner(room):
    built = read_room(room, exercises=_expected("03.1", "03.2"), learners=["cy"])
    per_exercise = exercise_summary(built).set_index(["notebook", "exercise"])
    first = per_exercise.loc[("03", "1")]
    assert (first.passed, first.stuck, first.not_started) == (1, 1, 1)
    assert (first.passed_names, first.stuck_names, first.not_started_names) == ("bo", "ada", "cy")
    assert per_exercise.loc[("03", "2"), "not_started_names"] == "ada, cy"
    per_learner = learner_summary(built).set_index("learner")
    assert per_learner.loc["ada", ["passed", "stuck", "not_started"]].tolist() == [0, 1, 1]
    assert per_learner.loc["ada", "stuck_on"] == "03.1"
    assert per_learner.loc["bo", "passed"] == 2
    assert per_learner.loc["cy", "not_started"] == 2


def test_the_most_common_mistakes_with_counts_and_an_example(room):
    mistakes = common_mistakes(read_room(room))
    rows = mistakes[["mistake", "learners", "count", "example_answer"]].to_dict("records")
    # by hand: RANK by ada and bo (1, 2); HITS twice, by ada alone (0.9 and 1.0)
    assert rows == [
        {"mistake": RANK, "learners": 2, "count": 2, "example_answer": "2"},
        {"mistake": HITS, "learners": 1, "count": 2, "example_answer": "1.0"},
    ]
    assert len(common_mistakes(read_room(room), top=1)) == 1
    with pytest.raises(ValueError, match="top must be a positive integer"):
        common_mistakes(read_room(room), top=0)


def test_checks_before_naming_in_one_file_are_reported_as_anonymous(tmp_path):
    path = tmp_path / "p.jsonl"
    line = '{"learner": "", "notebook": "03", "exercise": "1", "answer": "1", '
    path.write_text(line + '"verdict": "incorrect", "time": "2026-01-01T00:00:00Z"}\n')
    with pytest.warns(UserWarning, match=r"Checks made before a learner was named \(1\)"):
        table = read_room(path).table
    assert table["learner"].tolist() == [ANONYMOUS]


def test_an_empty_folder_is_a_room_with_no_checks(tmp_path):
    assert read_room(tmp_path).table.empty


def _cli(*args, home):
    env = {**os.environ, "HOME": str(home)}
    env.pop("MAPTEACH_PROGRESS_DIR", None)
    return subprocess.run(
        [sys.executable, "-m", "mapteach", "progress", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_the_cli_csv_of_a_folder_says_exactly_that(room, tmp_path):
    roster = tmp_path / "roster.txt"
    roster.write_text("ada\nbo\ncy\n", encoding="utf-8")
    args = ["--folder", str(room), "--notebooks", str(NOTEBOOKS), "--roster", str(roster)]
    done = _cli(*args, "--format", "csv", home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == COLUMNS
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    keys = {(item.notebook, item.exercise) for item in exercise_index(NOTEBOOKS)}
    status = {(r["learner"], (r["notebook"], r["exercise"])): r["status"] for r in rows}
    assert len(rows) == 3 * len(keys)
    assert {status["cy", key] for key in keys} == {"not_started"}
    assert status["ada", ("03", "1")] == "stuck"
    assert (status["bo", ("03", "1")], status["bo", ("03", "2")]) == ("passed", "passed")
    others = {key for key in keys if key not in {("03", "1"), ("03", "2")}}
    assert {status[name, key] for name in ("ada", "bo") for key in others} == {"not_started"}
    ada = next(
        r for r in rows if (r["learner"], r["notebook"], r["exercise"]) == ("ada", "03", "1")
    )
    assert (ada["last_answer"], ada["last_mistake"]) == ("1.0", HITS)
    prompts = {(item.notebook, item.exercise): item.prompt for item in exercise_index(NOTEBOOKS)}
    assert ada["prompt"] == prompts["03", "1"] != ""
    stuck = _cli(*args, "--format", "csv", home=tmp_path).stdout.count(",stuck,")
    assert stuck == 1


def test_the_cli_names_a_missing_folder(tmp_path):
    done = _cli("--folder", str(tmp_path / "none"), home=tmp_path)
    assert done.returncode == 2
    assert "is not a folder" in done.stderr
    assert _cli(home=tmp_path).returncode == 2


def test_a_mistake_many_learners_make_outranks_one_learner_repeating_one(tmp_path):
    path = tmp_path / "p.jsonl"
    for answer in ("1", "2", "3", "4"):
        record_check("03", "1", answer, "incorrect", learner="ada", mistake=HITS, path=path)
    for name in ("bo", "cy"):
        record_check("03", "1", "0.5", "incorrect", learner=name, mistake=RANK, path=path)
    rows = common_mistakes(read_room(path))[["mistake", "learners", "count"]]
    assert rows.to_dict("records") == [
        {"mistake": RANK, "learners": 2, "count": 2},
        {"mistake": HITS, "learners": 1, "count": 4},
    ]


def test_exercises_come_in_number_order_not_text_order(tmp_path):
    path = tmp_path / "p.jsonl"
    for exercise in ("10", "2", "1"):
        record_check("03", exercise, "1", "incorrect", learner="ada", mistake=HITS, path=path)
    room = read_room(path)
    assert exercise_summary(room)["exercise"].tolist() == ["1", "2", "10"]
    assert common_mistakes(room)["exercise"].tolist() == ["1", "2", "10"]


def _closed_tab(folder, checks):
    """A kernel that checks answers before its learner is named, then ends (a closed tab)."""
    code = (
        "from mapteach.classroom import record_check\n"
        f"for answer in {[str(n) for n in range(checks)]!r}:\n"
        "    record_check('03', '1', answer, 'incorrect')\n"
    )
    env = {key: value for key, value in os.environ.items() if not key.startswith("MAPTEACH_")}
    env["MAPTEACH_PROGRESS_DIR"] = str(folder)
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=120)


def test_checks_left_waiting_by_a_closed_tab_are_counted_and_said(room):
    from mapteach.classroom import waiting_for_names

    assert waiting_for_names(room) == (0, 0)
    _closed_tab(room, 2)
    _closed_tab(room, 1)
    assert waiting_for_names(room) == (3, 2)
    with pytest.warns(UserWarning, match=r"3 checks in .*room/\.waiting wait for a name"):
        table = read_room(room).table
    assert set(table["learner"]) == {"ada", "bo"}  # recorded under no one's name
    done = _cli("--folder", str(room), "--format", "csv", home=room.parent)
    assert done.returncode == 0, done.stderr
    assert "warning: 3 checks in" in done.stderr and "wait for a name" in done.stderr
