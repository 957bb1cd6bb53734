"""TREC numbers: integer grades and decimal scores, read fast and exactly as ``float()`` does."""

from __future__ import annotations

import math
import numbers
import re
from typing import Any

import numpy as np

from mapteach.i18n import N_

_INT64 = (-(2**63), 2**63)


_FLOAT32_OVERFLOW = 2.0**128 - 2.0**103  # the smallest magnitude float32 rounds to inf


_GRADE = re.compile(r"[+-]?[0-9]+(\.0*)?")  # what atol() reads whole (or with a zero fraction)


_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")  # strtod, decimal


_DECIMAL_BYTES = np.zeros(256, bool)


_DECIMAL_BYTES[list(b"\x000123456789.+-eE")] = True  # \x00: the padding of short fields


_PLAIN_ROWS = 1 << 12  # rows of texts parsed at once on the fast path


_POWERS_OF_TEN = 10.0 ** np.arange(16)  # exact doubles


_POWERS_OF_TEN_INT = 10 ** np.arange(17, dtype=np.uint64)


_ZEROS = np.uint64(0x3030303030303030)  # '0' in each byte


_ONES = np.uint64(0x0101010101010101)  # times a word of byte flags: their sum in the top byte


_PLACES = np.uint64(0x0001020304050607)  # times a word of one byte flag: its place on top


#: ``KEEP_FIRST_BYTES[k]`` keeps the first ``k`` bytes (0 to 8) of a little-endian 8-byte word.
KEEP_FIRST_BYTES = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype="<u8")


#: The rules a value breaks, as messages say them (English messages, translated when shown).
_GRADE_RULE = N_("an integer grade")
_SCORE_RULE = N_("a finite number")
_GRADE_RANGE_RULE = N_("an integer grade within int64 (trec_eval reads grades as 64-bit integers)")
_SCORE_RANGE_RULE = N_("a finite number within ±3.4e38 (trec_eval stores scores as 32-bit floats)")


def parse_number(value: Any, integer: bool) -> tuple[int | float | None, str]:
    """A grade (integer within int64) or a score (finite, float32 range), or None; the rule.

    Text follows trec_eval's readers where their reading is unambiguous: a grade is
    what ``atol`` reads whole (``2``, ``+2``, ``-1``) or with a zero fraction (``2.0``),
    a score a decimal that ``strtod`` reads whole (no ``inf``, ``nan``, hex or ``_``).
    The rule is the one a message says the value breaks. Shared by the file readers
    and the DataFrame and dict readers (:mod:`mapteach.runs.frames`).

    >>> parse_number("2.0", True), parse_number("2.5", True)
    ((2, 'an integer grade'), (None, 'an integer grade'))
    >>> parse_number("1e39", False)
    (None, 'a finite number within ±3.4e38 (trec_eval stores scores as 32-bit floats)')
    """
    rule = _GRADE_RULE if integer else _SCORE_RULE
    if isinstance(value, str):
        if not (_GRADE if integer else _DECIMAL).fullmatch(value):
            return None, rule
        value = int(value.split(".")[0]) if integer else float(value)
    elif isinstance(value, (numbers.Integral, np.bool_)):
        value = int(value)
    elif isinstance(value, numbers.Real):
        value = float(value)
    else:
        return None, rule
    if integer:
        if isinstance(value, float):
            if not value.is_integer():  # NaN and inf included
                return None, rule
            value = int(value)
        if not _INT64[0] <= value < _INT64[1]:
            return None, _GRADE_RANGE_RULE
        return value, rule
    try:
        value = float(value)
    except OverflowError:  # an int beyond float64
        return None, rule
    if not math.isfinite(value):
        return None, rule
    if abs(value) >= _FLOAT32_OVERFLOW:
        return None, _SCORE_RANGE_RULE
    return value, rule


def invalid_numbers(values: np.ndarray, integer: bool) -> np.ndarray:
    """Which numbers break the grade rule (``integer``) or the score rule.

    The vectorised twin of :func:`parse_number`, shared by the file readers and by
    :func:`mapteach.runs.score_matrix.evaluate_scores`: a grade must be a whole number
    within int64, a score finite and within float32's range.

    >>> invalid_numbers(np.array([1.0, 1.5, np.inf]), integer=True).tolist()
    [False, True, True]
    >>> invalid_numbers(np.array([0.25, 1e39, np.nan]), integer=False).tolist()
    [False, True, True]
    """
    if values.dtype.kind in "biu":  # only uint64 grades can leave int64
        return (values > _INT64[1] - 1) if integer else np.zeros(values.shape, bool)
    bad = ~np.isfinite(values)
    if integer:
        with np.errstate(invalid="ignore"):
            bad |= (values != np.round(values)) | (values < _INT64[0]) | (values >= _INT64[1])
    else:
        bad |= np.abs(values) >= _FLOAT32_OVERFLOW
    return bad


def _plain_decimals(texts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The values of the plain decimals among fixed-width texts, and which texts those are.

    A plain decimal is ``[+-]digits[.digits]`` (or ``digits.``, ``.digits``), at most 16
    bytes and 15 digits: its digits as an integer m < 10**15 < 2**53 and 10**f (f <= 15
    digits after the point) are exact doubles, so the IEEE division m / 10**f rounds
    the exact decimal value once, correctly: the double ``strtod`` and ``float`` return
    (Clinger's fast path). The other texts are left to the caller (their values here
    are meaningless).

    Per block of rows, the bytes are checked as a matrix (:func:`_plain_layout`); then
    each text, as two little-endian 8-byte words, loses its sign and its point (a byte
    shift), becomes digit values, and is read 8 digits a word by SWAR multiplications
    (:func:`_plain_digits`).
    """
    rows, width = texts.size, texts.dtype.itemsize
    words = texts.view("<u8").reshape(rows, width // 8)
    matrix = texts.view(np.uint8).reshape(rows, width)
    columns = min(width, 16)
    values = np.empty(rows)
    plain = np.empty(rows, bool)
    for begin in range(0, rows, _PLAIN_ROWS):  # blocks of rows bound the temporaries
        here = slice(begin, min(begin + _PLAIN_ROWS, rows))
        head = matrix[here, :columns]
        good, count, signed, point, fraction = _plain_layout(head)
        if width > columns:  # texts longer than 16 bytes are not plain
            good &= ~matrix[here, columns:].any(axis=1)
        low = words[here, 0]
        high = words[here, 1] if width > 8 else np.zeros_like(low)
        number = _plain_digits(low, high, signed, point, count)
        out = values[here]
        np.divide(number, _POWERS_OF_TEN[np.clip(fraction, 0, 15)], out=out)
        np.negative(out, out=out, where=head[:, 0] == 45)
        plain[here] = good
    return values, plain


def _plain_layout(head: np.ndarray) -> tuple[np.ndarray, ...]:
    """Per text (a row of its first 8 or 16 bytes): whether it looks plain, how many
    digits it has, whether it is signed, where its point is once the sign is dropped
    (the digit count without one), and how many digits follow the point."""
    digit = (head - np.uint8(48)) < 10  # wraps around below '0'
    dot = head == 46
    signed = (head[:, 0] == 45) | (head[:, 0] == 43)
    allowed = digit | dot | (head == 0)  # NUL: the padding after a field's end
    allowed[:, 0] |= signed
    flags = np.stack((digit, dot, ~allowed)).view("<u8")  # 8 flags a word, per row
    if head.shape[1] > 8:
        sums = flags[:, :, 0] + flags[:, :, 1]
        dot_words = flags[1]
    else:
        sums, dot_words = flags[:, :, 0], np.concatenate((flags[1], flags[1] & 0), axis=1)
    count, dots, bad = (sums * _ONES) >> np.uint64(56)  # the flags' sums, by byte lanes
    good = (bad == 0) & (dots <= 1) & (count >= 1) & (count <= 15)
    count = count.astype(np.int64)
    # where the single point is: a word with one flag at byte k, times _PLACES, is k
    at_low = (dot_words[:, 0] * _PLACES) >> np.uint64(56)
    at_high = (dot_words[:, 1] * _PLACES) >> np.uint64(56)
    point = np.where(
        dot_words[:, 0] != 0,
        at_low.astype(np.int64),
        np.where(dot_words[:, 1] != 0, at_high.astype(np.int64) + 8, count + signed),
    )
    fraction = count + signed - point  # digits after the point (0 without one)
    point -= signed
    return good, count, signed, point, fraction


def _plain_digits(
    low: np.ndarray, high: np.ndarray, signed: np.ndarray, point: np.ndarray, count: np.ndarray
) -> np.ndarray:
    """The digits of texts (two little-endian 8-byte words each) as integers, once each
    text's sign and point are dropped; ``point`` is where the point is without the sign."""
    # drop the sign: the 16 bytes move down one
    low = np.where(signed, (low >> 8) | (high << 56), low)
    high = np.where(signed, high >> 8, high)
    # drop the point: the bytes after it move down one
    keep_low = KEEP_FIRST_BYTES[np.clip(point, 0, 8)]
    keep_high = KEEP_FIRST_BYTES[np.clip(point - 8, 0, 8)]
    low = (low & keep_low) | (((low >> 8) | (high << 56)) & ~keep_low)
    high = (high & keep_high) | ((high >> 8) & ~keep_high)
    # the digits' values, the padding after them left 0: 16 digits, the count first
    low -= _ZEROS & KEEP_FIRST_BYTES[np.minimum(count, 8)]
    high -= _ZEROS & KEEP_FIRST_BYTES[np.clip(count - 8, 0, 8)]
    number = _swar8(low) * np.uint64(10**8) + _swar8(high)
    number //= _POWERS_OF_TEN_INT[16 - np.clip(count, 1, 15)]
    return number


def _swar8(word: np.ndarray) -> np.ndarray:
    """The 8 decimal digits (byte values 0-9) of little-endian words, the first byte first."""
    word = (word * np.uint64(10) + (word >> 8)) & np.uint64(0x00FF00FF00FF00FF)
    word = (word * np.uint64(100) + (word >> 16)) & np.uint64(0x0000FFFF0000FFFF)
    return (word * np.uint64(10000) + (word >> 32)) & np.uint64(0xFFFFFFFF)


def parse_scores(texts: np.ndarray) -> np.ndarray | None:
    """Scores from fixed-width texts, vectorised; None if one breaks the rule.

    Plain decimals take :func:`_plain_decimals`' exact fast path. For the rest, once
    the bytes are limited to digits, ``.``, signs and ``e``/``E`` (no ``_``, no ``inf``
    or ``nan``), Python's ``float`` grammar, which numpy's cast uses, is ``strtod``'s
    for decimals, and both round correctly. The file readers' way to read a run's
    score fields (NUL-padded, as :func:`mapteach.runs.lines.gather_fields` gives them).

    >>> parse_scores(np.array([b"2.5", b"-1e3", b".125"], dtype="S8")).tolist()
    [2.5, -1000.0, 0.125]
    >>> parse_scores(np.array([b"2.5", b"inf"], dtype="S8")) is None
    True
    """
    if texts.dtype == object:
        return None
    values, plain = _plain_decimals(texts)
    if plain.all():  # at most 15 digits: finite, and far within the float32 range
        return values
    rest = np.flatnonzero(~plain)
    others = texts[rest]
    if not _DECIMAL_BYTES[others.view(np.uint8)].all():
        return None
    try:
        parsed = others.astype(np.float64)
    except ValueError:  # e.g. "1e" or "1.2.3"
        return None
    if invalid_numbers(parsed, False).any():
        return None
    values[rest] = parsed
    return values
