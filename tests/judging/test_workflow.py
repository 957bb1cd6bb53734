"""A judging folder's status: every number recomputed here from the grades written."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from mapteach.i18n import tr
from mapteach.judging import adjudicate, assign, judging_status, load_judging_set
from mapteach.judging.guideline import RELEVANCE_THRESHOLD
from mapteach.judging.judgments import Event, Reveal, append_event, judgments_file
from mapteach.judging.workflow import STATUS_HEADERS

SET = load_judging_set()
GOLD = SET.gold()
NAMES = ["ada", "Bo Li", "陈"]


def _kappa(first: list[int], second: list[int]) -> float:
    """Cohen's kappa of two lists of relevant (1) / not relevant (0) calls, by its formula."""
    if not first:
        return math.nan
    n = len(first)
    observed = sum(a == b for a, b in zip(first, second, strict=True)) / n
    p_first, p_second = sum(first) / n, sum(second) / n
    chance = p_first * p_second + (1 - p_first) * (1 - p_second)
    return math.nan if chance == 1 else (observed - chance) / (1 - chance)


def _calls(grades):
    return [int(grade >= RELEVANCE_THRESHOLD) for grade in grades]


class Round:
    """Annotators' grades written to a folder, and what the test knows about them."""

    def __init__(self, folder: Path, plan: dict[str, list[str]]) -> None:
        self.folder, self.plan = folder, plan
        self.blind: dict[str, dict[tuple[str, str], int]] = {name: {} for name in plan}
        self.final: dict[str, dict[tuple[str, str], int]] = {name: {} for name in plan}

    def grade(self, name: str, query: str, doc: str, grade: int, phase: str = "blind") -> None:
        event = Event.now(name, query, doc, grade, "R-PART", "2026.1", phase=phase)
        append_event(judgments_file(name, self.folder), event)
        self.final[name][(query, doc)] = grade
        if phase == "blind":
            self.blind[name][(query, doc)] = grade

    def reveal(self, name: str, query: str) -> None:
        append_event(judgments_file(name, self.folder), Reveal.now(name, query, "2026.1"))


def _judge_the_set(folder: Path, seed: int) -> Round:
    queries = list(GOLD)[:4]
    plan = assign(NAMES, queries, overlap=2, seed=seed, folder=folder)
    rng = random.Random(seed)
    done = Round(folder, plan)
    for name, assigned in plan.items():
        for number, query in enumerate(assigned):
            if name == "陈" and number == 1:
                continue  # 陈 has not started their second query
            for doc, gold in GOLD[query].items():
                noisy = gold if rng.random() < 0.7 else rng.randint(0, 3)
                done.grade(name, query, doc, noisy)
            if rng.random() < 0.7:  # looks at the answer, then changes some grades
                done.reveal(name, query)
                for doc in rng.sample(list(GOLD[query]), 3):
                    done.grade(name, query, doc, GOLD[query][doc], phase="after_reveal")
    return done


def _expected_row(done: Round, name: str, targets: dict[tuple[str, str], int]) -> dict:
    """The row worked out here: ``judged`` from the final grades, the rest from blind ones."""
    mine = done.blind[name]
    blind_pairs = [(g, GOLD[q][d]) for (q, d), g in mine.items() if d in GOLD.get(q, {})]
    others = []
    for other in done.plan:
        shared = [item for item in mine if item in done.blind[other]]
        if other != name and shared:
            kappa = _kappa(
                _calls(mine[i] for i in shared), _calls(done.blind[other][i] for i in shared)
            )
            if not math.isnan(kappa):
                others.append(kappa)
    return {
        "assigned": len(done.plan[name]),
        "judged": len({q for q, _ in done.final[name]} & set(done.plan[name])),
        "blind_agreement_reference": _kappa(
            _calls(g for g, _ in blind_pairs), _calls(r for _, r in blind_pairs)
        ),
        "agreement_others": sum(others) / len(others) if others else math.nan,
        "to_recheck": sum(
            (grade >= RELEVANCE_THRESHOLD) != (targets[item] >= RELEVANCE_THRESHOLD)
            for item, grade in mine.items()
            if item in targets
        ),
    }


def _assert_rows(table, expected: dict[str, dict]) -> None:
    assert table.index.name == "annotator"
    assert list(table.index) == list(expected)
    assert list(table.columns) == list(STATUS_HEADERS)[1:]
    for name, row in expected.items():
        for column, value in row.items():
            got = table.loc[name, column]
            if isinstance(value, float) and math.isnan(value):
                assert math.isnan(got), (name, column, got)
            else:
                assert got == pytest.approx(value, abs=1e-12), (name, column, got, value)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_status_of_a_round_on_the_judging_set_is_recomputed_exactly(tmp_path, seed):
    done = _judge_the_set(tmp_path, seed)
    files = [judgments_file(name, tmp_path) for name in NAMES]
    adjudication = adjudicate(files, tmp_path / "decisions.jsonl")
    decided = {}
    for number, (query, doc) in enumerate(adjudication.disagreements()[::2]):
        decided[(query, doc)] = number % 4
        adjudication.decide(query, doc, number % 4, "R-PART", who="lead")
    targets = {item: GOLD[item[0]][item[1]] for grades in done.final.values() for item in grades}
    targets.update(decided)  # the lead's decision comes before the reference
    table = judging_status(tmp_path)
    _assert_rows(table, {name: _expected_row(done, name, targets) for name in NAMES})
    assert table.loc["陈", "judged"] == len(done.plan["陈"]) - 1
    assert (table["to_recheck"] > 0).any()


def test_the_blind_kappa_ignores_what_was_changed_after_the_reveal(tmp_path):
    query = next(iter(GOLD))
    done = Round(tmp_path, assign(["ada"], [query], overlap=1, folder=tmp_path))
    for doc, gold in GOLD[query].items():
        done.grade("ada", query, doc, 3 - gold)  # every call wrong, blind
    done.reveal("ada", query)
    for doc, gold in GOLD[query].items():
        done.grade("ada", query, doc, gold, phase="after_reveal")  # then copies the answer
    row = judging_status(tmp_path).loc["ada"]
    blind = [(3 - gold, gold) for gold in GOLD[query].values()]
    assert row["blind_agreement_reference"] == pytest.approx(
        _kappa(_calls(a for a, _ in blind), _calls(b for _, b in blind))
    )
    assert row["blind_agreement_reference"] < 0
    assert row["to_recheck"] == len(GOLD[query])  # copying the answer clears no re-check
    assert math.isnan(row["agreement_others"])  # nobody to agree with


def test_peeking_raises_neither_the_agreement_with_the_others_nor_clears_a_recheck(tmp_path):
    done = Round(tmp_path, assign(["ada", "bo"], ["x1"], overlap=2, folder=tmp_path))
    docs = ["a", "b", "c", "d", "e", "f"]
    blind = {"ada": [3, 2, 0, 0, 1, 3], "bo": [3, 0, 2, 1, 0, 3]}
    for name, grades in blind.items():
        for doc, grade in zip(docs, grades, strict=True):
            done.grade(name, "x1", doc, grade)
    decisions = tmp_path / "decisions.jsonl"
    adjudicate([judgments_file(n, tmp_path) for n in blind], decisions).decide(
        "x1", "b", 2, "R-PART", who="lead"
    )
    before = judging_status(tmp_path)
    done.reveal("bo", "x1")
    for doc, grade in zip(docs, blind["ada"], strict=True):
        done.grade("bo", "x1", doc, grade, phase="after_reveal")  # bo copies ada after the reveal
    after = judging_status(tmp_path)
    expected = _kappa(_calls(blind["ada"]), _calls(blind["bo"]))
    assert 0 < expected < 1
    assert after["agreement_others"].tolist() == pytest.approx([expected, expected])
    assert after["agreement_others"].tolist() == pytest.approx(before["agreement_others"].tolist())
    latest = adjudicate([judgments_file(n, tmp_path) for n in blind], decisions)
    assert latest.disagreements() == []  # adjudication reads what bo finally said
    # the targets: the lead's 2 for b, else the grade both now give (ada's); bo's blind
    # calls are checked against them, so copying ada clears nothing: b and c stay wrong
    targets = dict(zip(docs, blind["ada"], strict=True)) | {"b": 2}
    wrong = [
        d for d, g in zip(docs, blind["bo"], strict=True) if _calls([g]) != _calls([targets[d]])
    ]
    assert wrong == ["b", "c"]
    assert before.loc["bo", "to_recheck"] == 1  # c was an undecided disagreement: no target
    assert after.loc["bo", "to_recheck"] == len(wrong)
    assert after.loc["ada", "to_recheck"] == 0


def test_a_folder_outside_the_judging_set_has_no_reference_kappa(tmp_path):
    done = Round(tmp_path, assign(["ada", "bo"], ["x1", "x2"], overlap=2, seed=0, folder=tmp_path))
    grades = {"ada": [3, 0, 2, 1], "bo": [3, 2, 0, 1]}
    for name, values in grades.items():
        for (query, doc), grade in zip(
            [("x1", "a"), ("x1", "b"), ("x2", "c"), ("x2", "d")], values, strict=True
        ):
            done.grade(name, query, doc, grade)
    adjudicate([judgments_file(n, tmp_path) for n in grades], tmp_path / "decisions.jsonl").decide(
        "x2", "c", 0, "R-OFF", who="lead"
    )
    targets = {("x1", "a"): 3, ("x2", "c"): 0, ("x2", "d"): 1}  # x1/b (0 / 2): undecided, no target
    table = judging_status(tmp_path)
    _assert_rows(table, {name: _expected_row(done, name, targets) for name in grades})
    assert table["blind_agreement_reference"].isna().all()
    assert table.loc["ada", "to_recheck"] == 1  # x2/c: relevant, and the lead said 0


def test_annotators_who_have_not_started_show_zeros_and_no_kappa(tmp_path):
    assign(NAMES, list(GOLD)[:2], overlap=1, seed=4, folder=tmp_path)
    table = judging_status(tmp_path)
    assert table["judged"].tolist() == [0, 0, 0]
    assert table["to_recheck"].tolist() == [0, 0, 0]
    assert table[["blind_agreement_reference", "agreement_others"]].isna().all().all()
    assert sorted(table["assigned"]) == [0, 1, 1]


def test_kappa_is_nan_not_a_warning_when_both_make_one_call_throughout(tmp_path):
    done = Round(tmp_path, assign(["ada", "bo"], ["x1"], overlap=2, folder=tmp_path))
    for name in ("ada", "bo"):
        done.grade(name, "x1", "a", 3)
        done.grade(name, "x1", "b", 2)
    assert math.isnan(judging_status(tmp_path).loc["ada", "agreement_others"])


def test_the_status_needs_a_plan_and_shows_its_headers_in_chinese(tmp_path):
    with pytest.raises(ValueError, match=r"assignments\.json: cannot read the file"):
        judging_status(tmp_path)
    assign(["ada"], ["x1"], overlap=1, folder=tmp_path)
    shown = judging_status(tmp_path).display(lang="zh")
    assert shown.index.name == tr(STATUS_HEADERS["annotator"], lang="zh") == "标注员"
    assert (
        shown.columns.tolist() == [tr(STATUS_HEADERS[key], lang="zh") for key in STATUS_HEADERS][1:]
    )
