"""Assignment: each query to `overlap` annotators, loads within one, the plan written atomically."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mapteach.judging import assign, assigned_queries, read_assignments
from mapteach.judging import assignment as module
from tests.budget import examples

NAMES = st.lists(
    st.text(st.characters(blacklist_categories=["Cs"]), min_size=1).filter(str.strip),
    min_size=1,
    max_size=7,
    unique=True,
)
QUERIES = st.lists(
    st.text("abcdefgh0123456789-劳动", min_size=1, max_size=6), max_size=25, unique=True
)


@st.composite
def plans(draw):
    names = draw(NAMES)
    return names, draw(QUERIES), draw(st.integers(1, len(names))), draw(st.integers(0, 10**6))


@given(plans())
def test_each_query_goes_to_exactly_overlap_distinct_annotators(case):
    names, queries, overlap, seed = case
    plan = assign(names, queries, overlap=overlap, seed=seed)
    assert list(plan) == names
    given_to = Counter(query for assigned in plan.values() for query in assigned)
    assert given_to == dict.fromkeys(queries, overlap)  # distinct: no list repeats a query
    assert all(len(set(assigned)) == len(assigned) for assigned in plan.values())


@given(plans())
def test_loads_are_within_one_and_each_list_keeps_the_queries_order(case):
    names, queries, overlap, seed = case
    plan = assign(names, queries, overlap=overlap, seed=seed)
    loads = [len(assigned) for assigned in plan.values()]
    assert max(loads) - min(loads) <= 1
    assert sum(loads) == len(queries) * overlap
    for assigned in plan.values():
        assert assigned == [query for query in queries if query in assigned]


@given(plans())
def test_a_seed_gives_the_same_plan(case):
    names, queries, overlap, seed = case
    assert assign(names, queries, overlap, seed) == assign(names, queries, overlap, seed)


def test_seeds_give_different_plans_and_every_pair_shares_queries():
    names, queries = ["ada", "bo", "chen", "dai"], [f"q{i}" for i in range(12)]
    plans_by_seed = {json.dumps(assign(names, queries, 2, seed)) for seed in range(20)}
    assert len(plans_by_seed) > 1
    plan = assign(names, queries, 2, seed=3)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            assert set(plan[first]) & set(plan[second]), (first, second)


@pytest.mark.parametrize(
    ("annotators", "queries", "overlap", "error", "message"),
    [
        (["ada", "bo"], ["q1"], 3, ValueError, "between 1 and the number of annotators (2); got 3"),
        (["ada", "bo"], ["q1"], 0, ValueError, "got 0"),
        (["ada", "bo"], ["q1"], True, TypeError, "overlap must be an integer; got bool"),
        ([], ["q1"], 1, ValueError, "number of annotators (0)"),
        (["ada", "ada"], ["q1"], 1, ValueError, "annotators[1]: 'ada' is listed twice"),
        (["ada", " "], ["q1"], 1, ValueError, "annotators[1] is empty"),
        (["ada", 7], ["q1"], 1, TypeError, "annotators[1] is int, not a string"),
        ("ada", ["q1"], 1, TypeError, "annotators must be a list of names; got str"),
        (["ada"], ["q1", "q2", "q1"], 1, ValueError, "queries[2]: 'q1' is listed twice"),
        (["ada"], ["q1", ""], 1, ValueError, "queries[1] is empty"),
        (["ada"], ["q 1"], 1, ValueError, "queries[0] is 'q 1', which holds white space"),
    ],
)
def test_invalid_arguments_are_named(annotators, queries, overlap, error, message):
    with pytest.raises(error, match=re.escape(message)):
        assign(annotators, queries, overlap=overlap, seed=0)


def test_the_file_holds_the_documented_format_and_reads_back(tmp_path):
    plan = assign(["ada", "Bo Li", "陈"], ["q1", "q2", "q3"], overlap=2, seed=5, folder=tmp_path)
    document = json.loads((tmp_path / "assignments.json").read_text(encoding="utf-8"))
    assert document == {"version": 1, "overlap": 2, "assignments": plan}
    assert read_assignments(tmp_path) == plan
    assert assigned_queries(tmp_path, "陈") == plan["陈"]
    assert [p.name for p in tmp_path.iterdir()] == ["assignments.json"]  # no temporary left


def test_the_write_is_atomic_a_failed_write_leaves_the_old_plan(tmp_path, monkeypatch):
    old = assign(["ada", "bo"], ["q1", "q2"], overlap=1, seed=1, folder=tmp_path)
    before = (tmp_path / "assignments.json").read_bytes()
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(module.os, "fsync", lambda fd: synced.append(fd) or real_fsync(fd))

    def crash(source, target):
        raise OSError("disk gone")

    monkeypatch.setattr(module.os, "replace", crash)
    with pytest.raises(OSError, match="disk gone"):
        assign(["ada", "bo", "chen"], ["q1", "q2", "q3"], overlap=1, seed=2, folder=tmp_path)
    assert (tmp_path / "assignments.json").read_bytes() == before
    assert read_assignments(tmp_path) == old
    assert [p.name for p in tmp_path.iterdir()] == ["assignments.json"]
    assert synced, "the temporary file was not flushed to disk before the rename"


def test_the_new_plan_replaces_the_old_one_whole(tmp_path):
    assign(["ada", "bo"], ["q1", "q2"], overlap=1, seed=1, folder=tmp_path)
    new = assign(["chen"], ["q9"], overlap=1, folder=tmp_path)
    assert read_assignments(tmp_path) == new == {"chen": ["q9"]}


def _write(folder: Path, document) -> None:
    text = document if isinstance(document, str) else json.dumps(document)
    (folder / "assignments.json").write_text(text, encoding="utf-8")


GOOD = {"version": 1, "overlap": 1, "assignments": {"ada": ["q1"], "bo": ["q2"]}}


@pytest.mark.parametrize(
    ("change", "where", "message"),
    [
        ({"version": 2}, "version", "2 is not a format this package reads"),
        ({"version": "1"}, "version", "expected integer, got string"),
        ({"overlap": 3}, "overlap", "3 is not between 1 and the number of annotators (2)"),
        ({"overlap": True}, "overlap", "expected integer, got boolean"),
        ({"assignments": []}, "assignments", "expected object, got array"),
        ({"assignments": {}}, "assignments", "names no annotator"),
        ({"assignments": {"ada": "q1"}}, 'assignments["ada"]', "expected array, got string"),
        ({"assignments": {"ada": ["q1", None]}}, 'assignments["ada"][1]', "got null"),
        ({"assignments": {"李 四": ["q1", "q1"]}}, 'assignments["李 四"][1]', "listed twice"),
        ({"assignments": {"ada": ["q 1"]}}, 'assignments["ada"][0]', "holds white space"),
        ({"assignments": {" ": ["q1"]}}, 'assignments[" "]', "name is empty"),
        ({"assignments": {"ada": ["q1"], "bo": ["q1", "q2"]}}, "assignments", "'q1' is given to 2"),
        (
            {"overlap": 2, "assignments": {"ada": ["q1", "q2"], "bo": ["q1"]}},
            "assignments",
            "'q2' is given to 1 annotator(s), not to overlap 2",
        ),
        ({"extra": 1}, "$", "unknown ['extra']"),
    ],
)
def test_a_bad_file_is_refused_naming_the_json_path(tmp_path, change, where, message):
    _write(tmp_path, {**GOOD, **change})
    with pytest.raises(ValueError) as caught:
        read_assignments(tmp_path)
    text = str(caught.value)
    assert text.startswith(f"{tmp_path / 'assignments.json'}: {where}: "), text
    assert message in text


def test_a_file_that_is_not_json_or_not_there_is_named(tmp_path):
    with pytest.raises(ValueError, match="cannot read the file"):
        read_assignments(tmp_path)
    _write(tmp_path, '{"version": 1,\n "overlap": }')
    with pytest.raises(ValueError, match=re.escape("assignments.json, line 2: not JSON")):
        read_assignments(tmp_path)
    _write(tmp_path, "[1]")
    with pytest.raises(ValueError, match=re.escape(": $: expected object, got array.")):
        read_assignments(tmp_path)


def test_an_annotator_the_plan_does_not_name_is_refused_with_the_names_it_has(tmp_path):
    _write(tmp_path, GOOD)
    with pytest.raises(
        ValueError, match=re.escape("gives no queries to 'cy'; its annotators: ada, bo")
    ):
        assigned_queries(tmp_path, "cy")


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=examples(30))
@given(plans())
def test_every_plan_assign_writes_reads_back(tmp_path, case):
    names, queries, overlap, seed = case
    plan = assign(names, queries, overlap=overlap, seed=seed, folder=tmp_path)
    assert read_assignments(tmp_path) == plan
