"""The checklist in words: every item named, every choice of every vocabulary named, in
both languages, and the drop-downs and audits that show them."""

from __future__ import annotations

import pytest

from mapteach.analysis.convention_names import CHECKLIST_NAMES, CHOICE_NAMES, choice_name
from mapteach.analysis.conventions import CHECKLIST
from mapteach.i18n import tr
from mapteach.metrics.options import DENOMINATORS, MISSING, NO_RELEVANT, TIES
from tests.analysis.display_checks import CJK

#: The vocabulary of each named-choice item, as evaluate() takes it.
VOCABULARIES = {
    "ties": TIES,
    "denominator": DENOMINATORS,
    "no_relevant": NO_RELEVANT,
    "missing": MISSING,
}


def test_every_checklist_item_has_a_name():
    assert list(CHECKLIST_NAMES) == list(CHECKLIST)


def test_every_choice_of_every_vocabulary_has_a_name():
    assert {item: tuple(names) for item, names in CHOICE_NAMES.items()} == {
        item: tuple(VOCABULARIES[item]) for item in CHOICE_NAMES
    }
    assert set(CHOICE_NAMES) == set(VOCABULARIES)


@pytest.mark.parametrize("item", list(CHOICE_NAMES))
def test_each_choice_reads_in_chinese_and_in_english(item):
    for choice, message in CHOICE_NAMES[item].items():
        english, chinese = (
            choice_name(item, choice, lang="en"),
            choice_name(item, choice, lang="zh"),
        )
        assert english == message
        assert chinese == tr(message, lang="zh")
        assert CJK.search(chinese) or chinese == "min(k, R)", (item, choice, chinese)
    zh_names = [choice_name(item, choice, lang="zh") for choice in CHOICE_NAMES[item]]
    assert len(set(zh_names)) == len(zh_names)  # no two choices read alike


def test_the_item_names_read_in_chinese():
    for item, name in CHECKLIST_NAMES.items():
        assert CJK.search(tr(name, lang="zh")), item
    shown = [tr(name, lang="zh") for name in CHECKLIST_NAMES.values()]
    assert shown == ["相关性阈值", "并列", "截断", "分母", "空查询", "缺失查询"]


def test_numbers_read_as_a_cutoff_and_a_threshold_given_as_values_or_as_text():
    assert choice_name("cutoff", 5) == choice_name("cutoff", "5") == "k = 5"
    assert choice_name("cutoff", None) == choice_name("cutoff", "None")
    assert choice_name("cutoff", None, lang="zh") == "不截断（整个列表）"
    assert choice_name("relevance_threshold", 2, lang="zh") == "等级 ≥ 2"


def test_an_unknown_item_or_choice_is_named_in_the_error():
    with pytest.raises(ValueError, match=r"'stemming' is not a checklist item; the items are"):
        choice_name("stemming", "porter")
    with pytest.raises(ValueError, match=r"'random' is not a choice of the checklist item 'ties'"):
        choice_name("ties", "random")
    with pytest.raises(ValueError, match=r"\['input'\] is not a choice of the checklist"):
        choice_name("ties", ["input"])


def test_the_names_are_read_only():
    with pytest.raises(TypeError):
        CHECKLIST_NAMES["ties"] = "order"  # type: ignore[index]
    with pytest.raises(TypeError):
        CHOICE_NAMES["ties"]["input"] = "as given"  # type: ignore[index]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_switches_show_names_and_keep_the_typed_values(lang):
    from mapteach.analysis.convention_widgets import ConventionSwitches

    switches = ConventionSwitches({"q": {"a": 1}}, {"q": {"a": 1.0}}, lang=lang)
    for name, control in switches.controls.items():
        assert control.description == tr(CHECKLIST_NAMES[name], lang=lang)
        values = [value for _, value in control.options]
        assert tuple(values) == ConventionSwitches.OPTIONS[name]
        for label, value in control.options:
            assert label == choice_name(name, None if value == "none" else value, lang=lang)
    assert switches.controls["ties"].value == "trec_eval"
