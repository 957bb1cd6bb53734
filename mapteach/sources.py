"""Reading an input once, from wherever it comes: a path, an open file, standard input, gzip.

Standard library only. :func:`source_name` says how messages name an input and
:func:`read_bytes` reads all of it, once; the TREC readers (:mod:`mapteach.runs.trec`)
and the append-only log (:mod:`mapteach.log`) read through them. :func:`read_json`
reads the JSON data files (the guideline, the judging set, the articles' data).
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterable
from typing import IO, Any

from mapteach.i18n import tr

__all__ = ["Source", "read_bytes", "read_json", "source_name"]

Source = str | os.PathLike | IO[str] | IO[bytes]


# --- reading the bytes -------------------------------------------------------------------


def source_name(source: Any) -> str:
    """How messages name a source: its path or name, and where reading began if not at 0.

    Parameters
    ----------
    source : path or file object
        A path (``str`` or path-like) or an open file, text or binary.

    Returns
    -------
    str
        The path; else the file's ``name`` (a descriptor number or no name at all
        said so), followed by ``(from position N)`` when the file is not at its start.

    Examples
    --------
    >>> import io, pathlib
    >>> source_name(pathlib.Path("runs") / "bm25.txt") == str(pathlib.Path("runs/bm25.txt"))
    True
    >>> buffer = io.BytesIO(b"q1 0 d1 1\\n")
    >>> source_name(buffer)
    '<buffer>'
    >>> _ = buffer.read(3)
    >>> source_name(buffer)
    '<buffer> (from position 3)'
    """
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
    return (
        tr("{name} (from position {position})", name=name, position=position) if position else name
    )


def read_bytes(
    source: Any, name: str, what: str, *, file_format: str, missing_ok: bool = False
) -> bytes:
    """Every byte of the source, read once: a path whole, a file from its position on.

    Parameters
    ----------
    source : path or file object
        A path, or an open file (binary, or text, which is encoded as UTF-8).
    name : str
        How messages name the source (see :func:`source_name`).
    what : str
        What kind of file it is, in the current language, for messages
        (``"qrels"``: "no such qrels file").
    file_format : str
        The format's name, for messages about text that is not UTF-8
        (``"TREC"``: "TREC files are UTF-8 text").
    missing_ok : bool, default False
        A path that does not exist holds no bytes, instead of being an error.

    Returns
    -------
    bytes

    Raises
    ------
    ValueError
        Naming the source, if it does not exist, is a folder or cannot be read; naming
        its line too, if a text file's text is not UTF-8 (or cannot be written as UTF-8).
    TypeError
        If the file's ``read()`` returns neither bytes nor text.

    Examples
    --------
    >>> import io, pathlib, tempfile
    >>> read_bytes(io.StringIO("平均精度\\n"), "<text>", "run", file_format="TREC")
    b'\\xe5\\xb9\\xb3\\xe5\\x9d\\x87\\xe7\\xb2\\xbe\\xe5\\xba\\xa6\\n'
    >>> missing = pathlib.Path(tempfile.mkdtemp()) / "none.txt"
    >>> read_bytes(missing, "none.txt", "run", file_format="TREC", missing_ok=True)
    b''
    >>> read_bytes(missing, "none.txt", "run", file_format="TREC")
    Traceback (most recent call last):
    ...
    ValueError: none.txt: no such run file.
    """
    try:
        if isinstance(source, (str, os.PathLike)):
            with open(source, "rb") as file:
                return file.read()
        if isinstance(source, io.TextIOBase):
            return _encode(_text_lines(source, name, file_format), name, file_format)
        data = source.read()
    except FileNotFoundError:
        if missing_ok and isinstance(source, (str, os.PathLike)):
            return b""
        raise ValueError(tr("{name}: no such {what} file.", name=name, what=what)) from None
    except IsADirectoryError:
        raise ValueError(
            tr("{name}: is a directory, not a {what} file.", name=name, what=what)
        ) from None
    except OSError as error:
        raise ValueError(
            tr("{name}: cannot read the {what} file ({error}).", name=name, what=what, error=error)
        ) from None
    if isinstance(data, str):
        return _encode(data, name, file_format)
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    raise TypeError(
        tr(
            "{name}: read() returned {kind}, not bytes or str.",
            name=name,
            kind=type(data).__name__,
        )
    )


def _text_lines(source: Iterable[str], name: str, file_format: str) -> str:
    """A text stream's text, line by line, so that a decoding error names its line.

    A text stream decodes a chunk only when its pending text holds no whole line, so
    the lines returned so far plus the newlines of the chunk before the bad byte give
    the line of the bad byte.
    """
    lines: list[str] = []
    try:
        lines.extend(source)
    except UnicodeDecodeError as error:
        raise ValueError(
            tr(
                "{name}, line {line}: bytes {bad!r} are not valid {encoding} ({reason}); "
                "{file_format} files are UTF-8 text.",
                name=name,
                line=len(lines) + 1 + error.object[: error.start].count(b"\n"),
                bad=error.object[error.start : error.end],
                encoding=error.encoding,
                reason=error.reason,
                file_format=file_format,
            )
        ) from None
    return "".join(lines)


def _encode(text: str, name: str, file_format: str) -> bytes:
    """Text as UTF-8 bytes; what cannot be encoded (a lone surrogate) names its line."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as error:  # lone surrogates, as surrogateescape leaves them
        raise ValueError(
            tr(
                "{name}, line {line}: {text!r} cannot be written as UTF-8; "
                "{file_format} files are UTF-8 text.",
                name=name,
                line=text.count("\n", 0, error.start) + 1,
                text=text[error.start : error.end],
                file_format=file_format,
            )
        ) from None


def read_json(path: str | os.PathLike[str], name: str | None = None) -> Any:
    """The JSON document in the file at ``path``; errors name the file (``name`` or the path).

    Raises
    ------
    ValueError
        If the file cannot be read or is not JSON; a syntax error names its line.

    Examples
    --------
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> with open(os.path.join(folder, "a.json"), "w", encoding="utf-8") as file:
    ...     _ = file.write('{"grades": [0, 1]}')
    >>> read_json(os.path.join(folder, "a.json"))
    {'grades': [0, 1]}
    >>> with open(os.path.join(folder, "b.json"), "w", encoding="utf-8") as file:
    ...     _ = file.write('{"grades": [0, 1}')
    >>> read_json(os.path.join(folder, "b.json"), "b.json")
    Traceback (most recent call last):
    ...
    ValueError: b.json, line 1: not JSON (Expecting ',' delimiter).
    """
    name = os.fsdecode(path) if name is None else name
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except OSError as error:
        raise ValueError(
            tr("{name}: cannot read the file ({reason}).", name=name, reason=error.strerror)
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(
            tr(
                "{name}, line {line}: not JSON ({reason}).",
                name=name,
                line=error.lineno,
                reason=error.msg,
            )
        ) from None
