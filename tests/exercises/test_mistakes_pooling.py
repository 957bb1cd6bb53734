"""Pool, pooled-AP and bpref mistakes of the registry, against counts written out here."""

from __future__ import annotations

import pytest

from mapteach.exercises.mistakes import wrong_answers


def _found(kind, data, truth):
    return {w.name: w for w in wrong_answers(kind, data, truth)}


def test_pool_mistakes_count_the_runs_tops_wrongly():
    data = {"runs": [["d3", "d7", "d1", "d9"], ["d7", "d2", "d3", "d5"]], "depth": 2}
    found = _found("pool", data, 3.0)  # {d3, d7} | {d7, d2}
    assert {name: w.value for name, w in found.items()} == {
        "added the runs' depths": 4,
        "only documents every run found": 1,  # d7
        "pooled the whole lists": 6,
    }
    assert "so 3" in found["added the runs' depths"].explanation


# u1 relevant but never judged; j3 judged relevant, not retrieved; u2 unjudged, not relevant
POOLED = {
    "labels": [0, 1, 0, 0, 1],  # u1 j1 n1 u2 j2 under the pooled judgments
    "judged": [0, 1, 1, 0, 1],
    "n_relevant": 3,
    "complete_labels": [1, 1, 0, 0, 1],
    "complete_n_relevant": 4,
    "missed": ["u1"],
    "k": None,
}


def test_pooled_ap_mistakes_and_the_condensed_list_as_another_measure():
    pooled = (1 / 2 + 2 / 5) / 3
    found = _found("pooled AP", POOLED, pooled)
    assert {name: w.value for name, w in found.items()} == pytest.approx(
        {
            "counted the unjudged relevant document": (1 + 2 / 2 + 3 / 5) / 4,
            "left the unjudged documents out (condensed list)": (1 + 2 / 3) / 3,  # j1 n1 j2
            "divided by the true R": (1 / 2 + 2 / 5) / 4,
            "forgot the judged relevant documents the run missed": (1 / 2 + 2 / 5) / 2,
            # u1 and u2 counted relevant: [1, 1, 0, 1, 1], R = 3 + 2
            "counted the unjudged documents as relevant": (1 + 2 / 2 + 3 / 4 + 4 / 5) / 5,
        }
    )
    assert [name for name, w in found.items() if w.convention] == [
        "left the unjudged documents out (condensed list)"
    ]
    condensed = found["left the unjudged documents out (condensed list)"].explanation
    assert "trec_eval -J" in condensed and "another measure" in condensed
    assert "nobody judged u1" in found["counted the unjudged relevant document"].explanation
    assert "You divided by 4" in found["divided by the true R"].explanation
    unjudged = found["counted the unjudged relevant document"].explanation
    assert "counts it as not relevant" in unjudged


def test_two_unjudged_relevant_documents_are_spoken_of_in_the_plural():
    # u2 relevant too: the complete list is [1, 1, 0, 1, 1], R = 5
    both = {**POOLED, "complete_labels": [1, 1, 0, 1, 1], "complete_n_relevant": 5}
    both["missed"] = ["u1", "u2"]
    found = _found("pooled AP", both, (1 / 2 + 2 / 5) / 3)
    explanation = found["counted the unjudged relevant document"].explanation
    assert "nobody judged u1 and u2, so trec_eval counts them as not relevant" in explanation


# a x u b y c, a b c relevant, x y judged not relevant, u unjudged; N = 3 (one not retrieved)
BPREF = {
    "labels": [1, 0, 0, 1, 0, 1],
    "judged": [1, 1, 0, 1, 1, 1],
    "n_relevant": 4,  # one relevant document not retrieved
    "n_nonrelevant": 3,
    "k": None,
}


def test_bpref_mistakes_and_the_papers_convention():
    # trec_eval: each retrieved relevant scores 1 - min(n, R)/min(N, R), min(N, R) = 3
    truth = (1 + (1 - 1 / 3) + (1 - 2 / 3)) / 4
    found = _found("Bpref", BPREF, truth)
    assert {name: w.value for name, w in found.items()} == pytest.approx(
        {
            "n divided by R (Buckley and Voorhees' paper)": (1 + (1 - 1 / 4) + (1 - 2 / 4)) / 4,
            # u counted: n = 0, 2, 3 and N = 4
            "counted the unjudged documents as non-relevant": (1 + (1 - 2 / 4) + (1 - 3 / 4)) / 4,
            "divided by the relevant documents retrieved": (1 + (1 - 1 / 3) + (1 - 2 / 3)) / 3,
            "N from the list only": (1 + (1 - 1 / 2) + (1 - 2 / 2)) / 4,  # N = 2 in the list
            # n = 0, 3, 4 results above, capped at R = 4, over min(N, R) = 3
            "counted every result above, not only the judged non-relevant": (
                1 + (1 - 3 / 3) + (1 - 4 / 3)
            )
            / 4,
        }
    )
    assert [name for name, w in found.items() if w.convention] == [
        "n divided by R (Buckley and Voorhees' paper)"
    ]
    paper = found["n divided by R (Buckley and Voorhees' paper)"].explanation
    assert "(1 + (1 − 1/4) + (1 − 2/4)) / 4 = 0.5625" in paper
    assert "(1 + (1 − 1/3) + (1 − 2/3)) / 4 = 0.5000" in paper


def test_bpref_caps_n_at_r():
    # one relevant document below three judged non-relevant ones: n = 3 > R = 1
    data = {"labels": [0, 0, 0, 1], "judged": [1, 1, 1, 1], "n_relevant": 1, "n_nonrelevant": 3}
    found = _found("Bpref", {**data, "k": None}, 0.0)  # 1 - min(3, 1)/min(3, 1) = 0
    assert found["n not capped at R"].value == pytest.approx(1 - 3 / 1)
