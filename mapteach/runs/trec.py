"""Reading TREC qrels and run files (and the same data from DataFrames or dicts).

- qrels: ``qid iter docid rel`` per line (``iter`` is ignored, as in trec_eval);
- run: ``qid Q0 docid rank score tag`` per line (``Q0`` and ``rank`` are ignored:
  trec_eval ranks by score).

Files are read as trec_eval 10 reads them (``get_qrels.c``, ``get_trec_results.c``):

- fields are separated by ASCII whitespace (space, tab, CR, VT, FF) and a line ends
  at LF, so Windows line ends are fine;
- identifiers are strings, byte for byte: ``01`` and ``1``, ``007`` and ``7``, ``inf``
  and ``Infinity`` are different queries or documents, and stay as written;
- comment lines are skipped, with one warning per file giving their count: in a run,
  a line whose first non-blank character is ``#``; in qrels, a line starting with ``#``;
- blank lines are skipped, with one warning per file (trec_eval rejects them in qrels);
- a qrels line has exactly 4 fields; a run line at least 6, and the fields after the
  sixth are ignored, with one warning per file;
- a grade is an integer within int64 (``2`` or ``2.0``); a score is a finite decimal
  number within the 32-bit float range trec_eval stores scores in (|score| < 3.4e38);
- a document appears once per query;
- the bytes are UTF-8, with no NUL byte and no byte-order mark; gzip data is
  recognised by its first two bytes (1f 8b), whatever the file is called.

Anything else raises ``ValueError`` naming the file, the line (1-based) and the rule.
Lines count from where reading began: the first line of a path, a pipe or standard
input; for an open file, its position when it was passed, which is never rewound (the
message then names that position, e.g. ``run.txt (from position 23), line 2``).

A source is read once, whole, into memory (so pipes, ``/dev/stdin`` and ``<(...)``
work), then split into fields by numpy, a block of lines at a time.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import math
import numbers
import os
import re
import warnings
import zlib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import IO, Any

import numpy as np
import pandas as pd

__all__ = ["as_qrels", "as_run", "read_qrels", "read_run", "write_trec"]

Source = str | os.PathLike | IO[str] | IO[bytes]

_QRELS = ("query_id", "iteration", "doc_id", "relevance")
_RUN = ("query_id", "q0", "doc_id", "rank", "score", "tag")
#: Per kind: the fields of a line, the value column, and the value's field number.
_KINDS = {"qrels": (_QRELS, "relevance", 3), "run": (_RUN, "score", 4)}

_BLOCK = 1 << 22  # bytes split into fields at once: bounds the temporary arrays
_FIELD_ROWS = 1 << 18  # fields gathered at once
_LONG = 255  # field lengths are stored in a byte: this one stands for this long or more
_FIELD = re.compile(rb"[^ \t\n\v\f\r]+")  # a field: no C isspace() byte
_WIDE = 8  # fields longer than this many 8-byte words are handled as Python bytes
_INT64 = (-(2**63), 2**63)
_FLOAT32_OVERFLOW = 2.0**128 - 2.0**103  # the smallest magnitude float32 rounds to inf
_GRADE = re.compile(r"[+-]?[0-9]+(\.0*)?")  # what atol() reads whole (or with a zero fraction)
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")  # strtod, decimal
_DECIMAL_BYTES = np.zeros(256, bool)
_DECIMAL_BYTES[list(b"\x000123456789.+-eE")] = True  # \x00: the padding of short fields
_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype="<u8")  # keep the first k bytes
_PLAIN_ROWS = 1 << 18  # rows of texts parsed at once on the fast path
_POWERS_OF_TEN = 10.0 ** np.arange(16)  # exact doubles
_POWERS_OF_TEN_INT = 10 ** np.arange(17, dtype=np.uint64)
_ZEROS = np.uint64(0x3030303030303030)  # '0' in each byte
_ONES = np.uint64(0x0101010101010101)  # times a word of byte flags: their sum in the top byte
_PLACES = np.uint64(0x0001020304050607)  # times a word of one byte flag: its place on top
_GRADE_RULE = "an integer grade"
_SCORE_RULE = "a finite number"


# --- reading the bytes -------------------------------------------------------------------


def _name(source: Any) -> str:
    """How messages name a source: its path or name, and where reading began if not at 0."""
    if isinstance(source, (str, os.PathLike)):
        return os.fsdecode(source)
    name = getattr(source, "name", None)
    if isinstance(name, int):
        name = f"<file descriptor {name}>"
    elif isinstance(name, bytes):
        name = os.fsdecode(name)
    elif not isinstance(name, str):
        name = "<buffer>"
    try:
        position = source.tell()
    except (OSError, ValueError, AttributeError):  # pipes, terminals, objects without tell
        position = 0
    return f"{name} (from position {position})" if position else name


def _slurp(source: Any, name: str, what: str) -> bytes:
    """Every byte of the source, read once: a path whole, a file from its position on."""
    try:
        if isinstance(source, (str, os.PathLike)):
            with open(source, "rb") as file:
                return file.read()
        if isinstance(source, io.TextIOBase):
            return _encode(_text_lines(source, name), name)
        data = source.read()
    except FileNotFoundError:
        raise ValueError(f"{name}: no such {what} file.") from None
    except IsADirectoryError:
        raise ValueError(f"{name}: is a directory, not a {what} file.") from None
    except OSError as error:
        raise ValueError(f"{name}: cannot read the {what} file ({error}).") from None
    if isinstance(data, str):
        return _encode(data, name)
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    raise TypeError(f"{name}: read() returned {type(data).__name__}, not bytes or str.")


def _text_lines(source: Iterable[str], name: str) -> str:
    """A text stream's text, line by line, so that a decoding error names its line.

    A text stream decodes a chunk only when its pending text holds no whole line, so
    the lines returned so far plus the newlines of the chunk before the bad byte give
    the line of the bad byte.
    """
    lines: list[str] = []
    try:
        lines.extend(source)
    except UnicodeDecodeError as error:
        line = len(lines) + 1 + error.object[: error.start].count(b"\n")
        bad = error.object[error.start : error.end]
        raise ValueError(
            f"{name}, line {line}: bytes {bad!r} are not valid {error.encoding} "
            f"({error.reason}); TREC files are UTF-8 text."
        ) from None
    return "".join(lines)


def _encode(text: str, name: str) -> bytes:
    """Text as the UTF-8 bytes trec_eval would read; what cannot be encoded names its line."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as error:  # lone surrogates, as surrogateescape leaves them
        line = text.count("\n", 0, error.start) + 1
        raise ValueError(
            f"{name}, line {line}: {text[error.start : error.end]!r} cannot be written as "
            "UTF-8; TREC files are UTF-8 text."
        ) from None


def _check_bytes(data: bytes, name: str, what: str) -> bytes:
    """Decompress gzip data; reject byte-order marks, NUL bytes and invalid UTF-8."""
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as error:
            raise ValueError(
                f"{name}: the {what} file is gzip-compressed but cannot be decompressed ({error})."
            ) from None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ValueError(
            f"{name}, line 1: the {what} file starts with a UTF-16 byte-order mark; "
            "trec_eval reads bytes, so save it as UTF-8."
        )
    if data.startswith(b"\xef\xbb\xbf"):
        raise ValueError(
            f"{name}, line 1: the {what} file starts with a UTF-8 byte-order mark, which "
            "trec_eval would read as part of the first query id; save it without one."
        )
    nul = data.find(b"\0")
    if nul >= 0:
        raise ValueError(
            f"{name}, line {_line_of(data, nul)}: a NUL byte, which trec_eval cannot read "
            "(is the file UTF-16? save it as UTF-8)."
        )
    if not data.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ValueError(
                f"{name}, line {_line_of(data, error.start)}: bytes "
                f"{data[error.start : error.end]!r} are not valid UTF-8 ({error.reason}); "
                "TREC files are UTF-8 text."
            ) from None
    return data


def _line_of(data: bytes, offset: int) -> int:
    """The 1-based line holding a byte offset."""
    return data.count(b"\n", 0, offset) + 1


# --- splitting lines into fields -----------------------------------------------------------


class _Lines:
    """Per line of a file: its field count, whether it is a comment, and where the wanted
    fields start (byte offsets) and how long they are (meaningless where they are absent).
    """

    def __init__(self, data: bytes, wanted: tuple[int, ...], hash_at_start: bool):
        lines = data.count(b"\n") + (bool(data) and not data.endswith(b"\n"))
        self.count = np.zeros(lines, np.uint8)  # capped at 255: only compared with 0, 4 and 6
        self.comment = np.zeros(lines, bool)
        offset = np.int32 if len(data) < 2**31 else np.int64  # 4 bytes a field where they do
        self.starts = [np.zeros(lines, offset) for _ in wanted]
        self.lengths = [np.zeros(lines, np.uint8) for _ in wanted]  # _LONG: that long or more
        array = np.frombuffer(data, np.uint8)
        self._work = np.empty((3, min(len(data), _BLOCK) + 1), np.uint8)  # reused per block
        begin = line = 0
        while begin < len(data):  # a block of whole lines at a time bounds the temporaries
            stop = begin + _BLOCK
            end = len(data) if stop >= len(data) else data.rfind(b"\n", begin, stop) + 1
            if end <= begin:  # a line longer than a block
                end = data.find(b"\n", stop) + 1 or len(data)
            line = self._block(array[begin:end], begin, line, wanted, hash_at_start)
            begin = end
        del self._work

    def _block(self, array, offset, line, wanted, hash_at_start) -> int:
        """Split the whole lines of one block; return the number of the next line."""
        size = array.size
        if self._work.shape[1] <= size:
            self._work = np.empty((3, size + 1), np.uint8)
        space, edge = self._work[0, :size].view(bool), self._work[1, : size + 1].view(bool)
        scratch = self._work[2, :size]
        np.equal(array, 32, out=space)
        np.subtract(array, 9, out=scratch)
        space |= np.less(scratch, 5, out=edge[:size])  # \t \n \v \f \r: C isspace(), as trec_eval
        # field boundaries, as if a space came before and after the block: starts, ends alternate
        np.not_equal(space[1:], space[:-1], out=edge[1:size])
        edge[0], edge[size] = not space[0], not space[-1]
        change = np.flatnonzero(edge)
        starts, ends = change[0::2], change[1::2]
        line_end = np.flatnonzero(np.equal(array, 10, out=space))
        if array[-1] != 10:
            line_end = np.append(line_end, size)
        here = slice(line, line + line_end.size)
        before = np.searchsorted(starts, line_end)  # fields starting before each line's end
        count = np.diff(before, prepend=0)
        self.count[here] = np.minimum(count, 255)
        if not starts.size:  # nothing but whitespace
            return here.stop
        first = np.minimum(before - count, starts.size - 1)
        head = starts[first]
        comment = (count > 0) & (array[head] == ord("#"))
        if hash_at_start:  # qrels: only a '#' in the line's first byte starts a comment
            comment &= head == np.concatenate(([0], line_end[:-1] + 1))
        self.comment[here] = comment
        for k, field in enumerate(wanted):
            picked = np.minimum(first + field, starts.size - 1)
            self.starts[k][here] = starts[picked] + offset
            self.lengths[k][here] = np.minimum(ends[picked] - starts[picked], _LONG)
        return here.stop


def _fields(data: bytes, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The fields as NUL-padded fixed-width bytes (dtype S), or Python bytes if one is long.

    Gathered 8 bytes at a time, through an unaligned uint64 view with a 1-byte stride.
    """
    words = -(-int(lengths.max()) // 8)
    if words > _WIDE:  # a length of _LONG or more was stored as _LONG: match those anew
        return np.array(
            [
                data[a : a + n] if n < _LONG else _FIELD.match(data, a).group()  # type: ignore[union-attr]
                for a, n in zip(starts.tolist(), lengths.tolist(), strict=True)
            ],
            dtype=object,
        )
    base = max(len(data) - 8, 0)  # an 8-byte load from past base runs off the end: use tail
    tail_bytes = data[base:] + bytes(8)
    tail = np.ndarray((len(tail_bytes) - 7,), "<u8", buffer=tail_bytes, strides=(1,))
    loads = np.ndarray((base + 1,), "<u8", buffer=data, strides=(1,)) if len(data) >= 8 else tail
    out = np.empty((starts.size, words), "<u8")
    rows = min(starts.size, _FIELD_ROWS)  # a block of rows at a time bounds the temporaries
    at, keep, mask = (
        np.empty(rows, starts.dtype),
        np.empty(rows, np.int32),
        np.empty(rows, "<u8"),
    )
    for begin in range(0, starts.size, rows):
        here = slice(begin, begin + rows)
        block_starts, block_lengths = starts[here], lengths[here]
        size = block_starts.size
        for word in range(words):
            np.add(block_starts, 8 * word, out=at[:size])
            late = np.flatnonzero(at[:size] > base)
            column = loads[np.minimum(at[:size], base, out=at[:size])]
            column[late] = tail[np.minimum(block_starts[late] + 8 * word - base, tail.size - 1)]
            np.subtract(block_lengths, 8 * word, out=keep[:size], dtype=np.int32)
            np.clip(keep[:size], 0, 8, out=keep[:size])
            np.bitwise_and(column, _MASKS.take(keep[:size], out=mask[:size]), out=out[here, word])
    return out.view(f"S{8 * words}").ravel()


def _distinct(texts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes in order of first appearance, and the distinct values, of fields or ids."""
    if texts.dtype == object:
        codes, uniques = pd.factorize(texts)
        return codes, np.asarray(uniques, dtype=object)
    words = texts.view(np.uint64).reshape(texts.size, -1)  # equality needs no byte order
    changes = np.flatnonzero((words[1:] != words[:-1]).any(axis=1)) + 1
    if changes.size < texts.size // 8:  # runs of equal values (a run's query ids): one each
        heads = np.concatenate(([0], changes))
        codes, uniques = _distinct(texts[heads])
        return np.repeat(codes, np.diff(heads, append=texts.size)), uniques
    codes, _ = pd.factorize(words[:, 0])
    for word in range(1, words.shape[1]):
        more, seen = pd.factorize(words[:, word])
        codes, _ = pd.factorize(codes * len(seen) + more)
    running = np.maximum.accumulate(codes)
    first = np.flatnonzero(np.concatenate(([True], codes[1:] > running[:-1])))
    return codes, texts[first]


def _labels(texts: np.ndarray) -> pd.Categorical[Any]:
    """Identifier fields as a categorical of str, its categories sorted as trec_eval sorts."""
    codes, uniques = _distinct(texts)
    order = np.argsort(uniques, kind="stable")  # bytes order is strcmp's and code-point order
    rank = np.empty(order.size, np.int64)
    rank[order] = np.arange(order.size)
    categories = pd.Index([item.decode() for item in uniques[order].tolist()])
    return pd.Categorical.from_codes(rank[codes], dtype=pd.CategoricalDtype(categories))


def _number(value: Any, integer: bool) -> tuple[int | float | None, str]:
    """A grade (integer within int64) or a score (finite, float32 range), or None; the rule.

    Text follows trec_eval's readers where their reading is unambiguous: a grade is
    what ``atol`` reads whole (``2``, ``+2``, ``-1``) or with a zero fraction (``2.0``),
    a score a decimal that ``strtod`` reads whole (no ``inf``, ``nan``, hex or ``_``).
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
            return None, f"{rule} within int64 (trec_eval reads grades as 64-bit integers)"
        return value, rule
    try:
        value = float(value)
    except OverflowError:  # an int beyond float64
        return None, rule
    if not math.isfinite(value):
        return None, rule
    if abs(value) >= _FLOAT32_OVERFLOW:
        return None, f"{rule} within ±3.4e38 (trec_eval stores scores as 32-bit floats)"
    return value, rule


def invalid_numbers(values: np.ndarray, integer: bool) -> np.ndarray:
    """Which numbers break the grade rule (``integer``) or the score rule.

    The vectorised twin of :func:`_number`, shared by the file readers and by
    :func:`mapteach.runs.evaluate.evaluate_scores`: a grade must be a whole number
    within int64, a score finite and within float32's range.
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

    Per block of rows, the bytes are checked as a matrix; then each text, as two
    little-endian 8-byte words, loses its sign and its point (a byte shift), becomes
    digit values, and is read 8 digits a word by SWAR multiplications.
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
        digit = (head - np.uint8(48)) < 10  # wraps around below '0'
        dot = head == 46
        signed = (head[:, 0] == 45) | (head[:, 0] == 43)
        allowed = digit | dot | (head == 0)  # NUL: the padding after a field's end
        allowed[:, 0] |= signed
        flags = np.stack((digit, dot, ~allowed)).view("<u8")  # 8 flags a word, per row
        if columns > 8:
            sums = flags[:, :, 0] + flags[:, :, 1]
            dot_words = flags[1]
        else:
            sums, dot_words = flags[:, :, 0], np.concatenate((flags[1], flags[1] & 0), axis=1)
        count, dots, bad = (sums * _ONES) >> np.uint64(56)  # the flags' sums, by byte lanes
        good = (bad == 0) & (dots <= 1) & (count >= 1) & (count <= 15)
        if width > columns:  # texts longer than 16 bytes are not plain
            good &= ~matrix[here, columns:].any(axis=1)
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
        low = words[here, 0]
        high = words[here, 1] if width > 8 else np.zeros_like(low)
        # drop the sign: the 16 bytes move down one
        low = np.where(signed, (low >> 8) | (high << 56), low)
        high = np.where(signed, high >> 8, high)
        point -= signed
        # drop the point: the bytes after it move down one
        keep_low = _MASKS[np.clip(point, 0, 8)]
        keep_high = _MASKS[np.clip(point - 8, 0, 8)]
        low = (low & keep_low) | (((low >> 8) | (high << 56)) & ~keep_low)
        high = (high & keep_high) | ((high >> 8) & ~keep_high)
        # the digits' values, the padding after them left 0: 16 digits, the count first
        low -= _ZEROS & _MASKS[np.minimum(count, 8)]
        high -= _ZEROS & _MASKS[np.clip(count - 8, 0, 8)]
        number = _swar8(low) * np.uint64(10**8) + _swar8(high)
        number //= _POWERS_OF_TEN_INT[16 - np.clip(count, 1, 15)]
        out = values[here]
        np.divide(number, _POWERS_OF_TEN[np.clip(fraction, 0, 15)], out=out)
        np.negative(out, out=out, where=head[:, 0] == 45)
        plain[here] = good
    return values, plain


def _swar8(word: np.ndarray) -> np.ndarray:
    """The 8 decimal digits (byte values 0-9) of little-endian words, the first byte first."""
    word = (word * np.uint64(10) + (word >> 8)) & np.uint64(0x00FF00FF00FF00FF)
    word = (word * np.uint64(100) + (word >> 16)) & np.uint64(0x0000FFFF0000FFFF)
    return (word * np.uint64(10000) + (word >> 32)) & np.uint64(0xFFFFFFFF)


def _scores(texts: np.ndarray) -> np.ndarray | None:
    """Scores from fixed-width texts, vectorised; None if one breaks the rule.

    Plain decimals take :func:`_plain_decimals`' exact fast path. For the rest, once
    the bytes are limited to digits, ``.``, signs and ``e``/``E`` (no ``_``, no ``inf``
    or ``nan``), Python's ``float`` grammar, which numpy's cast uses, is ``strtod``'s
    for decimals, and both round correctly.
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


class _Where:
    """Names rows in messages: the source, and lines (files) or rows (frames, dicts)."""

    def __init__(self, source: str, what: str, unit: str, names: Callable[[np.ndarray], Any]):
        self.source, self.what, self.unit, self.names = source, what, unit, names

    def rows(self, rows: np.ndarray) -> str:
        """``line 3`` or ``lines 3, 9`` (``row``/``rows``: index labels, or dict positions)."""
        plural = "s" if len(rows) > 1 else ""
        return f"{self.unit}{plural} {', '.join(map(str, self.names(rows)))}"

    def value(self, row: int, shown: str, query: Any, doc: Any, rule: str) -> ValueError:
        """The error for a bad grade or score; ``shown`` is its text's ``repr`` or a number."""
        return ValueError(
            f"{self.source}, {self.rows(np.array([row]))}: {_KINDS[self.what][1]} {shown} "
            f"of query {query!r}, document {doc!r} is not {rule}."
        )


def _values_from_text(
    texts: np.ndarray, integer: bool, where: _Where, queries: Any, docs: Any
) -> np.ndarray:
    """Grades or scores from their text fields; the first bad one raises, naming its line."""
    if integer:  # few distinct grades: parse each once
        codes, uniques = _distinct(texts)
        parsed = [_number(item.decode(), True) for item in uniques.tolist()]
        bad = [i for i, (value, _) in enumerate(parsed) if value is None]
        if bad:
            row = int(np.flatnonzero(np.isin(codes, bad))[0])
            text = uniques[codes[row]].decode()
            raise where.value(row, repr(text), queries[row], docs[row], parsed[codes[row]][1])
        return np.array([value for value, _ in parsed], dtype=np.int64)[codes]
    values = _scores(texts)
    if values is not None:
        return values
    values = np.empty(texts.size)
    for row, item in enumerate(texts.tolist()):
        text = item.decode()
        number, rule = _number(text, False)
        if number is None:
            raise where.value(row, repr(text), queries[row], docs[row], rule)
        values[row] = number
    return values


def _check_duplicates(query: np.ndarray, doc: np.ndarray, ids: pd.DataFrame, where: _Where):
    """Raise if a document appears twice for one query; ``query``/``doc`` are int codes."""
    key = query.astype(np.int64) * (int(doc.max()) + 1) + doc
    ordered = np.sort(key)
    repeated = ordered[1:][ordered[1:] == ordered[:-1]]
    if not repeated.size:
        return
    rows = np.flatnonzero(np.isin(key, repeated))
    same = rows[key[rows] == key[rows[0]]]
    first = ids.iloc[same[0]]
    raise ValueError(
        f"{where.source}: document {first['doc_id']!r} is listed {len(same)} times for query "
        f"{first['query_id']!r} in the {where.what} ({where.rows(same)}); each document may "
        "appear once per query."
    )


def _parse(data: bytes, name: str, what: str) -> pd.DataFrame:
    """Split, check and convert a TREC file's bytes; warnings and errors name the lines."""
    fields, value, position = _KINDS[what]
    qrels = what == "qrels"
    lines = _Lines(data, (0, 2, position), hash_at_start=qrels)
    count, comment = lines.count, lines.comment
    for skipped, kind in (
        (comment, "comment line(s) starting with '#', as trec_eval does"),
        (count == 0, "blank line(s)"),
    ):
        if skipped.any():
            warnings.warn(
                f"{name}: skipped {int(skipped.sum())} {kind}.", UserWarning, stacklevel=4
            )
    used = (count > 0) & ~comment
    if not used.any():
        suffix = " (no line holds data)" if data else ""
        raise ValueError(f"{name}: the {what} file is empty{suffix}.")
    expected = f"a {what} line has {len(fields)} fields: {' '.join(fields)}"
    extra = used & (count > len(fields))
    wrong = (used & (count < len(fields))) | (extra if qrels else False)
    if wrong.any():
        line = int(np.argmax(wrong))
        problem = "too few fields" if count[line] < len(fields) else "too many fields"
        raise ValueError(f"{name}, line {line + 1}: {problem}; {expected}.")
    if extra.any():
        warnings.warn(
            f"{name}: ignored the fields after the 6th (the tag) on {int(extra.sum())} "
            f"line(s), first line {np.argmax(extra) + 1}, as trec_eval does.",
            UserWarning,
            stacklevel=4,
        )
    rows = np.flatnonzero(used)
    keep = slice(None) if rows.size == used.size else rows  # a slice copies nothing
    texts = []
    while lines.starts:  # each field's offsets are freed once it is gathered
        texts.append(_fields(data, lines.starts.pop(0)[keep], lines.lengths.pop(0)[keep]))
    del data, lines  # only the fields' texts are needed from here on
    query, doc = _labels(texts.pop(0)), _labels(texts.pop(0))
    where = _Where(name, what, "line", lambda at: (rows[at] + 1).tolist())
    numbers_ = _values_from_text(texts.pop(), qrels, where, query, doc)
    frame = pd.DataFrame({"query_id": query, "doc_id": doc, value: numbers_})
    _check_duplicates(query.codes, doc.codes, frame, where)
    return frame


def _load(source: Source, what: str) -> pd.DataFrame:
    name = _name(source)
    return _parse(_check_bytes(_slurp(source, name, what), name, what), name, what)


def read_qrels(source: Source) -> pd.DataFrame:
    """Read a TREC qrels file: ``qid iter docid rel`` per line, as trec_eval reads it.

    Introduced in ``11_evaluate_your_own_run``. The rules (comments, blank lines,
    identifiers kept as written, gzip) are in the module's docstring.

    Parameters
    ----------
    source : path or file-like
        A path (``str`` or path-like, ``/dev/stdin`` and ``/dev/fd/N`` included), or an
        open text or binary file, read from its current position. Gzip data is
        recognised by its first bytes.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id`` and ``doc_id`` (categorical, of str, exactly as written)
        and ``relevance`` (int64), one row per judgment, in file order.

    Raises
    ------
    ValueError
        On an unreadable or empty file, a line with other than 4 fields, a grade that
        is not an integer within int64, a document judged twice for one query, or bytes
        that are not UTF-8: the message names the file, the line and the rule.

    Warns
    -----
    UserWarning
        Once per file, with a count, for skipped comment (``#``) and blank lines.

    Examples
    --------
    >>> import io, warnings
    >>> from mapteach.runs.trec import read_qrels
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     qrels = read_qrels(io.StringIO("# judged by hand\\n01 0 007 1\\n1 0 7 0\\n"))
    >>> print(caught[0].message)
    <buffer>: skipped 1 comment line(s) starting with '#', as trec_eval does.
    >>> qrels
      query_id doc_id  relevance
    0       01    007          1
    1        1      7          0
    """
    return _load(source, "qrels")


def read_run(source: Source) -> pd.DataFrame:
    """Read a TREC run file: ``qid Q0 docid rank score tag`` per line, as trec_eval reads it.

    The rank column is read but ignored: trec_eval ranks documents by score. Fields
    after the tag are ignored, with a warning. Introduced in ``11_evaluate_your_own_run``.

    Parameters
    ----------
    source : path or file-like
        A path (``str`` or path-like, ``/dev/stdin`` and ``/dev/fd/N`` included), or an
        open text or binary file, read from its current position. Gzip data is
        recognised by its first bytes.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id`` and ``doc_id`` (categorical, of str, exactly as written)
        and ``score`` (float64), one row per retrieved document, in file order.

    Raises
    ------
    ValueError
        On an unreadable or empty file, a line with fewer than 6 fields, a score that
        is not a finite decimal number (``nan``, ``inf`` and ``1e39`` included), a
        document listed twice for one query, or bytes that are not UTF-8: the message
        names the file, the line and the rule.

    Warns
    -----
    UserWarning
        Once per file, with a count, for skipped comment (``#``) and blank lines and
        for lines with fields after the tag.

    Examples
    --------
    >>> import io
    >>> from mapteach.runs.trec import read_run
    >>> read_run(io.BytesIO(b"1 Q0 007 1 2.5 bm25\\n1 Q0 7 2 1.5 bm25\\n"))
      query_id doc_id  score
    0        1    007    2.5
    1        1      7    1.5
    >>> read_run(io.StringIO("q1 Q0 d1 1 high bm25\\n"))
    Traceback (most recent call last):
    ValueError: <buffer>, line 1: score 'high' of query 'q1', document 'd1' is not a finite number.
    """
    return _load(source, "run")


# --- DataFrames and dicts ------------------------------------------------------------------


def _id(value: Any) -> str | None:
    """An identifier as a string: str as is, an integer as its digits, else None."""
    if isinstance(value, str):
        return value
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        return str(int(value))
    return None


def _ids(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Identifiers (an object array) as strings, and which are missing or of a wrong type."""
    if pd.api.types.infer_dtype(values, skipna=False) == "string":
        return values, np.zeros(values.shape, bool)
    texts = np.array([_id(value) for value in values.tolist()], dtype=object)
    return texts, pd.isna(texts)


def _id_error(source: str, where: str, column: str, value: Any) -> Exception:
    """The error for a missing id (ValueError) or one of the wrong type (TypeError)."""
    value = value.item() if isinstance(value, np.generic) else value  # np.float64(1.0) -> 1.0
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return ValueError(
            f"{source}, {where}: {column} is missing (NaN or None); every row needs a query_id "
            "and a doc_id."
        )
    return TypeError(
        f"{source}, {where}: {column} {value!r} is a {type(value).__name__}; identifiers "
        "are strings, as in TREC files (an integer is taken as its digits, but a float "
        "such as 1.0 cannot be told from '1')."
    )


def _id_column(column: pd.Series, name: str, source: str) -> Any:
    """A DataFrame's id column as str (categorical kept), or the error naming the row."""
    categorical = isinstance(column.dtype, pd.CategoricalDtype)
    values = (column.cat.categories if categorical else column).to_numpy(dtype=object)
    texts, bad = _ids(values)
    if categorical:
        codes = column.cat.codes.to_numpy()
        bad = (codes < 0) | bad[codes]
    if bad.any():
        row = int(np.argmax(bad))
        raise _id_error(source, f"row {column.index[row]}", name, column.iloc[row])
    if texts is values:
        return column.array
    if not categorical:
        return texts
    if len(set(texts)) < len(texts):
        raise ValueError(
            f"{source}: the {name} categories {list(values)!r} are not distinct as strings."
        )
    return column.cat.rename_categories(list(texts)).array


def _from_frame(data: pd.DataFrame, value: str, what: str) -> tuple[pd.DataFrame, _Where]:
    missing = {"query_id", "doc_id", value} - set(data.columns)
    if missing:
        raise ValueError(
            f"the {what} DataFrame needs columns query_id, doc_id and {value}; missing "
            f"{', '.join(sorted(missing))}."
        )
    source = f"the {what}"
    frame = pd.DataFrame(
        {column: _id_column(data[column], column, source) for column in ("query_id", "doc_id")}
    )
    index = data.index
    where = _Where(source, what, "row", lambda at: index[at].tolist())
    raw = data[value]
    numeric = isinstance(raw.dtype, np.dtype) and raw.dtype.kind in "biuf"
    frame[value] = raw.to_numpy() if numeric else raw.to_numpy(dtype=object)
    return frame, where


def _from_dict(data: Mapping, value: str, what: str) -> tuple[pd.DataFrame, _Where]:
    queries: list[Any] = []
    docs: list[Any] = []
    items: list[Any] = []
    for query, ranked in data.items():
        if not isinstance(ranked, Mapping):
            raise TypeError(
                f"{what} dict: query {query!r} must map to a dict of document id -> "
                f"{value}, as in pytrec_eval; got {type(ranked).__name__}."
            )
        queries += [query] * len(ranked)
        docs += ranked.keys()
        items += ranked.values()
    frame = pd.DataFrame({value: pd.Series(items, dtype=object)})
    for column, keys in (("query_id", queries), ("doc_id", docs)):
        texts, bad = _ids(pd.Series(keys, dtype=object).to_numpy())
        if bad.any():
            row = int(np.argmax(bad))
            where = f"query {queries[row]!r}" + (f", document {docs[row]!r}" * (column == "doc_id"))
            raise _id_error(f"the {what} dict", where, column, keys[row])
        frame.insert(len(frame.columns) - 1, column, texts)
    return frame, _Where(f"the {what}", what, "row", lambda at: at.tolist())


def _numbers(raw: np.ndarray, integer: bool) -> tuple[np.ndarray, list[int]]:
    """A value column as numbers, and the rows that break the rule (the first few at least)."""
    if raw.dtype == object:  # Python numbers alone cast exactly; anything else one by one
        kind = pd.api.types.infer_dtype(raw, skipna=False)
        exact = ("integer", "floating") + (() if integer else ("mixed-integer-float",))
        if kind in exact:
            with contextlib.suppress(OverflowError):  # an int beyond int64: one by one, below
                raw = raw.astype(np.int64 if kind == "integer" else np.float64)
    if raw.dtype != object:
        return raw, np.flatnonzero(invalid_numbers(raw, integer)).tolist()
    parsed = [_number(item, integer) for item in raw.tolist()]
    bad = [row for row, (number, _) in enumerate(parsed) if number is None]
    return (raw if bad else np.array([number for number, _ in parsed])), bad


def _finish(frame: pd.DataFrame, where: _Where, what: str) -> pd.DataFrame:
    """Check and convert a frame's value column, and reject duplicate documents."""
    value, integer = _KINDS[what][1], what == "qrels"
    if frame.empty:
        raise ValueError(f"the {what} holds no rows.")
    raw = frame[value].to_numpy()
    checked, bad = _numbers(raw, integer)
    if bad:
        row = bad[0]
        item = raw[row]
        shown = repr(item) if isinstance(item, str) else str(item)
        rule = _number(item, integer)[1]
        raise where.value(row, shown, frame["query_id"][row], frame["doc_id"][row], rule)
    frame[value] = checked.astype(np.int64 if integer else np.float64)
    query, doc = (pd.factorize(frame[column])[0] for column in ("query_id", "doc_id"))
    _check_duplicates(query, doc, frame, where)
    return frame


def _is_source(data: Any) -> bool:
    return isinstance(data, (str, os.PathLike)) or hasattr(data, "read")


def _as(data: Any, what: str) -> pd.DataFrame:
    if _is_source(data):
        return _load(data, what)
    value = _KINDS[what][1]
    if isinstance(data, pd.DataFrame):
        frame, where = _from_frame(data, value, what)
    elif isinstance(data, Mapping):
        frame, where = _from_dict(data, value, what)
    else:
        raise TypeError(
            f"{what} must be a path, an open file, a DataFrame or a pytrec_eval-style dict; "
            f"got {type(data).__name__}."
        )
    return _finish(frame, where, what)


def as_qrels(data: Any) -> pd.DataFrame:
    """Qrels from a path, an open file, a DataFrame or a pytrec_eval-style dict.

    Parameters
    ----------
    data : path, file, DataFrame or dict
        A TREC qrels file (as :func:`read_qrels`), a DataFrame with columns
        ``query_id, doc_id, relevance``, or ``{query_id: {doc_id: grade}}``. Ids are
        strings (an integer is taken as its digits); grades integers within int64
        (``2.0`` is 2).

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``doc_id`` (str, or categorical of str as
        :func:`read_qrels` gives) and ``relevance`` (int64).

    Raises
    ------
    ValueError
        On a missing column or id (NaN, None), a grade that is not an integer within
        int64, or a document judged twice for one query: the message names the row
        (DataFrame) or the query and the document (dict).
    TypeError
        On an id that is neither a string nor an integer (e.g. the float 1.0).

    Examples
    --------
    >>> from mapteach.runs.trec import as_qrels
    >>> as_qrels({"q1": {"d1": 2, "007": 0}})
      query_id doc_id  relevance
    0       q1     d1          2
    1       q1    007          0
    >>> as_qrels({"q1": {"d1": 2**70}})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: the qrels, row 0: relevance 1180591620717411303424 of query 'q1', ... int64 ...
    """
    return _as(data, "qrels")


def as_run(data: Any) -> pd.DataFrame:
    """A run from a path, an open file, a DataFrame or a pytrec_eval-style dict.

    Parameters
    ----------
    data : path, file, DataFrame or dict
        A TREC run file (as :func:`read_run`), a DataFrame with columns
        ``query_id, doc_id, score``, or ``{query_id: {doc_id: score}}``. Ids are
        strings (an integer is taken as its digits); scores finite numbers within
        the 32-bit float range trec_eval uses.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``doc_id`` (str, or categorical of str as :func:`read_run`
        gives) and ``score`` (float64).

    Raises
    ------
    ValueError
        On a missing column or id, a score that is not finite or overflows, or a
        document listed twice for one query: the message names the row or the query
        and the document.
    TypeError
        On an id that is neither a string nor an integer.

    Examples
    --------
    >>> import pandas as pd
    >>> from mapteach.runs.trec import as_run
    >>> as_run({"q1": {"d1": 0.5, "d2": 1.5}})
      query_id doc_id  score
    0       q1     d1    0.5
    1       q1     d2    1.5
    >>> unnamed = pd.DataFrame({"query_id": ["q1", None], "doc_id": ["d1", "d2"], "score": [1, 2]})
    >>> as_run(unnamed)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: the run, row 1: query_id is missing (NaN or None); every row needs a query_id ...
    """
    return _as(data, "run")


def write_trec(frame: pd.DataFrame, path: str | os.PathLike, *, kind: str) -> Path:
    """Write qrels or a run in TREC format (used by the notebooks to make example files).

    Parameters
    ----------
    frame : pandas.DataFrame
        As :func:`read_qrels` or :func:`read_run` return.
    path : str or path-like
        Where to write.
    kind : {"qrels", "run"}
        The format; a run is written best score first per query, ranks from 1.

    Returns
    -------
    pathlib.Path
        The path written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from mapteach.runs.trec import read_run, write_trec
    >>> run = read_run(__import__("io").StringIO("q1 Q0 d1 1 2.0 x\\nq1 Q0 d2 2 1.0 x\\n"))
    >>> path = write_trec(run, pathlib.Path(tempfile.mkdtemp()) / "run.txt", kind="run")
    >>> print(path.read_text(), end="")
    q1 Q0 d1 1 2.0 mapteach
    q1 Q0 d2 2 1.0 mapteach
    """
    path = Path(path)
    frame = frame.astype({"query_id": str, "doc_id": str})
    if kind == "qrels":
        lines = frame["query_id"] + " 0 " + frame["doc_id"] + " " + frame["relevance"].astype(str)
    elif kind == "run":
        ordered = frame.sort_values(["query_id", "score"], ascending=[True, False], kind="stable")
        rank = ordered.groupby("query_id").cumcount() + 1
        lines = (
            ordered["query_id"]
            + " Q0 "
            + ordered["doc_id"]
            + " "
            + rank.astype(str)
            + " "
            + ordered["score"].astype(str)
            + " mapteach"
        )
    else:
        raise ValueError(f"kind must be 'qrels' or 'run'; got {kind!r}.")
    path.write_text("\n".join(lines) + "\n")
    return path
