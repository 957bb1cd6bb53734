"""Runs written by hand: lists keep their order, ranks land where they are given."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mapteach.runs import evaluate, relevance_in_order, run_from_lists, runs_from_relevant_ranks


def _ap_from_ranks(ranks: list[int], n_relevant: int) -> Fraction:
    """AP by its definition: the i-th relevant result at rank r adds i / r; divide by R."""
    return sum((Fraction(i, r) for i, r in enumerate(sorted(ranks), start=1)), Fraction(0)) / (
        n_relevant
    )


@given(st.lists(st.text("abcdef", min_size=1, max_size=3), min_size=1, max_size=12, unique=True))
def test_a_list_keeps_its_order_in_trec_evals_ranking(docs):
    run = run_from_lists({"q": docs})
    assert sorted(run["q"], key=lambda doc: -run["q"][doc]) == docs


@given(
    st.integers(min_value=1, max_value=12).flatmap(
        lambda depth: st.tuples(
            st.just(depth),
            st.lists(st.integers(1, depth), max_size=depth, unique=True),
            st.integers(0, 3),
        )
    )
)
def test_relevant_documents_sit_at_their_ranks(case):
    depth, ranks, missing = case
    n_relevant = max(len(ranks) + missing, 1)
    qrels, runs = runs_from_relevant_ranks({"S": {"q": ranks}}, depth=depth, n_relevant=n_relevant)
    assert len(qrels["q"]) == n_relevant and len(runs["S"]["q"]) == depth
    ap = evaluate(qrels, runs["S"], ["AP"]).loc["q", "AP"]
    assert ap == pytest.approx(float(_ap_from_ranks(ranks, n_relevant)))


def test_the_systems_share_one_qrels_and_a_document_not_placed_counts_in_r():
    ranks = {"A": {"q1": [1, 3], "q2": [10]}, "B": {"q1": [2], "q2": [1, 2]}}
    qrels, runs = runs_from_relevant_ranks(ranks, depth=10, n_relevant=2)
    assert list(qrels) == ["q1", "q2"] and set(runs) == {"A", "B"}
    table = evaluate(qrels, runs["A"], ["AP"])
    assert table.loc["q2", "AP"] == pytest.approx(float(Fraction(1, 10) / 2))
    assert table.loc["q2", "R"] == 2


def test_grades_and_labels_are_read_in_the_lists_order():
    qrels = {"q1": {"a": 2, "b": 1, "c": 0}}
    lists = {"q1": ["c", "x", "a", "b"]}
    assert relevance_in_order(qrels, lists) == {"q1": [0, 0, 2, 1]}
    assert relevance_in_order(qrels, lists, relevance_threshold=1) == {"q1": [0, 0, 1, 1]}


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: run_from_lists({"q1": "abc"}), TypeError, "query 'q1' must be a list"),
        (lambda: run_from_lists({"q1": ["a", "a"]}), ValueError, "'q1' lists document 'a' twice"),
        (
            lambda: runs_from_relevant_ranks({"S": {"q1": [0]}}, depth=3, n_relevant=1),
            ValueError,
            "query 'q1' must be distinct ranks from 1 to 3; got \\[0\\]",
        ),
        (
            lambda: runs_from_relevant_ranks({"S": {"q1": [2, 2]}}, depth=3, n_relevant=2),
            ValueError,
            "distinct ranks",
        ),
        (
            lambda: runs_from_relevant_ranks({"S": {"q1": [4]}}, depth=3, n_relevant=1),
            ValueError,
            "from 1 to 3; got \\[4\\]",
        ),
        (
            lambda: runs_from_relevant_ranks({"S": {"q1": [1.5]}}, depth=3, n_relevant=1),
            ValueError,
            "got \\[1.5\\]",
        ),
        (
            lambda: runs_from_relevant_ranks({"S": {"q1": [1, 2]}}, depth=3, n_relevant=1),
            ValueError,
            "query 'q1' has 2 relevant ranks, more than its n_relevant = 1",
        ),
        (
            lambda: runs_from_relevant_ranks({"S": {"q1": [1]}}, depth=0, n_relevant=1),
            ValueError,
            "depth must be >= 1",
        ),
        (
            lambda: relevance_in_order({"q1": {}}, {"q2": ["a"]}),
            ValueError,
            "query 'q2' has no judgments in qrels",
        ),
    ],
)
def test_bad_input_is_named(call, error, message):
    with pytest.raises(error, match=message):
        call()
