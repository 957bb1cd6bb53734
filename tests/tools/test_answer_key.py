"""The answer key: every exercise of every notebook, each answer accepted by its own check.

``tools/answer_key.py`` runs each notebook's code and reads back the exercises it
makes, so the key cannot drift from the workbook: this test builds it once and
holds it to the notebooks' source (every ``key="NN.k"`` present, in order), to
each exercise's own check, and to the misconceptions each one names. The whole key
is read from the notebooks' saved exercise states without running them: it must
agree with the executed key; a learner's key goes through a cache, which a change
of learner or notebook misses (``tests/tools/test_answer_key_harvest.py``).
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # runs every notebook's code: not in make test-fast
ROOT = Path(__file__).parents[2]
_spec = importlib.util.spec_from_file_location("answer_key", ROOT / "tools" / "answer_key.py")
assert _spec and _spec.loader
answer_key = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(answer_key)

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
KEY = re.compile(r'key="(\d\d\.\d+)"')


def _keys_in_source(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    source = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    return KEY.findall(source)


@pytest.fixture(scope="module", autouse=True)
def _own_cache(tmp_path_factory):
    answer_key.CACHE = tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="module")
def key(tmp_path_factory):
    out = tmp_path_factory.mktemp("key") / "answer-key.html"
    sections = answer_key.build(out, execute=True)
    return out.read_text(encoding="utf-8"), {path.name: items for path, items in sections}


def test_every_exercise_of_every_notebook_is_in_the_key(key):
    page, sections = key
    for path in NOTEBOOKS:
        written = _keys_in_source(path)
        assert [item["key"] for item in sections[path.name]] == written, path.name
        for exercise in written:
            assert f'data-key="{exercise}"' in page
    total = sum(len(items) for items in sections.values())
    assert f'data-count="{total}"' in page and total >= 40


def test_each_answer_is_accepted_by_its_own_exercise(key):
    _, sections = key
    for items in sections.values():
        for item in items:
            assert item["self_check"]["status"] == "correct", (item["key"], item["self_check"])
            assert item["answer"] and item["solution"].strip()


def test_each_misconception_gets_the_feedback_that_names_it(key):
    _, sections = key
    named = 0
    for items in sections.values():
        for item in items:
            for wrong in item["misconceptions"]:
                # two mistakes can give the same number; the feedback names one of them
                same = {m["name"] for m in item["misconceptions"] if m["value"] == wrong["value"]}
                assert wrong["feedback"]["status"] == "incorrect", (item["key"], wrong)
                assert wrong["feedback"]["misconception"] in same, (item["key"], wrong)
                named += 1
    assert named > 60


def test_the_key_shows_what_each_exercise_was_built_from_and_no_tex(key):
    page, sections = key
    for items in sections.values():
        for item in items:
            if item["kind"] == "number" and item["mistake_kind"] is not None:
                assert item["data"] and "measure" in item, item["key"]
                assert item["unreadable"]["status"] == "unreadable", item["key"]
            for wrong in item["misconceptions"]:
                assert {"explanation", "convention"} <= set(wrong), item["key"]
    assert page.count('class="built"') >= 20
    assert "$$" not in page and "\\frac" not in page


def test_a_number_answer_appears_in_its_worked_solution(key):
    _, sections = key
    for items in sections.values():
        for item in items:
            if item["kind"] == "number" and item["solution"].startswith("<table"):
                assert item["answer"] in item["solution"], item["key"]


def test_a_learners_key_has_their_own_rankings(tmp_path):
    chosen = [
        ROOT / "notebooks" / name
        for name in ("03_average_precision_by_hand.ipynb", "07_pr_curves.ipynb")
    ]

    def numbers(learner: str | None, name: str) -> list[dict]:
        sections = answer_key.build(
            tmp_path / name, learner=learner, notebooks=chosen, execute=True
        )
        return [item for _, items in sections for item in items if item["kind"] == "number"]

    plain, alice, again, bob = (
        numbers(None, "plain.html"),
        numbers("alice", "alice.html"),
        numbers("alice", "again.html"),
        numbers("bob", "bob.html"),
    )
    assert len(plain) == 4
    assert [i["prompt"] for i in alice] == [i["prompt"] for i in again]
    varied = [
        (mine, theirs)
        for mine, theirs in zip(plain, alice, strict=True)
        if theirs["data"] is not None and mine["data"] != theirs["data"]
    ]
    assert varied, "no exercise of 03 or 07 gives alice her own data"
    assert [i["data"] for i in alice] != [i["data"] for i in bob]
    for mine, theirs in varied:  # only exercises built with vary=True differ
        assert mine["prompt"] != theirs["prompt"]
        assert theirs["self_check"]["status"] == "correct"
        assert {m["name"] for m in theirs["misconceptions"]} == {
            m["name"] for m in mine["misconceptions"]
        }
    for mine, theirs in zip(plain, alice, strict=True):
        if theirs["data"] is None or mine["data"] == theirs["data"]:  # None: read as saved
            assert mine["prompt"] == theirs["prompt"]
    assert "alice" in (tmp_path / "alice.html").read_text(encoding="utf-8")


def test_the_chinese_key_speaks_chinese(tmp_path):
    chosen = [ROOT / "notebooks" / "zh" / "16_glossary.ipynb"]
    items = answer_key.build(tmp_path / "zh.html", lang="zh", notebooks=chosen)[0][1]
    assert [item["key"] for item in items] == ["16.1", "16.2", "16.3"]
    assert all(re.search(r"[\u4e00-\u9fff]", item["prompt"]) for item in items)


#: Two Latin words in a row: English, on a page that should be Chinese.
LATIN_RUN = re.compile(r"[A-Za-z]{2,}(?:\s+[A-Za-z]{2,})+")


def _chrome(page: str) -> str:
    """The key's own text: the page without the exercises' prompts, solutions, feedback,
    formulas, code and tags (the exercises' texts are the notebooks', checked there)."""
    for block in ("style", "math", "code", "td"):
        page = re.sub(rf"<{block}\b.*?</{block}>", " ", page, flags=re.S)
    page = re.sub(r'<div class="(prompt|solution)">.*?</div>', " ", page, flags=re.S)
    return re.sub(r"<[^>]+>", " ", page)


def test_the_chinese_key_names_its_parts_and_the_mistakes_in_chinese(tmp_path):
    from mapteach.i18n import tr

    chosen = [ROOT / "notebooks" / "zh" / "04_mean_average_precision.ipynb"]
    out = tmp_path / "zh.html"
    items = answer_key.build(out, lang="zh", notebooks=chosen)[0][1]
    page = out.read_text(encoding="utf-8")
    names = [
        m["name"] for item in items for m in item["misconceptions"] if item["kind"] == "number"
    ]
    assert names
    for name in names:
        assert tr(name, lang="zh") != name
        assert f"<td>{tr(name, lang='zh')}" in page
    heads = re.findall(r'<table class="(?:misconceptions|options)"><tr>(.*?)</tr>', page)
    headers = [h for head in heads for h in re.findall(r"<th>([^<]*)</th>", head)]
    assert headers and not [header for header in headers if re.search("[A-Za-z]", header)]
    assert f"共 {len(items)} 道练习。" in page
    assert LATIN_RUN.findall(_chrome(page).replace("mapteach", "")) == []


#: What the saved states do not hold: the exercise's data and mistake kind, an
#: arrangement's targets and starting readout.
NOT_SAVED = {"data", "mistake_kind", "targets", "readout"}


def test_the_key_read_from_the_saved_states_agrees_with_the_executed_one(key, tmp_path):
    _, executed = key
    saved = dict(answer_key.build(tmp_path / "saved.html"))
    assert [path.name for path in saved] == sorted(executed)
    for path, items in saved.items():
        ran = executed[path.name]
        assert [item["key"] for item in items] == [item["key"] for item in ran], path.name
        for mine, theirs in zip(items, ran, strict=True):
            for field in set(theirs) - NOT_SAVED - {"misconceptions"}:
                assert mine[field] == theirs[field], (mine["key"], field)
            finite = [m for m in theirs["misconceptions"] if m["value"] != "nan"]
            assert mine["misconceptions"] == finite, mine["key"]


def test_a_learners_key_reads_each_notebook_once_cold_or_cached(tmp_path, monkeypatch):
    monkeypatch.setattr(answer_key, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(answer_key, "saved_exercises", lambda path: [])  # exercise_states' read
    notebook = tmp_path / "18_demo.ipynb"
    made = (
        "from mapteach.exercises import ChoiceExercise\n"
        'x = ChoiceExercise("Which?", {"a": "Yes.", "b": "No."}, correct="a", '
        'solution_html="<p>a</p>", key="18.1")  # stands for vary=True\n'
    )
    cell = {"cell_type": "code", "source": [made], "metadata": {}, "outputs": []}
    notebook.write_text(json.dumps({"cells": [cell]}), encoding="utf-8")
    reads: list[str] = []
    for method in ("read_bytes", "read_text"):
        original = getattr(Path, method)

        def counted(self, *args, _original=original, _method=method, **kwargs):
            if self == notebook:
                reads.append(_method)
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(Path, method, counted)
    sources = answer_key.sources_digest()
    for _ in ("cold", "cached"):
        reads.clear()
        answer_key.variant_exercises([notebook], "alice", None, sources)
        assert len(reads) == 1, reads
    assert list((tmp_path / "cache").glob("18_demo-*.json"))
