"""The glossary as a table and as Markdown: in the notebooks' order, one cell per column."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mapteach.exercises.math_markup import tex_to_mathml
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


#: Names that stay Latin inside a Chinese formula: measures, trec_eval's own names and the
#: notation of IIR and the papers (rel_k, p_interp, Q0, Bin, MS_E, sign), not English prose.
FORMULA_NAMES = {
    "AP", "BH", "Bin", "DCG", "ERR", "GMAP", "Hit", "Holm", "IDCG", "IPrec", "Judged", "MAP",
    "MRR", "MS", "Q0", "RBP", "RR", "bpref", "eval", "infAP", "interp", "micro", "nDCG",
    "qrels", "rel", "sign", "trec", "11pt",
}  # fmt: skip


def _formula_words(formula: str) -> list[str]:
    """The Latin words (two letters or more: R is a symbol) a formula shows as text."""
    shown = re.findall(r"\\(?:text|mathrm|operatorname)\{([^{}]*)\}", formula)
    return [word for text in shown for word in re.findall(r"[A-Za-z0-9]{2,}", text)]


def test_the_chinese_formulas_show_no_english_words():
    english_words = {
        key: [word for word in _formula_words(formula) if word not in FORMULA_NAMES]
        for key, formula in glossary_table(lang="zh")["公式"].items()
    }
    assert {key: words for key, words in english_words.items() if words} == {}


def test_the_english_formulas_keep_their_words():
    table = glossary_table(lang="en")
    assert "top" in _formula_words(table.loc["P@k", "formula"])
    assert all(term.formula_in("en") == term.formula for term in GLOSSARY.values())
    translated = [key for key, term in GLOSSARY.items() if term.formula_zh]
    assert len(translated) >= 15
    for key in translated:
        assert table.loc[key, "formula"] != glossary_table(lang="zh").loc[key, "公式"], key


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_formula_can_be_typeset(lang):
    for key, formula in glossary_table(lang=lang).iloc[:, 4].items():
        assert formula.startswith("$") and formula.endswith("$"), key
        assert "<math" in tex_to_mathml(formula[1:-1]), key


def test_the_chinese_table_names_each_notebook_as_the_chinese_edition_does():
    lines = glossary_markdown(lang="zh").splitlines()[2:]
    links = [re.findall(r"\[([^\]]+)\]\(([^)]+)\)", line)[-1] for line in lines]
    for name, target in links:
        assert name == f"第 {int(target[:2])} 本", (name, target)
    english = glossary_markdown(lang="en").splitlines()[2:]
    assert all(
        f"[notebook {int(t[:2])}]({t})" in line for line, (_, t) in zip(english, links, strict=True)
    )
