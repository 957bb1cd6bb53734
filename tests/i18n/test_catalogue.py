"""The message catalogue: complete, nothing unused, placeholders kept, terms from the glossary.

The messages are what ``tools/i18n.py`` extracts: every ``tr``/``N_`` call in the
package and in the English notebooks' code cells, and the data files' texts.
"""

from __future__ import annotations

import gettext
import importlib.util
import json
import re
from pathlib import Path

import pytest

from mapteach.explain.glossary import GLOSSARY
from mapteach.explain.glossary_terms import ruled_out_variants
from mapteach.i18n import LOCALE_DIR, language, ngettext, tr

ROOT = Path(__file__).parents[2]
_spec = importlib.util.spec_from_file_location("i18n_tool", ROOT / "tools" / "i18n.py")
assert _spec and _spec.loader
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)

MESSAGES = tool.messages()
CATALOG = tool.load()
#: Each message's English text and its Chinese; a plural's English is its two forms.
ENTRIES = {
    (" / ".join(message.id) if isinstance(message.id, tuple) else message.id): (
        str(message.string[0]) if isinstance(message.string, tuple) else str(message.string)
    )
    for message in CATALOG
    if message.id
}
PLURALS = {message.id: message.string for message in CATALOG if isinstance(message.id, tuple)}


def test_the_catalogue_is_complete_and_has_nothing_unused():
    assert len(MESSAGES) > 500
    assert tool.problems(CATALOG, MESSAGES) == []


def test_the_check_finds_a_missing_an_unused_and_a_mismatched_message():
    found = dict(MESSAGES)
    found["a message nobody translated {n}"] = ["here"]
    del found[next(iter(found))]
    wrong = tool.problems(CATALOG, found)
    assert any(line.startswith("missing: 'a message nobody") for line in wrong)
    assert any(line.startswith("unused: ") for line in wrong)
    assert tool.placeholders("{a:.4f} and {b}") != tool.placeholders("{a} and {b}")


def test_the_compiled_catalogue_is_the_po_file():
    with open(LOCALE_DIR / "zh" / "LC_MESSAGES" / "mapteach.mo", "rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for message in CATALOG:
        if not message.id:
            continue
        stale = f"run `python tools/i18n.py compile`: {message.id!r}"
        if isinstance(message.id, tuple):
            for count in (1, 2):
                english = message.id[0] if count == 1 else message.id[1]
                wanted = message.string[0] or english
                assert compiled.ngettext(*message.id, count) == wanted, stale
        else:
            assert compiled.gettext(message.id) == (message.string or message.id), stale


def test_plural_messages_are_extracted_and_translated_once():
    assert PLURALS, "no ngettext message in the catalogue"
    assert all(len(forms) == 1 for forms in PLURALS.values())  # Chinese has one form
    singular, plural = next(
        msgid
        for msgid, forms in PLURALS.items()
        if forms[0] and set(tool.placeholders(msgid[1])) == {"n:!None"}
    )
    for count in (1, 7):
        with language("zh"):
            chinese = ngettext(singular, plural, count)
        assert chinese == PLURALS[(singular, plural)][0].format(n=count)
        assert ngettext(singular, plural, count) == (singular if count == 1 else plural).format(
            n=count
        )


def test_chinese_comes_from_the_catalogue():
    some = next(msgid for msgid in ENTRIES if "{" not in msgid)
    with language("zh"):
        assert tr(some) == ENTRIES[some]
    assert tr(some) == some


PLACEHOLDER = re.compile(r"\{[^{}]*\}")

#: (start of an English message, term) -> why the term's Chinese name may be absent.
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("Fix article 003's function", "ties"): "'ties' is the name of a query of the shared input",
    ("An in-force, authoritative source", "relevance judgment"): "a court's judgment (判决)",
    ("An in-force statute, judicial", "relevance judgment"): "a court's judgment (判决)",
    ("Judgment: the employer", "relevance judgment"): "a court's judgment (裁判文书)",
    ("R-PART: a judgment on unpaid", "relevance judgment"): "a court's judgment (判决)",
    ("Non-compete agreement template", "inter-annotator agreement"): "a contract (协议)",
}


def _named(english: str) -> list[str]:
    """The glossary terms an English text names, longer names first (MAP before AP)."""
    text, named = PLACEHOLDER.sub(" ", english), []
    for key, term in GLOSSARY.items():  # ordered longest phrase first
        if term.named_in(text):
            named.append(key)
            text = re.sub(term.english_pattern, " ", text, flags=re.IGNORECASE)
    return [
        key
        for key in named
        if not any(english.startswith(start) and key == term for start, term in EXCEPTIONS)
    ]


def test_every_translation_names_a_glossary_term_by_its_chinese_name():
    wrong = [
        f"{msgid!r} names {key!r}: {msgstr!r} uses none of {GLOSSARY[key].zh_names}"
        for msgid, msgstr in ENTRIES.items()
        if msgstr
        for key in _named(msgid)
        if not any(name in msgstr for name in GLOSSARY[key].zh_names)
    ]
    assert not wrong, "\n".join(wrong[:20]) + f"\n({len(wrong)} in all)"


def test_no_translation_uses_a_name_the_glossary_rules_out():
    wrong = {
        msgid: found for msgid, msgstr in ENTRIES.items() if (found := ruled_out_variants(msgstr))
    }
    assert not wrong, wrong


CHINESE = sorted((ROOT / "notebooks" / "zh").glob("*.ipynb"))


@pytest.mark.parametrize("path", CHINESE, ids=lambda p: p.stem)
def test_chinese_notebooks_use_the_glossary_names(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    wrong = [
        (index, found)
        for index, cell in enumerate(cells)
        if cell["cell_type"] == "markdown"
        and (found := ruled_out_variants("".join(cell["source"])))
    ]
    assert not wrong, f"{path.name}: names the glossary rules out: {wrong}"


#: The Chinese guides, each with the heading of the section that is Chinese (None: all of it).
GUIDES = {"instructor/README.zh.md": None, "README.md": "## 中文版"}


def _guide_text(path: str, heading: str | None) -> str:
    """A guide's Chinese text: the whole file, or its section from ``heading`` to the next."""
    text = (ROOT / path).read_text(encoding="utf-8")
    if heading is None:
        return text
    start = text.index(heading + "\n")
    end = text.find("\n## ", start + len(heading))
    return text[start : end if end != -1 else len(text)]


@pytest.mark.parametrize(("path", "heading"), GUIDES.items(), ids=list(GUIDES))
def test_chinese_guides_use_the_glossary_names(path, heading):
    wrong = [
        (paragraph[:60], found)
        for paragraph in _guide_text(path, heading).split("\n\n")
        if (found := ruled_out_variants(paragraph))
    ]
    assert not wrong, f"{path}: names the glossary rules out: {wrong}"


def test_the_guide_section_is_the_chinese_one_only():
    section = _guide_text("README.md", "## 中文版")
    assert section.startswith("## 中文版\n") and "notebooks/zh/" in section
    assert "\n## " not in section[1:]


def test_the_term_checks_can_fail():
    assert _named("mean average precision and recall") == ["MAP", "recall"]


def test_every_exception_is_still_needed():
    for start, key in EXCEPTIONS:
        hits = [msgid for msgid in ENTRIES if msgid.startswith(start)]
        assert hits, f"unused exception: {start!r}"
        assert all(GLOSSARY[key].named_in(PLACEHOLDER.sub(" ", msgid)) for msgid in hits)
