"""The registry: each measure declared once, and the docs generated from the declarations."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

import mapteach
from mapteach.metrics import REGISTRY, measures_markdown
from mapteach.metrics.registry import _DECLARATIONS, SPELLINGS, TREC_EVAL_NAMES, _index

PACKAGE = Path(mapteach.__file__).parent
README = PACKAGE.parent / "README.md"
HEADER = "| measure | trec_eval name | per query | over queries |"

#: trec_eval's names, written out here rather than read from the registry.
TREC_EVAL = {
    "map": "AP",
    "map_cut": "AP",
    "P": "P",
    "recall": "R",
    "recip_rank": "RR",
    "ndcg": "nDCG",
    "ndcg_cut": "nDCG",
    "success": "Success",
    "Rprec": "Rprec",
    "bpref": "Bpref",
    "num_ret": "NumRet",
    "num_rel": "NumRel",
    "num_rel_ret": "NumRelRet",
    "gm_map": "GMAP",
    "set_P": "SetP",
    "set_recall": "SetR",
    "set_F": "SetF",
    "iprec_at_recall": "IPrec",
    "11pt_avg": "ElevenPt",
    "Rprec_mult": "RprecMult",
    "infAP": "infAP",
    "gm_bpref": "GMBpref",
    "num_q": "NumQ",
}

#: Everyday words that are also trec_eval names, and what else they mean in the package,
#: so that outside the measure machinery (MACHINERY) they may appear in other modules.
HOMONYMS = {
    "map": "the machine key of a MAP column, and pytrec_eval's and ranx's name for AP",
    "recall": "the recall axis and column of a precision-recall curve, and a glossary term",
    "ndcg": "the key of nDCG's value in a trace table's attrs",
}
#: Where a second table of measure names would go: every one of them is checked.
MACHINERY = ("metrics/", "runs/", "cli.py", "__init__.py", "__main__.py")
#: Assignments that list Python names (``bpref`` the function), not measure names.
NAME_LISTS = {"__all__", "EXPORTS", "_EXPORTS"}


def string_literals(tree: ast.AST) -> set[str]:
    """Every string constant in the tree, but those in ``__all__`` and export tables."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        if any(isinstance(t, ast.Name) and t.id in NAME_LISTS for t in targets):
            skipped |= {id(inner) for inner in ast.walk(node)}
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skipped
    }


def declared_trec_eval_names(tree: ast.AST) -> set[str]:
    """The ``trec_eval=`` and ``trec_eval_cut=`` strings of the ``Declaration(...)`` calls."""
    return {
        keyword.value.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Declaration"
        for keyword in node.keywords
        if keyword.arg in ("trec_eval", "trec_eval_cut") and isinstance(keyword.value, ast.Constant)
    }


@functools.cache
def package_modules() -> tuple[tuple[str, ast.AST, frozenset[str]], ...]:
    """(path inside the package, syntax tree, string literals) of every module, read once."""
    modules = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules.append(
            (path.relative_to(PACKAGE).as_posix(), tree, frozenset(string_literals(tree)))
        )
    return tuple(modules)


def modules_holding(name: str) -> list[tuple[str, ast.AST]]:
    """The modules that write ``name`` as a string literal (homonyms: the machinery only)."""
    return [
        (where, tree)
        for where, tree, literals in package_modules()
        if name in literals and (name not in HOMONYMS or where.startswith(MACHINERY))
    ]


def test_the_trec_eval_names_written_here_are_the_declared_ones():
    assert {name: d.name for name, (d, _) in TREC_EVAL_NAMES.items()} == TREC_EVAL


@pytest.mark.parametrize("name", sorted(TREC_EVAL))
def test_each_trec_eval_name_is_written_in_one_module_its_declaration(name):
    modules = modules_holding(name)
    where = [module for module, _ in modules]
    assert len(modules) == 1, (
        f"trec_eval's {name!r} is written in {where}; write a measure's names only in its "
        "declaration and read them from mapteach.metrics.registry elsewhere."
    )
    assert name in declared_trec_eval_names(modules[0][1]), f"{where[0]} does not declare {name!r}"


def test_the_literal_scan_sees_names_and_skips_export_lists():
    tree = ast.parse('__all__ = ["bpref"]\nx = {"num_ret": 1}\nDeclaration(trec_eval="map")\n')
    assert string_literals(tree) == {"num_ret", "map"}
    assert declared_trec_eval_names(tree) == {"map"}


def test_one_declaration_per_name_and_a_spelling_names_one_measure():
    assert list(REGISTRY) == [d.name for d in _DECLARATIONS]
    assert all(SPELLINGS[d.name] is d for d in _DECLARATIONS)
    with pytest.raises(ValueError, match=r"two measures are declared with the alias 'MAP'"):
        _index([("MAP", 1), ("MAP", 2)], "alias")


def readme_table() -> str:
    lines = README.read_text(encoding="utf-8").splitlines()
    start = lines.index(HEADER)
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("|")), len(lines))
    return "\n".join(lines[start:end])


def test_the_readme_measure_table_is_generated_from_the_declarations():
    assert readme_table() == measures_markdown(), (
        "README.md's measure table is not what the declarations generate. Regenerate it: "
        f"replace the table headed {HEADER!r} in README.md with the output of\n"
        '  .venv/bin/python -c "from mapteach.metrics import measures_markdown; '
        'print(measures_markdown())"'
    )


#: README's rows as they should read: measure, trec_eval name, over queries.
ROWS = [
    ("`AP`, `AP@k` (also `MAP`, `MAP@k`)", "`map`, `map_cut.k`", "mean"),
    ("`P@k`", "`P.k`", "mean"),
    ("`R@k`", "`recall.k`", "mean"),
    ("`RR`, `RR@k` (also `MRR`, `MRR@k`)", "`recip_rank`", "mean"),
    ("`nDCG`, `nDCG@k`", "`ndcg`, `ndcg_cut.k`", "mean"),
    ("`ERR`, `ERR@k`", "—", "mean"),
    ("`RBP`, `RBP@k`", "—", "mean"),
    ("`Success@k` (also `Hit@k`)", "`success.k`", "mean"),
    ("`Rprec` (also `RPrec`)", "`Rprec`", "mean"),
    ("`Bpref` (also `BPref`)", "`bpref`", "mean"),
    ("`Judged`, `Judged@k`", "—", "mean"),
    ("`NumRet`", "`num_ret`", "sum"),
    ("`NumRel`", "`num_rel`", "sum"),
    ("`NumRelRet`", "`num_rel_ret`", "sum"),
    ("`GMAP`, `GMAP@k`", "`gm_map`", "exp(mean(log(max(value, 1e-5))))"),
    ("`SetP`", "`set_P`", "mean"),
    ("`SetR`", "`set_recall`", "mean"),
    ("`SetF`", "`set_F`", "mean"),
    ("`IPrec@k`", "`iprec_at_recall.k`", "mean"),
    ("`ElevenPt`", "`11pt_avg`", "mean"),
    ("`RprecMult@k`", "`Rprec_mult.k`", "mean"),
    ("`infAP`", "`infAP`", "mean"),
    ("`GMBpref`", "`gm_bpref`", "exp(mean(log(max(value, 1e-5))))"),
    ("`NumQ`", "`num_q`", "sum"),
]


def test_the_table_has_one_row_per_measure_with_its_names_and_combination():
    cells = [row.strip("| ").split(" | ") for row in measures_markdown().splitlines()[2:]]
    assert [(name, trec_eval, combine) for name, trec_eval, _, combine in cells] == ROWS
    assert [help_text for _, _, help_text, _ in cells] == [d.description for d in REGISTRY.values()]
