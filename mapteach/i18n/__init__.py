"""The workbook's languages: one gettext catalogue, English and Chinese.

Floor 0: the standard library only, so every floor above may import it.
Every string the package shows a learner goes through :func:`tr`; its English
text is the message id, and ``locale/zh/LC_MESSAGES/mapteach.po`` holds the
Chinese. ``tools/i18n.py`` extracts, merges and compiles the catalogue.

>>> from mapteach.i18n import tr, set_language, language
>>> tr("relevant")
'relevant'
>>> with language("zh"):
...     tr("relevant")
'相关'
>>> tr("P@{k} = {hits}/{k}", k=3, hits=2)
'P@3 = 2/3'
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import operator
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Literal, get_args

from mapteach.i18n.spacing import spaced_format

Language = Literal["en", "zh"]
#: The languages the workbook speaks; English is the source of every message.
LANGUAGES: tuple[str, ...] = get_args(Language)
DOMAIN = "mapteach"
LOCALE_DIR = Path(__file__).parent / "locale"
#: The languages whose placeholders :func:`tr` spaces from Chinese characters.
SPACED_LANGUAGES = frozenset({"zh"})

#: The current language, in a list so the functions below can change it in place.
_current: list[str] = [os.environ.get("MAPTEACH_LANG", "en")]
if _current[0] not in LANGUAGES:
    _current[0] = "en"


def check_language(lang: object, name: str = "lang") -> str:
    """Return ``lang`` if the workbook speaks it, else raise a ValueError naming it.

    >>> check_language("zh")
    'zh'
    >>> check_language("fr")
    Traceback (most recent call last):
    ...
    ValueError: lang must be one of 'en', 'zh'; got 'fr'
    """
    if not isinstance(lang, str) or lang not in LANGUAGES:
        options = ", ".join(repr(code) for code in LANGUAGES)
        raise ValueError(
            tr(
                "{name} must be one of {options}; got {value!r}",
                name=name,
                options=options,
                value=lang,  # not ``lang=``: that is the language tr speaks
            )
        )
    return lang


def set_language(lang: str) -> None:
    """Speak ``lang`` ("en" or "zh") from now on: prose, tables, widgets and plots.

    A widget built with ``lang=`` keeps its own language whatever this says.
    The environment variable ``MAPTEACH_LANG`` sets the language at start-up.

    >>> set_language("zh"); tr("relevant")
    '相关'
    >>> set_language("en"); tr("relevant")
    'relevant'
    """
    _current[0] = check_language(lang)


def get_language() -> str:
    """The language :func:`tr` speaks when no ``lang`` is given.

    >>> get_language()
    'en'
    """
    return _current[0]


@contextlib.contextmanager
def language(lang: str | None) -> Iterator[str]:
    """Speak ``lang`` inside the ``with`` block (``None`` keeps the current one).

    >>> with language("zh") as lang:
    ...     lang, tr("relevant")
    ('zh', '相关')
    >>> get_language()
    'en'
    """
    saved = _current[0]
    _current[0] = saved if lang is None else check_language(lang)
    try:
        yield _current[0]
    finally:
        _current[0] = saved


@functools.cache
def _catalogue(lang: str) -> gettext.NullTranslations:
    if lang == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[lang])


def tr(message: str, /, *, lang: str | None = None, **fields: object) -> str:
    """``message`` in the current language (or ``lang``), with ``{fields}`` filled in.

    Parameters
    ----------
    message : str
        The English text; it is the message's id in the catalogue.
    lang : {"en", "zh"}, optional
        Speak this language instead of the current one.
    **fields
        Values for the message's ``{placeholders}``, formatted after translation,
        so a translation may move them. In Chinese each value is spaced from the
        text beside it by the edition's one rule (:func:`~mapteach.i18n.spacing.spaced_format`):
        one space between a Chinese character and a Latin letter or digit, none
        between Chinese characters or beside full-width punctuation.

    Returns
    -------
    str

    Examples
    --------
    >>> tr("AP = {ap:.4f}", ap=0.5)
    'AP = 0.5000'
    >>> tr("relevant", lang="zh")
    '相关'
    >>> with language("zh"):
    ...     tr("{name}: no such {what} file.", name="a.txt", what="qrels")
    'a.txt：没有这个 qrels 文件。'
    """
    lang = _current[0] if lang is None else check_language(lang)
    return _filled(_catalogue(lang).gettext(message), lang, fields)


def _filled(text: str, lang: str, fields: dict[str, object]) -> str:
    """``text`` with its placeholders filled: in Chinese, spaced by the edition's rule."""
    if not fields:
        return text
    return spaced_format(text, **fields) if lang in SPACED_LANGUAGES else text.format(**fields)


def ngettext(
    singular: str, plural: str, n: int, /, *, lang: str | None = None, **fields: object
) -> str:
    """``singular`` or ``plural`` as ``n`` asks, in the current language (or ``lang``).

    gettext's ``ngettext`` on the same catalogue: English takes ``singular`` for
    ``n == 1``, ``plural`` otherwise; Chinese has one form for every count. The
    count also fills ``{n}``; ``fields`` fill the other placeholders, after translation.

    Parameters
    ----------
    singular, plural : str
        The English forms; the pair is the message's id in the catalogue.
    n : int
        The count that picks the form.
    lang : {"en", "zh"}, optional
        Speak this language instead of the current one.
    **fields
        Values for the other ``{placeholders}`` (not ``n``, which is the count).

    Returns
    -------
    str

    Raises
    ------
    TypeError
        If ``n`` is not an integer, or ``n`` is also given as a field.

    Examples
    --------
    >>> from mapteach.i18n import ngettext
    >>> for hits in (1, 2):
    ...     print(ngettext("{n} relevant result", "{n} relevant results", hits))
    1 relevant result
    2 relevant results
    >>> ngettext("one result, at rank {ranks}", "{n} results, at ranks {ranks}", 1, ranks=2)
    'one result, at rank 2'
    >>> ngettext("{n} relevant result", "{n} relevant results", 1.0)
    Traceback (most recent call last):
    ...
    TypeError: ngettext's count must be an integer; got 1.0.
    """
    try:
        count = operator.index(n)
    except TypeError:
        raise TypeError(f"ngettext's count must be an integer; got {n!r}.") from None
    if "n" in fields:
        raise TypeError("ngettext fills {n} with its count; do not give n as a field.")
    lang = _current[0] if lang is None else check_language(lang)
    return _filled(_catalogue(lang).ngettext(singular, plural, count), lang, {"n": count, **fields})


def N_(message: str, /) -> str:  # noqa: N802 (gettext's name for the marker)
    """Mark ``message`` for the catalogue without translating it yet.

    For messages stored at import time and translated with :func:`tr` when shown.

    >>> N_("relevant")
    'relevant'
    """
    return message


def plural_message(singular: str, plural: str, /) -> tuple[str, str]:
    """Mark a plural message for the catalogue without translating it yet: ``N_`` for
    :func:`ngettext`.

    For a pair stored at import time and shown later with ``ngettext(*pair, n)``, or
    handed to a browser whole by :func:`plural_forms`.

    >>> plural_message("{n} relevant result", "{n} relevant results")
    ('{n} relevant result', '{n} relevant results')
    """
    return singular, plural


def plural_forms(singular: str, plural: str, /, *, lang: str | None = None) -> dict[str, str]:
    """The forms of a plural message in the current language (or ``lang``), unfilled.

    ``"one"`` is what :func:`ngettext` takes for a count of 1, ``"other"`` for every
    other count (English's rule; Chinese has one form, so both are the same). For code
    outside Python, such as a widget's JavaScript, that fills the placeholders itself.

    Parameters
    ----------
    singular, plural : str
        The English forms; the pair is the message's id in the catalogue.
    lang : {"en", "zh"}, optional
        Speak this language instead of the current one.

    Returns
    -------
    dict of str to str
        ``{"one": ..., "other": ...}``, with their ``{placeholders}`` left in.

    Examples
    --------
    >>> plural_forms("{n} relevant result", "{n} relevant results")
    {'one': '{n} relevant result', 'other': '{n} relevant results'}
    """
    catalogue = _catalogue(_current[0] if lang is None else check_language(lang))
    return {
        "one": catalogue.ngettext(singular, plural, 1),
        "other": catalogue.ngettext(singular, plural, 2),
    }


#: How two sentences join: with a space in English, with none in Chinese (its translation).
JOINER = N_("{sentence} {then}")


def joined_sentences(sentences: Sequence[str], *, lang: str | None = None) -> str:
    """Sentences joined as the current language (or ``lang``) joins them (a space, none in
    Chinese); empty ones are left out.

    >>> from mapteach.i18n import joined_sentences, language
    >>> joined_sentences(["Not yet.", "", "Move a relevant result up."])
    'Not yet. Move a relevant result up.'
    >>> with language("zh"):
    ...     joined_sentences(["还没有。", "往上移。"])
    '还没有。往上移。'
    >>> joined_sentences(["还没有。", "往上移。"], lang="zh")
    '还没有。往上移。'
    """
    kept = [sentence for sentence in sentences if sentence] or [""]
    return functools.reduce(
        lambda sentence, then: tr(JOINER, lang=lang, sentence=sentence, then=then), kept
    )


#: The ``lang`` attribute of a widget's HTML root, per language: the browser picks the
#: glyphs of the right script variant (Simplified Chinese) and screen readers the voice.
HTML_LANG = {"en": "en", "zh": "zh-Hans"}


def widget_language(lang: str | None) -> str:
    """The language a widget speaks: ``lang``, or the current one when it is None.

    >>> widget_language(None), widget_language("zh")
    ('en', 'zh')
    >>> widget_language("fr")
    Traceback (most recent call last):
    ...
    ValueError: lang must be one of 'en', 'zh'; got 'fr'
    """
    if lang is None:
        return get_language()
    try:
        return check_language(lang)
    except ValueError:
        raise ValueError(
            tr("lang must be one of {options}; got {value!r}", options="'en', 'zh'", value=lang)
        ) from None


__all__ = [
    "HTML_LANG",
    "JOINER",
    "LANGUAGES",
    "N_",
    "SPACED_LANGUAGES",
    "Language",
    "check_language",
    "get_language",
    "joined_sentences",
    "language",
    "ngettext",
    "plural_forms",
    "plural_message",
    "set_language",
    "tr",
    "widget_language",
]
