"""TREC lines in bytes: checked, split into fields, the fields gathered, and their distinct
values.

numpy only: the path from a TREC file to scores imports no pandas.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from mapteach.i18n import N_, tr
from mapteach.runs.numbers import KEEP_FIRST_BYTES

_BLOCK = 1 << 17  # bytes split into fields at once: bounds the temporary arrays


_FIELD_ROWS = 1 << 14  # fields gathered at once


_LONG = 255  # field lengths are stored in a byte: this one stands for this long or more


_FIELD = re.compile(rb"[^ \t\n\v\f\r]+")  # a field: no C isspace() byte


_WIDE = 8  # fields longer than this many 8-byte words are handled as Python bytes


class LineFields:
    """Per line of a file: its field count, whether it is a comment, and where the wanted
    fields start (byte offsets) and how long they are (meaningless where they are absent).

    ``wanted`` are field numbers (0 for the first); ``hash_at_start`` says that only a
    ``#`` in a line's first byte starts a comment (qrels), not one after blanks (runs).
    The file readers (:mod:`mapteach.runs.trec`) gather the fields with
    :func:`gather_fields`.

    >>> lines = LineFields(b"q1 Q0 d1\\n# note\\n\\nq2 0 d22 1\\n", (0, 2), hash_at_start=True)
    >>> lines.count.tolist(), lines.comment.tolist()
    ([3, 2, 0, 4], [False, True, False, False])
    >>> lines.starts[1][[0, 3]].tolist(), lines.lengths[1][[0, 3]].tolist()  # d1 and d22
    ([6, 22], [2, 3])
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


def gather_fields(data: bytes, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The fields as NUL-padded fixed-width bytes (dtype S), or Python bytes if one is long.

    ``starts`` and ``lengths`` as :class:`LineFields` gives them. Gathered 8 bytes at a
    time, through an unaligned uint64 view with a 1-byte stride.

    >>> gather_fields(b"q1 Q0 d1 x", np.array([0, 6]), np.array([2, 2], np.uint8))
    array([b'q1', b'd1'], dtype='|S8')
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
            np.bitwise_and(
                column, KEEP_FIRST_BYTES.take(keep[:size], out=mask[:size]), out=out[here, word]
            )
    return out.view(f"S{8 * words}").ravel()


@dataclass(frozen=True)
class Ids:
    """Identifiers as integer codes into their distinct values, sorted as trec_eval sorts.

    ``labels`` are UTF-8 bytes (dtype ``S``), distinct and in byte order, which is
    ``strcmp``'s order and Python's code-point order of the decoded strings; ``codes``
    (int32 where they fit, else int64) give each row's label. Code order is therefore
    id order.

    >>> ids = sorted_ids(np.array([b"q2", b"q10", b"q2"], dtype="S8"))
    >>> ids.codes.tolist(), ids.labels.tolist(), ids.text(0)
    ([1, 0, 1], [b'q10', b'q2'], 'q2')
    """

    codes: np.ndarray
    labels: np.ndarray

    def text(self, row: int) -> str:
        """The id of row ``row``, as a string."""
        return bytes(self.labels[self.codes[row]]).decode()

    def strings(self) -> list[str]:
        """Every distinct id, as strings, in code order."""
        return [label.decode() for label in self.labels.tolist()]


def sorted_ids(texts: np.ndarray) -> Ids:
    """The codes and the sorted distinct values of fields (as :func:`gather_fields` gives).

    Fixed-width texts are sorted as big-endian 8-byte words, whose numeric order is
    their byte order; a run of equal values (a run's query ids) is sorted once.

    >>> ids = sorted_ids(np.array([b"doc-000012", b"doc-000002", b"doc-000012"], dtype="S16"))
    >>> ids.codes.tolist(), ids.labels.tolist()
    ([1, 0, 1], [b'doc-000002', b'doc-000012'])
    """
    if texts.dtype == object:  # fields too long for fixed width, as Python bytes
        labels, codes = np.unique(texts, return_inverse=True)
        return Ids(codes.ravel().astype(np.int64), np.array(labels.tolist(), dtype=bytes))
    if texts.dtype.itemsize % 8:
        texts = texts.astype(f"S{-(-texts.dtype.itemsize // 8) * 8}")
    words = texts.view("<u8").reshape(texts.size, -1)
    changes = np.flatnonzero((words[1:] != words[:-1]).any(axis=1)) + 1
    if changes.size < texts.size // 8:  # runs of equal values: one each
        heads = np.concatenate(([0], changes))
        ids = sorted_ids(texts[heads])
        return Ids(np.repeat(ids.codes, np.diff(heads, append=texts.size)), ids.labels)
    keys = words.byteswap()  # numeric order of the big-endian words is byte order
    order = np.argsort(keys[:, 0]) if keys.shape[1] == 1 else np.lexsort(keys.T[::-1])
    ordered = keys[order]
    del keys  # the temporaries go as soon as they are used: this bounds the peak memory
    new = np.empty(texts.size, bool)
    new[:1] = True
    np.any(ordered[1:] != ordered[:-1], axis=1, out=new[1:])
    del ordered
    code = np.int32 if texts.size < 2**31 else np.int64  # half the memory where they fit
    group = np.cumsum(new, dtype=code)
    group -= 1
    codes = np.empty(texts.size, code)
    codes[order] = group
    return Ids(codes, texts[order[new]])


def checked_bytes(data: bytes, name: str, file: str) -> bytes:
    """Decompress gzip data; reject byte-order marks, NUL bytes and invalid UTF-8.

    ``name`` is the source's, ``file`` what messages call it (``the run file``, translated).

    >>> checked_bytes(b"\\xef\\xbb\\xbfq1 0 d1 1\\n", "qrels.txt", "the qrels file")
    Traceback (most recent call last):
    ...
    ValueError: qrels.txt, line 1: the qrels file starts with a UTF-8 byte-order mark, which \
trec_eval would read as part of the first query id; save it without one.
    """
    if data[:2] == b"\x1f\x8b":
        import gzip  # only for gzip data: the import costs start-up time and memory
        import zlib

        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as error:
            raise ValueError(
                tr(
                    "{name}: {file} is gzip-compressed but cannot be decompressed ({error}).",
                    name=name,
                    file=file,
                    error=error,
                )
            ) from None
    for mark, message in (
        ((b"\xff\xfe", b"\xfe\xff"), _UTF16_MARK),
        ((b"\xef\xbb\xbf",), _UTF8_MARK),
    ):
        if data.startswith(mark):
            raise ValueError(tr(message, name=name, file=file))
    _check_text(data, name)
    return data


_UTF16_MARK = N_(
    "{name}, line 1: {file} starts with a UTF-16 byte-order mark; trec_eval reads bytes, so "
    "save it as UTF-8."
)
_UTF8_MARK = N_(
    "{name}, line 1: {file} starts with a UTF-8 byte-order mark, which trec_eval would read "
    "as part of the first query id; save it without one."
)


#: Python's reasons for a UTF-8 decoding error (``UnicodeDecodeError.reason``), shown translated.
UTF8_REASONS = (
    N_("invalid start byte"),
    N_("invalid continuation byte"),
    N_("unexpected end of data"),
)


def _check_text(data: bytes, name: str) -> None:
    """Reject NUL bytes and invalid UTF-8, naming the line."""
    nul = data.find(b"\0")
    if nul >= 0:
        raise ValueError(
            tr(
                "{name}, line {line}: a NUL byte, which trec_eval cannot read (is the file "
                "UTF-16? save it as UTF-8).",
                name=name,
                line=_line_of(data, nul),
            )
        )
    if not data.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ValueError(
                tr(
                    "{name}, line {line}: bytes {bytes} are not valid UTF-8 ({reason}); TREC "
                    "files are UTF-8 text.",
                    name=name,
                    line=_line_of(data, error.start),
                    bytes=repr(data[error.start : error.end]),
                    reason=tr(error.reason),
                )
            ) from None


def _line_of(data: bytes, offset: int) -> int:
    """The 1-based line holding a byte offset."""
    return data.count(b"\n", 0, offset) + 1
