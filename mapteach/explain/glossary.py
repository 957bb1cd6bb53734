"""The glossary (术语表): each term's Chinese names as used in practice, its formula, its notebook.

One home for the workbook's preferred Chinese terms. The catalogue and the Chinese
notebooks are checked against it (``tests/test_glossary_terms.py``): wherever an
English message names a term, its translation uses the preferred name or an
accepted one, and no translation uses a name the glossary rules out.
Introduced in ``16_glossary``.

>>> from mapteach.explain import GLOSSARY, glossary_table
>>> GLOSSARY["precision"].zh, GLOSSARY["precision"].zh_also
('精确率', ('查准率',))
>>> glossary_table().loc["MAP", "notebook"]
'04_mean_average_precision'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType

import pandas as pd

from mapteach.i18n import N_, tr

__all__ = ["GLOSSARY", "Term", "glossary_markdown", "glossary_table"]


@dataclass(frozen=True)
class Term:
    """A term of the glossary.

    Attributes
    ----------
    english : str
        Its English name (a catalogue message).
    zh : str
        The preferred Chinese name, used throughout the Chinese edition.
    zh_also : tuple of str
        Other Chinese names a reader meets and the workbook accepts.
    zh_avoid : tuple of str
        Names the workbook never uses for this term (each is wrong or ambiguous).
    formula : str
        Its definition as LaTeX (IIR ch. 8, trec_eval).
    notebook : str
        The notebook that teaches it.
    note : str
        Why the names are what they are (a catalogue message).
    english_pattern : str
        A regular expression finding the term in an English message.
    """

    english: str
    zh: str
    zh_also: tuple[str, ...]
    zh_avoid: tuple[str, ...]
    formula: str
    notebook: str
    note: str
    english_pattern: str

    @property
    def zh_names(self) -> tuple[str, ...]:
        """The preferred name, then the accepted ones."""
        return (self.zh, *self.zh_also)

    def named_in(self, english: str) -> bool:
        """Whether an English text names the term (whole words, any case)."""
        return re.search(self.english_pattern, english, flags=re.IGNORECASE) is not None


_TERMS: dict[str, Term] = {
    "MAP": Term(
        N_("mean average precision (MAP)"),
        "平均精度均值",
        (),
        ("平均准确率均值",),
        r"\mathrm{MAP} = \frac{1}{|Q|}\sum_{q \in Q} \mathrm{AP}_q",
        "04_mean_average_precision",
        N_("The mean of the queries' APs, each query weighing the same."),
        r"\bmean average precision\b",
    ),
    "AP": Term(
        N_("average precision (AP)"),
        "平均精度",
        (),
        ("平均准确率", "平均精确率"),
        r"\mathrm{AP} = \frac{1}{R}\sum_{k=1}^{n} P@k \cdot \mathrm{rel}_k",
        "03_average_precision_by_hand",
        N_(
            "The sum of P@k at the ranks of the relevant results, divided by R, the query's "
            "relevant documents."
        ),
        r"\baverage precision\b",
    ),
    "interpolated precision": Term(
        N_("interpolated precision"),
        "插值精确率",
        (),
        (),
        r"p_{\mathrm{interp}}(r) = \max_{r' \ge r} p(r')",
        "07_pr_curves",
        N_("The best precision at this recall or any higher recall."),
        r"\binterpolated precision\b",
    ),
    "precision": Term(
        N_("precision"),
        "精确率",
        ("查准率",),
        ("准确率", "精度"),
        r"P@k = \frac{\text{relevant results in the top } k}{k}",
        "02_precision_and_recall_at_k",
        N_(
            "Articles also write 精度, the everyday word for exactness, and some "
            "write 准确率, which is accuracy; the workbook writes 精确率 and keeps "
            "精度 only inside 平均精度 (AP)."
        ),
        r"\bprecision\b",
    ),
    "recall": Term(
        N_("recall"),
        "召回率",
        ("查全率",),
        (),
        r"R@k = \frac{\text{relevant results in the top } k}{R}",
        "02_precision_and_recall_at_k",
        N_("The share of the query's relevant documents found in the top k."),
        r"\brecall\b",
    ),
    "accuracy": Term(
        N_("accuracy"),
        "准确率",
        ("正确率",),
        (),
        r"\mathrm{accuracy} = \frac{TP + TN}{TP + TN + FP + FN}",
        "01_why_order_matters",
        N_("The share of all decisions, relevant or not, that are right; blind to order."),
        r"\baccuracy\b",
    ),
    "cutoff": Term(
        N_("cutoff"),
        "截断",
        (),
        ("截止",),
        r"\mathrm{AP}@k = \frac{1}{R}\sum_{i=1}^{k} P@i \cdot \mathrm{rel}_i",
        "02_precision_and_recall_at_k",
        N_(
            "The rank k where a measure stops reading the list; trec_eval's AP@k still divides "
            "by R."
        ),
        r"\bcut-?offs?\b",
    ),
    "ties": Term(
        N_("ties"),
        "并列",
        (),
        ("平局",),
        r"\text{trec\_eval: score descending, then document id descending}",
        "09_why_maps_disagree",
        N_(
            "Results with the same score: the order between them is a convention, and AP "
            "depends on it."
        ),
        r"\bti(?:e|es|ed)\b",
    ),
    "relevance judgment": Term(
        N_("relevance judgment"),
        "相关性标注",
        ("标注",),
        ("相关性判断",),
        r"\text{qrels line: } q \;\; 0 \;\; d \;\; \mathrm{rel}",
        "12_judging_relevance",
        N_("A person's grade for one document and one query; a qrels file holds them."),
        r"\bjudge?ments?\b",
    ),
    "interpolation": Term(
        N_("interpolation"),
        "插值",
        (),
        (),
        r"\mathrm{11pt} = \frac{1}{11}\sum_{r \in \{0, 0.1, \ldots, 1\}} p_{\mathrm{interp}}(r)",
        "07_pr_curves",
        N_(
            "Reading precision at fixed recall levels by taking the best precision at that "
            "recall or beyond."
        ),
        r"\binterpolat\w*",
    ),
    "inter-annotator agreement": Term(
        N_("inter-annotator agreement"),
        "标注一致性",
        ("一致性",),
        (),
        r"\kappa = \frac{p_o - p_e}{1 - p_e}",
        "12_judging_relevance",
        N_("How far two annotators agree beyond chance (Cohen's kappa, Krippendorff's alpha)."),
        # not chance agreement p_e nor observed agreement p_o: shares, not the concept
        r"(?<!chance )(?<!observed )\bagreement\b(?! chance)",
    ),
}

#: The glossary, keyed by the term's short English name (read-only).
GLOSSARY = MappingProxyType(_TERMS)


def glossary_table(*, lang: str | None = None) -> pd.DataFrame:
    """The glossary as a table, headers and notes in the current language (or ``lang``).

    Parameters
    ----------
    lang : {"en", "zh"}, optional
        Language of the headers, the English names' column and the notes.

    Returns
    -------
    pandas.DataFrame
        One row per term (index: the short English name) with its name, the
        preferred Chinese name, other accepted names, the formula (LaTeX), the
        notebook that teaches it and a note.

    Examples
    --------
    >>> table = glossary_table()
    >>> list(table.columns)
    ['term', 'preferred Chinese', 'also written', 'formula', 'notebook', 'note']
    >>> table.loc["recall", "also written"]
    '查全率'
    """
    rows = {
        key: [
            tr(term.english, lang=lang),
            term.zh,
            "、".join(term.zh_also),
            f"${term.formula}$",
            term.notebook,
            tr(term.note, lang=lang),
        ]
        for key, term in GLOSSARY.items()
    }
    headers = [
        tr("term", lang=lang),
        tr("preferred Chinese", lang=lang),
        tr("also written", lang=lang),
        tr("formula", lang=lang),
        tr("notebook", lang=lang),
        tr("note", lang=lang),
    ]
    return pd.DataFrame.from_dict(rows, orient="index", columns=headers)


def glossary_markdown(*, lang: str | None = None) -> str:
    """The glossary as a Markdown table (formulas typeset, notebooks linked).

    For a notebook cell: ``IPython.display.Markdown(glossary_markdown())``. Links
    point at notebooks beside the one that shows the table.

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
    | term | preferred Chinese | also written | formula | notebook | note |
    >>> "| recall | **召回率** | 查全率 |" in glossary_markdown()
    True
    """
    table = glossary_table(lang=lang)
    lines = [
        "| " + " | ".join(table.columns) + " |",
        "|" + " --- |" * len(table.columns),
    ]
    for name, also, formula, notebook, note, zh in zip(
        table.iloc[:, 0],
        table.iloc[:, 2],
        table.iloc[:, 3],
        table.iloc[:, 4],
        table.iloc[:, 5],
        table.iloc[:, 1],
        strict=True,
    ):
        link = f"[{notebook}]({notebook}.ipynb)"
        lines.append(f"| {name} | **{zh}** | {also} | {formula} | {link} | {note} |")
    return "\n".join(lines)
