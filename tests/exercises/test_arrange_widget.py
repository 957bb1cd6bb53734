"""Arrangement exercises: results move but never change relevance, the readout follows every
move (the readout of every order written once, for the browser to show as the board moves;
the kernel only clears the verdict), Reset brings back the start, and Check says what is
still wrong in the learner's terms."""

from __future__ import annotations

import itertools
import json
import math

import pytest
import traitlets

from mapteach.board.list_widget import RankingError
from mapteach.classroom import forget_learner
from mapteach.exercises import ArrangeExercise
from mapteach.exercises import arrange_widget as arrange_widget_module
from mapteach.i18n import language
from tests.reference import reference_ap

#: Notebook 06's two arrangement exercises.
AP_ONLY = ({"AP": 0.5}, 8, 3)
AP_AND_P5 = ({"AP": 0.5, "P@5": 0.6}, 10, 4)


def arrange(targets=AP_AND_P5, key: str | None = None) -> ArrangeExercise:
    return ArrangeExercise("Arrange.", *targets, key=key)


def put(task: ArrangeExercise, labels: list[int]) -> None:
    """Drag the board into ``labels``'s order, one move per rank, as a learner would."""
    for rank, label in enumerate(labels, start=1):
        doc = next(i["doc"] for i in task.board.items[rank - 1 :] if i["relevant"] == bool(label))
        task.board.move(doc, rank)


def precision_at(labels: list[int], k: int) -> float:
    return sum(labels[:k]) / k


def test_the_board_never_toggles_relevance():
    task = arrange()
    assert task.board.fixed_relevance
    with pytest.raises(RankingError, match="relevance is fixed"):
        task.board.toggle("d1")
    flipped = [dict(item, relevant=not item["relevant"]) for item in task.board.items]
    before = list(task.board.items)
    with pytest.raises(traitlets.TraitError):
        task.board.set_state({"items": flipped})  # as a click in an old view would send
    assert task.board.items == before
    with pytest.raises(traitlets.TraitError):
        task.board.fixed_relevance = False
    assert task.board.labels == [0] * 6 + [1] * 4


def test_the_readout_shows_every_target_on_the_order_shown_after_every_move():
    task = arrange()
    for labels in ([1, 0, 1, 0, 0, 0, 1, 0, 0, 1], [0, 1, 0, 1, 1, 0, 0, 0, 0, 1]):
        put(task, labels)
        ap, p5 = reference_ap(labels), precision_at(labels, 5)
        expected = f"AP = {ap:.4f} (target 0.5)" + (" ✓" if ap == 0.5 else "")
        expected += f" · P@5 = {p5:.4f} (target 0.6)" + (" ✓" if p5 == 0.6 else "")
        assert task.readout == expected
    assert task.readout.endswith("(target 0.6) ✓") and task.readout.count("✓") == 2


def expected_readout(labels: list[int]) -> str:
    """The readout of notebook 06's AP = 0.5 and P@5 = 0.6 task, from the reference AP."""
    ap, p5 = reference_ap(labels), precision_at(labels, 5)
    return (
        f"AP = {ap:.4f} (target 0.5)"
        + (" ✓" if ap == 0.5 else "")
        + f" · P@5 = {p5:.4f} (target 0.6)"
        + (" ✓" if p5 == 0.6 else "")
    )


def test_the_readout_of_every_order_is_written_once_for_the_browser():
    task = arrange()
    orders = [list(labels) for labels in itertools.product([0, 1], repeat=10) if sum(labels) == 4]
    assert len(task.readouts) == len(orders) == math.comb(10, 4)
    for labels in orders:
        assert task.readouts["".join(map(str, labels))] == expected_readout(labels)


def test_a_move_clears_the_verdict_and_computes_nothing(monkeypatch):
    task = arrange()
    put(task, [1, 1, 1, 1, 0, 0, 0, 0, 0, 0])
    task.check_request += 1
    assert task.status == "incorrect"

    def no_measure(*args, **kwargs):
        raise AssertionError("the kernel measured the order on a move")

    monkeypatch.setattr(task, "report", no_measure)
    monkeypatch.setattr(task, "_scores", no_measure)
    labels = [1, 0, 1, 0, 0, 0, 1, 0, 0, 1]
    put(task, labels)  # one message from the browser per move
    assert (task.status, task.feedback) == ("empty", "")
    assert task.readout == expected_readout(labels)


def test_an_exercise_with_too_many_orders_is_refused(monkeypatch):
    monkeypatch.setattr(arrange_widget_module, "MOST_ARRANGEMENTS", 10)
    with pytest.raises(ValueError, match="6 results, 2 relevant, has 15 arrangements"):
        ArrangeExercise("AP = 1", {"AP": 1.0}, 6, 2)
    assert len(ArrangeExercise("AP = 1", {"AP": 1.0}, 5, 2).readouts) == 10


def test_reset_brings_back_the_starting_order_and_clears_the_verdict():
    task = arrange()
    start, readout = task.board.labels, task.readout
    put(task, [1, 1, 1, 1, 0, 0, 0, 0, 0, 0])
    task.check_request += 1
    assert task.status == "incorrect"
    task.reset_request += 1  # as the Reset button does
    assert (task.board.labels, task.readout, task.status) == (start, readout, "empty")
    put(task, [1, 0, 1, 0, 0, 0, 1, 0, 0, 1])
    task.reset()
    assert task.board.labels == start


@pytest.mark.parametrize(
    ("labels", "says"),
    [
        (
            [1, 1, 1, 1, 0, 0, 0, 0, 0, 0],
            "AP is 1.0000, above the target 0.5: move a relevant result down. "
            "P@5 is 0.8000: 4 relevant results in the top 5; the target needs 3.",
        ),
        (
            [0, 0, 0, 0, 0, 0, 1, 1, 1, 1],
            "AP is {ap:.4f}, below the target 0.5: move a relevant result up. "
            "P@5 is 0.0000: 0 relevant results in the top 5; the target needs 3.",
        ),
        (
            [1, 0, 0, 0, 0, 0, 0, 0, 0, 1],
            "",  # only two relevant results: not an arrangement of this list
        ),
        (
            [0, 0, 0, 0, 1, 1, 1, 1, 0, 0],
            "AP is {ap:.4f}, below the target 0.5: move a relevant result up. "
            "P@5 is 0.2000: 1 relevant result in the top 5; the target needs 3.",
        ),
    ],
)
def test_check_says_what_is_still_wrong(labels, says):
    task = arrange()
    feedback = task.check(labels)
    if sum(labels) != 4:
        assert feedback.status == "unreadable"
        assert feedback.message.startswith("Use 10 results of which 4 are relevant")
        return
    assert feedback.status == "incorrect"
    assert feedback.message == "Not yet. " + says.format(ap=reference_ap(labels))


def test_chinese_advice_is_joined_as_chinese_sentences_are():
    with language("zh"):
        feedback = arrange().check([0, 0, 0, 0, 0, 0, 1, 1, 1, 1])
    assert "。 " not in feedback.message and "。P@5" in feedback.message, feedback.message


def test_a_target_met_is_said_to_be_met_and_every_target_met_is_correct():
    task = arrange()
    met_p5 = [1, 0, 1, 0, 1, 0, 0, 0, 1, 0]  # P@5 = 0.6, AP above 0.5
    assert reference_ap(met_p5) > 0.5 and precision_at(met_p5, 5) == 0.6
    assert task.check(met_p5).message.endswith("P@5 = 0.6000, on target.")
    solution = task.solve()
    assert reference_ap(solution) == 0.5 and precision_at(solution, 5) == 0.6
    assert task.check(solution).message == (
        "Correct: AP = 0.5000 (target 0.5), P@5 = 0.6000 (target 0.6)."
    )


def test_the_chinese_verdicts_separate_the_targets_with_a_full_width_comma():
    with language("zh"):
        task = arrange()
        correct = task.check(task.solve()).message
        met_p5 = task.check([1, 0, 1, 0, 1, 0, 0, 0, 1, 0]).message
    assert correct == "正确：AP = 0.5000（目标 0.5），P@5 = 0.6000（目标 0.6）。", correct
    assert met_p5.endswith("P@5 为 0.6000，已达到目标。"), met_p5


def test_solve_finds_the_first_arrangement_meeting_every_target():
    for targets, n, m in (AP_ONLY, AP_AND_P5):
        task = ArrangeExercise("?", targets, n, m)
        found = [
            [int(i in ranks) for i in range(n)]
            for ranks in itertools.combinations(range(n), m)
            if abs(reference_ap([int(i in ranks) for i in range(n)]) - targets["AP"]) < 1e-12
            and all(
                precision_at([int(i in ranks) for i in range(n)], int(name[2:])) == value
                for name, value in targets.items()
                if name.startswith("P@")
            )
        ]
        assert task.solve() == found[0]
    assert ArrangeExercise("?", {"AP": 0.123}, 4, 2).solve() is None


def test_submit_arranges_the_board_judges_and_records(tmp_path, monkeypatch):
    path = tmp_path / "progress.jsonl"
    monkeypatch.setenv("MAPTEACH_PROGRESS", str(path))
    forget_learner()
    task = arrange(key="06.4")
    solution = task.solve()
    assert task.submit(solution).correct
    assert (task.board.labels, task.status) == (solution, "correct")
    assert task.readout.count("✓") == 2
    assert task.submit([1, 0]).status == "unreadable"  # not recorded; the board stays
    assert task.board.labels == solution
    put(task, [1, 1, 1, 1, 0, 0, 0, 0, 0, 0])
    assert task.submit().status == "incorrect"  # the board as it is
    task.check_request += 1  # the button records the same
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [(r["answer"], r["verdict"]) for r in records] == [
        (str(solution), "correct"),
        ("[1, 1, 1, 1, 0, 0, 0, 0, 0, 0]", "incorrect"),
        ("[1, 1, 1, 1, 0, 0, 0, 0, 0, 0]", "incorrect"),
    ]


def test_an_arrangement_exposes_what_it_was_built_from():
    task = arrange()
    assert task.measure is None and task.mistake_kind is None
    assert task.data == {"targets": {"AP": 0.5, "P@5": 0.6}, "n_results": 10, "n_relevant_items": 4}
    assert "Drag a result, or focus it and press ↑/↓" in task.texts["arrange_help"]
    with pytest.raises(ValueError, match="n_relevant_items must be between 1 and n_results=3"):
        ArrangeExercise("?", {"AP": 1.0}, 3, 4)


def test_a_recall_target_counts_the_relevant_results_in_the_top_k():
    task = ArrangeExercise("?", {"R@3": 2 / 3}, 6, 3)
    assert task.check([1, 0, 0, 0, 1, 1]).message == (
        "Not yet. R@3 is 0.3333: 1 of the 3 relevant results is in the top 3; the target needs 2."
    )
    assert task.check([1, 1, 1, 0, 0, 0]).message.endswith(
        "3 of the 3 relevant results are in the top 3; the target needs 2."
    )
