"""Notebooks, README and the instructor guide import only from public paths.

A public path is ``mapteach`` itself or a package's ``__init__`` (``mapteach.board``,
``mapteach.metrics``, ...), never a module inside a package: a module can then move
inside its feature without breaking a notebook of either edition.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
PACKAGE = ROOT / "mapteach"
NOTEBOOKS = sorted((ROOT / "notebooks").rglob("*.ipynb"))
DOCS = [ROOT / "README.md", *sorted((ROOT / "instructor").glob("*.md"))]
#: Python in Markdown: fenced code blocks and doctest lines.
FENCE = re.compile(r"^```(?:python|py)\n(.*?)^```", re.S | re.M)
DOCTEST = re.compile(r"^\s*(?:>>>|\.\.\.) ?(.*)$", re.M)


def public_paths() -> set[str]:
    """``mapteach`` and every package of it."""
    packages = {p.parent for p in PACKAGE.rglob("__init__.py")}
    return {".".join(p.relative_to(ROOT).parts) for p in packages}


def _modules_imported(source: str) -> list[tuple[int, str]]:
    """(line, module) of every ``mapteach`` import in Python source (IPython magics dropped)."""
    lines = ["" if line.lstrip().startswith(("%", "!")) else line for line in source.split("\n")]
    found = []
    for node in ast.walk(ast.parse("\n".join(lines))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
    return [(line, name) for line, name in found if name.split(".")[0] == "mapteach"]


def _notebook_code(path: Path) -> list[tuple[str, str]]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [
        (f"cell {index}", "".join(cell["source"]))
        for index, cell in enumerate(cells)
        if cell["cell_type"] == "code"
    ]


def _markdown_code(path: Path) -> list[tuple[str, str]]:
    text = path.read_text(encoding="utf-8")
    blocks = [
        (f"block {n}", "\n".join(DOCTEST.findall(block)) if ">>>" in block else block)
        for n, block in enumerate(FENCE.findall(text))
    ]
    doctest = "\n".join(DOCTEST.findall(text))
    return [*blocks, ("doctest lines", doctest)]


def _deep_imports(where: str, source: str) -> list[str]:
    allowed = public_paths()
    imported = _modules_imported(source)
    return [f"{where}, line {line}: {name}" for line, name in imported if name not in allowed]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_notebook_code_imports_only_public_paths(path):
    deep = [bad for where, code in _notebook_code(path) for bad in _deep_imports(where, code)]
    assert not deep, f"{path.name} imports from inside a package: {deep}"


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_import_only_public_paths(path):
    deep = [bad for where, code in _markdown_code(path) for bad in _deep_imports(where, code)]
    assert not deep, f"{path.name} imports from inside a package: {deep}"


def test_markdown_code_is_found_block_by_block():
    text = "Prose.\n\n```python\nimport mapteach.board.list_widget\n```\n\nMore prose.\n"
    blocks = FENCE.findall(text)
    assert blocks == ["import mapteach.board.list_widget\n"]
    assert _deep_imports("block 0", blocks[0])


def test_the_check_sees_a_deep_import():
    assert _deep_imports("cell 1", "from mapteach.board.ranking_board import RankingBoard")
    assert _deep_imports("cell 1", "import mapteach.explain.ap_trace")
    public = "from mapteach.board import RankingBoard\n%matplotlib inline"
    assert not _deep_imports("cell 1", public)
    assert {"mapteach", "mapteach.board", "mapteach.metrics"} <= public_paths()
