"""The articles' data files: read from the package, every error naming the file and the path."""

from __future__ import annotations

import re

import pytest

from mapteach.articles import loader
from mapteach.articles.loader import TRANSLATED_KEYS, Reader, read_data
from mapteach.judging.guideline import TRANSLATED_KEYS as JUDGING_KEYS


def test_the_data_files_ship_with_the_package():
    assert sorted(path.name for path in loader.DATA.glob("*.json")) == [
        "examples.json",
        "reported.json",
        "slips.json",
    ]
    assert set(read_data("slips.json")) == {"slips"}
    assert read_data("examples.json") is not read_data("examples.json")  # a fresh copy


def test_a_file_that_is_missing_or_not_json_is_named(tmp_path, monkeypatch):
    monkeypatch.setattr(loader, "DATA", tmp_path)
    with pytest.raises(ValueError, match=r"^examples\.json: cannot read the file \("):
        read_data("examples.json")
    (tmp_path / "slips.json").write_text('{"slips": [\n  {"id": "a",}\n]}', encoding="utf-8")
    with pytest.raises(ValueError, match=r"^slips\.json, line 2: not JSON \("):
        read_data("slips.json")


def test_the_reader_names_the_path_of_each_problem():
    read = Reader("mine.json")
    node = {"labels": [1, 0, "1"], "n": True, "tags": ["a", 3], "kind": "x"}
    with pytest.raises(
        ValueError, match=re.escape('mine.json: e[2].labels[2]: expected 0 or 1, got "1".')
    ):
        read.labels(node, "labels", "e[2]")
    with pytest.raises(
        ValueError, match=re.escape("mine.json: e[2].n: expected integer, got boolean.")
    ):
        read.count(node, "n", "e[2]")
    with pytest.raises(
        ValueError, match=re.escape("mine.json: e[2].tags[1]: expected a non-empty")
    ):
        read.strings(node, "tags", "e[2]")
    with pytest.raises(
        ValueError, match=re.escape("mine.json: e[2].kind: 'x' is not one of: a, b.")
    ):
        read.choice(node, "kind", "e[2]", ("a", "b"))
    with pytest.raises(
        ValueError, match=re.escape("mine.json: e[2]: unknown field 'n'; the fields")
    ):
        read.node(node, "e[2]", ("labels", "tags", "kind"))
    with pytest.raises(ValueError, match=re.escape("mine.json: expected an object, got array.")):
        list(read.records([], "examples"))
    assert read.strings({}, "tags", "e[2]") == () and read.optional_text({}, "note", "e") == ""
    assert read.flag({}, "invented", "e") is False


def test_records_are_the_objects_of_one_list_with_unique_ids():
    read = Reader("mine.json")
    found = list(read.records({"examples": [{"id": "a"}, {"id": "b", "x": 1}]}, "examples"))
    assert [(where, name) for where, _node, name in found] == [
        ("examples[0]", "a"),
        ("examples[1]", "b"),
    ]
    with pytest.raises(
        ValueError, match=re.escape("mine.json: examples[1].id: 'a' is used twice.")
    ):
        list(read.records({"examples": [{"id": "a"}, {"id": "a"}]}, "examples"))
    with pytest.raises(ValueError, match=re.escape("mine.json: examples[0]: missing field 'id'.")):
        list(read.records({"examples": [{}]}, "examples"))


def test_the_translated_keys_name_texts_and_not_ids_quotes_or_figures():
    assert {
        "title",
        "note",
        "what",
        "gloss",
        "verdict",
        "printed_words",
        "label",
    } == TRANSLATED_KEYS
    assert not TRANSLATED_KEYS & {"id", "quote", "printed", "queries", "docs", "measure"}
    # the catalogue's extractor reads every data file with both packages' keys: the
    # articles' files have none of the judging keys that would make an id a message
    assert "name" in JUDGING_KEYS
    for name in ("examples.json", "reported.json", "slips.json"):
        assert '"name"' not in (loader.DATA / name).read_text(encoding="utf-8")
