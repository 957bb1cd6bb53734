"""Reading an input once: how a source is named, and every byte of it or an error naming it."""

from __future__ import annotations

import io
import os
import re

import pytest

from mapteach.i18n import language
from mapteach.sources import read_bytes, source_name


def _read(source: object, **options: object) -> bytes:
    return read_bytes(source, "in.txt", "run", file_format="TREC", **options)  # type: ignore[arg-type]


def test_a_source_is_named_by_its_path_or_name_and_where_reading_began(tmp_path):
    path = tmp_path / "run.txt"
    path.write_bytes(b"q1 Q0 d1 1 3 t\n")
    assert source_name(path) == str(path) == source_name(str(path))
    with open(path, "rb") as file:
        assert source_name(file) == str(path)
        file.read(3)
        assert source_name(file) == f"{path} (from position 3)"
    fd = os.open(path, os.O_RDONLY)
    with open(fd, "rb") as file:
        assert source_name(file) == f"<file descriptor {fd}>"
    named = io.BytesIO()
    named.name = os.fsencode(path)  # type: ignore[attr-defined]
    assert source_name(named) == str(path)
    assert source_name(io.StringIO("x")) == "<buffer>"


def test_every_byte_is_read_once_from_where_a_file_stands(tmp_path):
    path = tmp_path / "run.txt"
    path.write_bytes(b"q1 Q0 d1 1 3 t\n")
    assert _read(path) == _read(str(path)) == b"q1 Q0 d1 1 3 t\n"
    with open(path, "rb") as file:
        file.read(3)
        assert _read(file) == b"Q0 d1 1 3 t\n"
        assert _read(file) == b""
    assert _read(io.StringIO("平均\n")) == "平均\n".encode()

    class Chunk:
        def read(self) -> bytearray:
            return bytearray(b"abc")

    assert _read(Chunk()) == b"abc"


def test_a_missing_path_is_an_error_unless_missing_is_ok(tmp_path):
    missing = tmp_path / "none.txt"
    assert _read(missing, missing_ok=True) == b""
    with pytest.raises(ValueError, match=r"^in\.txt: no such run file\.$"):
        _read(missing)
    with pytest.raises(ValueError, match=r"^in\.txt: is a directory, not a run file\.$"):
        _read(tmp_path, missing_ok=True)
    with language("zh"), pytest.raises(ValueError, match=r"^in\.txt：没有这个 run 文件。$"):
        _read(missing)


def test_text_that_is_not_utf8_names_its_line_and_the_format():
    stream = io.TextIOWrapper(io.BytesIO(b"ok\nok\nbad \xff\n"), encoding="utf-8")
    message = (
        r"^in\.txt, line 3: bytes b'\\xff' are not valid utf-8 .*; TREC files are UTF-8 text\.$"
    )
    with pytest.raises(ValueError, match=message):
        _read(stream)
    with pytest.raises(ValueError, match=re.escape("in.txt, line 2: '\\ud800' cannot be written")):
        _read(io.StringIO("ok\n\ud800\n"))


def test_a_read_that_returns_neither_bytes_nor_text_is_a_type_error():
    class Odd:
        def read(self) -> int:
            return 7

    with pytest.raises(TypeError, match=r"^in\.txt: read\(\) returned int, not bytes or str\.$"):
        _read(Odd())
