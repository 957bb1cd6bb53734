"""The append-only log: appends, crashes, blank lines and re-opens against a simple model,
for both of its users; writers at once; the lock; and times read the same on every Python.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import threading
import warnings
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mapteach import log
from mapteach.classroom import progress_log
from mapteach.i18n import language
from mapteach.judging import judgments
from tests.budget import examples

# --- the two users of the log ------------------------------------------------------------


@dataclass(frozen=True)
class User:
    """One store over the log: how it appends a record and reads the file back."""

    name: str
    payloads: st.SearchStrategy
    append: Callable[[Path, Any], dict[str, Any]]  # returns the record as it reads back
    read: Callable[[Path, bool], list[tuple[int, dict[str, Any]]]]
    example: dict[str, Any]  # a record whose bytes a crash cuts short
    redo: str  # what the cut-line warning asks for


def _append_check(path: Path, payload: tuple) -> dict[str, Any]:
    who, notebook, exercise, answer, verdict = payload
    return progress_log.record_check(notebook, exercise, answer, verdict, learner=who, path=path)


def _read_checks(path: Path, skip_corrupt: bool) -> list[tuple[int, dict[str, Any]]]:
    table = progress_log.read_progress(path, skip_corrupt=skip_corrupt)
    return [
        (row["line"], {name: row[name] for name in progress_log.FIELDS})
        for row in table.to_dict("records")
    ]


def _append_event(path: Path, payload: tuple) -> dict[str, Any]:
    event = judgments.Event.now("alice", *payload, "2026.1")
    judgments.append_event(path, event)
    return asdict(event)


def _read_events(path: Path, skip_corrupt: bool) -> list[tuple[int, dict[str, Any]]]:
    if skip_corrupt:  # the store itself always raises; the log can skip
        events = log.read(path, judgments.JUDGMENTS, skip_corrupt=True)
    else:
        events = judgments.read_events(path)
    return [(line, asdict(event)) for line, event in events]


TEXT = st.one_of(
    st.text(max_size=8), st.sampled_from(["平均精度", 'a "quote"\n', "\\", "\u2028", "\ud800"])
)
PROGRESS = User(
    "progress",
    st.tuples(
        st.sampled_from(["ada", " 李雷 ", "O'Brien"]),
        st.sampled_from(["03_ap", "笔记本"]),
        st.sampled_from(["ap-1", "练习 2"]),
        TEXT,
        st.sampled_from(progress_log.VERDICTS),
    ),
    _append_check,
    _read_checks,
    {
        "learner": "李雷",
        "notebook": "03_ap",
        "exercise": "ap-1",
        "answer": "平均精度 0.8056",
        "verdict": "correct",
        "time": "2026-01-02T03:04:05Z",
    },
    "Check that answer again.",
)
JUDGMENTS = User(
    "judgments",
    st.tuples(
        st.sampled_from(["劳动仲裁赔偿标准", "q2"]),
        st.sampled_from(["r1", "r2", "文档"]),
        st.one_of(st.none(), st.integers(0, 3)),
        TEXT,
    ),
    _append_event,
    _read_events,
    {
        "annotator": "alice",
        "query": "劳动仲裁赔偿标准",
        "doc": "r1",
        "grade": 2,
        "reason": "R-PART: 只有金额",
        "time": "2026-01-02T03:04:05+08:00",
        "guideline": "2026.1",
        "phase": "blind",
        "seq": 3,
    },
    "Judge it again.",
)


# --- the model ---------------------------------------------------------------------------


@dataclass
class Model:
    """What the file must read as: lines counted by hand, never by parsing the file."""

    newlines: int = 0
    tail: bytes = b""  # the last line, when no newline ends it
    tail_record: dict[str, Any] | None = None  # set if the tail is one whole record
    records: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    cut: list[int] = field(default_factory=list)  # cut lines a repair note names
    broken: list[int] = field(default_factory=list)  # cut lines ended by someone else

    def end_tail(self) -> None:
        """The tail gets its newline: a whole record stays one, anything else is lost."""
        line = self.newlines + 1
        if self.tail_record is not None:
            self.records.append((line, self.tail_record))
        self.newlines += 1
        self.tail, self.tail_record = b"", None

    def append(self, record: dict[str, Any]) -> None:
        if self.tail:  # ended, then a repair note on a line of its own
            if self.tail_record is None:
                self.cut.append(self.newlines + 1)
            self.end_tail()
            self.newlines += 1
        self.records.append((self.newlines + 1, record))
        self.newlines += 1

    def crash(self, data: bytes, record: dict[str, Any] | None) -> None:
        self.tail_record = record if not self.tail else None
        self.tail += data

    def blank(self) -> None:
        if self.tail and self.tail_record is None:
            self.broken.append(self.newlines + 1)
        self.end_tail()

    def expected(self) -> tuple[list[tuple[int, dict[str, Any]]], list[int]]:
        """The records read, and the lines warned about as cut short."""
        last = self.newlines + 1
        if self.tail and self.tail_record is not None:
            return [*self.records, (last, self.tail_record)], self.cut
        return self.records, [*self.cut, *([last] if self.tail else [])]


def _encoded(record: dict[str, Any]) -> bytes:
    return json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n"


OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("append"), st.integers(0, 2**16)),  # the payload's seed
        st.tuples(st.just("crash"), st.integers(1, 2**16)),  # where the write stops
        st.tuples(st.just("blank"), st.sampled_from([b"", b" ", b"\t ", b"\r"])),
        st.tuples(st.just("reopen"), st.booleans()),  # skip_corrupt
    ),
    max_size=25,
)


def _check_reads(user: User, path: Path, model: Model, skip_corrupt: bool) -> None:
    records, cut = model.expected()
    if model.broken and not skip_corrupt:
        where = re.escape(f"{path}, line {model.broken[0]}: not ")
        with warnings.catch_warnings(), pytest.raises(ValueError, match=f"^{where}(JSON|UTF-8)"):
            warnings.simplefilter("ignore", log.TruncatedLineWarning)
            user.read(path, False)
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert user.read(path, skip_corrupt) == records
    truncated = [w for w in caught if issubclass(w.category, log.TruncatedLineWarning)]
    corrupt = [w for w in caught if issubclass(w.category, log.CorruptLineWarning)]
    assert len(truncated) + len(corrupt) == len(caught)
    assert [int(re.findall(r"line (\d+)", str(w.message))[0]) for w in truncated] == cut
    assert all(str(w.message).endswith(f"ignored. {user.redo}") for w in truncated)
    assert [int(re.findall(r"line (\d+)", str(w.message))[0]) for w in corrupt] == model.broken


@pytest.mark.parametrize("user", [PROGRESS, JUDGMENTS], ids=lambda user: user.name)
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(operations=OPERATIONS, data=st.data())
def test_appends_crashes_blank_lines_and_reopens_read_as_the_model_says(user, operations, data):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.jsonl"
        path.touch()
        model = Model()
        for kind, argument in operations:
            before = path.read_bytes()
            if kind == "append":
                model.append(user.append(path, data.draw(user.payloads)))
            elif kind == "crash":  # a write that stops before its newline
                whole = _encoded(user.example)
                stop = argument % (len(whole) - 1) + 1
                model.crash(whole[:stop], user.example if stop == len(whole) - 1 else None)
                with open(path, "ab") as file:
                    file.write(whole[:stop])
            elif kind == "blank":  # another program ends the line
                model.blank()
                with open(path, "ab") as file:
                    file.write(argument + b"\n")
            else:
                _check_reads(user, path, model, skip_corrupt=argument)
            assert path.read_bytes().startswith(before)  # nothing rewritten, ever
        _check_reads(user, path, model, skip_corrupt=False)
        _check_reads(user, path, model, skip_corrupt=True)


# --- writing -----------------------------------------------------------------------------


def _note(record: Any, where: str) -> dict[str, Any]:
    if not isinstance(record, dict) or set(record) != {"who", "i", "text"}:
        raise ValueError(f"{where}: not a note")
    return record


NOTES = log.Schema("notes", _note, "Write it again.")

WRITER = textwrap.dedent(
    """
    import os, sys, time
    from mapteach import log
    def note(record, where):
        if not isinstance(record, dict) or set(record) != {"who", "i", "text"}:
            raise ValueError(f"{where}: not a note")
        return record
    path, who, go = sys.argv[1:4]
    while not os.path.exists(go):
        time.sleep(0.001)
    for i in range(500):
        record = {"who": who, "i": i, "text": "平均精度" * 300 + who}
        log.append(path, record, log.Schema("notes", note, ""))
    """
)


def test_two_processes_appending_500_records_each_lose_nothing_and_never_interleave(tmp_path):
    path, go = tmp_path / "shared.jsonl", tmp_path / "go"
    path.write_bytes(b'{"who": "crashed", "i"')  # a cut line: exactly one writer repairs it
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), who, str(go)])
        for who in ("p", "q")
    ]
    go.touch()
    assert [writer.wait(timeout=300) for writer in writers] == [0, 0]
    lines = path.read_bytes().split(b"\n")
    assert lines[0] == b'{"who": "crashed", "i"' and lines[-1] == b""
    assert json.loads(lines[1])["repairs_line"] == 1
    records = [json.loads(line) for line in lines[2:-1]]
    for who in ("p", "q"):
        mine = [record for record in records if record["who"] == who]
        assert mine == [{"who": who, "i": i, "text": "平均精度" * 300 + who} for i in range(500)]
    assert len(records) == 1000
    with pytest.warns(log.TruncatedLineWarning, match="line 1: cut short"):
        assert [line for line, _ in log.read(path, NOTES)] == list(range(3, 1003))


def test_one_os_write_per_record_and_a_short_write_is_a_cut_line_the_next_append_repairs(
    tmp_path, monkeypatch
):
    path = tmp_path / "log.jsonl"
    real_write = os.write
    calls: list[int] = []

    def counted(fd: int, data: bytes) -> int:
        calls.append(len(data))
        return real_write(fd, data)

    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(log.os, "write", counted)
    monkeypatch.setattr(log.os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))
    log.append(path, {"who": "a", "i": 0, "text": "x"}, NOTES)
    assert calls == [path.stat().st_size]
    assert len(synced) == 2  # the record, then the folder holding the new file's name

    def short(fd: int, data: bytes) -> int:
        return real_write(fd, data[: len(data) // 2])

    monkeypatch.setattr(log.os, "write", short)
    with pytest.raises(OSError, match=rf"^{re.escape(str(path))}: only \d+ of \d+ bytes"):
        log.append(path, {"who": "b", "i": 1, "text": "平均精度"}, NOTES)
    monkeypatch.setattr(log.os, "write", counted)
    calls.clear()
    log.append(path, {"who": "c", "i": 2, "text": "y"}, NOTES)  # note and record: one write
    assert len(calls) == 1
    lines = path.read_bytes().split(b"\n")
    assert json.loads(lines[2]) == {"repairs_line": 2, "time": json.loads(lines[2])["time"]}
    with pytest.warns(log.TruncatedLineWarning, match="line 2: cut short"):
        assert [(line, note["who"]) for line, note in log.read(path, NOTES)] == [(1, "a"), (4, "c")]


@pytest.mark.parametrize("existing", [None, b"", b'{"who": "a", "i": 0, "text": "x"}\n{"who"'])
def test_a_record_the_schema_refuses_never_reaches_the_file(tmp_path, existing):
    path = tmp_path / "folder" / "log.jsonl"
    if existing is not None:
        path.parent.mkdir()
        path.write_bytes(existing)
    for record in [{"who": "a"}, {"who": "a", "i": 0, "text": "x", "extra": 1}]:
        with pytest.raises(ValueError, match=rf"^{re.escape(str(path))}, the record to append"):
            log.append(path, record, NOTES)
    assert (path.read_bytes() if path.exists() else None) == existing


def _finishes_while_locked(path: Path, how: int, work: Callable[[], object]) -> bool:
    """Whether ``work`` finishes while another descriptor holds the file's lock ``how``."""
    import fcntl

    fd = os.open(path, os.O_RDONLY)
    fcntl.flock(fd, how)
    done = threading.Event()
    thread = threading.Thread(target=lambda: (work(), done.set()))
    thread.start()
    finished = done.wait(0.5)
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)
    thread.join(timeout=30)
    assert done.is_set()
    return finished


@pytest.mark.skipif(sys.platform == "win32", reason="the test holds the lock with flock")
def test_appends_wait_for_the_lock_and_readers_share_it(tmp_path):
    import fcntl

    path = tmp_path / "log.jsonl"
    log.append(path, {"who": "a", "i": 0, "text": "x"}, NOTES)
    size = path.stat().st_size

    def append() -> None:
        log.append(path, {"who": "b", "i": 1, "text": "y"}, NOTES)

    assert not _finishes_while_locked(path, fcntl.LOCK_SH, append)
    assert path.stat().st_size > size
    assert not _finishes_while_locked(path, fcntl.LOCK_EX, lambda: log.read(path, NOTES))
    assert _finishes_while_locked(path, fcntl.LOCK_SH, lambda: log.read(path, NOTES))


# --- reading -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"who": "a", "i": 0, "text": "x"}\n\xff\n', r"line 2: not UTF-8 \(byte 1\)\.$"),
        (b"\n\n[1]\n", r"line 3: not a note$"),
        (b'{"repairs_line": true, "time": "x"}\n', r"line 1: not a note$"),
        (b'{"who": "a", "i": 0, "text": "x"}\n{\n', r"line 2: not JSON \(Expecting property name"),
    ],
)
def test_errors_name_the_file_and_the_line(tmp_path, data, message):
    path = tmp_path / "log.jsonl"
    path.write_bytes(data + b'{"who": "z", "i": 9, "text": ""}\n')
    with pytest.raises(ValueError, match=f"^{re.escape(str(path))}, {message}"):
        log.read(path, NOTES)


def test_a_missing_file_is_an_error_unless_missing_is_ok(tmp_path):
    assert log.read(tmp_path / "none.jsonl", NOTES, missing_ok=True) == []
    with pytest.raises(ValueError, match=r"none\.jsonl: no such notes file\.$"):
        log.read(tmp_path / "none.jsonl", NOTES)
    with language("zh"), pytest.raises(ValueError, match=r"none\.jsonl：没有这个进度文件。$"):
        progress_log.read_progress(tmp_path / "none.jsonl")
    folder = re.escape(str(tmp_path))
    with (
        language("zh"),
        pytest.raises(ValueError, match=f"^{folder}：这是一个文件夹，不是标注文件"),
    ):
        judgments.read_events(tmp_path)


# --- the last record ---------------------------------------------------------------------

LAST_OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("append"), st.sampled_from([0, 1, 40, 70_000])),  # text length
        st.tuples(st.just("crash"), st.integers(0, 2**16)),  # where the write stops; 0: whole
        st.tuples(st.just("blank"), st.sampled_from([b"\n", b" \n\t\n", b"\r\n"])),
    ),
    max_size=12,
)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(operations=LAST_OPERATIONS)
def test_last_is_the_last_record_the_model_says(operations):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.jsonl"
        assert log.last(path, NOTES) is None
        path.touch()
        model = Model()
        for number, (kind, argument) in enumerate(operations):
            if kind == "append":
                record = {"who": "a", "i": number, "text": "平" * argument}
                log.append(path, record, NOTES)
                model.append(record)
            elif kind == "crash":
                whole = _encoded({"who": "c", "i": number, "text": "均"})
                stop = argument % (len(whole) - 1) + 1 if argument else len(whole) - 1
                model.crash(whole[:stop], json.loads(whole) if stop == len(whole) - 1 else None)
                with open(path, "ab") as file:
                    file.write(whole[:stop])
            elif not model.tail:  # blank lines, never ending a cut line
                model.blank()
                model.newlines += argument.count(b"\n") - 1
                with open(path, "ab") as file:
                    file.write(argument)
            records, _ = model.expected()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", log.TruncatedLineWarning)  # a full read's
                assert log.last(path, NOTES) == (records[-1][1] if records else None)


def test_last_passes_over_a_cut_line_silently_and_reads_a_foreign_one_whole(tmp_path):
    path = tmp_path / "log.jsonl"
    first, second = ({"who": "a", "i": i, "text": "x"} for i in range(2))
    for record in (first, second):
        log.append(path, record, NOTES)
    with open(path, "ab") as file:
        file.write(b'\n  \n{"who": "b", "i"')
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert log.last(path, NOTES) == second
    with open(path, "ab") as file:
        file.write(b': 2, "text": ""}')  # the line, whole without its newline, is a record
    assert log.last(path, NOTES) == {"who": "b", "i": 2, "text": ""}
    with open(path, "ab") as file:
        file.write(b"\nhello\n")
    with pytest.raises(ValueError, match=rf"^{re.escape(str(path))}, line 6: not JSON"):
        log.last(path, NOTES)


@pytest.mark.skipif(sys.platform == "win32", reason="the test holds the lock with flock")
def test_last_waits_for_a_writer_and_shares_the_lock_with_readers(tmp_path):
    import fcntl

    path = tmp_path / "log.jsonl"
    log.append(path, {"who": "a", "i": 0, "text": "x"}, NOTES)
    assert not _finishes_while_locked(path, fcntl.LOCK_EX, lambda: log.last(path, NOTES))
    assert _finishes_while_locked(path, fcntl.LOCK_SH, lambda: log.last(path, NOTES))


# --- time --------------------------------------------------------------------------------

UTC = timezone.utc


def test_now_is_utc_with_z_and_reads_back_as_the_moment_it_was_taken():
    before = datetime.now(UTC).replace(microsecond=0)
    stamp = log.now()
    after = datetime.now(UTC)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", stamp)
    read = log.parse_time(stamp)
    assert read is not None and read.utcoffset() == timedelta(0)
    assert before <= read <= after


def test_both_stores_write_z_and_read_it_back(tmp_path):
    path = tmp_path / "p"
    record = progress_log.record_check("03", "ap-1", "0.5", "correct", learner="a", path=path)
    assert record["time"].endswith("Z")
    assert progress_log.read_progress(path)["time"].tolist() == [record["time"]]
    last = progress_log.progress("a", path=path)["last_time"].iloc[0]
    assert last.to_pydatetime() == datetime.strptime(record["time"], "%Y-%m-%dT%H:%M:%S%z")
    event = judgments.Event.now("a", "q", "d", 1, "", "v1")
    judgments.append_event(tmp_path / "j", event)
    assert event.time.endswith("Z") and judgments.read_events(tmp_path / "j") == [(1, event)]


H = timezone(timedelta(hours=8))
#: Forms of ISO 8601 that Python 3.10's ``datetime.fromisoformat`` rejects, read by hand.
FORMS_310_REJECTS = {
    "2026-11-30T14:00:00Z": datetime(2026, 11, 30, 14, tzinfo=UTC),
    "2026-11-30T14:00:00z": datetime(2026, 11, 30, 14, tzinfo=UTC),
    "2026-11-30t14:00Z": datetime(2026, 11, 30, 14, tzinfo=UTC),
    "2026-11-30T14:00:00.5Z": datetime(2026, 11, 30, 14, 0, 0, 500000, tzinfo=UTC),
    "2026-11-30T14:00:00,25+08:00": datetime(2026, 11, 30, 14, 0, 0, 250000, tzinfo=H),
    "2026-11-30T14:00:00.123456789Z": datetime(2026, 11, 30, 14, 0, 0, 123456, tzinfo=UTC),
    "2026-11-30T22:00:00+0800": datetime(2026, 11, 30, 22, tzinfo=H),
    "2026-11-30T22:00:00+08": datetime(2026, 11, 30, 22, tzinfo=H),
    "2026-11-30T08:30:00-0530": datetime(
        2026, 11, 30, 8, 30, tzinfo=timezone(-timedelta(hours=5, minutes=30))
    ),
}
#: Forms 3.10 reads too.
FORMS_310_READS = {
    "2026-11-30T14:00:00+00:00": datetime(2026, 11, 30, 14, tzinfo=UTC),
    "2026-11-30 22:00+08:00": datetime(2026, 11, 30, 22, tzinfo=H),
    "2026-11-30T14:00:00.123+00:00": datetime(2026, 11, 30, 14, 0, 0, 123000, tzinfo=UTC),
}
NOT_TIMES = [
    "2026-11-30T14:00:00",  # no time zone
    "2026-11-30",
    "yesterday",
    "",
    "2026-02-30T00:00:00Z",  # no such day
    "2026-11-30T24:00:00Z",
    "2026-11-30T23:59:60Z",  # a leap second datetime cannot hold
    "2026-11-30T14:00:00+24:00",
    "2026-11-30T14:00:00+05:75",
    "2026-11-30T14:00:00Z ",
    "２０２６-11-30T14:00:00Z",  # full-width digits
    "2026-11-30T14:00:00.Z",
    "20261130T140000Z",
]


class Python310Datetime(datetime):
    """``datetime`` with Python 3.10's ``fromisoformat``: only what ``isoformat`` writes."""

    @classmethod
    def fromisoformat(cls, date_string: str) -> Python310Datetime:
        written = r"\d{4}-\d\d-\d\d(.\d\d(:\d\d(:\d\d(\.(\d{3}|\d{6}))?)?)?([+-]\d\d:\d\d)?)?"
        if not re.fullmatch(written, date_string, re.ASCII):
            raise ValueError(f"Invalid isoformat string: {date_string!r}")
        return super().fromisoformat(date_string)


@pytest.mark.parametrize("python", ["this Python", "Python 3.10's fromisoformat"])
def test_times_read_the_same_as_on_python_3_10(python, monkeypatch):
    if python != "this Python":
        monkeypatch.setattr(log, "datetime", Python310Datetime)
    for text, expected in {**FORMS_310_REJECTS, **FORMS_310_READS}.items():
        read = log.parse_time(text)
        assert read == expected and read.utcoffset() == expected.utcoffset(), text
    for text in NOT_TIMES:
        assert log.parse_time(text) is None, text
    for value in [None, 20261130, b"2026-11-30T14:00:00Z"]:
        assert log.parse_time(value) is None


@given(
    moment=st.datetimes(datetime(1000, 1, 1), datetime(9999, 12, 31)),
    separator=st.sampled_from("Tt "),
    seconds=st.booleans(),
    digits=st.integers(0, 9),
    zone=st.sampled_from(["Z", "z", "+HH:MM", "+HHMM", "+HH"]),
    sign=st.sampled_from([1, -1]),
    hours=st.integers(0, 23),
    minutes=st.integers(0, 59),
)
def test_every_form_of_a_time_reads_back_to_it(
    moment, separator, seconds, digits, zone, sign, hours, minutes
):
    if zone in {"Z", "z"}:
        hours = minutes = 0
    if zone == "+HH":
        minutes = 0
    mark = "-" if sign < 0 else "+"
    suffix = {
        "+HH:MM": f"{mark}{hours:02d}:{minutes:02d}",
        "+HHMM": f"{mark}{hours:02d}{minutes:02d}",
        "+HH": f"{mark}{hours:02d}",
    }.get(zone, zone)
    if not seconds:
        moment, digits = moment.replace(second=0, microsecond=0), 0
    fraction = f"{moment.microsecond:06d}000"[:digits]  # digits past the sixth are zeros
    moment = moment.replace(microsecond=int(fraction[:6].ljust(6, "0")))
    clock = f"{moment:%H:%M}" + (f":{moment:%S}" if seconds else "")
    text = f"{moment:%Y-%m-%d}{separator}{clock}{f'.{fraction}' if digits else ''}{suffix}"
    expected = moment.replace(tzinfo=timezone(sign * timedelta(hours=hours, minutes=minutes)))
    read = log.parse_time(text)
    assert read == expected and read.utcoffset() == expected.utcoffset(), text
