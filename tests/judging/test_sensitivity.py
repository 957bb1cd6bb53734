"""Judgments: label-flip sensitivity, judged-only AP, agreement, and the judging board."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from mapteach import average_precision
from mapteach.judging.annotator_agreement import agreement
from mapteach.judging.calibration import LEGAL_RESULTS
from mapteach.judging.guideline import RELEVANCE_THRESHOLD, load_judging_set
from mapteach.judging.judging_board import JudgingBoard
from mapteach.judging.sensitivity import check_grades, flip_sensitivity, judged_only_ap
from tests.analysis.display_checks import english_headers, same_values


@pytest.fixture(autouse=True)
def _a_judgments_folder_of_its_own(tmp_path, monkeypatch):
    """Each test's boards save to a fresh folder, so no board resumes another test's file."""
    monkeypatch.setenv("MAPTEACH_JUDGMENTS", str(tmp_path / "judgments"))


def test_flip_sensitivity_by_hand_and_top_matters_most():
    legal = [1, 0, 0, 1, 0, 1, 0, 0, 1, 0]  # article 001's list
    table = flip_sensitivity(legal)
    base = average_precision(legal)
    # rank 1 relevant -> not: R = 3, hits at 4, 6, 9 become 1/4, 2/6, 3/9
    assert table.loc[0, "ap_if_flipped"] == pytest.approx((1 / 4 + 2 / 6 + 3 / 9) / 3)
    assert table.loc[0, "change"] == pytest.approx(table.loc[0, "ap_if_flipped"] - base)
    assert abs(table.loc[0, "change"]) > abs(table.loc[9, "change"])
    missed = flip_sensitivity([1, 0], n_relevant=3)  # two relevant never retrieved stay in R
    assert missed.loc[1, "ap_if_flipped"] == pytest.approx((1 + 1) / 4)


def test_flip_sensitivity_has_exactly_its_keys_and_is_shown_in_chinese():
    table = flip_sensitivity([1, 0, 1])
    assert list(table.columns) == ["rank", "label", "ap_if_flipped", "change"]
    shown = table.display(lang="zh")
    assert not english_headers(shown)
    same_values(shown, table.round(4))
    assert table.display().columns[2] == "AP if flipped"


def test_judged_only_ap_by_hand_and_against_trec_eval():
    import pytrec_eval

    ranking = ["u1", "a", "u2", "x", "b", "u3"]
    judgments = {"a": 1, "x": 0, "b": 2, "missed": 1}
    # condensed list: a, x, b -> relevant at 1 and 3 of R = 3
    assert judged_only_ap(ranking, judgments) == pytest.approx((1 + 2 / 3) / 3)
    run = {"q": {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)}}
    trec = pytrec_eval.RelevanceEvaluator({"q": judgments}, {"map"}, judged_docs_only_flag=True)
    assert trec.evaluate(run)["q"]["map"] == pytest.approx(judged_only_ap(ranking, judgments))


def test_kappa_equals_sklearn_on_random_labels():
    rng = np.random.default_rng(1)
    a = {f"q{q}": {f"d{d}": int(rng.integers(0, 4)) for d in range(12)} for q in range(5)}
    b = {
        q: {d: g if rng.random() < 0.7 else int(rng.integers(0, 4)) for d, g in docs.items()}
        for q, docs in a.items()
    }
    pairs = [(q, d) for q in sorted(a) for d in sorted(a[q])]
    expected = cohen_kappa_score(
        [int(a[q][d] >= 2) for q, d in pairs], [int(b[q][d] >= 2) for q, d in pairs]
    )
    kappa, table = agreement(a, b, {q: sorted(a[q]) for q in a}, relevance_threshold=2)
    assert kappa == pytest.approx(expected)
    assert table["difference"].tolist() == pytest.approx((table["ap_b"] - table["ap_a"]).tolist())


def test_bad_judgments_name_the_document():
    with pytest.raises(
        ValueError, match=r"query 'q', document 'd2' is judged in one set but not in the second"
    ):
        agreement({"q": {"d1": 1, "d2": 0}}, {"q": {"d1": 1}})
    with pytest.raises(ValueError, match=r"query 'q2' is judged in one set but not in the first"):
        agreement({"q": {"d1": 1}}, {"q": {"d1": 1}, "q2": {"d1": 0}})
    with pytest.raises(
        ValueError, match=r"query 'q', document 'd7': grade 5 is not on the scale 1, 2, 3, 4"
    ):
        check_grades({"q": {"d1": 4, "d7": 5}}, scale=range(1, 5))


def test_judging_board():
    board = JudgingBoard()
    assert board.summary["ap"] == 0.0  # nothing judged relevant yet
    reference = [int(grade >= RELEVANCE_THRESHOLD) for _, _, grade in LEGAL_RESULTS]
    assert board.summary["ref_ap"] == average_precision(reference)
    assert not board.widget.show_reference and board.widget.key == []
    for doc, _, grade in LEGAL_RESULTS:
        board.set_grade(doc, grade, reason="as the reference")
    assert board.summary["ap"] == board.summary["ref_ap"]
    assert board.summary["disagree"] == [] and board.summary["differs"] == []
    assert board.widget.show_reference  # a finished round reveals the reference
    assert [key["rule"] for key in board.widget.key][:3] == ["R-AUTH", "R-SPAM", "R-OLD"]
    with pytest.raises(ValueError, match=r"result 'r1': grade 4 is not on the scale 0-3"):
        board.set_grade("r1", 4)
    with pytest.raises(ValueError, match=r"query '劳动仲裁赔偿标准': no result 'r99'"):
        board.grade("r99", 1)
    assert "10 of 10 results judged" in board._repr_mimebundle_()[0]["text/plain"]


def _set(index, grade):
    return lambda grades: [*grades[:index], grade, *grades[index + 1 :]]


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (_set(0, 4), r"result 'r1': grade 4 is not on the scale 0-3 \(or -1, ungraded\)"),
        (_set(2, -2), r"result 'r3': grade -2 is not on the scale 0-3"),
        (_set(1, 1.5), r"result 'r2': grade 1.5 is not on the scale"),
        (_set(1, "2"), r"result 'r2': grade '2' is not on the scale"),
        (_set(0, True), r"result 'r1': grade True is not on the scale"),
        (_set(4, None), r"result 'r5': grade None is not on the scale"),
        (lambda grades: grades[:-1], r"9 entries for 10 results; result 'r10' has no grade"),
        (lambda grades: [*grades, 2], r"11 entries for 10 results; grade 2 at position 11"),
    ],
)
def test_a_rejected_grade_leaves_the_board_unchanged(change, fragment):
    board = JudgingBoard()
    board.set_grade("r1", 3)
    before = (list(board.widget.grades), board.summary)
    with pytest.raises(ValueError, match=fragment):
        board.widget.grades = change(board.widget.grades)
    assert (board.widget.grades, board.summary) == before
    with pytest.raises(ValueError, match=fragment):  # as a message from the browser arrives
        board.widget.set_state({"grades": change(board.widget.grades)})
    assert (board.widget.grades, board.summary) == before
    board.set_grade("r4", 2, reason="R-PART")  # the board still works
    assert board.summary["ap"] == pytest.approx((1 / 1 + 2 / 4) / 2)


def test_grades_are_stored_as_ints_and_grade_refuses_ungraded():
    board = JudgingBoard()
    board.widget.grades = [np.int64(3), *board.widget.grades[1:]]
    assert type(board.widget.grades[0]) is int
    assert board.summary["ap"] == 1.0
    before = (list(board.widget.grades), board.summary)
    for grade in (-1, 2.0, True):
        with pytest.raises(ValueError, match=rf"result 'r2': grade {grade!r} is not on the scale"):
            board.grade("r2", grade)
    assert (board.widget.grades, board.summary) == before


def test_judged_only_ap_drops_negative_grades_as_trec_eval_minus_j():
    assert judged_only_ap(["a", "b"], {"a": -1, "b": 1}) == 1.0
    assert judged_only_ap(["a", "b", "c"], {"a": 0, "b": -2, "c": 1}) == 0.5  # 1/2 over R=1


def test_a_middle_grade_counts_once_it_has_a_reason():
    board = JudgingBoard()
    board.set_grade("r6", 2)
    assert board.incomplete == ["r6"] and board.summary["ap"] == 0.0
    assert board.judgments == {"劳动仲裁赔偿标准": {"r6": 2}}  # saved all the same
    board.widget.set_state({"reasons": [*[""] * 5, "R-PART: time limit", *[""] * 4]})
    assert board.incomplete == [] and board.summary["ap"] == pytest.approx(1 / 6)
    board.clear_grade("r6")
    assert board.judgments == {} and board.widget.reasons[5] == ""
    board.set_grade("r2", 0)  # the ends of the scale need no reason
    board.set_grade("r1", 3)
    assert board.incomplete == [] and board.summary["n_complete"] == 2


def test_the_order_is_shuffled_per_annotator_and_stable():
    alice, again, bob = (
        JudgingBoard(),
        JudgingBoard(annotator="alice"),
        JudgingBoard(annotator="bob"),
    )
    assert alice.widget.order == again.widget.order != bob.widget.order
    assert sorted(alice.widget.order) == list(range(10)) != alice.widget.order
    assert JudgingBoard(seed=7).widget.order == JudgingBoard(annotator="carol", seed=7).widget.order
    # the true rank stays with each item, whatever the order shown
    assert [item["rank"] for item in alice.widget.items] == list(range(1, 11))


def test_next_query_and_reveal_and_report():
    board = JudgingBoard()
    board.set_grade("r1", 3)
    board.reveal()
    assert [key["grade"] for key in board.widget.key] == [g for _, _, g in LEGAL_RESULTS]
    board.next_query()
    assert board.query == "竞业限制补偿金标准" and board.widget.key == []
    assert not board.widget.show_reference
    board.set_grade("j1", 2, reason="R-AUTH but only the default")
    board.widget.set_state({"position": 0})  # as the browser would move back
    assert board.widget.grades[0] == 3
    report = board.report()
    assert report.missing == 18 and report.accuracy == 0.5
    with pytest.raises(ValueError, match="position 5 is not a query of the set"):
        board.widget.set_state({"position": 5})
    board.widget.position = 4
    with pytest.raises(ValueError, match="position 5"):
        board.next_query()
    with pytest.raises(KeyError, match="no query 'nope'"):
        JudgingBoard(query="nope")


def test_legal_results_are_the_first_query_of_the_set():
    first = load_judging_set().queries[0]
    assert first.query == "劳动仲裁赔偿标准"
    assert [(r.doc, r.grade) for r in first.results] == [(d, g) for d, _, g in LEGAL_RESULTS]
    assert [rank for rank, (_, _, g) in enumerate(LEGAL_RESULTS, 1) if g >= 2] == [1, 4, 6, 9]
