"""Reading an input once, from wherever it comes: a path, an open file, standard input, gzip.

Standard library only.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable
from typing import IO, Any

Source = str | os.PathLike | IO[str] | IO[bytes]


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
