"""The exercise index: every keyed exercise of the committed notebooks, read without running them.

The reference is independent of the index's reader: the ``key="NN.k"`` strings of each
notebook's code (the exercises it makes), and an HTML parser's reading of the saved
fallbacks (their prompts as text).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from mapteach.exercises import IndexedExercise, exercise_index

ROOT = Path(__file__).parents[2]
EDITIONS = {"en": ROOT / "notebooks", "zh": ROOT / "notebooks" / "zh"}
KEY = re.compile(r'key="(\d\d\.\d+)"')


def _cells(path: Path) -> list[dict]:
    cells: list[dict] = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return cells


def _keys_in_source(path: Path) -> list[str]:
    code = "\n".join("".join(c["source"]) for c in _cells(path) if c["cell_type"] == "code")
    return KEY.findall(code)


def _prompts_parsed(path: Path) -> list[str]:
    prompts = []
    for cell in _cells(path):
        for output in cell.get("outputs", []):
            page = "".join(output.get("data", {}).get("text/html", ""))
            soup = BeautifulSoup(page, "html.parser")
            for div in soup.find_all(
                "div", class_="mapteach-offline", attrs={"data-module": "exercise"}
            ):
                model = json.loads(div.find("script").string)["model"]
                prompts.append(" ".join(BeautifulSoup(model["prompt"], "html.parser").text.split()))
    return prompts


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_the_index_holds_every_exercise_each_notebook_makes_in_order(edition):
    index = exercise_index(EDITIONS[edition])
    for path in sorted(EDITIONS[edition].glob("*.ipynb")):
        mine = [item for item in index if item.source == path.name]
        assert [item.key for item in mine] == _keys_in_source(path), path.name
        assert [item.prompt for item in mine] == _prompts_parsed(path), path.name
        for item in mine:
            assert (item.notebook, item.exercise) == tuple(item.key.split("."))
            assert item.edition == edition and path.name.startswith(item.notebook)
            assert item.kind in {"number", "choice", "arrange"}
    assert len(index) >= 50


def test_both_editions_index_the_same_exercises():
    english, chinese = (exercise_index(EDITIONS[e]) for e in ("en", "zh"))
    assert [(i.key, i.kind) for i in english] == [(i.key, i.kind) for i in chinese]
    assert all(re.search(r"[\u4e00-\u9fff]", item.prompt) for item in chinese)


def test_one_notebook_can_be_indexed_and_bad_paths_are_named(tmp_path):
    path = EDITIONS["en"] / "16_glossary.ipynb"
    assert [item.key for item in exercise_index(path)] == ["16.1", "16.2", "16.3"]
    assert isinstance(exercise_index(path)[0], IndexedExercise)
    with pytest.raises(FileNotFoundError, match="no notebook folder"):
        exercise_index(tmp_path / "missing")
    with pytest.raises(ValueError, match="holds no notebook"):
        exercise_index(tmp_path)
    (tmp_path / "broken.ipynb").write_text("{", encoding="utf-8")
    with pytest.raises(ValueError, match=r"broken\.ipynb is not a notebook's JSON"):
        exercise_index(tmp_path)
