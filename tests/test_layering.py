"""The package's dependency graph, written once and held for every import of every module.

The package is organised by feature; the graph says which feature (or, where two
features need each other, which module) may import which. Every import statement in
every module is read, including the ones inside functions, so a lazy import that
breaks the graph fails too. Display libraries (plots, widgets) are allowed only in
modules whose name says they display something.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import mapteach

PACKAGE = Path(mapteach.__file__).parent
GUI = {"matplotlib", "ipywidgets", "anywidget", "traitlets", "IPython"}
HEAVY = {"pandas", "scipy", "sklearn", "statsmodels", "krippendorff", *GUI}
#: A module may import a display library only when its name says it displays something.
DISPLAY_NAME = re.compile(r"(^|_)(board|widgets?|plots|fonts|display)($|_)")
BOTTOM = {"i18n", "_lazy", "sources"}

#: The dependency graph: each part of the package (a feature package, a top-level module,
#: or one module where a feature needs part of another) and the parts it may import
#: besides itself and the bottom (``i18n``, ``_lazy``, ``sources``). ``cli`` may import
#: everything and nothing imports it; ``__init__`` re-exports from every feature.
GRAPH: dict[str, set[str]] = {
    "i18n": set(),
    "_lazy": set(),
    "sources": set(),
    "log": set(),
    "fonts": set(),
    "metrics": set(),
    "plots": {"fonts"},
    "runs": {"metrics"},
    "explain": {"metrics", "plots", "fonts"},
    "analysis": {"metrics", "runs", "explain", "plots", "fonts"},
    "exercises.mistakes": set(),
    "exercises.reading": set(),
    "exercises.answers": {"exercises.mistakes", "exercises.reading"},
    "exercises.mistakes_ranking": {"metrics", "explain", "exercises.mistakes"},
    "exercises.mistakes_precision": {"metrics", "exercises.mistakes", "exercises.mistakes_ranking"},
    "exercises.mistakes_map": {"metrics", "exercises.mistakes", "exercises.mistakes_ranking"},
    "exercises.mistakes_beyond": {
        "metrics",
        "explain",
        "exercises.mistakes",
        "exercises.mistakes_ranking",
    },
    "exercises.mistakes_graded": {"metrics", "exercises.mistakes"},
    "exercises.mistakes_pooling": {"metrics", "exercises.mistakes"},
    "exercises.mistakes_agreement": {"metrics", "exercises.mistakes"},
    "articles": {"metrics", "explain", "exercises.mistakes", "exercises.mistakes_ranking"},
    "offline": set(),
    "board": {"metrics", "explain", "articles", "plots", "fonts", "offline"},
    "judging": {"metrics", "runs", "explain", "log"},
    "classroom": {"log", "offline"},
    "exercises": {
        "metrics",
        "runs",
        "analysis",
        "explain",
        "articles",
        "board",
        "classroom",
        "offline",
    },
    "offline.site_runtime": {"offline", "board", "exercises", "classroom"},
}
#: Third-party packages each part must not import, beyond the display rule.
BANNED: dict[str, set[str]] = {
    "i18n": {"numpy", *HEAVY},
    "_lazy": {"numpy", *HEAVY},
    "sources": {"numpy", *HEAVY},
    "metrics": HEAVY,
}
#: The parts that use the standard library only.
STANDARD_LIBRARY_ONLY = {"i18n", "_lazy", "sources", "log"}
MODULES = sorted(PACKAGE.rglob("*.py"))


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}:{node.lineno}: use absolute imports"
            found.append((node.lineno, node.module or ""))
    return found


def _dotted(path: Path) -> str:
    """``board.ranking_board`` for mapteach/board/ranking_board.py, ``board`` for its __init__."""
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" and len(parts) > 1 else parts)


def _node(dotted: str) -> str:
    """The most specific part of the graph that ``dotted`` belongs to."""
    parts = dotted.split(".")
    for size in range(len(parts), 0, -1):
        if ".".join(parts[:size]) in GRAPH:
            return ".".join(parts[:size])
    raise AssertionError(f"mapteach.{dotted} is in no part of the dependency graph")


def _may_import(importer: str, imported: str) -> bool:
    """Whether the graph lets ``importer`` import ``imported`` (both relative to mapteach).

    A part may import itself and the bottom; a feature package's modules may import each
    other, but a module that is a part of its own (``exercises.answers``) imports only
    what its entry names, from its package too.
    """
    node, target = _node(importer), _node(imported)
    if imported.split(".")[0] in BOTTOM or target == node:
        return True
    if "." not in node and target.split(".")[0] == node:
        return True
    return any(imported == part or imported.startswith(part + ".") for part in GRAPH[node])


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_import_follows_the_graph(path):
    dotted = _dotted(path)
    for line, name in _imports(path):
        top, _, rest = name.partition(".")
        where = f"{path.relative_to(PACKAGE.parent)}:{line} imports {name}"
        if top == "mapteach":
            assert rest.partition(".")[0] != "cli" or dotted == "__main__", (
                f"{where}: nothing imports the CLI"
            )
            if dotted not in {"__init__", "__main__", "cli"} and rest:
                assert _may_import(dotted, rest), f"{where}: not in the dependency graph"
            continue
        if dotted in {"__init__", "__main__", "cli"}:
            continue
        node = _node(dotted)
        assert top not in BANNED.get(node, set()), f"{where}: not allowed in {node!r}"
        if top in GUI:
            assert DISPLAY_NAME.search(path.stem), f"{where}: a display library outside display"
        if node == "metrics":
            assert top in {"numpy", *sys.stdlib_module_names}, f"{where}: metrics is numpy only"
        if node in STANDARD_LIBRARY_ONLY:
            assert top in sys.stdlib_module_names, f"{where}: {node} is standard library only"


def test_the_layering_check_sees_an_import_against_the_graph(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from mapteach.board.ranking_board import RankingBoard\n")
    assert _imports(bad) == [(2, "mapteach.board.ranking_board")]
    assert not _may_import("metrics.average_precision", "board.ranking_board")
    assert not _may_import("articles.slips", "exercises.widgets")
    assert _may_import("articles.slips", "exercises.mistakes_ranking")
    assert not _may_import("exercises.answers", "exercises.widgets")
    assert not _may_import("exercises.mistakes_ranking", "exercises.factories_ap")
    assert _may_import("exercises.widgets", "exercises.answers")
    assert not DISPLAY_NAME.search("factories_ap") and DISPLAY_NAME.search("judging_board")


def test_every_module_is_in_the_graph():
    for path in MODULES:
        dotted = _dotted(path)
        if dotted not in {"__init__", "__main__", "cli"}:
            _node(dotted)
    packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert packages <= {part.split(".")[0] for part in GRAPH}


def test_the_graph_has_no_cycle():
    def reach(start: str, seen: set[str]) -> set[str]:
        for part in GRAPH[start]:
            if part not in seen:
                seen.add(part)
                reach(_node(part), seen)
        return seen

    for part in GRAPH:
        reached = reach(part, set())
        assert part not in reached, f"{part} reaches itself: {sorted(reached)}"


def test_top_level_reexports_point_at_public_paths():
    for name, module in mapteach._EXPORTS.items():
        assert module.count(".") <= 1 or module.startswith("mapteach.metrics"), module
        assert getattr(mapteach, name) is getattr(importlib.import_module(module), name)
    assert sorted([*mapteach._EXPORTS, "set_language"]) == mapteach.__all__
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = mapteach.nothing


FEATURES = sorted(
    p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists() and p.name != "metrics"
)


@pytest.mark.parametrize("feature", [f for f in FEATURES if f != "i18n"])
def test_each_feature_init_is_its_public_path(feature):
    package = importlib.import_module(f"mapteach.{feature}")
    assert package.__all__ == sorted(package.EXPORTS)
    for name, module in package.EXPORTS.items():
        value = getattr(package, name)
        assert value is getattr(importlib.import_module(f"mapteach.{feature}.{module}"), name)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = package.nothing


def _loaded_after(statement: str) -> set[str]:
    code = f"import json, sys\n{statement}\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return {name.partition(".")[0] for name in json.loads(out.stdout)}


@pytest.mark.parametrize(
    "statement",
    [
        "import mapteach",
        "import mapteach.metrics",
        "from mapteach import average_precision, parse_measure, eleven_point_average_precision",
        "import "
        + ", ".join(f"mapteach.metrics.{p.stem}" for p in (PACKAGE / "metrics").glob("*.py")),
        "import " + ", ".join(f"mapteach.{feature}" for feature in FEATURES),
    ],
)
def test_light_imports_load_no_pandas_plots_or_widgets(statement):
    assert not _loaded_after(statement) & HEAVY


def _displays(dotted: str, seen: set[str] | None = None) -> bool:
    """Whether the module imports a display library, directly or through another module."""
    seen = set() if seen is None else seen
    path = PACKAGE.joinpath(*dotted.split(".")).with_suffix(".py")
    if any(name.partition(".")[0] in GUI for _, name in _imports(path)):
        return True
    for _, name in _imports(path):
        inner = name.removeprefix("mapteach.")
        if name.startswith("mapteach.") and inner not in seen:
            seen.add(inner)
            target = PACKAGE.joinpath(*inner.split("."))
            if target.with_suffix(".py").exists() and _displays(inner, seen):
                return True
    return False


def test_modules_that_display_nothing_load_no_plots_or_widgets():
    quiet = [
        f"mapteach.{_dotted(path)}"
        for path in MODULES
        if path.stem not in {"__init__", "__main__", "cli"} and not _displays(_dotted(path))
    ]
    assert "mapteach.analysis.compare" in quiet and "mapteach.judging.annotator_agreement" in quiet
    assert not _loaded_after("import " + ", ".join(quiet)) & GUI
