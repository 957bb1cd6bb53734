"""One writer per file: sequence numbers, the last-line check, phases of kept judgments."""

from __future__ import annotations

import json

import pytest

from mapteach.judging.guideline import load_guideline, load_judging_set
from mapteach.judging.judgments import Event, Reveal, append_event, read_records, record_of
from mapteach.judging.judgments_writer import JudgmentsWriter

GUIDELINE = load_guideline()
SET = load_judging_set()
QUERY = SET.queries[0].query


def _writer(path) -> JudgmentsWriter:
    return JudgmentsWriter(path, "alice", GUIDELINE, SET)


def test_its_own_lines_never_look_like_another_writers(tmp_path):
    path = tmp_path / "alice.jsonl"
    writer = _writer(path)
    for index, doc in enumerate(["r1", "r2", "r1", "r3"]):
        assert writer.save(QUERY, doc, index % 4, "R-PART")
    writer.reveal(QUERY)
    assert writer.save(QUERY, "r2", None, "")
    assert not writer.read_only and writer.error == ""
    records = [record for _, record in read_records(path)]
    assert [record.seq for record in records] == [1, 2, 3, 4, 5, 6]
    assert isinstance(records[4], Reveal) and records[5].phase == "after_reveal"
    assert writer.last == records[-1]


def test_a_line_it_did_not_write_makes_it_read_only(tmp_path):
    path = tmp_path / "alice.jsonl"
    mine, other = _writer(path), _writer(path)
    assert mine.save(QUERY, "r1", 3, "")
    assert not other.save(QUERY, "r2", 0, "")
    assert other.read_only and other.judged == {QUERY: {"r1": (3, "")}}
    assert not other.save(QUERY, "r2", 0, "")  # and stays so
    other.reveal(QUERY)  # the answer is seen: noted, but not written
    assert other.phase(QUERY) == "after_reveal"
    assert len(read_records(path)) == 1


def test_the_same_sequence_number_from_two_writers_is_still_seen(tmp_path):
    path = tmp_path / "alice.jsonl"
    mine, other = _writer(path), _writer(path)
    assert mine.save(QUERY, "r1", 3, "")
    twin = read_records(path)[-1][1]
    with open(path, "a", encoding="utf-8") as file:  # another writer's line, same seq
        file.write(json.dumps(record_of(Event(**{**twin.__dict__, "doc": "r2"}))) + "\n")
    assert not mine.save(QUERY, "r3", 0, "")
    assert mine.read_only and mine.judged[QUERY] == {"r1": (3, ""), "r2": (3, "")}
    assert other.check_for_others()  # it has not tried to write: it is told all the same
    assert other.read_only and other.judged == mine.judged


def test_a_writer_that_only_looks_is_told_and_follows_the_file(tmp_path):
    path = tmp_path / "alice.jsonl"
    older = _writer(path)
    assert older.save(QUERY, "r1", 3, "")
    assert not older.check_for_others()  # its own line
    newer = _writer(path)
    assert newer.save(QUERY, "r1", 0, "")
    assert older.check_for_others() and older.read_only
    assert older.judged == {QUERY: {"r1": (0, "")}} == newer.judged
    assert not older.check_for_others()  # nothing new since
    newer.reveal(QUERY)
    assert newer.save(QUERY, "r2", 1, "R-PART")
    assert older.check_for_others() and older.judged == newer.judged
    assert older.revealed == {QUERY} and older.seq == newer.seq == 4
    assert not newer.check_for_others() and not newer.read_only
    assert len(read_records(path)) == 4  # looking never writes


def test_a_file_it_cannot_read_is_not_taken_for_another_writer(tmp_path):
    path = tmp_path / "alice.jsonl"
    writer = _writer(path)
    assert writer.save(QUERY, "r1", 3, "")
    with open(path, "a", encoding="utf-8") as file:
        file.write("hello\n")
    assert not writer.check_for_others()
    assert not writer.read_only and "line 2: not JSON" in writer.error


def test_a_file_that_no_longer_fits_is_an_error_not_a_write(tmp_path):
    path = tmp_path / "alice.jsonl"
    writer = _writer(path)
    assert writer.save(QUERY, "r1", 3, "")
    append_event(path, Event.now("bob", QUERY, "r2", 1, "", GUIDELINE.version))
    assert not writer.save(QUERY, "r3", 0, "")
    assert writer.read_only and "judged by 'bob', not 'alice'" in writer.error


def test_kept_judgments_are_checked_and_restored_in_order(tmp_path):
    writer = _writer(tmp_path / "alice.jsonl")
    entry = {
        "annotator": "alice",
        "query": QUERY,
        "doc": "r4",
        "grade": 2,
        "reason": "R-PART",
        "time": "2026-11-30T09:00:00Z",
        "guideline": GUIDELINE.version,
        "phase": "blind",
    }
    reveal = {key: entry[key] for key in ("annotator", "query", "time", "guideline")}
    events, refused = writer.kept(
        [entry, {**entry, "doc": "r5", "grade": 9}, {**reveal, "revealed": True}, {**entry, "x": 1}]
    )
    assert [event.doc for event in events] == ["r4"]
    assert [why.split(": ", 1)[1][:20] for why in refused] == [
        "grade 9 is not on th",
        "not a judgment.",
        "not a judgment (miss",
    ]
    assert writer.restore(events) == 1 and writer.restore(events) == 0
    assert writer.judged == {QUERY: {"r4": (2, "R-PART")}}


@pytest.mark.parametrize(
    ("kept", "written"), [("blind", "blind"), ("after_reveal", "after_reveal")]
)
def test_a_kept_phase_is_kept_unless_the_query_was_revealed_since(tmp_path, kept, written):
    path = tmp_path / "alice.jsonl"
    writer = _writer(path)
    event = Event(
        "alice", QUERY, "r1", 3, "", "2026-11-30T09:00:00Z", GUIDELINE.version, kept, None
    )
    writer.restore([event])
    assert read_records(path)[-1][1].phase == written
    writer.reveal(QUERY)
    writer.restore([Event(**{**event.__dict__, "doc": "r2", "phase": "blind"})])
    assert read_records(path)[-1][1].phase == "after_reveal"
