"""The glossary (术语表): each term's English name, its Chinese names, its formula, its notebook.

One home for the workbook's preferred Chinese terms. The catalogue and the Chinese
notebooks are checked against it (``tests/i18n/test_catalogue.py``): wherever an
English message names a term, its translation uses the preferred name or an
accepted one, and no translation, Chinese notebook or Chinese guide uses a name the
glossary rules out. Each term names
the notebook that defines it, and no earlier notebook uses it without a forward link
(``tests/notebooks/test_define_before_use.py``). The terms themselves are in
:mod:`mapteach.explain.glossary_terms`. Shown in ``16_glossary``.

>>> from mapteach.explain import GLOSSARY, glossary_table
>>> GLOSSARY["precision"].zh, GLOSSARY["precision"].zh_also
('精确率', ('查准率',))
>>> glossary_table().loc["MAP", "notebook"]
'04_mean_average_precision'
"""

from __future__ import annotations

from types import MappingProxyType

import pandas as pd

from mapteach.explain.glossary_terms import TERMS, Term
from mapteach.i18n import N_, check_language, get_language, tr

__all__ = ["GLOSSARY", "Term", "glossary_markdown", "glossary_table"]


#: The glossary, keyed by the term's short English name (read-only).
GLOSSARY = MappingProxyType(TERMS)
#: How the table names the notebook that defines a term (its number, no leading zero).
NOTEBOOK_NAME = N_("notebook {number}")


def glossary_table(*, lang: str | None = None) -> pd.DataFrame:
    """The glossary as a table, headers and notes in the current language (or ``lang``).

    Parameters
    ----------
    lang : {"en", "zh"}, optional
        Language of the headers, the formulas' words and the notes; the English names
        stay English.

    Returns
    -------
    pandas.DataFrame
        One row per term (index: the short English name) with its English name, the
        preferred Chinese name, other accepted names, the names ruled out, the formula
        (LaTeX, its words in ``lang``), the notebook that defines it and a note; in the
        order of the notebooks.

    Examples
    --------
    >>> table = glossary_table()
    >>> list(table.columns[:4])
    ['English name', 'preferred Chinese', 'also written', 'ruled out']
    >>> list(table.columns[4:])
    ['formula', 'notebook', 'note']
    >>> table.loc["recall", "also written"], table.loc["run", "ruled out"]
    ('查全率', '运行结果')
    >>> glossary_table(lang="zh").loc["AP"].iloc[:2].tolist()
    ['average precision (AP)', '平均精度']
    >>> list(table.index[:2])
    ['measure', 'P@k']
    >>> print(table.loc["recall", "formula"])
    $R@k = \\frac{\\text{relevant results in the top } k}{R}$
    >>> print(glossary_table(lang="zh").loc["recall", "公式"])
    $R@k = \\frac{\\text{前 } k \\text{ 位中的相关文档数}}{R}$
    """
    shown = get_language() if lang is None else check_language(lang)
    rows = {
        key: [
            term.english,
            term.zh,
            "、".join(term.zh_also),
            "、".join(term.zh_avoid),
            f"${term.formula_in(shown)}$",
            term.notebook,
            tr(term.note, lang=lang),
        ]
        for key, term in sorted(GLOSSARY.items(), key=lambda item: item[1].notebook)
    }
    headers = [
        tr("English name", lang=lang),
        tr("preferred Chinese", lang=lang),
        tr("also written", lang=lang),
        tr("ruled out", lang=lang),
        tr("formula", lang=lang),
        tr("notebook", lang=lang),
        tr("note", lang=lang),
    ]
    return pd.DataFrame.from_dict(rows, orient="index", columns=headers)


def glossary_markdown(*, lang: str | None = None) -> str:
    """The glossary as a Markdown table (formulas typeset, notebooks linked).

    For a notebook cell: ``IPython.display.Markdown(glossary_markdown())``. Links
    point at notebooks beside the one that shows the table, each named as the
    language names a notebook ("notebook 3", "第 3 本"); a formula's ``|`` is
    written ``\\vert`` so that it does not split the table's cell.

    Parameters
    ----------
    lang : {"en", "zh"}, optional
        Language of the headers, the names and the notes.

    Returns
    -------
    str

    Examples
    --------
    >>> print(glossary_markdown().splitlines()[0])
    | English name | preferred Chinese | also written | ruled out | formula | notebook | note |
    >>> "| recall | **召回率** | 查全率 |  |" in glossary_markdown()
    True
    >>> all(line.count("|") == 8 for line in glossary_markdown().splitlines())
    True
    >>> "[第 4 本](04_mean_average_precision.ipynb)" in glossary_markdown(lang="zh")
    True
    """
    table = glossary_table(lang=lang)
    lines = [
        "| " + " | ".join(table.columns) + " |",
        "|" + " --- |" * len(table.columns),
    ]
    for english, zh, also, avoid, formula, notebook, note in table.itertuples(index=False):
        name = tr(NOTEBOOK_NAME, lang=lang, number=int(notebook.split("_")[0]))
        link = f"[{name}]({notebook}.ipynb)"
        cell_formula = formula.replace("|", r"\vert ")  # a bare | would end the table cell
        cells = [english, f"**{zh}**", also, avoid, cell_formula, link, note]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
