"""The glossary as a table and as Markdown: in the notebooks' order, one cell per column."""

from __future__ import annotations

import re
from pathlib import Path

from mapteach.explain.glossary import GLOSSARY, glossary_markdown, glossary_table

NOTEBOOKS = Path(__file__).parents[2] / "notebooks"


def test_the_rows_follow_the_notebooks():
    order = sorted(path.stem for path in NOTEBOOKS.glob("*.ipynb"))
    shown = [order.index(notebook) for notebook in glossary_table()["notebook"]]
    assert shown == sorted(shown)
    assert sorted(glossary_table().index) == sorted(GLOSSARY)


def test_every_markdown_row_has_seven_cells_and_links_an_existing_notebook():
    lines = glossary_markdown().splitlines()
    assert len(lines) == len(GLOSSARY) + 2
    for line in lines:
        assert line.count("|") == 8, line
    for target in re.findall(r"\]\(([^)]+)\)", "\n".join(lines)):
        assert (NOTEBOOKS / target).exists(), target


def test_a_formula_keeps_its_bars_as_vert():
    formula = GLOSSARY["MAP"].formula
    assert "|" in formula
    assert f"${formula.replace('|', chr(92) + 'vert ')}$" in glossary_markdown()


def test_the_chinese_table_speaks_chinese():
    table = glossary_table(lang="zh")
    assert all(re.search(r"[\u4e00-\u9fff]", header) for header in table.columns)
    assert table.loc["nDCG"].iloc[0] == GLOSSARY["nDCG"].english  # the English name stays
    assert re.search(r"[\u4e00-\u9fff]", table.loc["nDCG"].iloc[1])


def test_every_term_shows_its_english_name_and_the_names_it_rules_out():
    table = glossary_table(lang="zh")
    for key, term in GLOSSARY.items():
        assert table.loc[key].iloc[0] == term.english
        assert table.loc[key].iloc[3] == "、".join(term.zh_avoid)
