"""argparse speaks the workbook's language inside ``argparse_language`` only, from the catalogue."""

from __future__ import annotations

import argparse
import contextlib
import gettext
import io
import re

import pytest

from mapteach.i18n.argparse_messages import (
    ARGPARSE_MESSAGES,
    ARGPARSE_PLURALS,
    HelpFormatter,
    argparse_language,
)

#: Command lines typed wrongly, each meeting another of argparse's errors.
WRONG = [
    [],
    ["run", "--cutoff"],
    ["run", "--cutoff", "x"],
    ["run", "--format", "xml"],
    ["run", "--pair", "a"],
    ["run", "--more"],
    ["run", "--f", "json"],
    ["run", "--lenient", "--strict"],
    ["run", "--lenient=yes"],
]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mapteach", formatter_class=HelpFormatter)
    parser.add_argument("run")
    parser.add_argument("--cutoff", type=int)
    parser.add_argument("--format", choices=("table", "json"))
    parser.add_argument("--fields", nargs="+")
    parser.add_argument("--pair", nargs=2)
    parser.add_argument("--maybe", nargs="?")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--lenient", action="store_true")
    group.add_argument("--strict", action="store_true")
    return parser


def _error(parser: argparse.ArgumentParser, argv: list[str]) -> str:
    with contextlib.redirect_stderr(io.StringIO()) as stderr, pytest.raises(SystemExit):
        parser.parse_args(argv)
    return stderr.getvalue()


def test_every_message_argparse_shows_a_learner_is_marked(monkeypatch):
    asked: list[str] = []
    monkeypatch.setattr(argparse, "_", lambda message: asked.append(message) or message)
    monkeypatch.setattr(argparse, "ngettext", lambda one, many, n: asked.append(one) or many)
    parser = _parser()
    parser.format_help()
    for argv in WRONG:
        _error(parser, argv)
    marked = {*ARGPARSE_MESSAGES, *(singular for singular, _ in ARGPARSE_PLURALS)}
    assert sorted({m for m in asked if m} - marked) == []


#: The names a wrong command line's error quotes: the options, values and types.
NAMES = re.compile(
    r"\b(mapteach|run|cutoff|fields|format|xml|table|json|pair|maybe|more|lenient|strict|yes|int|f)\b",
    re.I,
)


@pytest.mark.parametrize("argv", WRONG, ids=" ".join)
def test_errors_are_the_catalogue_s_chinese(argv):
    with argparse_language("zh"):
        chinese = _error(_parser(), argv)
    usage, *_, error = chinese.splitlines()
    assert usage.startswith("用法：mapteach [-h]")
    assert error.startswith("mapteach：错误：")
    assert re.findall("[A-Za-z]{2,}", NAMES.sub("", error)) == []


def test_argparse_is_itself_again_after_the_block_even_after_an_error():
    with pytest.raises(RuntimeError), argparse_language("zh"):
        raise RuntimeError
    assert vars(argparse)["_"] is gettext.gettext
    assert vars(argparse)["ngettext"] is gettext.ngettext
    assert _parser().format_usage().startswith("usage: mapteach")
    assert "options:" in _parser().format_help()
