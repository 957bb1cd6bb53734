"""The judgments store: a stable file per annotator, phases, sequence numbers, no silent loss."""

from __future__ import annotations

import hashlib
import json
import re
import warnings
from pathlib import Path

import pytest

from mapteach import read_qrels
from mapteach.judging import judgments_file as public_judgments_file
from mapteach.judging.guideline import load_judging_set
from mapteach.judging.judging_board import JudgingBoard
from mapteach.judging.judgments import (
    Event,
    Reveal,
    TruncatedLineWarning,
    append_event,
    judgments_file,
    judgments_folder,
    last_record,
    load_judgments,
    read_events,
    read_records,
    record_of,
    to_qrels,
)

TIME = "2026-11-30T14:00:00Z"
SET = load_judging_set()


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


# --- where the files are -------------------------------------------------------------------


def test_the_folder_is_the_environments_else_under_home(monkeypatch, tmp_path):
    monkeypatch.setenv("MAPTEACH_JUDGMENTS", str(tmp_path / "team"))
    assert judgments_folder() == tmp_path / "team"
    monkeypatch.setenv("MAPTEACH_JUDGMENTS", "~/elsewhere")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert judgments_folder() == tmp_path / "home" / "elsewhere"
    monkeypatch.delenv("MAPTEACH_JUDGMENTS")
    assert judgments_folder() == tmp_path / "home" / ".mapteach" / "judgments"
    assert judgments_file("ada").parent == tmp_path / "home" / ".mapteach" / "judgments"


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("alice", "alice"),
        ("Mei Lin", "meilin"),
        ("a/b", "ab"),
        ("李雷", ""),
        ("José-Luis 2", "jos-luis2"),
    ],
)
def test_a_file_name_is_a_slug_and_a_hash_of_the_name(tmp_path, name, slug):
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:8]
    path = judgments_file(name, tmp_path)
    assert path == tmp_path / f"{slug}-{digest}.jsonl"
    assert re.fullmatch(r"[a-z0-9-]*-[0-9a-f]{8}\.jsonl", path.name)
    assert public_judgments_file(name, tmp_path) == path
    append_event(path, Event.now(name, "q", "d", 1, "", "v1"))  # a file like any other
    assert [event.annotator for _, event in read_events(path)] == [name]
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # "/" made no folder


def test_names_that_share_a_slug_get_files_of_their_own(tmp_path):
    names = ["Mei Lin", "meilin", "MEI LIN", "李雷", "王芳", "a/b", "ab"]
    assert len({judgments_file(name, tmp_path) for name in names}) == len(names)


@pytest.mark.parametrize("name", ["", "   ", None, 7])
def test_a_file_needs_a_name(name):
    with pytest.raises(ValueError, match="annotator must be a non-empty name"):
        judgments_file(name)


# --- phases, reveals and sequence numbers ----------------------------------------------------


def _old_line(doc: str, grade: int) -> str:
    """A line written before phases and sequence numbers existed."""
    fields = ("alice", "q", doc, grade, "", TIME, "v1")
    return json.dumps(
        dict(
            zip(
                ["annotator", "query", "doc", "grade", "reason", "time", "guideline"],
                fields,
                strict=True,
            )
        )
    )


def test_lines_without_a_phase_read_as_before_and_count_as_blind(tmp_path):
    path = tmp_path / "alice.jsonl"
    path.write_text(_old_line("d1", 1) + "\n" + _old_line("d2", 3) + "\n", encoding="utf-8")
    events = read_events(path)
    assert [(e.doc, e.phase, e.seq) for _, e in events] == [("d1", None, None), ("d2", None, None)]
    assert load_judgments(path) == load_judgments(path, phase="blind") == {"q": {"d1": 1, "d2": 3}}


def test_blind_judgments_are_the_state_before_each_reveal(tmp_path):
    path = tmp_path / "alice.jsonl"
    path.write_text(_old_line("d1", 1) + "\n", encoding="utf-8")
    lines = [
        Event("alice", "q", "d2", 2, "R-PART", TIME, "v1", "blind", 1),
        Reveal("alice", "q", TIME, "v1", 2),
        Event("alice", "q", "d1", 3, "", TIME, "v1", "after_reveal", 3),  # changed after
        Event("alice", "q", "d3", 0, "", TIME, "v1", "after_reveal", 4),  # judged after
        Event("alice", "q", "d2", None, "", TIME, "v1", "after_reveal", 5),  # cleared after
        Event("alice", "q2", "d1", 2, "x", TIME, "v1", "blind", 6),
    ]
    for line in lines:
        append_event(path, line)
    expected_blind: dict[str, dict[str, int]] = {}
    expected_all: dict[str, dict[str, int]] = {}
    for event in [Event("alice", "q", "d1", 1, "", TIME, "v1"), *lines]:  # replayed by hand
        if isinstance(event, Reveal):
            continue
        for state, counts in (
            (expected_all, True),
            (expected_blind, event.phase != "after_reveal"),
        ):
            if counts:
                docs = state.setdefault(event.query, {})
                if event.grade is None:
                    docs.pop(event.doc)
                else:
                    docs[event.doc] = event.grade
    assert (
        load_judgments(path, phase="blind")
        == expected_blind
        == {"q": {"d1": 1, "d2": 2}, "q2": {"d1": 2}}
    )
    assert load_judgments(path) == expected_all == {"q": {"d1": 3, "d3": 0}, "q2": {"d1": 2}}
    assert [record for _, record in read_records(path)][1:] == lines
    assert [event for _, event in read_events(path)][1:] == [
        e for e in lines if isinstance(e, Event)
    ]
    with pytest.raises(ValueError, match="phase must be None or 'blind'; got 'after_reveal'"):
        load_judgments(path, phase="after_reveal")


def test_a_record_leaves_out_what_it_does_not_know():
    old = Event("alice", "q", "d", None, "", TIME, "v1")
    assert set(record_of(old)) == {
        "annotator",
        "query",
        "doc",
        "grade",
        "reason",
        "time",
        "guideline",
    }
    assert record_of(old)["grade"] is None  # a clear keeps its null grade
    assert record_of(Reveal("alice", "q", TIME, "v1"))["revealed"] is True


@pytest.mark.parametrize(
    ("fields", "message", "writable"),
    [
        ({"phase": "later"}, r"line 1: phase 'later' is not one of blind, after_reveal", True),
        ({"phase": None}, r"line 1: field 'phase' is NoneType None, not a string", False),
        ({"seq": 0}, r"line 1: field 'seq' is int 0, not a positive integer", True),
        ({"seq": "3"}, r"line 1: field 'seq' is str '3', not a positive integer", True),
        ({"seq": True}, r"line 1: field 'seq' is bool True, not a positive integer", True),
        ({"extra": 1}, r"line 1: .*unknown fields \['extra'\]", False),
    ],
)
def test_a_bad_phase_or_sequence_number_is_an_error_naming_the_line(
    tmp_path, fields, message, writable
):
    path = tmp_path / "alice.jsonl"
    record = {**json.loads(_old_line("d1", 1)), **fields}
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        read_events(path)
    if writable:  # the same event is refused before it is written
        with pytest.raises(ValueError, match=message.replace("line 1", "the record to append")):
            append_event(tmp_path / "new.jsonl", Event(**record))
        assert not (tmp_path / "new.jsonl").exists()


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"revealed": False}, r"field 'revealed' is bool False, not true"),
        (
            {"revealed": True, "grade": 1},
            r"not a reveal \(missing fields \[\], unknown fields \['grade'\]",
        ),
        ({"revealed": True, "time": "later"}, r"\(query 'q'\): time 'later' is not ISO 8601"),
    ],
)
def test_a_bad_reveal_is_an_error(tmp_path, record, message):
    path = tmp_path / "alice.jsonl"
    reveal = {"annotator": "alice", "query": "q", "time": TIME, "guideline": "v1", **record}
    path.write_text(json.dumps(reveal) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        read_records(path)


# --- the last line, read cheaply -------------------------------------------------------------


def _numbered(path: Path, count: int, reason: str = "") -> list[Event]:
    events = [
        Event("alice", "q", f"d{i}", 1, reason, TIME, "v1", "blind", i) for i in range(1, count + 1)
    ]
    for event in events:
        append_event(path, event)
    return events


def test_the_last_record_is_the_last_line_read(tmp_path):
    path = tmp_path / "alice.jsonl"
    assert last_record(path) is None
    path.touch()
    assert last_record(path) is None
    events = _numbered(path, 3)
    assert last_record(path) == read_records(path)[-1][1] == events[-1]
    with open(path, "a", encoding="utf-8") as file:
        file.write("\n  \n")  # blank lines hold no record
    assert last_record(path) == events[-1]


def test_a_cut_last_line_is_passed_over_without_a_warning(tmp_path):
    path = tmp_path / "alice.jsonl"
    events = _numbered(path, 2)
    with open(path, "a", encoding="utf-8") as file:
        file.write(json.dumps(record_of(events[0]))[:-5])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert last_record(path) == events[-1]
    with pytest.warns(TruncatedLineWarning):
        assert read_records(path)[-1][1] == events[-1]


def test_a_whole_last_line_without_its_newline_is_the_last_record(tmp_path):
    path = tmp_path / "alice.jsonl"
    events = _numbered(path, 2)
    final = Event("alice", "q", "d9", 0, "", TIME, "v1", "blind", 3)
    with open(path, "a", encoding="utf-8") as file:
        file.write(json.dumps(record_of(final)))
    assert last_record(path) == final == read_records(path)[-1][1] != events[-1]


def test_a_line_longer_than_the_tail_is_read_from_the_whole_file(tmp_path):
    path = tmp_path / "alice.jsonl"
    events = _numbered(path, 3, reason="很长的理由" * 10_000)  # 150 kB a line
    assert len(path.read_bytes().splitlines()[-1]) > 1 << 16
    assert last_record(path) == events[-1]


def test_a_foreign_last_line_is_an_error_naming_it(tmp_path):
    path = tmp_path / "alice.jsonl"
    _numbered(path, 2)
    with open(path, "a", encoding="utf-8") as file:
        file.write("hello\n")
    with pytest.raises(ValueError, match=r"alice\.jsonl, line 3: not JSON"):
        last_record(path)
