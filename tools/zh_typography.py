"""Check and fix the typography of the Chinese edition: punctuation, quotes and spacing.

    python tools/zh_typography.py check PATH...   list every slip (exit 1 if any)
    python tools/zh_typography.py fix PATH...     fix the slips the rules can fix mechanically

A PATH is a notebook (its markdown cells), a Markdown file (``instructor/README.zh.md``),
the catalogue (``mapteach.po``: its msgstrs) or a translation part (``PART.json``: its
msgstrs; ``fix`` rewrites the part, for its owner to merge). The .po is written only by
``tools/i18n.py merge``, which applies these rules (quotes too) to every msgstr: ``fix`` on the
catalogue runs that merge with no part, so that no translation part is ever merged again.

The rules, applied to text outside code, formulas, HTML tags, link targets, addresses and
``{placeholders}``:

1. punctuation: ASCII ``, ; : ? ! ( )`` never touch a CJK character (spaces between
   them skipped); a pair of parentheses one of which touches CJK is full-width as a pair,
   unless it is a call or part of a formula (``min(k, R)``, ``：(a + b) / n``);
   a ``.`` right after a CJK character ends a sentence: ``。``.
2. quotes: no ASCII ``"`` around Chinese text (“…” instead); 「…」 only around a verbatim
   article quote (:func:`is_verbatim`), whose text is left exactly as it is. ``check`` and
   ``fix --quotes`` also find (turn into “…”) every other 「…」, when the articles' text is
   there (``MAPTEACH_SEEDS`` or ``../shared/seeds``).
3. spacing: one half-width space between a CJK character and a Latin letter, a digit, a
   code span, a formula (also one in ASCII parentheses) or a placeholder (either order);
   no space between full-width punctuation and what follows or precedes it; no space
   before ``%``. Every placeholder is spaced as a Latin word: ``mapteach.i18n.tr`` removes
   the spaces beside a value that is Chinese when it fills the placeholder (``{what} 中`` shows
   ``标注中`` and ``qrels 中``).

>>> fix_text("见(图1),然后")
'见（图 1），然后'
>>> fix_text('“精确率” 列是P@k: 它的"分母"是k')
'“精确率”列是 P@k：它的“分母”是 k'
>>> [slip.rule for slip in slips("用 `precision_at_k`计算")]
['spacing']
"""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
#: Full-width punctuation: never a space beside it.
FULL = "，。、；：？！（）“”‘’「」『』《》【】…—"
#: Stand-ins for what the rules leave alone: one that spaces like a Latin word (code,
#: formulas, placeholders) and one that does not (tags, link targets, addresses).
WORDLIKE, NEUTRAL = "\ue000", "\ue001"
LATIN = f"A-Za-z0-9{WORDLIKE}"
PROTECTED: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"```.*?```", re.DOTALL), NEUTRAL),
    (re.compile(r"\$\$.*?\$\$", re.DOTALL), NEUTRAL),
    (re.compile(r"`[^`\n]+`"), WORDLIKE),
    (re.compile(r"\$[^$\n]+\$"), WORDLIKE),
    (re.compile(r"\{[^{}\s]*\}"), WORDLIKE),
    (re.compile(r"(?<=「)[^「」]*(?=」)"), NEUTRAL),
    (re.compile(r"<[^>\n]+>"), NEUTRAL),
    (re.compile(r"\]\([^)\s]+\)"), NEUTRAL),
    (re.compile(r"https?://[^\s)）]+"), NEUTRAL),
    (re.compile(r"[\w.-]+\.(?:ipynb|py|md|json|txt|csv|tsv|po|html)\b"), WORDLIKE),
]
ASCII_TO_FULL = {",": "，", ";": "；", ":": "：", "?": "？", "!": "！"}
CJKISH = f"{HAN}{FULL}"
TOUCHING = re.compile(rf"(?<=[{CJKISH}])[ \t]*[,;:?!][ \t]*|[,;:?!][ \t]*(?=[{CJKISH}])")
SENTENCE_END = re.compile(rf"(?<=[{HAN}])\.(?!\.)(?=\s|$|[{HAN}])")
HAS_HAN = re.compile(f"[{HAN}]")
SPACE_AFTER_FULL = re.compile(rf"(?<=[{FULL}])[ \t]+(?=[{HAN}{LATIN}`*])")
SPACE_BEFORE_FULL = re.compile(rf"(?<=[{HAN}{LATIN}`*])[ \t]+(?=[{FULL}])")
HAN_THEN_LATIN = re.compile(rf"(?<=[{HAN}])(?:[ \t]{{2,}})?(?=[{LATIN}(])")
LATIN_THEN_HAN = re.compile(rf"(?<=[{LATIN}%)])(?:[ \t]{{2,}})?(?=[{HAN}])")
SPACE_BEFORE_PERCENT = re.compile(r"(?<=\d)[ \t]+%")
MARKER = re.compile("\ue002(\\d+)([\ue000\ue001])")


@dataclass(frozen=True)
class Slip:
    """One typography slip: the rule it breaks and the text around it."""

    rule: str
    excerpt: str


def _shield(text: str) -> tuple[str, list[str]]:
    """``text`` with what the rules leave alone replaced by stand-ins, and the originals."""
    kept: list[str] = []
    for pattern, stand_in in PROTECTED:

        def keep(match: re.Match[str], stand_in: str = stand_in) -> str:
            kept.append(MARKER.sub(lambda inner: kept[int(inner.group(1))], match.group(0)))
            return f"\ue002{len(kept) - 1}{stand_in}"

        text = pattern.sub(keep, text)
    order: list[str] = []
    pieces = MARKER.split(text)
    shielded = [pieces[0]]
    for index in range(1, len(pieces), 3):
        order.append(kept[int(pieces[index])])
        shielded += [pieces[index + 1], pieces[index + 2]]
    return "".join(shielded), order


def _unshield(text: str, originals: list[str]) -> str:
    replacements = iter(originals)
    return re.sub(f"[{WORDLIKE}{NEUTRAL}]", lambda _: next(replacements), text)


def _full_width_parentheses(text: str) -> str:
    """Turn each matched ASCII pair ``( )`` of which one side touches CJK full-width."""
    chars, stack = list(text), []
    for index, char in enumerate(chars):
        if char == "(":
            stack.append(index)
        elif char == ")" and stack:
            start = stack.pop()
            if not _in_formula(text, start, index) and (
                _touches_cjk(text, start) or _touches_cjk(text, index)
            ):
                chars[start], chars[index] = "（", "）"
    return "".join(chars)


#: Signs that make a pair of parentheses part of a formula when next to it: ``(a + b) / n``.
OPERATORS = frozenset("/×*+-=^÷·<>≤≥()[]²³√")


def _in_formula(text: str, start: int, end: int) -> bool:
    """Whether the parentheses at ``start`` and ``end`` belong to a call or a formula: the
    opening one right after a Latin letter or digit (``min(k, R)``), or an operator beside
    either (spaces skipped)."""
    before = text[:start].rstrip(" \t")
    after = text[end + 1 :].lstrip(" \t")
    call = start > 0 and text[start - 1].isascii() and text[start - 1].isalnum()
    return call or bool(before and before[-1] in OPERATORS) or bool(after and after[0] in OPERATORS)


def _touches_cjk(text: str, index: int) -> bool:
    before = text[:index].rstrip(" \t")
    after = text[index + 1 :].lstrip(" \t")
    return bool(before and before[-1] in _CJKISH_SET) or bool(after and after[0] in _CJKISH_SET)


_CJKISH_SET = frozenset(
    chr(code)
    for low, high in ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF))
    for code in range(low, high + 1)
) | frozenset(FULL)


def _curly_quotes(text: str) -> str:
    """Turn each pair of ASCII ``"`` (first with second, third with fourth) around text with
    CJK in it into “…”; a line with an odd number of ``"`` is left alone."""
    pieces = text.split('"')
    if len(pieces) % 2 == 0:
        return text
    for index in range(1, len(pieces), 2):
        if HAS_HAN.search(pieces[index]):
            pieces[index] = f"“{pieces[index]}”"
        else:
            pieces[index] = f'"{pieces[index]}"'
    return "".join(pieces)


def _spacing(text: str) -> str:
    text = SPACE_AFTER_FULL.sub("", text)
    text = SPACE_BEFORE_FULL.sub("", text)
    text = HAN_THEN_LATIN.sub(" ", text)
    text = LATIN_THEN_HAN.sub(" ", text)
    return SPACE_BEFORE_PERCENT.sub("%", text)


#: Each rule and the function that fixes it on a shielded line, in the order they apply.
RULES: dict[str, Callable[[str], str]] = {
    "parentheses": _full_width_parentheses,
    "punctuation": lambda text: SENTENCE_END.sub(
        "。", TOUCHING.sub(lambda match: ASCII_TO_FULL[match.group(0).strip()], text)
    ),
    "quotes": _curly_quotes,
    "spacing": _spacing,
}


def _line_fixed(line: str) -> str:
    indent = line[: len(line) - len(line.lstrip(" \t"))]
    body = line[len(indent) :]
    for apply in RULES.values():
        body = apply(body)
    return indent + body


@functools.cache
def articles() -> str:
    """The three source articles' text, run together, normalised (:func:`normalised`); empty
    when no folder of article texts is found (``MAPTEACH_SEEDS``, or ``../shared/seeds``)."""
    folder = Path(os.environ.get("MAPTEACH_SEEDS") or ROOT.parent / "shared" / "seeds")
    texts = sorted(folder.glob("*.txt")) if folder.is_dir() else []
    return "\n".join(normalised(path.read_text(encoding="utf-8")) for path in texts)


def normalised(text: str) -> str:
    """``text`` without punctuation, symbols, spaces and ``@``: how a quote is compared with its
    source, whose punctuation the workbook may restore (``AP10`` shown as ``AP@10``)."""
    return "".join(
        char for char in text if unicodedata.category(char)[0] not in "PZSC" and char != "@"
    )


def is_verbatim(quote: str, source: str) -> bool:
    """Whether every piece of ``quote`` (split at an ellipsis) is in the normalised ``source``;
    a template's ``{quote}`` placeholder is taken for the article's sentence it stands for.

    >>> article = normalised("此时AP的分母很小一个小波动就会让分数剧烈变化实验之间的方差很大")
    >>> is_verbatim("此时 AP 的分母很小，一个小波动……方差很大。", article)
    True
    >>> is_verbatim("此时 AP 的分母很大", article)
    False
    """
    if re.fullmatch(r"\{quote\w*\}", quote):  # a template's place for an article's sentence
        return True
    pieces = [normalised(piece) for piece in re.split(r"…+|\.{3}", quote)]
    return all(piece in source for piece in pieces if piece)


def _curly_unless_verbatim(text: str, source: str) -> str:
    """Each 「…」 that is not a verbatim article quote as “…” (with ‘…’ for a quote inside)."""

    def curly(match: re.Match[str]) -> str:
        inner = match.group(1)
        if source and is_verbatim(inner, source):
            return match.group(0)
        return "“" + inner.replace("“", "‘").replace("”", "’") + "”"

    return re.sub(r"「([^「」]*)」", curly, text)


def fix_text(text: str, quotes: bool = False) -> str:
    """``text`` with the punctuation and spacing rules applied.

    Parameters
    ----------
    text : str
        Chinese text: a markdown cell, a msgstr, a Markdown file.
    quotes : bool, optional
        Also turn each 「…」 that is not a verbatim quote of an article (:func:`is_verbatim`)
        into “…”; without the articles' text (:func:`articles`), every 「…」.

    Returns
    -------
    str
        The fixed text; code, formulas, tags, link targets, addresses, file names and
        placeholders are left as they were.

    Examples
    --------
    >>> fix_text("共{n}个查询;其中`A`最好")
    '共 {n} 个查询；其中 `A` 最好'
    >>> fix_text("精确率(precision)为 50 %。")
    '精确率（precision）为 50%。'
    >>> fix_text("分母是min(N, R)，即：(a + b) / n")
    '分母是 min(N, R)，即：(a + b) / n'
    """
    if not isinstance(text, str):
        raise TypeError(f"fix_text: text must be a str, got {type(text).__name__}")
    if quotes:
        text = _curly_unless_verbatim(text, articles())
    shielded, originals = _shield(text)
    fixed = "\n".join(_line_fixed(line) for line in shielded.split("\n"))
    return _unshield(fixed, originals)


def slips(text: str) -> list[Slip]:
    """Every typography slip in ``text``, one per rule broken and line.

    Parameters
    ----------
    text : str
        Chinese text: a markdown cell, a msgstr, a Markdown file.

    Returns
    -------
    list of Slip
        Each with the rule (``punctuation``, ``parentheses``, ``quotes``, ``spacing``;
        ``quote style`` for a 「…」 that is no article's text, when the articles are there)
        and the line around it (the quote, for ``quote style``).

    Examples
    --------
    >>> [(slip.rule, slip.excerpt) for slip in slips("见(图 1),然后")]
    [('parentheses', '见(图 1),然后'), ('punctuation', '见(图 1),然后')]
    >>> slips("见（图 1），然后 `x` 与 P@k 的值为 50%。")
    []
    """
    if not isinstance(text, str):
        raise TypeError(f"slips: text must be a str, got {type(text).__name__}")
    shielded, originals = _shield(text)
    found = []
    start = 0
    for line in shielded.split("\n"):
        stand_ins = len(re.findall(f"[{WORDLIKE}{NEUTRAL}]", line))
        body = line.lstrip(" \t")
        excerpt = _unshield(line, originals[start : start + stand_ins]).strip()[:160]
        for rule, apply in RULES.items():  # each on the line the rules before it fixed
            fixed = apply(body)
            if fixed != body:
                found.append(Slip(rule, excerpt))
            body = fixed
        start += stand_ins
    source = articles()
    if source:
        found += [
            Slip("quote style", match.group(0)[:160])
            for match in re.finditer(r"「([^「」]*)」", text)
            if not is_verbatim(match.group(1), source)
        ]
    return found


def _notebook_texts(path: Path) -> Iterator[tuple[str, str]]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    for index, cell in enumerate(cells):
        if cell["cell_type"] == "markdown":
            yield f"cell {index}", "".join(cell["source"])


def _catalogue() -> dict[str, tuple[object, str]]:
    """The catalogue's msgstrs by msgid (a plural's by its singular), with the msgid."""
    from babel.messages.pofile import read_po

    with (ROOT / "mapteach/i18n/locale/zh/LC_MESSAGES/mapteach.po").open("rb") as handle:
        catalog = read_po(handle)
    entries: dict[str, tuple[object, str]] = {}
    for message in catalog:
        if not message.id:
            continue
        msgstr = message.string[0] if isinstance(message.string, tuple) else message.string
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        entries[str(key)] = (message.id, str(msgstr or ""))
    return entries


def texts(path: Path) -> Iterator[tuple[str, str]]:
    """The Chinese texts of ``path``, each with where it is (a cell, a msgid, a line)."""
    if path.suffix == ".ipynb":
        yield from _notebook_texts(path)
    elif path.suffix == ".po":
        for key, (_msgid, msgstr) in _catalogue().items():
            yield f"msgid {key[:60]!r}", msgstr
    elif path.suffix == ".md":
        yield "file", path.read_text(encoding="utf-8")
    elif path.suffix == ".json":
        for key, value in json.loads(path.read_text(encoding="utf-8")).items():
            yield f"msgid {key[:60]!r}", value["zh"] if isinstance(value, dict) else value
    else:
        raise ValueError(f"{path}: not a notebook, a Markdown file, the catalogue or a part")


def _fix_notebook(path: Path, quotes: bool) -> int:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    changed = 0
    for cell in notebook["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        source = "".join(cell["source"])
        fixed = fix_text(source, quotes)
        if fixed != source:
            changed += 1
            cell["source"] = fixed.splitlines(keepends=True)
    if changed:
        path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return changed


def _fix_catalogue() -> int:
    """Typeset every msgstr of the .po through ``tools/i18n.py merge`` (no part); return how
    many changed. The merge prints what it reports about the catalogue."""
    before = _catalogue()
    merged = subprocess.run(
        [sys.executable, str(ROOT / "tools/i18n.py"), "merge"], cwd=ROOT, text=True, check=False
    )
    if merged.returncode:
        raise RuntimeError(f"tools/i18n.py merge failed (exit {merged.returncode})")
    return sum(before.get(key) != entry for key, entry in _catalogue().items())


def _fix_part(path: Path, quotes: bool) -> int:
    """Fix the msgstrs of a translation part in place (the part's owner runs this)."""
    part = json.loads(path.read_text(encoding="utf-8"))
    changed = 0
    for key, value in part.items():
        msgstr = value["zh"] if isinstance(value, dict) else value
        fixed = fix_text(msgstr, quotes)
        if fixed != msgstr:
            changed += 1
            part[key] = {**value, "zh": fixed} if isinstance(value, dict) else fixed
    if changed:
        path.write_text(json.dumps(part, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return changed


def fix(path: Path, quotes: bool = False) -> int:
    """Fix the typography of ``path`` in place; return how many texts changed."""
    if path.suffix == ".ipynb":
        return _fix_notebook(path, quotes)
    if path.suffix == ".po":
        return _fix_catalogue()
    if path.suffix == ".json":
        return _fix_part(path, quotes)
    if path.suffix == ".md":
        source = path.read_text(encoding="utf-8")
        fixed = fix_text(source, quotes)
        path.write_text(fixed, encoding="utf-8")
        return int(fixed != source)
    raise ValueError(f"{path}: not a notebook, a Markdown file, the catalogue or a part")


def main(argv: list[str]) -> int:
    quotes = "--quotes" in argv
    command, *names = [arg for arg in argv if arg != "--quotes"] or ["help"]
    if command not in {"check", "fix"} or not names:
        print(__doc__, file=sys.stderr)
        return 2
    total = 0
    for name in names:
        path = Path(name)
        if command == "fix":
            changed = fix(path, quotes)
            print(f"{path}: {changed} texts fixed")
            continue
        for where, text in texts(path):
            for slip in slips(text):
                total += 1
                print(f"{path}: {where}: {slip.rule}: {slip.excerpt}")
    if command == "check":
        print(f"{total} slips", file=sys.stderr)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
