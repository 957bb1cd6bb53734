"""Filling a Chinese message's placeholders: one space between Chinese and Latin, none
between Chinese characters or beside full-width punctuation; English untouched.

The expected strings are written out by hand from the edition's typography rule.
"""

from __future__ import annotations

import pytest

from mapteach.i18n import language, ngettext, tr
from mapteach.i18n.spacing import spaced_format


@pytest.mark.parametrize(
    ("message", "fields", "expected"),
    [
        ("没有这个{what}文件", {"what": "qrels"}, "没有这个 qrels 文件"),
        ("没有这个{what}文件", {"what": "标注"}, "没有这个标注文件"),
        ("没有这个 {what} 文件", {"what": "标注"}, "没有这个标注文件"),
        ("没有这个 {what} 文件", {"what": "qrels"}, "没有这个 qrels 文件"),
        ("请用 {answer} 作答。", {"answer": "一个整数"}, "请用一个整数作答。"),
        ("请用 {answer} 作答。", {"answer": "4 位小数（如 2/3）"}, "请用 4 位小数（如 2/3）作答。"),
        ("共{n}个", {"n": 3}, "共 3 个"),
        ("差值为{delta}", {"delta": "−0.25"}, "差值为 −0.25"),
        ("占{share}", {"share": "50%"}, "占 50%"),
        ("结果：{value}。", {"value": "0.5"}, "结果：0.5。"),
        ("结果： {value} 。", {"value": "0.5"}, "结果：0.5。"),
        ("（{items}）", {"items": "甲、乙"}, "（甲、乙）"),
        ("是{code}吗", {"code": "<code>d3</code>"}, "是 <code>d3</code> 吗"),
        ("是{code}吗", {"code": "<b>第一</b>"}, "是<b>第一</b>吗"),
        ("{a}{b}。", {"a": "AP", "b": "更高"}, "AP 更高。"),
        ("{a}{b}", {"a": "AP", "b": "更高"}, "AP更高"),
        ("{a}{b}", {"a": "更高。", "b": "AP"}, "更高。AP"),
        ("{a} {b}", {"a": "P@5", "b": "AP"}, "P@5 AP"),
        ("{name:4}相关", {"name": "甲"}, "甲   相关"),
        ("值为{x!r}", {"x": "ab"}, "值为 'ab'"),
        ("见{empty}第 2 本", {"empty": ""}, "见第 2 本"),
        ("{{x}}字{x}", {"x": "A"}, "{x}字 A"),
        ("列表{labels}中", {"labels": [0, 1]}, "列表 [0, 1] 中"),
    ],
)
def test_each_value_is_spaced_by_the_rule(
    message: str, fields: dict[str, object], expected: str
) -> None:
    assert spaced_format(message, **fields) == expected


def test_formats_and_nested_widths_are_applied_as_str_format_does() -> None:
    assert spaced_format("AP 为{ap:.4f}", ap=0.5) == "AP 为 0.5000"
    assert spaced_format("{x:>{width}}个", x=7, width=3) == "  7 个"


def test_a_missing_field_raises_as_str_format_does() -> None:
    with pytest.raises(KeyError, match="what"):
        spaced_format("没有这个{what}文件")


def test_tr_spaces_chinese_values_and_leaves_english_as_it_was() -> None:
    message = "{name}: no such {what} file."
    assert tr(message, name="a.txt", what="qrels") == "a.txt: no such qrels file."
    with language("zh"):
        assert tr(message, name="a.txt", what="qrels") == "a.txt：没有这个 qrels 文件。"
        assert tr(message, name="a.txt", what="标注") == "a.txt：没有这个标注文件。"


def test_ngettext_spaces_its_values_in_chinese() -> None:
    pair = ("one relevant result, at rank {ranks}", "{n} relevant results, at ranks {ranks}")
    assert ngettext(*pair, 2, lang="en", ranks="2 and 3") == "2 relevant results, at ranks 2 and 3"
    assert ngettext(*pair, 2, lang="zh", ranks="2、3") == "2 个相关文档，位于第 2、3 位"


@pytest.mark.parametrize(
    ("message", "fields", "expected"),
    [
        ("变化为{change:+.4f}。", {"change": -0.0178}, "变化为 −0.0178。"),
        ("变化为{change:+.4f}。", {"change": 0.0178}, "变化为 +0.0178。"),
        ("少了{n}个", {"n": -3}, "少了 −3 个"),
        ("占{share:.1%}", {"share": -0.125}, "占 −12.5%"),
        ("共{total:,}", {"total": -1234}, "共 −1,234"),
        ("答案{answer}不对", {"answer": "-0.5"}, "答案 −0.5 不对"),
        ("查询 {name}", {"name": "-x"}, "查询 -x"),
        ("查询{name}", {"name": "-3 号"}, "查询 -3 号"),
        ("范围{span}", {"span": "1-2"}, "范围 1-2"),
        ("收到的是 {value!r}", {"value": -1}, "收到的是 -1"),
    ],
)
def test_a_negative_number_gets_the_chinese_minus_sign(
    message: str, fields: dict[str, object], expected: str
) -> None:
    assert spaced_format(message, **fields) == expected


def test_tr_writes_a_negative_number_with_the_minus_sign_in_chinese_only() -> None:
    message = "Significance: {p}. Size: MAP {gap:+.4f} ({relative:+.1%}). Report both."
    fields = {"p": "p = 0.03", "gap": -0.0178, "relative": -0.05}
    assert tr(message, lang="en", **fields) == (
        "Significance: p = 0.03. Size: MAP -0.0178 (-5.0%). Report both."
    )
    assert tr(message, lang="zh", **fields) == (
        "显著性：p = 0.03。差距大小：MAP −0.0178（−5.0%）。两者都要报告。"
    )
