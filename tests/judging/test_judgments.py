"""Judgments saved as they are made: replay after a restart, no mixing, no silent loss."""

from __future__ import annotations

import json
import re
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mapteach import read_qrels
from mapteach.judging.guideline import load_judging_set
from mapteach.judging.judging_board import JudgingBoard
from mapteach.judging.judgments import (
    Event,
    TruncatedLineWarning,
    append_event,
    load_judgments,
    read_events,
    to_qrels,
)

SET = load_judging_set()
DOCS = [[r.doc for r in q.results] for q in SET.queries]

OPERATION = st.one_of(
    st.tuples(
        st.just("grade"),
        st.integers(0, 9),
        st.integers(0, 3),
        st.sampled_from(["", "R-PART", "R-DUP: a copy", "因为"]),
    ),
    st.tuples(st.just("clear"), st.integers(0, 9)),
    st.tuples(st.just("reason"), st.integers(0, 9), st.sampled_from(["", "R-OLD", "new"])),
    st.tuples(st.just("move"), st.integers(0, len(SET.queries) - 1)),
)


def _apply(board: JudgingBoard, operation: tuple) -> None:
    kind, *args = operation
    if kind == "move":
        board.widget.position = args[0]
        return
    doc = DOCS[board.widget.position][args[0]]
    if kind == "grade":
        board.set_grade(doc, args[1], reason=args[2])
    elif kind == "clear":
        board.clear_grade(doc)
    elif board.widget.grades[args[0]] >= 0:  # a reason typed into a graded result
        reasons = list(board.widget.reasons)
        reasons[args[0]] = args[1]
        board.widget.set_state({"reasons": reasons})


def _state(board: JudgingBoard) -> dict[int, tuple[list[int], list[str]]]:
    """Grades and reasons of every query, read through the widget as the browser sees them."""
    state = {}
    for position in range(len(SET.queries)):
        board.widget.position = position
        state[position] = (list(board.widget.grades), list(board.widget.reasons))
    return state


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(OPERATION, max_size=30))
def test_a_restart_replays_to_the_same_state_and_the_file_only_grows(operations):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "judgments" / "alice.jsonl"
        board = JudgingBoard(annotator="alice", save_to=path)
        before = b""
        for operation in operations:
            _apply(board, operation)
            now = path.read_bytes() if path.exists() else b""
            assert now.startswith(before)  # appended to, never truncated or rewritten
            before = now
        restarted = JudgingBoard(annotator="alice", save_to=path)
        assert restarted.judgments == board.judgments == load_judgments(path)
        if board.judgments:  # resumes at the query judged last
            assert restarted.query == json.loads(before.splitlines()[-1])["query"]
        assert _state(restarted) == _state(board)


def test_every_change_is_one_line_with_the_fields(tmp_path):
    path = tmp_path / "alice.jsonl"
    board = JudgingBoard(save_to=path)
    board.set_grade("r3", 1, reason="R-OLD: repealed")
    board.clear_grade("r3")
    board.widget.set_state({"grades": [3, *[-1] * 9]})  # as a click in the browser
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [(x["doc"], x["grade"], x["reason"]) for x in lines] == [
        ("r3", 1, "R-OLD: repealed"),
        ("r3", None, ""),
        ("r1", 3, ""),
    ]
    assert {x["annotator"] for x in lines} == {"alice"}
    assert {x["guideline"] for x in lines} == {"2026.1"}
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", x["time"]) for x in lines)


def test_two_boards_in_threads_do_not_mix(tmp_path):
    boards = {
        name: JudgingBoard(annotator=name, save_to=tmp_path / f"{name}.jsonl")
        for name in ("alice", "bob")
    }
    grades = {"alice": [3, 0, 1, 3, 0, 2, 1, 0, 3, 1], "bob": [2, 1, 0, 2, 1, 3, 0, 1, 2, 0]}

    def judge(name: str) -> None:
        for _ in range(5):
            for doc, grade in zip(DOCS[0], grades[name], strict=True):
                board = boards[name]
                board.set_grade(doc, grade, reason=f"{name} says so")

    threads = [threading.Thread(target=judge, args=(name,)) for name in boards]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for name, board in boards.items():
        events = read_events(tmp_path / f"{name}.jsonl")
        assert {event.annotator for _, event in events} == {name}
        assert {event.reason for _, event in events} == {f"{name} says so"}
        assert load_judgments(tmp_path / f"{name}.jsonl") == board.judgments
        assert board.judgments == {
            SET.queries[0].query: dict(zip(DOCS[0], grades[name], strict=True))
        }


def _judge_two(path: Path) -> JudgingBoard:
    board = JudgingBoard(save_to=path)
    board.set_grade("r1", 3)
    board.set_grade("r2", 0)
    return board


def test_a_truncated_last_line_is_reported_and_repaired_on_the_next_write(tmp_path):
    path = tmp_path / "alice.jsonl"
    _judge_two(path)
    with open(path, "a", encoding="utf-8") as file:
        file.write('{"annotator": "alice", "query": "劳动仲裁赔偿标准", "doc": "r')
    size = path.stat().st_size
    with pytest.warns(TruncatedLineWarning, match=r"alice\.jsonl, line 3: cut short"):
        assert load_judgments(path) == {"劳动仲裁赔偿标准": {"r1": 3, "r2": 0}}
    with pytest.warns(TruncatedLineWarning, match="line 3"):
        board = JudgingBoard(save_to=path)
    board.set_grade("r9", 3)
    assert path.stat().st_size > size
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[3])["repairs_line"] == 3
    with pytest.warns(TruncatedLineWarning, match="line 3"):  # still reported, still ignored
        assert load_judgments(path) == {"劳动仲裁赔偿标准": {"r1": 3, "r2": 0, "r9": 3}}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("hello", r"alice\.jsonl, line 2: not JSON"),
        ("[1, 2]", r"line 2: expected a JSON object, got list"),
        ('{"grade": 1}', r"line 2: not a judgment \(missing fields \['annotator'"),
        (
            '{"annotator": "alice", "query": "q", "doc": "d", "grade": "2", "reason": "", '
            '"time": "2026-01-01T00:00:00+00:00", "guideline": "2026.1"}',
            r"line 2: field 'grade' is str '2', not an integer or null",
        ),
        (
            '{"annotator": "alice", "query": "q", "doc": "d", "grade": true, "reason": "", '
            '"time": "2026-01-01T00:00:00+00:00", "guideline": "2026.1"}',
            r"line 2: field 'grade' is bool True",
        ),
        (
            '{"annotator": "alice", "query": "q", "doc": "d", "grade": 1, "reason": "", '
            '"time": "yesterday", "guideline": "2026.1"}',
            r"line 2 \(query 'q', document 'd'\): time 'yesterday' is not ISO 8601",
        ),
    ],
)
def test_a_foreign_line_is_an_error_naming_file_and_line(tmp_path, line, message):
    path = tmp_path / "alice.jsonl"
    append_event(path, Event.now("alice", "q", "d", 1, "", "2026.1"))
    with open(path, "a", encoding="utf-8") as file:
        file.write(line + "\n")
    append_event(path, Event.now("alice", "q", "d", 2, "", "2026.1"))
    with pytest.raises(ValueError, match=message):
        load_judgments(path)


def test_a_complete_bad_last_line_is_an_error_not_a_warning(tmp_path):
    path = tmp_path / "alice.jsonl"
    _judge_two(path)
    with open(path, "a", encoding="utf-8") as file:
        file.write("not json\n")
    with pytest.raises(ValueError, match=r"line 3: not JSON"):
        load_judgments(path)


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (("bob", "劳动仲裁赔偿标准", "r1", 3, "2026.1"), r"judged by 'bob', not 'alice'"),
        (("alice", "劳动仲裁赔偿标准", "r1", 3, "2025.9"), r"under guideline '2025.9'"),
        (("alice", "劳动仲裁赔偿标准", "x7", 3, "2026.1"), r"document 'x7'\): the query has no"),
        (("alice", "其他", "r1", 3, "2026.1"), r"query '其他'.*no query '其他'"),
        (("alice", "劳动仲裁赔偿标准", "r1", 7, "2026.1"), r"grade 7 is not on the scale 0-3"),
    ],
)
def test_a_board_refuses_a_file_it_cannot_resume(tmp_path, event, message):
    path = tmp_path / "alice.jsonl"
    annotator, query, doc, grade, version = event
    append_event(path, Event.now(annotator, query, doc, grade, "", version))
    with pytest.raises(ValueError, match=message):
        JudgingBoard(save_to=path)


def test_to_qrels_round_trips_through_read_qrels(tmp_path):
    board = JudgingBoard(save_to=tmp_path / "alice.jsonl")
    for result in SET.queries[0].results:
        board.set_grade(result.doc, result.grade, reason=result.reason)
    board.next_query()
    board.set_grade("j1", 3)
    path = to_qrels(load_judgments(tmp_path / "alice.jsonl"), tmp_path / "alice.qrels")
    qrels = read_qrels(path)
    back: dict[str, dict[str, int]] = {}
    for row in qrels.itertuples():
        back.setdefault(row.query_id, {})[row.doc_id] = int(row.relevance)
    assert back == board.judgments
    with pytest.raises(ValueError, match=r"query 'a b', document 'd'.*white space"):
        to_qrels({"a b": {"d": 1}}, tmp_path / "bad.qrels")


def test_a_cut_inside_a_chinese_character_is_repaired_and_the_file_stays_readable(tmp_path):
    path = tmp_path / "a.jsonl"
    append_event(path, Event.now("a", "劳动仲裁赔偿标准", "r1", 3, "", "v1"))
    with open(path, "ab") as file:  # a crash in the middle of a multi-byte character
        file.write('{"annotator": "a", "query": "劳'.encode()[:-1])
    with pytest.warns(TruncatedLineWarning, match="line 2"):
        assert load_judgments(path) == {"劳动仲裁赔偿标准": {"r1": 3}}
    append_event(path, Event.now("a", "劳动仲裁赔偿标准", "r2", 1, "R-PART", "v1"))
    with pytest.warns(TruncatedLineWarning, match="line 2"):
        assert load_judgments(path) == {"劳动仲裁赔偿标准": {"r1": 3, "r2": 1}}


def test_an_unrepaired_undecodable_line_is_an_error_with_its_number(tmp_path):
    path = tmp_path / "a.jsonl"
    append_event(path, Event.now("a", "q", "r1", 3, "", "v1"))
    with open(path, "ab") as file:
        file.write(b"\xff\xfe\n")
    with pytest.raises(ValueError, match=r"line 2: not UTF-8 \(byte 1\)"):
        load_judgments(path)


@pytest.mark.parametrize(
    ("event", "match"),
    [
        (Event("a", "q", "d", True, "", "2026-11-30T00:00:00+00:00", "v1"), "grade"),
        (Event("a", "q", "d", -1, "", "2026-11-30T00:00:00+00:00", "v1"), "negative"),
        (Event("a", 7, "d", 1, "", "2026-11-30T00:00:00+00:00", "v1"), "query"),  # type: ignore[arg-type]
        (Event("a", "q", "d", 1, "", "yesterday", "v1"), "ISO 8601"),
    ],
)
def test_a_bad_event_is_refused_before_it_is_written(tmp_path, event, match):
    path = tmp_path / "a.jsonl"
    with pytest.raises(ValueError, match=match):
        append_event(path, event)
    assert not path.exists()


def test_to_qrels_refuses_ids_trec_eval_would_lose(tmp_path):
    with pytest.raises(ValueError, match="comment"):
        to_qrels({"#q": {"d": 1}}, tmp_path / "x.qrels")
    with pytest.raises(TypeError, match="query id is int"):
        to_qrels({7: {"d": 1}}, tmp_path / "x.qrels")
