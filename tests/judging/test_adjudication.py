"""Adjudication: every disagreement listed, decisions appended and re-read, one exact qrels file."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

from mapteach.i18n import tr
from mapteach.judging import Event, adjudicate, append_event, load_guideline, merged_qrels
from mapteach.judging.adjudication import ADJUDICATION_HEADERS

#: Each annotator's grades as they make them, in order: (query, doc, grade); None clears.
HISTORY = {
    "ada": [
        ("q1", "d1", 3),
        ("q1", "d2", 0),
        ("q1", "d3", 2),
        ("q2", "d4", 1),
        ("q2", "d5", 0),
        ("q1", "d3", 1),  # changed: the latest grade counts
    ],
    "bo": [
        ("q1", "d1", 3),
        ("q1", "d2", 1),
        ("q1", "d3", 1),
        ("q2", "d4", 2),
        ("q2", "d5", 1),
        ("q3", "d6", 2),
    ],
    "陈 chen": [
        ("q1", "d1", 2),
        ("q1", "d2", 0),
        ("q2", "d4", 2),
        ("q2", "d5", 3),
        ("q2", "d5", None),  # cleared: chen did not grade d5 in the end
        ("q3", "d6", 2),
        ("q3", "d7", 0),
    ],
}


def _latest(history) -> dict[str, dict[tuple[str, str], int]]:
    """Each annotator's latest grades, worked out here from the history itself."""
    latest: dict[str, dict[tuple[str, str], int]] = {}
    for name, steps in history.items():
        grades: dict[tuple[str, str], int] = {}
        for query, doc, grade in steps:  # a change keeps the item's place; a clear drops it
            if grade is None:
                grades.pop((query, doc), None)
            else:
                grades[(query, doc)] = grade
        latest[name] = grades
    return latest


def _expected_disagreements(history) -> list[tuple[str, str]]:
    latest = _latest(history)
    items = []
    for grades in latest.values():
        items += [item for item in grades if item not in items]
    return [
        item
        for item in items
        if len({grades[item] for grades in latest.values() if item in grades}) > 1
    ]


def _write_files(folder: Path, history) -> list[Path]:
    files = []
    for number, (name, steps) in enumerate(history.items()):
        path = folder / f"annotator-{number}.jsonl"
        for query, doc, grade in steps:
            append_event(path, Event.now(name, query, doc, grade, "R-PART", "2026.1"))
        files.append(path)
    return files


@pytest.fixture
def files(tmp_path) -> list[Path]:
    return _write_files(tmp_path, HISTORY)


def test_every_disagreement_is_listed_with_each_annotators_latest_grade(files, tmp_path):
    table = adjudicate(files, decisions=tmp_path / "decisions.jsonl").table
    expected = _expected_disagreements(HISTORY)
    # d3: ada's change makes it agreed; d5: chen's clear leaves ada and bo, who differ
    assert expected == [("q1", "d1"), ("q1", "d2"), ("q2", "d4"), ("q2", "d5")]
    assert list(zip(table["query"], table["doc"], strict=True)) == expected
    latest = _latest(HISTORY)
    for name, grades in latest.items():
        column = [None if pd.isna(g) else int(g) for g in table[name]]
        assert column == [grades.get(item) for item in expected], name
    assert not table["decided"].any()
    assert table[["decision", "reason", "who", "time"]].isna().all().all()
    assert list(table.columns) == [
        "query",
        "doc",
        *HISTORY,
        "decided",
        "decision",
        "reason",
        "who",
        "time",
    ]


def test_decisions_are_appended_with_their_time_and_read_back_latest_first(files, tmp_path):
    decisions = tmp_path / "decisions.jsonl"
    adjudication = adjudicate(files, decisions=decisions)
    adjudication.decide("q1", "d1", 3, "R-AUTH: the statute", who="lead")
    adjudication.decide("q2", "d4", 1, "R-PART: the amount only", who="lead")
    first = decisions.read_bytes()
    adjudication.decide("q1", "d1", 2, "R-OLD: amended since", who="second lead")
    assert decisions.read_bytes().startswith(first)  # appended, nothing rewritten
    records = [json.loads(line) for line in decisions.read_text(encoding="utf-8").splitlines()]
    assert [(r["query"], r["doc"], r["grade"], r["who"]) for r in records] == [
        ("q1", "d1", 3, "lead"),
        ("q2", "d4", 1, "lead"),
        ("q1", "d1", 2, "second lead"),
    ]
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", r["time"]) for r in records)

    reopened = adjudicate(files, decisions=decisions).table.set_index(["query", "doc"])
    assert reopened["decided"].to_dict() == {
        item: item in {("q1", "d1"), ("q2", "d4")} for item in _expected_disagreements(HISTORY)
    }
    assert reopened.loc[("q1", "d1"), "decision"] == 2
    assert reopened.loc[("q1", "d1"), "reason"] == "R-OLD: amended since"
    assert reopened.loc[("q1", "d1"), "time"] == records[2]["time"]
    assert adjudicate(files, decisions=decisions).undecided() == [("q1", "d2"), ("q2", "d5")]


@pytest.mark.parametrize(
    ("query", "doc", "grade", "reason", "who", "message"),
    [
        ("q3", "d6", 2, "R-AUTH", "lead", "not a disagreement (every annotator graded it 2)"),
        ("q9", "d1", 2, "R-AUTH", "lead", "no annotator graded it"),
        ("q1", "d1", 4, "R-AUTH", "lead", "grade 4 is not on the guideline's scale (0, 1, 2, 3)"),
        ("q1", "d1", -1, "R-AUTH", "lead", "grade -1 is not on"),
        ("q1", "d1", True, "R-AUTH", "lead", "grade True is not on"),
        ("q1", "d1", "2", "R-AUTH", "lead", "grade '2' is not on"),
        ("q1", "d1", 2, "  ", "lead", "a decision needs reason"),
        ("q1", "d1", 2, "R-AUTH", "", "a decision needs who"),
    ],
)
def test_a_decision_that_does_not_fit_is_refused_and_nothing_written(
    files, tmp_path, query, doc, grade, reason, who, message
):
    decisions = tmp_path / "decisions.jsonl"
    with pytest.raises(ValueError, match=re.escape(message)) as caught:
        adjudicate(files, decisions=decisions).decide(query, doc, grade, reason, who)
    assert f"query {query!r}, document {doc!r}" in str(caught.value)
    assert not decisions.exists()


def _decide_all(files, decisions: Path) -> dict[tuple[str, str], int]:
    chosen = {item: (number % 4) for number, item in enumerate(_expected_disagreements(HISTORY))}
    adjudication = adjudicate(files, decisions=decisions)
    for (query, doc), grade in chosen.items():
        adjudication.decide(query, doc, 3 - grade, "first thoughts", who="lead")
        adjudication.decide(query, doc, grade, "R-PART", who="lead")
    return chosen


def test_merged_qrels_has_the_agreed_and_the_decided_grades_line_for_line(files, tmp_path):
    decisions = tmp_path / "decisions.jsonl"
    chosen = _decide_all(files, decisions)
    path = merged_qrels(files, decisions, tmp_path / "merged.qrels")
    assert path == tmp_path / "merged.qrels"
    latest = _latest(HISTORY)
    expected = []
    for query, doc in dict.fromkeys(item for grades in latest.values() for item in grades):
        agreed = {grades[(query, doc)] for grades in latest.values() if (query, doc) in grades}
        grade = chosen.get((query, doc), min(agreed))
        assert (query, doc) in chosen or len(agreed) == 1
        expected.append(f"{query} 0 {doc} {grade}")
    assert path.read_text(encoding="utf-8").splitlines() == expected
    assert expected[:3] == ["q1 0 d1 0", "q1 0 d2 1", "q1 0 d3 1"]  # decided, decided, agreed
    assert expected[-2:] == ["q3 0 d6 2", "q3 0 d7 0"]  # agreed (d7: one annotator)


def test_undecided_disagreements_are_each_named_and_nothing_is_written(files, tmp_path):
    decisions = tmp_path / "decisions.jsonl"
    adjudicate(files, decisions=decisions).decide("q1", "d2", 0, "R-AUTH", "lead")
    target = tmp_path / "merged.qrels"
    with pytest.raises(ValueError) as caught:
        merged_qrels(files, decisions, target)
    message = str(caught.value)
    undecided = [item for item in _expected_disagreements(HISTORY) if item != ("q1", "d2")]
    assert message.startswith(f"{len(undecided)} disagreement(s) not decided yet: ")
    for query, doc in undecided:
        assert f"query {query!r}, document {doc!r}" in message
    assert "'d2'" not in message
    assert not target.exists()
    with pytest.raises(ValueError, match=re.escape("4 disagreement(s)")):
        merged_qrels(files, None, target)


def test_a_decision_wins_even_if_the_annotators_agree_later(files, tmp_path):
    decisions = tmp_path / "decisions.jsonl"
    _decide_all(files, decisions)
    append_event(files[0], Event.now("ada", "q1", "d1", 2, "", "2026.1"))  # ada now agrees: 2
    append_event(files[1], Event.now("bo", "q1", "d1", 2, "", "2026.1"))
    adjudication = adjudicate(files, decisions=decisions)
    assert ("q1", "d1") not in adjudication.disagreements()
    assert adjudication.merged()["q1"]["d1"] == 0


def test_a_decided_item_stays_in_the_qrels_when_its_grades_are_cleared(files, tmp_path):
    decisions = tmp_path / "decisions.jsonl"
    chosen = _decide_all(files, decisions)
    for number, name in enumerate(HISTORY):
        append_event(files[number], Event.now(name, "q1", "d1", None, "", "2026.1"))
    adjudication = adjudicate(files, decisions=decisions)
    assert ("q1", "d1") not in adjudication.grades
    assert adjudication.merged()["q1"]["d1"] == chosen[("q1", "d1")]


def test_files_that_do_not_fit_are_refused(files, tmp_path):
    decisions = tmp_path / "decisions.jsonl"
    with pytest.raises(ValueError, match=re.escape("annotator 'ada' has two judgments files")):
        adjudicate([files[0], *files], decisions)
    mixed = tmp_path / "mixed.jsonl"
    append_event(mixed, Event.now("ada", "q1", "d1", 1, "", "2026.1"))
    append_event(mixed, Event.now("bo", "q1", "d1", 1, "", "2026.1"))
    with pytest.raises(ValueError, match=re.escape("several annotators (ada, bo)")):
        adjudicate([mixed], decisions)
    with pytest.raises(ValueError, match="is the decisions log"):
        adjudicate([*files, decisions], decisions)
    named = tmp_path / "named.jsonl"
    append_event(named, Event.now("decided", "q1", "d1", 1, "", "2026.1"))
    with pytest.raises(ValueError, match="has the name of a column"):
        adjudicate([named], decisions)
    with pytest.raises(TypeError, match="files must be a list of judgments files"):
        adjudicate(files[0], decisions)


def _where(path: Path, line: int, query: str, doc: str) -> str:
    return f"{path}, line {line} (query {query!r}, document {doc!r})"


def test_a_file_made_under_another_guideline_version_is_refused_naming_its_line(files, tmp_path):
    other = tmp_path / "dan.jsonl"
    append_event(other, Event.now("dan", "q1", "d1", 3, "", "2026.1"))
    append_event(other, Event.now("dan", "q2", "d4", 1, "", "1999.0"))
    target = tmp_path / "merged.qrels"
    with pytest.raises(ValueError) as caught:
        merged_qrels([*files, other], None, target)
    assert str(caught.value).startswith(
        f"{_where(other, 2, 'q2', 'd4')}: judged under guideline '1999.0', not '2026.1'"
    )
    assert not target.exists()
    with pytest.raises(ValueError, match=re.escape(_where(other, 2, "q2", "d4"))):
        adjudicate([*files, other], tmp_path / "decisions.jsonl")


def test_a_grade_off_the_scale_in_a_file_is_refused_naming_its_line(files, tmp_path):
    record = json.loads(files[1].read_text(encoding="utf-8").splitlines()[0])
    with files[1].open("a", encoding="utf-8") as file:  # written by hand, or by another tool
        file.write(json.dumps({**record, "query": "q2", "doc": "d9", "grade": 9}) + "\n")
    line = len(files[1].read_text(encoding="utf-8").splitlines())
    target = tmp_path / "merged.qrels"
    with pytest.raises(ValueError) as caught:
        merged_qrels(files, None, target)
    assert str(caught.value) == (
        f"{_where(files[1], line, 'q2', 'd9')}: grade 9 is not on the guideline's scale "
        "(0, 1, 2, 3)."
    )
    assert not target.exists()


def test_the_guideline_argument_sets_the_version_and_the_scale(tmp_path):
    package = load_guideline()
    narrow = replace(package, version="1999.0", scale=package.scale[:3])  # grades 0, 1, 2
    paths = [tmp_path / "ada.jsonl", tmp_path / "bo.jsonl"]
    for path, name, grade in zip(paths, ["ada", "bo"], [0, 2], strict=True):
        append_event(path, Event.now(name, "q1", "d1", grade, "", "1999.0"))
    with pytest.raises(ValueError, match=re.escape("not '2026.1'")):
        adjudicate(paths, None)
    decisions = tmp_path / "decisions.jsonl"
    adjudication = adjudicate(paths, decisions, guideline=narrow)
    with pytest.raises(ValueError, match=re.escape("grade 3 is not on the guideline's scale")):
        adjudication.decide("q1", "d1", 3, "R-AUTH", who="lead")
    adjudication.decide("q1", "d1", 1, "R-PART", who="lead")
    target = merged_qrels(paths, decisions, tmp_path / "merged.qrels", guideline=narrow)
    assert target.read_text(encoding="utf-8").splitlines() == ["q1 0 d1 1"]
    append_event(paths[0], Event.now("ada", "q1", "d2", 3, "", "1999.0"))
    with pytest.raises(ValueError, match=re.escape(f"{_where(paths[0], 2, 'q1', 'd2')}: grade 3")):
        merged_qrels(paths, decisions, tmp_path / "again.qrels", guideline=narrow)


def _hand_written(decisions: Path, **fields) -> int:
    """Append a decision line by hand (not through decide()); return its line number."""
    record = {"query": "q1", "doc": "d1", "grade": 2, "reason": "R-PART", "who": "lead"}
    line = {**record, "time": "2026-11-30T15:00:00Z", **fields}
    with decisions.open("a", encoding="utf-8") as file:
        file.write(json.dumps(line) + "\n")
    return len(decisions.read_text(encoding="utf-8").splitlines())


def test_a_decided_grade_off_the_scale_in_the_log_is_refused_naming_its_line(files, tmp_path):
    decisions = tmp_path / "decisions.jsonl"
    _decide_all(files, decisions)
    line = _hand_written(decisions, query="q2", doc="d4", grade=9)
    target = tmp_path / "merged.qrels"
    with pytest.raises(ValueError) as caught:
        merged_qrels(files, decisions, target)
    assert str(caught.value) == (
        f"{_where(decisions, line, 'q2', 'd4')}: grade 9 is not on the guideline's scale "
        "(0, 1, 2, 3)."
    )
    assert not target.exists()
    with pytest.raises(ValueError, match=re.escape(_where(decisions, line, "q2", "d4"))):
        _ = adjudicate(files, decisions).table


def test_a_decision_for_an_item_no_file_holds_is_refused_naming_it(files, tmp_path):
    decisions = tmp_path / "decisions.jsonl"
    _decide_all(files, decisions)
    _hand_written(decisions, query="qX", doc="zzz", grade=2)
    _hand_written(decisions, query="q1", doc="d99", grade=0)
    target = tmp_path / "merged.qrels"
    with pytest.raises(ValueError) as caught:
        merged_qrels(files, decisions, target)
    assert str(caught.value).startswith(
        f"{decisions}: 2 decision(s) for items no judgments file holds: "
        "query 'qX', document 'zzz'; query 'q1', document 'd99'. "
    )
    assert not target.exists()
    with pytest.raises(ValueError, match=re.escape("grade 7 is not on the guideline's scale")):
        _hand_written(decisions, query="qX", doc="zzz", grade=7)
        merged_qrels(files, decisions, target)
    with pytest.raises(ValueError, match=re.escape("query 'qX', document 'zzz': no annotator")):
        adjudicate(files, decisions).decide("qX", "zzz", 2, "R-PART", who="lead")


def test_a_missing_file_is_an_annotator_who_has_not_started(files, tmp_path):
    adjudication = adjudicate([*files, tmp_path / "nobody.jsonl"], tmp_path / "d.jsonl")
    assert adjudication.annotators == tuple(HISTORY)


def test_a_line_of_the_log_that_is_not_a_decision_is_an_error_naming_file_and_line(files, tmp_path):
    decisions = tmp_path / "decisions.jsonl"
    adjudicate(files, decisions=decisions).decide("q1", "d1", 3, "R-AUTH", "lead")
    record = json.loads(decisions.read_text(encoding="utf-8"))
    with decisions.open("a", encoding="utf-8") as file:
        file.write(json.dumps({**record, "grade": "3"}) + "\n")
    with pytest.raises(ValueError, match=re.escape(f"{decisions}, line 2: grade '3'")):
        _ = adjudicate(files, decisions=decisions).table
    decisions.write_text(json.dumps({**record, "who": ""}) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape("line 1: field 'who' is not a non-empty")):
        adjudicate(files, decisions=decisions).decisions()


def test_display_shows_the_headers_in_chinese_and_the_annotators_names(files, tmp_path):
    adjudication = adjudicate(files, decisions=tmp_path / "decisions.jsonl")
    shown = adjudication.display(lang="zh")
    expected = [
        tr(ADJUDICATION_HEADERS[key], lang="zh") if key in ADJUDICATION_HEADERS else key
        for key in adjudication.table.columns
    ]
    assert shown.columns.tolist() == expected
    assert tr("decided", lang="zh") != "decided"
    names = list(HISTORY)
    pd.testing.assert_frame_equal(
        pd.DataFrame(shown[names]), pd.DataFrame(adjudication.table[names]), check_dtype=False
    )
    assert adjudication.table.columns[0] == "query"  # the machine form keeps its keys
