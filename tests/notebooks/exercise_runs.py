"""Run a notebook's code and read back the exercises it makes, as one or several learners.

The notebook's code cells run once, in order, in a fresh Python process
(``MPLBACKEND=Agg``, the notebook's folder as the working directory). Each cell that
makes a keyed exercise (``key="NN.M"``) is also run in a forked copy of the process
for every *setting* asked (no learner, ``mapteach.learner(name)``, or
``mapteach.learner(name, group=...)``), inside
:func:`mapteach.exercises.collect_exercises`, so each setting sees the notebook's state
exactly as the cell does, and nothing it does reaches the cells after it.
Setting the learner just before the exercise's cell, rather than before the
notebook, is the same for every cell that does not make an exercise (they do not
read the learner).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

#: One setting: ``{"learner": name or None, "group": group or None}``.
NO_LEARNER: dict[str, str | None] = {"learner": None, "group": None}

_RUNNER = r"""
import json, os, re, sys
import mapteach
from mapteach.exercises import ArrangeExercise, ChoiceExercise, NumberExercise, collect_exercises

path, settings = sys.argv[1], json.loads(sys.argv[2])
cells = json.load(open(path, encoding="utf-8"))["cells"]
KEYED = re.compile(r'key="\d\d\.\d+"')


def recognised(exercise):
    names = set()
    for wrong in exercise.misconceptions:
        feedback = exercise.check(f"{wrong[1]:.{exercise.decimals}f}")
        named = getattr(feedback, "mistakes", None) or [feedback.misconception]
        names.update(name for name in named if name)
    return sorted(names)


def describe(exercise, cell):
    item = {"key": exercise.key, "kind": exercise.kind, "prompt": exercise.prompt,
            "cell": cell, "about_shown": bool(getattr(exercise, "about_shown", False))}
    if isinstance(exercise, NumberExercise):
        item.update(truth=exercise.truth, decimals=exercise.decimals,
                    data=getattr(exercise, "data", None),
                    measure=getattr(exercise, "measure", None),
                    recognised=recognised(exercise))
    elif isinstance(exercise, ChoiceExercise):
        item.update(options=list(exercise.options), correct=exercise.correct,
                    replies=exercise.replies)
    elif isinstance(exercise, ArrangeExercise):
        item.update(targets=exercise.targets)
    return item


def made_by(code, cell, setting, namespace):
    if setting["learner"] and setting["group"]:
        mapteach.learner(setting["learner"], group=setting["group"])
    elif setting["learner"]:
        mapteach.learner(setting["learner"])
    with collect_exercises() as made:
        exec(code, namespace)
    return [describe(exercise, cell) for exercise in made]


def forked(code, cell, setting, namespace):
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            payload = {"made": made_by(code, cell, setting, namespace)}
        except BaseException as error:
            payload = {"error": f"{type(error).__name__}: {error}"}
        with os.fdopen(write, "w", encoding="utf-8") as out:
            out.write(json.dumps(payload, ensure_ascii=False, default=str))
        os._exit(0)
    os.close(write)
    with os.fdopen(read, encoding="utf-8") as received:
        payload = json.loads(received.read())
    os.waitpid(pid, 0)
    if "error" in payload:
        raise RuntimeError(f"cell {cell} with {setting}: {payload['error']}")
    return payload["made"]


found = [[] for _ in settings]
namespace = {"__name__": "__main__"}
for cell, content in enumerate(cells):
    if content["cell_type"] != "code":
        continue
    source = "".join(content["source"])
    code = compile(source, f"{path} cell {cell}", "exec")
    if KEYED.search(source):
        for index, setting in enumerate(settings):
            found[index].extend(forked(code, cell, setting, namespace))
    exec(code, namespace)
print(json.dumps(found, ensure_ascii=False, default=str))
"""


def run_exercises(
    path: Path, settings: list[dict[str, str | None]], scratch: Path
) -> list[list[dict[str, Any]]]:
    """The keyed exercises ``path`` makes under each setting, in order (see the module notes).

    Each exercise is a dict: ``key``, ``kind``, ``prompt``, ``cell`` (its cell's index),
    ``about_shown``; for a number exercise ``truth``, ``decimals``, ``data``, ``measure``
    and ``recognised`` (the mistakes its check names for its own wrong answers); for a
    choice ``options``, ``correct`` and ``replies``. ``scratch`` holds the progress and
    judgments files the notebook writes.
    """
    env = {
        **os.environ,
        "MPLBACKEND": "Agg",
        "PYTHONHASHSEED": "0",
        "MAPTEACH_PROGRESS": str(scratch / "progress.jsonl"),
        "MAPTEACH_JUDGMENTS": str(scratch / "judgments"),
    }
    env.pop("MAPTEACH_LEARNER", None)
    done = subprocess.run(
        [sys.executable, "-c", _RUNNER, str(path.resolve()), json.dumps(settings)],
        cwd=path.parent,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"{path.name} failed:\n{done.stderr[-3000:]}")
    runs: list[list[dict[str, Any]]] = json.loads(done.stdout.strip().splitlines()[-1])
    return runs
