"""Notebooks run for the answer key: in worker processes, in turn, through a cache.

``tools/answer_key_harvest.py`` runs each notebook up to its last exercise in one of
its workers and caches what it made: a change of learner, of the mapteach sources or of
the notebook misses the cache; print() stays out of the answers, and a failing notebook
is named with its error.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # starts worker processes that import mapteach
ROOT = Path(__file__).parents[2]
_spec = importlib.util.spec_from_file_location(
    "answer_key_harvest", ROOT / "tools" / "answer_key_harvest.py"
)
assert _spec and _spec.loader
harvesting = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(harvesting)


def test_a_learners_key_is_cached_by_notebook_sources_and_learner(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    notebook = tmp_path / "18_demo.ipynb"
    cells = [
        {"cell_type": "code", "source": ["import mapteach\n"], "metadata": {}, "outputs": []},
        {
            "cell_type": "code",
            "source": [
                "from mapteach.exercises import ChoiceExercise\n",
                'x = ChoiceExercise("Which?", {"a": "Yes.", "b": "No."}, '
                'correct="a", solution_html="<p>a</p>", key="18.1")\n',
            ],
            "metadata": {},
            "outputs": [],
        },
        {
            "cell_type": "code",
            "source": ["raise SystemExit('ran past the last exercise')\n"],
            "metadata": {},
            "outputs": [],
        },
    ]
    notebook.write_text(json.dumps({"cells": cells}), encoding="utf-8")
    sources = harvesting.sources_digest()  # fixed here: other work may edit mapteach meanwhile
    first = harvesting.harvest(notebook, "alice", sources, cache=cache)
    assert [item["key"] for item in first] == ["18.1"]

    def no_process(*args, **kwargs):
        raise AssertionError("ran a notebook the cache holds")

    with monkeypatch.context() as patched:
        patched.setattr(harvesting.subprocess, "Popen", no_process)
        assert harvesting.harvest(notebook, "alice", sources, cache=cache) == first
        for learner, changed in (("bob", sources), ("alice", sources[::-1])):
            with pytest.raises(AssertionError, match="the cache holds"):
                harvesting.harvest(notebook, learner, changed, cache=cache)
        notebook.write_text(json.dumps({"cells": cells[:2]}), encoding="utf-8")
        with pytest.raises(AssertionError, match="the cache holds"):
            harvesting.harvest(notebook, "alice", sources, cache=cache)


def test_workers_run_notebooks_in_turn_keep_print_out_of_the_answers_and_name_a_failure(
    tmp_path,
):
    cache = tmp_path / "cache"
    made = (
        "from mapteach.exercises import ChoiceExercise\n"
        'print("{key} says hello")\n'
        'x = ChoiceExercise("Which?", {{"a": "Yes.", "b": "No."}}, '
        'correct="a", solution_html="<p>a</p>", key="{key}")\n'
    )
    paths = []
    for key in ("18.1", "19.1", "20.1"):
        path = tmp_path / f"{key[:2]}_demo.ipynb"
        cell = {"cell_type": "code", "source": [made.format(key=key)], "metadata": {}}
        path.write_text(json.dumps({"cells": [cell]}), encoding="utf-8")
        paths.append(path)
    sources = harvesting.sources_digest()
    got = harvesting.harvest_many(paths, "alice", sources, cache=cache)
    assert [[item["key"] for item in items] for items in got] == [["18.1"], ["19.1"], ["20.1"]]
    broken = tmp_path / "21_broken.ipynb"
    cell = {"cell_type": "code", "source": ['1 / 0  # key="21.1"\n'], "metadata": {}}
    broken.write_text(json.dumps({"cells": [cell]}), encoding="utf-8")
    with pytest.raises(RuntimeError, match=r"21_broken\.ipynb failed:(.|\n)*ZeroDivisionError"):
        harvesting.harvest_many([broken], "alice", sources, cache=cache)
