"""Filling a Chinese message's ``{placeholders}`` with the edition's one spacing rule.

A Chinese sentence puts one half-width space between a Chinese character and a Latin
letter or a digit, and none beside full-width punctuation or between two Chinese
characters. A placeholder does not know what it will hold: ``没有这个{what}文件`` may
become ``没有这个 qrels 文件`` or ``没有这个标注文件``. :func:`spaced_format` formats the
message as :meth:`str.format` does, then applies the rule at each value's two edges
(what the message's own text holds elsewhere is left as its translator wrote it), in a
message that holds a Chinese character or full-width punctuation:

- a Latin letter or digit beside a Chinese character, one of them the value's, gets one
  space where it had none (a value's sign before a digit, ASCII bracket, ASCII quote or
  closing ``%`` counts as a letter; the message's own do not);
- a space between two Chinese characters, or beside full-width punctuation, is removed;
- a value that is a negative number (``-0.0178``, ``-3``, ``-12.5%``) gets the minus sign
  "−" (U+2212) that Chinese text writes, in place of the ASCII hyphen-minus; a value
  shown as code (``{value!r}``) keeps it.

The browser fills the same messages with ``fill`` of ``mapteach/offline/static/text.js``,
which applies the same rule.

A value's edge is its first (last) character outside HTML tags, so ``<code>d3</code>``
spaces like ``d3``. Floor 0: the standard library only.

>>> spaced_format("没有这个{what}文件。", what="qrels")
'没有这个 qrels 文件。'
>>> spaced_format("没有这个 {what} 文件。", what="标注")
'没有这个标注文件。'
>>> spaced_format("请用 {answer} 作答。", answer="4 位小数（如 0.5000）")
'请用 4 位小数（如 0.5000）作答。'
>>> spaced_format("变化为{change:+.4f}。", change=-0.0178)
'变化为 −0.0178。'
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
#: Full-width punctuation: never a space beside it.
FULL_WIDTH = "，。、；：？！（）“”‘’「」『』《》【】…—"
_HAN = re.compile(f"[{HAN}]")
_FULL_WIDTH = re.compile(f"[{FULL_WIDTH}]")
_CHINESE = re.compile(f"[{HAN}{FULL_WIDTH}]")
#: How a value may open and close and still space like a Latin word.
_OPENS_LATIN = re.compile(r"""[A-Za-z0-9(\['"]|[−+-][0-9]""")
_CLOSES_LATIN = re.compile(r"""[A-Za-z0-9)\]%'"]$""")
_LETTER = re.compile("[A-Za-z0-9]")
_LEADING_TAGS = re.compile(r"^(?:<[^<>]*>)+")
_TRAILING_TAGS = re.compile(r"(?:<[^<>]*>)+$")
_FORMATTER = string.Formatter()
#: A number as Python writes it, with a hyphen-minus for its sign: ``-3``, ``-0.0178``,
#: ``-1,234``, ``-12.5%``, ``-1e-05``.
_NEGATIVE_NUMBER = re.compile(r"-(?:[0-9][0-9,_]*(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?%?")
#: The minus sign of Chinese text.
MINUS = "\u2212"


def _chinese_minus(shown: str) -> str:
    """``shown`` with the minus sign "−" for its hyphen-minus if it is a negative number,
    else as it is (the browser's ``chineseMinus`` in ``text.js`` does the same).

    >>> _chinese_minus("-0.0178"), _chinese_minus("+0.5"), _chinese_minus("-x")
    ('−0.0178', '+0.5', '-x')
    """
    return MINUS + shown[1:] if _NEGATIVE_NUMBER.fullmatch(shown) else shown


def _wants_space(before: str, after: str, *, value_before: bool) -> bool | None:
    """Whether the rule wants a space between text ending in ``before`` and text
    starting with ``after`` (one of them a value, ``before`` if ``value_before``): True,
    False, or None (it leaves that to the writer). A value's ASCII bracket, quote, sign
    or ``%`` spaces like a letter; the message's own do not."""
    last, first = before[-1], after[0]
    if _FULL_WIDTH.match(last) or _FULL_WIDTH.match(first):
        return False
    if _HAN.match(last) and _HAN.match(first):
        return False
    if _HAN.match(last) and (_OPENS_LATIN if not value_before else _LETTER).match(after):
        return True
    if _HAN.match(first) and (_CLOSES_LATIN if value_before else _LETTER).match(last):
        return True
    return None


def _between(left: str, left_value: bool, right: str, right_value: bool) -> str | None:
    """The spaces the rule puts between two adjacent pieces of a filled message (a literal
    or a value each), or None where it leaves them as written: between two literals, and
    beside a value that holds spaces itself (a format's padding). A literal's spaces at
    that edge are replaced by what is returned."""
    if not (left_value or right_value):
        return None
    if (left_value and left.endswith(" ")) or (right_value and right.startswith(" ")):
        return None
    core_left = left if left_value else left.rstrip(" ")
    core_right = right if right_value else right.lstrip(" ")
    edge_left = _TRAILING_TAGS.sub("", core_left) if left_value else core_left
    edge_right = _LEADING_TAGS.sub("", core_right) if right_value else core_right
    if not edge_left or not edge_right:
        return None
    wants = _wants_space(edge_left, edge_right, value_before=left_value)
    if wants is None:
        return None
    written = left[len(core_left) :] + right[: len(right) - len(core_right)]
    return (written or " ") if wants else ""


def spaced_pieces(pieces: Sequence[tuple[str, bool]]) -> str:
    """Pieces ``(text, is_value)`` joined, spaced at each value's edges by the rule.

    >>> spaced_pieces([("共 ", False), ("标注", True), (" 条", False)])
    '共标注条'
    """
    texts = [text for text, _ in pieces]
    joined = texts[:1]
    for index in range(1, len(pieces)):
        between = _between(*pieces[index - 1], *pieces[index])
        text = texts[index]
        if between is not None:
            joined[-1] = joined[-1] if pieces[index - 1][1] else joined[-1].rstrip(" ")
            text = text if pieces[index][1] else text.lstrip(" ")
            joined.append(between)
        joined.append(text)
    return "".join(joined)


def spaced_format(message: str, /, **fields: object) -> str:
    """``message.format(**fields)``, each value spaced from its neighbours as Chinese
    text wants (see the module's docstring). A message with no Chinese character or
    full-width punctuation is formatted as it is.

    Parameters
    ----------
    message : str
        A Chinese message with ``{placeholders}`` (formats and conversions allowed).
    **fields
        The values, as :meth:`str.format` takes them.

    Returns
    -------
    str

    Raises
    ------
    KeyError, IndexError, ValueError
        As :meth:`str.format` raises them, for a missing field or a bad format.

    Examples
    --------
    >>> spaced_format("共{n}个查询，其中{name}最好", n=3, name="系统 A")
    '共 3 个查询，其中系统 A 最好'
    >>> spaced_format("第 {ranks} 位", ranks="2、3")
    '第 2、3 位'
    >>> spaced_format("得到 {value:.2f}。{hint}", value=0.5, hint="<b>再试</b>")
    '得到 0.50。<b>再试</b>'
    >>> spaced_format("{a}{b}", a="AP", b="较高")  # no Chinese in the message itself
    'AP较高'
    >>> spaced_format("差值 {delta:.2f}", delta=-0.25), spaced_format("delta {d}", d=-0.25)
    ('差值 −0.25', 'delta -0.25')
    """
    if not _CHINESE.search(message):
        return message.format(**fields)
    pieces: list[tuple[str, bool]] = []
    for literal, name, spec, conversion in _FORMATTER.parse(message):
        if literal:
            pieces.append((literal, False))
        if name is None:
            continue
        value, _ = _FORMATTER.get_field(name, (), fields)
        spec = _FORMATTER.vformat(spec, (), fields) if spec and "{" in spec else spec or ""
        shown = _FORMATTER.format_field(_FORMATTER.convert_field(value, conversion), spec)
        if shown:
            pieces.append((shown if conversion else _chinese_minus(shown), True))
    return spaced_pieces(pieces)
