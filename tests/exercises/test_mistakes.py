"""The mistake registry: every kind covered, the issue's mistakes present, conventions said
to be conventions, and wrong answers only where a mistake can be made."""

from __future__ import annotations

import pytest

from mapteach.exercises.mistakes import KINDS, Mistake, mistakes_for, register, wrong_answers
from mapteach.i18n import language

#: The kinds whose mistakes live in mistakes_ranking, mistakes_precision and mistakes_map.
RANKING_KINDS = ("AP", "AP@k", "P@k", "R@k", "MAP", "R-precision", "GMAP", "IPrec")

#: Every mistake issue 22 (and the old misconceptions modules) asks to recognise, by kind.
REQUIRED = {
    "AP": {
        "forgot the missed relevant results",
        "final hit count in every numerator",
        "divided by the list's length",
        "mean of P@i over every rank",
        "counted ranks from 0",
        "counted the hits before the current one",
    },
    "AP@k": {
        "divided AP@k by the hits in the top k",
        "divided AP@k by min(k, R)",
        "divided by k",
        "divided by the list's length",
        "final hit count in every numerator",
        "ignored the cutoff",
        "counted ranks from 0",
    },
    "P@k": {
        "divided by R",
        "divided by the list's length",
        "counted hits below rank k",
        "stopped one rank early",
        "went one rank too far",
    },
    "R@k": {"divided by k", "ignored the cutoff", "forgot the missed relevant results"},
    "MAP": {
        "skip instead of zero",
        "counted an empty query as 1",
        "forgot the missed relevant results",
        "mean of each list's precision",
        "mean of P@i over every rank",
        "final hit count in every numerator",
    },
    "R-precision": {
        "P@10 for R-precision",
        "cut at the hits found, not at R",
        "precision at the last relevant result",
    },
    "GMAP": {
        "the arithmetic mean (MAP)",
        "no floor under a zero AP",
        "mean of the logs, not exponentiated",
    },
    "IPrec": {
        "gave the raw precision at the rank where recall reaches the level",
        "took the best precision anywhere in the list",
        "trec_eval 9's recall levels",
        "trec_eval 10's recall levels",
    },
}
CONVENTIONS = {
    ("AP@k", "divided AP@k by the hits in the top k"),
    ("AP@k", "divided AP@k by min(k, R)"),
    ("MAP", "skip instead of zero"),
    ("MAP", "counted an empty query as 1"),  # torchmetrics' empty_target_action="pos"
    ("IPrec", "trec_eval 9's recall levels"),
    ("IPrec", "trec_eval 10's recall levels"),
}


@pytest.mark.parametrize("kind", RANKING_KINDS)
def test_every_kind_has_at_least_four_mistakes_with_the_required_ones(kind):
    names = [mistake.name for mistake in mistakes_for(kind)]
    assert len(names) >= 4 and len(set(names)) == len(names)
    assert REQUIRED[kind] <= set(names), REQUIRED[kind] - set(names)


def test_conventions_are_flagged_and_only_they():
    flagged = {
        (kind, mistake.name)
        for kind in RANKING_KINDS
        for mistake in mistakes_for(kind)
        if mistake.convention is not None
    }
    assert flagged == CONVENTIONS


def test_a_convention_says_whose_it_is_and_that_trec_eval_is_asked():
    data = {"labels": [1, 1, 0, 0, 0, 1, 1, 1, 0, 0], "n_relevant": 5, "k": 3}  # 03.3
    found = {w.name: w for w in wrong_answers("AP@k", data, 2 / 5)}
    apk = found["divided AP@k by min(k, R)"]
    assert apk.convention and apk.value == pytest.approx(2 / 3)
    assert "Kaggle's apk" in apk.explanation and "trec_eval's AP@3" in apk.explanation
    top_k = found["divided AP@k by the hits in the top k"]
    assert top_k.convention and "torchmetrics" in top_k.explanation
    assert not found["divided by the list's length"].convention


def test_wrong_answers_leave_out_what_cannot_be_made():
    every_one_found = {"labels": [1, 0, 1], "n_relevant": 2, "k": None}
    names = {w.name for w in wrong_answers("AP", every_one_found, (1 + 2 / 3) / 2)}
    assert "forgot the missed relevant results" not in names  # R is the hits found
    assert "final hit count in every numerator" in names


def test_explanations_follow_the_language():
    data = {"labels": [1, 0, 1], "n_relevant": 3, "k": None}
    with language("zh"):
        [wrong] = [
            w
            for w in wrong_answers("AP", data, 5 / 9)
            if w.name == "forgot the missed relevant results"
        ]
    assert "R = 3" in wrong.explanation and "0.5556" in wrong.explanation
    assert any("\u4e00" <= ch <= "\u9fff" for ch in wrong.explanation)


def test_a_mistake_of_an_unknown_kind_is_refused_and_a_name_is_registered_once():
    with pytest.raises(ValueError, match=r"kinds must be among AP, AP@k.*got \['F1'\]"):
        Mistake("x", ("F1",), lambda data: None, lambda data, value: "")
    with pytest.raises(ValueError, match="registered twice"):
        register(mistakes_for("MAP")[0])
    assert set(RANKING_KINDS) <= set(KINDS)
