"""Chinese typography, one rule each, in every zh notebook, the catalogue and the guide.

The rules and their checker are ``tools/zh_typography.py`` (``check`` lists the slips,
``fix`` mends what can be mended mechanically):

1. inside Chinese text, full-width ，。、；：？！（）: ASCII ``, ; : ? ! ( )`` never touch a CJK
   character (code, formulas, URLs, ``1,000``, ``min(k, R)`` and Latin-only phrases keep
   ASCII);
2. “…” for ordinary quotes, 「…」 only around a verbatim quote of one of the three source
   articles (compared modulo punctuation and ``@``), no ASCII ``"`` around Chinese;
3. one half-width space between a CJK character and a Latin letter, a digit, a code span, a
   formula or a ``{placeholder}``; none beside full-width punctuation; none before ``%``.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
_spec = importlib.util.spec_from_file_location("zh_typography", ROOT / "tools" / "zh_typography.py")
assert _spec and _spec.loader
typography = sys.modules.setdefault("zh_typography", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(typography)

CHINESE = sorted((ROOT / "notebooks" / "zh").glob("*.ipynb"))
CATALOGUE = ROOT / "mapteach" / "i18n" / "locale" / "zh" / "LC_MESSAGES" / "mapteach.po"
GUIDE = ROOT / "instructor" / "README.zh.md"
FIX = "run `python tools/zh_typography.py fix PATH` (the .po: through its translation part)"


def _slips(path: Path) -> list[str]:
    return [
        f"{where}: {slip.rule}: {slip.excerpt}"
        for where, text in typography.texts(path)
        for slip in typography.slips(text)
    ]


@pytest.mark.parametrize("path", CHINESE, ids=lambda p: p.stem)
def test_a_zh_notebook_follows_the_typography_rules(path):
    found = _slips(path)
    assert not found, f"{path.name}: {len(found)} slips; {FIX}\n" + "\n".join(found)


def test_the_catalogue_follows_the_typography_rules():
    found = _slips(CATALOGUE)
    assert not found, f"{len(found)} slips; {FIX}\n" + "\n".join(found)


def test_the_chinese_guide_follows_the_typography_rules():
    found = _slips(GUIDE)
    assert not found, f"{len(found)} slips; {FIX}\n" + "\n".join(found)


def test_the_articles_are_there_to_tell_a_verbatim_quote():
    if not typography.articles():
        pytest.skip("no article text: set MAPTEACH_SEEDS (or put ../shared/seeds beside)")
    assert typography.is_verbatim("你报的mAP到底怎么算的", typography.articles())
    assert not typography.is_verbatim("你报的 MAP 到底对不对", typography.articles())


@pytest.mark.parametrize(
    ("text", "rule", "fixed"),
    [
        ("精确率, 召回率", "punctuation", "精确率，召回率"),
        ("注意:R 不变", "punctuation", "注意：R 不变"),
        ("真的吗?", "punctuation", "真的吗？"),
        ("到此为止.", "punctuation", "到此为止。"),
        ("见(第 02 本)", "parentheses", "见（第 02 本）"),
        ('叫作"截断"的', "quotes", "叫作“截断”的"),
        ("前k位", "spacing", "前 k 位"),
        ("用`tr`翻译", "spacing", "用 `tr` 翻译"),
        ("共{n}个", "spacing", "共 {n} 个"),
        ("“精确率” 列", "spacing", "“精确率”列"),
        ("（如 2/3） 作答", "spacing", "（如 2/3）作答"),
        ("占 50 %", "spacing", "占 50%"),
        ("有 2  个", "spacing", "有 2 个"),
    ],
)
def test_each_rule_finds_and_fixes_its_slip(text, rule, fixed):
    assert [slip.rule for slip in typography.slips(text)] == [rule]
    assert typography.fix_text(text) == fixed
    assert typography.slips(fixed) == []


@pytest.mark.parametrize(
    "text",
    [
        "取 `precision_at_k(labels, k=3)` 和 $\\frac{1}{k}$ 的值",
        "1,000 个查询，3.5 分，min(k, R) 与 (1 - AP) / Q",
        "见 [01 · 为什么顺序很重要](01_why_order_matters.ipynb)，或 https://trec.nist.gov/x,y",
        "English only (here, too): fine.",
        "文章说「此时AP的分母很小一个小波动就会让分数剧烈变化」",
        '<span title="a,b">排名</span>',
        "P@k、R@k 和 AP 的值为 50%。",
    ],
)
def test_what_the_rules_leave_alone(text):
    assert typography.slips(text) == []
    assert typography.fix_text(text) == text


def test_a_quote_that_is_no_articles_is_found_and_turned_curly():
    if not typography.articles():
        pytest.skip("no article text: set MAPTEACH_SEEDS (or put ../shared/seeds beside)")
    text = "按「下一个查询」，再读「你报的mAP到底怎么算的」和「{quote}」"
    assert [slip.excerpt for slip in typography.slips(text)] == ["「下一个查询」"]
    fixed = typography.fix_text(text, quotes=True)
    assert fixed == "按“下一个查询”，再读「你报的mAP到底怎么算的」和「{quote}」"


def test_fixing_a_notebook_touches_only_its_markdown(tmp_path):
    code = {"cell_type": "code", "source": ["x = 1  # 前k位,不改\n"], "metadata": {}}
    code |= {"outputs": [], "execution_count": None}
    notebook = {
        "cells": [
            {"cell_type": "markdown", "source": ["前k位(见下)\n", "共3个"], "metadata": {}},
            code,
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path = tmp_path / "n.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    assert typography.fix(path) == 1
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    assert cells[0]["source"] == ["前 k 位（见下）\n", "共 3 个"]
    assert cells[1] == code
    assert typography.fix(path) == 0


def test_a_translation_part_is_checked_and_fixed_in_place(tmp_path):
    part = tmp_path / "part.json"
    entries = {"{n} queries": "共{n}个查询", "one / {n}": {"plural": "{n} ones", "zh": "共 {n} 个"}}
    part.write_text(json.dumps(entries, ensure_ascii=False), encoding="utf-8")
    assert [
        slip.rule for _where, text in typography.texts(part) for slip in typography.slips(text)
    ] == ["spacing"]
    assert typography.fix(part) == 1
    fixed = json.loads(part.read_text(encoding="utf-8"))
    assert fixed == {"{n} queries": "共 {n} 个查询", "one / {n}": entries["one / {n}"]}
