"""tools/i18n.py and plurals: ngettext calls extracted, plural parts merged, plural entries
checked (every form keeps the plural's placeholders), untranslated plurals left out of the .mo."""

from __future__ import annotations

import gettext
import importlib.util
import json
from pathlib import Path

from babel.messages.catalog import Catalog

ROOT = Path(__file__).parents[2]
_spec = importlib.util.spec_from_file_location("i18n_tool", ROOT / "tools" / "i18n.py")
assert _spec and _spec.loader
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)

MESSAGES = tool.messages()
CATALOG = tool.load()
PLURALS = {message.id: message.string for message in CATALOG if isinstance(message.id, tuple)}


def test_an_ngettext_call_is_a_plural_message():
    source = b'ngettext("{n} cat", "{n} cats", n)\ntr("a dog")\nngettext(name, "x", 2)\n'
    found = dict(tool._from_python(source, "here"))
    assert found == {("{n} cat", "{n} cats"): "here:1", "a dog": "here:2"}
    assert any(isinstance(msgid, tuple) for msgid in MESSAGES)


def test_the_check_covers_plural_entries():
    msgid = ("one result, at rank {ranks}", "{n} results, at ranks {ranks}")
    assert tool._plural_problems(msgid, ("{n} 个结果，排名 {ranks}",)) == []
    assert tool._plural_problems(msgid, ("",)) == [f"missing: {msgid!r}"]
    wrong = tool._plural_problems(msgid, ("{n} 个结果",))
    assert wrong == [f"placeholders differ: {msgid!r} -> '{{n}} 个结果'"]
    odd = ("{n} result at {rank}", "{n} results")
    assert tool._plural_problems(odd, ("{n} 个结果",))[0].startswith("singular has placeholders")
    found = {**MESSAGES, ("a plural nobody translated", "plurals nobody translated"): ["here"]}
    assert "missing: ('a plural nobody translated', 'plurals nobody translated') (here)" in (
        tool.problems(CATALOG, found)
    )
    clash = {**MESSAGES, msgid[0]: ["there"], msgid: ["here"]}
    assert any(line.startswith("both a message") for line in tool.problems(CATALOG, clash))


def test_a_plural_part_merges_into_the_catalogue(tmp_path, monkeypatch):
    part = tmp_path / "part.json"
    singular, plural = next(iter(PLURALS))
    part.write_text(
        json.dumps({singular: {"plural": plural, "zh": "新的译文 {n}"}}, ensure_ascii=False),
        encoding="utf-8",
    )
    monkeypatch.setattr(tool, "messages", lambda: {(singular, plural): ["here:1"]})
    merged = {message.id: message.string for message in tool.merge([part]) if message.id}
    assert merged == {(singular, plural): ("新的译文 {n}",)}


def test_an_untranslated_plural_stays_in_the_po_but_not_in_the_mo(tmp_path, monkeypatch):
    monkeypatch.setattr(tool, "PO", tmp_path / "mapteach.po")
    monkeypatch.setattr(tool, "MO", tmp_path / "mapteach.mo")
    catalog = Catalog(locale="zh_Hans_CN", domain="mapteach")
    catalog.add(("{n} cat", "{n} cats"), ("",))
    catalog.add(("{n} dog", "{n} dogs"), ("{n} 只狗",))
    tool.write(catalog)
    with open(tmp_path / "mapteach.mo", "rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    assert [compiled.ngettext("{n} cat", "{n} cats", n) for n in (1, 2)] == ["{n} cat", "{n} cats"]
    assert compiled.ngettext("{n} dog", "{n} dogs", 2) == "{n} 只狗"
    assert ("{n} cat", "{n} cats") in {message.id for message in tool.load()}


def test_the_part_command_checks_plural_entries(tmp_path, monkeypatch, capsys):
    found = {
        ("{n} cat", "{n} cats"): ["mine.py:1"],
        ("{n} dog at {where}", "{n} dogs at {where}"): ["mine.py:2"],
        ("{n} owl", "{n} owls"): ["mine.py:3"],
        ("{n} bee", "{n} bees"): ["other.py:1"],
    }
    monkeypatch.setattr(tool, "messages", lambda: found)
    part = tmp_path / "part.json"
    entries = {
        "{n} cat": {"plural": "{n} cats", "zh": "{n} 只猫"},
        "{n} dog at {where}": {"plural": "{n} dogs at {where}", "zh": "{n} 只狗"},
    }
    part.write_text(json.dumps(entries, ensure_ascii=False), encoding="utf-8")
    assert tool.main(["part", str(part), "mine.py"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "placeholders differ: ('{n} dog at {where}', '{n} dogs at {where}') -> '{n} 只狗'",
        "missing: ('{n} owl', '{n} owls') (mine.py:3)",
    ]


def _po_with(tmp_path, monkeypatch, entries: dict[str, str]) -> Path:
    """A temporary .po holding ``entries``, and the tool pointed at it and at those messages."""
    monkeypatch.setattr(tool, "PO", tmp_path / "mapteach.po")
    monkeypatch.setattr(tool, "MO", tmp_path / "mapteach.mo")
    catalog = Catalog(locale="zh_Hans_CN", domain="mapteach")
    for msgid, msgstr in entries.items():
        catalog.add(msgid, msgstr)
    tool.write(catalog)
    monkeypatch.setattr(tool, "messages", lambda: {msgid: ["here:1"] for msgid in entries})
    return tool.PO


def _part(tmp_path, name: str, entries: dict[str, str]) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(entries, ensure_ascii=False), encoding="utf-8")
    return path


def _merged(parts: list[Path]) -> dict[str, str]:
    return {message.id: message.string for message in tool.merge(parts) if message.id}


def test_parts_apply_over_the_po_in_the_order_given(tmp_path, monkeypatch):
    _po_with(tmp_path, monkeypatch, {"apple": "苹果", "pear": "梨", "plum": "李子"})
    first = _part(tmp_path, "first.json", {"apple": "红苹果", "pear": "青梨"})
    second = _part(tmp_path, "second.json", {"apple": "黄苹果", "plum": ""})
    assert _merged([first, second]) == {"apple": "黄苹果", "pear": "青梨", "plum": "李子"}
    assert _merged([second, first])["apple"] == "红苹果"
    assert _merged([]) == {"apple": "苹果", "pear": "梨", "plum": "李子"}


def test_the_merge_applies_the_typography_to_every_msgstr(tmp_path, monkeypatch):
    _po_with(tmp_path, monkeypatch, {"old": "见(图1),然后", "new": "", "quoted": ""})
    monkeypatch.setattr(tool._typography(), "articles", lambda: "原文的一句话")
    part = _part(
        tmp_path,
        "part.json",
        {"new": "共{n}个查询;其中`A`最好", "quoted": "「原文的一句话」不是「我的话」"},
    )
    assert _merged([part]) == {
        "old": "见（图 1），然后",
        "new": "共 {n} 个查询；其中 `A` 最好",
        "quoted": "「原文的一句话」不是“我的话”",
    }


def test_a_part_using_a_ruled_out_name_is_refused_and_nothing_is_written(
    tmp_path, monkeypatch, capsys
):
    po = _po_with(tmp_path, monkeypatch, {"relevant results": "", "AP": "", "mine": ""})
    monkeypatch.setattr(tool._typography(), "articles", lambda: "原文的相关结果")
    before = po.read_bytes()
    fine = _part(tmp_path, "fine.json", {"AP": "平均精度，「原文的相关结果」"})
    wrong = _part(tmp_path, "wrong.json", {"relevant results": "两个相关结果"})
    unquoted = _part(tmp_path, "unquoted.json", {"mine": "「我的相关结果」"})  # no article's
    spaced = _part(tmp_path, "spaced.json", {"AP": "按 Fleiss’ kappa 计"})  # typeset: no space
    assert tool.main(["merge", str(fine), str(wrong), str(unquoted), str(spaced)]) == 1
    assert po.read_bytes() == before
    said = capsys.readouterr().err
    assert f"{wrong}: msgid 'relevant results': '相关结果' is ruled out" in said
    assert f"{unquoted}: msgid 'mine': '相关结果' is ruled out" in said
    assert f"{spaced}: msgid 'AP': 'Fleiss’ kappa' is ruled out" in said
    assert "write '相关文档'" in said and str(fine) not in said
    assert tool.main(["merge", str(fine)]) == 0
    assert {message.id: message.string for message in tool.load() if message.id} == {
        "relevant results": "",
        "AP": "平均精度，「原文的相关结果」",
        "mine": "",
    }
