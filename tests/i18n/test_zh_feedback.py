"""Rule 5 of the Chinese edition: one pattern for the feedback on a wrong answer.

A wrong answer's feedback opens with a verdict and a full stop; when it names the
mistake, the words 误区在于 follow at once (``不对。误区在于以为……。``). The English lead
fixes the verdict. The misconception is said in plain words: never quoted (「」 is for
article quotes) and never as ``这是……的误区`` or ``误区是……``.
"""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from mapteach.exercises.answers import check_number
from mapteach.i18n import LOCALE_DIR, language

PO = LOCALE_DIR / "zh" / "LC_MESSAGES" / "mapteach.po"
#: Each English lead of a wrong-answer feedback and the Chinese verdicts it may take.
VERDICTS = {
    "No": ("不对",),
    "Not quite": ("还不对", "不完全对"),
    "Not the best choice": ("不是最佳选择",),
    "Not yet": ("还不能下结论",),
    "Not safely": ("不可靠",),
}
LEAD = re.compile(r"^(No|Not quite|Not the best choice|Not yet|Not safely): ")
#: The ways of naming a misconception that the pattern replaced.
OTHER_PATTERNS = re.compile(r"这是.{0,40}的误区|误区是|的误区。|「")


def _feedback_entries() -> dict[str, str]:
    with PO.open("rb") as handle:
        catalog = read_po(handle)
    return {
        message.id: str(message.string)
        for message in catalog
        if isinstance(message.id, str) and message.string and LEAD.match(message.id)
    }


FEEDBACK = _feedback_entries()


def pattern_problems(english: str, chinese: str) -> list[str]:
    """What is wrong with one feedback's Chinese, by rule 5 (empty: nothing).

    >>> pattern_problems("No: the misconception that k is R. ...", "不对。误区在于以为 k 是 R。")
    []
    >>> old = "不对：这是「k 是 R」的误区。"
    >>> for problem in pattern_problems("No: the misconception that k is R.", old):
    ...     print(problem)
    verdict 不对。 expected
    misconception not named by 误区在于
    another pattern: 这是「k 是 R」的误区
    """
    lead = LEAD.match(english)
    assert lead, english
    verdicts = VERDICTS[lead.group(1)]
    wrong = []
    if not any(chinese.startswith(verdict + "。") for verdict in verdicts):
        wrong.append("verdict " + " or ".join(v + "。" for v in verdicts) + " expected")
    if "misconception" in english and not re.match(r"^[^。]+。误区在于", chinese):
        wrong.append("misconception not named by 误区在于")
    wrong += [f"another pattern: {found}" for found in OTHER_PATTERNS.findall(chinese)[:1]]
    return wrong


def test_every_wrong_answer_feedback_follows_the_one_pattern():
    assert len(FEEDBACK) > 40
    wrong = {
        english[:60]: problems
        for english, chinese in FEEDBACK.items()
        if (problems := pattern_problems(english, chinese))
    }
    assert wrong == {}


@pytest.mark.parametrize(
    "chinese",
    [
        "不对：误区在于以为 k 是 R。",
        "不对。这是“k 是 R”的误区。",
        "不对，误区是以为 k 是 R。",
        "不对。以为 k 是 R 是一个误区。",
    ],
)
def test_the_check_rejects_the_other_patterns(chinese):
    assert pattern_problems("No: the misconception that k is R.", chinese)


def test_a_number_exercise_names_its_slip_in_the_pattern():
    with language("zh"):
        feedback = check_number(
            "0.25", 0.5, misconceptions=[("divided by the list's length", 0.25, "Explained.")]
        )
    assert feedback.status == "incorrect"
    assert feedback.message.startswith(
        "还不对。0.25 正是犯了这个错误会得到的结果：除以了列表长度。"
    )
