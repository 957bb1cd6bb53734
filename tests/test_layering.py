"""The package's folders are its floors, and nothing imports upward.

metrics (numpy only) < runs, teaching (pandas, scipy, scikit-learn) < views (plots,
widgets) < cli. Every import statement in every module is read, including the ones
inside functions, so a lazy upward import fails too.
"""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import mapteach

PACKAGE = Path(mapteach.__file__).parent
GUI = {"matplotlib", "ipywidgets", "anywidget", "ipympl", "traitlets", "IPython", "PIL"}
HEAVY = {"pandas", "scipy", "sklearn", *GUI}

#: For each floor: the mapteach sub-packages it may import, and the third-party
#: top-level packages it must not import.
FLOORS: dict[str, tuple[set[str], set[str]]] = {
    "i18n": ({"i18n"}, {"numpy", *HEAVY}),
    "metrics": ({"i18n", "metrics"}, HEAVY),
    "runs": ({"i18n", "metrics", "runs"}, GUI),
    "teaching": ({"i18n", "metrics", "runs", "teaching"}, GUI),
    "views": ({"i18n", "metrics", "runs", "teaching", "views"}, set()),
}


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


def _floor(path: Path) -> str:
    return path.relative_to(PACKAGE).parts[0] if path.parent != PACKAGE else path.stem


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_upward_import(path):
    floor = _floor(path)
    allowed, banned = FLOORS.get(floor, ({*FLOORS, "cli"}, set()))
    for line, name in _imports(path):
        top, _, rest = name.partition(".")
        where = f"{path.relative_to(PACKAGE.parent)}:{line} imports {name}"
        if top == "mapteach":
            sub = rest.partition(".")[0]
            assert sub != "cli" or path.name == "__main__.py", f"{where}: nothing imports the CLI"
            assert floor == "__init__" or sub in allowed, f"{where}: an upward import"
        else:
            assert top not in banned, f"{where}: not allowed on floor {floor!r}"
            if floor == "metrics":
                assert top in {"numpy", *sys.stdlib_module_names}, f"{where}: metrics is numpy only"


def test_the_layering_check_sees_an_upward_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from mapteach.views.plots import plot_ap_bars\n")
    assert _imports(bad) == [(2, "mapteach.views.plots")]


def test_every_floor_is_a_folder():
    folders = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert folders == set(FLOORS)
    assert {_floor(path) for path in MODULES} == {*FLOORS, "__init__", "__main__", "cli"}


def test_top_level_reexports_point_at_the_defining_modules():
    for name, module in mapteach._EXPORTS.items():
        assert getattr(mapteach, name) is getattr(importlib.import_module(module), name)
    assert sorted([*mapteach._EXPORTS, "set_language"]) == mapteach.__all__
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = mapteach.nothing


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
    ],
)
def test_light_imports_load_no_pandas_plots_or_widgets(statement):
    assert not _loaded_after(statement) & HEAVY


def test_runs_and_teaching_load_no_plots_or_widgets():
    modules = [
        f"mapteach.{floor}.{p.stem}"
        for floor in ("runs", "teaching")
        for p in (PACKAGE / floor).glob("*.py")
    ]
    assert not _loaded_after("import " + ", ".join(modules)) & GUI
