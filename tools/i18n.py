"""Keep mapteach's message catalogue: extract, merge translations, compile, check.

    python tools/i18n.py extract            list every message the workbook shows (msgid, where)
    python tools/i18n.py merge PART.json... add translations ({msgid: msgstr}) to the .po, drop
                                            unused entries, compile the .mo, report what is missing
    python tools/i18n.py part PART.json WHERE...
                                            list the messages shown from files whose path contains
                                            a WHERE that PART.json lacks or mistranslates
    python tools/i18n.py compile            write the .mo from the .po
    python tools/i18n.py check              exit 1 on a missing, unused, empty or mismatched entry

Messages come from every ``tr(...)``/``N_(...)`` call in the package and in the English
notebooks' code cells (Babel's Python extractor), and from the values of the JSON data
files (``mapteach/*/data/*.json``) under the keys that ``mapteach.judging.guideline`` and
``mapteach.articles.loader`` name in their ``TRANSLATED_KEYS``.
"""

from __future__ import annotations

import io
import json
import string
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "mapteach"
NOTEBOOKS = ROOT / "notebooks"
PO = PACKAGE / "i18n" / "locale" / "zh" / "LC_MESSAGES" / "mapteach.po"
MO = PO.with_suffix(".mo")
KEYWORDS = {"tr": None, "N_": None}


def _from_python(source: bytes, where: str) -> Iterator[tuple[str, str]]:
    for line, message, _comments, _context in extract(
        "python", io.BytesIO(source), keywords=KEYWORDS
    ):
        if isinstance(message, str) and message:
            yield message, f"{where}:{line}"


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


def messages() -> dict[str, list[str]]:
    """Every message the workbook shows, with the places that show it."""
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
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


def problems(catalog: Catalog, found: dict[str, list[str]]) -> list[str]:
    """Every way the catalogue disagrees with the messages the workbook shows."""
    wrong = []
    entries = {message.id: message for message in catalog if message.id}
    for msgid, places in found.items():
        entry = entries.get(msgid)
        if entry is None or not entry.string:
            wrong.append(f"missing: {msgid!r} ({places[0]})")
        elif entry.fuzzy:
            wrong.append(f"fuzzy: {msgid!r}")
        elif placeholders(msgid) != placeholders(str(entry.string)):
            wrong.append(f"placeholders differ: {msgid!r} -> {entry.string!r}")
    wrong += [f"unused: {msgid!r}" for msgid in entries if msgid not in found]
    return wrong


def write(catalog: Catalog) -> None:
    with PO.open("wb") as handle:
        write_po(handle, catalog, width=0, sort_output=False, omit_header=False)
    with MO.open("wb") as handle:
        write_mo(handle, catalog)


def merge(parts: list[Path]) -> Catalog:
    found = messages()
    old = load() if PO.exists() else Catalog(locale="zh_Hans_CN", domain="mapteach")
    known = {message.id: str(message.string) for message in old if message.id and message.string}
    for part in parts:
        for msgid, msgstr in json.loads(part.read_text(encoding="utf-8")).items():
            if msgid in known and known[msgid] != msgstr and msgstr:
                print(f"{part.name}: replaces {known[msgid]!r} with {msgstr!r}", file=sys.stderr)
            if msgstr:
                known[msgid] = msgstr
    catalog = Catalog(locale="zh_Hans_CN", domain="mapteach", project="mapteach", charset="utf-8")
    for msgid, places in found.items():
        catalog.add(msgid, known.get(msgid, ""), locations=[(place, None) for place in places[:3]])
    return catalog


def main(argv: list[str]) -> int:
    command, *rest = argv or ["check"]
    if command == "extract":
        for msgid, places in messages().items():
            print(json.dumps(msgid, ensure_ascii=False), " ".join(places))
        return 0
    if command == "merge":
        catalog = merge([Path(name) for name in rest])
        write(catalog)
        wrong = problems(catalog, messages())
        print("\n".join(wrong) or "catalogue complete", file=sys.stderr)
        print(f"{len(catalog)} messages", file=sys.stderr)
        return 0
    if command == "part":
        part_path, *where = rest
        part = json.loads(Path(part_path).read_text(encoding="utf-8"))
        for msgid, places in messages().items():
            if any(fragment in place for place in places for fragment in where):
                if not part.get(msgid):
                    print(f"missing: {msgid!r} ({places[0]})")
                elif placeholders(msgid) != placeholders(part[msgid]):
                    print(f"placeholders differ: {msgid!r} -> {part[msgid]!r}")
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
