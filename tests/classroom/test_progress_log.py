"""Progress that stays: checks appended, read back exactly, merged, and never silently lost."""

from __future__ import annotations

import json
import os
import pwd
import subprocess
import sys
import tempfile
import textwrap
import warnings
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mapteach
from mapteach.classroom import identity
from mapteach.classroom import progress_folder as room
from mapteach.classroom.identity import learner
from mapteach.classroom.progress_folder import progress_file, set_progress_file
from mapteach.classroom.progress_log import (
    FIELDS,
    VERDICTS,
    CorruptLineWarning,
    TruncatedLineWarning,
    merge_progress,
    progress,
    read_progress,
    record_check,
)
from tests.budget import examples

REAL_HOME_FILE = Path(pwd.getpwuid(os.getuid()).pw_dir) / ".mapteach" / "progress.jsonl"


def _snapshot(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    return stat.st_size, stat.st_mtime_ns


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    """No test sees the real learner, the real file or the real home directory."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("MAPTEACH_LEARNER", raising=False)
    monkeypatch.delenv("MAPTEACH_PROGRESS", raising=False)
    monkeypatch.delenv("MAPTEACH_GROUP", raising=False)
    monkeypatch.delenv("MAPTEACH_PROGRESS_DIR", raising=False)
    monkeypatch.setitem(identity._state, "learner", None)
    monkeypatch.setitem(identity._state, "group", None)
    monkeypatch.setitem(room._file, "path", None)
    monkeypatch.setattr(room, "_waiting", [])
    monkeypatch.setitem(room._saved, "count", 0)
    monkeypatch.setattr(room, "_unsaved_listeners", [])
    before = _snapshot(REAL_HOME_FILE)
    yield home
    assert _snapshot(REAL_HOME_FILE) == before, "a test wrote to the real progress file"


def _line(**fields: object) -> str:
    record = {
        "learner": "ada",
        "notebook": "03",
        "exercise": "ap-1",
        "answer": "0.5",
        "verdict": "correct",
        "time": "2026-01-02T03:04:05+00:00",
    }
    return json.dumps({**record, **fields}, ensure_ascii=False)


# --- the learner and the file ------------------------------------------------------------


def test_learner_comes_from_the_environment_then_from_learner(monkeypatch):
    assert learner() is None
    monkeypatch.setenv("MAPTEACH_LEARNER", "  李雷 ")
    assert learner() == "李雷"
    assert learner(" ada ") == "ada"
    assert learner() == "ada"
    for bad in ["", "   ", 3, b"ada"]:
        with pytest.raises(ValueError, match=f"got {bad!r}"):
            learner(bad)  # type: ignore[arg-type]
    assert learner() == "ada"


def test_the_top_level_names():
    assert mapteach.learner is learner
    assert mapteach.progress is progress


def test_checks_go_to_the_home_folder_by_default(isolated):
    record_check("03", "ap-1", "0.5", "correct")
    assert progress_file() == isolated / ".mapteach" / "progress.jsonl"
    assert read_progress()["answer"].tolist() == ["0.5"]


def test_mapteach_progress_and_set_progress_file_choose_the_file(tmp_path, monkeypatch, isolated):
    chosen = tmp_path / "class" / "mine.jsonl"
    monkeypatch.setenv("MAPTEACH_PROGRESS", str(chosen))
    record_check("03", "ap-1", "0.5", "correct")
    assert chosen.exists()
    assert not (isolated / ".mapteach").exists()
    assert progress()["attempts"].tolist() == [1]
    other = tmp_path / "other.jsonl"
    assert set_progress_file(other) == other
    record_check("04", "map-1", "1", "incorrect")
    assert read_progress(other)["notebook"].tolist() == ["04"]
    assert progress()["notebook"].tolist() == ["04"]
    assert set_progress_file(None) == chosen


def test_no_learner_records_anonymously_and_a_name_is_used_once_set(tmp_path):
    path = tmp_path / "p.jsonl"
    assert record_check("03", "ap-1", "x", "incorrect", path=path)["learner"] == ""
    learner("ada")
    record_check("03", "ap-1", "0.5", "correct", path=path)
    record_check("03", "ap-1", "0.5", "correct", path=path, learner="bo")
    assert read_progress(path)["learner"].tolist() == ["", "ada", "bo"]
    assert progress(path=path)["attempts"].tolist() == [1]  # ada's
    assert progress("", path=path)["last_verdict"].tolist() == ["incorrect"]


@pytest.mark.parametrize(
    ("args", "error", "fragment"),
    [
        (("03", "ap-1", "0.5", "right"), ValueError, "verdict must be one of correct"),
        (("03", "ap-1", 0.5, "correct"), TypeError, "answer must be a string; got float 0.5"),
        (("", "ap-1", "0.5", "correct"), ValueError, "notebook must not be empty"),
        (("03", None, "0.5", "correct"), TypeError, "exercise must be a string"),
    ],
)
def test_record_check_refuses_a_bad_check_and_writes_nothing(tmp_path, args, error, fragment):
    path = tmp_path / "p.jsonl"
    with pytest.raises(error, match=fragment):
        record_check(*args, path=path)
    assert not path.exists()


def test_no_verdict_that_is_not_an_attempt_is_recorded(tmp_path):
    path = tmp_path / "p.jsonl"
    for verdict in ("unreadable", "empty"):
        with pytest.raises(ValueError, match=f"verdict '{verdict}' is never recorded"):
            record_check("03", "ap-1", "abc", verdict, path=path)
    with pytest.raises(ValueError, match="verdict must be one of correct, incomplete, incorrect;"):
        record_check("03", "ap-1", "abc", "invalid", path=path)
    assert not path.exists()
    assert VERDICTS == ("correct", "incomplete", "incorrect")


def test_old_invalid_lines_read_but_are_no_attempts(tmp_path):
    path = tmp_path / "old.jsonl"
    lines = [
        _line(verdict="invalid", answer="abc", time="2026-01-02T03:00:00+00:00"),
        _line(verdict="incorrect", answer="0.4", time="2026-01-02T03:01:00+00:00"),
        _line(verdict="invalid", answer="?", time="2026-01-02T03:02:00+00:00"),
        _line(exercise="ap-2", verdict="invalid", time="2026-01-02T03:03:00+00:00"),
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    verdicts = read_progress(path)["verdict"].tolist()
    assert verdicts == ["invalid", "incorrect", "invalid", "invalid"]
    table = progress("ada", path=path, exercises=[("03", "ap-2")])
    rows = table[["exercise", "attempts", "last_answer", "last_verdict"]].values.tolist()
    assert rows[0] == ["ap-1", 1, "0.4", "incorrect"]
    assert (
        rows[1][:2] == ["ap-2", 0] and table.iloc[1][["last_answer", "last_verdict"]].isna().all()
    )
    assert mapteach.progress("ada", path=path)["attempts"].tolist() == [1]
    assert merge_progress(path)["attempts"].tolist() == [1]


def test_a_group_is_recorded_with_each_check_and_read_back(tmp_path, monkeypatch):
    path = tmp_path / "p.jsonl"
    record_check("03", "ap-1", "0.5", "correct", learner="ada", path=path)
    learner("ada", group=" pair 3 ")
    record_check("03", "ap-1", "0.5", "correct", path=path)
    record_check("03", "ap-1", "0.5", "correct", group="pair 4", path=path)
    monkeypatch.setenv("MAPTEACH_GROUP", "pair 5")
    identity.forget_learner()
    record = record_check("03", "ap-1", "0.5", "correct", learner="bo", path=path)
    assert record["group"] == "pair 5"
    written = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [line.get("group") for line in written] == [None, "pair 3", "pair 4", "pair 5"]
    assert list(written[1]) == [*FIELDS, "group"]
    assert read_progress(path)["group"].tolist() == ["", "pair 3", "pair 4", "pair 5"]
    assert progress("ada", path=path)["attempts"].tolist() == [3]
    with pytest.raises(ValueError, match="The group must be a non-empty string; got ' '"):
        record_check("03", "ap-1", "0.5", "correct", group=" ", path=path)


def test_a_named_mistake_is_recorded_last_and_read_back(tmp_path):
    path = tmp_path / "p.jsonl"
    record_check(
        "03", "ap-1", "1", "incorrect", learner="ada", group="g", mistake="AP@k", path=path
    )
    record_check("03", "ap-1", "0.9", "incorrect", learner="ada", path=path)
    written = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert list(written[0]) == [*FIELDS, "group", "mistake"]
    assert written[0]["mistake"] == "AP@k" and "mistake" not in written[1]
    assert read_progress(path)["mistake"].tolist() == ["AP@k", ""]


@pytest.mark.parametrize(
    ("verdict", "mistake", "error", "fragment"),
    [
        ("correct", "AP@k", ValueError, "only for an incorrect answer; got 'correct'"),
        ("incomplete", "AP@k", ValueError, "only for an incorrect answer; got 'incomplete'"),
        ("incorrect", " ", ValueError, "mistake must not be empty"),
        ("incorrect", 3, TypeError, "mistake must be a string; got int 3"),
    ],
)
def test_a_mistake_is_named_only_for_an_incorrect_answer(
    tmp_path, verdict, mistake, error, fragment
):
    path = tmp_path / "p.jsonl"
    with pytest.raises(error, match=fragment):
        record_check("03", "ap-1", "1", verdict, learner="ada", mistake=mistake, path=path)
    assert not path.exists()


@pytest.mark.parametrize("mistake", ["", 3])
def test_a_bad_mistake_in_a_file_is_an_error_naming_its_line(tmp_path, mistake):
    path = tmp_path / "p.jsonl"
    path.write_text(_line(verdict="incorrect", mistake=mistake) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 1: field 'mistake'"):
        read_progress(path)


@pytest.mark.parametrize(
    ("group", "fragment"),
    [("", "field 'group' is empty"), (3, "field 'group' is int 3, not a string")],
)
def test_a_bad_group_in_a_file_is_an_error_naming_its_line(tmp_path, group, fragment):
    path = tmp_path / "p.jsonl"
    path.write_text(_line() + "\n" + _line(group=group) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=f"line 2: {fragment}"):
        read_progress(path)


# --- round trip, against a brute-force model -------------------------------------------

ANSWERS = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["0.8056", '2/3 "exactly"', "line\nbreak\r\n", "平均精度 0.5", "\\", "\u2028"]),
)
CHECK = st.tuples(
    st.sampled_from([None, "ada", "李雷", 'O\'Brien "Bo"']),
    st.sampled_from(["03_ap", "04_map", "笔记本"]),
    st.sampled_from(["ap-1", "ap-2", "练习 3"]),
    ANSWERS,
    st.sampled_from(VERDICTS),
)


def _model(checks: list[tuple[str, str, str, str, str]]) -> dict[tuple[str, ...], dict]:
    """Brute force: for each (learner, notebook, exercise), every attempt in order."""
    rows: dict[tuple[str, ...], dict] = {}
    for who, notebook, exercise, *_ in checks:
        attempts = [c for c in checks if c[:3] == (who, notebook, exercise)]
        rows[(who, notebook, exercise)] = {
            "attempts": len(attempts),
            "last_answer": attempts[-1][3],
            "last_verdict": attempts[-1][4],
            "passed": any(c[4] == "correct" for c in attempts),
        }
    return dict(sorted(rows.items()))


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(CHECK, max_size=15))
def test_checks_read_back_exactly_and_progress_matches_a_brute_force_model(checks):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "p.jsonl"
        for who, notebook, exercise, answer, verdict in checks:
            record_check(notebook, exercise, answer, verdict, learner=who, path=path)
        written = [(who or "", *rest) for who, *rest in checks]
        assert path.exists() == bool(checks)
        table = read_progress(path) if checks else read_progress()[:0]
        assert list(table.columns) == [*FIELDS, "group", "mistake", "file", "line"]
        got = list(
            table[["learner", "notebook", "exercise", "answer", "verdict"]].itertuples(
                index=False, name=None
            )
        )
        assert got == written
        assert table["line"].tolist() == list(range(1, len(checks) + 1))
        model = _model(written)
        for who in {"", "ada", "李雷", 'O\'Brien "Bo"'}:
            table = progress(who, path=path, exercises=[("zz", "never"), ("03_ap", "ap-1")])
            keys = [tuple(key) for key in table[["notebook", "exercise"]].values.tolist()]
            assert keys == sorted(keys)
            never = table[table["notebook"] == "zz"]
            assert never[["exercise", "attempts", "passed", "status"]].values.tolist() == [
                ["never", 0, False, "pending"]
            ]
            assert (
                never[["first_time", "last_time", "last_answer", "last_verdict"]]
                .isna()
                .all(axis=None)
            )
            mine = table[table["attempts"] > 0]
            expected = [(k[1], k[2], v) for k, v in model.items() if k[0] == who]
            assert [tuple(key) for key in mine[["notebook", "exercise"]].values.tolist()] == [
                (notebook, exercise) for notebook, exercise, _ in expected
            ]
            for (_, row), (_, _, want) in zip(mine.iterrows(), expected, strict=True):
                assert {key: row[key] for key in want} == want
                assert row["status"] == ("passed" if want["passed"] else "pending")
                assert row["first_time"] <= row["last_time"]
            tried = {(notebook, exercise) for notebook, exercise, _ in expected}
            assert len(table) == len(tried | {("zz", "never"), ("03_ap", "ap-1")})
        if checks:
            merged = merge_progress(path)
            keys = list(merged[["learner", "notebook", "exercise"]].itertuples(index=False))
            assert [tuple(key) for key in keys] == list(model)
            assert merged["attempts"].tolist() == [v["attempts"] for v in model.values()]
            assert merged["passed"].tolist() == [v["passed"] for v in model.values()]


def test_passed_stays_passed_after_a_later_wrong_answer(tmp_path):
    path = tmp_path / "p.jsonl"
    for verdict in ["incorrect", "correct", "incorrect", "incomplete"]:
        record_check("03", "ap-1", verdict, verdict, learner="ada", path=path)
    row = progress("ada", path=path).iloc[0]
    assert (row["attempts"], row["passed"], row["status"]) == (4, True, "passed")
    assert (row["last_answer"], row["last_verdict"]) == ("incomplete", "incomplete")
    assert row["first_time"] <= row["last_time"]


def test_the_latest_time_wins_across_merged_files(tmp_path):
    early, late = tmp_path / "laptop.jsonl", tmp_path / "lab.jsonl"
    late.write_text(_line(verdict="incorrect", time="2026-01-02T12:00:00+08:00") + "\n")
    early.write_text(_line(verdict="correct", time="2026-01-02T03:00:00Z") + "\n")
    row = merge_progress(late, early).iloc[0]  # 12:00+08:00 is 04:00 UTC, after 03:00 UTC
    assert (row["attempts"], row["last_verdict"], row["passed"]) == (2, "incorrect", True)
    assert str(row["last_time"]) == "2026-01-02 04:00:00+00:00"


def test_exercises_must_be_pairs(tmp_path):
    with pytest.raises(ValueError, match="pairs of non-empty strings; got 'ap-1'"):
        progress("ada", path=tmp_path / "p.jsonl", exercises=["ap-1"])  # type: ignore[list-item]


def test_a_lone_surrogate_answer_survives(tmp_path):
    path = tmp_path / "p.jsonl"
    record_check("03", "ap-1", "\ud800?", "incorrect", path=path)
    assert read_progress(path)["answer"].tolist() == ["\ud800?"]


# --- several writers at once -------------------------------------------------------------

WRITER = textwrap.dedent(
    """
    import os, sys, time
    from mapteach.classroom.progress_log import record_check
    path, who, go = sys.argv[1], sys.argv[2], sys.argv[3]
    while not os.path.exists(go):
        time.sleep(0.001)
    for i in range(500):
        record_check("nb", str(i), "答案 " + who * 40 + "\\n" + str(i), "correct",
                     learner=who, path=path)
    """
)


def test_two_processes_appending_at_once_never_mix_lines(tmp_path):
    path, go = tmp_path / "shared.jsonl", tmp_path / "go"
    env = {**os.environ, "HOME": str(tmp_path / "home")}
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), who, str(go)], env=env)
        for who in ("p", "q")
    ]
    go.touch()
    assert [writer.wait(timeout=300) for writer in writers] == [0, 0]
    data = path.read_bytes()
    assert data.endswith(b"\n")
    lines = data.decode("utf-8").split("\n")[:-1]
    assert len(lines) == 1000
    records = [json.loads(line) for line in lines]
    assert all(list(record) == list(FIELDS) for record in records)
    for who in ("p", "q"):
        mine = [record for record in records if record["learner"] == who]
        assert [record["exercise"] for record in mine] == [str(i) for i in range(500)]
        assert all(r["answer"] == f"答案 {who * 40}\n{r['exercise']}" for r in mine)
    assert len(read_progress(path)) == 1000


# --- what reading does with a line it cannot use -----------------------------------------


@pytest.mark.parametrize(
    ("bad", "fragment"),
    [
        (b"hello", "not JSON (Expecting value"),
        (b"[1, 2]", "expected a JSON object, got list"),
        (_line(answer=0.5).encode(), "field 'answer' is float 0.5, not a string"),
        (_line(verdict="right").encode(), "verdict 'right' is not one of correct"),
        (_line(time="2026-01-02T03:04:05").encode(), "is not ISO 8601 with a time zone"),
        (_line(time="yesterday").encode(), "time 'yesterday' is not ISO 8601"),
        (_line(exercise=" ").encode(), "field 'exercise' is empty"),
        (json.dumps({"learner": "ada"}).encode(), "missing fields ['answer', 'exercise'"),
        (_line()[:-1].encode() + b', "extra": "x"}', "unknown fields ['extra']"),
        ('{"answer": "\u00e9"}'.encode("latin-1"), "not UTF-8 (byte 13)"),
    ],
)
def test_a_corrupt_middle_line_is_an_error_naming_its_line(tmp_path, bad, fragment):
    path = tmp_path / "p.jsonl"
    path.write_bytes(_line(exercise="a").encode() + b"\n" + bad + b"\n" + _line().encode() + b"\n")
    with pytest.raises(ValueError, match="line 2: ") as caught:
        read_progress(path)
    assert str(caught.value).startswith(f"{path}, line 2: ")
    assert fragment in str(caught.value)
    with pytest.raises(ValueError, match="line 2: "):
        progress("ada", path=path)
    with pytest.warns(CorruptLineWarning) as warned:
        table = read_progress(path, skip_corrupt=True)
    assert [str(w.message) for w in warned] == [f"{caught.value} The line is skipped."]
    assert table["line"].tolist() == [1, 3]
    assert table["exercise"].tolist() == ["a", "ap-1"]


def test_a_cut_last_line_is_ignored_with_a_warning_and_the_next_check_gets_its_own_line(
    tmp_path,
):
    path = tmp_path / "p.jsonl"
    record_check("03", "ap-1", "0.5", "incorrect", learner="ada", path=path)
    record_check("03", "ap-1", "0.8056", "correct", learner="ada", path=path)
    with open(path, "ab") as file:  # a crash in mid-write, in the middle of a character
        file.write(_line(answer="平均").encode()[:-20])
    cut = path.read_bytes()
    with pytest.warns(TruncatedLineWarning, match=f"^{path}, line 3: cut short"):
        assert len(read_progress(path)) == 2

    record_check("04", "map-1", "1", "correct", learner="ada", path=path)
    after = path.read_bytes()
    assert after.startswith(cut)  # nothing rewritten: the cut line is ended, not removed
    lines = after.split(b"\n")
    assert json.loads(lines[3])["repairs_line"] == 3
    assert json.loads(lines[4])["notebook"] == "04"
    with pytest.warns(TruncatedLineWarning, match="line 3: cut short"):
        table = read_progress(path)
    assert table["line"].tolist() == [1, 2, 5]
    with pytest.warns(TruncatedLineWarning):
        assert progress("ada", path=path)["attempts"].tolist() == [2, 1]
    with warnings.catch_warnings():  # only the cut line is excused: the rest reads cleanly
        warnings.simplefilter("error", CorruptLineWarning)
        with pytest.warns(TruncatedLineWarning):
            read_progress(path, skip_corrupt=True)


def test_a_cut_line_that_no_note_names_is_an_error_once_it_is_not_last(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text('{"learner": "ada", "no\n' + _line() + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 1: not JSON"):
        read_progress(path)


def test_the_file_is_only_ever_appended_to(tmp_path):
    path = tmp_path / "deep" / "er" / "p.jsonl"
    before = b""
    for i, verdict in enumerate(VERDICTS * 3):
        record_check("03", f"ap-{i % 2}", str(i), verdict, learner="ada", path=path)
        after = path.read_bytes()
        assert after.startswith(before) and len(after) > len(before)
        assert after.count(b"\n") == i + 1
        before = after


def test_blank_lines_and_missing_files(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text("\n" + _line() + "\n  \n", encoding="utf-8")
    assert read_progress(path)["line"].tolist() == [2]
    with pytest.raises(ValueError, match="no such progress file"):
        read_progress(tmp_path / "none.jsonl")
    with pytest.raises(ValueError, match="is a directory"):
        read_progress(tmp_path)
    assert progress("ada", path=tmp_path / "none.jsonl").empty
    assert read_progress().empty  # the default file, not written yet


# --- the command line --------------------------------------------------------------------


def mapteach_cli(*args: str, stdin: str | None = None, home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "mapteach", *args],
        capture_output=True,
        text=True,
        input=stdin,
        env=env,
        timeout=60,
    )


@pytest.fixture
def class_files(tmp_path):
    ada, bo = tmp_path / "ada.jsonl", tmp_path / "bo.jsonl"
    for answer, verdict in [("0.5", "incorrect"), ("0.8056", "correct"), ("1", "incorrect")]:
        record_check("03", "ap-1", answer, verdict, learner="ada", path=ada)
    record_check("04", "map-1", "0.7", "incomplete", learner="ada", path=bo)  # ada used bo's PC
    record_check("04", "map-1", "0.75", "correct", learner="李雷", path=bo)
    return ada, bo


def test_cli_merges_files_to_csv(class_files, isolated):
    done = mapteach_cli("progress", *map(str, class_files), "--format", "csv", home=isolated)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == (
        "learner,notebook,exercise,prompt,attempts,passed,status,"
        "last_verdict,last_answer,last_mistake,last_time"
    )
    rows = [line.rsplit(",", 1) for line in lines[1:]]
    assert [row[0] for row in rows] == [
        "ada,03,ap-1,,3,True,passed,incorrect,1,",
        "ada,04,map-1,,1,False,trying,incomplete,0.7,",
        "李雷,04,map-1,,1,True,passed,correct,0.75,",
    ]
    assert all(pd.Timestamp(row[1]).tzname() == "UTC" for row in rows)


def test_cli_reads_standard_input_once_and_filters_a_learner(class_files, isolated):
    ada, bo = class_files
    stdin = bo.read_text(encoding="utf-8")
    done = mapteach_cli(
        "progress",
        str(ada),
        "-",
        "--learner",
        "李雷",
        "--format",
        "json",
        stdin=stdin,
        home=isolated,
    )
    assert done.returncode == 0, done.stderr
    assert [(r["learner"], r["attempts"], r["passed"]) for r in json.loads(done.stdout)] == [
        ("李雷", 1, True)
    ]
    twice = mapteach_cli("progress", "-", "-", stdin=stdin, home=isolated)
    assert twice.returncode == 2
    assert twice.stderr == "error: standard input (-) can be read only once.\n"
    table = mapteach_cli("progress", str(ada), home=isolated)
    assert table.stdout.split("\n")[0].split() == [
        "learner",
        "notebook",
        "exercise",
        "prompt",
        "attempts",
        "passed",
        "status",
        "last_verdict",
        "last_answer",
        "last_mistake",
        "last_time",
    ]


def test_cli_stops_at_a_corrupt_line_unless_told_to_skip_it(class_files, isolated):
    ada, bo = class_files
    with open(ada, "a", encoding="utf-8") as file:
        file.write("not a check\n" + _line(learner="ada", exercise="ap-2") + "\n")
    done = mapteach_cli("progress", str(bo), str(ada), home=isolated)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(f"error: {ada}, line 4: not JSON")
    assert len(done.stderr.splitlines()) == 1
    skipped = mapteach_cli(
        "progress", str(bo), str(ada), "--skip-corrupt", "--format", "csv", home=isolated
    )
    assert skipped.returncode == 0
    assert skipped.stderr.splitlines() == [
        f"warning: {ada}, line 4: not JSON (Expecting value: line 1 column 1). The line is skipped."
    ]
    assert ",03,ap-2,,1,True,passed,correct," in skipped.stdout.replace("ada,", ",")


def test_cli_speaks_chinese(class_files, isolated):
    done = mapteach_cli("--lang", "zh", "progress", str(isolated / "none.jsonl"), home=isolated)
    assert done.returncode == 2
    assert done.stderr == f"错误：{isolated / 'none.jsonl'}：没有这个进度文件。\n"
