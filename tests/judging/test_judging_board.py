"""The judging board: resume from a stable file, phases, one writer per file, replay."""

from __future__ import annotations

import json
import re
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mapteach.judging import JudgingBoard as PublicJudgingBoard
from mapteach.judging import assign
from mapteach.judging.guideline import load_judging_set
from mapteach.judging.judging_board import BoardStateError, JudgingBoard
from mapteach.judging.judgments import (
    Event,
    append_event,
    judgments_file,
    load_judgments,
    read_events,
    read_records,
)
from tests.budget import examples

SET = load_judging_set()
DOCS = [[r.doc for r in q.results] for q in SET.queries]
FIRST = SET.queries[0].query


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


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
        records = read_records(path)
        assert [record.seq for _, record in records] == list(range(1, len(records) + 1))
        assert not board.read_only and not restarted.read_only  # reading never writes


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


# --- a stable file, resumed by default ------------------------------------------------------


@pytest.mark.parametrize("annotator", ["Mei Lin", "a/b", "李雷"])
def test_a_board_without_save_to_keeps_and_resumes_the_annotators_file(
    monkeypatch, tmp_path, annotator
):
    monkeypatch.setenv("MAPTEACH_JUDGMENTS", str(tmp_path / "team"))
    board = PublicJudgingBoard(annotator=annotator)
    assert board.path == board.save_to == judgments_file(annotator, tmp_path / "team")
    assert board.widget.path == str(board.path.resolve())
    board.set_grade("r1", 3)
    board.next_query()
    board.set_grade("j2", 1, reason="R-PART")
    restarted = JudgingBoard(annotator=annotator)  # a restart and run-all
    assert restarted.judgments == {FIRST: {"r1": 3}, SET.queries[1].query: {"j2": 1}}
    assert restarted.query == SET.queries[1].query  # where it stopped
    assert restarted.widget.reasons[DOCS[1].index("j2")] == "R-PART"
    assert JudgingBoard(annotator=annotator, folder=tmp_path / "other").judgments == {}
    assert {event.annotator for _, event in read_events(board.path)} == {annotator}


def test_a_folder_with_a_plan_shows_the_annotator_only_their_queries(tmp_path):
    queries = [q.query for q in SET.queries]
    plan = assign(["ada", "bo"], queries, overlap=1, seed=3, folder=tmp_path)
    board = JudgingBoard(annotator="bo", folder=tmp_path)
    assert [q.query for q in board.queries] == plan["bo"] != queries
    assert board.widget.n_queries == len(plan["bo"]) and board.query == plan["bo"][0]
    assert board.path == judgments_file("bo", tmp_path)
    other = next(query for query in queries if query not in plan["bo"])
    with pytest.raises(ValueError, match="not among the queries assigned to 'bo'"):
        JudgingBoard(annotator="bo", folder=tmp_path, query=other)


# --- a new grade asks for its reason again --------------------------------------------------


def test_a_new_grade_clears_its_reason(tmp_path):
    board = JudgingBoard(save_to=tmp_path / "alice.jsonl")
    board.set_grade("r4", 2, reason="R-PART: the amount only")
    assert board.incomplete == []
    board.set_grade("r4", 1)
    assert board.widget.reasons[3] == "" and board.incomplete == ["r4"]
    last = read_events(board.path)[-1][1]
    assert (last.doc, last.grade, last.reason) == ("r4", 1, "")


# --- phases --------------------------------------------------------------------------------


def _kinds(path: Path) -> list[tuple]:
    return [
        (type(r).__name__, r.query[:2], getattr(r, "doc", None), getattr(r, "phase", None))
        for _, r in read_records(path)
    ]


def test_changes_after_the_reveal_are_marked_and_left_out_of_the_blind_state(tmp_path):
    path = tmp_path / "alice.jsonl"
    board = JudgingBoard(save_to=path)
    board.set_grade("r1", 1, reason="R-PART")
    assert board.phase == "blind"
    board.reveal()
    assert board.phase == "after_reveal" and board.widget.revealed == [FIRST]
    board.set_grade("r1", 3)
    board.set_grade("r2", 0)
    board.next_query()
    assert board.phase == "blind"  # another query, not revealed
    board.set_grade("j1", 3)
    assert _kinds(path) == [
        ("Event", "劳动", "r1", "blind"),
        ("Reveal", "劳动", None, None),
        ("Event", "劳动", "r1", "after_reveal"),
        ("Event", "劳动", "r2", "after_reveal"),
        ("Event", SET.queries[1].query[:2], "j1", "blind"),
    ]
    assert load_judgments(path, phase="blind") == {
        FIRST: {"r1": 1},
        SET.queries[1].query: {"j1": 3},
    }
    board.widget.position = 0  # back to the revealed query: the box is unticked, the answer seen
    assert not board.widget.show_reference and board.phase == "after_reveal"


def test_a_reveal_is_remembered_by_the_next_session(tmp_path):
    path = tmp_path / "alice.jsonl"
    JudgingBoard(save_to=path).reveal()  # shown, nothing changed after
    restarted = JudgingBoard(save_to=path)
    assert restarted.phase == "after_reveal"
    restarted.set_grade("r1", 3)
    assert _kinds(path)[-1] == ("Event", "劳动", "r1", "after_reveal")
    restarted.reveal()  # shown again: no second reveal line
    assert [kind for kind, *_ in _kinds(path)] == ["Reveal", "Event"]


def test_a_finished_query_reveals_itself_once(tmp_path):
    path = tmp_path / "alice.jsonl"
    board = JudgingBoard(save_to=path)
    for result in SET.queries[0].results:
        board.set_grade(result.doc, result.grade, reason=result.reason)
    assert board.widget.show_reference
    assert [kind for kind, *_ in _kinds(path)] == ["Event"] * 10 + ["Reveal"]
    board.clear_grade("r1")
    board.set_grade("r1", 3)  # finished again: already revealed
    assert [kind for kind, *_ in _kinds(path)] == ["Event"] * 10 + ["Reveal", "Event", "Event"]
    assert _kinds(path)[-1][-1] == "after_reveal"


# --- one writer per file ----------------------------------------------------------------------


def test_every_line_numbers_on_from_the_last_one_read(tmp_path):
    path = tmp_path / "alice.jsonl"
    board = JudgingBoard(save_to=path)
    board.set_grade("r1", 3)
    board.set_grade("r2", 0)
    JudgingBoard(save_to=path).set_grade("r3", 0)  # the next session goes on counting
    assert [record.seq for _, record in read_records(path)] == [1, 2, 3]


def test_a_second_board_on_one_file_turns_read_only_and_shows_the_file(tmp_path):
    path = tmp_path / "alice.jsonl"
    first, second = JudgingBoard(save_to=path), JudgingBoard(save_to=path)
    first.set_grade("r1", 3)
    before = path.read_bytes()
    with pytest.raises(BoardStateError, match="another board wrote to this file"):
        second.set_grade("r2", 0)
    assert path.read_bytes() == before  # the second wrote nothing
    assert second.read_only and second.widget.read_only
    assert second.judgments == first.judgments == {FIRST: {"r1": 3}}
    assert second.widget.grades == [3, *[-1] * 9]  # the screen shows the file
    assert second.widget.saved == {FIRST: {"r1": [3, ""]}}
    with pytest.raises(BoardStateError, match="read-only"):
        second.set_grade("r5", 0)
    second.widget.set_state({"grades": [3, 0, *[-1] * 8]})  # a click in the browser
    assert second.widget.grades == [3, *[-1] * 9] and path.read_bytes() == before
    first.set_grade("r2", 0)  # the first goes on: it wrote the last line
    assert not first.read_only and load_judgments(path) == {FIRST: {"r1": 3, "r2": 0}}


def test_another_program_appending_is_seen_too(tmp_path):
    path = tmp_path / "alice.jsonl"
    board = JudgingBoard(save_to=path)
    board.set_grade("r1", 3)
    append_event(path, Event.now("alice", FIRST, "r9", 0, "", "2026.1"))  # no seq
    with pytest.raises(BoardStateError):
        board.set_grade("r2", 0)
    assert board.judgments == {FIRST: {"r1": 3, "r9": 0}}


def test_a_file_that_cannot_be_written_leaves_the_row_unsaved(tmp_path):
    path = tmp_path / "alice.jsonl"
    path.mkdir()  # a folder where the file should be
    board = JudgingBoard(save_to=tmp_path / "elsewhere.jsonl")
    board.file.path = path
    with pytest.raises(OSError, match="Could not write to"):
        board.set_grade("r1", 3)
    assert board.widget.save_error.startswith("Could not write to")
    assert board.judgments == {} and board.widget.saved == {}
    assert 'data-saved="false"' in board._repr_mimebundle_()[0]["text/html"]


# --- judgments the browser kept -------------------------------------------------------------


def _kept(doc, grade, reason="", phase="blind", annotator="alice", time="2026-11-30T09:00:00Z"):
    """A judgment as the browser keeps and sends it."""
    return {
        "annotator": annotator,
        "query": FIRST,
        "doc": doc,
        "grade": grade,
        "reason": reason,
        "time": time,
        "guideline": "2026.1",
        "phase": phase,
    }


def _replay(board: JudgingBoard, entries: list) -> None:
    """What the board's *replay* button sends."""
    board.widget._handle_custom_msg({"kind": "replay", "entries": entries}, [])


def test_a_new_board_replays_what_the_browser_kept(tmp_path):
    path = tmp_path / "alice.jsonl"
    JudgingBoard(save_to=path).set_grade("r1", 3)
    board = JudgingBoard(save_to=path)  # a restarted kernel
    kept = [
        _kept("r1", 3),  # the file has it already
        _kept("r4", 2, "R-PART"),
        _kept("r5", 0, annotator="bob"),  # not this board's
        _kept("r6", 1, "R-OLD", phase="after_reveal"),
        "garbage",
    ]
    _replay(board, kept)
    assert board.judgments == load_judgments(path) == {FIRST: {"r1": 3, "r4": 2, "r6": 1}}
    events = [event for _, event in read_events(path)]
    assert [(e.doc, e.time, e.phase, e.seq) for e in events[1:]] == [
        ("r4", "2026-11-30T09:00:00Z", "blind", 2),
        ("r6", "2026-11-30T09:00:00Z", "after_reveal", 3),
    ]
    assert board.widget.grades[3] == 2 and board.widget.saved[FIRST]["r4"] == [2, "R-PART"]
    notice = board.widget.notice.splitlines()
    assert notice[0] == "Judgments replayed into the file: 2."
    assert "judged by 'bob', not 'alice'" in notice[1] and "expected a JSON object" in notice[2]
    _replay(board, kept)  # twice: nothing new
    assert len(read_events(path)) == 3


def test_a_kept_blind_judgment_of_a_query_revealed_since_counts_as_after_the_reveal(tmp_path):
    board = JudgingBoard(save_to=tmp_path / "alice.jsonl")
    board.reveal()
    _replay(board, [_kept("r2", 0)])
    assert read_events(board.path)[-1][1].phase == "after_reveal"


def test_a_downloaded_file_is_restored_whole_or_not_at_all(tmp_path):
    board = JudgingBoard(save_to=tmp_path / "alice.jsonl")
    download = tmp_path / "alice-unsaved.jsonl"
    download.write_text(
        "".join(json.dumps(e) + "\n" for e in [_kept("r1", 3), _kept("r2", None)]),
        encoding="utf-8",
    )
    assert board.restore(download) == 1  # a clear of what the file lacks writes nothing
    assert board.judgments == {FIRST: {"r1": 3}}
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text(
        "".join(json.dumps(e) + "\n" for e in [_kept("r3", 0), _kept("x9", 0)]), encoding="utf-8"
    )
    with pytest.raises(ValueError, match=r"line 2 \(query '劳动仲裁赔偿标准', document 'x9'\)"):
        board.restore(wrong)
    assert board.judgments == {FIRST: {"r1": 3}}


def test_the_static_html_says_which_rows_are_saved(tmp_path):
    board = JudgingBoard(save_to=tmp_path / "alice.jsonl")
    board.set_grade("r1", 3)
    rows = re.findall(
        r'<li data-doc="(\w+)" data-saved="(true|false)">',
        board._repr_mimebundle_()[0]["text/html"],
    )
    assert len(rows) == 10 and all(saved == "true" for _, saved in rows)


def test_a_chinese_board_shows_each_chinese_snippet_once_and_an_english_one_glosses_it(tmp_path):
    english = load_judging_set(lang="en").queries[0]
    chinese = JudgingBoard(save_to=tmp_path / "zh.jsonl", lang="zh")
    assert chinese.widget.gloss == ""
    assert [item["gloss"] for item in chinese.widget.items] == [""] * len(english.results)
    page = chinese._repr_mimebundle_()[0]["text/html"]
    assert "<i>" not in page
    assert all(page.count(r.text) == 1 for r in english.results)
    glossed = JudgingBoard(save_to=tmp_path / "en.jsonl", lang="en")
    assert glossed.widget.gloss == english.gloss
    assert [item["gloss"] for item in glossed.widget.items] == [r.gloss for r in english.results]


def test_the_kernel_answers_a_browser_asking_whether_it_is_there(tmp_path):
    board = JudgingBoard(save_to=tmp_path / "alice.jsonl")
    sent: list = []
    board.widget.send = lambda content, buffers=None: sent.append(content)
    board.widget._handle_custom_msg({"kind": "ping"}, [])
    board.widget._handle_custom_msg({"kind": "something else"}, [])
    assert sent == [{"kind": "pong"}]


def test_a_ping_tells_an_older_board_that_a_newer_one_wrote(tmp_path):
    path = tmp_path / "alice.jsonl"
    older = JudgingBoard(save_to=path)
    older.set_grade("r1", 3)
    newer = JudgingBoard(save_to=path)
    newer.set_grade("r1", 0)
    sent: list = []
    older.widget.send = lambda content, buffers=None: sent.append(
        (content, older.widget.read_only, list(older.widget.grades))
    )
    older.widget._handle_custom_msg({"kind": "ping"}, [])
    file_grades = [load_judgments(path)[FIRST].get(doc, -1) for doc in DOCS[0]]
    assert sent == [({"kind": "pong"}, True, file_grades)]  # told before it answers
    assert older.read_only and older.widget.saved == {FIRST: {"r1": [0, ""]}}
    with pytest.raises(BoardStateError, match="read-only"):
        older.set_grade("r2", 0)
    newer.set_grade("r2", 1, reason="R-PART")  # the newer goes on; the older follows
    older.widget._handle_custom_msg({"kind": "ping"}, [])
    assert older.widget.reasons[1] == "R-PART" and older.judgments == newer.judgments
    newer.widget._handle_custom_msg({"kind": "ping"}, [])
    assert not newer.read_only and not newer.widget.read_only


def test_the_report_covers_the_blind_judgments_of_the_assigned_queries(tmp_path):
    queries = [q.query for q in SET.queries]
    plan = assign(["ada", "bo"], queries, overlap=1, seed=3, folder=tmp_path)
    board = JudgingBoard(annotator="ada", folder=tmp_path)
    first = board.queries[0]
    for result in first.results[:4]:
        board.set_grade(result.doc, result.grade, reason=result.reason)
    board.reveal()
    board.set_grade(first.results[4].doc, first.results[4].grade, reason="copied")
    report = board.report()
    assert int(report.confusion.to_numpy().sum()) == 4  # the change after the reveal: not scored
    assert report.after_reveal == 1 and report.accuracy == 1.0
    assert report.missing == sum(len(SET.find(q).results) for q in plan["ada"]) - 4


@pytest.mark.parametrize("save_to", [None, "alice.jsonl"])
def test_a_board_needs_an_annotators_name(tmp_path, save_to):
    with pytest.raises(ValueError, match=r"annotator must be a non-empty name; got ' '"):
        JudgingBoard(annotator=" ", save_to=save_to and tmp_path / save_to)


@pytest.mark.parametrize(
    ("lang", "heading_end", "repr_start"),
    [("zh", "标注员：你", "JudgingBoard(你，"), ("en", "judged by you", "JudgingBoard(you, ")],
)
def test_the_learners_board_calls_them_you_in_their_language_and_the_file_keeps_the_name(
    monkeypatch, tmp_path, lang, heading_end, repr_start
):
    monkeypatch.setenv("MAPTEACH_JUDGMENTS", str(tmp_path))
    board = JudgingBoard(annotator="you", lang=lang)
    board.set_grade("r1", 3)
    heading = re.search(r"<p>(.*?)</p>", board._repr_mimebundle_()[0]["text/html"])
    assert heading is not None and heading.group(1).endswith(heading_end)
    assert repr(board).startswith(repr_start)
    assert board.path.name.startswith("you-")
    assert [event.annotator for _, event in read_events(board.path)] == ["you"]


def test_any_other_annotator_is_shown_by_the_name_they_gave(tmp_path):
    board = JudgingBoard(annotator="hao", save_to=tmp_path / "hao.jsonl", lang="zh")
    assert "标注员：hao</p>" in board._repr_mimebundle_()[0]["text/html"]
    assert repr(board).startswith("JudgingBoard(hao，")
