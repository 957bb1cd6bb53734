"""The file boundary (issue #11): every qrels and run read exactly as trec_eval reads it.

A fuzz corpus of malformed and edge inputs. Each file case is delivered every way a
team has its files: a path, gzip with and without a ``.gz`` name, a pipe (``cat`` in a
child process, read through ``/dev/fd/N``), and open binary and text files positioned
after a header line (never rewound: lines count from there, and the message says so).
Then the command line (a subprocess: exit codes and its one stderr line), and
DataFrames and dicts. Every case states its exact outcome: an error naming the file
and the line (or the row, or the query and document) and the rule; or the warnings
and trec_eval's result (pytrec_eval on the same data as dicts). Last, a property test:
identifiers that look like numbers or special values survive every route as written.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import warnings
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mapteach import evaluate
from mapteach.i18n import language
from mapteach.runs.frames import as_qrels, as_run
from mapteach.runs.trec import read_qrels, read_run, write_trec
from tests.budget import examples

pytrec_eval = pytest.importorskip("pytrec_eval")

QRELS = b"q1 0 d1 1\nq1 0 d3 1\nq1 0 d7 0\nq2 0 d1 0\nq2 0 d9 2\n"
RUN = b"q1 Q0 d1 1 3.0 t\nq1 Q0 d2 2 2.0 t\nq1 Q0 d3 3 1.0 t\nq2 Q0 d9 1 1.0 t\nq2 Q0 d1 2 0.5 t\n"
QRELS_DICT = {"q1": {"d1": 1, "d3": 1, "d7": 0}, "q2": {"d1": 0, "d9": 2}}
RUN_DICT = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}, "q2": {"d9": 1.0, "d1": 0.5}}
HEADER = b"a header line, read by the caller before passing the file on\n"
MODES = ("path", "gzip", "gzip-unnamed", "pipe", "binary", "text")
BYTES_MODES = ("path", "pipe", "binary")  # for data that must reach the reader byte for byte


def trec_eval(qrels: dict, run: dict) -> dict[str, dict[str, float]]:
    """trec_eval's AP and P@5 per query (pytrec_eval), keyed as mapteach names them."""
    scores = pytrec_eval.RelevanceEvaluator(qrels, {"map", "P_5"}).evaluate(run)
    return {q: {"AP": v["map"], "P@5": v["P_5"]} for q, v in scores.items()}


def mapteach_scores(qrels, run) -> dict[str, dict[str, float]]:
    table = evaluate(qrels, run, ["AP", "P@5"], missing="ignore")  # as pytrec_eval
    return {q: {"AP": row["AP"], "P@5": row["P@5"]} for q, row in table.iterrows()}


def assert_same_scores(ours: dict, expected: dict) -> None:
    assert ours.keys() == expected.keys()
    for query, values in expected.items():
        for name, value in values.items():
            assert ours[query][name] == pytest.approx(value, abs=1e-12), (query, name)


@contextlib.contextmanager
def delivered(mode: str, data: bytes, folder: Path):
    """The data as the reader gets it in ``mode``, and the name messages must give it."""
    path = folder / "input.txt"
    if mode in ("gzip", "gzip-unnamed"):
        path = folder / ("input.txt.gz" if mode == "gzip" else "input.dat")
        path.write_bytes(gzip.compress(data))
        yield path, str(path)
    elif mode == "pipe":
        path.write_bytes(data)
        with subprocess.Popen(["cat", str(path)], stdout=subprocess.PIPE) as child:
            name = f"/dev/fd/{child.stdout.fileno()}"
            yield name, name
    elif mode in ("binary", "text"):
        path.write_bytes(HEADER + data)
        opened = open(path, "rb") if mode == "binary" else open(path, encoding="utf-8")  # noqa: SIM115
        with opened as file:
            file.readline()
            yield file, f"{path} (from position {len(HEADER)})"
    else:
        path.write_bytes(data)
        yield str(path), str(path)


@dataclass(frozen=True)
class Bad:
    """A file that must be refused: where (``line N``, or None for the whole file), the rule."""

    kind: str
    data: bytes
    where: str | None
    rule: str
    modes: tuple[str, ...] = MODES
    warns: tuple[str, ...] = ()


@dataclass(frozen=True)
class Good:
    """A file trec_eval reads: the warnings it gets, the same data as dicts, and the other
    side (the qrels for a run, the run for qrels) if the default does not fit.
    """

    kind: str
    data: bytes
    clean: dict
    warns: tuple[str, ...] = ()
    modes: tuple[str, ...] = MODES
    other: dict | None = None


def run_lines(*lines: str) -> bytes:
    return "".join(f"{line}\n" for line in lines).encode()


LONG = "https://example.org/" + "a-long-path/" * 8  # 115 characters
FILLER = run_lines(*(f"q0 Q0 filler{i} {i} 1 t" for i in range(600)))  # 600 lines, > 8 KiB


BAD = {
    # runs: the shape of a line
    "run too few fields": Bad(
        "run",
        run_lines("q1 Q0 d1 1 3.0 t", "q1 Q0 d2 2 2.0 t", "q1 Q0 d3 3 1.0"),
        "line 3",
        "too few fields; a run line has 6 fields: query_id q0 doc_id rank score tag.",
    ),
    "run one field": Bad("run", b"q1\n", "line 1", "too few fields; a run line has 6 fields"),
    # runs: scores
    "score a word": Bad(
        "run",
        run_lines("q1 Q0 d1 1 3.0 t", "q1 Q0 d2 2 high t"),
        "line 2",
        "score 'high' of query 'q1', document 'd2' is not a finite number.",
    ),
    "score nan": Bad(
        "run", run_lines("q1 Q0 d1 1 nan t"), "line 1", "score 'nan' .* not a finite number."
    ),
    "score -inf": Bad(
        "run", run_lines("q1 Q0 d1 1 -inf t"), "line 1", "score '-inf' .* not a finite number."
    ),
    "score Infinity": Bad(
        "run",
        run_lines("q1 Q0 d1 1 1 t", "q1 Q0 d2 1 Infinity t"),
        "line 2",
        "score 'Infinity' of query 'q1', document 'd2' is not a finite number.",
    ),
    "score hexadecimal": Bad(
        "run", run_lines("q1 Q0 d1 1 0x1p3 t"), "line 1", "score '0x1p3' .* not a finite number."
    ),
    "score with underscore": Bad(
        "run", run_lines("q1 Q0 d1 1 1_000 t"), "line 1", "score '1_000' .* not a finite number."
    ),
    "score exponent without digits": Bad(
        "run", run_lines("q1 Q0 d1 1 2 t", "q1 Q0 d2 1 1e t"), "line 2", "score '1e' .* finite"
    ),
    "score two points": Bad(
        "run", run_lines("q1 Q0 d1 1 1.2.3 t"), "line 1", "score '1.2.3' .* not a finite number."
    ),
    "score beyond float32": Bad(
        "run",
        run_lines("q1 Q0 d1 1 1 t", "q1 Q0 d2 1 -1e39 t"),
        "line 2",
        r"score '-1e39' .* is not a finite number within ±3.4e38 \(trec_eval stores scores as "
        "32-bit floats",
    ),
    "score beyond float64": Bad(
        "run", run_lines("q1 Q0 d1 1 1e400 t"), "line 1", "score '1e400' .* not a finite number."
    ),
    # runs: duplicates, counted in the file's own lines
    "run duplicate document": Bad(
        "run",
        run_lines("q1 Q0 d1 1 3 t", "q1 Q0 d2 2 2 t", "q1 Q0 d1 3 1 t"),
        None,
        r"document 'd1' is listed 2 times for query 'q1' in the run \(lines 1, 3\); each "
        "document may appear once per query.",
    ),
    "run duplicate after a comment": Bad(
        "run",
        run_lines("# made by hand", "007 Q0 d1 1 3 t", "7 Q0 d1 1 3 t", "007 Q0 d1 3 1 t"),
        None,
        r"document 'd1' is listed 2 times for query '007' in the run \(lines 2, 4\)",
        warns=("skipped 1 comment line(s) starting with '#', as trec_eval does.",),
    ),
    # bytes and encodings
    "NUL byte": Bad(
        "run",
        b"q1 Q0 d1 1 3 t\nq1 Q0 d\x002 2 2 t\n",
        "line 2",
        r"a NUL byte, which trec_eval cannot read \(is the file UTF-16\? save it as UTF-8\)\.",
    ),
    "invalid UTF-8": Bad(  # far enough in that a text stream decodes it in a later chunk
        "run",
        FILLER + b"q1 Q0 d1 1 3 t\nq1 Q0 d2 2 2 t\nq1 Q0 d\xff 3 1 t\n",
        "line 603",
        r"bytes b'\\xff' are not valid (?i:utf-8) \(invalid start byte\); TREC files are UTF-8",
    ),
    "truncated UTF-8 sequence": Bad(
        "run",
        FILLER + b"q1 Q0 d1 1 3 t\nq1 Q0 caf\xc3 3 1 t\nq1 Q0 d3 3 1 t\n",
        "line 602",
        r"bytes b'\\xc3' are not valid (?i:utf-8)",
    ),
    "UTF-16 with a byte-order mark": Bad(  # a text stream fails on it while reading the header
        "run",
        "q1 Q0 d1 1 3 t\n".encode("utf-16"),
        "line 1",
        "the run file starts with a UTF-16 byte-order mark; trec_eval reads bytes, so save it",
        modes=MODES[:-1],
    ),
    "UTF-16 without a byte-order mark": Bad(
        "run", "q1 Q0 d1 1 3 t\n".encode("utf-16-le"), "line 1", "a NUL byte"
    ),
    "UTF-8 byte-order mark": Bad(
        "run",
        b"\xef\xbb\xbf" + RUN,
        "line 1",
        "the run file starts with a UTF-8 byte-order mark, which trec_eval would read as part "
        "of the first query id; save it without one.",
    ),
    "empty run": Bad("run", b"", None, "the run file is empty."),
    "only comments and blank lines": Bad(
        "run",
        b"# nothing\n\n   \n  # indented\n",
        None,
        r"the run file is empty \(no line holds data\).",
        warns=(
            "skipped 2 comment line(s) starting with '#', as trec_eval does.",
            "skipped 2 blank line(s).",
        ),
    ),
    "truncated gzip": Bad(
        "run",
        gzip.compress(RUN)[:-12],
        None,
        "the run file is gzip-compressed but cannot be decompressed",
        modes=BYTES_MODES,
    ),
    "gzip magic then junk": Bad(
        "run",
        b"\x1f\x8bjunk that is not deflate data",
        None,
        "the run file is gzip-compressed but cannot be decompressed",
        modes=BYTES_MODES,
    ),
    # qrels
    "qrels too many fields": Bad(
        "qrels",
        b"q1 0 d1 1\nq1 0 d2 1 extra\n",
        "line 2",
        "too many fields; a qrels line has 4 fields: query_id iteration doc_id relevance.",
    ),
    "qrels too few fields": Bad(
        "qrels", b"q1 0 d1\n", "line 1", "too few fields; a qrels line has 4 fields"
    ),
    "grade with a fraction": Bad(
        "qrels",
        b"q1 0 d1 1\nq1 0 d2 1.5\n",
        "line 2",
        "relevance '1.5' of query 'q1', document 'd2' is not an integer grade.",
    ),
    "grade with an exponent": Bad(
        "qrels", b"q1 0 d1 1e3\n", "line 1", "relevance '1e3' .* not an integer grade."
    ),
    "grade a word": Bad(
        "qrels", b"q1 0 d1 high\n", "line 1", "relevance 'high' .* not an integer grade."
    ),
    "grade beyond int64": Bad(
        "qrels",
        b"q1 0 d1 1\nq1 0 d2 9223372036854775808\n",
        "line 2",
        r"relevance '9223372036854775808' of query 'q1', document 'd2' is not an integer grade "
        r"within int64 \(trec_eval reads grades as 64-bit integers\).",
    ),
    "qrels duplicate judgment": Bad(
        "qrels",
        b"q1 0 d1 1\nq1 0 d2 0\nq1 0 d1 0\n",
        None,
        r"document 'd1' is listed 2 times for query 'q1' in the qrels \(lines 1, 3\)",
    ),
    "qrels '#' after spaces is data": Bad(  # trec_eval's qrels comments start in column 1
        "qrels",
        b"q1 0 d1 1\n  # judged by x\n",
        "line 2",
        "relevance 'x' of query '#', document 'by' is not an integer grade.",
    ),
    "empty qrels": Bad("qrels", b"", None, "the qrels file is empty."),
}

GOOD = {
    "run comments": Good(
        "run",
        b"# produced by bm25\nq1 Q0 d1 1 3.0 t\n   # an indented comment\nq1 Q0 d2 2 2.0 t\n"
        b"q1 Q0 d3 3 1.0 t\nq2 Q0 d9 1 1.0 t\nq2 Q0 d1 2 0.5 t\n",
        RUN_DICT,
        warns=("skipped 2 comment line(s) starting with '#', as trec_eval does.",),
    ),
    "qrels comment": Good(
        "qrels",
        b"# judged in 2024\n" + QRELS,
        QRELS_DICT,
        warns=("skipped 1 comment line(s) starting with '#', as trec_eval does.",),
    ),
    "fields after the tag": Good(
        "run",
        b"q1 Q0 d1 1 3.0 t\nq1 Q0 d2 2 2.0 t extra\nq1 Q0 d3 3 1.0 t\n"
        b"q2 Q0 d9 1 1.0 t a b c\nq2 Q0 d1 2 0.5 t\n",
        RUN_DICT,
        warns=(
            "ignored the fields after the 6th (the tag) on 2 line(s), first line 2, as "
            "trec_eval does.",
        ),
    ),
    "blank lines": Good(
        "qrels",
        b"\nq1 0 d1 1\n   \nq1 0 d3 1\nq1 0 d7 0\n\t\nq2 0 d1 0\nq2 0 d9 2\n",
        QRELS_DICT,
        warns=("skipped 3 blank line(s).",),
    ),
    "Windows line ends": Good("run", RUN.replace(b"\n", b"\r\n"), RUN_DICT),
    "tabs, runs of spaces, leading space": Good(
        "run",
        b"  q1\tQ0  d1 1   3.0\tt   \nq1 Q0 d2 2 2.0 t\n\tq1 Q0 d3 3 1.0 t\n"
        b"q2 Q0\t\td9 1 1.0 t\nq2 Q0 d1 2 0.5 t\n",
        RUN_DICT,
    ),
    "no final newline": Good("qrels", QRELS.rstrip(b"\n"), QRELS_DICT),
    "vertical tab and form feed separate fields": Good(
        "qrels", QRELS.replace(b" 0 d1", b"\x0b0\x0cd1"), QRELS_DICT
    ),
    "carriage return inside a line separates fields": Good(  # a text stream reads it as a line end
        "run",
        RUN.replace(b"Q0 d1", b"Q0\rd1"),
        RUN_DICT,
        modes=("path", "gzip", "gzip-unnamed", "pipe", "binary"),
    ),
    "numeric-looking ids stay apart": Good(  # trec_eval: AP 0.5; merged ids would give 1.0
        "run",
        b"1 Q0 007 1 1.0 t\n1 Q0 10 2 1.0 t\n01 Q0 7 1 2.0 t\n",
        {"1": {"007": 1.0, "10": 1.0}, "01": {"7": 2.0}},
        other={"1": {"007": 1, "10": 0}, "01": {"07": 1, "7": 0}},
    ),
    "special-value ids stay as written": Good(
        "run",
        b"inf Q0 NaN 1 5 t\ninf Q0 nan 2 4 t\ninf Q0 null 3 3 t\nInfinity Q0 TRUE 1 2 t\n"
        b"1e3 Q0 1E3 1 1 t\n000 Q0 -0 1 1 t\n",
        {
            "inf": {"NaN": 5.0, "nan": 4.0, "null": 3.0},
            "Infinity": {"TRUE": 2.0},
            "1e3": {"1E3": 1.0},
            "000": {"-0": 1.0},
        },
        other={
            "inf": {"nan": 1, "NaN": 0, "NULL": 1},
            "Infinity": {"TRUE": 1},
            "1e3": {"1e3": 1},
            "000": {"-0": 1, "0": 1},
        },
    ),
    "unicode ids, a no-break space inside one": Good(
        "run",
        "é Q0 日本 1 2 t\né Q0 d\u00a0x 2 1 t\nΩ Q0 Ω 1 1 t\n".encode(),
        {"é": {"日本": 2.0, "d\u00a0x": 1.0}, "Ω": {"Ω": 1.0}},
        other={"é": {"d\u00a0x": 1, "d": 1, "x": 1}, "Ω": {"ω": 1, "Ω": 0}},
    ),
    "long ids (URLs), past the fixed-width gathering": Good(
        "run",
        f"q1 Q0 {LONG}a 1 3 t\nq1 Q0 d2 2 2 t\nq1 Q0 {LONG}b 3 1 t\nq2 Q0 d1 1 1 t\n".encode(),
        {"q1": {f"{LONG}a": 3.0, "d2": 2.0, f"{LONG}b": 1.0}, "q2": {"d1": 1.0}},
        other={"q1": {f"{LONG}a": 1, f"{LONG}b": 1, "d2": 0}, "q2": {"d1": 1}},
    ),
    "score spellings": Good(
        "run",
        b"q1 Q0 d1 1 -0 t\nq1 Q0 d2 2 +5 t\nq1 Q0 d3 3 1.5E+2 t\nq1 Q0 d4 4 .5 t\n"
        b"q1 Q0 d5 5 7. t\nq1 Q0 d6 6 1e-3 t\nq1 Q0 d7 7 0.12345678901234567 t\n",
        {"q1": {"d1": -0.0, "d2": 5, "d3": 150, "d4": 0.5, "d5": 7, "d6": 1e-3, "d7": 0.1234568}},
    ),
    "grade spellings": Good(
        "qrels",
        b"q1 0 d1 +1\nq1 0 d3 01\nq1 0 d7 0.0\nq2 0 d1 -0\nq2 0 d9 2.\n",
        QRELS_DICT,
    ),
}


def _cases(table: dict, modes_of) -> list:
    return [
        pytest.param(name, mode, id=f"{name} [{mode}]")
        for name, case in table.items()
        for mode in modes_of(case)
    ]


@pytest.mark.parametrize(("name", "mode"), _cases(BAD, lambda case: case.modes))
def test_bad_files_raise_naming_the_file_the_line_and_the_rule(name, mode, tmp_path):
    case = BAD[name]
    reader = read_qrels if case.kind == "qrels" else read_run
    with delivered(mode, case.data, tmp_path) as (source, shown):
        where = f", {case.where}" if case.where else ""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with pytest.raises(
                ValueError, match=f"^{re.escape(shown + where)}: {case.rule}"
            ) as error:
                reader(source)
    assert "\n" not in str(error.value)
    assert [str(w.message) for w in caught] == [f"{shown}: {text}" for text in case.warns]


@pytest.mark.parametrize(("name", "mode"), _cases(GOOD, lambda case: case.modes))
def test_good_files_give_trec_evals_result_and_warn_once_per_file(name, mode, tmp_path):
    case = GOOD[name]
    if case.kind == "qrels":
        qrels, run = case.clean, case.other or RUN_DICT
    else:
        qrels, run = case.other or QRELS_DICT, case.clean
    with (
        delivered(mode, case.data, tmp_path) as (source, shown),
        warnings.catch_warnings(record=True) as caught,
    ):
        warnings.simplefilter("always")
        ours = mapteach_scores(*((source, run) if case.kind == "qrels" else (qrels, source)))
    assert_same_scores(ours, trec_eval(qrels, run))
    mine = [str(w.message) for w in caught if str(w.message).startswith(shown)]
    assert mine == [f"{shown}: {text}" for text in case.warns]


@pytest.mark.parametrize("name", [name for name, case in GOOD.items() if case.kind == "run"])
def test_blocks_of_any_size_split_lines_alike(name, monkeypatch):
    """Lines straddling the blocks the splitter works in, and lines longer than a block."""
    data = GOOD[name].data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        whole = read_run(io.BytesIO(data))
        for size in (1, 7, 16, 64):
            monkeypatch.setattr("mapteach.runs.lines._BLOCK", size)
            pd.testing.assert_frame_equal(read_run(io.BytesIO(data)), whole)


def test_an_open_file_is_read_from_its_position_and_never_rewound(tmp_path):
    path = tmp_path / "run.txt"
    path.write_bytes(HEADER + RUN)
    with open(path, "rb") as file:
        file.readline()
        frame = read_run(file)
        assert file.read() == b""  # read to the end, once; not rewound
    assert frame["doc_id"].tolist() == ["d1", "d2", "d3", "d9", "d1"]


def test_the_reproducer_of_issue_11_scores_as_trec_eval():
    qrels = read_qrels(io.BytesIO(b"1 0 007 1\n1 0 10 0\n"))
    run = read_run(io.BytesIO(b"1 Q0 007 1 1.0 t\n1 Q0 10 2 1.0 t\n"))
    assert evaluate(qrels, run, ["AP"]).loc["1", "AP"] == 0.5
    assert qrels["doc_id"].tolist() == ["007", "10"]
    assert list(run["query_id"].cat.categories) == ["1"]


# --- the command line -----------------------------------------------------------------------

BAD_RUN = run_lines("q1 Q0 d1 1 3 t", "q1 Q0 d2 2 2 t", "q1 Q0 d3 3")


@dataclass(frozen=True)
class Cli:
    args: tuple[str, ...]  # {qrels}, {run}, {bad}, {folder} are filled in
    stdin: bytes | None = None
    code: int = 0
    stderr: str | None = None  # regex of the one line on stderr (exit 2), or of a warning
    ap: float | None = None  # the mean AP printed (exit 0)
    shell: bool = False


CLI = {
    "missing qrels file": Cli(
        ("{folder}/absent.txt", "{run}"),
        code=2,
        stderr=r"mapteach evaluate: error: {folder}/absent.txt: no such ",
    ),
    "missing run file": Cli(
        ("{qrels}", "{folder}/absent.txt"),
        code=2,
        stderr=r"mapteach evaluate: error: .*absent.txt: no such run",
    ),
    "a directory": Cli(
        ("{qrels}", "{folder}"),
        code=2,
        stderr=r"mapteach evaluate: error: {folder}: is a directory, not a run file",
    ),
    "malformed run": Cli(
        ("{qrels}", "{bad}"),
        code=2,
        stderr=r"mapteach evaluate: error: {bad}, line 3: too few fields; a run line",
    ),
    "run on standard input": Cli(("{qrels}", "-"), stdin=RUN, ap=(5 / 6 + 1) / 2),
    "qrels on standard input": Cli(("-", "{run}"), stdin=QRELS, ap=(5 / 6 + 1) / 2),
    "gzip on standard input": Cli(("{qrels}", "-"), stdin=gzip.compress(RUN), ap=(5 / 6 + 1) / 2),
    "/dev/stdin from a pipe": Cli(("{qrels}", "/dev/stdin"), stdin=RUN, ap=(5 / 6 + 1) / 2),
    "process substitution": Cli(("{qrels}", "<(cat {run})"), ap=(5 / 6 + 1) / 2, shell=True),
    "both on standard input": Cli(
        ("-", "-"),
        stdin=RUN,
        code=2,
        stderr=r"mapteach evaluate: error: only one of the qrels and the run can be",
    ),
    "malformed standard input": Cli(
        ("{qrels}", "-"),
        stdin=b"q1 Q0 d1 1 3 t\nq1 Q0 d\xff 2 2 t\n",
        code=2,
        stderr=r"mapteach evaluate: error: <stdin>, line 2: bytes b'\\xff' are not valid UTF-8",
    ),
    "empty standard input": Cli(
        ("{qrels}", "-"),
        stdin=b"",
        code=2,
        stderr=r"mapteach evaluate: error: <stdin>: the run file is empty\.$",
    ),
    "comments warn once": Cli(
        ("{qrels}", "-"),
        stdin=b"# bm25\n" + RUN,
        stderr=r"warning: <stdin>: skipped 1 comment line\(s\) starting with '#'",
        ap=(5 / 6 + 1) / 2,
    ),
}


@pytest.mark.parametrize("name", CLI)
def test_command_line(name, tmp_path):
    case = CLI[name]
    files = {"qrels": tmp_path / "qrels.txt", "run": tmp_path / "run.txt", "bad": tmp_path / "b"}
    for key, data in (("qrels", QRELS), ("run", RUN), ("bad", BAD_RUN)):
        files[key].write_bytes(data)
    fill = {key: str(path) for key, path in files.items()} | {"folder": str(tmp_path)}
    args = [arg.format(**fill) for arg in case.args]
    command = [sys.executable, "-m", "mapteach", "evaluate", *args, "-m", "AP", "--format", "json"]
    if case.shell:
        command = ["bash", "-c", " ".join(command)]
    done = subprocess.run(command, input=case.stdin, capture_output=True, timeout=120)
    stderr = done.stderr.decode()
    assert done.returncode == case.code, stderr
    assert "Traceback" not in stderr
    if case.stderr:
        pattern = case.stderr.format(**{key: re.escape(value) for key, value in fill.items()})
        assert any(re.match(pattern, line) for line in stderr.splitlines()), stderr
    if case.code:
        assert len(stderr.splitlines()) == 1, stderr
    else:
        assert json.loads(done.stdout)["mean"]["AP"] == pytest.approx(case.ap, abs=1e-12)


# --- DataFrames and dicts ---------------------------------------------------------------------


def frame(kind: str, rows: list, index=None) -> pd.DataFrame:
    value = "relevance" if kind == "qrels" else "score"
    return pd.DataFrame(rows, columns=["query_id", "doc_id", value], index=index)


TABLES = {
    "missing column": (
        "run",
        pd.DataFrame({"query_id": ["q1"], "score": [1.0]}),
        ValueError,
        r"^the run DataFrame needs columns query_id, doc_id and score; missing doc_id\.",
    ),
    "NaN query id": (
        "run",
        frame("run", [["q1", "d1", 1.0], [float("nan"), "d2", 0.5]]),
        ValueError,
        r"^the run, row 1: query_id is missing \(NaN or None\)",
    ),
    "None doc id": (
        "qrels",
        frame("qrels", [["q1", "d1", 1], ["q1", None, 0]], index=["a", "b"]),
        ValueError,
        r"^the qrels, row b: doc_id is missing",
    ),
    "missing categorical id": (
        "run",
        frame("run", [["q1", "d1", 1.0], ["q1", "d2", 0.5]])
        .astype({"doc_id": "category"})
        .assign(doc_id=lambda f: f["doc_id"].cat.set_categories(["d1"])),
        ValueError,
        r"^the run, row 1: doc_id is missing",
    ),
    "float ids": (
        "run",
        frame("run", [[1.0, "d1", 1.0]]),
        TypeError,
        r"^the run, row 0: query_id 1\.0 is a float; identifiers are strings",
    ),
    "boolean id": (
        "qrels",
        frame("qrels", [["q1", True, 1]]),
        TypeError,
        r"^the qrels, row 0: doc_id True is a bool",
    ),
    "grade with a fraction": (
        "qrels",
        frame("qrels", [["q1", "d1", 1], ["q1", "d2", 1.5]]),
        ValueError,
        r"^the qrels, row 1: relevance 1\.5 of query 'q1', document 'd2' is not an integer grade\.",
    ),
    "grade NaN": (
        "qrels",
        frame("qrels", [["q1", "d1", float("nan")]]),
        ValueError,
        r"^the qrels, row 0: relevance nan .* not an integer grade\.",
    ),
    "grade 2**63 (uint64)": (
        "qrels",
        frame("qrels", [["q1", "d1", 1], ["q1", "d2", 2**63]]),
        ValueError,
        r"^the qrels, row 1: relevance 9223372036854775808 .* within int64",
    ),
    "grade a string": (
        "qrels",
        frame("qrels", [["q1", "d1", "1"], ["q1", "d2", "high"]]),
        ValueError,
        r"^the qrels, row 1: relevance 'high' .* not an integer grade\.",
    ),
    "score inf": (
        "run",
        frame("run", [["q1", "d1", 1.0], ["q1", "d2", float("inf")]], index=[10, 20]),
        ValueError,
        r"^the run, row 20: score inf of query 'q1', document 'd2' is not a finite number\.",
    ),
    "score beyond float32": (
        "run",
        frame("run", [["q1", "d1", 1e39]]),
        ValueError,
        r"^the run, row 0: score 1e\+39 .* within ±3\.4e38",
    ),
    "score None (object column)": (
        "run",
        pd.DataFrame(
            {"query_id": ["q1"], "doc_id": ["d1"], "score": pd.Series([None], dtype=object)}
        ),
        ValueError,
        r"^the run, row 0: score None .* not a finite number\.",
    ),
    "DataFrame duplicate": (
        "run",
        frame("run", [["q1", "d1", 1.0], ["q1", "d2", 0.5], ["q1", "d1", 0.2]]),
        ValueError,
        r"^the run: document 'd1' is listed 2 times for query 'q1' in the run \(rows 0, 2\)",
    ),
    "dict None query": (
        "qrels",
        {"q1": {"d1": 1}, None: {"d1": 1}},
        ValueError,
        r"^the qrels dict, query None: query_id is missing",
    ),
    "dict NaN document": (
        "run",
        {"q1": {float("nan"): 1.0}},
        ValueError,
        r"^the run dict, query 'q1', document nan: doc_id is missing",
    ),
    "dict float query": (
        "run",
        {1.0: {"d1": 1.0}},
        TypeError,
        r"^the run dict, query 1\.0: query_id 1\.0 is a float",
    ),
    "dict grade 2**70": (
        "qrels",
        {"q1": {"d1": 2**70}},
        ValueError,
        r"^the qrels, row 0: relevance 1180591620717411303424 .* within int64",
    ),
    "dict grade 10**400": (
        "qrels",
        {"q1": {"d1": 1, "d2": 10**400}},
        ValueError,
        r"^the qrels, row 1: relevance 10{400} of query 'q1', document 'd2' .* within int64",
    ),
    "dict score 10**400": (
        "run",
        {"q1": {"d1": 10**400}},
        ValueError,
        r"^the run, row 0: score 10{400} .* not a finite number\.",
    ),
    "dict grade None": (
        "qrels",
        {"q1": {"d1": None}},
        ValueError,
        r"^the qrels, row 0: relevance None .* not an integer grade\.",
    ),
    "dict grade Decimal": (
        "qrels",
        {"q1": {"d1": Decimal("1")}},
        ValueError,
        r"^the qrels, row 0: relevance 1 .* not an integer grade\.",
    ),
    "dict 1 and '1' collide": (
        "run",
        {"q": {1: 1.0, "1": 0.5}},
        ValueError,
        r"^the run: document '1' is listed 2 times for query 'q' in the run \(rows 0, 1\)",
    ),
    "dict of lists": (
        "run",
        {"q1": [("d1", 1.0)]},
        TypeError,
        r"^run dict: query 'q1' must map to a dict of document id -> score",
    ),
}


@pytest.mark.parametrize("name", TABLES)
def test_dataframes_and_dicts_refuse_with_the_row_or_the_query_and_document(name):
    kind, data, error, pattern = TABLES[name]
    with pytest.raises(error, match=pattern):
        (as_qrels if kind == "qrels" else as_run)(data)


ACCEPTED = {
    "integer ids are their digits": (
        frame("qrels", [[7, 1, 1], [7, 10, 0]]),
        frame("run", [["7", "1", 1.0], ["7", "10", 1.0]]),
        {"7": {"1": 1, "10": 0}},
        {"7": {"1": 1.0, "10": 1.0}},
    ),
    "grades as text, booleans and integral floats": (
        {"q1": {"d1": True, "d2": "2", "d3": 0.0}},
        frame("run", [["q1", "d1", 1], ["q1", "d2", 2], ["q1", "d3", 3]]),
        {"q1": {"d1": 1, "d2": 2, "d3": 0}},
        {"q1": {"d1": 1.0, "d2": 2.0, "d3": 3.0}},
    ),
    "empty-string ids, possible in frames and dicts only": (
        frame("qrels", [["", "", 1], ["", "a", 0], ["q", "", 1]]),
        {"": {"": 0.5, "a": 1.0}, "q": {"": 1.0}},
        {"": {"": 1, "a": 0}, "q": {"": 1}},
        {"": {"": 0.5, "a": 1.0}, "q": {"": 1.0}},
    ),
    "categorical frames as read_run returns them": (
        read_qrels(io.BytesIO(b"01 0 7 1\n1 0 007 1\n")),
        read_run(io.BytesIO(b"01 Q0 7 1 1 t\n1 Q0 7 1 1 t\n")),
        {"01": {"7": 1}, "1": {"007": 1}},
        {"01": {"7": 1.0}, "1": {"7": 1.0}},
    ),
}


@pytest.mark.parametrize("name", ACCEPTED)
def test_dataframes_and_dicts_that_trec_eval_reads(name):
    qrels, run, qrels_dict, run_dict = ACCEPTED[name]
    assert_same_scores(mapteach_scores(qrels, run), trec_eval(qrels_dict, run_dict))


# --- identifiers round-trip, against pytrec_eval -----------------------------------------------

_SPECIAL = ["1e3", "1E3", "inf", "-inf", "Infinity", "NaN", "nan", "TRUE", "true", "False"]
_SPECIAL += ["null", "None", "NA", "N/A", "-0", "+1", "0x1F", "1.0", "1.", ".5", "007", "7"]
IDS = st.one_of(
    st.from_regex(r"0{0,3}[0-9]{1,3}", fullmatch=True),
    st.sampled_from(_SPECIAL),
    st.from_regex(r"[A-Za-z]{1,3}[0-9]{0,2}", fullmatch=True),
    st.text(
        st.characters(exclude_categories=("Cs",), exclude_characters=" \t\n\r\x0b\x0c\x00#"),
        min_size=1,
        max_size=5,
    ),
)


@st.composite
def collections(draw) -> tuple[dict, dict]:
    """Qrels and a run as pytrec_eval dicts: distinct scores, exact in float32."""
    qrels, run = {}, {}
    for query in draw(st.lists(IDS, min_size=1, max_size=4, unique=True)):
        docs = draw(st.lists(IDS, min_size=1, max_size=8, unique=True))
        scores = draw(
            st.lists(st.integers(-64, 64), min_size=len(docs), max_size=len(docs), unique=True)
        )
        run[query] = {doc: score / 8 for doc, score in zip(docs, scores, strict=True)}
        judged = draw(st.lists(st.sampled_from(docs), unique=True)) or docs[:1]
        qrels[query] = {doc: draw(st.integers(0, 2)) for doc in judged}
    return qrels, run


def trec_text(kind: str, data: dict) -> bytes:
    """The dicts as a TREC file, one line per judgment or retrieved document."""
    if kind == "qrels":
        lines = [f"{q} 0 {d} {grade}" for q, docs in data.items() for d, grade in docs.items()]
    else:
        lines = [
            f"{q} Q0 {d} {rank} {score} t"
            for q, docs in data.items()
            for rank, (d, score) in enumerate(docs.items(), 1)
        ]
    return "".join(f"{line}\n" for line in lines).encode()


def as_frame(kind: str, data: dict) -> pd.DataFrame:
    rows = [[query, doc, value] for query, docs in data.items() for doc, value in docs.items()]
    return frame(kind, rows)


@pytest.mark.parametrize("route", ["path", "pipe", "binary", "gzip-unnamed", "dataframe", "dict"])
@settings(max_examples=examples(50), deadline=None)
@given(collections())
def test_identifiers_round_trip_and_scores_equal_pytrec_eval(route, data):
    qrels, run = data
    expected = trec_eval(qrels, run)
    with tempfile.TemporaryDirectory() as scratch, contextlib.ExitStack() as stack:
        sources = []
        for kind, values in (("qrels", qrels), ("run", run)):
            if route == "dataframe":
                sources.append(as_frame(kind, values))
            elif route == "dict":
                sources.append(values)
            else:
                folder = Path(scratch) / kind
                folder.mkdir()
                source, _ = stack.enter_context(delivered(route, trec_text(kind, values), folder))
                sources.append(source)
        judged, ranked = as_qrels(sources[0]), as_run(sources[1])
    assert set(judged["query_id"]) == set(qrels)
    assert set(zip(ranked["query_id"], ranked["doc_id"], strict=True)) == {
        (q, d) for q, docs in run.items() for d in docs
    }
    assert_same_scores(mapteach_scores(judged, ranked), expected)


# --- the scores' fast path ------------------------------------------------------------------

_DIGITS = st.text("0123456789", max_size=20)
_PLAIN = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)")
decimal_texts = st.builds(
    lambda sign, whole, point, fraction: sign + whole + point + fraction,
    st.sampled_from(["", "", "-", "+"]),
    st.one_of(_DIGITS, _DIGITS.map(lambda digits: "000" + digits)),
    st.sampled_from([".", ".", ""]),
    _DIGITS,
)
other_texts = st.one_of(
    st.text("0123456789.+-eE", max_size=20),
    st.builds(
        lambda mantissa, exponent: f"{mantissa}e{exponent}", decimal_texts, st.integers(-30, 30)
    ),
)


@settings(max_examples=examples(300), deadline=None)
@given(
    texts=st.lists(st.one_of(decimal_texts, decimal_texts, other_texts), min_size=1, max_size=40),
    extra_words=st.integers(0, 2),
)
def test_the_fast_score_path_equals_float_bit_for_bit(texts, extra_words):
    """Plain decimals (sign, digits, one point; <= 16 bytes, <= 15 digits) are read as
    ``float`` reads them, bit for bit (-0.0 included); anything else is left to the
    general path, and ``parse_scores`` as a whole equals ``float`` or refuses the lot."""
    import numpy as np

    from mapteach.runs.numbers import _plain_decimals, parse_scores

    texts = [text for text in texts if text] or ["0"]
    width = 8 * (-(-max(map(len, texts)) // 8) + extra_words)  # as gather_fields pads them
    array = np.array([text.encode() for text in texts], dtype=f"S{width}")
    values, plain = _plain_decimals(array)
    for text, value, fast in zip(texts, values.tolist(), plain.tolist(), strict=True):
        digits = sum(character.isdigit() for character in text)
        assert fast == bool(_PLAIN.fullmatch(text) and len(text) <= 16 and digits <= 15), text
        if fast:
            assert np.float64(value).tobytes() == np.float64(float(text)).tobytes(), text
    expected = []
    for text in texts:
        try:
            number = float(text)
        except ValueError:
            number = None
        valid = bool(re.fullmatch(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?", text))
        if not valid or number is None or not abs(number) < 2.0**128 - 2.0**103:
            expected = None
            break
        expected.append(number)
    scores = parse_scores(array)
    if expected is None:
        assert scores is None
    else:
        assert scores is not None
        assert scores.tobytes() == np.array(expected, dtype=np.float64).tobytes()


# --- writing -----------------------------------------------------------------------------

UNREADABLE_IDS = {
    "a space in the query": ("a b", "d1", "the query id is empty or holds white space"),
    "an empty query": ("", "d1", "the query id is empty or holds white space"),
    "a tab in the document": ("q1", "d\t1", "the document id is empty or holds white space"),
    "an empty document": ("q1", "", "the document id is empty or holds white space"),
    "an ideographic space": ("q1", "文\u3000档", "the document id is empty or holds white space"),
    "a comment": ("#q", "d1", "a line starting with '#' is a comment"),
}


@pytest.mark.parametrize("kind", ["qrels", "run"])
@pytest.mark.parametrize("name", UNREADABLE_IDS)
def test_write_trec_refuses_ids_the_readers_would_not_read_back(name, kind, tmp_path):
    query, doc, rule = UNREADABLE_IDS[name]
    frame = pd.DataFrame(
        {"query_id": ["q0", query], "doc_id": ["d0", doc], "relevance": [1, 2], "score": [1.0, 2.0]}
    )
    path = tmp_path / "out.txt"
    named = re.escape(f"query {query!r}, document {doc!r}: {rule}")
    with pytest.raises(ValueError, match=f"^{named}"):
        write_trec(frame, path, kind=kind)
    assert not path.exists()


@pytest.mark.parametrize("name", [name for name in UNREADABLE_IDS if "ideographic" not in name])
def test_the_ids_refused_are_ones_read_qrels_refuses_or_loses(name, tmp_path):
    query, doc, _ = UNREADABLE_IDS[name]
    path = tmp_path / "hand.qrels"
    path.write_bytes(f"q0 0 d0 1\n{query} 0 {doc} 2\n".encode())  # as a naive writer would
    with warnings.catch_warnings(), contextlib.suppress(ValueError):
        warnings.simplefilter("ignore")
        read = read_qrels(path)
        assert (query, doc) not in set(zip(read["query_id"], read["doc_id"], strict=True))


@pytest.mark.skipif(sys.platform == "win32", reason="the test sets a POSIX locale")
def test_write_trec_writes_utf8_whatever_the_locale(tmp_path):
    path = tmp_path / "qrels.txt"
    query, doc = "劳动仲裁", "é1"
    code = (  # in ASCII (!a), which the C locale can pass on the command line
        "import sys, pandas as pd\n"
        "from mapteach.runs import write_trec\n"
        f"frame = pd.DataFrame({{'query_id': [{query!a}], 'doc_id': [{doc!a}]}})\n"
        "frame['relevance'] = 3\n"
        "write_trec(frame, sys.argv[1], kind='qrels')\n"
    )
    env = {**os.environ, "LC_ALL": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0"}
    done = subprocess.run(
        [sys.executable, "-X", "utf8=0", "-c", code, str(path)],
        capture_output=True,
        env=env,
        cwd=Path(__file__).parents[2],
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert path.read_bytes() == f"{query} 0 {doc} 3\n".encode()
    assert read_qrels(path)["query_id"].tolist() == [query]


#: What a Chinese message may keep in Latin letters: the reprs of the values it quotes,
#: the fields of a line, gzip's own reason, and names (trec_eval, UTF-8, NaN or None, ...).
KEPT_LATIN = re.compile(
    r"b?'[^']*'|\"[^\"]*\"|query_id \S+ doc_id \S+(?: \S+)*$|query_id q0 doc_id rank score tag"
    r"|query_id iteration doc_id relevance|无法解压（.*）"
)
TWO_ENGLISH_WORDS = re.compile(r"\b[A-Za-z]{2,}\s+[A-Za-z]{2,}\b")


def _chinese_problems(message: str, shown: str) -> list[str]:
    """The English left in a message read in Chinese (empty: none), and whether it is Chinese."""
    rest = KEPT_LATIN.sub(" ", message.replace(shown, " "))
    problems = TWO_ENGLISH_WORDS.findall(rest)
    return problems if re.search(r"[\u4e00-\u9fff]", message) else [*problems, "no Chinese"]


@pytest.mark.parametrize("name", BAD)
def test_bad_files_are_refused_in_chinese_with_the_same_file_and_line(name, tmp_path):
    case = BAD[name]
    reader = read_qrels if case.kind == "qrels" else read_run
    mode = "path" if "path" in case.modes else case.modes[0]
    with (
        delivered(mode, case.data, tmp_path) as (source, shown),
        language("zh"),
        warnings.catch_warnings(record=True) as caught,
    ):
        warnings.simplefilter("always")
        with pytest.raises(ValueError) as error:
            reader(source)
    message = str(error.value)
    assert message.startswith(shown)
    if case.where:  # the same line, by number: "line 3" is "第 3 行"
        assert f"第 {case.where.split()[-1]} 行" in message
    assert _chinese_problems(message, shown) == []
    assert [_chinese_problems(str(w.message), shown) for w in caught] == [[]] * len(case.warns)


@pytest.mark.parametrize("name", TABLES)
def test_dataframes_and_dicts_are_refused_in_chinese(name):
    kind, data, error, _ = TABLES[name]
    with language("zh"), pytest.raises(error) as raised:
        (as_qrels if kind == "qrels" else as_run)(data)
    assert _chinese_problems(str(raised.value), "") == []


def test_notebook_11s_broken_run_reads_in_chinese():
    broken = io.BytesIO(b"q00 Q0 doc1 1 2.5 sys\nq00 Q0 doc2 2 high sys\n")
    with language("zh"), pytest.raises(ValueError) as error:
        read_run(broken)
    assert str(error.value) == (
        "<buffer>，第 2 行：查询“q00”、文档“doc2”的分数“high”不是有限的数值。"
    )
