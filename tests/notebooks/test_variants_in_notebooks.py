"""Variants keep the story: each notebook's exercises as no learner, three learners and a pair.

Every notebook runs (``exercise_runs``) with no learner, as three named learners, and as
two learners in one group (``mapteach.learner(name, group="pair-1")``). Then:

- an exercise whose cell does not say ``vary=True`` is the same for everyone: prompt,
  answer, data, options (in any order: a shuffled choice is still the same choice) and
  replies; the article's examples (the legal query, the late list, model A) are among them;
- an exercise that says ``vary=True`` gives some learner data of their own; the two
  learners of a group get the same exercise, down to the order of a choice's options;
  every list its prompt shows comes from its own data (where no-learner's prompt shows a
  list of its data, each learner's shows theirs, and none shows a list it no longer has),
  a learner whose data changed reads a changed prompt, and each variant recognises as
  many mistakes as the exercise as written.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.notebooks.exercise_runs import NO_LEARNER, run_exercises

pytestmark = pytest.mark.slow  # runs every notebook's code six ways: not in make test-fast
ROOT = Path(__file__).parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
LEARNERS = [{"learner": name, "group": None} for name in ("ada", "grace", "linus")]
PAIR = [{"learner": name, "group": "pair-1"} for name in ("yu", "zhou")]
SETTINGS = [NO_LEARNER, *LEARNERS, *PAIR]
#: Exercises that stand for an article's example, or whose data the lesson refers to
#: elsewhere (01.2 ranks the same five documents as article 000's systems A and B).
STORY = ("01.2", "02.1", "05.1", "05.2")
VARIES = re.compile(r"\bvary=True\b")


def _sources(path: Path) -> list[str]:
    return ["".join(cell["source"]) for cell in json.loads(path.read_text("utf-8"))["cells"]]


def _shown_lists(value: Any, where: str = "") -> dict[str, str]:
    """Every list of plain values inside ``value``, by its path, as a prompt would write it."""
    if isinstance(value, dict):
        found: dict[str, str] = {}
        for key, item in value.items():
            found.update(_shown_lists(item, f"{where}/{key}"))
        return found
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        found = {}
        for index, item in enumerate(value):
            found.update(_shown_lists(item, f"{where}/{index}"))
        return found
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return {where: ", ".join(value)}
    if isinstance(value, list) and value and all(isinstance(v, int | float) for v in value):
        return {where: str(value)}
    return {}


def _same_for_everyone(item: dict[str, Any]) -> dict[str, Any]:
    """What must not change between learners for an exercise that does not vary."""
    fixed = {key: item.get(key) for key in ("prompt", "truth", "data", "correct", "replies")}
    fixed["options"] = sorted(item.get("options") or [])
    return fixed


def _own_data_problems(base: dict[str, Any], variant: dict[str, Any]) -> list[str]:
    """Where a variant's prompt does not show its own data (see the module notes)."""
    problems = []
    written, own = _shown_lists(base["data"]), _shown_lists(variant["data"])
    for where, shown in written.items():
        if shown in base["prompt"] and own.get(where, "\x00") not in variant["prompt"]:
            problems.append(f"its {where} {own.get(where)} is not in its prompt")
        stale = shown not in own.values() and shown in variant["prompt"]
        if own.get(where) != shown and stale:
            problems.append(f"its prompt still shows {shown}")
    if variant["data"] != base["data"] and variant["prompt"] == base["prompt"]:
        problems.append("its data changed but its prompt did not")
    if len(variant["recognised"]) != len(base["recognised"]):
        problems.append(
            f"recognises {len(variant['recognised'])} mistakes, not {len(base['recognised'])}"
        )
    return problems


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, list[list[dict[str, Any]]]]:
    """Each notebook's exercises under each setting, with a count of what was checked."""
    made = {}
    for path in NOTEBOOKS:
        scratch = tmp_path_factory.mktemp(path.stem[:2])
        made[path.name] = run_exercises(path, SETTINGS, scratch)
    exercises = [(path, item) for path in NOTEBOOKS for item in made[path.name][0]]
    varying = [(path, item) for path, item in exercises if _declared(path, item)]
    differ = sum(
        run[index]["data"] != item["data"]
        for path, settings in ((path, made[path.name]) for path in NOTEBOOKS)
        for index, item in enumerate(settings[0])
        for run in settings[1:-1]
        if _declared(path, item)
    )
    print(
        f"\n{len(exercises)} exercises x {len(SETTINGS) - 1} learner settings checked; "
        f"{len(varying)} vary: {differ} of their {len(varying) * (len(SETTINGS) - 2)} "
        "variants (3 learners and the pair) differ from the exercise as written"
    )
    return made


def _declared(path: Path, item: dict[str, Any]) -> bool:
    return bool(VARIES.search(_sources(path)[item["cell"]]))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem[:2])
def test_an_exercise_that_does_not_vary_is_the_same_for_everyone(runs, path):
    base, *others = runs[path.name]
    for run in others:
        assert [item["key"] for item in run] == [item["key"] for item in base]
    for index, item in enumerate(base):
        if _declared(path, item):
            assert item["key"] not in STORY, f"{item['key']} stands for an article's example"
            continue
        for setting, run in zip(SETTINGS[1:], others, strict=True):
            assert _same_for_everyone(run[index]) == _same_for_everyone(item), (
                item["key"],
                setting,
            )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem[:2])
def test_a_varying_exercise_gives_each_learner_their_own_data_and_a_pair_the_same(runs, path):
    base, *learners, first, second = runs[path.name]
    for index, item in enumerate(base):
        if not _declared(path, item):
            continue
        assert item["kind"] == "number", item["key"]
        assert first[index] == second[index], f"{item['key']}: the pair got different exercises"
        assert any(run[index]["data"] != item["data"] for run in [*learners, first]), (
            f"{item['key']} says vary=True, but no learner got data of their own"
        )
        for setting, run in zip(SETTINGS[1:-1], [*learners, first], strict=True):
            problems = _own_data_problems(item, run[index])
            assert not problems, f"{item['key']} as {setting}: " + "; ".join(problems)


def test_the_checks_catch_a_prompt_that_contradicts_its_data():
    base = {"prompt": "AP of <code>[0, 1]</code>?", "data": {"labels": [0, 1]}, "recognised": ["a"]}
    kept = {"prompt": "AP of <code>[0, 1]</code>?", "data": {"labels": [1, 0]}, "recognised": ["a"]}
    own = {"prompt": "AP of <code>[1, 0]</code>?", "data": {"labels": [1, 0]}, "recognised": []}
    assert len(_own_data_problems(base, kept)) == 3
    assert _own_data_problems(base, own) == ["recognises 0 mistakes, not 1"]
    queries = {"queries": [{"labels": [1, 0]}, {"labels": [0, 0]}], "runs": ["d1", "d2"]}
    assert _shown_lists(queries) == {
        "/queries/0/labels": "[1, 0]",
        "/queries/1/labels": "[0, 0]",
        "/runs": "d1, d2",
    }
