"""Keep mapteach's message catalogue: extract, merge translations, compile, check.

    python tools/i18n.py extract            list every message the workbook shows (msgid, where)
    python tools/i18n.py merge PART.json... apply translation parts ({msgid: msgstr}, and for a
                                            plural {singular: {"plural": plural, "zh": msgstr}})
                                            over the .po, in the order given (a later part wins),
                                            apply the Chinese typography (tools/zh_typography.py's
                                            fix, quotes too) to every msgstr, drop unused entries,
                                            compile the .mo, report what is missing; refuse
                                            (exit 1, writing nothing) a part whose msgstr uses a
                                            name the glossary rules out
    python tools/i18n.py part PART.json WHERE...
                                            list the messages shown from files whose path contains
                                            a WHERE that PART.json lacks or mistranslates
    python tools/i18n.py compile            write the .mo from the .po
    python tools/i18n.py check              exit 1 on a missing, unused, empty or mismatched entry

The .po is the source of truth, and ``merge`` is the one way to change it. A part is a
patch: it is applied over the .po once, by its author, and never merged again (an old
part merged again would undo every later rewording of its messages). ``merge`` with no
part re-applies the typography only. A msgstr that uses a Chinese name the glossary
rules out (``mapteach.explain.glossary_terms.ruled_out_variants``: a term's ``zh_avoid``,
outside a verbatim 「…」 quote) is not reworded silently: the merge stops and names the
part, the msgid, the name and the glossary's preferred term, for the part's author to fix.

Messages come from every ``tr(...)``/``N_(...)`` call in the package, in ``tools/`` (the
site's navigation) and in the English notebooks' code cells (Babel's Python extractor),
and from the values of the JSON data files (``mapteach/*/data/*.json``) under the keys
that ``mapteach.judging.guideline`` and ``mapteach.articles.loader`` name in their
``TRANSLATED_KEYS``. An ``ngettext(singular,
plural, n)`` call (or a ``plural_message(singular, plural)``, stored for later) is a plural
message: its id is the pair ``(singular, plural)``, and Chinese, with one plural form,
translates it once, keeping the plural's placeholders.
"""

from __future__ import annotations

import copy
import importlib.util
import io
import json
import string
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from babel.messages.catalog import Catalog
from babel.messages.extract import extract
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "mapteach"
NOTEBOOKS = ROOT / "notebooks"
PO = PACKAGE / "i18n" / "locale" / "zh" / "LC_MESSAGES" / "mapteach.po"
MO = PO.with_suffix(".mo")
KEYWORDS = {"tr": None, "N_": None, "ngettext": (1, 2), "plural_message": (1, 2)}

#: A message's id: its English text, or for a plural message (singular, plural).
MessageId = str | tuple[str, str]


def _from_python(source: bytes, where: str) -> Iterator[tuple[MessageId, str]]:
    for line, message, _comments, _context in extract(
        "python", io.BytesIO(source), keywords=KEYWORDS
    ):
        if isinstance(message, str) and message:
            yield message, f"{where}:{line}"
        elif isinstance(message, tuple) and len(message) == 2 and all(message):
            yield (str(message[0]), str(message[1])), f"{where}:{line}"


def _json_strings(value: object, keys: frozenset[str], under: str | None = None) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _json_strings(inner, keys, key)
    elif isinstance(value, list):
        for inner in value:
            yield from _json_strings(inner, keys, under)
    elif isinstance(value, str) and under in keys and value:
        yield value


def _translated_keys() -> frozenset[str]:
    """The keys whose values are messages, in any package's data files: the union of the
    ``TRANSLATED_KEYS`` of the packages that ship data (the judging guideline's, the
    articles' loader's)."""
    sys.path.insert(0, str(ROOT))
    from mapteach.articles.loader import TRANSLATED_KEYS as ARTICLE_KEYS
    from mapteach.judging.guideline import TRANSLATED_KEYS as JUDGING_KEYS

    return frozenset(ARTICLE_KEYS | JUDGING_KEYS)


def messages() -> dict[MessageId, list[str]]:
    """Every message the workbook shows, with the places that show it."""
    found: dict[MessageId, list[str]] = {}
    for path in [*sorted(PACKAGE.rglob("*.py")), *sorted((ROOT / "tools").glob("*.py"))]:
        for message, where in _from_python(path.read_bytes(), str(path.relative_to(ROOT))):
            found.setdefault(message, []).append(where)
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for index, cell in enumerate(cells):
            if cell["cell_type"] == "code":
                source = "".join(cell["source"]).encode("utf-8")
                where = f"{path.relative_to(ROOT)}#cell{index}"
                for message, place in _from_python(source, where):
                    found.setdefault(message, []).append(place)
    keys = _translated_keys()
    for path in sorted(PACKAGE.rglob("data/*.json")):
        for message in _json_strings(json.loads(path.read_text(encoding="utf-8")), keys):
            found.setdefault(message, []).append(str(path.relative_to(ROOT)))
    return found


def placeholders(text: str) -> Counter[str]:
    """The ``{field:spec}`` placeholders of a message, counted."""
    return Counter(
        f"{name}:{spec}!{conversion}"
        for _literal, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    )


def load() -> Catalog:
    with PO.open("rb") as handle:
        return read_po(handle)


def _plural_problems(msgid: tuple[str, str], forms: object) -> list[str]:
    """What is wrong with a plural entry: an empty form, or placeholders that differ.

    Every form of the translation keeps the English plural's placeholders; the English
    singular uses no placeholder the plural lacks (it may leave out the count, ``{n}``).
    """
    singular, plural = msgid
    strings = forms if isinstance(forms, tuple) else (forms,)
    if not all(strings):
        return [f"missing: {msgid!r}"]
    wrong = [
        f"placeholders differ: {msgid!r} -> {form!r}"
        for form in strings
        if placeholders(str(form)) != placeholders(plural)
    ]
    extra = placeholders(singular) - placeholders(plural)
    if extra:
        wrong.append(f"singular has placeholders the plural lacks: {msgid!r}: {sorted(extra)}")
    return wrong


def problems(catalog: Catalog, found: dict[MessageId, list[str]]) -> list[str]:
    """Every way the catalogue disagrees with the messages the workbook shows."""
    wrong = []
    entries = {message.id: message for message in catalog if message.id}
    for msgid, places in found.items():
        entry = entries.get(msgid)
        if entry is None or not _first(entry.string):
            wrong.append(f"missing: {msgid!r} ({places[0]})")
        elif entry.fuzzy:
            wrong.append(f"fuzzy: {msgid!r}")
        elif isinstance(msgid, tuple):
            wrong += _plural_problems(msgid, entry.string)
        elif placeholders(msgid) != placeholders(str(entry.string)):
            wrong.append(f"placeholders differ: {msgid!r} -> {entry.string!r}")
    wrong += [f"unused: {msgid!r}" for msgid in entries if msgid not in found]
    wrong += [
        f"both a message and a plural's singular: {msgid[0]!r}"
        for msgid in found
        if isinstance(msgid, tuple) and msgid[0] in found
    ]
    return wrong


def write(catalog: Catalog) -> None:
    with PO.open("wb") as handle:
        write_po(handle, catalog, width=0, sort_output=False, omit_header=False)
    # Babel compiles an untranslated plural to its English singular for every count;
    # left out, gettext falls back to English, singular or plural as the count asks
    compiled = copy.deepcopy(catalog)
    for message in list(compiled):
        if isinstance(message.id, tuple) and not _first(message.string):
            del compiled[message.id]
    with MO.open("wb") as handle:
        write_mo(handle, compiled)


def _part_entries(part: Path) -> Iterator[tuple[str, str | None, str]]:
    """The (msgid, plural or None, msgstr) of a translation part's entries."""
    for msgid, value in json.loads(part.read_text(encoding="utf-8")).items():
        if isinstance(value, dict):
            yield msgid, value.get("plural"), value.get("zh", "")
        else:
            yield msgid, None, value


def ruled_out(text: str) -> list[tuple[str, str]]:
    """The Chinese names the glossary rules out that ``text`` uses, each with the preferred one.

    :func:`mapteach.explain.glossary_terms.ruled_out_variants`, imported from this checkout
    (text inside a verbatim 「…」 quote is not searched).
    """
    sys.path.insert(0, str(ROOT))
    from mapteach.explain.glossary_terms import ruled_out_variants

    return ruled_out_variants(text)


def refusals(parts: list[Path]) -> list[str]:
    """Why ``merge`` refuses these parts: each msgstr naming a term as the glossary rules out.

    One line per part, msgid and ruled-out name, with the glossary's preferred term. Each
    msgstr is read as written and as the merge will write it (:func:`typeset`: a 「…」 that
    quotes no article becomes “…”, and is searched; ``Fleiss’ kappa`` loses its space).
    """
    return [
        f"{part}: msgid {english!r}: {name!r} is ruled out by the glossary; write {preferred!r}"
        for part in parts
        for english, _plural, msgstr in _part_entries(part)
        for name, preferred in dict.fromkeys(ruled_out(msgstr) + ruled_out(typeset(msgstr)))
    ]


def _typography() -> ModuleType:
    """``tools/zh_typography.py``, imported once."""
    name = "zh_typography"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
        assert spec and spec.loader
        sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[name])
    return sys.modules[name]


def typeset(msgstr: str) -> str:
    """``msgstr`` with the Chinese typography applied (``zh_typography.fix_text``).

    With the quote rule too (「…」 only around a verbatim article quote) when the articles'
    text is there (``MAPTEACH_SEEDS`` or ``../shared/seeds``); without it, 「…」 stay.

    >>> typeset("共{n}个查询;其中`A`最好")
    '共 {n} 个查询；其中 `A` 最好'
    """
    typography = _typography()
    return str(typography.fix_text(msgstr, quotes=bool(typography.articles())))


def merge(parts: list[Path]) -> Catalog:
    """The .po with ``parts`` applied over it in order (a later part wins), typeset.

    Every message the workbook shows gets an entry, translated or empty; a message it no
    longer shows is dropped. Does not check the parts' terms (:func:`refusals`).
    """
    found = messages()
    plurals = {msgid[0]: msgid[1] for msgid in found if isinstance(msgid, tuple)}
    old = load() if PO.exists() else Catalog(locale="zh_Hans_CN", domain="mapteach")
    known = {
        _singular(message.id): _first(message.string)
        for message in old
        if message.id and _first(message.string)
    }
    for part in parts:
        for english, plural, msgstr in _part_entries(part):
            if plural is not None and english in plurals and plurals[english] != plural:
                print(f"{part.name}: {english!r}'s plural is {plurals[english]!r}", file=sys.stderr)
            if english in known and known[english] != msgstr and msgstr:
                print(f"{part.name}: replaces {known[english]!r} with {msgstr!r}", file=sys.stderr)
            if msgstr:
                known[english] = msgstr
    catalog = Catalog(locale="zh_Hans_CN", domain="mapteach", project="mapteach", charset="utf-8")
    for msgid, places in found.items():
        translated = typeset(known.get(_singular(msgid), ""))
        string = (translated,) if isinstance(msgid, tuple) else translated
        catalog.add(msgid, string, locations=[(place, 0) for place in places[:3]])
    return catalog


def _singular(msgid: object) -> str:
    return str(msgid[0] if isinstance(msgid, tuple | list) else msgid)


def _first(msgstr: object) -> str:
    return str(msgstr[0] if isinstance(msgstr, tuple) else msgstr or "")


def _part_problems(
    part: dict[str, object], found: dict[MessageId, list[str]], where: list[str]
) -> Iterator[str]:
    """What a translation part lacks or mistranslates among the messages shown from ``where``."""
    for msgid, places in found.items():
        if not any(fragment in place for place in places for fragment in where):
            continue
        value = part.get(_singular(msgid))
        msgstr = value.get("zh", "") if isinstance(value, dict) else value
        if not msgstr:
            yield f"missing: {msgid!r} ({places[0]})"
        elif isinstance(msgid, tuple):
            yield from _plural_problems(msgid, str(msgstr))
        elif placeholders(msgid) != placeholders(str(msgstr)):
            yield f"placeholders differ: {msgid!r} -> {msgstr!r}"


def main(argv: list[str]) -> int:
    command, *rest = argv or ["check"]
    if command in {"-h", "--help", "help"}:
        print(__doc__)
        return 0
    if command == "extract":
        for msgid, places in messages().items():
            print(json.dumps(msgid, ensure_ascii=False), " ".join(places))
        return 0
    if command == "merge":
        parts = [Path(name) for name in rest]
        refused = refusals(parts)
        if refused:
            print("\n".join([*refused, "nothing merged"]), file=sys.stderr)
            return 1
        catalog = merge(parts)
        write(catalog)
        wrong = problems(catalog, messages())
        print("\n".join(wrong) or "catalogue complete", file=sys.stderr)
        print(f"{len(catalog)} messages", file=sys.stderr)
        return 0
    if command == "part":
        part_path, *where = rest
        part = json.loads(Path(part_path).read_text(encoding="utf-8"))
        for line in _part_problems(part, messages(), where):
            print(line)
        return 0
    if command == "compile":
        write(load())
        return 0
    if command == "check":
        wrong = problems(load(), messages())
        print("\n".join(wrong) or "catalogue complete")
        return 1 if wrong else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
