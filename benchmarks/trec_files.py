"""Speed and memory of reading TREC files: ``read_run``, ``read_qrels`` and the CLI end to end.

Writes a run of LINES lines (1,000 documents per query) and its qrels (50 judged
documents per query, a third of them relevant, plus 5 relevant documents never
retrieved) into a temporary folder, with numeric-looking identifiers such as
query ``000123`` and document ``0004567``. Each measurement runs in its own
process, so each peak memory (max RSS, imports included) is its own:

- ``read_run``/``read_qrels``: wall and CPU time of the call alone, and the process's
  peak RSS;
- ``cli``: ``python -m mapteach evaluate QRELS RUN -m AP -m P@10 -m nDCG@10``, wall and
  CPU time (user + system) and peak RSS of the whole command (start-up included).

- ``trec_eval`` (with ``--trec-eval PATH``): ``PATH -m map -m P.10 -m ndcg_cut.10 QRELS
  RUN`` on the same files in the same run, measured the same way, with the ratios of
  the CLI's wall time, CPU time and peak RSS to its own, and its all-queries values
  beside the CLI's (trec_eval 9 stores scores as float32, so ties among scores that
  differ in the 7th digit may break differently: differences over 1e-4 are reported,
  not raised).

On a shared machine the wall time varies with the load; the CPU time much less.

Run from the repository root (about a minute at 2M lines):
    .venv/bin/python -m benchmarks.trec_files [--lines 2000000] [--keep DIR] [--trec-eval PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

DOCS_PER_QUERY = 1_000
JUDGED_PER_QUERY = 50
MEASURES = ["AP", "P@10", "nDCG@10"]
TREC_EVAL_MEASURES = {"map": "AP", "P_10": "P@10", "ndcg_cut_10": "nDCG@10"}

_READ = """
import json, resource, sys, time
from mapteach.runs.trec import {reader}
start, cpu = time.perf_counter(), time.process_time()
frame = {reader}(sys.argv[1])
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"seconds": seconds, "cpu": cpu, "peak_mib": peak, "rows": len(frame)}}))
"""


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


def _child(args: list[str]) -> tuple[float, float, float, str]:
    """Wall time, CPU time, peak RSS (MiB) and stdout of one child process (its own rusage)."""
    with tempfile.TemporaryFile() as errors:  # a file: a chatty stderr cannot block the child
        start = time.perf_counter()
        process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=errors)
        stdout = process.stdout.read().decode()
        _, status, usage = os.wait4(process.pid, 0)  # the child's own rusage, not all children's
        seconds = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status):
            errors.seek(0)
            raise RuntimeError(f"{' '.join(args)} failed:\n{errors.read().decode()}")
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, stdout


def measure(qrels: Path, run: Path, trec_eval: str | None = None) -> dict[str, dict[str, Any]]:
    """Time and peak memory of each reader, of the CLI and of trec_eval, each in a fresh process."""
    results: dict[str, dict[str, Any]] = {}
    for reader, path in (("read_run", run), ("read_qrels", qrels)):
        *_, stdout = _child([sys.executable, "-c", _READ.format(reader=reader), str(path)])
        results[reader] = json.loads(stdout)
    command = [
        sys.executable,
        "-m",
        "mapteach",
        "evaluate",
        str(qrels),
        str(run),
        "--format",
        "json",
    ]
    for name in MEASURES:
        command += ["-m", name]
    seconds, cpu, peak, stdout = _child(command)
    mean = json.loads(stdout)["mean"]
    output = "  ".join(f"{name} {mean[name]:.4f}" for name in MEASURES)
    results["cli"] = {"seconds": seconds, "cpu": cpu, "peak_mib": peak, "output": output}
    results["cli"]["values"] = mean
    if trec_eval:
        command = [trec_eval, "-m", "map", "-m", "P.10", "-m", "ndcg_cut.10", str(qrels), str(run)]
        seconds, cpu, peak, stdout = _child(command)
        values = {}
        for line in stdout.splitlines():  # measure, query ("all"), value
            fields = line.split()
            if len(fields) == 3 and fields[1] == "all" and fields[0] in TREC_EVAL_MEASURES:
                values[TREC_EVAL_MEASURES[fields[0]]] = float(fields[2])
        output = "  ".join(f"{name} {values.get(name, float('nan')):.4f}" for name in MEASURES)
        results["trec_eval"] = {
            "seconds": seconds,
            "cpu": cpu,
            "peak_mib": peak,
            "output": output,
            "values": values,
        }
    return results


def compare(results: dict[str, dict[str, Any]]) -> list[str]:
    """Lines giving the CLI's time and memory as multiples of trec_eval's, and any disagreement."""
    cli, reference = results["cli"], results["trec_eval"]
    lines = [
        "cli/trec_eval  "
        + "  ".join(
            f"{label} {cli[key] / reference[key]:.2f}x"
            for label, key in (("wall", "seconds"), ("cpu", "cpu"), ("peak", "peak_mib"))
        )
    ]
    for name in MEASURES:
        ours, theirs = cli["values"][name], reference["values"].get(name)
        if theirs is None:
            lines.append(f"{name}: trec_eval printed no all-queries value")
        elif abs(ours - theirs) > 1e-4:
            lines.append(f"{name}: the CLI gives {ours:.6f}, trec_eval {theirs:.6f} (beyond 1e-4)")
    if len(lines) == 1:
        lines.append("the all-queries values agree with trec_eval to 1e-4")
    return lines


def main(argv: list[str] | None = None) -> None:
    """Write the files, then print each measurement on one line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=2_000_000, help="lines of the run")
    parser.add_argument("--keep", type=Path, help="write the files here and keep them")
    parser.add_argument(
        "--trec-eval", metavar="PATH", help="also run this trec_eval binary on the same files"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        qrels, run = make_files(folder, args.lines)
        print(
            f"wrote {args.lines:,} run lines ({run.stat().st_size / 2**20:.0f} MiB) and "
            f"{qrels.stat().st_size / 2**20:.1f} MiB of qrels in "
            f"{time.perf_counter() - start:.1f} s"
        )
        results = measure(qrels, run, args.trec_eval)
        for name, result in results.items():
            extra = f"  {result['output']}" if "output" in result else ""
            print(
                f"{name:<11} wall {result['seconds']:6.2f} s  cpu {result['cpu']:6.2f} s  "
                f"peak {result['peak_mib']:5.0f} MiB{extra}"
            )
        if args.trec_eval:
            print("\n".join(compare(results)))


if __name__ == "__main__":
    main()
