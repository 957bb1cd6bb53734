"""Run notebooks for the answer key, in worker processes, and cache the exercises they make.

A learner's or a group's key (and ``tools/answer_key.py --execute``) runs each notebook
up to its last cell that makes an exercise, in a fresh namespace, in the notebook's
folder (``MPLBACKEND=Agg``), inside :func:`mapteach.exercises.registry.collect_exercises`;
every exercise made there is read back by ``tools/answer_key_items.py``'s
``read_exercise``. :data:`WORKERS` processes import mapteach once each and take the next
notebook, the longest first; each notebook's exercises are cached in the folder the
caller names, by the notebook's content, the mapteach sources, the learner and the group.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import re
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent

#: Runs in each worker process: for each job line on stdin (a notebook and the index of
#: its last cell to run), execute the notebook's code cells up to it in a fresh namespace,
#: in the notebook's folder, and answer one JSON line: its exercises, or the error. What the
#: cells print goes to stderr, so that stdout holds the answers only.
_HARVEST = r"""
import contextlib, json, os, sys, traceback
import matplotlib.pyplot as plt
import mapteach
from mapteach.exercises import collect_exercises

learner, group, tools = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, tools)
from answer_key_items import read_exercise

if learner or group:
    mapteach.learner(learner or group, group=group or None)
answers = sys.stdout
for line in sys.stdin:
    path, last = json.loads(line)
    try:
        os.chdir(os.path.dirname(path))
        notebook = json.load(open(path, encoding="utf-8"))
        namespace = {"__name__": "__main__"}
        with contextlib.redirect_stdout(sys.stderr), collect_exercises() as made:
            for cell in notebook["cells"][: last + 1]:
                if cell["cell_type"] == "code":
                    exec(compile("".join(cell["source"]), path, "exec"), namespace)
        reply = {"exercises": [read_exercise(exercise) for exercise in made]}
    except Exception:
        reply = {"error": traceback.format_exc()[-3000:]}
    finally:
        plt.close("all")
    answers.write(json.dumps(reply, ensure_ascii=False) + "\n")
    answers.flush()
"""

#: How many worker processes run notebooks at once (the machines this targets have 2 cores).
WORKERS = 2

#: Where an exercise is made: its key in a notebook's code.
KEYED = re.compile(r'key="\d\d\.\d+"')
#: Where an exercise that varies by learner or group is made (``variant_data``'s rule).
VARYING = re.compile(r"vary=True")


class NotebookFile(NamedTuple):
    """A notebook read once: its path, its bytes (what the cache is keyed by) and its JSON."""

    path: Path
    raw: bytes
    content: dict[str, Any]

    @classmethod
    def read(cls, path: Path) -> NotebookFile:
        """Read ``path``, once."""
        raw = path.read_bytes()
        return cls(path, raw, json.loads(raw))

    def last_cell(self, pattern: re.Pattern[str]) -> int:
        """The index of the last code cell whose source matches ``pattern`` (-1: none)."""
        matching = [
            index
            for index, cell in enumerate(self.content["cells"])
            if cell["cell_type"] == "code" and pattern.search("".join(cell["source"]))
        ]
        return matching[-1] if matching else -1


def sources_digest() -> str:
    """One hash of every mapteach source file and of the answer key's modules
    (``tools/answer_key*.py``): a change anywhere is a miss."""
    digest = hashlib.sha256()
    for tool in sorted(Path(__file__).parent.glob("answer_key*.py")):
        digest.update(tool.read_bytes())
    package = ROOT / "mapteach"
    for source in sorted(package.rglob("*")):
        if source.suffix in {".py", ".js", ".css", ".po", ".json"} and source.is_file():
            digest.update(str(source.relative_to(package)).encode())
            digest.update(source.read_bytes())
    return digest.hexdigest()


def _cache_file(notebook: NotebookFile, who: tuple[str, ...], sources: str, cache: Path) -> Path:
    """Where ``cache`` holds what ``notebook`` made for ``who`` with these ``sources``."""
    digest = hashlib.sha256(notebook.raw)
    digest.update(sources.encode())
    digest.update(json.dumps(who).encode("utf-8"))
    return cache / f"{notebook.path.stem}-{digest.hexdigest()[:16]}.json"


def _instant(stamp: str) -> datetime:
    """A stored execution time (``2026-12-01T17:25:03.042291Z``; Python 3.10 reads no Z)."""
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def _run_seconds(notebook: dict[str, Any], last: int) -> float:
    """How long the code cells up to ``last`` took when the notebook was last executed.

    Read from the cells' stored execution times (0 where a cell has none): only an
    estimate, to start the longest notebooks first.
    """
    seconds = 0.0
    for cell in notebook["cells"][: last + 1]:
        times = cell.get("metadata", {}).get("execution", {})
        begin, end = times.get("iopub.execute_input"), times.get("shell.execute_reply")
        if cell["cell_type"] == "code" and begin and end:
            took = _instant(end) - _instant(begin)
            seconds += took.total_seconds()
    return seconds


def _work(jobs: queue.SimpleQueue[tuple[int, Path, int] | None], who: tuple[str, str]) -> dict:
    """One worker process: run the jobs it takes from ``jobs`` until None; their answers."""
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONHASHSEED": "0"}
    env.pop("MAPTEACH_LEARNER", None)
    env.pop("MAPTEACH_GROUP", None)
    command = [sys.executable, "-c", _HARVEST, *who, str(Path(__file__).resolve().parent)]
    answers: dict[int, dict[str, Any]] = {}
    with subprocess.Popen(
        command,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        encoding="utf-8",
    ) as worker:
        assert worker.stdin is not None and worker.stdout is not None
        while (job := jobs.get()) is not None:
            index, path, last = job
            worker.stdin.write(json.dumps([str(path.resolve()), last]) + "\n")
            worker.stdin.flush()
            line = worker.stdout.readline()
            answers[index] = json.loads(line) if line else {"error": "the worker stopped"}
        worker.stdin.close()
    return answers


def _run_notebooks(jobs: list[tuple[int, Path, int]], who: tuple[str, str]) -> dict:
    """Every job's answer, from :data:`WORKERS` worker processes that take the next job."""
    waiting: queue.SimpleQueue[tuple[int, Path, int] | None] = queue.SimpleQueue()
    for job in jobs:
        waiting.put(job)
    workers = min(WORKERS, len(jobs))
    for _ in range(workers):
        waiting.put(None)
    if not workers:
        return {}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        parts = list(pool.map(lambda _: _work(waiting, who), range(workers)))
    return {index: answer for part in parts for index, answer in part.items()}


def harvest_many(
    paths: Sequence[Path | NotebookFile],
    learner: str | None = None,
    sources: str | None = None,
    *,
    cache: Path,
    group: str | None = None,
    varying_only: bool = False,
) -> list[list[dict[str, Any]]]:
    """The exercises each notebook makes, from the cache or from worker processes.

    Each notebook runs up to its last cell that makes an exercise (with ``varying_only``,
    one that varies by learner), in a fresh namespace, in one of :data:`WORKERS`
    processes that import mapteach once and run one notebook after another, the
    longest first (:func:`_run_seconds`). Each result is cached in the folder ``cache`` by
    the notebook's content, ``sources`` (:func:`sources_digest`, computed when not given),
    the learner, the group and ``varying_only``. A notebook is read once: a
    :class:`NotebookFile` the caller read is not read again.
    """
    who = (learner or "", group or "")
    digest = sources or sources_digest()
    read = [path if isinstance(path, NotebookFile) else NotebookFile.read(path) for path in paths]
    caches = [_cache_file(notebook, (*who, str(varying_only)), digest, cache) for notebook in read]
    results: dict[int, list[dict[str, Any]]] = {}
    jobs: list[tuple[float, int, Path, int]] = []
    for index, (notebook, cached) in enumerate(zip(read, caches, strict=True)):
        if cached.exists():
            results[index] = json.loads(cached.read_text(encoding="utf-8"))
            continue
        last = notebook.last_cell(VARYING if varying_only else KEYED)
        jobs.append((_run_seconds(notebook.content, last), index, notebook.path, last))
    jobs.sort(key=lambda job: -job[0])
    answers = _run_notebooks([job[1:] for job in jobs], who)
    for _, index, path, _ in jobs:
        if "error" in answers[index]:
            raise RuntimeError(f"{path.name} failed:\n{answers[index]['error']}")
        results[index] = answers[index]["exercises"]
        caches[index].parent.mkdir(parents=True, exist_ok=True)
        caches[index].write_text(json.dumps(results[index], ensure_ascii=False), encoding="utf-8")
    return [results[index] for index in range(len(paths))]


def harvest(
    path: Path,
    learner: str | None = None,
    sources: str | None = None,
    *,
    cache: Path,
    group: str | None = None,
    varying_only: bool = False,
) -> list[dict[str, Any]]:
    """The exercises one notebook makes (:func:`harvest_many` of that notebook alone)."""
    return harvest_many(
        [path], learner, sources, cache=cache, group=group, varying_only=varying_only
    )[0]
