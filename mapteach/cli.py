"""The ``python -m mapteach`` command line: evaluate TREC runs, trace AP by hand."""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mapteach.i18n import LANGUAGES, get_language, language, tr
from mapteach.i18n.argparse_messages import (
    HelpFormatter,
    RawDescriptionHelpFormatter,
    argparse_language,
)
from mapteach.metrics.names import DEFAULT_MEASURES, TREC_EVAL_OFFICIAL
from mapteach.metrics.options import AGGREGATES, MISSING, NO_RELEVANT, TIES, Aggregate
from mapteach.metrics.registry import TREC_EVAL_NAMES, measure_help_lines

if TYPE_CHECKING:
    from mapteach.metrics.names import Measure
    from mapteach.runs.scoring import RunScores

__all__ = ["main"]


def _measures_help() -> str:
    """One line per declared measure, under a heading."""
    return tr("measures (add @k for a cutoff, e.g. AP@10, P@5, nDCG@10):") + "".join(
        f"\n  {line}" for line in measure_help_lines()
    )


def _language_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=get_language(),
        help=tr(
            "the language of tables, messages and help (default: {default})",
            default=get_language(),
        ),
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m mapteach",
        description=tr(
            "Evaluate TREC runs (with trec_eval's measures, options and output among "
            "others), trace AP by hand, and merge learners' progress files."
        ),
        formatter_class=RawDescriptionHelpFormatter,
        epilog=_measures_help(),
    )
    _language_option(parser)
    commands = parser.add_subparsers(dest="command", required=True)
    _add_evaluate(commands)
    _add_trace(commands)
    _add_progress(commands)
    return parser


def _add_evaluate(commands: Any) -> None:
    run = commands.add_parser(
        "evaluate",
        help=tr("score a TREC run file against a qrels file"),
        description=tr(
            "Score a TREC run (qid Q0 docid rank score tag) against qrels "
            "(qid 0 docid relevance), per query and over all queries. With --format trec "
            "the output is trec_eval's own lines, so that a script can call this in place "
            "of trec_eval with the same options."
        ),
        formatter_class=RawDescriptionHelpFormatter,
        epilog=_measures_help(),
    )
    run.add_argument("qrels", help=tr("the judgments file (- for standard input; gzip is fine)"))
    run.add_argument("run", help=tr("the run file (- for standard input; gzip is fine)"))
    run.add_argument(
        "-m",
        "--measure",
        action="append",
        dest="measures",
        metavar="MEASURE",
        help=tr(
            "a measure to compute: an ir_measures name (AP@10, P(rel=2)@10) or a trec_eval "
            "measure, with several cutoffs if you like (P.5,10,20, ndcg_cut.10,20; P alone "
            "is trec_eval's cutoffs 5 to 1000; official is trec_eval's default set: "
            "{official}); repeat it (default: {default}; with --format trec, official)",
            default=" ".join(DEFAULT_MEASURES),
            official=" ".join(TREC_EVAL_OFFICIAL),
        ),
    )
    run.add_argument(
        "-q",
        "--per-query",
        action="store_true",
        help=tr("print every query's values before the line over all queries"),
    )
    run.add_argument(
        "--format",
        choices=("table", "csv", "json", "trec"),
        default="table",
        help=tr(
            "table: aligned columns, 4 decimals; csv and json: every digit of each value "
            "(counts as whole numbers); trec: trec_eval's lines, measure, query and value "
            "with 4 decimals, byte for byte (default: table)"
        ),
    )
    _add_conventions(run)
    _add_cuts(run)


def _add_conventions(run: argparse.ArgumentParser) -> None:
    """The convention switches of ``evaluate``: ties, R = 0, missing queries, the mean."""
    run.add_argument(
        "--ties",
        choices=TIES,
        default="trec_eval",
        help=tr("how tied scores are ordered (default: trec_eval, docno descending)"),
    )
    run.add_argument(
        "--no-relevant",
        choices=NO_RELEVANT,
        default="zero",
        help=tr("what a query with no relevant document scores (default: zero)"),
    )
    run.add_argument(
        "--missing",
        choices=MISSING,
        default="error",
        help=tr(
            "a judged query the run lacks: error (stop and name the queries, as trec_eval "
            "10 does), zero (score it 0 and count it in the means: trec_eval -c) or ignore "
            "(leave it out, with a warning) (default: error)"
        ),
    )
    run.add_argument(
        "-c",
        action="store_const",
        const="zero",
        dest="missing",
        help=tr("the same as --missing zero (trec_eval -c)"),
    )
    run.add_argument(
        "--aggregate",
        choices=AGGREGATES,
        default="mean",
        help=tr(
            "the line over all queries: mean, or gm, the geometric mean with each value "
            "floored at 1e-5, which names the column gm_<measure> (gm_map for map); counts "
            "are summed, GMAP is always gm (default: mean)"
        ),
    )


def _add_cuts(run: argparse.ArgumentParser) -> None:
    """trec_eval's -l, -M and -J: what counts as relevant, and which results are scored."""
    run.add_argument(
        "-l",
        "--relevance-threshold",
        type=int,
        default=1,
        metavar="GRADE",
        help=tr("lowest grade that counts as relevant (trec_eval -l; default 1)"),
    )
    run.add_argument(
        "-M",
        "--max-results",
        type=int,
        default=None,
        metavar="N",
        help=tr(
            "score only each query's first N results in trec_eval's order (by score, ties "
            "by document id descending; the rank column is ignored) (trec_eval -M)"
        ),
    )
    run.add_argument(
        "-J",
        "--judged-only",
        action="store_true",
        help=tr("drop unjudged documents (and negative grades) from each ranking (trec_eval -J)"),
    )


def _add_trace(commands: Any) -> None:
    trace = commands.add_parser(
        "trace",
        formatter_class=HelpFormatter,
        help=tr("print the AP trace table and its arithmetic"),
        description=tr("Print AP rank by rank for a ranked list of 0/1 labels, e.g. 1,0,1,1."),
    )
    _language_option(trace)
    trace.add_argument("labels", help=tr("comma-separated 0/1 labels, best first, e.g. 1,0,1,1"))
    trace.add_argument(
        "--relevant",
        type=int,
        default=None,
        metavar="R",
        help=tr("R, the query's relevant documents, retrieved or not"),
    )
    trace.add_argument("-k", "--cutoff", type=int, default=None, help=tr("rank cutoff (AP@k)"))


def _add_progress(commands: Any) -> None:
    board = commands.add_parser(
        "progress",
        formatter_class=HelpFormatter,
        help=tr("merge learners' progress files into one table per learner and exercise"),
        description=tr(
            "Merge the progress files learners hand in (~/.mapteach/progress.jsonl), or a "
            "room's progress folder, into one table per learner and exercise: attempts, "
            "status (passed, stuck, trying, not_started), the last verdict, answer and "
            "named mistake."
        ),
    )
    _language_option(board)
    board.add_argument(
        "files", nargs="*", metavar="FILE", help=tr("a progress file (- for standard input)")
    )
    board.add_argument(
        "--folder",
        action="append",
        default=[],
        metavar="DIR",
        help=tr("a progress folder: every learner's file in it"),
    )
    board.add_argument(
        "--notebooks",
        metavar="DIR",
        help=tr("the notebooks whose exercises are expected: a not_started row for each"),
    )
    board.add_argument(
        "--roster",
        metavar="FILE",
        help=tr("the room's learners, one name a line: those with no check yet are listed too"),
    )
    board.add_argument("--format", choices=("table", "csv", "json"), default="table")
    board.add_argument("--learner", metavar="NAME", help=tr("show only this learner"))
    board.add_argument(
        "--skip-corrupt",
        action="store_true",
        help=tr("warn about each unreadable line and go on, instead of stopping at the first"),
    )


def _input(path: str) -> object:
    """A path as given, or standard input (read as bytes) for ``-``."""
    return sys.stdin.buffer if path == "-" else path


def _evaluate(args: argparse.Namespace) -> str:
    # imported here, not at the top: a command loads only what it needs
    from mapteach.runs.scoring import score_run

    if args.qrels == args.run == "-":
        raise ValueError(
            tr("only one of the qrels and the run can be read from standard input (-).")
        )
    default = ["official"] if args.format == "trec" else list(DEFAULT_MEASURES)
    specs = _as_trec_eval_reads(args.measures or default)
    scores = score_run(
        _input(args.qrels),
        _input(args.run),
        [spec for spec in specs if spec != "runid"],  # the run's tag, not a measure
        ties=args.ties,
        no_relevant=args.no_relevant,
        missing=args.missing,
        relevance_threshold=args.relevance_threshold,
        max_results=args.max_results,
        judged_only=args.judged_only,
    )
    if args.format == "trec":
        from mapteach.runs.trec_output import format_trec

        run_tag = (scores.run_tag or "") if "runid" in specs else None
        text = format_trec(
            scores, per_query=args.per_query, run_tag=run_tag, aggregate=args.aggregate
        )
        return text.removesuffix("\n")
    shown = _shown_rows(scores, per_query=args.per_query, aggregate=args.aggregate)
    if args.format == "json":
        return _json_text(shown, scores, per_query=args.per_query, aggregate=args.aggregate)
    if args.format == "csv":
        return _csv_text(shown)
    return _table_text(shown)


def _as_trec_eval_reads(specs: Sequence[str]) -> list[str]:
    """The ``-m`` options as trec_eval reads them: each of its measures once, at most.

    ``official`` stands for trec_eval's default set. A trec_eval measure named again is
    the same measure, and its cutoffs (or gain map) are those of the first ``-m`` that
    gives any, as trec_eval's ``meas_init.c`` takes them: ``-m P.5 -m P.10`` is ``P_5``
    alone, ``-m P -m P.5`` and ``-m official -m P.10`` are ``P_10`` for P. An
    ir_measures name given twice stays twice (and is refused as such).

    >>> _as_trec_eval_reads(["P", "map", "P.5", "P.10", "map", "AP@5"])
    ['P.5', 'map', 'AP@5']
    """
    chosen: dict[str | int, str] = {}  # trec_eval's measure name (or the place) -> its -m
    expanded = [
        name
        for given in specs
        for name in (TREC_EVAL_OFFICIAL if given == "official" else (given,))
    ]
    for place, spec in enumerate(expanded):
        measure, dot, _ = spec.strip().partition(".")
        if measure not in TREC_EVAL_NAMES and measure != "runid":
            chosen[place] = spec
        elif measure not in chosen or (dot and "." not in chosen[measure]):
            chosen[measure] = spec
    return list(chosen.values())


#: A printed table: its header (the query column first), then one row per query and ``all``.
_Rows = tuple[list[str], list[list[Any]]]


def _value(number: float, *, integer: bool) -> int | float | None:
    """A value as printed: a count as an int, a float as it is, NaN as None (no value)."""
    if number != number:  # NaN: a mean over no query
        return None
    return int(number) if integer else float(number)


def _column(key: str, measure: Measure, aggregate: Aggregate) -> str:
    """A measure's column, named for its all-queries line: ``gm_map`` for map's GMAP."""
    averaged = measure.declaration.combine == "mean"
    return f"gm_{key}" if aggregate == "gm" and averaged else key


def _shown_rows(scores: RunScores, *, per_query: bool, aggregate: Aggregate) -> _Rows:
    """One column per measure (named for the all-queries aggregate), then R and retrieved."""
    measures = scores.measures
    header = ["query_id", *(_column(key, m, aggregate) for key, m in measures.items())]
    _check_columns(header)
    counted = {key: m.declaration.combine == "sum" for key, m in measures.items()}
    rows = []
    for position, query in enumerate(scores.queries if per_query else ()):
        values = [_value(scores.values[key][position], integer=counted[key]) for key in measures]
        counts = [int(scores.n_relevant[position]), int(scores.n_retrieved[position])]
        rows.append([query, *values, *counts])
    means = [
        _value(scores.summary(key, aggregate=aggregate), integer=counted[key]) for key in measures
    ]
    totals = [int(scores.n_relevant.sum()), int(scores.n_retrieved.sum())]
    rows.append(["all", *means, *totals])
    return [*header, "R", "retrieved"], rows


def _check_columns(header: list[str]) -> None:
    """Raise if two measures print under one column (``map`` and ``gm_map`` with ``gm``)."""
    repeated = sorted({column for column in header if header.count(column) > 1})
    if repeated:
        raise ValueError(
            tr(
                "two measures print as the column {columns}: give only one of them (with "
                "--aggregate gm, map's column is gm_map, as gm_map's is).",
                columns=", ".join(repeated),
            )
        )


def _json_text(shown: _Rows, scores: RunScores, *, per_query: bool, aggregate: str) -> str:
    """The means (null where undefined: strict JSON has no NaN), and each query's values."""
    header, rows = shown
    payload: dict[str, Any] = {
        "mean": dict(zip(header[1:-2], rows[-1][1:-2], strict=True)),
        "aggregate": aggregate,
        "queries": len(scores.queries),
    }
    if per_query:
        names = [*scores.measures, "R", "retrieved"]
        payload["per_query"] = {row[0]: dict(zip(names, row[1:], strict=True)) for row in rows[:-1]}
    return json.dumps(payload, indent=2, allow_nan=False)


def _csv_text(shown: _Rows) -> str:
    """Comma-separated, every digit of each float (its repr), an empty cell for no value."""
    header, rows = shown
    output = io.StringIO()
    writer = csv.writer(output, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([["" if cell is None else cell for cell in row] for row in rows])
    return output.getvalue().rstrip("\n")


def _table_text(shown: _Rows) -> str:
    """Aligned columns, floats to 4 decimals (pandas' layout)."""
    import pandas as pd

    header, rows = shown
    table = pd.DataFrame([row[1:] for row in rows], pd.Index([r[0] for r in rows]), header[1:])
    table.index.name = header[0]
    return table.to_string(float_format=lambda value: f"{value:.4f}", na_rep="NaN")


def _trace(args: argparse.Namespace) -> str:
    from mapteach.explain.ap_trace import explain_ap, trace_ap

    try:
        labels = [int(label) for label in args.labels.split(",")]
    except ValueError:
        raise ValueError(
            tr(
                "labels must be comma-separated 0/1 values such as 1,0,1,1; got {labels!r}.",
                labels=args.labels,
            )
        ) from None
    options = {"n_relevant": args.relevant, "k": args.cutoff}
    table = trace_ap(labels, **options).round(4).to_string(index=False)
    return f"{table}\n\n{explain_ap(labels, **options)}"


def _progress(args: argparse.Namespace) -> str:
    import pandas as pd

    from mapteach.classroom.room_progress import read_room
    from mapteach.exercises.notebook_index import exercise_index
    from mapteach.exercises.reading import shown_answer

    if args.files.count("-") > 1:
        raise ValueError(tr("standard input (-) can be read only once."))
    if not args.files and not args.folder:
        raise ValueError(tr("give a progress file or a progress folder (--folder DIR)."))
    for folder in [*args.folder, *([args.notebooks] if args.notebooks else [])]:
        if not os.path.isdir(folder):
            raise ValueError(tr("{folder} is not a folder.", folder=folder))
    room = read_room(
        *args.folder,
        *[_input(path) for path in args.files],  # type: ignore[arg-type]
        exercises=exercise_index(args.notebooks) if args.notebooks else (),
        learners=_roster(args.roster) if args.roster else (),
        skip_corrupt=args.skip_corrupt,
    )
    table = room.table
    if args.learner is not None:
        table = table[table["learner"] == args.learner.strip()]
    shown = table.astype(object)
    shown["last_time"] = [
        "" if stamp is pd.NaT else stamp.isoformat(timespec="seconds")
        for stamp in table["last_time"]
    ]
    if args.format == "json":
        return json.dumps(shown.to_dict(orient="records"), ensure_ascii=False, indent=2)
    if args.format == "csv":
        return shown.to_csv(index=False).rstrip("\n")
    if shown.empty:
        return "  ".join(shown.columns)
    # the table shows a prompt as feedback quotes an answer (CSV and JSON: all of it)
    shown["prompt"] = [shown_answer(prompt) for prompt in shown["prompt"]]
    with pd.option_context("display.unicode.east_asian_width", True):  # names in Chinese
        return shown.to_string(index=False)


def _roster(path: str) -> list[str]:
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise ValueError(
            tr("cannot read the roster {path}: {reason}", path=path, reason=error.strerror)
        ) from None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (0 success, 2 bad input).

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments after ``python -m mapteach`` (default: ``sys.argv[1:]``). A file
        named ``-`` is standard input.

    Returns
    -------
    int
        0 on success; 2 on bad input, after one line on stderr naming the file and the
        line (or the option) and the rule, and no traceback: ``mapteach evaluate: error:
        ...`` for ``evaluate`` (as trec_eval names itself), ``error: ...`` for the others.

    Examples
    --------
    >>> from mapteach.cli import main
    >>> main(["evaluate", "no-such-qrels.txt", "run.txt"])  # stderr: mapteach evaluate: error: ...
    2
    """
    # --lang first, so that the help (argparse's own words too), the tables and the messages
    # all speak it
    with argparse_language():
        chosen = argparse.ArgumentParser(prog="python -m mapteach", add_help=False)
        _language_option(chosen)
        lang = chosen.parse_known_args(argv)[0].lang
    with language(lang), argparse_language():
        args = _parser().parse_args(argv)
    with language(lang):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)
        try:
            command = {"evaluate": _evaluate, "trace": _trace, "progress": _progress}
            output = command[args.command](args)
        except (ValueError, TypeError) as error:  # bad input: one line, no traceback
            message = " ".join(str(error).splitlines())
            if args.command == "evaluate":  # named as trec_eval names itself: a script calls it
                print(tr("mapteach evaluate: error: {message}", message=message), file=sys.stderr)
            else:
                print(tr("error: {message}", message=message), file=sys.stderr)
            return 2
    for warning in caught:
        print(tr("warning: {message}", message=warning.message), file=sys.stderr)
    try:
        print(output)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader (e.g. `| head`) closed the pipe early: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # as the Python docs advise
    return 0
