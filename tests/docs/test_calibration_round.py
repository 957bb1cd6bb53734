"""The calibration round of README.md and of the instructor guide runs as written.

Each document has one Python block that calls ``merged_qrels``: the README's section
"Running a calibration round", and the guide's (both editions) in its annotator plan.
The block's one board line (an annotator opening their board, in code or in a comment)
is replaced by every annotator judging their queries on their own board: the reference
grades, except that the second annotator of the result the lead decides grades it 0.
The rest of the block runs unchanged, and its qrels must then be the reference grades.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mapteach.judging import JudgingBoard, judging_status, load_judging_set, read_assignments

ROOT = Path(__file__).parents[2]
DOCUMENTS = {
    "README": (ROOT / "README.md", "## Running a calibration round"),
    "guide-en": (ROOT / "instructor" / "README.md", "## Plan 3 ·"),
    "guide-zh": (ROOT / "instructor" / "README.zh.md", "## 方案三 ·"),
}
BOARD_LINE = re.compile(r"^(?:# [^\n:：]*[:：] ?)?(?:board = )?JudgingBoard\(.*\)$", re.MULTILINE)


def _round_code(path: Path, heading: str) -> str:
    text = path.read_text(encoding="utf-8")
    assert text.count(f"\n{heading}") == 1, f"{path.name} has no single {heading!r} section"
    section = text.split(f"\n{heading}", 1)[1].split("\n## ", 1)[0]
    blocks = [
        b for b in re.findall(r"```python\n(.*?)```", section, re.DOTALL) if "merged_qrels(" in b
    ]
    assert len(blocks) == 1, f"{path.name}: one block of the section should export the qrels"
    return blocks[0]


def _everyone_judges(folder: str, query: str, doc: str) -> None:
    judging_set = load_judging_set()
    plan = read_assignments(folder)
    second = [name for name, queries in plan.items() if query in queries][1]
    for name, queries in plan.items():
        board = JudgingBoard(annotator=name, folder=folder)
        for number in range(len(queries)):
            if number:
                board.next_query()
            for result in judging_set.find(board.query).results:
                wrong = (name, board.query, result.doc) == (second, query, doc)
                board.set_grade(result.doc, 0 if wrong else result.grade, reason=result.rule)


@pytest.mark.parametrize("document", DOCUMENTS)
def test_the_round_runs_and_exports_the_decided_qrels(tmp_path, monkeypatch, capsys, document):
    code = _round_code(*DOCUMENTS[document])
    decided = re.search(r'adjudication\.decide\("([^"]+)", "([^"]+)", (\d)', code)
    assert decided, "the block decides no disagreement"
    query, doc, grade = decided[1], decided[2], int(decided[3])
    gold = load_judging_set().gold()
    assert gold[query][doc] == grade != 0  # the lead's call is the reference's
    assert len(BOARD_LINE.findall(code)) == 1, "the block should open one board"
    judging = f"_everyone_judges(folder, {query!r}, {doc!r})"
    monkeypatch.chdir(tmp_path)
    exec(BOARD_LINE.sub(judging, code), {"_everyone_judges": _everyone_judges})

    lines = (tmp_path / "round1" / "merged.qrels").read_text(encoding="utf-8").splitlines()
    expected = [f"{q} 0 {d} {g}" for q, docs in gold.items() for d, g in docs.items()]
    assert sorted(lines) == sorted(expected)
    status = judging_status(tmp_path / "round1")
    assert list(status.index) == ["ada", "bo", "chen"]
    assert status["to_recheck"].sum() == 1  # the one wrong grade, against the decision
    assert sorted(status["assigned"]) == [3, 3, 4]  # 5 queries x 2, loads within one


def test_the_guides_editions_run_the_same_code():
    def code(document):
        return [
            line.split("#")[0].rstrip() for line in _round_code(*DOCUMENTS[document]).splitlines()
        ]

    assert code("guide-en") == code("guide-zh")
