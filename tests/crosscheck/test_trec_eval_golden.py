"""mapteach against trec_eval's own test suite: the expected outputs of its ``make quicktest``.

``tests/data/trec_eval/`` holds trec_eval 10.0's test inputs and the outputs its
``make quicktest`` diffs against (its README says which options made which file). For
each quicktest command whose options mapteach has, ``python -m mapteach evaluate`` runs
(in-process) on the same inputs with the equivalent options, and every value both
compute is compared, per query and for ``all``, at trec_eval's printed precision: 4
decimals, counts exactly. The number of values compared and left out is asserted for
each command, so that no measure drops out of the comparison unseen. The values of the
measures mapteach lacks (``LACKING`` in tests/crosscheck/trec_eval_files.py) are left out,
and counted. ``runid`` is not a measure but the run's tag, which only ``--format trec``
prints: the byte-for-byte test compares it, the JSON one cannot.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import pytest

from mapteach.cli import main
from mapteach.metrics.names import parse_measure
from tests.crosscheck.trec_eval_files import is_lacking

DATA = Path(__file__).resolve().parents[1] / "data" / "trec_eval"

#: quicktest's commands whose options mapteach does not have, by expected file.
NOT_RUN = {
    "out.test.aqZ": "-Z: each value as a z-score against a file of means and deviations",
    "out.test.prefs": "-R prefs: preference judgments instead of qrels",
    "out.test.qrels_prefs": "-R qrels_prefs: qrels read as preferences",
    "out.test.qrels_jg": "-R qrels_jg: qrels from several judgment groups",
}


@dataclass(frozen=True)
class Command:
    """One quicktest command: its inputs, mapteach's equivalent options, the counts."""

    expected: str
    qrels: str
    run: str
    #: mapteach's options for trec_eval's (the README's table lists trec_eval's)
    options: tuple[str, ...]
    #: values compared, and values left out for a measure in LACKING
    compared: int
    left_out: int


COMMANDS = [
    Command("out.test", "qrels.test", "results.test", (), 29, 0),
    Command("out.test", "qrels.test.with-comments", "results.test", (), 29, 0),
    Command("out.comment.test", "qrels.comment.test", "results.comment.test.gz", (), 29, 0),
    Command("out.test.a", "qrels.test", "results.test", (), 76, 22),
    Command("out.test.aq", "qrels.test", "results.test", ("-q",), 295, 91),
    Command("out.test.aqc", "qrels.test", "results.trunc", ("-q", "--missing", "zero"), 295, 91),
    Command(
        "out.test.aqcM",
        "qrels.test",
        "results.trunc",
        ("-q", "--missing", "zero", "-M", "100"),
        295,
        91,
    ),
    Command("out.test.aql", "qrels.rel_level", "results.test", ("-q", "-l", "2"), 295, 91),
    Command("out.test.meas_params", "qrels.test", "results.test", ("-q",), 84, 4),
]


def read_expected(path: Path) -> dict[tuple[str, str], str]:
    """trec_eval's output as {(measure, query): the value as printed}."""
    values = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        measure, query, value = line.split("\t")
        values[measure.strip(), query] = value
    return values


def printed(value: float | None, like: str) -> str:
    """``value`` as trec_eval prints it: a count as an integer, anything else to 4 decimals."""
    if value is None or not math.isfinite(value):
        return repr(value)
    if "." in like:
        return f"{value:.4f}"
    return str(int(value)) if float(value).is_integer() else repr(value)


def run_mapteach(command: Command, measures: list[str], capsys) -> dict:
    args = ["evaluate", str(DATA / command.qrels), str(DATA / command.run)]
    args += [word for measure in measures for word in ("-m", measure)]
    code = main([*args, *command.options, "--format", "json"])
    output = capsys.readouterr()
    assert code == 0, output.err
    return json.loads(output.out)


def mapteach_value(payload: dict, measure: str, query: str) -> float | None:
    if measure == "num_q":
        return payload["queries"]
    if query == "all":
        return payload["mean"][measure]
    return payload["per_query"][query][measure]


def test_every_expected_file_is_compared_or_named_as_not_run():
    on_disk = {path.name for path in DATA.glob("out.*")}
    compared = {command.expected for command in COMMANDS}
    assert on_disk == compared | set(NOT_RUN)
    assert not compared & set(NOT_RUN)


def test_every_measure_left_out_is_one_mapteach_lacks():
    """LACKING holds only what mapteach cannot compute: a measure added here must be compared."""
    left_out = {
        measure
        for command in COMMANDS
        for measure, _ in read_expected(DATA / command.expected)
        if is_lacking(measure)
    }
    assert len(left_out) == 25
    for measure in left_out:
        with pytest.raises(ValueError):
            parse_measure(measure)


@pytest.mark.parametrize("command", COMMANDS, ids=[f"{c.expected}-{c.qrels}" for c in COMMANDS])
def test_mapteach_prints_what_trec_eval_printed(command, capsys):
    expected = read_expected(DATA / command.expected)
    kept = {key: value for key, value in expected.items() if not is_lacking(key[0])}
    tag = kept.pop(("runid", "all"), None)  # the run's tag: only --format trec prints it
    measures = sorted({measure for measure, _ in kept} - {"num_q"})
    payload = run_mapteach(command, measures, capsys)
    differ = [
        (measure, query, value, mapteach_value(payload, measure, query))
        for (measure, query), value in kept.items()
        if printed(mapteach_value(payload, measure, query), value) != value
    ]
    assert differ == [], f"{len(differ)} of {len(kept)} values differ (measure, query, ...)"
    left_out = len(expected) - len(kept) - (tag is not None)
    assert (len(kept), left_out) == (command.compared, command.left_out)
    queries = {query for _, query in expected} - {"all"}
    if "-q" in command.options:
        assert set(payload["per_query"]) == queries
    else:
        assert not queries and "per_query" not in payload


#: The commands whose expected file --format trec reproduces byte for byte, line for line:
#: the default measures (``out.test``: every line), and ``-m all_trec`` (the ``out.test.a*``
#: files: the lines of the measures mapteach has, which mapteach prints with that -m list).
BYTE_COMMANDS = [
    command
    for command in COMMANDS
    if command.expected in ("out.test", "out.comment.test")
    or command.expected.startswith("out.test.a")
]


def kept_lines(path: Path) -> list[str]:
    """The expected file's lines of the measures mapteach has, in trec_eval's order."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    return [line for line in lines if not is_lacking(line.split("\t")[0].strip())]


@pytest.mark.parametrize(
    "command", BYTE_COMMANDS, ids=[f"{c.expected}-{c.qrels}" for c in BYTE_COMMANDS]
)
def test_trec_format_prints_the_expected_lines_byte_for_byte(command, capsys):
    lines = kept_lines(DATA / command.expected)
    assert len(lines) == command.compared + 1  # the values the JSON test compares, and runid
    default = command.expected in ("out.test", "out.comment.test")
    measures = [] if default else list(dict.fromkeys(line.split("\t")[0].strip() for line in lines))
    args = ["evaluate", str(DATA / command.qrels), str(DATA / command.run), *command.options]
    args += [word for measure in measures for word in ("-m", measure)]
    code = main([*args, "--format", "trec"])
    output = capsys.readouterr()
    assert code == 0, output.err
    printed_lines = output.out.splitlines(keepends=True)
    assert len(printed_lines) == len(lines)
    pairs = enumerate(zip(printed_lines, lines, strict=True))
    assert [(i, ours, theirs) for i, (ours, theirs) in pairs if ours != theirs] == []
    if default:  # every line of trec_eval's default output, none left out
        assert printed_lines == (DATA / command.expected).read_text().splitlines(keepends=True)
