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
