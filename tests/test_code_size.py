"""Small modules with one job, short functions: no module over 600 lines, no function over 50.

A function's length is its body from its first statement to its last, docstring excluded.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "mapteach"
MODULE_LINES = 600
FUNCTION_LINES = 50
MODULES = sorted(PACKAGE.rglob("*.py"))


def function_lengths(source: str) -> list[tuple[str, int, int]]:
    """(name, line, body length) of every function and method in the source."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                body = body[1:] or body
            length = (body[-1].end_lineno or body[-1].lineno) - body[0].lineno + 1
            found.append((node.name, node.lineno, length))
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_and_functions_are_small(path):
    source = path.read_text(encoding="utf-8")
    assert len(source.splitlines()) <= MODULE_LINES, f"{path.name} is over {MODULE_LINES} lines"
    long = [
        f"{name} (line {line}): {n}"
        for name, line, n in function_lengths(source)
        if n > FUNCTION_LINES
    ]
    assert not long, f"functions over {FUNCTION_LINES} lines in {path.name}: {long}"


def test_a_function_is_measured_from_its_first_statement_to_its_last():
    source = 'def f():\n    """Doc."""\n    a = 1\n\n    return a\n'
    assert function_lengths(source) == [("f", 1, 3)]
