"""The ``python -m mapteach`` command line: evaluate TREC runs, trace AP by hand."""

from __future__ import annotations

import argparse
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mapteach.i18n import LANGUAGES, get_language, language, tr
from mapteach.metrics.names import DEFAULT_MEASURES
from mapteach.metrics.options import AGGREGATES, MISSING, NO_RELEVANT, TIES
from mapteach.metrics.registry import measure_help_lines

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
        description=tr("Evaluate ranked results the way trec_eval does, and trace AP by hand."),
        formatter_class=argparse.RawDescriptionHelpFormatter,
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
            "(qid 0 docid relevance), per query and as the mean over queries."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
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
            "a measure to compute, named as ir_measures (AP@10) or trec_eval (map_cut.10) "
            "names it; repeat it (default: {default})",
            default=" ".join(DEFAULT_MEASURES),
        ),
    )
    run.add_argument(
        "-q", "--per-query", action="store_true", help=tr("print every query, not only the mean")
    )
    run.add_argument("--format", choices=("table", "csv", "json"), default="table")
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
        default="ignore",
        help=tr("judged queries absent from the run: ignore (trec_eval) or zero (-c)"),
    )
    run.add_argument(
        "--aggregate",
        choices=AGGREGATES,
        default="mean",
        help=tr(
            "the all-queries line: mean, or gm, the geometric mean with each value floored at "
            "1e-5 (trec_eval gm_map for map); counts are summed, GMAP is always gm"
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
        help=tr("score only the first N results of each query (trec_eval -M)"),
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
    # imported here, not at the top: a command loads only what it needs (pandas is slow)
    import pandas as pd

    from mapteach.runs.evaluation import evaluate, summarize

    if args.qrels == args.run == "-":
        raise ValueError(
            tr("only one of the qrels and the run can be read from standard input (-).")
        )
    measures = args.measures or list(DEFAULT_MEASURES)
    table = evaluate(
        _input(args.qrels),
        _input(args.run),
        measures,
        ties=args.ties,
        no_relevant=args.no_relevant,
        missing=args.missing,
        relevance_threshold=args.relevance_threshold,
        max_results=args.max_results,
        judged_only=args.judged_only,
    )
    mean = summarize(table, measures, aggregate=args.aggregate)
    if args.format == "json":
        # NaN (e.g. a mean over no query) becomes null: strict JSON has no NaN
        payload = {
            "mean": mean.astype(object).where(mean.notna(), None).to_dict(),
            "aggregate": args.aggregate,
            "queries": len(table),
        }
        if args.per_query:
            known = table.astype(object).where(table.notna(), None)
            payload["per_query"] = known.to_dict(orient="index")
        return json.dumps(payload, indent=2, allow_nan=False)
    totals = [*mean, table["R"].sum(), table["retrieved"].sum()]
    # appended as its own row, so that a query named "all" keeps its own line
    summary = pd.DataFrame([totals], pd.Index(["all"], name=table.index.name), table.columns)
    shown = pd.concat([table if args.per_query else table.iloc[:0], summary])
    shown[["R", "retrieved"]] = shown[["R", "retrieved"]].astype(int)
    if args.format == "csv":
        return shown.to_csv(float_format="%.4f").rstrip("\n")
    return shown.to_string(float_format=lambda value: f"{value:.4f}")


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
        line (or the option) and the rule, and no traceback.

    Examples
    --------
    >>> from mapteach.cli import main
    >>> main(["evaluate", "no-such-qrels.txt", "run.txt"])  # stderr: error: no-such-qrels...
    2
    """
    # --lang first, so that the help, the tables and the messages all speak it
    chosen = argparse.ArgumentParser(add_help=False)
    _language_option(chosen)
    with language(chosen.parse_known_args(argv)[0].lang):
        return _run(_parser().parse_args(argv))


def _run(args: argparse.Namespace) -> int:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)
        try:
            command = {"evaluate": _evaluate, "trace": _trace, "progress": _progress}
            output = command[args.command](args)
        except (ValueError, TypeError) as error:  # bad input: one line, no traceback
            message = " ".join(str(error).splitlines())
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
