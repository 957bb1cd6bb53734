"""Start-up and scale against trec_eval: ``mapteach evaluate --format trec`` vs the binary.

For each size (100,000 and 2,000,000 run lines by default), writes a run (1,000
documents per query) and its qrels (50 judged documents per query, a third of them
relevant, plus 5 relevant documents never retrieved) with numeric-looking ids such
as query ``000123`` and document ``0004567``, then runs, each in its own process,

- ``python -m mapteach evaluate --format trec QRELS RUN`` (trec_eval's default
  measure set, as the binary prints it), and
- ``trec_eval QRELS RUN``, the binary given with ``--trec-eval PATH`` or built from
  ``../shared/data/trec_eval-src.tar.gz`` with ``--build-trec-eval``
  (``tools/trec_eval_build.py``),

and prints the wall time, the CPU time (user + system) and the peak RSS of each (the
child's own ``rusage``, start-up and imports included; the best of ``--repeat`` runs),
their ratios, the issue's goals (100k: <= 2x wall time and <= 4x memory; 2M: <= 1.0x
CPU time and <= 1.5x memory) and whether each is met, and whether the two outputs are
byte-identical. Each command runs once before it is measured, which writes Python's
bytecode caches (in a temporary folder, as an installed package has them). On a shared
machine the wall time varies with the load; the CPU time and the memory much less.

Run from the repository root (about a minute):
    .venv/bin/python -m benchmarks.trec_files --build-trec-eval
    .venv/bin/python -m benchmarks.trec_files --trec-eval PATH [--sizes 100000 2000000]
        [--repeat 3] [--keep DIR] [--format csv]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DOCS_PER_QUERY = 1_000
JUDGED_PER_QUERY = 50
SIZES = (100_000, 2_000_000)
#: The issue's goals per size: the largest ratio (mapteach / trec_eval) allowed, per figure.
GOALS = {100_000: {"wall": 2.0, "peak": 4.0}, 2_000_000: {"cpu": 1.0, "peak": 1.5}}
LABELS = {"wall": "wall time", "cpu": "CPU time", "peak": "memory"}
GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
#: The children's environment: Python's bytecode caches written and read, as an installed
#: package has them, but outside the checkout (PYTHONDONTWRITEBYTECODE would compile every
#: module on every start).
CHILD_ENV = {
    **{key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"},
    "PYTHONPYCACHEPREFIX": str(Path(tempfile.gettempdir()) / "mapteach-benchmark-pycache"),
}


@dataclass(frozen=True)
class Usage:
    """One command's best wall time, CPU time and peak RSS over the repeats, and its output."""

    wall: float
    cpu: float
    peak: float
    stdout: bytes


def make_files(folder: Path, lines: int, seed: int = 0) -> tuple[Path, Path]:
    """Write ``run.txt`` (LINES lines) and ``qrels.txt`` with numeric-looking ids."""
    rng = np.random.default_rng(seed)
    queries = max(1, lines // DOCS_PER_QUERY)
    run, qrels = folder / "run.txt", folder / "qrels.txt"
    with open(run, "w") as out_run, open(qrels, "w") as out_qrels:
        for query in range(queries):
            qid = f"{query:06d}"
            docs = rng.choice(10 * DOCS_PER_QUERY, DOCS_PER_QUERY, replace=False)
            scores = np.sort(rng.random(DOCS_PER_QUERY))[::-1] * 100
            out_run.write(
                "".join(
                    f"{qid} Q0 {doc:07d} {rank} {score:.6f} bench\n"
                    for rank, (doc, score) in enumerate(zip(docs, scores, strict=True), 1)
                )
            )
            judged = rng.choice(docs, JUDGED_PER_QUERY, replace=False)
            grades = rng.random(JUDGED_PER_QUERY) < 1 / 3
            out_qrels.write(
                "".join(
                    f"{qid} 0 {doc:07d} {int(grade)}\n"
                    for doc, grade in zip(judged, grades, strict=True)
                )
            )
            out_qrels.write("".join(f"{qid} 0 unretrieved{k} 1\n" for k in range(5)))
    return qrels, run


def _child(args: list[str]) -> Usage:
    """Wall time, CPU time, peak RSS (MiB) and stdout of one child process.

    The CPU time and the peak RSS are the child's own, as GNU time reports them: Linux
    starts a child's peak RSS at its parent's when it is forked from this (large) Python
    process, so a small binary's own peak would not show; GNU time forks it from a small
    process. Without /usr/bin/time, the child's rusage from ``os.wait4``.
    """
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "usage"
        timed = [GNU_TIME, "-f", "%U %S %M", "-o", str(report), *args] if GNU_TIME else args
        with (
            open(Path(scratch) / "out", "w+b") as output,
            open(Path(scratch) / "err", "w+b") as err,
        ):
            start = time.perf_counter()
            process = subprocess.Popen(timed, stdout=output, stderr=err, cwd=ROOT, env=CHILD_ENV)
            _, status, usage = os.wait4(process.pid, 0)
            wall = time.perf_counter() - start
            if os.waitstatus_to_exitcode(status):
                err.seek(0)
                raise RuntimeError(f"{' '.join(args)} failed:\n{err.read().decode()}")
            output.seek(0)
            stdout = output.read()
        if not GNU_TIME:
            return Usage(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, stdout)
        user, system, peak_kib = report.read_text().split()[-3:]
    return Usage(wall, float(user) + float(system), int(peak_kib) / 1024, stdout)


def best_of(args: list[str], repeat: int) -> Usage:
    """The smallest wall time, CPU time and peak RSS over ``repeat`` runs (load adds, never
    takes away), after one run that is not counted (it writes Python's bytecode caches)."""
    _child(args)
    runs = [_child(args) for _ in range(repeat)]
    return Usage(
        min(run.wall for run in runs),
        min(run.cpu for run in runs),
        min(run.peak for run in runs),
        runs[0].stdout,
    )


def measure(folder: Path, lines: int, trec_eval: str | None, options: argparse.Namespace) -> list:
    """The table's lines for one size: each tool, the ratios, the goals, and the diff."""
    folder.mkdir(parents=True, exist_ok=True)
    qrels, run = make_files(folder, lines)
    command = [sys.executable, "-m", "mapteach", "evaluate", "--format", options.format]
    ours = best_of([*command, str(qrels), str(run)], options.repeat)
    rows = [f"{lines:>11,}  {_figures('mapteach', ours)}"]
    if trec_eval is None:
        return rows
    theirs = best_of([trec_eval, str(qrels), str(run)], options.repeat)
    rows.append(f"{'':>11}  {_figures('trec_eval', theirs)}")
    ratios = {key: getattr(ours, key) / getattr(theirs, key) for key in LABELS}
    rows.append(
        f"{'':>11}  {'ratio':<10} "
        + " ".join(f"{ratios[key]:>8.2f}x" for key in ("wall", "cpu", "peak"))
    )
    for key, limit in GOALS.get(lines, {}).items():
        verdict = "met" if ratios[key] <= limit else "NOT met"
        rows.append(f"{'':>11}  goal: {LABELS[key]} <= {limit}x: {verdict} ({ratios[key]:.2f}x)")
    if options.format == "trec":
        rows.append(f"{'':>11}  output: {_diff(ours.stdout, theirs.stdout)}")
    return rows


def _figures(tool: str, usage: Usage) -> str:
    return f"{tool:<10} {usage.wall:>7.2f}s {usage.cpu:>7.2f}s {usage.peak:>6.1f}MiB"


def _diff(ours: bytes, theirs: bytes) -> str:
    """Whether two outputs are byte-identical, or the first differing line of each."""
    if ours == theirs:
        return "byte-identical to trec_eval's"
    mine, reference = ours.decode().splitlines(), theirs.decode().splitlines()
    differing = [
        i for i, pair in enumerate(zip(mine, reference, strict=False)) if len(set(pair)) > 1
    ]
    first = differing[0] if differing else min(len(mine), len(reference))
    shown = [*mine, ""][first], [*reference, ""][first]
    return (
        f"{len(differing)} line(s) differ (and {len(mine)} vs {len(reference)} lines); "
        f"first, line {first + 1}: {shown[0]!r} vs trec_eval {shown[1]!r}"
    )


def trec_eval_binary(options: argparse.Namespace) -> str | None:
    """The binary to compare with: given, built from the shared tarball, or none."""
    if options.trec_eval:
        return str(options.trec_eval)
    if not options.build_trec_eval:
        return None
    sys.path.insert(0, str(ROOT / "tools"))
    from trec_eval_build import build_trec_eval

    built = build_trec_eval()
    if built is None:
        raise SystemExit(
            "trec_eval's source is not at ../shared/data/trec_eval-src.tar.gz "
            "(or $MAPTEACH_TREC_EVAL_SRC): give the binary with --trec-eval PATH."
        )
    return str(built)


def main(argv: list[str] | None = None) -> None:
    """Write the files of each size, then print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES), help="run lines")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each command (the best)")
    parser.add_argument("--keep", type=Path, help="write the files here and keep them")
    parser.add_argument("--format", choices=("trec", "csv"), default="trec")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--trec-eval", metavar="PATH", help="the trec_eval binary to compare with")
    source.add_argument(
        "--build-trec-eval", action="store_true", help="build it from the shared tarball"
    )
    options = parser.parse_args(argv)
    trec_eval = trec_eval_binary(options)
    ours = f"python -m mapteach evaluate --format {options.format}"
    print(f"{ours} QRELS RUN  vs  {trec_eval} QRELS RUN")
    measured = "GNU time" if GNU_TIME else "os.wait4 (the peaks start at this process's)"
    print(f"best of {options.repeat} runs each; CPU = user + system, peak = max RSS, by {measured}")
    print(f"{'run lines':>11}  {'tool':<10} {'wall':>8} {'cpu':>8} {'peak':>9}")
    with tempfile.TemporaryDirectory() as scratch:
        for lines in options.sizes:
            folder = (options.keep or Path(scratch)) / str(lines)
            print("\n".join(measure(folder, lines, trec_eval, options)), flush=True)


if __name__ == "__main__":
    main()
